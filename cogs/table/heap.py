"""The garbage collector kept out of the tables' way: collected at quiet moments, then frozen.

CPython's cyclic collector has three generations; a full collection walks every tracked object
of the oldest one, so its pause grows with the live heap (every live table, discord.py's caches,
and in the bench SimCord's world). With Python's settings a full collection landed inside a burst
of clicks every few seconds and stopped every table for 200-340 ms at 200 live tables
(bench/README.md part 2, issue 35).

What this does instead (``Collector``):

- After the tables are resumed, and then at quiet moments (no click being handled, no scheduled
  job running: asked at each scheduler tick and when the last click in flight is answered), it
  collects everything that is not frozen and
  freezes (``gc.freeze``) what survived. A later collection walks only what survived since, so
  each pause is short whatever the size of the process; the young generations still free a
  click's own cycles as before.
- Python's own full collections are pushed back (``OLD_COLLECTION``) so that they are the
  backstop, not the rule: should quiet never come (``BUSY_MAX`` seconds), one is made anyway.
- What is frozen is not walked again, and so not freed if it later dies inside a reference
  cycle (refcounting still frees everything else). The bot leaves few such cycles (a sent view is
  taken apart, cogs/table/rendered.py); what it does leave is freed by a whole collection
  (``gc.unfreeze`` and ``gc.collect``). That is a pause as long as the heap is large (hundreds of
  milliseconds at 200 live tables, bench/README.md), so it is made only when nobody would wait
  for it: no table of this process in play (``at_rest``), at a quiet moment, at most once every
  ``THAW_EVERY``. A process that always has a game in play never makes one; what it keeps is
  measured (the bot's "died frozen" per action in bench/README.md, about none) and small.
  Counting the frozen heap to decide would itself be a pause: ``gc.get_freeze_count`` walks the
  whole list.
"""

from __future__ import annotations

import gc
import logging
import time
from collections import deque
from collections.abc import Callable

log = logging.getLogger(__name__)

# The youngest generation's threshold: new container objects (net of those freed) between its
# collections; CPython's default is 700. A click lives about 30 ms and leaves some hundreds of
# objects in reference cycles; at 700 a burst of clicks collected several times while each was in
# flight, so their cycles outlived the young generations (bench/README.md part 2).
YOUNG_COLLECTION = 10_000
# How many collections of the middle generation start one of the oldest (CPython: 10). Raised:
# the quiet collections below do that work, in small steps, between bursts.
OLD_COLLECTION = 50
# At least this many young collections since the last quiet one: before that the survivors are
# too few to be worth a pause.
QUIET_AFTER = 1
# If no quiet moment came for this long (seconds, wall clock) while collections were due, collect
# anyway: a bot that is never quiet must not grow without bound.
BUSY_MAX = 10.0
# At least this many seconds between whole collections, frozen heap included. They free what
# died in reference cycles after it was frozen (measured at about none per action, bench/README.md,
# issue 35), and they stop every table for as long as the heap is large, so they wait for a moment
# with no game in play as well as a quiet one.
THAW_EVERY = 6 * 3600.0


class Collector:
    """Quiet-moment collections for one bot process (only one bot per process owns it)."""

    def __init__(
        self,
        busy: Callable[[], bool],
        at_rest: Callable[[], bool] = lambda: True,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.busy = busy
        # No game in play in this process: a whole collection's pause keeps nobody waiting.
        self.at_rest = at_rest
        self.now = now
        self.enabled = False
        self._young_seen = 0
        self._due_since: float | None = None
        self._thawed_at: float | None = None
        # The latest pauses, in seconds, for the bench and the logs (bounded: a bot runs for weeks).
        self.pauses: deque[float] = deque(maxlen=4096)
        self.thaws: deque[float] = deque(maxlen=64)

    def start(self) -> None:
        """Take over the collector's settings; collect and freeze everything alive now (after
        resume: the tables that will live on)."""
        gc.set_threshold(YOUNG_COLLECTION, gc.get_threshold()[1], OLD_COLLECTION)
        gc.collect()
        gc.freeze()
        self._thawed_at = self.now()
        self._young_seen = _young_collections()
        self._due_since = None
        self.enabled = True

    def stop(self) -> None:
        self.enabled = False

    def tick(self) -> None:
        """Called by the scheduler before it starts the jobs now due: collect if it is time."""
        if not self.enabled:
            return
        young = _young_collections()
        if young - self._young_seen < QUIET_AFTER:
            return
        now = self.now()
        if self._due_since is None:
            self._due_since = now
        if self.busy() and now - self._due_since < BUSY_MAX:
            return
        self._due_since = None
        if (self._thawed_at is None or now - self._thawed_at >= THAW_EVERY) and self.at_rest():
            self._thawed_at = now
            self.thaw()
        else:
            self.collect()
        self._young_seen = _young_collections()  # our own collection counts too

    def collect(self) -> None:
        """Collect what is not frozen and freeze what survived."""
        started = time.perf_counter()
        gc.collect()
        gc.freeze()
        self.pauses.append(time.perf_counter() - started)

    def thaw(self) -> float:
        """Collect the whole heap, frozen part included, and freeze it again: frees what died in
        reference cycles after it was frozen. A pause as long as the heap is large. Returns it."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        took = time.perf_counter() - started
        self.thaws.append(took)
        log.info("collected the whole heap in %.0f ms; %d objects had died in cycles", took * 1e3, found)
        return took


def _young_collections() -> int:
    """Collections of any generation so far: each one may have moved survivors to an older one."""
    return sum(int(g["collections"]) for g in gc.get_stats())
