"""Scenario helpers shared by the Zip Zap tests: explicit deals and whole-state checks."""

from __future__ import annotations

import json
from typing import Any

from rules.base import IllegalAction
from rules.zipzap import ZipZap, ZipZapState, all_number_cards

GAME = ZipZap()


def make_deal(
    hands: list[list[str]],
    deck: list[str] | None = None,
    out: tuple[str, ...] = ("B", "Y"),
    rest_to: int | None = None,
) -> dict[str, Any]:
    """Hands exactly as given, the deck's first cards as given; every other in-play card goes to the
    bottom of the deck, or to seat ``rest_to`` when the deck must stay as given."""
    deck = list(deck or [])
    used = {c for h in hands for c in h} | set(deck)
    rest = [c for c in all_number_cards(list(out)) if c not in used]
    hands = [list(h) for h in hands]
    if rest_to is None:
        deck += rest
    else:
        hands[rest_to] += rest
    return {"hands": hands, "deck": deck, "out_of_game": list(out)}


def new_state(
    hands: list[list[str]],
    deck: list[str] | None = None,
    out: tuple[str, ...] = ("B", "Y"),
    rest_to: int | None = None,
    **options: Any,
) -> ZipZapState:
    deal = make_deal(hands, deck, out, rest_to)
    return GAME.new_game(len(hands), GAME.parse_options(options), 7, deal)


def snapshot(state: ZipZapState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def refused(state: ZipZapState, seat: int | None, action: str) -> tuple[str, dict[str, Any]]:
    """Apply an action that must be illegal; check nothing changed and return the refusal as data:
    its code and parameters (the cog words them: tests/e2e/test_zipzap_words.py)."""
    before = snapshot(state)
    try:
        state.apply(seat, action)
    except IllegalAction as exc:
        assert snapshot(state) == before, "an illegal action changed the state"
        return exc.code, exc.params
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def expected_round_points(state: ZipZapState, went_out: int) -> list[int]:
    """An independent recomputation of the round's points from the hands left at the round's end."""
    if state.options.scoring == "first_out":
        return [int(s == went_out) for s in range(state.players)]
    points = []
    for seat, hand in enumerate(state.hands):
        total = 0
        for card in hand:
            if card.startswith("Z"):
                total += 5
            elif card.startswith("W"):
                total += 3
            else:
                total += 1
        points.append(0 if seat == went_out else total)
    return points
