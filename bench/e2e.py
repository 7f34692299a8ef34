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
import contextvars
import gc
import io
import json
import logging
import re
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bench import heap
from bench.common import Table, fmt_spread, sqlite_url, summary_ms

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
    dm: int = 0  # how many of the people play from a DM panel (the last ones seated)

    def computer_levels(self, game: Any, seats: int) -> list[str]:
        wanted = list(self.computers) or list(game.computer_levels)
        return [wanted[i % len(wanted)] for i in range(seats - self.people)]

    def seats(self, game: Any) -> int:
        from bench.engines import default_players

        return max(default_players(game), self.people)


# Zip Zap: two people and a casual and a sharp computer, four seats (the engines' default).
DRIVERS: dict[str, GameDriver] = {"zipzap": GameDriver("zipzap", people=2, computers=("casual", "sharp"))}
# The "4 people, one on DM" table: every seat a person, the fourth plays by DM.
DM_DRIVER = GameDriver("zipzap", people=4, dm=1)


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
    # Per click that was handled: (seconds from receipt to answered, seconds of it in SimCord,
    # whether it committed a change).
    clicks: list[tuple[float, float, bool]] = field(default_factory=list)
    commits: list[float] = field(default_factory=list)  # Store.write, lock wait included
    steps_bot: list[float] = field(default_factory=list)  # loop steps of the bot's own work
    steps_all: list[float] = field(default_factory=list)  # every loop step, SimCord's too
    sources: dict[int, tuple[int, int]] = field(default_factory=dict)  # interaction -> (channel, message)
    digest: LogDigest | None = None  # during play: the HTTP log is read as it grows, then dropped
    uploads: int = 0  # files uploaded in REST calls (pictures), and their bytes
    upload_bytes: int = 0

    def virtual_now(self) -> float:
        return float(self.env.now().timestamp())

    def sample(self) -> None:
        """Remember how far the HTTP log had got at this virtual instant (for the sampled count);
        during play, read what it gained since the last sample into the digest and drop it."""
        if self.digest is not None:
            log = self.env.http_requests
            self.digest.feed(log, self.virtual_now())
            del log[:]
            return
        self.samples.append((len(self.env.http_requests), self.virtual_now()))


class LogDigest:
    """What the play phase's HTTP log says, read piece by piece: routes, table edits with the
    virtual time of the sample after them, and calls by who pays (``CallCounter``). SimCord keeps
    every request it served; left to grow, that log was a large share of the heap that full
    garbage collections walk, and those pauses, not the bot, made the tail of click p99."""

    def __init__(self, probe: Probe, table_channels: set[int]) -> None:
        self.routes: Counter[str] = Counter()
        self.table_patches = 0
        self.sampled: dict[int, list[float]] = defaultdict(list)
        self.counter = CallCounter(probe, table_channels)

    def feed(self, log: list[Any], moment: float) -> None:
        for entry in log:
            self.routes[route_kind(entry.method, entry.path)] += 1
            match = TABLE_EDIT.search(entry.path)
            if entry.method == "PATCH" and match and entry.path.startswith("/channels/"):
                self.table_patches += 1
                self.sampled[int(match.group(1))].append(moment)
        self.counter.feed(log)


class _CountingHandler(logging.Handler):
    """Counts the bot's warnings and errors instead of printing thousands of lines."""

    def __init__(self, probe: Probe) -> None:
        super().__init__(logging.WARNING)
        self.probe = probe

    def emit(self, record: logging.LogRecord) -> None:
        self.probe.warnings[f"{record.name}: {record.getMessage()[:70]}"] += 1


@dataclass
class _Click:
    simcord_s: float = 0.0
    committed: bool = False


# The click being handled in this task (and the tasks it spawns), for the SimCord time split.
_CLICK: contextvars.ContextVar[_Click | None] = contextvars.ContextVar("bench_click", default=None)


def upload_size(files: Sequence[Any] | None) -> int:
    """Bytes of the files a REST call uploads, read without moving their position (discord.py
    and SimCord read them afterwards)."""
    total = 0
    for file in files or []:
        fp = getattr(file, "fp", None)
        if fp is None or not hasattr(fp, "seek"):
            continue
        where = fp.tell()
        total += fp.seek(0, io.SEEK_END) - where
        fp.seek(where)
    return total


def watch_simcord(probe_click: Callable[[], _Click | None], probe: Probe | None = None) -> Callable[[], None]:
    """Time SimCord's own work (every REST call lands in simcord.http.router.dispatch, which
    also echoes gateway events) so a click's handling splits into the bot's part and SimCord's;
    with ``probe``, also add up the bytes of the files each call uploads (the card art)."""
    from simcord.http import router

    original = router.dispatch

    def dispatch(*args: Any, **kwargs: Any) -> Any:
        if probe is not None and (files := kwargs.get("files")):
            probe.uploads += len(files)
            probe.upload_bytes += upload_size(files)
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            click = probe_click()
            if click is not None:
                click.simcord_s += time.perf_counter() - started

    router.dispatch = dispatch

    def undo() -> None:
        router.dispatch = original

    return undo


