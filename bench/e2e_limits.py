"""2b. The end-to-end bench inside Discord's budgets (``python -m bench --only e2e --rate-limits``).

The scenario of bench/e2e.py (Zip Zap tables, two people and two computers, people clicking
every 2 s in bursts), with bench/ratelimits.py's Discord-like layer under the bot from its start,
then a drain (no clicks; the computers and every queued effect go on) after the play phase.
What it reports, per table count:

- bot-token requests per virtual second: wanted (taken from the bot's global budget, waiting
  included) and served (let through by the layer), against the budget's rate;
- 429s per minute (global and per route) and Discord's count of invalid answers;
- table message staleness: from a committed change to the table message showing it, p50/p99/max
  in virtual seconds (each change counted once, at the first drawing after it);
- post and ping latency: from the referee queueing a post (results, round posts) or a ping line
  to the layer serving it, virtual seconds;
- click answers: the e2e figures (real ms), and how many took longer than 3 virtual seconds;
- lost after the drain: changes never drawn, posts never served.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict, deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import ROOT, Table, fmt_spread, percentile
from bench.ratelimits import Discord, SharedWindow, install, per_minute

DRAIN_S = 20.0
SIZES = [(20, 20, 2), (50, 20, 2), (100, 20, 2), (200, 20, 2)]


def _s(values: list[float]) -> dict[str, Any]:
    p50, p99 = percentile(values, 50), percentile(values, 99)
    return {
        "n": len(values),
        "p50_s": None if p50 is None else round(p50, 3),
        "p99_s": None if p99 is None else round(p99, 3),
        "max_s": round(max(values), 3) if values else None,
    }


class Limits:
    """The hooks bench/e2e.py's scenario calls when run with the layer (``extra=``)."""

    def __init__(
        self,
        *,
        small: bool = False,
        shared: Path | None = None,
        drain: float = DRAIN_S,
        shard: tuple[int, int] | None = None,
    ) -> None:
        self.small = small
        # (this process's shard, shards in all): the bot's budget is its share of the token's
        # limit, as a process of a sharded bot's (GlobalBudget.for_shards).
        self.shard = shard
        self.shared = SharedWindow(shared) if shared is not None else None
        self.drain_s = drain
        self.discord: Discord | None = None
        self.budget: Any = None
        self.play_at = 0.0
        self.play_end = 0.0
        self.clock: Callable[[], float] = lambda: 0.0
        self.pending: dict[int, float] = {}  # table -> first change not yet drawn
        self.stale: list[float] = []
        self.queued: dict[int, deque[tuple[str, float]]] = defaultdict(deque)  # channel -> posts
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.late_answers = 0  # clicks first answered more than 3 virtual s after they arrived
        self.late_handled = 0  # clicks whose handling (after a deferred answer) took that long
        self.answers = 0
        self.answered_at: dict[int, float] = {}
        self.undo: list[tuple[Any, str, Any]] = []
        self.taken0 = 0
        self.served0 = 0

    def attach(self, bot: Any, env: Any) -> None:
        """Right after start-up, before any table is opened."""
        self.clock = lambda: float(env.now().timestamp())
        self.discord = Discord(self.clock, small=self.small, shared=self.shared)
        install(env, self.discord)
        self.budget = bot.global_budget
        if self.shard is not None:
            self.budget.rebalance((self.shard[0],), self.shard[1])
        spine = bot.referee.spine
        messages = spine.messages

        def changed(table: Any, _events: Any) -> None:
            self.pending.setdefault(table.id, self.clock())

        spine.on_change.append(changed)
        drawn = messages.drawn

        def on_drawn(table: Any, *args: Any, **kwargs: Any) -> None:
            since = self.pending.pop(table.id, None)
            if since is not None and self.play_at:
                self.stale.append(self.clock() - since)
            drawn(table, *args, **kwargs)

        messages.drawn = on_drawn
        for name, kind in (("say", "ping"), ("post", "post")):
            original = getattr(messages, name)

            def queue(table: Any, *args: Any, _original: Any = original, _kind: str = kind, **kw: Any) -> Any:
                self.queued[table.channel_id].append((_kind, self.clock()))
                return _original(table, *args, **kw)

            setattr(messages, name, queue)
        side = self.discord
        ask = side.ask

        def asked(method: str, path: str) -> Any:
            status, headers, body = ask(method, path)
            if (
                status == 200
                and method == "POST"
                and path.startswith("/channels/")
                and path.endswith("/messages")
            ):
                waiting = self.queued.get(int(path.split("/")[2]))
                if waiting:
                    kind, since = waiting.popleft()
                    if self.play_at:
                        self.latency[kind].append(self.clock() - since)
            return status, headers, body

        side.ask = asked  # type: ignore[method-assign]
        # When each click was first answered (a message, an edit or a deferral): Discord's 3 s.
        import discord

        response = discord.InteractionResponse
        for verb in ("defer", "send_message", "edit_message"):
            original_verb = getattr(response, verb)

            async def answer(this: Any, *args: Any, _verb: Any = original_verb, **kw: Any) -> Any:
                self.answered_at.setdefault(this._parent.id, self.clock())
                return await _verb(this, *args, **kw)

            self.undo.append((response, verb, original_verb))
            setattr(response, verb, answer)
        for name in ("on_table_button", "on_action_button"):
            handler = getattr(bot.referee, name)

            async def timed(interaction: Any, *args: Any, _handler: Any = handler) -> None:
                started = self.clock()
                await _handler(interaction, *args)
                answered = self.answered_at.pop(interaction.id, self.clock())
                if self.play_at:
                    self.answers += 1
                    if answered - started > 3.0:
                        self.late_answers += 1
                    if self.clock() - started > 3.0:
                        self.late_handled += 1

            setattr(bot.referee, name, timed)

    def play_started(self) -> None:
        assert self.discord is not None
        self.play_at = self.clock()
        self.discord.limited.clear()
        self.discord.limited_at.clear()
        self.discord.served.clear()
        self.discord.invalid = 0
        self.stale.clear()
        self.latency.clear()
        self.taken0 = self.budget.taken

    async def drain(self, env: Any) -> None:
        """The play phase is over: no more clicks; let what is queued go out."""
        self.play_end = self.clock()
        self.served_play = list(self.discord.served) if self.discord else []
        self.taken_play = self.budget.taken - self.taken0
        self.limited_play = dict(self.discord.limited) if self.discord else {}
        done = 0.0
        while done < self.drain_s:
            await env.advance_time(0.5)
            done += 0.5

    def report(self, bot: Any) -> dict[str, Any]:
        assert self.discord is not None
        for owner, name, original in reversed(self.undo):
            setattr(owner, name, original)
        self.undo.clear()
        seconds = self.play_end - self.play_at
        live = bot.referee.spine.tables
        # After the drain a change still not drawn belongs to a table that still plays and
        # changed within its spacing: only those older than the drain itself count as lost.
        lost_draws = sum(1 for tid, since in self.pending.items() if since < self.play_end and tid in live)
        lost_posts = sum(len(q) for q in self.queued.values())
        glob = self.limited_play.get("global", 0)
        route = self.limited_play.get("route", 0)
        return {
            "play_virtual_s": round(seconds, 2),
            "budget_rate": round(self.budget.rate, 2),
            "wanted_per_s": round(self.taken_play / seconds, 1) if seconds else None,
            "served_per_s": round(len(self.served_play) / seconds, 1) if seconds else None,
            "max_served_in_1s": _max_in_1s(self.served_play),
            "global_429_per_min": round(glob * 60 / seconds, 1) if seconds else None,
            "route_429_per_min": round(route * 60 / seconds, 1) if seconds else None,
            "global_429s": glob,
            "route_429s": route,
            "invalid_per_10min": round(self.discord.invalid * 600 / max(seconds + self.drain_s, 1e-9)),
            "budget_invalid_seen": self.budget.invalid(),
            "staleness": _s(self.stale),
            "post_latency": _s(self.latency.get("post", [])),
            "ping_latency": _s(self.latency.get("ping", [])),
            "answers": self.answers,
            "answers_over_3s": self.late_answers,
            "handled_over_3s": self.late_handled,
            "lost_draws": lost_draws,
            "lost_posts": lost_posts,
            "budget_line": self.budget.line(),
            "all_429_per_min_incl_drain": per_minute(self.discord.limited_at, seconds + self.drain_s),
        }


