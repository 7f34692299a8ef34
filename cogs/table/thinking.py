"""Thinking off the event loop: computer players whose decision can take long (a search).

One event loop serves every table, so a computer that thinks for half a second on it holds up
every click in the bot for that long. A player that says it ``thinks_long`` (Trap's ``hard``)
decides in a process pool instead. The worker gets only what the player may see — the game key,
the level, the player's settings, the seat's view, its legal actions and the seed of its random
generator — never the state, and rebuilds the player itself (players are cached per worker). It
answers with the same (action, reaction time) the player would give on the loop for that seed.

The pool is created on first use (most bots never host a slow computer), sized to leave one core
to the event loop, and shut down by ``Thinker.shutdown`` (the referee's shutdown) or, for a pool
nobody shut down (a test's bot that is never closed), at interpreter exit. It heals: a pool whose
worker died is replaced on the next decision, one that failed to start is tried again after a
backoff (1 s doubling to a minute), and a decision that cannot be thought out in time plays
``fallback``'s legal move. Workers leave Ctrl-C to the bot, and exit on their own if the bot is
killed (``_worker_started``).

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
import signal
import threading
import time
import weakref
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait
from typing import Any

from rules import get_game
from rules.base import ComputerPlayer

log = logging.getLogger(__name__)

# A decision that takes longer than this (real seconds) is given up and a legal action picked by
# the same seeded generator instead, so a stuck worker never stalls a table. Trap's hard level
# stops its own search by a node budget well inside it (p99 about 0.75 s on a busy 2-core machine).
THINK_BUDGET_SECONDS = 10.0
# After a failed start (out of processes, out of memory), the next start waits this long (real
# seconds), doubling to the cap while starts keep failing: a host in trouble is not asked for
# fresh processes at every decision of every table. Decisions meanwhile play ``fallback``.
START_RETRY_SECONDS = 1.0
START_RETRY_CAP_SECONDS = 60.0
_clock = time.monotonic  # the backoff's clock (a test moves its own)

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


class ThinkerClosed(RuntimeError):
    """A decision asked of a thinker that was shut down (the referee is stopping)."""


class PoolUnavailable(Exception):
    """No worker can take this decision: the pool failed to start, or broke again in it."""


class Thinker:
    """The process pool the referee sends slow decisions to.

    The pool heals: a pool that failed to start, or whose worker died (killed, out of memory),
    is replaced on the next decision, so one bad moment never silences the computers for the
    rest of the process. The decision in hand still ends within its budget, with a legal move."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or pool_size()
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Future[ProcessPoolExecutor] | None = None
        self.closed = False
        # After failed starts: when the next start may be tried (``_clock``), and the wait
        # after the next failure.
        self._retry_at = 0.0
        self._retry_wait = START_RETRY_SECONDS

    @property
    def started(self) -> bool:
        return self._pool is not None

    async def _executor(self) -> ProcessPoolExecutor:
        """The pool, started if there is none. Raises ``PoolUnavailable`` if it cannot start."""
        while self._pool is None:
            if self.closed:
                raise ThinkerClosed("the thinker is shut down")
            starting = self._starting
            if starting is None and (wait := self._retry_at - _clock()) > 0:
                raise PoolUnavailable(f"the thinking pool failed to start; it is tried again in {wait:.0f} s")
            if starting is None:
                # Starting processes takes tens of milliseconds: do it in a thread, not on the
                # loop. In an empty context, so nothing of the caller's (a test harness's
                # virtual clock, say) is seen by multiprocessing while it starts them.
                loop = asyncio.get_running_loop()
                try:
                    starting = loop.run_in_executor(
                        None, contextvars.Context().run, _started_pool, self.workers
                    )
                except RuntimeError as error:  # no thread to start it in
                    raise PoolUnavailable(f"the thinking pool could not start ({error})") from error
                self._starting = starting
                # Settles the start even if every decision waiting for it gave up meanwhile.
                starting.add_done_callback(self._started)
            try:
                await asyncio.shield(starting)
            except Exception as error:
                raise PoolUnavailable(f"the thinking pool could not start ({error!r})") from error
            # Adopted now, unless the thinker was shut down meanwhile (the loop says so) or the
            # new pool already broke in another decision's hands (the loop starts another).
            self._started(starting)
        return self._pool

    def _started(self, starting: asyncio.Future[ProcessPoolExecutor]) -> None:
        """A start has ended: adopt its pool, or forget a failed start so that the next decision
        tries again (a failed start kept here would fail every decision after it)."""
        if self._starting is not starting:
            return  # already settled
        self._starting = None
        if starting.cancelled():
            return
        error = starting.exception()
        if error is not None:
            wait = self._retry_wait
            self._retry_at = _clock() + wait
            self._retry_wait = min(wait * 2, START_RETRY_CAP_SECONDS)
            log.warning(
                "the thinking pool could not start; it is tried again in %.0f s", wait, exc_info=error
            )
            return
        self._retry_wait = START_RETRY_SECONDS
        pool = starting.result()
        if self.closed or self._pool is not None:
            _stop(pool)
            return
        self._pool = pool
        _open_pools.add(pool)

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
        """``decide`` in a worker, within ``budget`` seconds all told (starting a pool included).

        A worker that dies with the decision in hand (or a pool found broken) is replaced, and
        the decision is thought again once in the fresh pool. If that cannot be done in time (the
        pool cannot start, breaks again, or the budget runs out), ``fallback`` plays a legal move.
        Cancelling the caller cancels the job if it has not started; a job already running
        finishes in its worker and its answer is dropped."""
        try:
            async with asyncio.timeout(budget):
                return await self._think(game_key, level, settings, view, legal, seed)
        except TimeoutError:
            log.warning(
                "%s %s took over %.0f s to decide; playing a legal move instead", game_key, level, budget
            )
        except PoolUnavailable as error:
            log.warning("%s %s: %s; playing a legal move instead", game_key, level, error)
        return fallback(legal, seed)

    async def _think(
        self, game_key: str, level: str, settings: dict[str, Any], view: Any, legal: list[str], seed: str
    ) -> Decision:
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            pool = await self._executor()
            try:
                # The submit itself raises if the pool already knows a worker died (an idle one).
                return await loop.run_in_executor(pool, decide, game_key, level, settings, view, legal, seed)
            except BrokenProcessPool as error:
                self._discard(pool)
                if attempt == 0:
                    log.warning("a thinking worker died (%s); thinking again in a fresh pool", error)
        raise PoolUnavailable("the fresh thinking pool broke too")

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Stop a broken pool. Only that one: several decisions see the same pool break, and
        the first of them may already have started its replacement."""
        if self._pool is pool:
            self._pool = None
        _stop(pool)

    def shutdown(self) -> None:
        """Stop the workers; decisions not yet started are cancelled. Safe to call twice. A pool
        still starting is stopped as soon as it has started."""
        self.closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop(pool)


def _ready() -> None:
    """A no-op job: sent once per worker at start, so every worker exists before the first
    decision (a pool never starts a process later, from wherever a decision is asked)."""


def _worker_started() -> None:
    """Each worker's initializer: the bot starts and stops its workers, nothing else does.

    Ctrl-C in a terminal sends SIGINT to the whole foreground process group, workers included.
    The bot handles it by shutting down, and shuts the pool down itself (a worker finishes the
    decision in hand, then exits); a worker that took the signal itself would die mid-job with
    a ``KeyboardInterrupt`` traceback on the terminal. (SIGTERM is left alone: it is sent to the
    bot alone, by systemd with ``KillMode=mixed`` as deploy/referee.service sets, or by Docker.)
    And a bot that is killed outright (SIGKILL, the OOM killer) cannot stop its workers, which
    would wait for work forever (keeping the forkserver alive with them): so each worker
    watches the bot and exits when it is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    bot = multiprocessing.parent_process()
    if bot is not None:
        threading.Thread(target=_exit_with, args=(bot.sentinel,), name="watch-bot", daemon=True).start()


def _exit_with(bot_sentinel: int) -> None:
    # The sentinel is a pipe the bot holds open for as long as it holds this worker: it reads
    # as ready only once the bot has ended (or let go of the worker after stopping it).
    wait([bot_sentinel])
    os._exit(0)


def _started_pool(workers: int) -> ProcessPoolExecutor:
    # forkserver, not fork: the bot process runs database threads, and forking a process with
    # threads can copy a lock that is held and never released in the child.
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_worker_started,
    )
    try:
        for job in [pool.submit(_ready) for _ in range(workers)]:
            job.result()
    except BaseException:
        # Some workers may have started: a half-started pool is never used, so stop them now.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    return pool


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool without waiting: its thread joins the workers (at the latest at exit)."""
    _open_pools.discard(pool)
    pool.shutdown(wait=False, cancel_futures=True)


_open_pools: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()


@atexit.register
def _shutdown_open_pools() -> None:
    # A bot that was never closed (a test, a crash in start-up) must not leave workers behind.
    for pool in list(_open_pools):
        _stop(pool)