def watch_loop(bot_steps: list[float], all_steps: list[float], floor: float = 0.0005) -> Callable[[], None]:
    """The event loop's stalls: how long each callback or task step runs. While one runs nothing
    else on the loop can, so the longest step is the longest any click or timer waited behind
    another's work. Steps of the bot's own work (SimCord marks them with its bot scope) are kept
    apart from SimCord's settling and from the bench's own driving task (the caller's task: it
    runs SimCord's settle and time advance inside SimCord's bot scope, so the scope alone would
    count them as the bot's). Steps under ``floor`` are not kept (there are millions)."""
    from simcord import _runtime

    scope = _runtime._BOT_SCOPE
    original = asyncio.events.Handle._run
    driver = asyncio.current_task()

    def run(handle: Any) -> None:
        started = time.perf_counter()
        try:
            original(handle)
        finally:
            took = time.perf_counter() - started
            if took >= floor:
                all_steps.append(took)
                context = handle._context
                task = getattr(handle._callback, "__self__", None)
                if context is not None and context.get(scope) is not None and task is not driver:
                    bot_steps.append(took)

    asyncio.events.Handle._run = run  # type: ignore[method-assign]
    import gc

    began: list[float] = []

    def collector(phase: str, info: dict[str, Any]) -> None:
        # Full collections walk the whole heap, SimCord's request log included; kept apart so an
        # outlier step can be told from the bot's own work.
        if info.get("generation") != 2:
            return
        if phase == "start":
            began[:] = [time.perf_counter(), time.thread_time()]
        elif began:
            GC_PAUSES.append(time.perf_counter() - began[0])
            # The loop thread's own CPU for it: on a shared machine the wall time above also
            # holds whatever time slices other processes took meanwhile.
            GC_CPU.append(time.thread_time() - began[1])

    gc.callbacks.append(collector)

    def undo() -> None:
        asyncio.events.Handle._run = original  # type: ignore[method-assign]
        gc.callbacks.remove(collector)

    return undo


def release_ran_handles() -> Callable[[], None]:
    """Let an event-loop handle drop its callback once it has run (a handle runs once).

    SimCord wraps every callback the bot schedules in a closure whose record points back at the
    handle: one reference cycle per callback, about 2,000 objects an action at 200 tables, all of
    it the harness's (the census below counts it). Only the collector frees such cycles, so they
    made up nearly all the garbage the bot's quiet collections found, and their longest pauses
    (15,000-21,000 objects freed, 28-40 ms, every one a SimCord group). asyncio's own handles make
    no cycle, so a bot in production never has that garbage. Installed over ``watch_loop`` (which
    reads the callback after the step) for the play phase of the referee and of the floor alike."""
    original = asyncio.events.Handle._run

    def run(handle: Any) -> None:
        try:
            original(handle)
        finally:
            # Only SimCord's wrappers, which run once: a reader's handle (add_reader) runs each
            # time its pipe is readable and must keep its callback.
            if hasattr(handle._callback, "__simcord_original_callback__"):
                handle._callback = None
                handle._args = None

    asyncio.events.Handle._run = run  # type: ignore[method-assign]

    def undo() -> None:
        asyncio.events.Handle._run = original  # type: ignore[method-assign]

    return undo


GC_PAUSES: list[float] = []  # full collections during the last watched stretch, seconds
GC_CPU: list[float] = []  # the same collections' CPU time on the loop's thread


def forget_transcript(env: Any) -> None:
    """Drop SimCord's transcript (every gateway event and REST body, kept only to print when a
    test fails; the bench reads ``env.http_requests`` instead). Measured at the end of a 200-table
    run with every table clicking, it held about 250,000 of the heap's 550,000 tracked objects,
    and a full collection took 800 ms with it and 355 ms without: the harness's garbage, not the
    bot's, decided both click p99s. Cleared after every round, for the referee and the floor."""
    env.backend.transcript.clear()


def settled_heap() -> None:
    """Before a play phase: collect, then freeze what the set-up left (SimCord's log of it, the
    opened tables), as the bot does after start-up (bot.py freezes once its tables are resumed).
    Full collections during play then walk only what play adds, for the referee and the floor
    alike; without it one 150-200 ms collection of the harness's heap, landing in one run's burst
    and not in the other's, decided the committed-click ratio (0.45-4.69x over three runs)."""
    gc.collect()
    gc.freeze()


