"""Spy Trap's private panel fits one phone screen (issue 33): the hand is shown once.

Over whole self-played games, in every state a seat's panel is drawn in (building a pile, bidding,
drawing, each decision, between rounds, out of the game), the panel holds one picture (hand, pile,
identity and Immunity together) whose alt text lists the hand, the panel's text lists no card, and
its controls are at most three rows: selects first, then one row of buttons ending with Refresh.

Seen to fail on the panel before: two to four pictures (hand, identity, pile, home area), the hand
written out in the text as well ("**Hand:** 🇺🇸 American File, …"), and one "top: …" button per
card on up to two rows, with Refresh on a row of its own.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from PIL import Image

from cogs.drawings import spytrap_cards
from cogs.drawings.spytrap_cards import card_label, card_name
from cogs.spytrap import SpyTrapUI
from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.layout import _rows
from rules.base import Event, State
from rules.selfplay import play_game
from rules.spytrap import SpyTrap
from tests.fault.names import make_table

GAME = SpyTrap()
# Long names, as people choose them: a select or a button naming one must still keep its row.
NAMES = [
    "Alexandra-Konstantina the Patient",
    "Bartholomew 'Bart' Fitzgerald III",
    "Chrysanthemum Wolfeschlegel",
    "Dmitri Vladimirovich Spassky",
    "Evangelina Montgomery-Smythe",
    "Fitzwilliam Darcy-Bennet Jr.",
]
# A phone shows a panel's picture about 227 CSS px wide (360 px screen, less the avatar's column
# and the container's padding); issue 33 leaves ~150 px of a 560 px panel to its picture.
PHONE_WIDTH = 227
PICTURE_HEIGHT = 150
CARD_WIDTH = 45  # CSS px a card shows at on a phone: its code and name read


def rows_of(items: list[discord.ui.Item[Any]]) -> list[list[discord.ui.Item[Any]]]:
    """The controls in the rows the layout gives them (cogs/table/layout.py), as Discord shows them."""
    return _rows(items)


def panels(players: int, seed: int) -> Iterator[tuple[Any, int, str]]:
    """Every seat's panel state after every action of a whole self-played game: (table, seat,
    the phase or prompt it was drawn in)."""
    moments: list[Any] = []

    def keep(state: State[Any], seat: int | None, action: str, events: list[Event]) -> None:
        moments.append(state.to_json())

    play_game(GAME, players, {"round_limit": 12}, seed, ["casual", "sharp"], on_action=keep)
    for data in moments:
        table = make_table("spytrap", data, NAMES[:players])
        view = table.state.view(None)
        if view["phase"] == "over":
            continue
        for seat in range(players):
            prompt = view["prompt"]
            kind = prompt["kind"] if prompt is not None and prompt["seat"] == seat else view["phase"]
            yield table, seat, kind


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (6, 5)])
def test_every_panel_of_a_whole_game_shows_the_hand_once_with_its_controls_last(
    players: int, seed: int
) -> None:
    ui = SpyTrapUI()
    seen: set[str] = set()
    for table, seat, kind in panels(players, seed):
        seen.add(kind)
        view = table.state.view(seat)
        embed, items = ui.panel(table, seat, None)
        sketches = ui.panel_sketches(table, seat)
        assert [s.filename for s in sketches] == ["spytrap-hand.png"], "one picture"
        alt = sketches[0].alt
        hand = view["hand"]
        if hand:
            assert alt.startswith(f"Your hand, {len(hand)} card"), alt
            assert all(card_name(c) in alt for c in hand), (hand, alt)
        assert f"Your secret identity: {view['identity']} spy." in alt
        text = f"{embed.title}\n{embed.description}"
        assert "Hand:" not in text and not any(card_label(c) in text for c in hand), text
        assert not embed.footer.text, "the round is in the title; the page says only you see it"
        rows = rows_of(items)
        assert 1 <= len(rows) <= 3, [[getattr(i, "action", i) for i in r] for r in rows]
        *upper, last = rows
        assert all(isinstance(i, ActionSelect) for r in upper for i in r), "selects first"
        assert all(isinstance(i, ActionButton) for i in last) and len(last) <= 5, "then one row of buttons"
        assert last[-1].action == "refresh" or last[-1].action.startswith("nav-"), "Refresh last"
        if kind == "pile":
            assert len(rows) <= 2, "the pile builder: one select, one row of buttons"
    assert {"pile", "bid", "draw"} <= seen, seen


@pytest.mark.parametrize(
    ("hand", "pile", "immunity", "received", "least"),
    [
        (["FAM1", "FGE1", "FRU1", "EA1", "EA2", "TR1"], [], True, None, CARD_WIDTH),
        (["FAM1", "FGE1", "FRU1"], ["EA1", "EA2", "TR1"], True, None, CARD_WIDTH),
        ([], [], False, None, CARD_WIDTH),
        # The rare moment a spy holds a received ID card beside a whole hand, pile and Immunity:
        # a fifth column, still wider than the old strip's 35 px.
        (["FAM1", "FGE1", "FRU1"], ["EA1", "EA2", "TR1"], True, "Spanish", 38),
    ],
)
def test_the_panel_picture_reads_on_a_phone(
    hand: list[str], pile: list[str], immunity: bool, received: str | None, least: int
) -> None:
    """Shown at a phone's width, each card is at least ``least`` px wide (the old strip of six
    showed them 35 px wide) and the picture at most PICTURE_HEIGHT px tall."""
    png = spytrap_cards.panel_png(hand, pile, "Russian", immunity=immunity, received=received)
    width, height = Image.open(io.BytesIO(png)).size
    shown = min(1.0, PHONE_WIDTH / width)
    assert spytrap_cards.SLOT_W * shown >= least, (width, shown)
    assert height * shown <= PICTURE_HEIGHT, (width, height)


@pytest.mark.parametrize("hand", [[], ["FAM1"], ["FAM1", "FGE1", "FRU1"]])
def test_beside_one_row_of_cards_the_id_cards_lie_side_by_side(hand: list[str]) -> None:
    """A spy out of the game (no hand) or holding one row of cards keeps their ID card and Immunity:
    side by side, the picture is one card tall. Stacked, it was two cards tall for nothing, and the
    panel of a spy out of the game measured 568–590 px at 360 px (over the 560 of issue 33)."""
    png = spytrap_cards.panel_png(hand, [], "Russian", immunity=True)
    height = Image.open(io.BytesIO(png)).size[1]
    assert height < 2 * spytrap_cards.SLOT_H, height
