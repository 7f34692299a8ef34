"""A content cache for pictures: keyed by what an image shows, drawn off the event loop, once.

The key is the content (e.g. ``("zipzap-hand", ("R4", "G9"), ("R4",))``), never a table id or a
version: two tables showing the same cards share one drawing, and a redraw of an unchanged hand
costs nothing. Draw functions are pure (same inputs, same bytes), which is what makes this safe.

Who draws is the cache's ``drawer``: by default the pictures' own threads (``_DRAWER``); the bot's
pictures (cogs/table/pictures.py) are drawn in worker processes, with these threads as the fallback.
This module is also what those workers run (``drawn_sent``), so it imports nothing of Discord.
"""

from __future__ import annotations

import asyncio
import pickle
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor

DEFAULT_BUDGET = 16 * 1024 * 1024  # bytes of images kept: a few hundred hands of about 10-40 KB
# Pillow holds the GIL for most of a drawing, so pictures drawn in the bot's own process starve
# the event loop and the database's thread: the bot draws in worker processes (pictures.py), and
# these threads are where a picture is drawn when no worker can take it. Two, as measured when
# they were the only drawers: asyncio.to_thread's six threads on two cores starved the database's
# thread (commit p99 1.4 s in bench part 2); one queued the pictures of a burst of clicks behind
# each other (click p99 158-395 ms across runs); two kept click p99 where six had it.
_DRAWER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pictures")

Draw = Callable[[], bytes]
Drawer = Callable[[Draw], Awaitable[bytes]]


class NotSent(Exception):
    """A draw function that could not be unpickled in a worker process (draw it at home)."""


def drawn(draw: Draw) -> tuple[bytes, float]:
    """The picture, and the seconds its drawing took, timed where it is drawn: a worker's
    process or thread (a closure doing the timing could not be sent to a process)."""
    started = time.perf_counter()
    data = draw()
    return data, time.perf_counter() - started


def drawn_sent(sent: bytes) -> tuple[bytes, float]:
    """In a worker process: ``drawn`` for a draw function pickled by the bot. One that does not
    unpickle here raises ``NotSent``, which the bot tells from an error of the drawing itself."""
    try:
        draw = pickle.loads(sent)
    except Exception as error:
        raise NotSent(repr(error)) from None
    return drawn(draw)


async def drawn_in_thread(draw: Draw) -> tuple[bytes, float]:
    """``drawn`` in the pictures' own threads."""
    return await asyncio.get_running_loop().run_in_executor(_DRAWER, drawn, draw)


async def in_thread(draw: Draw) -> bytes:
    """The default drawer: the pictures' own threads."""
    data, _seconds = await drawn_in_thread(draw)
    return data


class PictureCache:
    """Bytes by content key, least recently used evicted beyond ``budget`` bytes.

    ``get`` returns cached bytes, or has ``drawer`` draw them off the event loop (by default in the
    pictures' own threads), so the loop never waits on Pillow; concurrent asks for one key share
    one drawing. A drawing that raises is not cached, and every waiter gets the error (the next
    ask draws again).
    """

    def __init__(self, budget: int = DEFAULT_BUDGET, drawer: Drawer = in_thread) -> None:
        self.budget = budget
        self.drawer = drawer
        self.size = 0
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}
        # Drawn (or being drawn) ahead of any ask (``foresee``), not asked for yet: their first
        # ask is the miss their drawing already counted, not a hit. Left when evicted.
        self._foreseen: set[Hashable] = set()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    @property
    def hit_rate(self) -> float:
        asked = self.hits + self.misses
        return self.hits / asked if asked else 0.0

    def take(self, key: Hashable, *, counted: bool = True) -> bytes | None:
        """The cached bytes, counted as a hit (unless not ``counted``: the same asker asking
        again) and kept as recently used; None if not cached (then ``get`` draws them). For
        callers that may skip awaiting anything on a hit."""
        cached = self._items.get(key)
        if cached is not None:
            if counted:
                self._asked(key)
            self._items.move_to_end(key)
        return cached

    def _asked(self, key: Hashable) -> None:
        # A hit is an ask served by a drawing made for some earlier ask; the first ask of a
        # foreseen picture is the one its drawing was made for (counted as a miss then).
        if key in self._foreseen:
            self._foreseen.discard(key)
        else:
            self.hits += 1

    async def get(self, key: Hashable, draw: Draw) -> bytes:
        cached = self.take(key)
        if cached is not None:
            return cached
        pending = self._drawing.get(key)
        if pending is not None:
            # Someone is drawing this already: wait for their bytes (no second drawing).
            self._asked(key)
            if pending.done():
                # Done, but its callback has not stored it yet (awaiting a done task does not
                # yield): store it now, since the caller may next take it without awaiting.
                self._finish(key, pending)
                return pending.result()
            return await asyncio.shield(pending)
        return await asyncio.shield(self._start(key, draw))

    def foresee(self, key: Hashable, draw: Draw) -> None:
        """Start drawing a picture before anyone asks for it (what a change about to be committed
        will show), so that the ask finds it drawn or under way; nothing if it is either already.
        Its drawing counts as the miss of its first ask."""
        if key in self._items or key in self._drawing:
            return
        self._start(key, draw)
        self._foreseen.add(key)

    def _start(self, key: Hashable, draw: Draw) -> asyncio.Future[bytes]:
        self.misses += 1
        # The drawing is its own task, shielded from its askers: one asker giving up (a cancelled
        # interaction) neither cancels it for the others nor leaves a half-made entry.
        task = asyncio.ensure_future(self.drawer(draw))
        self._drawing[key] = task
        task.add_done_callback(lambda done: self._finish(key, done))
        return task

    def peek(self, key: Hashable) -> bytes | None:
        """The cached bytes, or None; never draws (for code that may not await). Not counted: the
        ask that made them ready (``get``) was."""
        return self._items.get(key)

    def put(self, key: Hashable, data: bytes) -> None:
        """Keep bytes drawn elsewhere (counted as a miss: someone had to draw them)."""
        self.misses += 1
        if key not in self._items:
            self._store(key, data)

    def _finish(self, key: Hashable, done: asyncio.Future[bytes]) -> None:
        if self._drawing.get(key) is not done:
            return  # finished already, by an ask that found it done before this callback ran
        del self._drawing[key]
        if done.cancelled() or done.exception() is not None:
            self._foreseen.discard(key)
            return  # not cached: the next ask draws again (the askers got the error)
        self._store(key, done.result())

    def _store(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.budget:
            self._foreseen.discard(key)
            return  # bigger than the whole cache: hand it out, keep nothing
        self._items[key] = data
        self.size += len(data)
        while self.size > self.budget:
            gone, old = self._items.popitem(last=False)
            self.size -= len(old)
            self._foreseen.discard(gone)

    def clear(self) -> None:
        self._items.clear()
        self._foreseen.clear()
        self.size = 0
