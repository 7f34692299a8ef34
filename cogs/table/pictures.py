"""Pictures a game sketches and the table draws: off the event loop, once per distinct content.

A game says what a picture shows (``Sketch``: a key naming its content, a pure function that
draws it, its file name and its alt text); it never draws on its own. ``Pictures`` holds the one
content cache (cogs/drawings/cache.py) every table shares: ``ready`` draws what is missing in
worker processes before a message is drawn, and ``pictures`` then hands out the bytes. Two tables
showing the same hand, or a redraw of a panel whose hand did not change, draw nothing.

The cache key is what the image shows, never a table or a version: that is what makes the twin-
state secrecy audit meaningful (same content, same bytes) and a redraw free.

**Where pictures are drawn.** Pillow holds the GIL for most of a drawing, so drawing threads in
the bot's process starved the event loop and the database's thread (bench part 2: committed-click
p99 1.98x the floor, commit p99 0.83 s). Pictures are drawn in worker processes instead, in the
healing pool of cogs/table/workers.py (the computers' thinking uses the same): a ``Sketch.draw``
is pickled (a ``functools.partial`` of a module-level function in cogs/drawings/), drawn and timed
in a worker, and the bytes come back with the seconds it took. A picture is never lost and a table
never stalls on one: if no worker can take it (the pool cannot start or is backing off, a worker
died with it twice, it does not pickle, or it takes over ``DRAW_BUDGET_SECONDS``), it is drawn
in the pictures' own threads instead (cogs/drawings/cache.py, as before the workers), and logged.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import pickle
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Hashable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from cogs.drawings.cache import Draw, NotSent, PictureCache, drawn_in_thread, drawn_sent
from cogs.table.layout import Picture
from cogs.table.workers import PoolClosed, PoolUnavailable, WorkerPool

log = logging.getLogger(__name__)
DRAW_TIMES_KEPT = 100_000
# A picture not back from its worker within this long (real seconds, waiting for a free worker
# included) is drawn in a thread instead, so a stuck worker never holds a table up for longer: a
# drawing takes 10-80 ms, and a burst of 200 tables' clicks queues a few seconds of them at most.
DRAW_BUDGET_SECONDS = 10.0
# The pictures whose drawing raised, remembered so that each is logged once and the message goes
# out without it (bounded: a long-running bot keeps no growing set; one forgotten is logged again).
FAILED_KEPT = 1_000
# What every picture worker imports as it starts (Pillow and the card art), so that the first
# drawing of each game does not pay for it.
ART_MODULES = (
    "cogs.drawings.zipzap_cards",
    "cogs.drawings.zaptrap_cards",
    "cogs.drawings.spytrap_cards",
    "cogs.drawings.gifttrap_cards",
    "cogs.drawings.trap_board",
)
# Whether the drawings asked for now hold up a person's click (its answer waits for them). Set by
# ``ready(for_click=True)`` and ``foresee`` around the drawing tasks they start, which inherit it;
# read where a drawing waits for its turn at the workers.
_FOR_A_CLICK: ContextVar[bool] = ContextVar("for_a_click", default=False)


class Turns:
    """Which drawing goes to the worker processes next. At most ``size`` are with them at once
    (one for each worker and one queued behind, so a worker never idles on the pipe); the rest
    wait here, those a click waits for before the others (a table's redraw, another seat's panel
    refresh, which nobody is waiting on), each kind in the order asked. Without it, one worker's
    first-come queue held a click's picture behind a burst of background drawings: measured at
    200 tables, a picture waited 30 ms at p50 for a drawing of 4-5 ms."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.busy = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @asynccontextmanager
    async def turn(self, for_click: bool) -> AsyncIterator[None]:
        if self.busy < self.size:
            self.busy += 1
        else:
            handed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (0 if for_click else 1, next(self._order), handed))
            try:
                await handed
            except asyncio.CancelledError:
                if handed.done() and not handed.cancelled():
                    self._pass_on()  # handed a turn just as it was cancelled: the next one takes it
                else:
                    handed.cancel()  # skipped when its turn comes
                raise
        try:
            yield
        finally:
            self._pass_on()

    def _pass_on(self) -> None:
        while self._waiting:
            _, _, handed = heapq.heappop(self._waiting)
            if not handed.done():
                handed.set_result(None)  # the turn moves to it: as many busy as before
                return
        self.busy -= 1

    @property
    def waiting(self) -> int:
        return sum(1 for _, _, handed in self._waiting if not handed.done())