def _max_in_1s(instants: list[float]) -> int:
    best = lo = 0
    ordered = sorted(instants)
    for hi, t in enumerate(ordered):
        while t - ordered[lo] >= 1.0:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def run(
    *,
    workdir: Path,
    sizes: list[tuple[int, int, int]],
    burst: int,
    step: float,
    games: list[str],
    settle_timeout: float,
    progress: Callable[[str], None],
    runs: int = 1,
    dm_tables: int = 0,
    drain: float = DRAIN_S,
    shard: tuple[int, int] | None = None,
    processes: int = 1,
) -> dict[str, Any]:
    if processes > 1:
        return run_processes(sizes=sizes, runs=runs, processes=processes, progress=progress, workdir=workdir)
    from bench.e2e import DM_DRIVER, scenario

    out: dict[str, Any] = {}
    plans: list[tuple[str, int, int, int, Any, bool]] = [(str(n), n, r, c, None, False) for n, r, c in sizes]
    if dm_tables:
        plans.append((f"{dm_tables} dm, small buckets", dm_tables, sizes[0][1], 1, DM_DRIVER, True))
    for label, tables, rounds, every, driver, small in plans:
        attempts = []
        for attempt in range(runs):
            progress(f"e2e with rate limits: {label} tables, run {attempt + 1}/{runs}")
            limits = Limits(small=small, drain=drain, shard=shard)
            try:
                result = asyncio.run(
                    scenario(
                        database=workdir / f"limits-{tables}-{int(small)}-{attempt}.sqlite3",
                        tables=tables,
                        rounds=rounds,
                        click_every=every,
                        burst=burst,
                        step=step,
                        games=games,
                        settle_timeout=settle_timeout,
                        progress=progress,
                        clicking=1_000_000,
                        driver=driver,
                        extra=limits,
                    )
                )
            except Exception as error:
                import traceback

                result = {"error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc(limit=8)}
            attempts.append(result)
        out[label] = {"runs": attempts, "spread": spread(attempts)}
    return {"rate_limits": out}


def run_processes(
    *,
    sizes: list[tuple[int, int, int]],
    runs: int,
    processes: int,
    progress: Callable[[str], None],
    workdir: Path,
) -> dict[str, Any]:
    """Each size in ``processes`` bot processes at once, each with its share of one token's limit
    (shard i of ``processes``) and that many tables, as a sharded bot runs. Each process meets its
    own copy of the layer (SimCord is one process's world), so what shows that together they stay
    under the token's limit is a sum: in any 1-second window the token serves what each process
    sent in it, so the sum of each process's most in any 1 s bounds the whole; it must stay within
    Discord's global limit."""
    import subprocess
    import sys

    out: dict[str, Any] = {}
    for tables, rounds, every in sizes:
        label = f"{processes} processes × {tables}"
        attempts = []
        for attempt in range(runs):
            progress(f"e2e with rate limits: {label} tables at once, run {attempt + 1}/{runs}")
            children = []
            for i in range(processes):
                path = workdir / f"limits-{tables}-shard{i}-{attempt}.json"
                command = [
                    sys.executable, "-m", "bench", "--only", "e2e", "--rate-limits",
                    "--e2e-tables", str(tables), "--e2e-seconds", str(rounds), "--click-every", str(every),
                    "--runs", "1", "--dm-tables", "0", "--limits-shard", f"{i}/{processes}",
                    "--json", str(path),
                ]  # fmt: skip
                children.append((path, subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)))
            shares = []
            for path, child in children:
                code = child.wait()
                if code != 0 or not path.exists():
                    shares.append({"error": f"a bot process exited with {code}"})
                    continue
                found = json.loads(path.read_text())["results"]["e2e"]["rate_limits"]
                shares.append(next(iter(found.values()))["runs"][0])
            attempts.append(_together(shares))
        out[label] = {"runs": attempts, "spread": spread(attempts)}
    return {"rate_limits": out}


