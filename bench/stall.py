"""6. The event loop under slow computers: Trap tables with a `hard` computer next to busy Zip Zap
tables, in one bot.

Three Trap tables, each a person against the hard computer (the person types `/trap move` with a
legal move whenever it is their turn, once a virtual second), and two Zip Zap tables of four
people clicking their hand panels in bursts. Measured: every loop step of the bot's own work
(``bench.e2e.watch_loop``: while one step runs, no other click or timer can), its max and p99, and
how long the hard computer's decisions took. Run twice in the same process: as the bot runs
(slow decisions in the process pool) and with the pool turned off (every decision on the loop, as
before issue 12), so the difference is measured, not claimed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import Table, sqlite_url, summary_ms

TRAP_TABLES = 3
ZIPZAP_TABLES = 2


async def scenario(*, database: Path, seconds: int, off_loop: bool, step: float) -> dict[str, Any]:
    import simcord

    import cogs.table.computers as referee_module
    from bench.e2e import (
        GC_PAUSES,
        GameDriver,
        LiveTable,
        Person,
        Probe,
        _advance,
        _burst,
        _next_click,
        _table_id,
        watch_loop,
    )
    from bot import Settings, create_bot
    from cogs.table.thinking import thinks_long
    from db.engine import migrate

    url = sqlite_url(database)
    await asyncio.to_thread(migrate, url)
    bot = create_bot(Settings(token=None, database_url=url))
    # Quick computers, so the hard ones reach main play (where they search) within the run.
    bot.referee.computer_speed = 0.1
    if not off_loop:
        referee_module.thinks_long = lambda _player: False  # type: ignore[assignment]
    decisions: list[float] = []
    steps_bot: list[float] = []
    steps_all: list[float] = []
    undo: list[Callable[[], None]] = []
    try:
        async with simcord.run(bot, settle_timeout=600, check_errors=False) as env:
            referee = bot.referee
            # How long each hard decision took, wherever it ran (real seconds).
            hard_choose = type(referee.computer("trap", "hard"))
            original_choose = hard_choose.choose

            def timed_choose(self: Any, *args: Any) -> Any:
                started = time.perf_counter()
                try:
                    return original_choose(self, *args)
                finally:
                    decisions.append(time.perf_counter() - started)

            if not off_loop:
                hard_choose.choose = timed_choose  # type: ignore[method-assign]
                undo.append(lambda: setattr(hard_choose, "choose", original_choose))
            original_decide = referee.thinker.decide

            async def timed_decide(*args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await original_decide(*args, **kwargs)
                finally:
                    decisions.append(time.perf_counter() - started)

            referee.thinker.decide = timed_decide  # type: ignore[method-assign]
            guild = env.create_guild(name="Stall night")
            traps = []
            for i in range(TRAP_TABLES):
                channel = guild.create_text_channel(f"trap-{i}")
                person = guild.add_member(env.create_user(f"t{i}"))
                await person.slash(channel, "trap new", quick_setup=True)
                lobby = channel.last_message
                await person.click(lobby, label="Add computer: hard")
                await person.click(lobby, label="Start")
                traps.append((person, channel, referee.table_in(channel.id)))
            zipzaps = []
            for i in range(ZIPZAP_TABLES):
                channel = guild.create_text_channel(f"zipzap-{i}")
                people = [Person(guild.add_member(env.create_user(f"z{i}x{j}"))) for j in range(4)]
                await people[0].actor.slash(channel, "zipzap new", seats=4, speed="fast")
                lobby = channel.last_message
                table_id = _table_id(lobby)
                for p in people[1:]:
                    await p.actor.click(lobby, label="Join")
                await people[0].actor.click(lobby, label="Start")
                zipzaps.append(LiveTable("zipzap", channel, people[0].actor, people, lobby, table_id))
            probe = Probe(env)
            GC_PAUSES.clear()
            undo.append(watch_loop(steps_bot, steps_all))
            wall0 = time.perf_counter()
            trap_moves = 0
            driver = GameDriver("zipzap", people=4)
            for _ in range(seconds):
                for person, channel, table in traps:
                    if table.status != "playing" or table.state is None:
                        continue
                    legal = table.state.legal_actions(0)
                    if legal:
                        await person.slash(channel, "trap move", move=sorted(legal)[0])
                        trap_moves += 1
                clicks = [
                    _next_click(t, p, driver)
                    for t in zipzaps
                    if referee.tables.get(t.table_id) is not None
                    for p in t.people
                ]
                await _burst(env, probe, clicks, 10)
                await _advance(env, probe, 1.0, step)
            wall = time.perf_counter() - wall0
    finally:
        for step_back in reversed(undo):
            step_back()
        referee_module.thinks_long = thinks_long
        bot.referee.stop_thinking()
        await bot.database.dispose()
    return {
        "off_loop": off_loop,
        "virtual_s": seconds,
        "wall_s": round(wall, 1),
        "trap_person_moves": trap_moves,
        "hard_decisions": summary_ms(decisions, 1),
        "loop_step_bot": summary_ms(steps_bot),
        "loop_step_all": summary_ms(steps_all),
        "full_gc_pauses": summary_ms(GC_PAUSES),
    }


def run(*, workdir: Path, seconds: int, step: float, progress: Callable[[str], None]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for off_loop in (True, False):
        label = "pool" if off_loop else "on loop"
        progress(
            f"stall: {TRAP_TABLES} Trap tables with a hard computer + {ZIPZAP_TABLES} busy Zip Zap, {label}"
        )
        try:
            out[label] = asyncio.run(
                scenario(
                    database=workdir / f"stall-{label.replace(' ', '-')}.sqlite3",
                    seconds=seconds,
                    off_loop=off_loop,
                    step=step,
                )
            )
        except Exception as error:
            out[label] = {"error": f"{type(error).__name__}: {error}"}
    return out


def tables(result: dict[str, Any]) -> list[Table]:
    t = Table(
        f"Event loop with {TRAP_TABLES} Trap hard tables and {ZIPZAP_TABLES} busy Zip Zap tables",
        [
            "hard thinks",
            "stall max",
            "stall p99",
            "all steps max",
            "full GC max",
            "hard decisions",
            "decision p50",
            "decision max",
        ],
    )
    for label, r in result.items():
        if "error" in r:
            t.add(label, "error", r["error"][:60], "", "", "", "", "")
            continue
        t.add(
            label,
            r["loop_step_bot"]["max_ms"],
            r["loop_step_bot"]["p99_ms"],
            r["loop_step_all"]["max_ms"],
            r["full_gc_pauses"]["max_ms"],
            r["hard_decisions"]["n"],
            r["hard_decisions"]["p50_ms"],
            r["hard_decisions"]["max_ms"],
        )
    t.notes.append(
        "ms; stall = the longest one step of the bot's own work ran on the event loop (p99 over steps"
        " of 0.5 ms or more); all steps includes SimCord's own settling; decisions timed where they ran"
    )
    return [t]
