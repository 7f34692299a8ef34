"""Where the event loop's CPU goes during the e2e play phase, by owner (``--cpu-profile``).

A statistical sampler: a daemon thread wakes every ``interval`` (1 ms) and reads the event-loop
thread's current stack (``sys._current_frames``). The sample is attributed by walking from the
innermost frame outward to the first frame whose file has an owner (OWNERS: the bot's own
packages, discord.py, SQLAlchemy/aiosqlite, SimCord, the bench harness); the standard library
(copy, json, re, asyncio, …) has no owner, so SimCord's deepcopy counts as SimCord's and the
bot's json.dumps as the bot's. The walk stops at the event loop's own frames (``Handle._run``,
``_run_once``): what lies beyond them is whoever started the loop, not whoever runs now. A sample
whose innermost frame is the selector's ``select`` is the loop waiting: "idle". A sample with no
owner before the loop's frames is asyncio's own scheduling: "asyncio/other".

The GIL decides when the sampler can look. With the interpreter's usual switch interval (5 ms) a
busy loop thread keeps the GIL until it next waits in select, so nearly every sample would land
there and busy time would read as idle (seen: 8% busy by samples against 40% by the thread's CPU
clock). So while sampling, the switch interval is cut to a twentieth of the sampling interval
(50 µs at 1 ms): the sampler gets the GIL within that of waking, wherever the loop is. Samples
are weighted by the time since the previous one rather than counted, so a late wake-up does not
under-weigh what ran meanwhile. The report keeps the loop thread's own CPU clock beside the
sampled busy time as a check of the two.

Only the event-loop thread is sampled. SQLite itself runs in aiosqlite's thread and is not in
these figures (the loop's share of SQLAlchemy is: statement building, ORM, result rows).
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
from collections import Counter
from types import CodeType, FrameType
from typing import Any

from bench.common import ROOT

IDLE = "idle"
OTHER = "asyncio/other"
BOT = "bot"
DISCORD = "discord.py"
DATABASE = "SQLAlchemy/aiosqlite"
SIMCORD = "SimCord"
BENCH = "bench"
OWNER_ORDER = (BOT, DISCORD, DATABASE, SIMCORD, BENCH, OTHER)
TOP = 30  # functions kept per list and run in the JSON (the table shows fewer)

_ROOT = str(ROOT) + "/"
# The bot: everything the referee ships (bot.py and its packages); the bench and the test
# helpers it drives SimCord with (tests/e2e/simhelpers.py) are the harness.
_BOT_PREFIXES = tuple(_ROOT + p for p in ("cogs/", "rules/", "db/", "bot.py"))
_BENCH_PREFIXES = tuple(_ROOT + p for p in ("bench/", "tests/"))
_LIBRARIES = (
    ("/discord/", DISCORD),
    ("/sqlalchemy/", DATABASE),
    ("/aiosqlite/", DATABASE),
    ("/simcord/", SIMCORD),
)

_STOP, _WAIT = "stop", "wait"


def owner_of(filename: str) -> str | None:
    """Which owner a source file belongs to; None for the standard library and anything else."""
    if filename.startswith(_BOT_PREFIXES):
        return BOT
    if filename.startswith(_BENCH_PREFIXES):
        return BENCH
    if "site-packages/" in filename:
        for part, owner in _LIBRARIES:
            if part in filename:
                return owner
    return None


def _kind(code: CodeType) -> str | None:
    """The loop's own frames end the walk; the selector's select is the loop waiting."""
    name, filename = code.co_name, code.co_filename
    if filename.endswith("/asyncio/events.py") and name == "_run":
        return _STOP
    if filename.endswith("/asyncio/base_events.py") and name in ("_run_once", "run_forever"):
        return _STOP
    if filename.endswith("/selectors.py") and name in ("select", "poll"):
        return _WAIT
    return None


def where(code: CodeType) -> str:
    """``path:first line qualified name``, the path relative to the repo or to site-packages."""
    filename = code.co_filename
    if filename.startswith(_ROOT):
        filename = filename[len(_ROOT) :]
    if "site-packages/" in filename:
        filename = filename.split("site-packages/", 1)[1]
    return f"{filename}:{code.co_firstlineno} {code.co_qualname}"


class Sampler:
    """Samples one thread's stack every ``interval`` seconds between start() and stop()."""

    def __init__(self, interval: float = 0.001) -> None:
        self.interval = interval
        self.owner_s: Counter[str] = Counter()
        self.bot_self: Counter[CodeType] = Counter()  # bot-owned samples, innermost bot function
        self.bot_inclusive: Counter[CodeType] = Counter()  # any bot function on the stack, once
        self.discord_self: Counter[CodeType] = Counter()  # discord.py-owned, under a bot frame
        self.discord_entry: Counter[tuple[CodeType, CodeType]] = Counter()  # (bot caller, discord.py callee)
        self.samples = 0
        self._info: dict[CodeType, tuple[str | None, str | None]] = {}
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None
        self._target = 0
        self.wall_s = self.target_cpu_s = self.sampler_cpu_s = 0.0

    def start(self) -> None:
        """Start sampling the calling thread (call it from the event loop's thread)."""
        self._target = threading.get_ident()
        self._clock = time.pthread_getcpuclockid(self._target)
        self._cpu0 = time.clock_gettime(self._clock)
        self._wall0 = time.perf_counter()
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(self.interval / 20)
        self._thread = threading.Thread(target=self._run, name="bench-cpu-sampler", daemon=True)
        self._thread.start()

    def halt(self) -> None:
        if not self._halt.is_set():
            self._halt.set()
            sys.setswitchinterval(self._switch)

    def stop(self) -> dict[str, Any]:
        self.halt()
        assert self._thread is not None
        self._thread.join()
        self.wall_s = time.perf_counter() - self._wall0
        self.target_cpu_s = time.clock_gettime(self._clock) - self._cpu0
        return self.report()

    def _run(self) -> None:
        cpu0 = time.thread_time()
        frames, target, interval = sys._current_frames, self._target, self.interval
        last = time.perf_counter()
        while not self._halt.is_set():
            time.sleep(interval)
            now = time.perf_counter()
            frame = frames().get(target)
            if frame is not None:
                self._take(frame, now - last)
            frame = None
            last = now
        self.sampler_cpu_s = time.thread_time() - cpu0

    def _classify(self, code: CodeType) -> tuple[str | None, str | None]:
        info = self._info.get(code)
        if info is None:
            info = self._info[code] = (owner_of(code.co_filename), _kind(code))
        return info

    def _take(self, frame: FrameType, weight: float) -> None:
        self.samples += 1
        classify = self._classify
        owner, kind = classify(frame.f_code)
        if kind == _WAIT:
            self.owner_s[IDLE] += weight
            return
        first: str | None = None
        bot_frame: CodeType | None = None  # the innermost bot function
        discord_inner: CodeType | None = None
        discord_outer: CodeType | None = None  # the discord.py function the bot called
        crossed = False  # another owner between discord.py's frames and the bot's
        seen: set[CodeType] = set()
        f: FrameType | None = frame
        while f is not None:
            code = f.f_code
            owner, kind = classify(code)
            if kind == _STOP:
                break
            if owner is not None:
                if first is None:
                    first = owner
                if owner == BOT:
                    seen.add(code)
                    if bot_frame is None:
                        bot_frame = code
                elif bot_frame is None:
                    if owner == DISCORD and not crossed:
                        discord_outer = code
                        if discord_inner is None:
                            discord_inner = code
                    elif owner != DISCORD and discord_inner is not None:
                        crossed = True
            f = f.f_back
        self.owner_s[first or OTHER] += weight
        for code in seen:
            self.bot_inclusive[code] += weight
        if first == BOT and bot_frame is not None:
            self.bot_self[bot_frame] += weight
        if first == DISCORD and bot_frame is not None and discord_inner is not None:
            self.discord_self[discord_inner] += weight
            if discord_outer is not None and not crossed:
                self.discord_entry[(bot_frame, discord_outer)] += weight

    def report(self) -> dict[str, Any]:
        busy = sum(s for owner, s in self.owner_s.items() if owner != IDLE)
        sampled = busy + self.owner_s[IDLE]

        def top(counter: Counter[Any], name: Any) -> list[dict[str, Any]]:
            return [
                {"function": name(key), "s": round(s, 4), "share": round(s / busy, 4) if busy else None}
                for key, s in counter.most_common(TOP)
            ]

        return {
            "interval_ms": round(self.interval * 1000, 3),
            "samples": self.samples,
            "wall_s": round(self.wall_s, 3),
            "sampled_s": round(sampled, 3),
            "loop_thread_cpu_s": round(self.target_cpu_s, 3),
            "sampler_cpu_s": round(self.sampler_cpu_s, 3),
            "busy_s": round(busy, 3),
            "idle_share_of_wall": round(self.owner_s[IDLE] / sampled, 4) if sampled else None,
            "owners": {o: round(self.owner_s[o] / busy, 4) if busy else None for o in OWNER_ORDER},
            "owners_s": {o: round(self.owner_s[o], 3) for o in (*OWNER_ORDER, IDLE)},
            "bot_self": top(self.bot_self, where),
            "bot_inclusive": top(self.bot_inclusive, where),
            "discord_self_under_bot": top(self.discord_self, where),
            "discord_called_by_bot": top(self.discord_entry, lambda k: f"{where(k[0])} → {where(k[1])}"),
        }


