"""Pictures a game sketches and the table draws: off the event loop, once per distinct content.

A game says what a picture shows (``Sketch``: a key naming its content, a pure function that
draws it, its file name and its alt text); it never draws on its own. ``Pictures`` holds the one
content cache (cogs/drawings/cache.py) every table shares: ``ready`` draws what is missing in
worker threads before a message is drawn, and ``pictures`` then hands out the bytes. Two tables
showing the same hand, or a redraw of a panel whose hand did not change, draw nothing.

The cache key is what the image shows, never a table or a version: that is what makes the twin-
state secrecy audit meaningful (same content, same bytes) and a redraw free.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from cogs.drawings.cache import PictureCache
from cogs.table.layout import Picture

log = logging.getLogger(__name__)
DRAW_TIMES_KEPT = 100_000


@dataclass(frozen=True)
class Sketch:
    """A picture still to be drawn. ``key`` names everything it shows (two sketches with one key
    draw identical bytes); ``draw`` is pure and slow (Pillow), so it runs in a worker thread;
    ``alt`` says in words what it shows, to everyone who may see it."""

    filename: str
    key: Hashable
    draw: Callable[[], bytes]
    alt: str
    small: bool = False


class Pictures:
    """The content cache of every picture the bot shows, and its counts for the bench."""

    def __init__(self, cache: PictureCache | None = None) -> None:
        self.cache = cache or PictureCache()
        # Pictures drawn on the event loop because they were asked for unprepared (a drawing made
        # outside the referee's paths, a test's): the bench reports it, and it should stay 0.
        self.drawn_on_loop = 0
        self.bytes_drawn = 0
        # Seconds each drawing took in its worker thread, the latest ones only (the bench's
        # drawing p50/p99; bounded so a long-running bot keeps no growing list).
        self.draw_seconds: deque[float] = deque(maxlen=DRAW_TIMES_KEPT)

    async def ready(self, sketches: Sequence[Sketch]) -> None:
        """Draw, off the event loop, what of ``sketches`` is not in the cache yet."""
        missing = [s for s in sketches if s.key not in self.cache]
        await asyncio.gather(*(self.cache.get(s.key, self._timed(s.draw)) for s in sketches))
        self.bytes_drawn += sum(len(self.cache.peek(s.key) or b"") for s in missing)

    def _timed(self, draw: Callable[[], bytes]) -> Callable[[], bytes]:
        def timed() -> bytes:
            started = time.perf_counter()
            try:
                return draw()
            finally:
                # deque.append is atomic: safe from the worker threads the cache draws in.
                self.draw_seconds.append(time.perf_counter() - started)

        return timed

    def pictures(self, sketches: Sequence[Sketch]) -> list[Picture]:
        """The sketches as pictures, from the cache (``ready`` first). One that is not there is
        drawn here, on the loop, and counted: correct, only slower."""
        found = []
        for sketch in sketches:
            data = self.cache.peek(sketch.key)
            if data is None:
                self.drawn_on_loop += 1
                data = sketch.draw()
                self.cache.put(sketch.key, data)
            found.append(Picture(sketch.filename, data, sketch.alt, small=sketch.small))
        return found
