"""Scenario helpers shared by the Spy Trap tests: explicit deals, quick rounds and whole-state checks."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from rules.base import IllegalAction
from rules.spytrap import ALL_CARDS, COUNTRIES, SpyTrap, SpyTrapState, all_cards

GAME = SpyTrap()


def make_deal(
    identities: list[str],
    hands: list[list[str]],
    deck: list[str] | None = None,
    *,
    home: list[list[list[str]]] | None = None,
    used: list[str] | None = None,
    immunity: list[bool] | None = None,
    opener: int = 0,
    rest: str = "deck",
) -> dict[str, Any]:
    """Everything as given; every card not named goes to the bottom of the deck, or to the used pile
    (``rest="used"``) when the deck must stay exactly as given."""
    players = len(identities)
    home = home or [[] for _ in range(players)]
    deck = list(deck or [])
    used = list(used or [])
    named = {c for h in hands for c in h} | set(deck) | set(used) | {e[0] for area in home for e in area}
    leftover = [c for c in all_cards() if c not in named]
    if rest == "deck":
        deck += leftover
    else:
        used += leftover
    deal: dict[str, Any] = {
        "identities": list(identities),
        "hands": [list(h) for h in hands],
        "deck": deck,
        "home": [[list(e) for e in area] for area in home],
        "used": used,
        "opener": opener,
    }
    if immunity is not None:
        deal["immunity"] = list(immunity)
    return deal


def new_state(
    identities: list[str], hands: list[list[str]], deck: list[str] | None = None, **kw: Any
) -> SpyTrapState:
    options = kw.pop("options", {})
    return GAME.new_game(
        len(identities), GAME.parse_options(options), 7, make_deal(identities, hands, deck, **kw)
    )


def build_piles(state: SpyTrapState, piles: list[list[str]]) -> None:
    for seat, pile in enumerate(piles):
        if state.phase == "pile" and not state.pile_done[seat]:
            state.apply(seat, "pile-" + "-".join(pile))


def bid_to(state: SpyTrapState, winner: int, amount: int) -> None:
    """Run the bidding so that ``winner`` wins with ``amount``: the opener opens at 1 if needed,
    ``winner`` bids ``amount`` when it comes round, everyone else passes."""
    while state.phase == "bid":
        seat = state.to_bid
        assert seat is not None
        if seat == winner and state.high_bid < amount:
            state.apply(seat, f"bid-{amount}")
        elif state.high_bidder is None:
            state.apply(seat, "bid-1")
        else:
            state.apply(seat, "pass")


def to_draw(state: SpyTrapState, piles: list[list[str]], winner: int, amount: int) -> None:
    build_piles(state, piles)
    bid_to(state, winner, amount)
    assert state.phase == "draw" and state.drawer == winner and state.draws_left == amount


def snapshot(state: SpyTrapState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def refusal(state: SpyTrapState, seat: int | None, action: str) -> IllegalAction:
    """Apply an action that must be illegal; check nothing changed and return the refusal (its
    code and parameters)."""
    before = snapshot(state)
    try:
        state.apply(seat, action)
    except IllegalAction as exc:
        assert snapshot(state) == before, "an illegal action changed the state"
        return exc
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def refused(state: SpyTrapState, seat: int | None, action: str) -> str:
    """The code of the refusal of an action that must be illegal (see ``refusal``)."""
    return refusal(state, seat, action).code


def card_places(state: SpyTrapState) -> Counter[str]:
    places = [c for h in state.hands for c in h] + [c for p in state.piles for c in p]
    places += state.deck + state.used + [e[0] for area in state.home for e in area]
    return Counter(places)


def check_conservation(state: SpyTrapState) -> None:
    assert card_places(state) == Counter(ALL_CARDS), "a card is missing or in two places"
    held = [state.identity[s] for s in range(state.players) if state.active[s]]
    ids = held + state.id_discard + ([state.pending_id] if state.pending_id else [])
    assert sorted(ids) == sorted(COUNTRIES), f"identity cards not conserved: {ids}"