def _together(shares: list[dict[str, Any]]) -> dict[str, Any]:
    """One attempt of several processes as one result: sums where the token's limit is the sum
    (calls, 429s, most in any 1 s: an upper bound of the whole's), the worst where a person waits
    (staleness, latency, click p99), and each process's own figures kept."""
    failed = [s for s in shares if "error" in s]
    if failed:
        return {"error": failed[0]["error"], "processes": shares}
    parts = [s["limits"] for s in shares]

    def total(key: str) -> Any:
        values = [p.get(key) for p in parts]
        return None if any(v is None for v in values) else round(sum(values), 1)

    def worst(key: str, inner: str | None = None) -> Any:
        found = [(p.get(key) or {}).get(inner) if inner else p.get(key) for p in parts]
        values: list[float] = [v for v in found if v is not None]
        return max(values) if values else None

    limits = {
        "processes": len(parts),
        "budget_rate": total("budget_rate"),
        "wanted_per_s": total("wanted_per_s"),
        "served_per_s": total("served_per_s"),
        "max_served_in_1s": total("max_served_in_1s"),
        "max_served_in_1s_each": [p.get("max_served_in_1s") for p in parts],
        "global_429_per_min": total("global_429_per_min"),
        "route_429_per_min": total("route_429_per_min"),
        "global_429s": total("global_429s"),
        "route_429s": total("route_429s"),
        "invalid_per_10min": total("invalid_per_10min"),
        "staleness": {k: worst("staleness", k) for k in ("p50_s", "p99_s", "max_s")},
        "post_latency": {k: worst("post_latency", k) for k in ("p50_s", "p99_s", "max_s")},
        "ping_latency": {k: worst("ping_latency", k) for k in ("p50_s", "p99_s", "max_s")},
        "answers": total("answers"),
        "answers_over_3s": total("answers_over_3s"),
        "handled_over_3s": total("handled_over_3s"),
        "lost_draws": total("lost_draws"),
        "lost_posts": total("lost_posts"),
        "budget_line": " | ".join(str(p.get("budget_line")) for p in parts),
    }
    found = [(s.get("click_committed") or {}).get("p99_ms") for s in shares]
    clicks: list[float] = [c for c in found if c is not None]
    return {
        "limits": limits,
        "click_committed": {"p99_ms": max(clicks) if clicks else None},
        "processes": shares,
    }


