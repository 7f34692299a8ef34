"""Where the event loop's CPU goes during the e2e play phase, by owner (``--cpu-profile``).

A statistical sampler: every ``interval`` (1 ms) of real time the event-loop thread's current
stack is read and attributed by walking from the innermost frame outward to the first frame
whose file has an owner (OWNERS: the bot's own packages, discord.py, SQLAlchemy/aiosqlite,
SimCord, the bench harness); the standard library (copy, json, re, asyncio, …) has no owner, so
SimCord's deepcopy counts as SimCord's and the bot's json.dumps as the bot's. The walk stops at
the event loop's own frames (``Handle._run``, ``_run_once``): what lies beyond them is whoever
started the loop, not whoever runs now. A sample whose innermost frame is the selector's
``select`` is the loop waiting: "idle". A sample with no owner before the loop's frames is
asyncio's own scheduling: "asyncio/other".

How the stack is read. The obvious way, a daemon thread reading ``sys._current_frames()``, is
not used, for two reasons seen here: on CPython 3.11 walking another thread's live frames
(``f_back``) segfaulted the bench within seconds (a known race: sentry-python #6119, dd-trace-py
#13567), and under the GIL's 5 ms switch interval the sampler only ever got to look when the loop
released the GIL to wait in select, so busy time read as idle (8% busy by samples against 40% by
the thread's CPU clock). Instead an interval timer (``setitimer``, SIGALRM) makes the loop thread
itself run the sampling handler at the next bytecode boundary, with the interrupted frame: its
own stack, read safely, wherever it was (in select, the signal interrupts the wait). Each sample
is weighted by the loop thread's CPU time since the previous one (its own CPU clock, read in the
handler), so a late or coalesced signal does not under-weigh what ran meanwhile, and time the
thread spent descheduled on a busy machine or waiting for the GIL (aiosqlite's thread holds it
while it works) is not charged to whatever frame it happened to stop in: weighted by real time,
single functions jumped to the top of the list from one run to the next. Idle samples (select)
are weighed in real time instead, for the idle share of the play phase. The handler's own time
is measured and left out of the weights.

Garbage collection holds the GIL and no handler runs during it, so its time would land on
whatever allocation happened to trigger it (a list comprehension in the engine's to_json read as
the bot's hottest function at 200 tables). A ``gc.callbacks`` hook times every collection, and
the next sample gives that time to "garbage collector" instead.

The e2e bench runs its event loop in the main thread, where Python runs signal handlers. Only
that thread is sampled: SQLite itself runs in aiosqlite's thread and is not in these figures (the
loop's share of SQLAlchemy is: statement building, ORM, result rows).
"""

from __future__ import annotations

