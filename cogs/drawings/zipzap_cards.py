"""Zip Zap's card faces, a seat's hand and the pile's top cards as pictures with alt text.

Each suit has a colour, a letter (R G B Y, W for wild) and a shape (circle, triangle, square,
diamond, star), so red 4 and green 4 differ for everyone. The Zap card is black with a bolt and
says ZAP. Pure functions of card codes (rules/zipzap/cards.py) and the typed view.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from PIL import Image

from cogs.drawings.cards import (
    BACKGROUND,
    CARD_W,
    GAP,
    PAD,
    RGB,
    Face,
    Picture,
    encode,
    fit_alt,
    hand_canvas,
    row_image,
)
from cogs.texts import N_, Texts, join
from rules.zipzap.cards import is_zap, number_of, suit_of
from rules.zipzap.views import ZipZapView

T = Texts(__name__)

# A number card's name by suit, "red 4" (the number filled in); a suit's own name, "red".
CARD_NAMES = {
    # Translators: a Zip Zap card, a suit colour and its number ("red 4").
    "R": N_("red {number}"),
    "G": N_("green {number}"),
    "B": N_("blue {number}"),
    "Y": N_("yellow {number}"),
    # Translators: a Zip Zap wild card (any colour follows it) and its number ("wild 7").
    "W": N_("wild {number}"),
}
SUIT_NAMES = {
    # Translators: a Zip Zap suit, as in "suits out of the game: red, green".
    "R": N_("red"),
    "G": N_("green"),
    "B": N_("blue"),
    "Y": N_("yellow"),
}

# meaning -> (fill, ink, letter, shape). Okabe & Ito's colour-blind-safe hues, checked under
# simulated colour blindness in tests/drawings/test_colour_vision.py.
SUITS: dict[str, tuple[RGB, RGB, str, str]] = {
    "R": ((213, 94, 0), (255, 255, 255), "R", "circle"),
    "G": ((0, 158, 115), (0, 0, 0), "G", "triangle"),
    "B": ((0, 90, 160), (255, 255, 255), "B", "square"),
    "Y": ((240, 228, 66), (0, 0, 0), "Y", "diamond"),
    "W": ((250, 250, 250), (0, 0, 0), "W", "star"),
    "Z": ((25, 25, 25), (240, 228, 66), "Z", "bolt"),
}
PILE_SHOWN = 4  # the top card and the three under it: enough to see the run
# A hand is drawn seven cards wide however many it holds (eight past fourteen), so it is shown at
# one scale: a client fits a picture to the message's width, and 8 cards in two rows of 4 came
# out twice as tall as 13 cards in rows of 7, pushing a phone's buttons off the screen (issue 33).
HAND_COLUMNS = 7


def card_name(code: str) -> str:
    """A card in running text, in the language being drawn: "red 4", "wild 7", "Zap card"."""
    if is_zap(code):
        # Translators: each player's own special card in Zip Zap.
        return T.gettext("Zap card")
    return T.gettext(CARD_NAMES[suit_of(code)], number=number_of(code))


def suit_name(suit: str) -> str:
    """A solid suit's name ("R": "red")."""
    return T.gettext(SUIT_NAMES[suit])


def face(code: str) -> Face:
    """The face of a card code ("R4", "W10", "Z2")."""
    if is_zap(code):
        fill, ink, letter, shape = SUITS["Z"]
        return Face(fill, ink, letter, "ZAP", shape)
    fill, ink, letter, shape = SUITS[suit_of(code)]
    number = str(number_of(code))
    stripes = tuple(SUITS[s][0] for s in "RGBY") if suit_of(code) == "W" else ()
    # A wild card's bands would swallow the number: its number sits on a white badge instead.
    return Face(fill, ink, f"{letter}{number}", number, shape, stripes=stripes)


def _marks(cards: Sequence[str], playable: Collection[str] | None) -> list[bool | None]:
    return [None if playable is None else card in playable for card in cards]


def hand_png(cards: Sequence[str], playable: Collection[str] | None = None) -> bytes:
    """The hand in the order given; ``playable`` the codes that may be played now (None: not your
    turn, no marks). The Zap card is playable when "Z" or its own code is listed."""
    marks = _marks(cards, _with_zap(cards, playable))
    columns = HAND_COLUMNS if len(cards) <= 2 * HAND_COLUMNS else HAND_COLUMNS + 1
    drawn = hand_canvas([face(c) for c in cards], marks, per_row=columns)
    return encode(_widened(drawn, 2 * PAD + columns * CARD_W + (columns - 1) * GAP))


