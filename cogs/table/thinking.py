"""Thinking off the event loop: computer players whose decision can take long (a search).

One event loop serves every table, so a computer that thinks for half a second on it holds up
every click in the bot for that long. A player that says it ``thinks_long`` (Trap's ``hard``)
decides in a process pool instead. The worker gets only what the player may see — the game key,
the level, the player's settings, the seat's view, its legal actions and the seed of its random
generator — never the state, and rebuilds the player itself (players are cached per worker). It
answers with the same (action, reaction time) the player would give on the loop for that seed.

The pool is created on first use (most bots never host a slow computer), sized to leave one core
to the event loop, and shut down by ``Thinker.shutdown`` (the referee's shutdown) or, for a pool
nobody shut down (a test's bot that is never closed), at interpreter exit.

Nothing here imports discord: the workers import this module and ``rules`` only.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import logging
import multiprocessing
import os
import random
import weakref
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from rules import get_game
from rules.base import ComputerPlayer

log = logging.getLogger(__name__)

# A decision that takes longer than this (real seconds) is given up and a legal action picked by
# the same seeded generator instead, so a stuck worker never stalls a table. Trap's hard level
# stops its own search by a node budget well inside it (p99 about 0.75 s on a busy 2-core machine).
THINK_BUDGET_SECONDS = 10.0

Decision = tuple[str | None, float]
PlayerKey = tuple[str, str, tuple[tuple[str, Any], ...]]

# In a worker process: the players it has built, per (game, level, settings).
_players: dict[PlayerKey, ComputerPlayer[Any]] = {}


def thinks_long(player: ComputerPlayer[Any]) -> bool:
    """Whether this player's decision can take long enough to hold up other tables."""
    return bool(getattr(player, "thinks_long", False))


def pool_size() -> int:
    """Worker processes: one core is left to the event loop, at least one worker."""
    return max(1, (os.cpu_count() or 2) - 1)


def decide(
    game_key: str, level: str, settings: dict[str, Any], view: Any, legal: list[str], seed: str
) -> Decision:
    """What the player does from this view, and after how many seconds: exactly the calls the
    referee makes on the loop for a quick player, with the generator seeded the same way."""
    key: PlayerKey = (game_key, level, tuple(sorted(settings.items())))
    player = _players.get(key)
    if player is None:
        player = _players[key] = get_game(game_key).computer_player(level, **settings)
    rng = random.Random(seed)
    choice = player.choose(view, legal, rng) if legal else None
    delay = player.reaction_time(view, choice, rng) if choice is not None else 0.0
    return choice, delay


def fallback(legal: list[str], seed: str) -> Decision:
    """A decision that ran out of time: a legal action from the same seed, played at once."""
    return (random.Random(seed).choice(legal) if legal else None), 0.0


class Thinker:
    """The process pool the referee sends slow decisions to."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or pool_size()
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Future[ProcessPoolExecutor] | None = None
        self.closed = False

    @property
    def started(self) -> bool:
        return self._pool is not None

    async def _executor(self) -> ProcessPoolExecutor:
        if self.closed:
            raise RuntimeError("the thinker is shut down")
        if self._pool is None:
            if self._starting is None:
                # Starting processes takes tens of milliseconds: do it in a thread, not on the
                # loop. In an empty context, so nothing of the caller's (a test harness's
                # virtual clock, say) is seen by multiprocessing while it starts them.
                loop = asyncio.get_running_loop()
                self._starting = loop.run_in_executor(
                    None, contextvars.Context().run, _started_pool, self.workers
                )
            pool = await asyncio.shield(self._starting)
            if self._pool is None and not self.closed:
                self._pool = pool
                _open_pools.add(pool)
            elif self._pool is not pool:
                pool.shutdown(wait=False, cancel_futures=True)
            self._starting = None
            if self._pool is None:
                raise RuntimeError("the thinker is shut down")
        return self._pool

    async def decide(
        self,
        game_key: str,
        level: str,
        settings: dict[str, Any],
        view: Any,
        legal: list[str],
        seed: str,
        *,
        budget: float = THINK_BUDGET_SECONDS,
    ) -> Decision:
        """``decide`` in a worker. Cancelling the caller cancels the job if it has not started; a
        job already running finishes in its worker and its answer is dropped."""
        loop = asyncio.get_running_loop()
        job = loop.run_in_executor(
            await self._executor(), decide, game_key, level, settings, view, legal, seed
        )
        try:
            return await asyncio.wait_for(job, budget)
        except TimeoutError:
            log.warning(
                "%s %s took over %.0f s to decide; playing a legal move instead", game_key, level, budget
            )
            return fallback(legal, seed)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next decision gets a fresh pool.
            log.exception("a thinking worker died; playing a legal move instead")
            self._drop_pool()
            return fallback(legal, seed)

    def _drop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            _open_pools.discard(pool)
            pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the workers; decisions not yet started are cancelled. Safe to call twice."""
        self.closed = True
        self._drop_pool()


def _ready() -> None:
    """A no-op job: sent once per worker at start, so every worker exists before the first
    decision (a pool never starts a process later, from wherever a decision is asked)."""


def _started_pool(workers: int) -> ProcessPoolExecutor:
    # forkserver, not fork: the bot process runs database threads, and forking a process with
    # threads can copy a lock that is held and never released in the child.
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("forkserver"))
    for job in [pool.submit(_ready) for _ in range(workers)]:
        job.result()
    return pool


_open_pools: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()


@atexit.register
def _shutdown_open_pools() -> None:
    # A bot that was never closed (a test, a crash in start-up) must not leave workers behind.
    for pool in list(_open_pools):
        pool.shutdown(wait=False, cancel_futures=True)
