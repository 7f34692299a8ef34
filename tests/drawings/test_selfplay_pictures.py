"""Pictures of real game states: one self-played game per title (4 computer seats), drawn as a cog
would after every action.

- The table picture and its alt text are the same whoever looks (any seat or a spectator): the
  public picture carries no one's hidden cards or tokens. Seen to fail when GiftTRAP's
  ``table_picture`` drew the viewer's own tokens (``view["my"]["ranks"]``, as its panel does):
  the test stopped at "seat 2's table picture differs after rank-great-4".
- Every seat's own picture draws from its own view, within 60 KB and 1,024 characters of alt text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import rules
from cogs.drawings import gifttrap_cards, spytrap_cards, zaptrap_cards, zipzap_cards
from cogs.drawings.cards import ALT_LIMIT, Picture
from rules.selfplay import play_game

MAX_BYTES = 60 * 1024
SEATS = 4


def _own(key: str, view: Any) -> Picture:
    if key == "zipzap":
        return zipzap_cards.hand_picture(view["hand"])
    if key == "zaptrap":
        return zaptrap_cards.hand_picture(view["hand"], preset=view["preset"], species=view["species"])
    if key == "spytrap":
        if "identity" not in view:
            return spytrap_cards.hand_picture(view.get("hand", []))
        return spytrap_cards.identity_picture(view["identity"], immunity=view["immunity"][view["seat"]])
    return gifttrap_cards.panel_picture(view)


TABLES: dict[str, Callable[[Any], Picture]] = {
    "zipzap": zipzap_cards.table_picture,
    "zaptrap": zaptrap_cards.table_picture,
    "spytrap": spytrap_cards.table_picture,
    "gifttrap": gifttrap_cards.table_picture,
}
# More public pictures: the same for everyone too.
PUBLIC: dict[str, list[Callable[[Any], Picture]]] = {
    "zipzap": [zipzap_cards.top_picture],
    "zaptrap": [],
    "spytrap": [lambda view: spytrap_cards.files_picture([f for home in view["home"] for f in home])],
    "gifttrap": [gifttrap_cards.reveal_picture],
}


@pytest.mark.parametrize("key", list(TABLES))
def test_pictures_of_a_whole_game(key: str) -> None:
    game = rules.GAMES[key]
    checked = {"actions": 0, "own": 0}
    drawn: dict[tuple[str, str], Picture] = {}

    def table(view: Any) -> Picture:
        # Memoised on the whole view's text, so an unchanged view is not drawn twice; any view
        # that differs in anything (a seat's own hand or tokens) is drawn anew and compared.
        memo = (repr(sorted(view.items())), "")
        if memo not in drawn:
            drawn[memo] = TABLES[key](view)
        return drawn[memo]

    def on_action(state: Any, seat: int | None, action: str, events: list[Any]) -> None:
        checked["actions"] += 1
        public = table(state.view(None))
        assert len(public.png) <= MAX_BYTES and len(public.alt) <= ALT_LIMIT
        sample = checked["actions"] % 4 == 0
        others = [picture(state.view(None)) for picture in PUBLIC[key]] if sample else []
        for s in range(SEATS):
            view = state.view(s)
            assert table(view) == public, f"seat {s + 1}'s table picture differs after {action}"
            if sample:
                mine = [picture(view) for picture in PUBLIC[key]]
                assert mine == others, f"seat {s + 1}'s public pictures differ after {action}"
            if sample:
                own = _own(key, view)
                assert len(own.png) <= MAX_BYTES and 0 < len(own.alt) <= ALT_LIMIT
                checked["own"] += 1

    play_game(game, SEATS, {}, 7, list(game.computer_levels), on_action=on_action)
    assert checked["actions"] >= 20 and checked["own"] >= 20