@dataclass(frozen=True)
class Sketch:
    """A picture still to be drawn. ``key`` names everything it shows (two sketches with one key
    draw identical bytes); ``draw`` is pure and slow (Pillow), so it runs in a worker process,
    which it is pickled to: a ``functools.partial`` of a module-level function of cogs/drawings/
    (a lambda or a closure does not pickle, and is drawn in a thread instead); ``alt`` says in
    words what it shows, to everyone who may see it."""

    filename: str
    key: Hashable
    draw: Draw
    alt: str
    small: bool = False


class Pictures:
    """The content cache of every picture the bot shows, the worker processes that draw them, and
    their counts for the bench."""

    def __init__(self, workers: int | None = None) -> None:
        self.pool = WorkerPool("pictures", workers, preload=ART_MODULES)
        self.turns = Turns(self.pool.workers + 1)
        self.cache = PictureCache(drawer=self._draw)
        # Pictures drawn on the event loop because they were asked for unprepared (a drawing made
        # outside the referee's paths, a test's): the bench reports it, and it should stay 0.
        self.drawn_on_loop = 0
        # Pictures no worker process could take, drawn in the pictures' threads instead.
        self.drawn_in_thread = 0
        self._in_threads = False  # the last picture was drawn in a thread: said once, not each time
        self.bytes_drawn = 0
        # Seconds each drawing took where it was drawn, the latest ones only (the bench's drawing
        # p50/p99; bounded so a long-running bot keeps no growing list).
        self.draw_seconds: deque[float] = deque(maxlen=DRAW_TIMES_KEPT)
        # Seconds from asking a worker to having the bytes (its turn, the pipe and the drawing),
        # for drawings a click waited on and for the others: the bench's picture waits.
        self.click_waits: deque[float] = deque(maxlen=DRAW_TIMES_KEPT)
        self.background_waits: deque[float] = deque(maxlen=DRAW_TIMES_KEPT)
        # A picture whose drawing raised (a Pillow error, a font that fails): its key, with why.
        # The message is sent without it, its alt text in words instead (``unavailable``), so a
        # table never stops on a picture; every later ``ready`` of it tries once more.
        self.failed: OrderedDict[Hashable, str] = OrderedDict()
        self._failing: set[str] = set()  # the file names whose last drawing failed (logged once)

    async def ready(
        self, sketches: Sequence[Sketch], *, for_click: bool = False, counted: bool = True
    ) -> None:
        """Draw, off the event loop, what of ``sketches`` is not in the cache yet; ``for_click``:
        a person's click waits for them, so they go to the workers first. Not ``counted``: the
        same redraw asking again under the table's lock (they were asked for, and counted, just
        before it), so the bench's hit rate counts each redraw's asks once."""
        # Most asks are hits (a redraw of an unchanged hand): those make no task to gather. Each
        # task a click makes costs the event loop (and SimCord's settling, in the bench, scans
        # every live task each time one finishes).
        missing = [s for s in sketches if self.cache.take(s.key, counted=counted) is None]
        if not missing:
            return
        token = _FOR_A_CLICK.set(for_click)
        try:
            if len(missing) == 1:
                await self._get(missing[0])
            else:
                await asyncio.gather(*(self._get(s) for s in missing))
        finally:
            _FOR_A_CLICK.reset(token)
        self.bytes_drawn += sum(len(self.cache.peek(s.key) or b"") for s in missing)

    async def _get(self, sketch: Sketch) -> None:
        try:
            await self.cache.get(sketch.key, sketch.draw)
        except Exception as error:  # the drawing itself raised, in a worker and in a thread
            self._failed(sketch, error)
        else:
            self.failed.pop(sketch.key, None)
            if sketch.filename in self._failing:
                self._failing.discard(sketch.filename)
                log.info("pictures %s are drawn again", sketch.filename)

    def _failed(self, sketch: Sketch, error: BaseException) -> None:
        if sketch.filename not in self._failing:
            # Once while that kind of picture keeps failing (a broken font fails every board):
            # a table redrawn every second would otherwise log the same trace each time.
            self._failing.add(sketch.filename)
            log.error("picture %s could not be drawn; sent without it", sketch.filename, exc_info=error)
        self.failed[sketch.key] = repr(error)
        self.failed.move_to_end(sketch.key)
        while len(self.failed) > FAILED_KEPT:
            self.failed.popitem(last=False)

    def unavailable(self, sketches: Sequence[Sketch]) -> list[str]:
        """The alt texts of the sketches whose drawing failed: what the message says in words
        where their pictures would be."""
        return [s.alt for s in sketches if s.key in self.failed and self.cache.peek(s.key) is None]

    def foresee(self, sketches: Sequence[Sketch]) -> None:
        """Start drawing what of ``sketches`` is not drawn or under way, without waiting: the
        pictures of a change still being committed, so that the drawing overlaps the commit and
        the ``ready`` after it finds them made (or under way) instead of starting them then."""
        token = _FOR_A_CLICK.set(True)  # a click's answer will wait for them
        try:
            for sketch in sketches:
                self.cache.foresee(sketch.key, sketch.draw)
        finally:
            _FOR_A_CLICK.reset(token)

    async def _draw(self, draw: Draw) -> bytes:
        """The cache's drawer: in a worker process, or in a thread if no worker can take it."""
        asked = time.perf_counter()
        data, seconds = await self._drawn(draw)
        self.draw_seconds.append(seconds)
        waits = self.click_waits if _FOR_A_CLICK.get() else self.background_waits
        waits.append(time.perf_counter() - asked)
        return data

    async def _drawn(self, draw: Draw) -> tuple[bytes, float]:
        try:
            # Pickled here, not by the pool's feeder thread, so that a draw function that cannot
            # be sent is told apart from one that raises (microseconds: a few card names).
            sent = pickle.dumps(draw)
        except Exception as error:
            why = f"it cannot be sent to a worker process ({error!r})"  # text: for the log
        else:
            try:
                # The budget starts with its turn: waiting behind others is not a stuck worker.
                async with self.turns.turn(_FOR_A_CLICK.get()), asyncio.timeout(DRAW_BUDGET_SECONDS):
                    found = await self.pool.run(drawn_sent, sent)
                if self._in_threads:
                    log.warning("pictures are drawn in worker processes again")
                    self._in_threads = False
                return found
            except TimeoutError:
                why = f"no worker drew it within {DRAW_BUDGET_SECONDS:.0f} s"  # text: for the log
            except (PoolUnavailable, PoolClosed, NotSent) as error:
                why = str(error)
            except asyncio.CancelledError:
                # The pool's shutdown cancels the jobs it had not started; a cancel of the asker's
                # own (its task is cancelling) goes on up.
                task = asyncio.current_task()
                if task is None or task.cancelling():
                    raise
                why = "the pool was shut down before it drew it"  # text: for the log
        # Said once while it lasts (a pool backing off would otherwise log every picture).
        if not self._in_threads:
            log.warning("pictures are drawn in threads instead of worker processes: %s", why)
        self._in_threads = True
        self.drawn_in_thread += 1
        return await drawn_in_thread(draw)

    def shutdown(self) -> None:
        """Stop the worker processes (the referee is stopping); later pictures are drawn in
        threads."""
        self.pool.shutdown()

    def pictures(self, sketches: Sequence[Sketch]) -> list[Picture]:
        """The sketches as pictures, from the cache (``ready`` first). One that is not there is
        drawn here, on the loop, and counted: correct, only slower."""
        found = []
        for sketch in sketches:
            data = self.cache.peek(sketch.key)
            if data is None:
                if sketch.key in self.failed:
                    continue  # its drawing raised: the message goes without it (``unavailable``)
                self.drawn_on_loop += 1
                try:
                    data = sketch.draw()
                except Exception as error:
                    self._failed(sketch, error)
                    continue
                self.cache.put(sketch.key, data)
            found.append(Picture(sketch.filename, data, sketch.alt, small=sketch.small))
        return found