def instrument(bot: Any, env: Any) -> Probe:
    probe = Probe(env)
    referee = bot.referee

    # Receipt: when discord.py parses the gateway event, before any task is scheduled for it.
    parsers = bot._connection.parsers
    parse_interaction = parsers["INTERACTION_CREATE"]

    def parse(data: Any) -> None:
        probe.received[int(data["id"])] = time.perf_counter()
        message = data.get("message") or {}
        if message.get("id"):
            probe.sources[int(data["id"])] = (
                int(message.get("channel_id") or data["channel_id"]),
                int(message["id"]),
            )
        parse_interaction(data)

    parsers["INTERACTION_CREATE"] = parse

    def timed(kind_of: Callable[..., str], original: Callable[..., Any]) -> Callable[..., Any]:
        async def handler(interaction: Any, *args: Any) -> None:
            entered = time.perf_counter()
            click = _Click()
            token = _CLICK.set(click)
            # Called, not wrapped in a task: the referee still takes the table lock before its
            # first await, so arrival order keeps deciding races exactly as without the probe.
            try:
                await original(interaction, *args)
            finally:
                _CLICK.reset(token)
                done = time.perf_counter()
                start = probe.received.pop(interaction.id, entered)
                probe.handling[kind_of(*args)].append(done - start)
                probe.queued.append(entered - start)
                probe.clicks.append((done - start, click.simcord_s, click.committed))

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
        click = _CLICK.get()
        if click is not None:
            click.committed = True

    referee.on_change.append(on_change)

    store = bot.store
    original_write = store.write

    async def write(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await original_write(*args, **kwargs)
        finally:
            probe.commits.append(time.perf_counter() - started)

    store.write = write

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
    dm: bool = False  # plays from a DM panel
    dm_panel: int | None = None  # that panel's message id, once sent


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
    driver: GameDriver | None = None,
    cpu_profile: float | None = None,
    url: str | None = None,
    shards: tuple[int, tuple[int, ...]] = (1, (0,)),
    guild_ids: Sequence[int] = (),
    before_play: Callable[[], Awaitable[None]] | None = None,
    raw_clicks: bool = False,
    extra: Any = None,
    global_limit: float | None = None,
) -> dict[str, Any]:
    """One scenario. By default a fresh SQLite file (``database``), one process with every shard,
    one guild. The two-process bench (bench/shards2.py) passes ``url`` (a database its caller has
    migrated), ``shards`` (SHARD_COUNT and this process's SHARD_IDS), ``guild_ids`` (guilds on
    those shards; tables go round them) and ``before_play`` (awaited once every table is open,
    so that processes start their play phases together); ``raw_clicks`` keeps every committed
    click's time, so several processes' p99 can be taken over all their clicks. ``extra``
    (bench/e2e_limits.py's ``Limits``) puts the rate-limit layer under the bot and adds its figures.
    ``global_limit`` replaces the bot's global limit (calls a real second; the bot's default if None)."""
    import simcord

    from bot import Settings, create_bot
    from db.engine import migrate
    from rules import get_game

    def driver_for(key: str) -> GameDriver:
        return driver if driver is not None and driver.key == key else DRIVERS.get(key) or GameDriver(key)

    if url is None:
        url = sqlite_url(database)
        await asyncio.to_thread(migrate, url)  # Alembic runs its own event loop: keep it off ours
    count, ids = shards
    settings = Settings(
        token=None,
        database_url=url,
        shard_count=count,
        shard_ids=ids,
        instance=f"bench-{','.join(map(str, ids))}",
    )
    if global_limit is not None:
        settings = replace(settings, global_limit=global_limit)
    bot = create_bot(settings)
    wall0 = time.perf_counter()
    undo: list[Callable[[], None]] = []
    # The bot sets the collector's thresholds when it starts (cogs/table/heap.py); put back
    # afterwards, so the floor, run next, is a minimal bot with Python's defaults, as it was.
    collector = gc.get_threshold()
    try:
        async with simcord.run(bot, settle_timeout=settle_timeout, check_errors=False) as env:
            probe = instrument(bot, env)
            if extra is not None:
                extra.attach(bot, env)
            available = [k for k in games if k in bot.referee.uis]
            skipped = [k for k in games if k not in bot.referee.uis]
            if not available:
                raise RuntimeError(f"none of the games {games} has a cog loaded in the bot")
            if guild_ids and min(ids):
                # Each simulated Discord hands out ids from its own virtual clock, and each starts
                # at the same instant: another process's channels would get the same ids, and the
                # database (one live table per channel) would refuse the second. Real Discord's ids
                # are unique everywhere; so, here, a process's timeline starts later by shard.
                await env.advance_time(300.0 * min(ids))
            guilds = (
                [env.create_guild(id=g, name=f"Bench night {g}") for g in guild_ids]
                if guild_ids
                else [env.create_guild(name="Bench night")]
            )
            owned_before = heap.owned(bot)  # the bot's own objects with no table yet
            live: list[LiveTable] = []
            for i in range(tables):
                key = available[i % len(available)]
                drv = driver_for(key)
                guild = guilds[i % len(guilds)]
                channel = guild.create_text_channel(f"table-{i}")
                people = [
                    Person(guild.add_member(env.create_user(f"p{i}x{j}")), dm=j >= drv.people - drv.dm)
                    for j in range(drv.people)
                ]
                live.append(LiveTable(key, channel, people[0].actor, people))

            # Opening: the slash command is a SimCord verb (one at a time); the lobby clicks go in bursts.
            setup0 = time.perf_counter()
            for t in live:
                drv = driver_for(t.key)
                options = dict(drv.options)
                if _has_option(bot, f"{t.key} new", "seats"):  # Trap is always two: no such option
                    options["seats"] = drv.seats(get_game(t.key))
                if t is live[0]:
                    progress("  opening the tables")
                await t.host.slash(t.channel, f"{t.key} new", **options)
                t.lobby = t.channel.last_message
                t.table_id = _table_id(t.lobby)
            joins = [(p.actor, t.lobby, f"gt:{t.table_id}:join", None) for t in live for p in t.people[1:]]
            progress(f"  {len(live)} lobbies open")
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
            changes0, virtual0 = probe.changes, probe.virtual_now()
            del env.http_requests[:]  # the set-up's calls are not what an action costs
            probe.samples.clear()
            probe.digest = digest = LogDigest(probe, {t.channel.id for t in live})
            probe.clicks.clear()
            probe.commits.clear()
            undo.append(watch_simcord(_CLICK.get, probe))
            art = bot.referee.drawing.art
            art.draw_seconds.clear()
            art.click_waits.clear()
            art.background_waits.clear()
            hits0, misses0, on_loop0 = art.cache.hits, art.cache.misses, art.drawn_on_loop
            in_thread0 = art.drawn_in_thread
            GC_PAUSES.clear()
            GC_CPU.clear()
            undo.append(watch_loop(probe.steps_bot, probe.steps_all))
            undo.append(release_ran_handles())
            sampler = None
            if cpu_profile:
                from bench.cpu import Sampler

                # Play phase only: set-up and teardown are not what a click costs.
                sampler = Sampler(cpu_profile)
                sampler.start()
                undo.append(sampler.halt)  # a failed run must not leave it sampling
            forget_transcript(env)
            settled_heap()
            # Play starts as it would after a restart with these tables live: the bot's collector
            # (cogs/table/heap.py) takes them as its starting heap, as it does after resume().
            if bot.collector.enabled:
                bot.collector.start()
            undo.append(gc.unfreeze)
            freed = heap.Freed()
            undo.append(freed.watch())
            quiet0, thaws0 = len(bot.collector.pauses), len(bot.collector.thaws)
            if before_play is not None:
                await before_play()
            if extra is not None:
                extra.play_started()
            play0 = time.perf_counter()
            play_at, cpu0 = time.time(), time.process_time()
            for r in range(rounds):
                clicks: list[tuple[Any, Any, str, Callable[[Any], None] | None]] = []
                if r % click_every == 0:
                    # Only the first ``clicking`` tables' people click (--clicking-tables; by
                    # default all of them): the rest sit idle and their computers play on.
                    for t in live[:clicking]:
                        if _status(bot, t) != "playing":
                            continue
                        drv = driver_for(t.key)
                        for p in t.people:
                            clicks.append(_next_click(t, p, drv))
                await _burst(env, probe, clicks, burst)
                await _advance(env, probe, 1.0, step)
                forget_transcript(env)
                if (r + 1) % 5 == 0:
                    elapsed = time.perf_counter() - play0
                    progress(f"  round {r + 1}/{rounds}: {probe.changes - changes0} actions, {elapsed:.0f} s")
            play_s = time.perf_counter() - play0
            play_cpu_s = time.process_time() - cpu0
            play_until = time.time()
            profile = sampler.stop() if sampler is not None else None
            heap_end = heap.heap_now()  # before the bench unfreezes what it froze
            quiet = list(bot.collector.pauses)[quiet0:]
            thaws = list(bot.collector.thaws)[thaws0:]
            for step_back in reversed(undo):
                step_back()
            undo.clear()
            # What a whole-heap collection (the bot's rare thaw) costs now, and what it finds that
            # died in reference cycles after it was frozen: nothing else would free that.
            gc.unfreeze()
            gc.set_debug(gc.DEBUG_SAVEALL)
            whole0 = time.perf_counter()
            try:
                gc.collect()
            finally:
                gc.set_debug(0)
            whole_s = time.perf_counter() - whole0
            died_frozen = heap.split(gc.garbage)
            freeing0 = time.perf_counter()
            gc.garbage.clear()
            gc.collect()  # frees what was kept for counting, as the collection would have
            whole_s += time.perf_counter() - freeing0
            # Counted, not timed: one more round of clicks with the collector off, whatever it
            # left in reference cycles split into the bot's and the harness's (bench/heap.py).
            census_changes = probe.changes
            collecting, bot.collector.enabled = bot.collector.enabled, False  # nothing freed meanwhile
            gc.freeze()  # what the round leaves is then told apart from what was there before it
            with heap.saved_garbage() as garbage:
                clicks = [
                    _next_click(t, p, driver_for(t.key))
                    for t in live[:clicking]
                    if _status(bot, t) == "playing"
                    for p in t.people
                ]
                await _burst(env, probe, clicks, burst)
                await _advance(env, probe, 1.0, step)
                forget_transcript(env)
            census_actions = probe.changes - census_changes
            bot.collector.enabled = collecting
            cycles = heap.split(garbage)
            del garbage
            # What the round left alive for the next quiet collection to walk once, the bot's
            # apart from SimCord's world (its stored messages, log and timer records).
            round_walk = heap.walked(bot)
            gc.unfreeze()
            owned_after = heap.owned(bot)
            live_tables = len(bot.referee.tables)
            virtual_s = probe.virtual_now() - virtual0
            probe.sample()  # the last calls since the last sample
            probe.digest = None
            actions = probe.changes - changes0
            routes = digest.routes
            patch_count = digest.table_patches
            exact = {cid: max_in_window(times) for cid, times in probe.edits.items()}
            sampled = {cid: max_in_window(times) for cid, times in digest.sampled.items()}
            finished = sum(1 for t in live if _status(bot, t) == "finished")
            errors = len(env.errors)
            calls, redundant = digest.counter.calls, digest.counter.redundant
            hits, misses = art.cache.hits - hits0, art.cache.misses - misses0
            committed = [c for c in probe.clicks if c[2]]
            refused = [c for c in probe.clicks if not c[2]]
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
                # Wall-clock instants and this process's CPU during play: several processes'
                # play phases are put together from these (bench/shards2.py).
                "play_started_at": play_at,
                "play_ended_at": play_until,
                "play_cpu_s": round(play_cpu_s, 2),
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
                "rest_calls": sum(routes.values()),
                "rest_per_action": round(sum(routes.values()) / actions, 3) if actions else None,
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
                "people_on_dm_per_table": driver_for(available[0]).dm,
                "calls_per_action": {k: round(n / actions, 3) for k, n in sorted(calls.items())}
                if actions
                else {},
                "bot_token_calls_per_action": round(
                    sum(n for k, n in calls.items() if k.startswith("bot-token")) / actions, 3
                )
                if actions
                else None,
                "redundant_edits": dict(redundant),
                "redundant_edits_per_action": round(sum(redundant.values()) / actions, 3)
                if actions
                else None,
                "click_committed": summary_ms([c[0] for c in committed]),
                "click_committed_s": [round(c[0], 6) for c in committed] if raw_clicks else None,
                "click_refused": summary_ms([c[0] for c in refused]),
                "click_committed_bot_only": summary_ms([c[0] - c[1] for c in committed]),
                "click_simcord_share": round(
                    sum(c[1] for c in probe.clicks) / sum(c[0] for c in probe.clicks), 3
                )
                if probe.clicks
                else None,
                "commit": summary_ms(probe.commits),
                "loop_step_bot": summary_ms(probe.steps_bot),
                "loop_step_all": summary_ms(probe.steps_all),
                "full_gc_pauses": summary_ms(GC_PAUSES),
                "full_gc_cpu": summary_ms(GC_CPU),
                # Issue 35: what the collector walks and finds (bench/heap.py), counted.
                "heap": {
                    "quiet_collections": summary_ms(quiet),
                    "whole_heap_collections": summary_ms(thaws),
                    "freed_from_cycles_per_action": round(freed.objects / actions, 1) if actions else None,
                    "census_actions": census_actions,
                    "cycles_per_action": {
                        k: round(cycles[k] / census_actions, 1) for k in ("objects", "bot", "harness")
                    }
                    if census_actions
                    else None,
                    "cycles_bot_kinds": cycles["bot_kinds"],
                    # Left alive by the census round, per action: what a quiet collection walks.
                    "walked_per_action": {k: round(v / census_actions, 1) for k, v in round_walk.items()}
                    if census_actions
                    else None,
                    "whole_heap_collection_at_end_ms": round(whole_s * 1e3, 1),
                    "died_frozen_per_action": {
                        k: round(died_frozen[k] / actions, 1) for k in ("objects", "bot", "harness")
                    }
                    if actions
                    else None,
                    "died_frozen_bot_kinds": died_frozen["bot_kinds"],
                    "quiet_collections_ms": [round(x * 1e3, 1) for x in quiet],
                    "walked_at_end": heap_end["walked"],
                    "frozen_at_end": heap_end["frozen"],
                    "bot_objects_before_tables": owned_before,
                    "bot_objects": owned_after,
                    "live_tables": live_tables,
                    "bot_objects_per_live_table": round((owned_after - owned_before) / live_tables)
                    if live_tables
                    else None,
                },
                "bot_errors": errors,
                "bot_warnings": dict(probe.warnings.most_common(8)),
                # Card art (cogs/table/pictures.py): what the play phase uploaded and drew.
                "uploads_per_action": round(probe.uploads / actions, 3) if actions else None,
                "upload_bytes_per_action": round(probe.upload_bytes / actions) if actions else None,
                "picture_draw": summary_ms(list(art.draw_seconds)),
                "picture_wait_click": summary_ms(list(art.click_waits)),
                "picture_wait_background": summary_ms(list(art.background_waits)),
                "picture_cache_hit_rate": round(hits / (hits + misses), 3) if hits + misses else None,
                "picture_cache_asks": hits + misses,
                "drawn_on_loop": art.drawn_on_loop - on_loop0,
                "drawn_in_thread": art.drawn_in_thread - in_thread0,
                "gc_thresholds": list(gc.get_threshold()),
            }
            if profile is not None:
                result["cpu_profile"] = profile
            if extra is not None:
                await extra.drain(env)
                result["limits"] = extra.report(bot)
    finally:
        for step_back in reversed(undo):
            step_back()
        gc.set_threshold(*collector)
        await bot.database.dispose()
    result["total_wall_s"] = round(time.perf_counter() - wall0, 2)
    return result


