"""6. Two processes on one PostgreSQL database against one process with every shard (issue 20).

The end-to-end scenario of bench/e2e.py (the real bot inside SimCord; Zip Zap tables of two people
and two computers, opened with the real slash command and lobby buttons, then people clicking
their hand panels in bursts) run in real OS processes (``python -m bench.shards2 --child``), all
on one PostgreSQL database, SHARD_COUNT=2:

- **one process** with SHARD_IDS=0,1 plays every table (the guilds of both shards);
- **two processes**, SHARD_IDS=0 and SHARD_IDS=1, each with its own simulated Discord, play half
  the tables each (the guilds of its shard), at the same time.

The work is the same in both modes (the same tables, virtual seconds and clicks), so the
difference is how fast it gets done. Each process opens its tables, says READY and waits; the
parent starts every process's play phase at once. **actions/s** is every process's committed
actions over the wall time from the first play phase's start to the last one's end; **committed
p99** is over every committed click of every process (receipt to answer, bench/e2e.py). Beside
them: the CPU each bot process and the PostgreSQL server used during play, how busy the whole
machine was (/proc/stat) and its load average, since other people's work on a shared machine
slows both modes, and two processes can be no faster than the cores left to them.

Each run gets a fresh database; the modes alternate which goes first from run to run, so drift
in the machine's load falls on both.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import ROOT, Table, fmt_spread, percentile

SHARD_COUNT = 2
GAMES = ["zipzap"]
MODES: dict[str, list[tuple[int, ...]]] = {"one": [(0, 1)], "two": [(0,), (1,)]}
GUILDS_PER_SHARD = 2


def guilds_of(shard: int) -> list[int]:
    """Guild ids on ``shard`` of SHARD_COUNT (a guild's shard is (id >> 22) % SHARD_COUNT)."""
    return [((k * SHARD_COUNT + shard) << 22) | 4242 for k in range(1, GUILDS_PER_SHARD + 1)]


# --- a child: one bot process ------------------------------------------------------------------


def child(config: dict[str, Any]) -> int:
    """One bot process: open the tables, say READY, wait for GO on stdin, play, print the result."""
    import asyncio
    import faulthandler
    import logging

    from bench import e2e

    # `kill -USR1 <pid>` writes every thread's stack to the process's log: a stuck run shows where.
    faulthandler.register(signal.SIGUSR1, all_threads=True)

    logging.getLogger("alembic").setLevel(logging.WARNING)
    ids = tuple(config["shard_ids"])

    def progress(message: str) -> None:
        print(f"[shards {ids}] {message}", file=sys.stderr, flush=True)

    async def ready() -> None:
        print("READY", flush=True)
        # Read in a thread: the loop stays free while the other process finishes opening.
        line = await asyncio.to_thread(sys.stdin.readline)
        if line.strip() != "GO":
            raise SystemExit("the bench went away before the play phase")

    def tasks() -> None:
        for task in asyncio.all_tasks():
            task.print_stack(limit=40, file=sys.stderr)
        sys.stderr.flush()

    async def main() -> dict[str, Any]:
        # `kill -USR2 <pid>`: every task's stack, for a run that waits forever on something.
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, tasks)
        return await e2e.scenario(
            database=Path(os.devnull),
            tables=config["tables"],
            rounds=config["seconds"],
            click_every=config["click_every"],
            burst=config["burst"],
            step=config["step"],
            games=GAMES,
            settle_timeout=config["settle_timeout"],
            progress=progress,
            clicking=1_000_000,
            url=config["url"],
            shards=(SHARD_COUNT, ids),
            guild_ids=[g for shard in ids for g in guilds_of(shard)],
            before_play=ready,
            raw_clicks=True,
        )

    result = asyncio.run(main())
    print("RESULT " + json.dumps(result, default=str), flush=True)
    return 0


