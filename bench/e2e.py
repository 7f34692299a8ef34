"""2. The real bot end to end through SimCord: many live tables at once in one simulated Discord.

Each table is opened the way people open one (`/<game> new`, Join, Add computer, Start) and then
played by computer players plus scripted people who click their hand panels, like
tests/e2e/zipzap_driver.py. Clicks are put in flight in bursts (several interactions waiting for
the bot at once, as on real Discord) rather than one at a time, so queueing shows in the figures.

Everything is measured inside the bot by wrapping methods at runtime (nothing in cogs/ changes):
- interaction handling time: from the moment discord.py parses INTERACTION_CREATE to the end of
  the referee's handler, which has answered the interaction by then (database commit included);
- Referee.act (engine + commit) per accepted or refused action, people and computers alike;
- REST calls per accepted game action (SimCord's HTTP log; actions counted by Referee.on_change);
- the most edits of one channel's messages in any 5-second window of virtual time.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import Table, sqlite_url, summary_ms

EDIT_WINDOW_S = 5.0
TABLE_EDIT = re.compile(r"/channels/(\d+)/messages/(\d+)$")
TABLE_ID = re.compile(r"gt:(\d+):")


# --- how each game's tables are opened and played ------------------------------------------------


def first_playable(panel: Any) -> str | None:
    """The scripted person's move: the first enabled game button on their panel (what a player who
    always plays the first card offered would press), else None."""
    from tests.e2e.simhelpers import playable

    offered = playable(panel)
    return offered[0]["custom_id"] if offered else None


@dataclass(frozen=True)
class GameDriver:
    """How to open and play one game's table through its real slash command and lobby buttons.

    The lobby (Join / Add computer / Start) is the shared framework's, so only the command, the
    seating and the person's click strategy differ per game. Register a game in DRIVERS to put it
    in the mix; ``--e2e-games all`` also tries the generic driver on every game with a cog."""

    key: str
    people: int = 2
    computers: tuple[str, ...] = ()  # levels; empty = the game's levels in order
    options: dict[str, Any] = field(default_factory=lambda: {"speed": "relaxed"})
    choose: Callable[[Any], str | None] = first_playable

    def computer_levels(self, game: Any, seats: int) -> list[str]:
        wanted = list(self.computers) or list(game.computer_levels)
        return [wanted[i % len(wanted)] for i in range(seats - self.people)]

    def seats(self, game: Any) -> int:
        from bench.engines import default_players

        return max(default_players(game), self.people)


# Zip Zap: two people and a casual and a sharp computer, four seats (the engines' default).
DRIVERS: dict[str, GameDriver] = {"zipzap": GameDriver("zipzap", people=2, computers=("casual", "sharp"))}


def driver_for(key: str) -> GameDriver:
    return DRIVERS.get(key) or GameDriver(key)


# --- instrumentation ---------------------------------------------------------------------------


@dataclass
class Probe:
    """Everything recorded inside the bot during one scenario."""

    env: Any
    received: dict[int, float] = field(default_factory=dict)
    handling: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    queued: list[float] = field(default_factory=list)
    act: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    changes: int = 0
    edits: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    samples: list[tuple[int, float]] = field(default_factory=list)
    warnings: Counter[str] = field(default_factory=Counter)

    def virtual_now(self) -> float:
        return float(self.env.now().timestamp())

    def sample(self) -> None:
        """Remember how far the HTTP log had got at this virtual instant (for the sampled count)."""
        self.samples.append((len(self.env.http_requests), self.virtual_now()))


class _CountingHandler(logging.Handler):
    """Counts the bot's warnings and errors instead of printing thousands of lines."""

    def __init__(self, probe: Probe) -> None:
        super().__init__(logging.WARNING)
        self.probe = probe

    def emit(self, record: logging.LogRecord) -> None:
        self.probe.warnings[f"{record.name}: {record.getMessage()[:70]}"] += 1


