"""3. Restart: how long a fresh bot takes to bring N live tables back from SQLite.

The tables are written straight through db.store.Store (create_table, start_game, set_table_message),
each holding a real Zip Zap game a few actions in (self-play), with two people and two computer
players, so resuming rebuilds real engine states, reschedules real timers and re-plans real
computer players. Then a fresh bot (no Discord connection needed) is timed on:
- ``Referee.resume()`` alone (load rows, rebuild tables, timers, computer plans), and
- the whole ``setup_hook`` (buttons, every game's cog, resume, scheduler start; no command sync).
Each is repeated and the median kept, each time on a brand-new bot object.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.common import Table, sqlite_url

GAME = "zipzap"
PLAYERS = 4
GUILD_ID = 1
# Ids far from anything SimCord or the e2e part would hand out; only uniqueness matters here.
CHANNEL_BASE = 7_000_000
USER_BASE = 8_000_000
MESSAGE_BASE = 9_000_000


async def add_live_tables(url: str, start: int, count: int, seed: int) -> None:
    """Tables ``start .. start+count-1`` in status playing, each mid-game."""
    from db.engine import Database
    from db.models import utcnow
    from db.snapshots import SNAPSHOT_EVERY
    from db.store import SeatSpec, Store
    from rules import get_game
    from rules.selfplay import play_game

    game = get_game(GAME)
    timers = game.timers["relaxed"]
    database = Database(url)
    store = Store(database)
    try:
        for i in range(start, start + count):
            people = [SeatSpec(s, USER_BASE + 10 * i + s, f"Player {i}.{s}") for s in range(2)]
            computers = [
                SeatSpec(2 + k, None, f"Robo {k + 1} ({level})", computer_level=level)
                for k, level in enumerate(("casual", "sharp"))
            ]
            seats = people + computers
            table_id = await store.create_table(
                guild_id=GUILD_ID,
                channel_id=CHANNEL_BASE + i,
                game=GAME,
                host_id=people[0].user_id or 0,
                options={"seats": PLAYERS, "rules": {}},
                speed="relaxed",
                seed=seed + i,
                seats=seats,
            )
            # A game some way in (its length varies per table), not a fresh deal.
            record = play_game(game, PLAYERS, {}, seed + i, ["casual", "sharp"], max_actions=5 + i % 30)
            # As the referee stores a table (db/snapshots.py): a snapshot, then the actions after
            # it (0 to SNAPSHOT_EVERY - 1 of them), which resuming replays through the engine.
            actions = list(record.actions)
            if record.state.is_over():
                actions = []
            state = game.new_game(PLAYERS, game.parse_options({}), seed + i)
            since = len(actions) - len(actions) % SNAPSHOT_EVERY
            for seat, action in actions[:since]:
                state.apply(seat, action)
            snapshot = state.to_json()
            for seat, action in actions[since:]:
                state.apply(seat, action)
            deadline_at = deadline_action = None
            for quiet in state.quiet_actions():
                seconds = timers.get(quiet.timer)
                if seconds is not None:
                    deadline_at, deadline_action = utcnow() + timedelta(seconds=seconds), quiet.action
                    break
            await store.start_game(
                table_id,
                version=1,  # the first change of a new row (the version check wants row + 1)
                seats=seats,
                state=snapshot,
                log=[f"The game begins with {PLAYERS} players."],
                deadline_at=deadline_at,
                deadline_action=deadline_action,
            )
            for version, (seat, action) in enumerate(actions[since:], start=2):
                await store.write(
                    table_id,
                    version=version,
                    values={},
                    action=(seat, action, None),
                    action_log={"lines": [f"Action {version}."], "fresh": False},
                )
            await store.set_table_message(table_id, MESSAGE_BASE + i)
    finally:
        await database.dispose()


def fresh_bot(url: str) -> Any:
    from bot import Settings, create_bot

    return create_bot(Settings(token=None, database_url=url), sync_commands=False)


async def load_cogs(bot: Any) -> None:
    """The game cogs, as setup_hook loads them before resuming: resume() needs each game's UI."""
    import importlib.util

    import bot as entry

    for name in entry.EXTENSIONS:
        if importlib.util.find_spec(name) is not None:
            await bot.load_extension(name)


async def _close(bot: Any) -> None:
    bot.scheduler.stop()
    await bot.release()  # give up shard 0's lease, or the fresh process below is refused it
    await bot.database.dispose()


