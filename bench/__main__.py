"""python -m bench — reproducible performance figures for the referee (see bench/README.md).

    python -m bench                      # everything, a few minutes on two cores
    python -m bench --quick              # a scaled-down smoke run (well under a minute or two)
    python -m bench --only engines       # one part: engines, e2e, stall, resume, memory, cards (comma list)
    python -m bench --only shards2       # two bot processes on one PostgreSQL against one (not in
                                         # the default run: it needs PostgreSQL, see bench/README.md)
    python -m bench --only wal --pg-url postgresql+asyncpg://postgres@127.0.0.1:PORT/postgres
                                         # WAL bytes per action per game (PostgreSQL and SQLite)
    python -m bench --compare HEAD~1     # also the engine figures of another commit, as ratios
    python -m bench --json -             # JSON to stdout (the table goes to stderr)

Prints a table and writes bench/results/latest.json:
{"commit", "python", "machine", "run_s", "config",
 "results": {"engines", "e2e", "resume", "memory", "cards", "compare", "shards2"}}.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.common import ROOT, git_commit, machine, python_info, workdir


@dataclass(frozen=True)
class Part:
    """One part of the bench: ``bench.<module>``'s ``run`` and ``tables``, and how the command
    line becomes ``run``'s keyword arguments. The module is imported only when the part runs
    (SimCord, Pillow, PostgreSQL's driver are heavy, and some parts need what others don't)."""

    module: str
    # run()'s keyword arguments from the parsed command line, the temp folder and the module
    options: Callable[[argparse.Namespace, Path, ModuleType], dict[str, Any]]
    # False: run only when named with --only (it needs PostgreSQL, or a server it may CHECKPOINT)
    default: bool = True
    announce: str | None = None  # a progress line before it starts, for parts that say nothing
    progress: bool = True  # whether run() takes progress=


def _games(args: argparse.Namespace) -> list[str] | None:
    return [g for g in (args.games or "").split(",") if g] or None


def _shard(text: str | None) -> tuple[int, int] | None:
    """``--limits-shard I/N``: this process is shard I of N."""
    if not text:
        return None
    index, count = (int(x) for x in text.split("/"))
    return index, count


def _e2e_games(args: argparse.Namespace) -> list[str]:
    import rules

    return list(rules.GAMES) if args.e2e_games == "all" else [k for k in args.e2e_games.split(",") if k]


# Every part, in the order they run. Adding a part is one entry here (and its flags below).
ALL_PARTS: dict[str, Part] = {
    "engines": Part(
        "engines",
        lambda a, tmp, m: dict(
            seconds=a.engine_seconds,
            min_games=a.engine_min_games,
            max_games=100_000,
            seed=a.seed,
            only=_games(a),
        ),
        announce="engines: self-play per game",
        progress=False,
    ),
    "e2e": Part(
        "e2e",
        lambda a, tmp, m: dict(
            workdir=tmp,
            sizes=a.e2e_sizes,
            burst=a.burst,
            step=a.step,
            games=_e2e_games(a),
            settle_timeout=a.settle_timeout,
            clicking=a.clicking_tables,
            runs=a.runs,
            dm_tables=a.dm_tables,
            floor=not a.no_floor,
            cpu_profile=a.cpu_profile / 1000 if a.cpu_profile else None,
            rate_limits=a.rate_limits,
            limits_shard=_shard(a.limits_shard),
            limits_processes=a.limits_processes,
            global_limit=a.global_limit,
        ),
    ),
    "stall": Part("stall", lambda a, tmp, m: dict(workdir=tmp, seconds=a.stall_seconds, step=a.step)),
    "resume": Part("resume", lambda a, tmp, m: dict(workdir=tmp, sizes=a.resume_sizes, repeats=a.repeats)),
    "memory": Part(
        "memory",
        lambda a, tmp, m: dict(workdir=tmp, live_tables=a.memory_tables, actions=a.db_actions, seed=a.seed),
    ),
    "cards": Part("cards", lambda a, tmp, m: dict(runs=a.runs, repeat=a.card_draws, seed=a.seed)),
    "shards2": Part(
        "shards2",
        lambda a, tmp, m: dict(
            workdir=tmp,
            tables=a.shards2_tables,
            seconds=a.shards2_seconds,
            click_every=1,
            burst=a.burst,
            step=a.step,
            runs=a.shards2_runs,
            settle_timeout=a.shards2_settle_timeout,
            database_url=a.database_url,
        ),
        default=False,
    ),
    "wal": Part(
        "wal",
        lambda a, tmp, m: dict(
            workdir=tmp,
            pg_url=a.pg_url,
            games=_games(a) or list(m.GAMES),
            tables=a.wal_tables,
            actions=a.wal_actions,
            sqlite_actions=a.wal_actions,
            # SimCord's own default: on PostgreSQL the bot's listener connection keeps it from
            # calling the bot settled at start-up, and a long timeout only waits that out.
            settle_timeout=5.0,
        ),
        default=False,
    ),
}
PARTS = tuple(name for name, part in ALL_PARTS.items() if part.default)
OPTIONAL_PARTS = tuple(name for name, part in ALL_PARTS.items() if not part.default)
DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "latest.json"


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--quick", action="store_true", help="scaled-down run: every part, small sizes")
    p.add_argument(
        "--only", action="append", default=[], help=f"parts to run: {', '.join(PARTS)} (comma list or repeat)"
    )
    p.add_argument(
        "--json",
        default=str(DEFAULT_JSON),
        help="where to write the JSON ('-' = stdout); default %(default)s",
    )
    p.add_argument(
        "--compare", metavar="REV", help="also measure the engines at REV (e.g. HEAD~1) and print ratios"
    )
    p.add_argument("--seed", type=int, default=1, help="first seed of every seeded part (default 1)")
    p.add_argument("--keep", action="store_true", help="keep the temp folder with the databases")
    g = p.add_argument_group("engines")
    g.add_argument("--games", help="only these game keys (comma list); default every game in rules.GAMES")
    g.add_argument("--engine-seconds", type=float, help="self-play time budget per game (default 5, quick 1)")
    g.add_argument(
        "--engine-min-games", type=int, help="at least this many games per game (default 3, quick 1)"
    )
    g = p.add_argument_group("end to end")
    g.add_argument("--e2e-tables", help="table counts, comma list (default 50,200; quick 10,40)")
    g.add_argument("--e2e-seconds", help="virtual seconds of play per size (default 30,15; quick 5,5)")
    g.add_argument("--click-every", help="each person clicks once every N virtual s, per size (default 1,2)")
    g.add_argument(
        "--clicking-tables",
        type=int,
        default=1_000_000,
        help="at most this many tables have people clicking, the rest computers only (default: all)",
    )
    g.add_argument("--burst", type=int, default=10, help="clicks in flight at once (default %(default)s)")
    g.add_argument(
        "--step", type=float, default=0.25, help="advance_time step in virtual s (default %(default)s)"
    )
    g.add_argument("--runs", type=int, help="runs per end-to-end size, for the spread (default 3, quick 2)")
    g.add_argument(
        "--dm-tables",
        type=int,
        help="tables of 4 people, one on DM, for calls per action (default 20, quick 10; 0 = skip)",
    )
    g.add_argument("--no-floor", action="store_true", help="skip the minimal-bot floor")
    g.add_argument(
        "--rate-limits",
        action="store_true",
        help="run end to end over a Discord-like rate-limit layer (bench/ratelimits.py) at 20,50,100,200"
        " tables for 20 virtual s each (--e2e-tables/--e2e-seconds change that), plus --dm-tables DM"
        " tables on small member and DM buckets; reports 429s, requests/s, staleness (bench/e2e_limits.py)",
    )
    g.add_argument(
        "--limits-processes",
        type=int,
        default=1,
        metavar="N",
        help="with --rate-limits: run each size in N bot processes at once, each with its share of one"
        " token's limit and that many tables (a sharded bot); reports the sum of their calls and 429s",
    )
    g.add_argument(
        "--limits-shard",
        default=None,
        metavar="I/N",
        help="with --rate-limits: this process's budget is shard I of N's share of the token's limit"
        " (what --limits-processes runs each process with)",
    )
    g.add_argument(
        "--cpu-profile",
        nargs="?",
        type=float,
        const=1.0,
        default=None,
        metavar="MS",
        help="sample the event loop's stack every MS ms (default 1) during play: CPU by owner and"
        " the bot's hottest functions (bench/cpu.py); off by default, it perturbs the timings a little",
    )
    g.add_argument(
        "--e2e-games",
        default="zipzap",
        help="games to mix (comma list, or 'all' with a cog); default %(default)s",
    )
    g.add_argument(
        "--global-limit",
        type=float,
        default=None,
        metavar="PER_S",
        help="the bot's global limit, calls a real second (default the bot's own, 50): one token's 50 cannot"
        " serve 1,000 busy tables, as Discord grants large bots more (DISCORD_GLOBAL_LIMIT), so a run at"
        " that size waits on the budget instead of measuring the process; 1 to 100000",
    )
    g.add_argument(
        "--settle-timeout",
        type=float,
        default=600.0,
        help="SimCord settle_timeout, real s (default %(default)s)",
    )
    g = p.add_argument_group("event loop stall")
    g.add_argument(
        "--stall-seconds", type=int, help="virtual seconds of the stall scenario (default 30, quick 10)"
    )
    g = p.add_argument_group("resume and memory")
    g.add_argument("--resume-tables", help="live-table counts (default 100,1000; quick 50,200)")
    g.add_argument("--repeats", type=int, help="timings per size, median kept (default 3, quick 2)")
    g.add_argument(
        "--memory-tables", type=int, help="live tables for memory per table (default 1000, quick 200)"
    )
    g.add_argument(
        "--db-actions",
        type=int,
        help="actions per game committed for database size (default 1000, quick 200)",
    )
    g = p.add_argument_group("card pictures")
    g.add_argument(
        "--card-draws", type=int, help="draws per picture per run for the draw times (default 20, quick 5)"
    )
    g = p.add_argument_group("two processes on PostgreSQL (--only shards2)")
    g.add_argument(
        "--database-url",
        help="a PostgreSQL server to use (postgresql+asyncpg://…; the user needs CREATEDB: each run"
        " creates and drops a database of its own); default: start a throwaway server on 127.0.0.1",
    )
    g.add_argument(
        "--shards2-tables", type=int, help="tables in all, split between the processes (default 60, quick 20)"
    )
    g.add_argument("--shards2-seconds", type=int, help="virtual seconds of play (default 20, quick 6)")
    g.add_argument(
        "--shards2-settle-timeout",
        type=float,
        default=60.0,
        help="SimCord settle_timeout in the bot processes, real s (default %(default)s: with 600 the"
        " one-process bot, an AutoShardedBot in a child process, was seen to hang at its first slash"
        " command for over 10 minutes; not understood, see bench/README.md)",
    )
    g.add_argument("--shards2-runs", type=int, help="runs, each one process and two (default 3, quick 2)")
    g = p.add_argument_group("wal per action")
    g.add_argument(
        "--pg-url",
        help="PostgreSQL server for --only wal (postgresql+asyncpg://postgres@127.0.0.1:PORT/postgres);"
        " the bench CHECKPOINTs it and makes one database per game; without it only SQLite is measured",
    )
    g.add_argument("--wal-tables", type=int, default=4, help="tables per game (default %(default)s)")
    g.add_argument(
        "--wal-actions", type=int, default=200, help="actions per game in the window (default %(default)s)"
    )
    args = p.parse_args(argv)
    parts = [x.strip() for item in args.only for x in item.split(",") if x.strip()] or list(PARTS)
    unknown = [x for x in parts if x not in PARTS + OPTIONAL_PARTS]
    if unknown:
        p.error(f"unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS + OPTIONAL_PARTS)}")
    args.parts = parts
    from cogs.table.budget import LIMIT_RANGE  # the bot's own bounds for DISCORD_GLOBAL_LIMIT

    low, high = LIMIT_RANGE
    if args.global_limit is not None and not low <= args.global_limit <= high:
        p.error(f"--global-limit must be between {low:g} and {high:g} a second, not {args.global_limit:g}")
    q = args.quick
    args.engine_seconds = args.engine_seconds if args.engine_seconds is not None else (1.0 if q else 5.0)
    args.engine_min_games = args.engine_min_games if args.engine_min_games is not None else (1 if q else 3)
    limits = args.rate_limits
    tables = _ints(args.e2e_tables or ("10,40" if q else "20,50,100,200" if limits else "50,200"))
    seconds = _ints(args.e2e_seconds or ("5,5" if q else "20" if limits else "30,15"))
    every = _ints(args.click_every or ("2" if limits else "1,2"))
    # A shorter list repeats its last value, so "--e2e-seconds 20" applies to every size.
    args.e2e_sizes = [
        (n, seconds[min(i, len(seconds) - 1)], every[min(i, len(every) - 1)]) for i, n in enumerate(tables)
    ]
    args.runs = args.runs or (2 if q else 1 if limits else 3)
    args.stall_seconds = args.stall_seconds or (10 if q else 30)
    args.dm_tables = (10 if q else 20) if args.dm_tables is None else args.dm_tables
    args.resume_sizes = _ints(args.resume_tables or ("50,200" if q else "100,1000"))
    args.repeats = args.repeats or (2 if q else 3)
    args.memory_tables = args.memory_tables or (200 if q else 1000)
    args.db_actions = args.db_actions or (200 if q else 1000)
    args.card_draws = args.card_draws or (5 if q else 20)
    args.shards2_tables = args.shards2_tables or (20 if q else 60)
    args.shards2_seconds = args.shards2_seconds or (6 if q else 20)
    args.shards2_runs = args.shards2_runs or (2 if q else 3)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    to_stdout = args.json == "-"
    out = sys.stderr if to_stdout else sys.stdout
    # The bot logs at INFO; the bench counts warnings itself (e2e) and keeps the screen for figures.
    logging.getLogger("alembic").setLevel(logging.WARNING)

    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    started = time.perf_counter()
    report: dict[str, Any] = {
        "commit": git_commit(),
        "python": python_info(),
        "machine": machine(),
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "argv": sys.argv[1:] if argv is None else argv,
        "config": {
            "parts": args.parts,
            "quick": args.quick,
            "seed": args.seed,
            "engine_seconds": args.engine_seconds,
            "engine_min_games": args.engine_min_games,
            "e2e_sizes": [{"tables": n, "virtual_s": s, "click_every_s": c} for n, s, c in args.e2e_sizes],
            "burst": args.burst,
            "clicking_tables": args.clicking_tables,
            "global_limit": args.global_limit,
            "step": args.step,
            "cpu_profile_ms": args.cpu_profile,
            "resume_sizes": args.resume_sizes,
            "memory_tables": args.memory_tables,
            "db_actions": args.db_actions,
            "shards2": {
                "tables": args.shards2_tables,
                "virtual_s": args.shards2_seconds,
                "runs": args.shards2_runs,
                "database_url": "given" if args.database_url else "throwaway server",
            },
        },
        "results": {},
    }
    results = report["results"]
    report["part_s"] = part_s = {}
    clock = time.perf_counter()

    def lap(part: str) -> None:
        # Wall time per part, so a slow run shows where the time went.
        nonlocal clock
        part_s[part] = round(time.perf_counter() - clock, 1)
        clock = time.perf_counter()

    printed: list[Any] = []
    with workdir(keep=args.keep) as tmp:
        if args.keep:
            progress(f"databases in {tmp}")
        for name, part in ALL_PARTS.items():
            # The engines also run for --compare: its ratios are against this run's figures.
            if name not in args.parts and not (name == "engines" and args.compare):
                continue
            module = importlib.import_module(f"bench.{part.module}")
            if part.announce:
                progress(part.announce)
            extra = {"progress": progress} if part.progress else {}
            results[name] = module.run(**part.options(args, tmp, module), **extra)
            printed += module.tables(results[name])
            lap(name)
    if args.compare:
        from bench import compare

        engine_args = [
            "--engine-seconds", str(args.engine_seconds), "--engine-min-games", str(args.engine_min_games),
            "--seed", str(args.seed),
        ] + (["--games", args.games] if args.games else [])  # fmt: skip

        try:
            previous = compare.previous_engines(args.compare, engine_args, progress)
            results["compare"] = previous | {"ratios": compare.ratios(results["engines"], previous)}
            printed += compare.tables(results["compare"])
        except Exception as error:
            results["compare"] = {"rev": args.compare, "error": str(error)}
            progress(f"compare failed: {error}")
        lap("compare")

    report["run_s"] = round(time.perf_counter() - started, 1)
    print(file=out)
    host = report["machine"]
    print(
        f"commit {report['commit']} · {report['python']} · {host['cpu_model']} × {host['cpus']}"
        f" · load {host['loadavg_at_start']}",
        file=out,
    )
    for table in printed:
        print(file=out)
        print(table.render(), file=out)
    parts = ", ".join(f"{k} {v} s" for k, v in part_s.items())
    print(f"\nran in {report['run_s']} s ({parts})", file=out)
    text = json.dumps(report, indent=2, default=str)
    if to_stdout:
        print(text)
    else:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")
        print(f"JSON: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}", file=out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