def _widened(image: Image.Image, width: int) -> Image.Image:
    """The picture centred on a background ``width`` pixels wide (unchanged if it is as wide).
    Before encoding: a hand encoded, decoded and widened was encoded twice, which is most of its
    drawing's time (bench part 2: a click waits on its hand's drawing)."""
    if image.width >= width:
        return image
    canvas = Image.new("RGB", (width, image.height), BACKGROUND)
    canvas.paste(image, ((width - image.width) // 2, 0))
    return canvas


def _with_zap(cards: Sequence[str], playable: Collection[str] | None) -> Collection[str] | None:
    # Legal actions write the Zap card as "Z" (and "R4+Z" for play-and-Zap).
    if playable is None:
        return None
    names = {p.split("+")[0] for p in playable} | (
        {"Z"} if any(p.endswith("+Z") for p in playable) else set()
    )
    return names | {c for c in cards if is_zap(c) and "Z" in names}


def hand_alt(cards: Sequence[str], playable: Collection[str] | None = None) -> str:
    """ "Your hand, 7 cards: red 4 (playable), green 9, … ." """
    marked = _with_zap(cards, playable)
    items = [
        T.gettext("{card} (playable)", card=card_name(c))
        if marked is not None and c in marked
        else card_name(c)
        for c in cards
    ]
    if not cards:
        return T.gettext("Your hand is empty.")
    note = ""
    if marked is not None and not any(c in marked for c in cards):
        note = T.gettext("No card can be played now.")
    head = T.ngettext("Your hand, {n} card: ", "Your hand, {n} cards: ", len(cards))
    return fit_alt(head, items, tail=note)


def hand_picture(cards: Sequence[str], playable: Collection[str] | None = None) -> Picture:
    return Picture(hand_png(cards, playable), hand_alt(cards, playable))


def _pile(view: ZipZapView) -> list[str]:
    return list(view["played"][-PILE_SHOWN:])


def table_png(view: ZipZapView, top_label: str = "top") -> bytes:
    """The top of the pile: up to four cards, oldest left, the top card last and labelled
    ``top_label`` (made in the table's language before the drawing goes to a worker process:
    ``top_word``)."""
    pile = _pile(view)
    labels = [""] * (len(pile) - 1) + [top_label] if pile else []
    return row_image([face(c) for c in pile], labels=labels)


def top_word() -> str:
    """The label under the top card of the pile's picture."""
    # Translators: drawn under the card on top of the pile, in small letters.
    return T.pgettext("picture", "top")


def table_alt(view: ZipZapView) -> str:
    pile = _pile(view)
    if not pile:
        return T.gettext("The pile is empty: no card has been played this round.")
    top = T.gettext("Top of the pile: {card}.", card=card_name(pile[-1]))
    if view["top"] is None or pile[-1] != view["top"]:
        top = T.gettext("Last card played: {card}.", card=card_name(pile[-1]))
    under = [card_name(c) for c in reversed(pile[:-1])]
    more = len(view["played"]) - len(pile)
    text = top + (" " + T.gettext("Under it: {cards}.", cards=join(under, style="unit")) if under else "")
    return text + (" " + T.ngettext("{n} more below.", "{n} more below.", more) if more > 0 else "")


def table_picture(view: ZipZapView) -> Picture:
    return Picture(table_png(view), table_alt(view))


def top_png(view: ZipZapView) -> bytes:
    """The top card alone, small enough for a Thumbnail beside the table's text."""
    return row_image([face(view["top"])] if view["top"] else [])


def top_alt(view: ZipZapView) -> str:
    if view["top"] is None:
        return T.gettext("No card on the pile yet.")
    return T.gettext("Top of the pile: {card}.", card=card_name(view["top"]))


def top_picture(view: ZipZapView) -> Picture:
    return Picture(top_png(view), top_alt(view))


def palette() -> dict[str, tuple[RGB, str, str]]:
    """For the colour-vision test: each meaning's colour, letter and shape, by suit letter."""
    return {k: (fill, letter, shape) for k, (fill, _, letter, shape) in SUITS.items()}


def symbol_lines(options: Any) -> list[str]:
    """The quick start's "What you see" (cogs/symbols.py): how a hand marks its playable cards."""
    return [
        T.gettext(
            "**Raised card with a thick outline and a notch:** you can play it now. "
            "**Faded and hatched (striped):** you can't."
        )
    ]