def _has_option(bot: Any, command: str, option: str) -> bool:
    found = bot.tree.get_command(command.split()[0])
    for part in command.split()[1:]:
        found = found.get_command(part) if found is not None else None
    return found is not None and any(p.name == option for p in found.parameters)


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

    if p.dm:
        return _next_dm_click(t, p, drv)
    if p.panel is None:
        return (p.actor, t.lobby, f"gt:{t.table_id}:hand", keep)
    choice = drv.choose(p.panel)
    if choice is None:
        refresh = [c for c in _custom_ids(p.panel) if c.endswith(":refresh")]
        if not refresh:
            return (p.actor, t.lobby, f"gt:{t.table_id}:hand", keep)
        choice = refresh[0]
    return (p.actor, p.panel, choice, None)


def _next_dm_click(
    t: LiveTable, p: Person, drv: GameDriver
) -> tuple[Any, Any, str, Callable[[Any], None] | None]:
    """A DM player: "Hand by DM" first, then they click the DM panel (as the user, not the member)."""
    user = p.actor.user

    def remember(_answer: Any) -> None:
        history = user.dm_channel.history() if user.dm_channel is not None else []
        p.dm_panel = history[-1].id if history else None

    if p.dm_panel is None:
        return (p.actor, t.lobby, f"gt:{t.table_id}:dm", remember)
    # History gives snapshots: read the panel afresh each time.
    panel = next(m for m in user.dm_channel.history() if m.id == p.dm_panel)
    choice = drv.choose(panel)
    if choice is None:
        refresh = [c for c in _custom_ids(panel) if c.endswith(":refresh")]
        if not refresh:
            p.dm_panel = None
            return (p.actor, t.lobby, f"gt:{t.table_id}:dm", remember)
        choice = refresh[0]
    return (user, panel, choice, None)


