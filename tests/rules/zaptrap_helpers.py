"""Scenario helpers shared by the Zap or Trap tests: explicit deals and whole-state checks."""

from __future__ import annotations

import json
from typing import Any

from rules.base import IllegalAction
from rules.zaptrap import GESTURES, ZapOrTrap, ZapTrapOptions, ZapTrapState, species_shown

GAME = ZapOrTrap()
SIGNALS = list(GESTURES)


def make_deal(
    hands: list[list[str]],
    table: list[str] | None = None,
    deck: list[str] | None = None,
    options: ZapTrapOptions | None = None,
    signals: list[str] | None = None,
    dealer: int = 0,
) -> dict[str, Any]:
    """Hands exactly as given; the table and the deck's first cards as given (else the next unused
    cards); every other card goes to the bottom of the deck."""
    options = options or ZapTrapOptions()
    used = {c for h in hands for c in h} | set(table or []) | set(deck or [])
    rest = [c for c in options.deck() if c not in used]
    if table is None:
        table, rest = rest[:4], rest[4:]
    deal: dict[str, Any] = {
        "dealer": dealer,
        "hands": [list(h) for h in hands],
        "table": list(table),
        "deck": list(deck or []) + rest,
    }
    if signals is not None:
        deal["signals"] = signals
    return deal


def new_state(
    hands: list[list[str]],
    table: list[str] | None = None,
    deck: list[str] | None = None,
    signals: list[str] | None = None,
    dealer: int = 0,
    seed: int = 7,
    **options: Any,
) -> ZapTrapState:
    """A round in play from an explicit deal; every side's signal defaults to the palette in order
    ("think" for unit 0, "wink" for unit 1, …)."""
    parsed = GAME.parse_options(options)
    players = len(hands)
    units = players // 2 if players in (4, 6) else players
    if signals is None:
        signals = SIGNALS[:units]
    deal = make_deal(hands, table, deck, parsed, signals, dealer)
    return GAME.new_game(players, parsed, seed, deal)


def snapshot(state: ZapTrapState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def refused(state: ZapTrapState, seat: int | None, action: str) -> tuple[str, dict[str, Any]]:
    """Apply an action that must be illegal; check nothing changed and return the refusal's code
    and parameters (the cog words them: tests/e2e/test_zaptrap_words.py)."""
    before = snapshot(state)
    try:
        state.apply(seat, action)
    except IllegalAction as exc:
        assert snapshot(state) == before, "an illegal action changed the state"
        return exc.code, exc.params
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def has_set(hand: list[str], species: int) -> int:
    """An independent count: the most cards of one hand showing one species."""
    return max(sum(1 for c in hand if s in species_shown(c, species)) for s in range(1, species + 1))


def expected_points(state: ZapTrapState, caller: int, call: str, target: int) -> list[int]:
    """The points per unit of a call, recomputed straight from the rule tables (RULINGS §1)."""
    n = state.players
    team = n in (4, 6)
    units = n // 2 if team else n

    def unit(seat: int) -> int:
        return seat % units if team else seat

    hand, mine = state.hands[target], state.hands[caller]
    count = has_set(hand, int(state.options.species or 0))
    dm = sum(1 for c in hand if c.startswith("XDM"))
    bonus_card = "XZZ" if call == "ZAP" else "XBF"
    bonus = sum(1 for c in mine if c.startswith(bonus_card))
    success = 1 + (count >= 5) + 2 * dm + bonus
    failure = 1 + 2 * dm
    points = [0] * units
    if team:
        if count >= 4:
            points[unit(caller)] = success
        elif call == "ZAP":
            points = [failure if u != unit(caller) else 0 for u in range(units)]
        else:
            points[unit(target)] = failure
        return points
    right = (caller - 1) % n
    correct = (target == right) if call == "ZAP" else (target not in (caller, right))
    if not correct:
        return [2 if u != caller else 0 for u in range(units)]
    if call == "ZAP" and count >= 4:
        points[caller] = points[target] = success
    elif call == "ZAP":
        points = [failure if u not in (caller, target) else 0 for u in range(units)]
    elif count >= 4:
        points[caller] = success
    else:
        points[target] = failure
    return points
