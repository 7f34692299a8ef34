"""Zip Zap's private panel fits one phone screen (issue 33): the hand is shown once (the picture,
its words in the alt text, never a list in the panel's text), and there is a control only for
what can be done now, in few rows: no disabled button per unplayable card.

Drawn straight from states set up here, through the real layout (``Drawing.layout``), as Discord
would receive them: no Discord and no database needed.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.drawings import zipzap_cards
from cogs.table.layout import Drawing, Picture
from cogs.table.model import SeatInfo, Table
from cogs.zipzap import GAME, LEAD_BUTTONS, ZipZapUI, card_label
from rules.zipzap import ZipZapState

LONG = "Maximiliana Evangelista-Papadopoulou"
# Fifteen cards: the most a hand holds here (a fixed deal), every solid 1–3 and more.
BIG_HAND = ["R1", "R2", "R3", "G1", "G2", "G3", "B1", "B2", "B3", "W1", "W2", "W3", "R9", "G9", "Z0"]


def _table(hand: list[str], *, top: str | None, control: int | None, top_seat: int | None = 1) -> Table:
    state = GAME.new_game(3, {"rounds": 1}, seed=5)
    assert isinstance(state, ZipZapState)
    state.hands = [list(hand), ["Y4", "Y5", "Z1"], ["Y6", "Y7", "Z2"]]
    state.top, state.top_seat, state.control = top, top_seat, control
    state.played = [top] if top else []
    table = Table(1, 1, 2, GAME, 100, {"seats": 3, "rules": {"rounds": 1}}, "relaxed", 5, status="playing")
    table.seats = [SeatInfo(0, 100, LONG), SeatInfo(1, 101, LONG + " II"), SeatInfo(2, 102, "Bo")]
    table.state, table.version = state, 7
    return table


def _state(table: Table) -> ZipZapState:
    assert isinstance(table.state, ZipZapState)
    return table.state


def _drawn(table: Table) -> tuple[Drawing, list[Picture]]:
    ui = ZipZapUI()
    embed, items = ui.panel(table, 0, None)
    pictures = [Picture(s.filename, b"", s.alt, small=s.small) for s in ui.panel_sketches(table, 0)]
    return Drawing(embed, items, pictures), pictures


def _controls(drawing: Drawing) -> list[list[dict[str, Any]]]:
    container = drawing.layout.components[0]
    return [row["components"] for row in container["components"] if row["type"] == 1]


def test_following_offers_only_the_playable_cards_each_with_its_play_and_zap() -> None:
    # On the blue 1, the blue 2 and the wild 2 follow; nothing else of the fifteen.
    drawing, pictures = _drawn(_table(BIG_HAND, top="B1", control=None))
    rows = _controls(drawing)
    controls = [c for row in rows for c in row]
    assert not any(c.get("disabled") for c in controls), "a disabled button per unplayable card"
    labels = [c.get("label") for c in controls]
    assert labels == [
        card_label("B2"),
        f"{card_label('B2')} + ZAP!",
        card_label("W2"),
        f"{card_label('W2')} + ZAP!",
        "Refresh",
    ]
    assert len(rows) == 1
    # The hand once: in the picture's words, not as a list in the text.
    text = drawing.layout.text
    assert card_label("R9") not in text and "red 9" not in text
    assert "blue 2 (playable)" in pictures[0].alt and "red 9," in pictures[0].alt
    assert "Your hand, 15 cards" in pictures[0].alt
    # One status line under the title: the top card and who leads, nothing else.
    head = text.split("\n")
    assert head[0].startswith("## Your hand") and head[1].startswith("Top card: **🟦 blue 1**")


def test_leading_a_big_hand_is_one_select_of_every_card() -> None:
    table = _table(BIG_HAND, top="R10", control=0, top_seat=0)
    drawing, _ = _drawn(table)
    rows = _controls(drawing)
    assert len(rows) <= 2
    selects = [c for row in rows for c in row if c["type"] == 3]
    assert len(selects) == 1 and rows[0] == selects  # the move first, ZAP and Refresh under it
    values = [o["value"] for o in selects[0]["options"]]
    assert values == [c for c in _state(table).view(0)["hand"] if not c.startswith("Z")]
    assert sorted(values) == sorted(c for c in BIG_HAND if not c.startswith("Z"))
    assert selects[0]["custom_id"] == "gs:1:7:"  # the option's value is the action itself
    # The Zap over her own 10 is a move now too: a button beside it.
    assert [c.get("label") for row in rows for c in row if c["type"] == 2] == [card_label("Z0"), "Refresh"]
    assert "You have control" in drawing.layout.text


def test_leading_a_short_hand_is_one_row_of_buttons() -> None:
    hand = ["R1", "G5", "W7", "B9", "Z0"]
    table = _table(hand, top="Y5", control=0, top_seat=1)
    drawing, _ = _drawn(table)
    rows = _controls(drawing)
    labels = [c.get("label") for row in rows for c in row]
    shown = [c for c in _state(table).view(0)["hand"] if not c.startswith("Z")]
    assert labels == [card_label(c) for c in shown] + ["Refresh"]
    assert len(rows) == 1 and len(hand) - 1 <= LEAD_BUTTONS


def test_a_hand_with_nothing_to_play_has_only_refresh() -> None:
    drawing, pictures = _drawn(_table(BIG_HAND, top="Y7", control=None))
    assert [c.get("label") for row in _controls(drawing) for c in row] == ["Refresh"]
    assert "No card can be played now." in pictures[0].alt


def test_every_hand_picture_is_drawn_seven_cards_wide() -> None:
    """A client fits a picture to the message's width: drawn at one width, eight cards are no
    taller than thirteen (they were twice as tall, in two rows of four)."""
    import io

    from PIL import Image

    def size(n: int) -> tuple[int, int]:
        return Image.open(io.BytesIO(zipzap_cards.hand_png(BIG_HAND[:n], BIG_HAND[:2]))).size

    assert size(8) == size(13)
    assert size(2)[0] == size(13)[0] and size(2)[1] < size(13)[1]
    width, height = size(15)
    assert height == size(13)[1] and width > size(13)[0]


def test_the_panel_says_nothing_twice_with_long_names() -> None:
    drawing, _ = _drawn(_table(BIG_HAND, top="B1", control=1))
    text = drawing.layout.text
    assert text.count(LONG) == 1
    assert discord.utils.escape_markdown(LONG) in text or LONG in text