SPREAD = (
    "limits.wanted_per_s",
    "limits.served_per_s",
    "limits.max_served_in_1s",
    "limits.global_429_per_min",
    "limits.route_429_per_min",
    "limits.invalid_per_10min",
    "limits.staleness.p50_s",
    "limits.staleness.p99_s",
    "limits.staleness.max_s",
    "limits.post_latency.p99_s",
    "limits.ping_latency.p99_s",
    "limits.answers_over_3s",
    "limits.lost_draws",
    "limits.lost_posts",
    "click_committed.p99_ms",
)


def spread(attempts: list[dict[str, Any]]) -> dict[str, Any]:
    from bench.e2e import _get

    out: dict[str, Any] = {}
    for path in SPREAD:
        values = [v for v in (_get(a, path) for a in attempts if "error" not in a) if v is not None]
        out[path] = (
            {
                "median": sorted(values)[len(values) // 2],
                "min": min(values),
                "max": max(values),
                "runs": len(values),
            }
            if values
            else None
        )
    return out


def tables(result: dict[str, Any]) -> list[Table]:
    t = Table(
        "End to end inside Discord's budgets (bench/ratelimits.py layer) — median [min–max] over the runs",
        ["tables", "wanted/s", "served/s", "max in 1 s", "global 429/min", "route 429/min", "invalid/10 min",
         "stale p50 s", "stale p99 s", "stale max s", "post p99 s", "ping p99 s", "click p99 ms",
         "answers >3 s", "lost"],
    )  # fmt: skip
    for size, entry in result["rate_limits"].items():
        s = entry["spread"]
        first = next((r for r in entry["runs"] if "error" not in r), None)
        if first is None:
            t.add(size, "error", entry["runs"][0]["error"][:60], *[""] * 12)
            continue
        lost = (s["limits.lost_draws"] or {}).get("max", 0) + (s["limits.lost_posts"] or {}).get("max", 0)
        t.add(
            size,
            fmt_spread(s["limits.wanted_per_s"]),
            fmt_spread(s["limits.served_per_s"]),
            fmt_spread(s["limits.max_served_in_1s"], 0),
            fmt_spread(s["limits.global_429_per_min"]),
            fmt_spread(s["limits.route_429_per_min"]),
            fmt_spread(s["limits.invalid_per_10min"], 0),
            fmt_spread(s["limits.staleness.p50_s"], 2),
            fmt_spread(s["limits.staleness.p99_s"], 2),
            fmt_spread(s["limits.staleness.max_s"], 2),
            fmt_spread(s["limits.post_latency.p99_s"], 2),
            fmt_spread(s["limits.ping_latency.p99_s"], 2),
            fmt_spread(s["click_committed.p99_ms"]),
            fmt_spread(s["limits.answers_over_3s"], 0),
            str(lost),
        )
        t.notes.append(
            f"{size}: clicks whose handling (after their answer) took over 3 virtual s:"
            f" {first['limits'].get('handled_over_3s')}; budget {first['limits']['budget_line']}"
        )
    t.notes.append(
        "wanted = bot-token calls taken from the bot's global budget per virtual s (waiting included),"
        " served = let through by the layer; max in 1 s = most served in any 1-second window (Discord's"
        " global limit: 50); stale = from a committed change to the table message showing it; post/ping ="
        " from queued to served; answers >3 s = clicks first answered (a message, an edit or a deferral)"
        " more than 3 virtual s after they arrived;"
        f" lost = changes never drawn and posts never served after a {DRAIN_S:.0f} s drain"
    )
    return [t]