def instrument(bot: Any, env: Any) -> Probe:
    probe = Probe(env)
    referee = bot.referee

    # Receipt: when discord.py parses the gateway event, before any task is scheduled for it.
    parsers = bot._connection.parsers
    parse_interaction = parsers["INTERACTION_CREATE"]

    def parse(data: Any) -> None:
        probe.received[int(data["id"])] = time.perf_counter()
        parse_interaction(data)

    parsers["INTERACTION_CREATE"] = parse

    def timed(kind_of: Callable[..., str], original: Callable[..., Any]) -> Callable[..., Any]:
        async def handler(interaction: Any, *args: Any) -> None:
            entered = time.perf_counter()
            # Called, not wrapped in a task: the referee still takes the table lock before its
            # first await, so arrival order keeps deciding races exactly as without the probe.
            try:
                await original(interaction, *args)
            finally:
                done = time.perf_counter()
                start = probe.received.pop(interaction.id, entered)
                probe.handling[kind_of(*args)].append(done - start)
                probe.queued.append(entered - start)

        return handler

    def table_kind(_table_id: int, verb: str, _arg: str | None) -> str:
        return (
            "lobby button"
            if verb in ("join", "leave", "cpu", "start", "cancel", "swap")
            else f"{verb} button"
        )

    referee.on_table_button = timed(table_kind, referee.on_table_button)
    referee.on_action_button = timed(lambda *_: "panel action", referee.on_action_button)

    original_act = referee.act

    async def act(table: Any, seat: int | None, action: str, actor_id: int | None) -> Any:
        started = time.perf_counter()
        who = "timer" if seat is None else ("person" if actor_id is not None else "computer")
        try:
            return await original_act(table, seat, action, actor_id)
        finally:
            probe.act[who].append(time.perf_counter() - started)

    referee.act = act

    def on_change(_table: Any, _events: Any) -> None:
        probe.changes += 1

    referee.on_change.append(on_change)

    # Exact virtual time of every edit of a channel message (the table message), per channel.
    http = bot.http
    edit_message = http.edit_message

    def timed_edit(channel_id: Any, message_id: Any, *args: Any, **kwargs: Any) -> Any:
        probe.edits[int(channel_id)].append(probe.virtual_now())
        return edit_message(channel_id, message_id, *args, **kwargs)

    http.edit_message = timed_edit
    logging.getLogger().addHandler(_CountingHandler(probe))
    return probe


def max_in_window(times: list[float], window: float = EDIT_WINDOW_S) -> int:
    """Most events in any closed window of ``window`` seconds (the referee promises ≤5 in 5 s)."""
    ordered = sorted(times)
    best = lo = 0
    for hi, t in enumerate(ordered):
        while t - ordered[lo] > window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def sampled_edit_times(probe: Probe, start: int) -> dict[int, list[float]]:
    """Table edits per channel timed by sampling: each request gets the virtual time of the first
    sample taken after it (after every click burst and every advance_time step)."""
    log = probe.env.http_requests
    out: dict[int, list[float]] = defaultdict(list)
    previous = start
    for index, moment in probe.samples:
        for entry in log[previous:index]:
            match = TABLE_EDIT.search(entry.path)
            if entry.method == "PATCH" and match and entry.path.startswith("/channels/"):
                out[int(match.group(1))].append(moment)
        previous = max(previous, index)
    return out


def route_kind(method: str, path: str) -> str:
    if path.startswith("/interactions/") and path.endswith("/callback"):
        return "interaction responses"
    if path.startswith("/webhooks/") and method == "PATCH":
        return "panel edits (webhook PATCH)"
    if path.startswith("/webhooks/"):
        return "follow-ups (webhook POST)"
    if method == "PATCH" and TABLE_EDIT.search(path):
        return "table edits (channel PATCH)"
    if method == "POST" and path.startswith("/channels/") and path.endswith("/messages"):
        return "channel posts"
    return f"other {method}"


# --- one scenario ----------------------------------------------------------------------------


@dataclass
class Person:
    actor: Any
    panel: Any = None
    clicks: int = 0


@dataclass
class LiveTable:
    key: str
    channel: Any
    host: Any
    people: list[Person]
    lobby: Any = None
    table_id: int = 0