async def time_resume(url: str, expected: int) -> tuple[float, int]:
    bot = fresh_bot(url)
    try:
        await load_cogs(bot)
        started = time.perf_counter()
        count = await bot.referee.resume()
        elapsed = time.perf_counter() - started
        ready = sum(1 for t in bot.referee.tables.values() if t.status == "playing" and t.state is not None)
    finally:
        await _close(bot)
    if count != expected:
        raise RuntimeError(f"resume() found {count} live tables, expected {expected}")
    return elapsed, ready


async def time_setup_hook(url: str) -> tuple[float, int]:
    bot = fresh_bot(url)
    try:
        started = time.perf_counter()
        await bot.setup_hook()
        elapsed = time.perf_counter() - started
        ready = sum(1 for t in bot.referee.tables.values() if t.status == "playing" and t.state is not None)
    finally:
        await _close(bot)
    return elapsed, ready


async def time_query(url: str) -> float:
    """Only loading the rows (Store.live_tables), to split database time from rebuilding time."""
    from db.engine import Database
    from db.store import Store

    database = Database(url)
    try:
        started = time.perf_counter()
        await Store(database).live_tables()
        return time.perf_counter() - started
    finally:
        await database.dispose()


async def _fresh(url: str) -> dict[str, Any]:
    """In a brand-new interpreter: the whole setup_hook (with gc.freeze as the bot does it), and
    the resume() inside it, timed apart."""
    started = time.perf_counter()
    bot = fresh_bot(url)
    imported = time.perf_counter() - started
    timing: dict[str, float] = {}
    original = bot.referee.resume

    async def resume() -> int:
        began = time.perf_counter()
        try:
            return await original()
        finally:
            timing["resume_s"] = time.perf_counter() - began

    bot.referee.resume = resume
    try:
        began = time.perf_counter()
        await bot.setup_hook()
        timing["setup_hook_s"] = time.perf_counter() - began
        timing["tables"] = len(bot.referee.tables)
    finally:
        await _close(bot)
    return {"import_and_build_s": round(imported, 4)} | {k: round(v, 4) for k, v in timing.items()}