CALLBACK = re.compile(r"^/interactions/(\d+)/([^/]+)/callback$")
WEBHOOK_MESSAGE = re.compile(r"^/webhooks/\d+/([^/]+)/messages/(@original|\d+)$")
CHANNEL_MESSAGE = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")


def _shown(payload: Any) -> str:
    """What a message shows, from a REST body (callback data, webhook or message edit), as text:
    kept per message while the log itself is dropped, and a string is no work for the GC."""
    if isinstance(payload, dict):
        payload = {k: payload.get(k) for k in ("content", "embeds", "components", "attachments")}
    return json.dumps(payload, sort_keys=True, default=str)


def call_breakdown(
    log: list[Any], probe: Probe, table_channels: set[int]
) -> tuple[Counter[str], Counter[str]]:
    """REST calls by who pays for them, and the redundant edits among them.

    Interaction callbacks and interaction-token (webhook) edits are per click and cost nothing of
    the bot's own rate limits; bot-token calls (channel messages, DMs) do. An edit is redundant
    when it sends a message exactly what it already shows: the same content, embeds, components
    and attachments as the last callback or edit that drew it (a click's answer on that message,
    or an earlier edit through the same token or of the same message)."""
    counter = CallCounter(probe, table_channels)
    counter.feed(log)
    return counter.calls, counter.redundant


