"""Replaying recorded games and scenario files (formats in rules/FORMATS.md), for any game."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rules import get_game
from rules.base import JSON, Event, IllegalAction, Result, State


@dataclass
class ReplayOutcome:
    state: State[Any]
    events: list[Event] = field(default_factory=list)
    failed_at: int | None = None  # index of the first illegal action
    reason: str | None = None
    mismatches: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # key -> (expected, actual)

    @property
    def ok(self) -> bool:
        return self.failed_at is None and not self.mismatches


def start_state(data: JSON) -> State[Any]:
    game = get_game(data["game"])
    options = game.parse_options(data.get("options") or {})
    state: State[Any] = game.new_game(
        int(data["players"]), options, int(data.get("seed", 0)), data.get("deal")
    )
    return state


def replay(data: JSON) -> ReplayOutcome:
    """Apply every action of a recorded game or scenario; stop at the first illegal one."""
    state = start_state(data)
    outcome = ReplayOutcome(state, list(getattr(state, "opening_events", [])))
    for index, step in enumerate(data.get("actions", [])):
        seat = step.get("seat")
        try:
            outcome.events.extend(state.apply(seat, step["action"]))
        except IllegalAction as exc:
            outcome.failed_at, outcome.reason = index, refusal_line(exc)
            return outcome
    outcome.mismatches = check_expect(state, data.get("expect") or {})
    return outcome


def check_expect(state: State[Any], expect: JSON) -> dict[str, tuple[Any, Any]]:
    """Compare expected values with the spectator view; "winners" and "places" come from the result."""
    view = state.view(None)
    result = state.result()
    actual: JSON = dict(view)
    actual["winners"] = result.winners if result else None
    actual["places"] = [p.place for p in result.placements] if result else None
    if "hands" in expect:
        actual["hands"] = [state.view(s).get("hand") for s in range(state.players)]
    mismatches: dict[str, tuple[Any, Any]] = {}
    for key, wanted in expect.items():
        got = actual.get(key, "<no such key>")  # text: the CLI's report of a scenario
        if got != wanted:
            mismatches[key] = (wanted, got)
    return mismatches


def event_line(event: Event) -> str:
    """An event as the CLI prints it: its kind and data (the game's cog words it for people)."""
    text = f"{event.kind} {json.dumps(event.data, ensure_ascii=False, sort_keys=True)}"
    return text if event.seat is None else f"Seat {event.seat}: {text}"


def refusal_line(exc: IllegalAction) -> str:
    """A refusal as the CLI prints it: its code, then any parameters."""
    return exc.code + (f" {json.dumps(exc.params, ensure_ascii=False, sort_keys=True)}" if exc.params else "")


def result_line(result: Result) -> str:
    """How a game ended, as the CLI prints it: its ``how`` and ``details``."""
    return f"{result.how} {json.dumps(result.details, ensure_ascii=False, sort_keys=True)}"
