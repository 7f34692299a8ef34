"""A content cache for pictures: keyed by what an image shows, drawn off the event loop, once.

The key is the content (e.g. ``("zipzap-hand", ("R4", "G9"), ("R4",))``), never a table id or a
version: two tables showing the same cards share one drawing, and a redraw of an unchanged hand
costs nothing. Draw functions are pure (same inputs, same bytes), which is what makes this safe.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor

DEFAULT_BUDGET = 16 * 1024 * 1024  # bytes of images kept: a few hundred hands of about 10-40 KB
# Pictures are drawn in two threads of their own. Pillow holds the GIL for most of a drawing, so
# asyncio.to_thread's six threads on two cores starved the database's thread (commit p99 1.4 s in
# bench part 2); one thread queued the pictures of a burst of clicks behind each other (click p99
# 158-395 ms across runs); two kept click p99 where six had it, with commit p99 0.8 s.
_DRAWER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pictures")


class PictureCache:
    """Bytes by content key, least recently used evicted beyond ``budget`` bytes.

    ``get`` returns cached bytes, or runs ``draw`` in the pictures' own threads (``_DRAWER``) so the
    event loop never waits on Pillow; concurrent asks for one key share one drawing. A drawing that
    raises is not cached, and every waiter gets the error (the next ask draws again).
    """

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.size = 0
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    @property
    def hit_rate(self) -> float:
        asked = self.hits + self.misses
        return self.hits / asked if asked else 0.0

    async def get(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        cached = self._items.get(key)
        if cached is not None:
            self.hits += 1
            self._items.move_to_end(key)
            return cached
        pending = self._drawing.get(key)
        if pending is not None:
            # Someone is drawing this already: wait for their bytes (a hit, no second drawing).
            self.hits += 1
            return await asyncio.shield(pending)
        self.misses += 1
        # The drawing is its own task, shielded from its askers: one asker giving up (a cancelled
        # interaction) neither cancels it for the others nor leaves a half-made entry.
        task = asyncio.ensure_future(asyncio.get_running_loop().run_in_executor(_DRAWER, draw))
        self._drawing[key] = task
        task.add_done_callback(lambda done: self._finish(key, done))
        return await asyncio.shield(task)

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
        self._drawing.pop(key, None)
        if done.cancelled() or done.exception() is not None:
            return  # not cached: the next ask draws again (the askers got the error)
        self._store(key, done.result())

    def _store(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.budget:
            return  # bigger than the whole cache: hand it out, keep nothing
        self._items[key] = data
        self.size += len(data)
        while self.size > self.budget:
            _, old = self._items.popitem(last=False)
            self.size -= len(old)

    def clear(self) -> None:
        self._items.clear()
        self.size = 0