# --- over several runs --------------------------------------------------------------------------


def combine(profiles: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Owner shares as median [min–max] over the runs; function lists pooled (seconds summed over
    the runs, as a share of all the runs' busy time)."""
    profiles = [p for p in profiles if p]
    if not profiles:
        return None
    owners: dict[str, Any] = {}
    for owner in OWNER_ORDER:
        values = [p["owners"][owner] for p in profiles if p["owners"].get(owner) is not None]
        owners[owner] = (
            {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}
            if values
            else None
        )
    busy = sum(p["busy_s"] for p in profiles)

    def pooled(key: str) -> list[dict[str, Any]]:
        total: Counter[str] = Counter()
        for p in profiles:
            for row in p[key]:
                total[row["function"]] += row["s"]
        return [
            {"function": name, "s": round(s, 4), "share": round(s / busy, 4) if busy else None}
            for name, s in total.most_common(TOP)
        ]

    return {
        "runs": len(profiles),
        "owners": owners,
        "busy_s": round(busy, 3),
        "loop_thread_cpu_s": round(sum(p["loop_thread_cpu_s"] for p in profiles), 3),
        "wall_s": round(sum(p["wall_s"] for p in profiles), 3),
        "sampler_cpu_s": round(sum(p["sampler_cpu_s"] for p in profiles), 3),
        "bot_self": pooled("bot_self"),
        "bot_inclusive": pooled("bot_inclusive"),
        "discord_self_under_bot": pooled("discord_self_under_bot"),
        "discord_called_by_bot": pooled("discord_called_by_bot"),
    }


def _pct(entry: dict[str, float] | None) -> str:
    if not entry:
        return "—"
    if entry["runs"] == 1:
        return f"{entry['median'] * 100:.1f}%"
    return f"{entry['median'] * 100:.1f}% [{entry['min'] * 100:.1f}–{entry['max'] * 100:.1f}]"


def tables(scenarios: dict[str, Any], shown: int = 12) -> list[Any]:
    """The per-owner shares of every profiled size, then the function lists of each."""
    from bench.common import Table

    profiled = {size: s["cpu_profile"] for size, s in scenarios.items() if s.get("cpu_profile")}
    if not profiled:
        return []
    owners = Table(
        "CPU of the event-loop thread during play, by owner — share of busy time, median [min–max]",
        ["tables", *OWNER_ORDER, "busy s", "loop CPU s", "sampler CPU s"],
    )
    for size, p in profiled.items():
        owners.add(
            size,
            *(_pct(p["owners"][o]) for o in OWNER_ORDER),
            p["busy_s"],
            p["loop_thread_cpu_s"],
            p["sampler_cpu_s"],
        )
    owners.notes.append(
        "a sample belongs to the innermost frame outside the standard library; busy = not waiting in"
        " select; seconds summed over the runs; loop CPU s = the loop thread's own CPU clock"
    )
    out = [owners]
    for size, p in profiled.items():
        for key, title in (
            ("bot_self", "the bot's own code, innermost bot function (self)"),
            ("bot_inclusive", "bot functions anywhere on the stack (inclusive, libraries and SimCord too)"),
            ("discord_self_under_bot", "discord.py functions running under a bot frame (self)"),
            ("discord_called_by_bot", "bot function → the discord.py function it called (discord.py time)"),
        ):
            t = Table(f"{size} tables: {title}, share of busy time pooled over {p['runs']} run(s)",
                      ["share", "s", "function"])  # fmt: skip
            for row in p[key][:shown]:
                t.add(f"{row['share'] * 100:.1f}%", row["s"], row["function"])
            out.append(t)
    return out