class CallCounter:
    """``call_breakdown`` fed a piece of the log at a time (the bench drops what it has read)."""

    def __init__(self, probe: Probe, table_channels: set[int]) -> None:
        self.probe = probe
        self.table_channels = table_channels
        self.shown: dict[tuple[Any, ...], Any] = {}
        self.calls: Counter[str] = Counter()
        self.redundant: Counter[str] = Counter()

    def feed(self, log: list[Any]) -> None:
        probe, table_channels = self.probe, self.table_channels
        shown, calls, redundant = self.shown, self.calls, self.redundant
        for entry in log:
            self._one(entry, probe, table_channels, shown, calls, redundant)

    @staticmethod
    def _one(
        entry: Any,
        probe: Probe,
        table_channels: set[int],
        shown: dict[tuple[Any, ...], Any],
        calls: Counter[str],
        redundant: Counter[str],
    ) -> None:
        path, method, body = entry.path, entry.method, entry.json
        match = CALLBACK.match(path)
        if match:
            calls["interaction callbacks"] += 1
            kind = (body or {}).get("type")
            data = (body or {}).get("data")
            if kind in (4, 7) and data is not None:
                shown[("token", match.group(2))] = _shown(data)
                source = probe.sources.get(int(match.group(1)))
                if kind == 7 and source is not None:
                    shown[("message", *source)] = shown[("token", match.group(2))]
            return
        match = WEBHOOK_MESSAGE.match(path)
        if match:
            if method == "PATCH":
                calls["interaction-token edits"] += 1
                key = ("token", match.group(1))
                if shown.get(key) == _shown(body):
                    redundant["interaction-token edits"] += 1
                shown[key] = _shown(body)
            else:
                calls[f"interaction-token {method}"] += 1
            return
        if path.startswith("/channels/"):
            channel = int(path.split("/")[2])
            where = "channel" if channel in table_channels else "DM"
            calls[f"bot-token calls ({where})"] += 1
            match = CHANNEL_MESSAGE.match(path)
            if match and match.group(2) and method == "PATCH":
                key = ("message", channel, int(match.group(2)))
                if shown.get(key) == _shown(body):
                    redundant[f"bot-token edits ({where})"] += 1
                shown[key] = _shown(body)
            return
        if path.startswith("/users/@me/channels"):
            calls["bot-token calls (DM)"] += 1
            return
        calls[f"other {method}"] += 1


SPREAD = (
    "click_committed.p50_ms",
    "click_committed.p99_ms",
    "click_refused.p99_ms",
    "click_committed_bot_only.p99_ms",
    "click_simcord_share",
    "commit.p50_ms",
    "commit.p99_ms",
    "loop_step_bot.max_ms",
    "loop_step_bot.p99_ms",
    "rest_per_action",
    "bot_token_calls_per_action",
    "redundant_edits_per_action",
    "floor_click.p99_ms",
    "committed_p99_over_floor",
    "upload_bytes_per_action",
    "uploads_per_action",
    "picture_draw.p50_ms",
    "picture_draw.p99_ms",
    "picture_wait_click.p50_ms",
    "picture_wait_click.p99_ms",
    "picture_wait_background.p99_ms",
    "picture_cache_hit_rate",
    "drawn_on_loop",
    "drawn_in_thread",
    "loop_step_all.max_ms",
    "full_gc_pauses.n",
    "full_gc_pauses.max_ms",
    "full_gc_cpu.max_ms",
    "full_gc_cpu.p50_ms",
    "heap.quiet_collections.n",
    "heap.quiet_collections.max_ms",
    "heap.whole_heap_collections.n",
    "heap.freed_from_cycles_per_action",
    "heap.cycles_per_action.bot",
    "heap.cycles_per_action.harness",
    "heap.walked_per_action.bot_refs",
    "heap.walked_per_action.harness_refs",
    "heap.walked_at_end",
    "heap.whole_heap_collection_at_end_ms",
    "heap.died_frozen_per_action.bot",
    "heap.died_frozen_per_action.harness",
    "heap.quiet_collections.p50_ms",
    "heap.bot_objects_per_live_table",
)


