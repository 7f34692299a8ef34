"""Computer seats: what each computer at a table reaches for, and when it plays it.

A computer sees exactly what a person in its seat would (its own view and legal moves). A quick
player decides on the loop after every change and its move is booked with the scheduler after a
human-like delay; a player that ``thinks_long`` (a search) thinks in a worker process
(``cogs/table/thinking.py``) and books its move only if the table has not moved on meanwhile.
The move itself goes through the spine like anybody's (``play``), under the table's lock.

This part owns the decider objects, the thinking pool and the thoughts under way; the spine tells
it after every change (``plan``) and when a table is forgotten (``forget``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from cogs.table.model import Table, TableMoved
from cogs.table.scheduler import Scheduler
from cogs.table.thinking import Thinker, thinks_long
from rules import get_game
from rules.base import ComputerPlayer, Event, IllegalAction

log = logging.getLogger(__name__)

# The level a computer takes over a seat at when a person leaves mid-game, where the game has it
# (Trap's levels are easy, medium and hard: there it is the game's first, easiest level).
REPLACEMENT_LEVEL = "casual"

Act = Callable[[Table, int | None, str, int | None], Awaitable[list[Event]]]


def replacement_level(game_key: str) -> str:
    """The level of the computer that takes a leaving person's seat: always one the game has."""
    levels = get_game(game_key).computer_levels
    return REPLACEMENT_LEVEL if REPLACEMENT_LEVEL in levels else levels[0]


