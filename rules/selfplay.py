"""Real-time self-play for any game, on a virtual clock.

It mirrors what a live table does: after every change each computer seat looks at its own view and
decides again; an unchanged decision keeps its original due time (a person does not start over
because someone else moved), a new one is due after that player's reaction time. The soonest due
action is applied. Quiet-period actions (a stall, an idle leader, the next deal) fire when their
timer runs out before anyone acts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.base import JSON, Action, ComputerPlayer, Event, Game, IllegalAction, State

# Self-play must always finish, so a timer that is off at the chosen speed still fires after this long.
FALLBACK_TIMER = 30.0

OnAction = Callable[[State[Any], int | None, Action, list[Event]], None]


@dataclass
class SelfPlayRecord:
    game: str
    players: int
    options: JSON
    seed: int
    levels: list[str]
    state: State[Any]
    actions: list[tuple[int | None, Action]] = field(default_factory=list)
    elapsed: float = 0.0  # virtual seconds

    def to_json(self) -> JSON:
        """The recorded-game format that ``python -m rules replay`` reads (see rules/FORMATS.md)."""
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "levels": list(self.levels),
            "actions": [{"seat": seat, "action": action} for seat, action in self.actions],
        }


def seat_rng(seed: int, seat: int) -> random.Random:
    return random.Random(f"selfplay:{seed}:{seat}")


def play_game(
    game: Game[Any],
    players: int,
    options: Any,
    seed: int,
    levels: list[str],
    *,
    on_action: OnAction | None = None,
    timers: str = "relaxed",
    max_actions: int = 20000,
) -> SelfPlayRecord:
    """Play one game between computer players; ``levels`` gives each seat's level in order
    (a shorter list is repeated round the table)."""
    if not levels:
        raise ValueError("Give at least one computer level.")
    if isinstance(options, dict):
        options = game.parse_options(options)
    seat_levels = [levels[s % len(levels)] for s in range(players)]
    bots: list[ComputerPlayer[Any]] = [game.computer_player(level) for level in seat_levels]
    rngs = [seat_rng(seed, s) for s in range(players)]
    delays = game.timers[timers]
    state = game.new_game(players, options, seed)
    record = SelfPlayRecord(game.key, players, game.options_to_json(options), seed, seat_levels, state)

    now = 0.0
    last_change = 0.0
    plans: dict[int, tuple[float, Action]] = {}
    refused: set[int] = set()  # seats whose plan turned out illegal: wait for the next change

    def replan() -> None:
        for seat, bot in enumerate(bots):
            if seat in refused:
                plans.pop(seat, None)
                continue
            view = state.view(seat)
            choice = bot.choose(view, state.legal_actions(seat), rngs[seat])
            if choice is None:
                plans.pop(seat, None)
            elif seat not in plans or plans[seat][1] != choice:
                plans[seat] = (now + bot.reaction_time(view, choice, rngs[seat]), choice)

    def quiet_due() -> tuple[float, Action] | None:
        quiet = state.quiet_actions()
        if not quiet:
            return None
        delay = delays.get(quiet[0].timer)
        return last_change + (FALLBACK_TIMER if delay is None else delay), quiet[0].action

    replan()
    while not state.is_over() and len(record.actions) < max_actions:
        quiet = quiet_due()
        planned = min(((due, seat, action) for seat, (due, action) in plans.items()), default=None)
        if planned is not None and (quiet is None or planned[0] <= quiet[0]):
            due, seat_or_none, action = planned
            seat: int | None = seat_or_none
            del plans[seat_or_none]
        elif quiet is not None:
            due, action = quiet
            seat = None
        else:
            break  # nobody wants to act and nothing is scheduled: the game cannot go on
        now = max(now, due)
        try:
            events = state.apply(seat, action)
        except IllegalAction as exc:
            if seat is None:
                refusal = f"{exc.code} {exc.params}"
                raise RuntimeError(f"The game refused its own quiet action {action!r}: {refusal}") from exc
            refused.add(seat)
            continue
        record.actions.append((seat, action))
        last_change = now
        refused.clear()
        if on_action is not None:
            on_action(state, seat, action, events)
        replan()
    record.elapsed = now
    return record