async def _burst(
    env: Any, probe: Probe, clicks: list[tuple[Any, Any, str, Callable[[Any], None] | None]], size: int
) -> None:
    """Emit clicks ``size`` at a time, each batch in flight together, then let the bot finish it."""
    from tests.e2e.simhelpers import emit_click

    for start in range(0, len(clicks), size):
        flights = []
        for actor, message, custom_id, then in clicks[start : start + size]:
            flights.append((emit_click(actor, message, custom_id), then))
        await env.settle()
        probe.sample()
        for flight, then in flights:
            if then is not None:
                then(flight.result.response)


async def _advance(env: Any, probe: Probe, seconds: float, step: float) -> None:
    """advance_time in small steps: each must settle within settle_timeout of real time, and each
    step is a sampling point for the HTTP log."""
    done = 0.0
    while done < seconds - 1e-9:
        chunk = min(step, seconds - done)
        await env.advance_time(chunk)
        probe.sample()
        done += chunk


async def scenario(
    *,
    database: Path,
    tables: int,
    rounds: int,
    click_every: int,
    burst: int,
    step: float,
    games: list[str],
    settle_timeout: float,
    progress: Callable[[str], None],
    clicking: int,
) -> dict[str, Any]:
    import simcord

    from bot import Settings, create_bot
    from db.engine import migrate
    from rules import get_game

    url = sqlite_url(database)
    await asyncio.to_thread(migrate, url)  # Alembic runs its own event loop: keep it off ours
    bot = create_bot(Settings(token=None, database_url=url))
    wall0 = time.perf_counter()
    try:
        async with simcord.run(bot, settle_timeout=settle_timeout, check_errors=False) as env:
            probe = instrument(bot, env)
            available = [k for k in games if k in bot.referee.uis]
            skipped = [k for k in games if k not in bot.referee.uis]
            if not available:
                raise RuntimeError(f"none of the games {games} has a cog loaded in the bot")
            guild = env.create_guild(name="Bench night")
            live: list[LiveTable] = []
            for i in range(tables):
                key = available[i % len(available)]
                drv = driver_for(key)
                channel = guild.create_text_channel(f"table-{i}")
                people = [Person(guild.add_member(env.create_user(f"p{i}x{j}"))) for j in range(drv.people)]
                live.append(LiveTable(key, channel, people[0].actor, people))

            # Opening: the slash command is a SimCord verb (one at a time); the lobby clicks go in bursts.
            setup0 = time.perf_counter()
            for t in live:
                drv = driver_for(t.key)
                await t.host.slash(t.channel, f"{t.key} new", seats=drv.seats(get_game(t.key)), **drv.options)
                t.lobby = t.channel.last_message
                t.table_id = _table_id(t.lobby)
            joins = [(p.actor, t.lobby, f"gt:{t.table_id}:join", None) for t in live for p in t.people[1:]]
            await _burst(env, probe, joins, burst)
            cpus = []
            for t in live:
                drv, game = driver_for(t.key), get_game(t.key)
                for level in drv.computer_levels(game, drv.seats(game)):
                    cpus.append((t.host, t.lobby, f"gt:{t.table_id}:cpu:{level}", None))
            await _burst(env, probe, cpus, burst)
            await _burst(env, probe, [(t.host, t.lobby, f"gt:{t.table_id}:start", None) for t in live], burst)
            started = sum(1 for t in live if _status(bot, t) == "playing")
            setup_s = time.perf_counter() - setup0
            progress(f"  {tables} tables opened and started ({started} playing) in {setup_s:.1f} s")

            # Play: only the play phase counts towards REST-per-action and the window figures.
            handling_setup = {k: list(v) for k, v in probe.handling.items()}
            probe.handling.clear()
            probe.queued.clear()
            for v in probe.act.values():
                v.clear()
            probe.edits.clear()
            http0, changes0, virtual0 = len(env.http_requests), probe.changes, probe.virtual_now()
            probe.samples.clear()
            play0 = time.perf_counter()
            for r in range(rounds):
                clicks: list[tuple[Any, Any, str, Callable[[Any], None] | None]] = []
                if r % click_every == 0:
                    # Only the first ``clicking`` tables' people click (the rest sit idle and their
                    # computers play on): every opened ephemeral panel leaves discord.py a
                    # 15-minute View timeout task, and SimCord's settling costs grow with
                    # parked tasks × timers, so hundreds of open panels make the simulation,
                    # not the bot, the bottleneck.
                    for t in live[:clicking]:
                        if _status(bot, t) != "playing":
                            continue
                        drv = driver_for(t.key)
                        for p in t.people:
                            clicks.append(_next_click(t, p, drv))
                await _burst(env, probe, clicks, burst)
                await _advance(env, probe, 1.0, step)
                if (r + 1) % 5 == 0:
                    elapsed = time.perf_counter() - play0
                    progress(f"  round {r + 1}/{rounds}: {probe.changes - changes0} actions, {elapsed:.0f} s")
            play_s = time.perf_counter() - play0
            virtual_s = probe.virtual_now() - virtual0
            log = env.http_requests[http0:]
            actions = probe.changes - changes0
            routes = Counter(route_kind(e.method, e.path) for e in log)
            patch_count = sum(
                1
                for e in log
                if e.method == "PATCH" and TABLE_EDIT.search(e.path) and e.path.startswith("/channels/")
            )
            exact = {cid: max_in_window(times) for cid, times in probe.edits.items()}
            sampled = {cid: max_in_window(times) for cid, times in sampled_edit_times(probe, http0).items()}
            finished = sum(1 for t in live if _status(bot, t) == "finished")
            errors = len(env.errors)
            result = {
                "tables": tables,
                "games": sorted({t.key for t in live}),
                "games_without_cog": skipped,
                "people_per_table": {k: driver_for(k).people for k in available},
                "rounds_virtual_s": rounds,
                "click_every_s": click_every,
                "clicking_tables": min(clicking, tables),
                "burst": burst,
                "advance_step_s": step,
                "setup_wall_s": round(setup_s, 2),
                "play_wall_s": round(play_s, 2),
                "play_virtual_s": round(virtual_s, 2),
                "tables_playing_after_setup": started,
                "tables_finished_during_play": finished,
                "accepted_actions": actions,
                "person_clicks": sum(p.clicks for t in live for p in t.people),
                "interactions": sum(len(v) for v in probe.handling.values()),
                "handling": {kind: summary_ms(v) for kind, v in sorted(probe.handling.items())},
                "handling_all": summary_ms([x for v in probe.handling.values() for x in v]),
                "queued_before_handler": summary_ms(probe.queued),
                "handling_setup": {kind: summary_ms(v) for kind, v in sorted(handling_setup.items())},
                "act": {who: summary_ms(v) for who, v in sorted(probe.act.items())},
                "rest_calls": len(log),
                "rest_per_action": round(len(log) / actions, 3) if actions else None,
                "rest_per_action_by_kind": {k: round(n / actions, 3) for k, n in routes.most_common()}
                if actions
                else {},
                "table_edit_patches": patch_count,
                "table_edits_timed": sum(len(v) for v in probe.edits.values()),
                "max_edits_per_channel_5s": max(exact.values(), default=0),
                "max_edits_per_channel_5s_sampled": max(sampled.values(), default=0),
                "channels_over_5_in_5s": sum(1 for n in exact.values() if n > 5),
                "actions_per_virtual_s": round(actions / virtual_s, 2) if virtual_s else None,
                "actions_per_wall_s": round(actions / play_s, 2) if play_s else None,
                "bot_errors": errors,
                "bot_warnings": dict(probe.warnings.most_common(8)),
            }
    finally:
        await bot.database.dispose()
    result["total_wall_s"] = round(time.perf_counter() - wall0, 2)
    return result