class ComputerSeats:
    def __init__(self, scheduler: Scheduler, *, lookup: Callable[[int], Table | None], act: Act) -> None:
        self.scheduler = scheduler
        self._lookup = lookup
        self._act = act
        # Multiplies every reaction time (COMPUTER_REACTION; tests and the bench speed it up).
        self.speed = 1.0
        self._players: dict[tuple[str, str, str], ComputerPlayer[Any]] = {}
        # Slow computers think in worker processes; per (table, seat), the version their current
        # thought or booked move is for, and the thought under way.
        self.thinker = Thinker()
        self.thought_for: dict[tuple[int, int], int] = {}
        self.thinking: dict[tuple[int, int], asyncio.Task[None]] = {}

    def _settings(self, game_key: str, persona: str) -> dict[str, Any]:
        settings: dict[str, Any] = {"speed": self.speed}
        if getattr(get_game(game_key), "computer_persona", False):
            settings["persona"] = persona
        return settings

    def player(self, game_key: str, level: str, persona: str = "") -> ComputerPlayer[Any]:
        """Computer players are stateless deciders, shared per (game, level[, persona]).

        Games whose computers have a taste (``computer_persona = True`` on the Game) get one
        per seat name, so the same computer keeps the same taste from game to game."""
        settings = self._settings(game_key, persona)
        key = (game_key, level, settings.get("persona", ""))
        if key not in self._players:
            self._players[key] = get_game(game_key).computer_player(level, **settings)
        return self._players[key]

    def plan(self, table: Table) -> None:
        """Each computer seat looks at its own view and decides what to reach for, and when.

        A quick player decides here, on the loop. A player that ``thinks_long`` (a search) only
        starts a thought in a worker process here (``_think``); nothing here waits for it."""
        if table.status != "playing" or table.state is None:
            return
        for seat in table.seats:
            key = f"t{table.id}:cpu{seat.seat}"
            if not seat.is_computer:
                self._stop_thinking(table.id, seat.seat)
                table.planned.pop(seat.seat, None)
                self.scheduler.cancel(key)
                continue
            legal = table.state.legal_actions(seat.seat)
            choice = None
            level = seat.computer_level or replacement_level(table.game.key)
            player = self.player(table.game.key, level, seat.chosen_name)
            if legal and thinks_long(player):
                self._think(table, seat.seat, level, seat.chosen_name, legal)
                continue
            self._stop_thinking(table.id, seat.seat)
            rng = random.Random(self._seed(table, seat.seat))
            view = table.state.view(seat.seat)
            if legal:
                choice = player.choose(view, legal, rng)
            if choice is None:
                table.planned.pop(seat.seat, None)
                self.scheduler.cancel(key)
                continue
            if table.planned.get(seat.seat) == choice and self.scheduler.when(key) is not None:
                continue  # still reaching for the same card: keep its original timing
            table.planned[seat.seat] = choice
            delay = player.reaction_time(view, choice, rng)
            self.scheduler.after(key, delay, partial(self.play, table.id, seat.seat, choice))

    @staticmethod
    def _seed(table: Table, seat: int) -> str:
        # One generator per (table, version, seat): the same state always gets the same decision,
        # on the loop or in a worker, before or after a restart.
        return f"{table.seed}:{table.version}:{seat}"

    def _think(self, table: Table, seat: int, level: str, persona: str, legal: list[str]) -> None:
        """Start a slow computer's thought about the table as it is now, unless one about this
        very version is already under way or has already booked its move."""
        slot = (table.id, seat)
        key = f"t{table.id}:cpu{seat}"
        if self.thinker.closed:
            return  # shutting down: no new thoughts
        if self.thought_for.get(slot) == table.version and (
            slot in self.thinking or self.scheduler.when(key) is not None
        ):
            return
        # The table moved on: whatever was thought or booked for an older version is dropped.
        self._stop_thinking(table.id, seat)
        table.planned.pop(seat, None)
        self.scheduler.cancel(key)
        assert table.state is not None
        self.thought_for[slot] = table.version
        thought = self._thought(
            table.id,
            seat,
            table.version,
            table.game.key,
            level,
            self._settings(table.game.key, persona),
            table.state.view(seat),
            legal,
            self._seed(table, seat),
        )
        task = asyncio.get_running_loop().create_task(thought, name=f"think:{key}")  # text: a task name
        self.thinking[slot] = task
        task.add_done_callback(partial(self._thought_done, slot))

    def _thought_done(self, slot: tuple[int, int], task: asyncio.Task[None]) -> None:
        if self.thinking.get(slot) is task:
            del self.thinking[slot]
        if not task.cancelled() and task.exception() is not None:
            log.error("a computer's thought failed at table %s", slot[0], exc_info=task.exception())

    def _stop_thinking(self, table_id: int, seat: int) -> None:
        slot = (table_id, seat)
        self.thought_for.pop(slot, None)
        task = self.thinking.pop(slot, None)
        if task is not None:
            task.cancel()

    async def _thought(
        self,
        table_id: int,
        seat: int,
        version: int,
        game_key: str,
        level: str,
        settings: dict[str, Any],
        view: Any,
        legal: list[str],
        seed: str,
    ) -> None:
        """Think in a worker, then book the move through the scheduler like any computer's —
        but only if the table is still at ``version``, the one the thought was about. Any change
        in between (a timer's move, a seat taken over, a reload) has already started a new
        thought for the new version and cancelled this one; the check catches a result that
        arrives in the same instant."""
        choice, delay = await self.thinker.decide(game_key, level, settings, view, legal, seed)
        table = self._lookup(table_id)
        if table is None:
            self.thought_for.pop((table_id, seat), None)
            return  # the table ended meanwhile
        if table.version != version or self.thought_for.get((table_id, seat)) != version:
            return  # stale: thought about a table that has moved on
        if choice is None:
            return
        table.planned[seat] = choice
        self.scheduler.after(
            f"t{table_id}:cpu{seat}", delay, partial(self.play, table_id, seat, choice, version)
        )

    def stop(self) -> None:
        """Drop every thought under way and stop the worker processes (shutting down)."""
        for task in self.thinking.values():
            task.cancel()
        self.thinking.clear()
        self.thought_for.clear()
        self.thinker.shutdown()

    async def play(self, table_id: int, seat: int, action: str, version: int | None = None) -> None:
        """A computer's move. A database failure raises, and the scheduler tries the same move
        again with backoff (it is checked for legality again then).

        A quick computer's move is played if it is still legal (it re-plans on every change, so a
        move still booked is still its choice). A slow computer's move carries the ``version`` it
        was thought out for and is played only at exactly that version; otherwise it re-plans."""
        table = self._lookup(table_id)
        if table is None:
            return
        async with table.lock:
            if version is not None and version != table.version:
                # Thought out for a table that has moved on. The change that moved it started a
                # new thought, which this leaves alone (plan keeps a current one).
                self.plan(table)
                return
            table.planned.pop(seat, None)
            if table.status != "playing" or table.state is None or not table.seats[seat].is_computer:
                return
            if table.unreachable_since is not None:
                return  # held while nobody can see the table; re-planned when it is reached again
            if action not in table.state.legal_actions(seat):
                self.plan(table)
                return
            try:
                await self._act(table, seat, action, None)
            except IllegalAction as error:
                log.warning("computer action %s at table %s refused: %s", action, table.id, error)
                self.plan(table)
            except TableMoved:
                return