# --- the parent: processes started together, measured together ------------------------------------


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far, from /proc/stat."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def process_cpu_s(pids: list[int], *, children_of_first: bool = False) -> float:
    """CPU seconds (user + system) of these processes so far; with ``children_of_first``, the
    first one's reaped children too (PostgreSQL's ended backends are counted by the postmaster)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for i, pid in enumerate(pids):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += int(fields[11]) + int(fields[12])
        if children_of_first and i == 0:
            total += int(fields[13]) + int(fields[14])
    return total / tick


class ChildFailed(RuntimeError):
    pass


def _read_until(proc: subprocess.Popen[str], prefix: str, log: Path) -> str:
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(prefix):
            return line[len(prefix) :].strip()
    proc.wait()
    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
    raise ChildFailed(f"a bot process ended (exit {proc.returncode}) before {prefix.strip()}:\n{tail}")


def play(
    url: str,
    mode: str,
    *,
    tables: int,
    seconds: int,
    click_every: int,
    burst: int,
    step: float,
    settle_timeout: float,
    logs: Path,
    postgres_data: Path | None,
) -> dict[str, Any]:
    """One mode on the (migrated, empty) database at ``url``: its processes, started together."""
    from bench.postgres import server_pids

    shard_sets = MODES[mode]
    share = [
        tables // len(shard_sets) + (1 if i < tables % len(shard_sets) else 0) for i in range(len(shard_sets))
    ]
    procs: list[tuple[subprocess.Popen[str], Path]] = []
    try:
        for ids, n in zip(shard_sets, share, strict=True):
            config = {
                "url": url, "tables": n, "seconds": seconds, "click_every": click_every, "burst": burst,
                "step": step, "settle_timeout": settle_timeout, "shard_ids": list(ids),
            }  # fmt: skip
            log = logs / f"{mode}-{'-'.join(map(str, ids))}.log"
            with log.open("w") as err:
                proc = subprocess.Popen(
                    [sys.executable, "-m", "bench.shards2", "--child", json.dumps(config)],
                    cwd=ROOT,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=err,
                    text=True,
                )
            procs.append((proc, log))
        for proc, log in procs:
            _read_until(proc, "READY", log)
        pg = server_pids(postgres_data)
        busy0, total0 = machine_ticks()
        pg0 = process_cpu_s(pg, children_of_first=True)
        load0 = os.getloadavg()
        for proc, _ in procs:
            assert proc.stdin is not None
            proc.stdin.write("GO\n")
            proc.stdin.flush()
        results = [json.loads(_read_until(proc, "RESULT ", log)) for proc, log in procs]
        busy1, total1 = machine_ticks()
        pg1 = process_cpu_s(server_pids(postgres_data), children_of_first=True)
        load1 = os.getloadavg()
        for proc, _ in procs:
            proc.wait(timeout=120)
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    start = min(r["play_started_at"] for r in results)
    end = max(r["play_ended_at"] for r in results)
    wall = end - start
    actions = sum(r["accepted_actions"] for r in results)
    clicks = [c for r in results for c in r.pop("click_committed_s") or []]
    p50, p99 = percentile(clicks, 50), percentile(clicks, 99)
    cores = os.cpu_count() or 1
    return {
        "processes": len(procs),
        "tables": tables,
        "actions": actions,
        "play_wall_s": round(wall, 2),
        "actions_per_s": round(actions / wall, 1) if wall else None,
        "committed_clicks": len(clicks),
        "click_committed_p50_ms": None if p50 is None else round(p50 * 1000, 1),
        "click_committed_p99_ms": None if p99 is None else round(p99 * 1000, 1),
        "bot_cpu_s": [r["play_cpu_s"] for r in results],
        # What an action costs in CPU, bots and server together: with the cores to ourselves, the
        # processes could go no faster than cores ÷ this (one process: one core for the bot).
        "bot_cpu_ms_per_action": round(sum(r["play_cpu_s"] for r in results) / actions * 1000, 2)
        if actions
        else None,
        "postgres_cpu_ms_per_action": round((pg1 - pg0) / actions * 1000, 2) if actions else None,
        "bot_cores_used": round(sum(r["play_cpu_s"] for r in results) / wall, 2) if wall else None,
        "postgres_cpu_s": round(pg1 - pg0, 2),
        # Of all the machine's cores during play (1.0 = every core busy all the time).
        "machine_busy": round((busy1 - busy0) / (total1 - total0), 3) if total1 > total0 else None,
        "cores": cores,
        "loadavg_before": [round(x, 2) for x in load0],
        "loadavg_after": [round(x, 2) for x in load1],
        "per_process": [
            {
                "shard_ids": list(ids),
                "tables": r["tables"],
                "actions": r["accepted_actions"],
                "play_wall_s": r["play_wall_s"],
                "play_cpu_s": r["play_cpu_s"],
                "click_committed": r["click_committed"],
                "commit": r["commit"],
                "bot_errors": r["bot_errors"],
                "bot_warnings": r["bot_warnings"],
            }
            for ids, r in zip(shard_sets, results, strict=True)
        ],
    }


def _spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}


def run(
    *,
    workdir: Path,
    tables: int,
    seconds: int,
    click_every: int,
    burst: int,
    step: float,
    runs: int,
    settle_timeout: float,
    progress: Callable[[str], None],
    database_url: str | None = None,
) -> dict[str, Any]:
    """Every run: one process, then two (or the other way round), each on a fresh database."""
    import contextlib

    from bench import postgres
    from db.engine import migrate

    out: dict[str, Any] = {
        "shard_count": SHARD_COUNT,
        "tables": tables,
        "virtual_s": seconds,
        "click_every_s": click_every,
        "burst": burst,
        "games": GAMES,
    }

    def stop(_signal: int, _frame: Any) -> None:
        raise SystemExit("shards2: stopped")  # unwinds: the bot processes and the server stop

    signal.signal(signal.SIGTERM, stop)
    with contextlib.ExitStack() as stack:
        data: Path | None = None
        if database_url is None:
            progress("shards2: starting a throwaway PostgreSQL server on 127.0.0.1")
            database_url, data = stack.enter_context(postgres.server())
            out["server"] = "throwaway cluster on 127.0.0.1 (fsync off), started and stopped by the bench"
        else:
            out["server"] = "given by --database-url"
        out["postgres"] = postgres.version(database_url)
        attempts: list[dict[str, Any]] = []
        for attempt in range(runs):
            order = ("one", "two") if attempt % 2 == 0 else ("two", "one")
            entry: dict[str, Any] = {}
            for mode in order:
                name = f"referee_bench_shards2_{attempt}_{mode}"
                url = postgres.fresh_database(database_url, name)
                try:
                    migrate(url)
                    who = "one process" if mode == "one" else "two processes"
                    progress(
                        f"shards2: run {attempt + 1}/{runs}, {who}: {tables} tables, {seconds} virtual s,"
                        f" load {os.getloadavg()[0]:.2f}"
                    )
                    entry[mode] = play(
                        url,
                        mode,
                        tables=tables,
                        seconds=seconds,
                        click_every=click_every,
                        burst=burst,
                        step=step,
                        settle_timeout=settle_timeout,
                        logs=workdir,
                        postgres_data=data,
                    )
                except Exception as error:
                    entry[mode] = {"error": f"{type(error).__name__}: {error}"}
                finally:
                    postgres.drop_database(database_url, name)
            one, two = entry.get("one", {}), entry.get("two", {})
            if one.get("actions_per_s") and two.get("actions_per_s"):
                entry["speedup"] = round(two["actions_per_s"] / one["actions_per_s"], 2)
            attempts.append(entry)
        out["runs"] = attempts

    def values(path: tuple[str, ...]) -> list[float]:
        found = []
        for a in attempts:
            value: Any = a
            for part in path:
                value = value.get(part) if isinstance(value, dict) else None
            if isinstance(value, int | float):
                found.append(float(value))
        return found

    out["spread"] = {
        "one.actions_per_s": _spread(values(("one", "actions_per_s"))),
        "two.actions_per_s": _spread(values(("two", "actions_per_s"))),
        "speedup": _spread(values(("speedup",))),
        "one.click_committed_p99_ms": _spread(values(("one", "click_committed_p99_ms"))),
        "two.click_committed_p99_ms": _spread(values(("two", "click_committed_p99_ms"))),
        "one.machine_busy": _spread(values(("one", "machine_busy"))),
        "one.bot_cores_used": _spread(values(("one", "bot_cores_used"))),
        "two.bot_cores_used": _spread(values(("two", "bot_cores_used"))),
        "one.bot_cpu_ms_per_action": _spread(values(("one", "bot_cpu_ms_per_action"))),
        "two.bot_cpu_ms_per_action": _spread(values(("two", "bot_cpu_ms_per_action"))),
        "two.machine_busy": _spread(values(("two", "machine_busy"))),
    }
    return out


def tables(result: dict[str, Any]) -> list[Table]:
    t = Table(
        "Two processes on one PostgreSQL vs one process, SHARD_COUNT=2 — median [min–max] over the runs",
        ["processes", "actions/s", "committed p99 ms", "bot cores used", "bot CPU ms/action", "machine busy"],
    )
    s = result["spread"]
    for label, mode in (("1 (SHARD_IDS=0,1)", "one"), ("2 (SHARD_IDS=0 | 1)", "two")):
        t.add(
            label,
            fmt_spread(s[f"{mode}.actions_per_s"]),
            fmt_spread(s[f"{mode}.click_committed_p99_ms"]),
            fmt_spread(s[f"{mode}.bot_cores_used"], 2),
            fmt_spread(s[f"{mode}.bot_cpu_ms_per_action"], 2),
            fmt_spread(s[f"{mode}.machine_busy"], 2),
        )
    t.notes.append(f"two processes ÷ one: {fmt_spread(s['speedup'], 2)} × the actions/s")
    for i, entry in enumerate(result["runs"], 1):
        parts = []
        for mode in ("one", "two"):
            m = entry.get(mode, {})
            if "error" in m:
                parts.append(f"{mode}: {m['error'][:80]}")
                continue
            if not m:
                continue
            parts.append(
                f"{mode}: {m['actions']} actions in {m['play_wall_s']} s, bot CPU {m['bot_cpu_s']} s,"
                f" PostgreSQL CPU {m['postgres_cpu_s']} s,"
                f" load {m['loadavg_before'][0]}→{m['loadavg_after'][0]}"
            )
        t.notes.append(f"run {i}: " + "; ".join(parts))
    t.notes.append(
        f"PostgreSQL {result.get('postgres')}, {result['tables']} Zip Zap tables in all,"
        f" {result['virtual_s']} virtual s, people click every {result['click_every_s']} s"
        f" in bursts of {result['burst']};"
        " bot cores used = the bot processes' CPU s per wall s of play; machine busy = share of all"
        " cores busy during play (/proc/stat), everyone's work included"
    )
    return [t]


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        raise SystemExit(child(json.loads(sys.argv[2])))
    raise SystemExit("run it as python -m bench --only shards2")
