"""Spy Trap's steal panel: after an Evil Agent, whoever may steal is offered every choice the rules
give, on a panel Discord accepts, however many Files the drawer's home area holds.

Model-based: for home areas of 1 to 18 Files of mixed countries and sources, every legal action is
offered (a steal as one of the Files alike in country and source, the same choice to a player), every
offer is legal, and the panel keeps Discord's shape (at most 5 rows of 5, a select alone in its row,
Refresh last). Seen to fail on the panel before this test: from 15 Files on, the first 14 steals
were buttons and the rest were dropped, **Steal nothing** with them ("nosteal not offered"), and six
equal "Steal the French File" buttons stood side by side.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.drawings.spytrap_cards import card_name
from cogs.spytrap import SpyTrapUI
from cogs.table.buttons import ActionButton, ActionSelect
from tests.fault.names import make_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from spytrap_helpers import new_state, to_draw

IDS3 = ["French", "German", "Russian"]
HANDS = [
    ["EA1", "FAM2", "FIT1", "FSP1", "FSP2", "FIT2"],
    ["EA2", "FAM4", "FIT3", "FSP3", "FSP4", "FIT4"],
    ["FAM5", "FAM6", "FIT5", "FSP5", "FSP6", "FIT6"],
]
FILES = [f"F{country}{n}" for country in ("RU", "GE", "FR") for n in range(1, 7)]


def steal_offer(files: int, rng: random.Random) -> Any:
    """Seat 1 draws seat 0's Evil Agent; seat 0 may steal from seat 1's home of ``files`` Files."""
    home = [[card, rng.choice(["own", "opponent", "stolen"])] for card in rng.sample(FILES, files)]
    state = new_state(IDS3, HANDS, home=[[], home, []], immunity=[True] * 3)
    to_draw(state, [HANDS[0][:3], HANDS[1][:3], HANDS[2][:3]], 1, 3)
    state.apply(1, "draw-0")
    assert state.view(0)["prompt"]["kind"] == "steal"  # type: ignore[index]
    return state


def choice(state: Any, action: str) -> tuple[str, ...]:
    """What an action means to a player: a steal is a country and a source, not a card number."""
    if not action.startswith("steal-"):
        return (action,)
    card = action[6:]
    source = next(f["from"] for home in state.view(None)["home"] for f in home if f["card"] == card)
    return ("steal", card[:3], source)


def offered(items: list[discord.ui.Item[Any]]) -> list[str]:
    actions = []
    for item in items:
        if isinstance(item, ActionButton):
            actions.append(item.action)
        elif isinstance(item, ActionSelect):
            actions.extend(item.prefix + option.value for option in item.item.options)
    return actions


@pytest.mark.parametrize("files", [1, 4, 8, 12, 15, 18])
def test_every_steal_choice_is_offered_on_a_panel_that_fits(files: int) -> None:
    rng = random.Random(files)
    for _ in range(5):
        state = steal_offer(files, rng)
        table = make_table("spytrap", state.to_json(), ["ann", "bea", "cy"])
        table.state = state
        _, items = SpyTrapUI().panel(table, 0, None)
        actions = offered(items)
        legal = state.legal_actions(0)
        assert set(actions) - {"refresh"} <= set(legal), "an offer the rules refuse"
        meant = {choice(state, a) for a in actions if a != "refresh"}
        for action in legal:
            assert choice(state, action) in meant, f"{action} not offered"
        assert len(meant) == len(actions) - 1, "two offers mean the same"
        rows: dict[int, int] = {}
        for item in items:
            width = 5 if isinstance(item, ActionSelect) else 1
            rows[item.row or 0] = rows.get(item.row or 0, 0) + width
        assert all(0 <= row <= 4 and used <= 5 for row, used in rows.items()), rows
        assert isinstance(items[-1], ActionButton) and items[-1].action == "refresh"


def test_a_pile_being_built_shows_the_cards_picked_so_far_and_marks_only_the_rest() -> None:
    """While a spy builds their pile one card at a time (the panel's "nav" steps), the panel's one
    picture follows the picks: the picked cards on the pile, top first, and the hand with only the
    cards still to pick marked playable. Seen to fail before the panel's pictures were given the
    nav step: every hand card stayed marked, picked ones too, and no picture showed the picks."""
    state = new_state(IDS3, HANDS)
    table = make_table("spytrap", state.to_json(), ["ann", "bea", "cy"])
    table.state = state
    hand = state.view(0)["hand"]
    first, second = hand[0], hand[1]
    sketches = SpyTrapUI().panel_sketches(table, 0, f"{first}_{second}")
    assert [s.filename for s in sketches] == ["spytrap-hand.png"], "one picture"
    alt = sketches[0].alt
    so_far = "Your new pile so far, face down to the others, 2 cards, top first: "
    assert f"{so_far}{card_name(first)}, {card_name(second)}." in alt
    assert alt.startswith(f"Your hand, {len(hand) - 2} cards: ")
    assert alt.count("(can play)") == len(hand) - 2, "only the cards still to pick"
    fresh = SpyTrapUI().panel_sketches(table, 0, None)[0].alt
    assert "pile" not in fresh and fresh.count("(can play)") == len(hand)