def time_fresh_process(url: str) -> dict[str, Any]:
    """``python -m bench.resume fresh <url>``: nothing cached in the process, the first resume."""
    import json
    import subprocess
    import sys

    from bench.common import ROOT

    done = subprocess.run(
        [sys.executable, "-m", "bench.resume", "fresh", url], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode != 0:  # say why, not just that it failed
        raise RuntimeError(f"the fresh process failed ({done.returncode}): {done.stderr.strip()[-600:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def clean_copy(url: str, path: Path) -> str:
    """A copy of the live-tables database as a clean stop leaves it: a bot resumes the tables and
    stores the snapshot of every table that is behind, as Lifecycle.shutdown does, so
    resuming it replays nothing. The original stays as a crash leaves it."""
    import sqlite3

    source = sqlite3.connect(url.split("///", 1)[1])
    target = sqlite3.connect(path)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    clean = sqlite_url(path)

    async def stop_cleanly() -> None:
        bot = fresh_bot(clean)
        try:
            await load_cogs(bot)
            await bot.referee.resume()
            # What Lifecycle.shutdown writes once the clicks have stopped; the rest of the
            # shutdown (drawing pending edits) needs a Discord connection this bot lacks.
            await bot.referee.lifecycle.snapshot_behind()
        finally:
            await _close(bot)

    asyncio.run(stop_cleanly())
    return clean


async def pending_actions(url: str) -> int:
    """How many stored actions a resume of ``url`` replays (those after their table's snapshot)."""
    from sqlalchemy import func, select

    from db.engine import Database
    from db.models import LIVE_STATUSES, ActionRow, Game

    database = Database(url)
    try:
        async with database.sessions() as session:
            query = (
                select(func.count())
                .select_from(ActionRow)
                .join(Game, Game.id == ActionRow.game_id)
                .where(Game.status.in_(LIVE_STATUSES), ActionRow.seq > Game.state_version)
            )
            return int(await session.scalar(query) or 0)
    finally:
        await database.dispose()


async def _measure_clean(url: str, n: int, repeats: int) -> dict[str, Any]:
    await time_resume(url, n)  # the first, apart, as in _measure
    resume = [await time_resume(url, n) for _ in range(repeats)]
    return {
        "replayed_actions": await pending_actions(url),
        "resume_s": round(statistics.median(r[0] for r in resume), 4),
        "resume_min_s": round(min(r[0] for r in resume), 4),
        "fresh_process_resume_s": [
            (await asyncio.to_thread(time_fresh_process, url))["resume_s"] for _ in range(repeats)
        ],
    }


async def _measure(url: str, n: int, repeats: int) -> dict[str, Any]:
    # The first resume in this process also pays one-off costs (lazy imports, first connection to
    # a cold file); kept apart as "first", the repeats after it give the steady figure.
    first = await time_resume(url, n)
    resume = [await time_resume(url, n) for _ in range(repeats)]
    hook = [await time_setup_hook(url) for _ in range(repeats)]
    query = [await time_query(url) for _ in range(repeats)]
    fresh = [await asyncio.to_thread(time_fresh_process, url) for _ in range(repeats)]
    resume_s = statistics.median(r[0] for r in resume)
    hook_s = statistics.median(h[0] for h in hook)
    return {
        "tables": n,
        "repeats": repeats,
        "replayed_actions": await pending_actions(url),
        "resume_s": round(resume_s, 4),
        "resume_min_s": round(min(r[0] for r in resume), 4),
        "resume_first_s": round(first[0], 4),
        "resume_ms_per_table": round(resume_s / n * 1000, 4),
        "setup_hook_s": round(hook_s, 4),
        "setup_hook_min_s": round(min(h[0] for h in hook), 4),
        "load_rows_s": round(statistics.median(query), 4),
        "fresh_process_resume_s": [f["resume_s"] for f in fresh],
        "fresh_process_setup_hook_s": [f["setup_hook_s"] for f in fresh],
        "ready_after_resume": min(r[1] for r in resume),
        "ready_after_setup_hook": min(h[1] for h in hook),
    }


def ensure_live_db(workdir: Path, n: int, progress: Callable[[str], None], seed: int = 1) -> str:
    """The run's live-tables database grown to ``n`` tables (shared by resume and memory)."""
    from db.engine import migrate

    path = workdir / "live.sqlite3"
    url = sqlite_url(path)
    marker = workdir / "live.count"
    have = int(marker.read_text()) if marker.exists() else 0
    if have == 0:
        migrate(url)
    if have < n:
        started = time.perf_counter()
        asyncio.run(add_live_tables(url, have, n - have, seed))
        progress(
            f"  built live tables {have}..{n - 1} through Store in {time.perf_counter() - started:.1f} s"
        )
        marker.write_text(str(n))
    return url


def run(*, workdir: Path, sizes: list[int], repeats: int, progress: Callable[[str], None]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for n in sorted(sizes):
        progress(f"resume: {n} live tables")
        try:
            url = ensure_live_db(workdir, n, progress)
            out[str(n)] = asyncio.run(_measure(url, n, repeats))
            # The same tables after a clean stop: their snapshots written at shutdown.
            clean = clean_copy(url, workdir / f"live-clean-{n}.sqlite3")
            out[str(n)]["clean"] = asyncio.run(_measure_clean(clean, n, repeats))
        except Exception as error:
            import traceback

            out[str(n)] = {
                "error": f"{type(error).__name__}: {error}",
                "trace": traceback.format_exc(limit=6),
            }
    return {"game": GAME, "players": PLAYERS, "sizes": out}


def tables(result: dict[str, Any]) -> list[Table]:
    t = Table(
        "Restart: a fresh bot resuming N live tables from SQLite (median of repeats)",
        [
            "tables",
            "after",
            "replayed",
            "resume() s",
            "ms/table",
            "setup_hook s",
            "load rows s",
            "fresh process resume() s",
            "ready",
        ],
    )
    for n, r in result["sizes"].items():
        if "error" in r:
            t.add(n, "error", r["error"][:70], "", "", "", "", "", "")
            continue
        t.add(
            n,
            "a crash",
            r["replayed_actions"],
            r["resume_s"],
            r["resume_ms_per_table"],
            r["setup_hook_s"],
            r["load_rows_s"],
            " / ".join(f"{x:.3f}" for x in r["fresh_process_resume_s"]),
            f"{r['ready_after_resume']}/{r['tables']}",
        )
        c = r["clean"]
        t.add(
            n,
            "a clean stop",
            c["replayed_actions"],
            c["resume_s"],
            round(c["resume_s"] / int(n) * 1000, 4),
            "",
            "",
            " / ".join(f"{x:.3f}" for x in c["fresh_process_resume_s"]),
            "",
        )
    t.notes.append(
        f"{result['game']}, {result['players']} seats (2 people, 2 computers), mid-game states;"
        " setup_hook = buttons + cogs + resume + scheduler start, without command sync;"
        " fresh process = each run in a new interpreter (python -m bench.resume fresh), first resume;"
        " a crash = the tables as stored between snapshots (replayed = actions after them);"
        " a clean stop = a copy a bot resumed and shut down, which stores every snapshot that is behind"
    )
    return [t]


if __name__ == "__main__":
    import json
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "fresh":
        print(json.dumps(asyncio.run(_fresh(sys.argv[2]))))
    else:
        raise SystemExit("usage: python -m bench.resume fresh <database url>")