def _table_id(lobby: Any) -> int:
    for custom_id in _custom_ids(lobby):
        match = TABLE_ID.match(custom_id)
        if match:
            return int(match.group(1))
    raise RuntimeError("the lobby message has no table buttons")


def _custom_ids(message: Any) -> list[str]:
    from tests.e2e.simhelpers import buttons

    return [b.get("custom_id") or "" for b in buttons(message)]


def _status(bot: Any, t: LiveTable) -> str | None:
    referee = bot.referee
    table = referee.tables.get(t.table_id) or referee.finished.get(t.table_id)
    return None if table is None else str(table.status)


def _next_click(
    t: LiveTable, p: Person, drv: GameDriver
) -> tuple[Any, Any, str, Callable[[Any], None] | None]:
    """Open the hand panel first; then play what the driver picks, else press Refresh."""
    p.clicks += 1

    def keep(panel: Any) -> None:
        p.panel = panel

    if p.panel is None:
        return (p.actor, t.lobby, f"gt:{t.table_id}:hand", keep)
    choice = drv.choose(p.panel)
    if choice is None:
        refresh = [c for c in _custom_ids(p.panel) if c.endswith(":refresh")]
        if not refresh:
            return (p.actor, t.lobby, f"gt:{t.table_id}:hand", keep)
        choice = refresh[0]
    return (p.actor, p.panel, choice, None)


