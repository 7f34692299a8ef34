"""Thinking off the event loop: computer players whose decision can take long (a search).

One event loop serves every table, so a computer that thinks for half a second on it holds up
every click in the bot for that long. A player that says it ``thinks_long`` (Trap's ``hard``)
decides in a process pool instead. The worker gets only what the player may see — the game key,
the level, the player's settings, the seat's view, its legal actions and the seed of its random
generator — never the state, and rebuilds the player itself (players are cached per worker). It
answers with the same (action, reaction time) the player would give on the loop for that seed.

The pool is cogs/table/workers.py's healing pool: created on first use (most bots never host a
slow computer), sized to leave one core to the event loop, shut down with the referee (or at
interpreter exit), replaced when a worker died, started again after a backoff when it could not
start. A decision that cannot be thought out in time plays ``fallback``'s legal move.

Nothing here imports discord: the workers import this module and ``rules`` only.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from cogs.table.workers import PoolUnavailable, WorkerPool
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


class Thinker(WorkerPool):
    """The process pool the referee sends slow decisions to.

    The pool heals (cogs/table/workers.py): a pool that failed to start, or whose worker died
    (killed, out of memory), is replaced on the next decision, so one bad moment never silences
    the computers for the rest of the process. The decision in hand still ends within its
    budget, with a legal move."""

    def __init__(self, workers: int | None = None) -> None:
        super().__init__("thinking", workers)

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
                # ``decide`` is looked up at each call: a test swaps in a job that kills its worker.
                return await self.run(decide, game_key, level, settings, view, legal, seed)
        except TimeoutError:
            log.warning(
                "%s %s took over %.0f s to decide; playing a legal move instead", game_key, level, budget
            )
        except PoolUnavailable as error:
            log.warning("%s %s: %s; playing a legal move instead", game_key, level, error)
        return fallback(legal, seed)
