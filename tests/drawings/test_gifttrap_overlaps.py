"""GiftTRAP's pictures never draw over their own words (issue 33): the token chips covered the
cards' upside-down "$$$ 2", the bow reached into the price in the corner, and the reveal's labels
were cut ("to Robo 1 (ca…"). Checked on the pixels: what covers a card is drawn, then compared
with the same picture without it."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import cast

import pytest
from PIL import Image, ImageChops, ImageDraw

from cogs.drawings import gifttrap_cards
from cogs.drawings.cards import BACKGROUND, CARD_H, CARD_W, PAD, draw_face, font
from rules.gifttrap.gifts import PRICES
from rules.gifttrap.views import LaidOutGift, RevealedGift

NAMES = ["Bakery cake", "Teddy bear", "Hot air balloon ride over the valley", "Socks", "Concert tickets"]


def layout() -> list[LaidOutGift]:
    return [
        {"space": i, "gift": f"g{i}", "name": name, "emoji": "", "tags": []}
        for i, name in enumerate(NAMES, 1)
    ]


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def same(a: Image.Image, b: Image.Image) -> bool:
    """Equal but for the PNG encoder's palette (a few steps per channel)."""
    difference = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    return difference.getbbox() is None


@pytest.mark.parametrize("pack", sorted(PRICES))
def test_token_chips_leave_every_card_as_it_was(pack: int) -> None:
    """Tokens on gifts 1, 2 and 5 (a seat's own placings in its panel): each card is drawn
    exactly as without them, but for its bottom edge, which the chip hangs from."""
    price = PRICES[pack]
    bare = image(gifttrap_cards.gifts_png(layout(), price))
    placed = image(gifttrap_cards.gifts_png(layout(), price, {"great": 1, "ok": 2, "noway": 5}))
    assert bare.size == placed.size
    for index in range(len(NAMES)):
        x = PAD + index * (CARD_W + 8)
        card = (x, PAD, x + CARD_W, PAD + CARD_H - 3)
        assert same(placed.crop(card), bare.crop(card)), f"a chip covers gift {index + 1}"
    assert not same(placed, bare)  # the chips are there, under the cards


@pytest.mark.parametrize("pack", sorted(PRICES))
def test_the_gift_drawing_keeps_off_both_corners(pack: int) -> None:
    """The box, bow and name drawn on a card change no pixel of its corner marks ("5 $$$$")."""
    gift = layout()[4]
    face = gifttrap_cards._gift_face(gift, PRICES[pack])
    with_art, without = (Image.new("RGB", (CARD_W + 2, CARD_H + 2)) for _ in range(2))
    draw_face(with_art, 0, 0, face)
    draw_face(without, 0, 0, replace(face, art=lambda *_: None))
    measure = ImageDraw.Draw(without)
    top = measure.textbbox((7, 5), face.corner, font=font(19), anchor="la")
    width = int(measure.textlength(face.corner, font=font(19))) + 4
    bottom = (CARD_W - 5 - width, CARD_H - 27, CARD_W - 5, CARD_H - 5)  # the upside-down one
    for box in (top, bottom):
        assert with_art.crop(box).tobytes() == without.crop(box).tobytes(), (face.corner, box)


def test_the_reveal_writes_whole_names_under_the_chips() -> None:
    names = ["alice", "Robo 1 (casual)", "Robo 2 (thoughtful)"]
    revealed = [
        cast(RevealedGift, {"space": i, "gift": f"g{i}", "name": n, "giver": i % 3, "receiver": (i + 1) % 3,
                            "token": "great", "trapped": False})
        for i, n in enumerate(NAMES[:4], 1)
    ]  # fmt: skip
    said = gifttrap_cards.picture_words(names)
    labels = [gifttrap_cards.reveal_labels(said, g, True) for g in revealed]
    column = gifttrap_cards.reveal_column(labels)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for line in (line for lines in labels for line in lines):
        assert measure.textlength(line, font=font(gifttrap_cards.LABEL_PX)) <= column, line
    assert "to Robo 2 (thoughtful)" in [line for lines in labels for line in lines]
    # Nothing is drawn over a card: the picture's cards are the bare faces.
    png = image(gifttrap_cards.reveal_png(revealed, "$$", names))
    alone = Image.new("RGB", (CARD_W, CARD_H), BACKGROUND)
    draw_face(alone, 0, 0, gifttrap_cards._gift_face({**layout()[0], "emoji": ""}, "$$"))
    card = (PAD, PAD, PAD + CARD_W, PAD + CARD_H - 3)
    assert same(png.crop(card), alone.crop((0, 0, CARD_W, CARD_H - 3)))
