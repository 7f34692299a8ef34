"""4. Footprint: memory per live table, and database bytes per 1,000 committed actions.

Memory: a fresh bot resumes the run's N live Zip Zap tables (see bench/resume.py) and the growth is
divided by N — once with tracemalloc (Python allocations, exact, with where they come from) and
once as resident set size (what the OS sees, allocator slack included, noisier). The bot's
database engine is warmed up first so its one-off cost is not charged to the tables.

Database: for every game, self-play games are replayed action by action through
Store.commit_action (action row + state snapshot + log, results and standings at the end, one
transaction each, exactly as Referee.act commits) into a fresh SQLite file; the file is then
checkpointed (WAL folded in and truncated) and its growth divided by the actions committed.
"""

from __future__ import annotations

import asyncio
import gc
import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.common import (
    ROOT,
    Table,
    checkpoint,
    percentile,
    rss_bytes,
    sqlite_files_size,
    sqlite_url,
    summary_ms,
    table_sizes,
)

GUILD_ID = 1
MAX_ACTIONS_PER_GAME = 400


async def _warm(bot: Any) -> None:
    from sqlalchemy import text

    async with bot.database.sessions() as session:
        await session.execute(text("SELECT 1"))


async def rss_growth(url: str) -> dict[str, Any]:
    """Resident set growth of one resume, meant for a fresh process (see rss_in_child)."""
    from bench.resume import _close, fresh_bot, load_cogs

    bot = fresh_bot(url)
    try:
        await load_cogs(bot)
        await _warm(bot)
        gc.collect()
        rss0 = rss_bytes()
        count = await bot.referee.resume()
        gc.collect()
        rss1 = rss_bytes()
    finally:
        await _close(bot)
    return {"tables": count, "rss_before": rss0, "rss_after": rss1}


def rss_in_child(url: str) -> dict[str, Any]:
    """RSS in a fresh interpreter: in this long-lived one, memory freed by earlier parts is reused
    and the growth reads as about zero."""
    child = subprocess.run(
        [sys.executable, "-m", "bench.memory", "rss", url], cwd=ROOT, capture_output=True, text=True
    )
    if child.returncode != 0:
        raise RuntimeError(child.stderr[-1500:])
    return dict(json.loads(child.stdout.strip().splitlines()[-1]))


async def memory_per_table(url: str, n: int) -> dict[str, Any]:
    from bench.resume import _close, fresh_bot, load_cogs

    try:
        rss = rss_in_child(url)
        rss_per = (rss["rss_after"] - rss["rss_before"]) / rss["tables"]
    except (RuntimeError, ValueError, KeyError, TypeError, ZeroDivisionError):
        rss_per = None

    bot = fresh_bot(url)
    try:
        await load_cogs(bot)
        await _warm(bot)
        # Computer players are shared per (game, level): build them before the baseline.
        gc.collect()
        tracemalloc.start(8)
        base = tracemalloc.take_snapshot()
        before = tracemalloc.get_traced_memory()[0]
        count = await bot.referee.resume()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        snap = tracemalloc.take_snapshot()
        tracemalloc.stop()
        top = [
            {
                "file": _short(stat.traceback[0].filename),
                "kib_per_table": round(stat.size_diff / count / 1024, 2),
            }
            for stat in snap.compare_to(base, "filename")[:6]
            if stat.size_diff > 0
        ]
        planned = len(bot.scheduler._jobs) if hasattr(bot.scheduler, "_jobs") else None
    finally:
        await _close(bot)
    return {
        "tables": count,
        "tracemalloc_bytes_per_table": round((after - before) / count),
        "rss_bytes_per_table": None if rss_per is None else round(rss_per),
        "top_files": top,
        "scheduled_jobs": planned,
    }