import gc
import signal
import statistics
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
GC = "garbage collector"
OWNER_ORDER = (BOT, DISCORD, DATABASE, SIMCORD, BENCH, OTHER, GC)
LIBRARIES = (DISCORD, DATABASE)  # what the bot calls into, listed by the bot function calling
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
    """Samples the main thread's stack every ``interval`` seconds between start() and stop()."""

    def __init__(self, interval: float = 0.001) -> None:
        self.interval = interval
        self.owner_s: Counter[str] = Counter()
        self.bot_self: Counter[CodeType] = Counter()  # bot-owned samples, innermost bot function
        self.bot_inclusive: Counter[CodeType] = Counter()  # any bot function on the stack, once
        self.bot_inclusive_owner: Counter[tuple[CodeType, str]] = Counter()  # the same, split by owner
        # Library-owned samples under a bot frame: (library, innermost library function), and
        # (library, the innermost bot function, the library function it called).
        self.lib_self: Counter[tuple[str, CodeType]] = Counter()
        self.lib_entry: Counter[tuple[str, CodeType, CodeType]] = Counter()
        self.samples = 0
        self._info: dict[CodeType, tuple[str | None, str | None]] = {}
        self._previous: Any = None
        self._running = self._inside = False
        self._gc_began = self._gc_pending = 0.0
        self.wall_s = self.target_cpu_s = self.sampler_s = self.idle_cpu_s = 0.0

    def start(self) -> None:
        """Start sampling; call it from the event loop's thread, which must be the main thread."""
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("--cpu-profile samples by SIGALRM: the event loop must run in the main thread")
        self._clock = time.pthread_getcpuclockid(threading.get_ident())
        self._cpu0 = time.clock_gettime(self._clock)
        self._wall0 = self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
        gc.callbacks.append(self._on_gc)
        self._running = True
        signal.setitimer(signal.ITIMER_REAL, self.interval, self.interval)

    def halt(self) -> None:
        """Stop the timer and give SIGALRM back (safe to call twice)."""
        if self._running:
            self._running = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
            gc.callbacks.remove(self._on_gc)

    def stop(self) -> dict[str, Any]:
        self.halt()
        self.wall_s = time.perf_counter() - self._wall0
        self.target_cpu_s = time.clock_gettime(self._clock) - self._cpu0
        return self.report()

    def _on_gc(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        elif self._gc_began:
            self._gc_pending += time.perf_counter() - self._gc_began
            self._gc_began = 0.0

    def _on_alarm(self, _signum: int, frame: FrameType | None) -> None:
        if self._inside:  # a signal that lands in the handler itself: its time is sampler_s
            return
        self._inside = True
        began, cpu = time.perf_counter(), time.thread_time()
        weight = cpu - self._last_cpu
        # Collections since the last sample are the collector's, not the interrupted frame's.
        collected = min(self._gc_pending, weight)
        self._gc_pending = 0.0
        self.owner_s[GC] += collected
        if frame is not None:
            self._take(frame, weight - collected, began - self._last)
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self.sampler_s += self._last_cpu - cpu
        self._inside = False

    def _classify(self, code: CodeType) -> tuple[str | None, str | None]:
        info = self._info.get(code)
        if info is None:
            info = self._info[code] = (owner_of(code.co_filename), _kind(code))
        return info

    def _take(self, frame: FrameType, weight: float, wall: float = 0.0) -> None:
        """Attribute one sample: ``weight`` seconds of the loop thread's CPU (``wall`` seconds of
        real time, which is what an idle sample counts)."""
        self.samples += 1
        classify = self._classify
        owner, kind = classify(frame.f_code)
        if kind == _WAIT:
            self.owner_s[IDLE] += wall
            self.idle_cpu_s += weight
            return
        first: str | None = None
        bot_frame: CodeType | None = None  # the innermost bot function
        library: str | None = None  # discord.py or SQLAlchemy, when a sample is theirs
        lib_inner: CodeType | None = None
        lib_outer: CodeType | None = None  # the library function the bot called
        crossed = False  # another owner between the library's frames and the bot's
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
                    if owner in LIBRARIES:
                        library = owner
                if owner == BOT:
                    seen.add(code)
                    if bot_frame is None:
                        bot_frame = code
                elif bot_frame is None and library is not None and not crossed:
                    if owner == library:
                        lib_outer = code
                        if lib_inner is None:
                            lib_inner = code
                    else:
                        crossed = True
            f = f.f_back
        owner = first or OTHER
        self.owner_s[owner] += weight
        for code in seen:
            self.bot_inclusive[code] += weight
            self.bot_inclusive_owner[(code, owner)] += weight
        if owner == BOT and bot_frame is not None:
            self.bot_self[bot_frame] += weight
        if library is not None and bot_frame is not None and lib_inner is not None and not crossed:
            self.lib_self[(library, lib_inner)] += weight
            assert lib_outer is not None
            self.lib_entry[(library, bot_frame, lib_outer)] += weight

    def report(self) -> dict[str, Any]:
        busy = sum(s for owner, s in self.owner_s.items() if owner != IDLE)

        def row(function: str, s: float, **more: Any) -> dict[str, Any]:
            return {"function": function, "s": round(s, 4), "share": _share(s, busy), **more}

        inclusive = []
        for code, s in self.bot_inclusive.most_common(TOP):
            split = {o: round(self.bot_inclusive_owner[(code, o)], 4) for o in OWNER_ORDER}
            inclusive.append(row(where(code), s, by_owner_s=split))
        return {
            "interval_ms": round(self.interval * 1000, 3),
            "samples": self.samples,
            "wall_s": round(self.wall_s, 3),
            "idle_cpu_s": round(self.idle_cpu_s, 3),
            "loop_thread_cpu_s": round(self.target_cpu_s, 3),
            "sampler_s": round(self.sampler_s, 3),
            "busy_s": round(busy, 3),
            "idle_share_of_wall": round(self.owner_s[IDLE] / self.wall_s, 4) if self.wall_s else None,
            "owners": {o: round(self.owner_s[o] / busy, 4) if busy else None for o in OWNER_ORDER},
            "owners_s": {o: round(self.owner_s[o], 3) for o in (*OWNER_ORDER, IDLE)},
            "bot_self": [row(where(code), s) for code, s in self.bot_self.most_common(TOP)],
            "bot_inclusive": inclusive,
            "library_under_bot": [
                row(where(code), s, owner=lib) for (lib, code), s in self.lib_self.most_common(TOP)
            ],
            "library_called_by_bot": [
                row(f"{where(caller)} → {where(callee)}", s, owner=lib)
                for (lib, caller, callee), s in self.lib_entry.most_common(TOP)
            ],
        }


def _share(s: float, busy: float) -> float | None:
    return round(s / busy, 4) if busy else None


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
        split: dict[str, Counter[str]] = {}
        owner_of_row: dict[str, str] = {}
        for p in profiles:
            for r in p[key]:
                total[r["function"]] += r["s"]
                if "by_owner_s" in r:
                    split.setdefault(r["function"], Counter()).update(r["by_owner_s"])
                if "owner" in r:
                    owner_of_row[r["function"]] = r["owner"]
        out = []
        for name, s in total.most_common(TOP):
            r: dict[str, Any] = {"function": name, "s": round(s, 4), "share": _share(s, busy)}
            if name in split:
                r["by_owner_s"] = {o: round(v, 4) for o, v in split[name].items()}
            if name in owner_of_row:
                r["owner"] = owner_of_row[name]
            out.append(r)
        return out

    return {
        "runs": len(profiles),
        "owners": owners,
        "busy_s": round(busy, 3),
        "loop_thread_cpu_s": round(sum(p["loop_thread_cpu_s"] for p in profiles), 3),
        "wall_s": round(sum(p["wall_s"] for p in profiles), 3),
        "sampler_s": round(sum(p["sampler_s"] for p in profiles), 3),
        "bot_self": pooled("bot_self"),
        "bot_inclusive": pooled("bot_inclusive"),
        "library_under_bot": pooled("library_under_bot"),
        "library_called_by_bot": pooled("library_called_by_bot"),
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
        ["tables", *OWNER_ORDER, "busy s", "loop CPU s", "sampler s"],
    )
    for size, p in profiled.items():
        owners.add(
            size,
            *(_pct(p["owners"][o]) for o in OWNER_ORDER),
            p["busy_s"],
            p["loop_thread_cpu_s"],
            p["sampler_s"],
        )
    owners.notes.append(
        "a sample belongs to the innermost frame outside the standard library and weighs the loop"
        " thread's CPU time since the last one; busy s = that CPU outside select, summed over the runs;"
        " loop CPU s = the thread's whole CPU clock, the sampler's handler (sampler s) included"
    )
    out = [owners]
    for size, p in profiled.items():
        pooled = f"% of busy time pooled over {p['runs']} run(s)"
        t = Table(f"{size} tables: the bot's own code by innermost bot function (self), {pooled}",
                  ["self", "function"])  # fmt: skip
        for r in p["bot_self"][:shown]:
            t.add(f"{r['share'] * 100:.1f}%", r["function"])
        out.append(t)
        t = Table(
            f"{size} tables: bot functions anywhere on the stack (inclusive), split by owner, {pooled}",
            ["inclusive", "bot", "discord.py", "SQLA", "SimCord", "function"],
        )
        for r in p["bot_inclusive"][:shown]:
            split = r["by_owner_s"]
            t.add(
                f"{r['share'] * 100:.1f}%",
                *(f"{split.get(o, 0) / p['busy_s'] * 100:.1f}%" for o in (BOT, DISCORD, DATABASE, SIMCORD)),
                r["function"],
            )
        out.append(t)
        for lib in LIBRARIES:
            t = Table(
                f"{size} tables: {lib} time under bot frames, by bot function → the {lib} function it called,"
                f" {pooled}",
                ["share", "bot function → library function"],
            )
            for r in [r for r in p["library_called_by_bot"] if r.get("owner") == lib][: shown // 2]:
                t.add(f"{r['share'] * 100:.1f}%", r["function"])
            out.append(t)
    return out