def run(
    *,
    workdir: Path,
    sizes: list[tuple[int, int, int]],
    burst: int,
    step: float,
    games: list[str],
    settle_timeout: float,
    progress: Callable[[str], None],
    clicking: int,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for tables, rounds, click_every in sizes:
        progress(
            f"e2e: {tables} tables, {rounds} virtual s, people click every {click_every} s, bursts of {burst}"
        )
        try:
            out[str(tables)] = asyncio.run(
                scenario(
                    database=workdir / f"e2e-{tables}.sqlite3",
                    tables=tables,
                    rounds=rounds,
                    click_every=click_every,
                    burst=burst,
                    step=step,
                    games=games,
                    settle_timeout=settle_timeout,
                    progress=progress,
                    clicking=clicking,
                )
            )
        except Exception as error:
            import traceback

            out[str(tables)] = {
                "error": f"{type(error).__name__}: {error}",
                "trace": traceback.format_exc(limit=8),
            }
    return {"scenarios": out}


def tables(result: dict[str, Any]) -> list[Table]:
    t = Table(
        "End to end: the real bot in SimCord (play phase; times from receipt to acknowledgement)",
        [
            "tables",
            "actions",
            "clicks",
            "click p50",
            "click p99",
            "panel p50",
            "panel p99",
            "act p50",
            "act p99",
            "REST/action",
            "max edits/5s",
            "wall s",
        ],
    )
    notes = []
    for size, r in result["scenarios"].items():
        if "error" in r:
            t.add(size, "error", r["error"][:60], *[""] * 9)
            continue
        allh = r["handling_all"]
        panel = r["handling"].get("panel action", {})
        person = r["act"].get("person", {})
        t.add(
            size,
            r["accepted_actions"],
            r["person_clicks"],
            allh["p50_ms"],
            allh["p99_ms"],
            panel.get("p50_ms"),
            panel.get("p99_ms"),
            person.get("p50_ms"),
            person.get("p99_ms"),
            r["rest_per_action"],
            f"{r['max_edits_per_channel_5s']} ({r['max_edits_per_channel_5s_sampled']})",
            r["setup_wall_s"] + r["play_wall_s"],
        )
        kinds = ", ".join(f"{k} {v}" for k, v in r["rest_per_action_by_kind"].items())
        notes.append(
            f"{size} tables: {r['play_virtual_s']:.0f} virtual s,"
            f" people at {r['clicking_tables']} tables click, each once every {r['click_every_s']} s"
            f" in bursts of {r['burst']}; games {','.join(r['games'])}; errors {r['bot_errors']},"
            f" warnings {sum(r['bot_warnings'].values())}; REST per action: {kinds}"
        )
    t.notes.extend(notes)
    t.notes.append(
        "times in ms; click = every button interaction, panel = card clicks on hand panels,"
        " act = Referee.act (engine + commit) for people; max edits: exact (sampled after each step)"
    )
    return [t]