def _short(filename: str) -> str:
    for marker in ("site-packages/", "/work/main/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return "/".join(filename.rsplit("/", 2)[-2:])


def _seats(players: int, levels: list[str]) -> list[Any]:
    """People in the first seats (at least one, at most half), computers after: what a real table
    looks like, and it makes the final commit write results and standings too."""
    from db.store import SeatSpec

    people = max(1, players // 2)
    return [
        SeatSpec(s, 5_000_000 + s, f"Player {s}")
        if s < people
        else SeatSpec(s, None, f"Robo {s} ({levels[s]})", computer_level=levels[s])
        for s in range(players)
    ]


async def _commit_games(
    url: str, key: str, target: int, seed: int, wal: Path | None = None
) -> dict[str, Any]:
    from bench.engines import default_players
    from db.engine import Database
    from db.models import utcnow
    from db.store import SeatResult, Store
    from rules import get_game
    from rules.selfplay import play_game

    game = get_game(key)
    players = default_players(game)
    timers = game.timers["relaxed"]
    database = Database(url)
    store = Store(database)
    commits: list[float] = []
    snapshot_bytes: list[int] = []
    actions = games = 0
    wal_bytes = None
    if wal is not None:
        # Every frame a commit appends stays in the WAL until we look (no automatic checkpoint),
        # so its size is what the actions wrote, not what is left after folding it in.
        from sqlalchemy import event

        def no_autocheckpoint(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.cursor().execute("PRAGMA wal_autocheckpoint=0")

        event.listen(database.engine.sync_engine, "connect", no_autocheckpoint)
    try:
        while actions < target:
            s = seed + games
            # The quickest level only: bytes per action do not depend on how well seats play, and
            # a slow level (Trap's "hard") would make this part take minutes.
            levels = [game.computer_levels[0]] * players
            # Capped: a rare seed can run very long (a Trap game with its slow "hard" level was
            # seen taking minutes); bytes per action do not need the game to end.
            record = play_game(game, players, {}, s, levels, max_actions=MAX_ACTIONS_PER_GAME)
            seat_specs = _seats(players, [levels[i % len(levels)] for i in range(players)])
            table_id = await store.create_table(
                guild_id=GUILD_ID,
                channel_id=6_000_000 + games,
                game=key,
                host_id=5_000_000,
                options={"seats": players, "rules": {}},
                speed="relaxed",
                seed=s,
                seats=seat_specs,
            )
            state = game.new_game(players, game.parse_options({}), s)
            await store.start_game(
                table_id,
                version=1,
                seats=seat_specs,
                state=state.to_json(),
                log=[],
                deadline_at=None,
                deadline_action=None,
            )
            log: list[Any] = []
            for index, (seat, action) in enumerate(record.actions):
                events = state.apply(seat, action)
                log = (log + [e.to_json() for e in events])[-8:]  # as the bot stores them: data
                deadline_at = deadline_action = None
                for quiet in state.quiet_actions():
                    seconds = timers.get(quiet.timer)
                    if seconds is not None:
                        deadline_at, deadline_action = utcnow() + timedelta(seconds=seconds), quiet.action
                        break
                over = state.is_over()
                result = state.result() if over else None
                snapshot = state.to_json()
                if index % 25 == 0:
                    snapshot_bytes.append(len(json.dumps(snapshot)))
                person = seat is not None and seat_specs[seat].computer_level is None
                started = time.perf_counter()
                await store.commit_action(
                    table_id,
                    seq=2 + index,
                    seat=seat,
                    action=action,
                    actor_id=seat_specs[seat].user_id if person and seat is not None else None,
                    state=snapshot,
                    version=2 + index,
                    log=log,
                    deadline_at=deadline_at,
                    deadline_action=deadline_action,
                    seats=seat_specs if over else None,
                    results=[SeatResult(p.seat, p.place, p.points) for p in result.placements]
                    if result
                    else None,
                    guild_id=GUILD_ID,
                    game=key,
                )
                commits.append(time.perf_counter() - started)
                actions += 1
            games += 1
        if wal is not None and wal.exists():
            wal_bytes = wal.stat().st_size  # read before the last connection closes and folds it in
    finally:
        await database.dispose()
    return {
        "games": games,
        "actions": actions,
        "wal_bytes_per_action": round(wal_bytes / actions) if wal_bytes and actions else None,
        "commit": summary_ms(commits),
        "snapshot_bytes_p50": percentile(snapshot_bytes, 50),
    }


def db_growth(workdir: Path, key: str, target: int, seed: int) -> dict[str, Any]:
    from db.engine import migrate

    path = workdir / f"size-{key}.sqlite3"
    url = sqlite_url(path)
    migrate(url)
    checkpoint(path)
    empty = sqlite_files_size(path)
    checkpoint(path)
    out = asyncio.run(_commit_games(url, key, target, seed, wal=Path(f"{path}-wal")))
    checkpoint(path)
    size = sqlite_files_size(path)
    out |= {
        "empty_bytes": empty,
        "final_bytes": size,
        "bytes_per_1000_actions": round((size - empty) / out["actions"] * 1000),
        "largest_objects": dict(list((table_sizes(path) or {}).items())[:5]),
    }
    return out


def run(
    *, workdir: Path, live_tables: int, actions: int, seed: int, progress: Callable[[str], None]
) -> dict[str, Any]:
    import rules
    from bench.resume import ensure_live_db

    out: dict[str, Any] = {}
    progress(f"memory: {live_tables} live tables resumed in one Referee")
    try:
        url = ensure_live_db(workdir, live_tables, progress)
        out["per_table"] = asyncio.run(memory_per_table(url, live_tables))
    except Exception as error:
        out["per_table"] = {"error": f"{type(error).__name__}: {error}"}
    sizes: dict[str, Any] = {}
    for key in rules.GAMES:
        progress(f"database size: {key}, ≥{actions} actions through Store.commit_action")
        try:
            sizes[key] = db_growth(workdir, key, actions, seed)
        except Exception as error:
            sizes[key] = {"error": f"{type(error).__name__}: {error}"}
    out["database"] = sizes
    return out


def tables(result: dict[str, Any]) -> list[Table]:
    out = []
    per = result.get("per_table")
    if per is not None:
        t = Table(
            "Memory per live table (resumed Zip Zap tables in one Referee)",
            ["tables", "tracemalloc", "RSS", "where (tracemalloc, per table)"],
        )
        if "error" in per:
            t.add("error", per["error"], "", "")
        else:
            where = ", ".join(f"{x['file']} {x['kib_per_table']} KiB" for x in per["top_files"][:4])
            t.add(
                per["tables"],
                f"{per['tracemalloc_bytes_per_table'] / 1024:.1f} KiB",
                f"{per['rss_bytes_per_table'] / 1024:.1f} KiB"
                if per["rss_bytes_per_table"] is not None
                else None,
                where,
            )
        out.append(t)
    d = Table(
        "Database size per 1,000 actions (SQLite file incl. WAL, after checkpoint)",
        [
            "game",
            "games",
            "actions",
            "KiB/1000 actions",
            "WAL KiB/action",
            "snapshot bytes",
            "commit p50 ms",
            "commit p99 ms",
        ],
    )
    for key, r in result.get("database", {}).items():
        if "error" in r:
            d.add(key, "error", r["error"][:60], "", "", "", "", "")
            continue
        d.add(
            key,
            r["games"],
            r["actions"],
            r["bytes_per_1000_actions"] / 1024,
            (r.get("wal_bytes_per_action") or 0) / 1024,
            r["snapshot_bytes_p50"],
            r["commit"]["p50_ms"],
            r["commit"]["p99_ms"],
        )
    d.notes.append(
        "whole self-play games replayed through Store.commit_action,"
        " one transaction per action, synchronous=FULL; KiB/1000 actions is what stays in the file,"
        " WAL KiB/action what each commit wrote (WAL frames, no checkpoint during the run)"
    )
    out.append(d)
    return out


if __name__ == "__main__":
    # python -m bench.memory rss <database url>: the fresh process rss_in_child measures in.
    if len(sys.argv) == 3 and sys.argv[1] == "rss":
        print(json.dumps(asyncio.run(rss_growth(sys.argv[2]))))
    else:
        raise SystemExit("usage: python -m bench.memory rss <database url>")
