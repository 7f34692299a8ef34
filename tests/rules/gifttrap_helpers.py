"""Scenario helpers shared by the GiftTRAP tests: explicit layouts, whole rounds of choices, checks
that an illegal action changes nothing, and the hidden-information perturbation used for leak tests."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.base import Event, IllegalAction
from rules.gifttrap import PACK_GIFTS, TOKENS, GiftTrap, GiftTrapState

GAME = GiftTrap()


def layout_ids(players: int, pack: int = 1) -> list[str]:
    """The first players + 1 gifts of a pack, in list order: space n holds the n-th."""
    return [g.id for g in PACK_GIFTS[pack][: players + 1]]


def new_state(
    players: int = 3,
    *,
    pack: int = 1,
    dealer: int = 0,
    give: list[int] | None = None,
    get: list[int] | None = None,
    seed: int = 7,
    **options: Any,
) -> GiftTrapState:
    deal: dict[str, Any] = {"layout": layout_ids(players, pack), "dealer": dealer}
    if give is not None:
        deal["give"] = give
    if get is not None:
        deal["get"] = get
    return GAME.new_game(players, GAME.parse_options(options), seed, deal)


def snapshot(state: GiftTrapState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def refusal(state: GiftTrapState, seat: int | None, action: str) -> IllegalAction:
    """Apply an action that must be illegal; check nothing changed and return the refusal (its code
    and details: the cog words them)."""
    before = snapshot(state)
    try:
        state.apply(seat, action)
    except IllegalAction as exc:
        assert snapshot(state) == before, "an illegal action changed the state"
        return exc
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def refused(state: GiftTrapState, seat: int | None, action: str) -> str:
    """The code of an action that must be illegal (see ``refusal``)."""
    return refusal(state, seat, action).code


def choose(
    state: GiftTrapState,
    seat: int,
    gives: dict[int, int],
    ranks: dict[str, int],
    *,
    give_more: int | None = None,
    get_more: int | None = None,
    ready: bool = True,
) -> list[Event]:
    """Make one player's secret choices through actions; returns the events (the ready event)."""
    events: list[Event] = []
    for receiver, space in gives.items():
        events += state.apply(seat, f"give-{receiver}-{space}")
    for token, space in ranks.items():
        events += state.apply(seat, f"rank-{token}-{space}")
    if give_more is not None:
        events += state.apply(seat, f"givemore-{give_more}")
    if get_more is not None:
        events += state.apply(seat, f"getmore-{get_more}")
    if ready:
        events += state.apply(seat, "ready")
    return events


def default_ranks(spaces: int, great: int = 1) -> dict[str, int]:
    """GREAT on ``great``, the other tokens on the next gifts round the layout."""
    order = [(great - 1 + i) % spaces + 1 for i in range(4)]
    return dict(zip(TOKENS, order, strict=True))


def reveal(state: GiftTrapState, count: int | None = None) -> list[Event]:
    """Apply the referee's ``reveal`` ``count`` times (all the rest when None)."""
    events: list[Event] = []
    while state.phase == "reveal" and (count is None or count > 0):
        events += state.apply(None, "reveal")
        if count is not None:
            count -= 1
    return events


def gift_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind == "gift"]


# --- hidden information ---------------------------------------------------------------------------


def perturb(state: GiftTrapState, viewer: int | None, rng: random.Random) -> GiftTrapState:
    """A copy in which everything ``viewer`` must not know is replaced at random: other players'
    unrevealed gives, their tokens not yet turned up, and their unrevealed Give More / Get More cards.
    The viewer's view must come out identical."""
    other = GAME.from_json(json.loads(json.dumps(state.to_json())))
    n, spaces = state.players, state.spaces
    if state.phase not in ("choosing", "reveal") or spaces == 0:
        return other
    revealed = {(r["receiver"], r["giver"]) for r in state.revealed}
    for giver in range(n):
        if giver == viewer:
            continue
        for receiver in range(n):
            if receiver != giver and (receiver, giver) not in revealed:
                other.gives[giver][receiver] = rng.randint(1, spaces)
        current = state.give_more[giver]
        if current is None or (current, giver) not in revealed:
            hidden = [r for r in range(n) if r != giver and (r, giver) not in revealed]
            other.give_more[giver] = rng.choice([None, *hidden])
    for receiver in range(n):
        if receiver == viewer:
            continue
        if not state.ranking_shown[receiver]:
            other.ranks[receiver] = dict(zip(TOKENS, rng.sample(range(1, spaces + 1), 4), strict=True))
        current = state.get_more[receiver]
        if current is None or (receiver, current) not in revealed:
            hidden = [g for g in range(n) if g != receiver and (receiver, g) not in revealed]
            other.get_more[receiver] = rng.choice([None, *hidden])
    return other


def assert_views_hide_secrets(state: GiftTrapState, rng: random.Random) -> None:
    for viewer in [None, *range(state.players)]:
        assert state.view(viewer) == perturb(state, viewer, rng).view(viewer), f"view of {viewer} leaks"