def _get(result: dict[str, Any], path: str) -> Any:
    value: Any = result
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def spread(attempts: list[dict[str, Any]]) -> dict[str, dict[str, float] | None]:
    """Median, min and max over the runs of each headline figure: one run's p99 is an anecdote."""
    out: dict[str, dict[str, float] | None] = {}
    for path in SPREAD:
        values = [v for v in (_get(a, path) for a in attempts if "error" not in a) if v is not None]
        out[path] = (
            {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": len(values)}
            if values
            else None
        )
    return out


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
    runs: int = 1,
    dm_tables: int = 0,
    floor: bool = True,
    cpu_profile: float | None = None,
    rate_limits: bool = False,
    limits_shard: tuple[int, int] | None = None,
    limits_processes: int = 1,
    global_limit: float | None = None,
) -> dict[str, Any]:
    """Each size ``runs`` times; the largest size's runs also measure the floor right after each
    run (same machine, same moment), and a scenario of ``dm_tables`` four-person tables with one
    person on DM gives the bot-token calls per action. ``cpu_profile`` (a sampling interval in
    seconds) samples the event loop's stack during each play phase (bench/cpu.py)."""
    from bench import floor as floor_bench

    if rate_limits:  # over the Discord-like layer: its own figures (bench/e2e_limits.py)
        from bench import e2e_limits

        return e2e_limits.run(
            workdir=workdir, sizes=sizes, burst=burst, step=step, games=games,
            settle_timeout=settle_timeout, progress=progress, runs=runs, dm_tables=dm_tables,
            shard=limits_shard, processes=limits_processes,
        )  # fmt: skip
    out: dict[str, Any] = {}
    plans: list[tuple[str, int, int, int, GameDriver | None]] = [
        (str(n), n, rounds, every, None) for n, rounds, every in sizes
    ]
    if dm_tables:
        plans.append((f"{dm_tables} dm", dm_tables, sizes[0][1], 1, DM_DRIVER))
    largest = max(n for n, _, _ in sizes)
    for label, tables, rounds, click_every, driver in plans:
        attempts: list[dict[str, Any]] = []
        for attempt in range(runs):
            progress(
                f"e2e: {label} tables, run {attempt + 1}/{runs}: {rounds} virtual s,"
                f" people click every {click_every} s, bursts of {burst}"
            )
            try:
                result = asyncio.run(
                    scenario(
                        database=workdir / f"e2e-{label.replace(' ', '-')}-{attempt}.sqlite3",
                        tables=tables,
                        rounds=rounds,
                        click_every=click_every,
                        burst=burst,
                        step=step,
                        games=games,
                        settle_timeout=settle_timeout,
                        progress=progress,
                        clicking=clicking,
                        driver=driver,
                        cpu_profile=cpu_profile,
                        global_limit=global_limit,
                    )
                )
                if floor and driver is None and tables == largest:
                    # As many clicking tables and the same bursts as the run it is compared with.
                    people_tables = min(clicking, tables)
                    progress(f"  floor: minimal bot, {people_tables} tables, bursts of {burst}")
                    base = floor_bench.run(
                        database=workdir / f"floor-{attempt}.sqlite3",
                        tables=people_tables,
                        rounds=max(3, rounds // click_every),
                        burst=burst,
                        step=step,
                    )
                    result["floor_click"] = base["click"]
                    result["floor_gc_thresholds"] = base["gc_thresholds"]
                    ours = result["click_committed"]["p99_ms"]
                    if ours and base["click"]["p99_ms"]:
                        result["committed_p99_over_floor"] = round(ours / base["click"]["p99_ms"], 2)
            except Exception as error:
                import traceback

                result = {"error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc(limit=8)}
            attempts.append(result)
        out[label] = {"runs": attempts, "spread": spread(attempts)}
        if cpu_profile:
            from bench import cpu

            out[label]["cpu_profile"] = cpu.combine([a.get("cpu_profile") for a in attempts])
    return {"scenarios": out}


def tables(result: dict[str, Any]) -> list[Table]:
    if "rate_limits" in result:
        from bench import e2e_limits

        return e2e_limits.tables(result)
    t = Table(
        "End to end: the real bot in SimCord (play phase) — median [min–max] over the runs",
        ["tables", "committed p50", "committed p99", "bot's own p99", "refused p99", "floor p99", "×floor",
         "commit p50", "commit p99", "loop step max", "REST/act", "bot-token/act", "redundant/act"],
    )  # fmt: skip
    notes = []
    for size, scenario_result in result["scenarios"].items():
        s = scenario_result["spread"]
        first = next((r for r in scenario_result["runs"] if "error" not in r), None)
        if first is None:
            t.add(size, "error", scenario_result["runs"][0]["error"][:60], *[""] * 10)
            continue
        t.add(
            size,
            fmt_spread(s["click_committed.p50_ms"]),
            fmt_spread(s["click_committed.p99_ms"]),
            fmt_spread(s["click_committed_bot_only.p99_ms"]),
            fmt_spread(s["click_refused.p99_ms"]),
            fmt_spread(s["floor_click.p99_ms"]),
            fmt_spread(s["committed_p99_over_floor"], 2),
            fmt_spread(s["commit.p50_ms"]),
            fmt_spread(s["commit.p99_ms"]),
            fmt_spread(s["loop_step_bot.max_ms"]),
            fmt_spread(s["rest_per_action"], 2),
            fmt_spread(s["bot_token_calls_per_action"], 2),
            fmt_spread(s["redundant_edits_per_action"], 2),
        )
        kinds = ", ".join(f"{k} {v}" for k, v in first["calls_per_action"].items())
        errors = sum(r.get("bot_errors", 0) for r in scenario_result["runs"])
        notes.append(
            f"{size}: {first['play_virtual_s']:.0f} virtual s, people at {first['clicking_tables']} tables"
            f" ({first['people_on_dm_per_table']} per table on DM),"
            f" each click every {first['click_every_s']} s,"
            f" bursts of {first['burst']}; {first['accepted_actions']} actions in run 1; errors {errors};"
            f" per action (run 1): {kinds}; SimCord's share of click time {first['click_simcord_share']};"
            f" max edits/5s per channel {first['max_edits_per_channel_5s']};"
            f" full GC pauses (run 1) {first['full_gc_pauses']}"
        )
    t.notes.extend(notes)
    art = Table(
        "Card art in the play phase (cogs/table/pictures.py) — median [min–max] over the runs",
        ["tables", "KB uploaded/act", "files/act", "draw p50 ms", "draw p99 ms", "click's wait p50",
         "click's wait p99", "others' wait p99", "cache hit rate", "drawn on loop", "drawn in thread"],
    )  # fmt: skip
    for size, scenario_result in result["scenarios"].items():
        s = scenario_result["spread"]
        if s.get("upload_bytes_per_action") is None:
            continue
        kb = s["upload_bytes_per_action"]
        art.add(
            size,
            fmt_spread({**kb, **{k: kb[k] / 1024 for k in ("median", "min", "max")}}, 1),
            fmt_spread(s["uploads_per_action"], 2),
            fmt_spread(s["picture_draw.p50_ms"], 2),
            fmt_spread(s["picture_draw.p99_ms"], 2),
            fmt_spread(s.get("picture_wait_click.p50_ms"), 1),
            fmt_spread(s.get("picture_wait_click.p99_ms"), 1),
            fmt_spread(s.get("picture_wait_background.p99_ms"), 1),
            fmt_spread(s["picture_cache_hit_rate"], 3),
            fmt_spread(s["drawn_on_loop"], 0),
            fmt_spread(s.get("drawn_in_thread"), 0),
        )
    art.notes.append(
        "KB uploaded/act = bytes of the files in the bot's REST calls (table edits, panel answers and"
        " edits) per committed action; draw = one Sketch.draw in its worker process; hit rate = asks of"
        " the content cache answered without drawing; wait = from asking a worker to having the bytes (the"
        " turn, the pipe, the drawing), for drawings a click waited on (its answer, or foreseen during"
        " its commit) and for the others (table redraws, other seats' panels); drawn on loop = pictures"
        " drawn on the event loop (should be 0); drawn in thread = pictures no worker process could"
        " take, drawn in the bot's own drawing threads (should be 0)"
    )
    t.notes.append(
        "times in ms, from receipt to answered; committed = clicks that committed a change, refused ="
        " the rest (too slow, not your turn, refresh); bot's own = committed minus time inside SimCord;"
        " floor = a minimal discord.py bot answering after one SQLite commit, same harness and bursts;"
        " commit = Store.write incl. waiting its turn; loop step = the longest one callback of the bot"
        " ran on the event loop (nothing else ran meanwhile)"
    )
    from bench import cpu

    return [t, art, collector_table(result), *cpu.tables(result["scenarios"])]


def collector_table(result: dict[str, Any]) -> Table:
    """Issue 35: what the garbage collector walks and how long it stops the loop."""
    t = Table(
        "The garbage collector in the play phase (bench/heap.py) — median [min–max] over the runs",
        ["tables", "full GCs", "full GC max", "full GC CPU max", "quiet GCs", "quiet GC max",
         "whole-heap GCs", "loop step max", "all steps max", "cycles/act bot", "cycles/act harness",
         "walk refs/act bot", "walk refs/act harness", "freed/act", "walked at end", "bot objs/table",
         "whole heap ms", "died frozen/act bot"],
    )  # fmt: skip
    for size, scenario_result in result["scenarios"].items():
        s = scenario_result["spread"]
        if s.get("heap.walked_at_end") is None:
            continue
        t.add(
            size,
            fmt_spread(s["full_gc_pauses.n"], 0),
            fmt_spread(s["full_gc_pauses.max_ms"]),
            fmt_spread(s["full_gc_cpu.max_ms"]),
            fmt_spread(s["heap.quiet_collections.n"], 0),
            fmt_spread(s["heap.quiet_collections.max_ms"]),
            fmt_spread(s["heap.whole_heap_collections.n"], 0),
            fmt_spread(s["loop_step_bot.max_ms"]),
            fmt_spread(s["loop_step_all.max_ms"]),
            fmt_spread(s["heap.cycles_per_action.bot"], 1),
            fmt_spread(s["heap.cycles_per_action.harness"], 1),
            fmt_spread(s["heap.walked_per_action.bot_refs"], 0),
            fmt_spread(s["heap.walked_per_action.harness_refs"], 0),
            fmt_spread(s["heap.freed_from_cycles_per_action"], 0),
            fmt_spread(s["heap.walked_at_end"], 0),
            fmt_spread(s["heap.bot_objects_per_live_table"], 0),
            fmt_spread(s["heap.whole_heap_collection_at_end_ms"], 0),
            fmt_spread(s["heap.died_frozen_per_action.bot"], 1),
        )
    t.notes.append(
        "full GCs = collections of the oldest generation during play, the bot's quiet ones included"
        " (quiet = made by the bot between bursts, cogs/table/heap.py; whole-heap = its rare thaw and"
        " collection of everything frozen); GC times in ms, wall clock, and CPU = the loop thread's own CPU"
        " time for it (the wall time also holds other processes' time slices on a shared machine);"
        " loop step max = the longest step of the"
        " bot's own work, all steps = SimCord's too; cycles/act = objects one more round of clicks left"
        " in reference cycles per action, counted with the collector off, split by who made the cycle"
        " (a group holding any SimCord object is the harness's); walk refs/act = references held by the"
        " objects that round left alive, per action, which the next quiet collection visits once: those"
        " reachable from the bot, and the rest (SimCord's stored messages, log and timer records);"
        " freed/act = objects the collector"
        " freed from cycles during play per action; walked at end = tracked objects not frozen, which"
        " a full collection walks; bot objs/table = objects reachable from the bot (frozen or not,"
        " not through modules, classes or SimCord) per live table, over those before any table; whole heap"
        " = one collection of everything, frozen included, timed at the end of play (what the bot's"
        " rare thaw costs); died frozen/act bot = what it found dead in the bot's cycles per action of"
        " play (only such a collection frees it; the harness's are in the JSON)"
    )
    return t
