"""Spy Trap's card faces (Files of six countries, Evil Agents, Trap Is Sprung) and identity cards, a
seat's hand, the round's drawn cards and a seat's own identity, as pictures with alt text.

A country has a colour, a two-letter code (AM FR GE IT RU SP) and a shape; an Evil Agent says EA
with a mask, a Trap TR with a cross, so no card differs from another by colour alone. Pure functions
of card codes (rules/spytrap/cards.py) and the typed view.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image

from cogs.drawings.cards import (
    CARD_H,
    CARD_W,
    PAD,
    RGB,
    Face,
    Picture,
    draw_face,
    encode,
    fit_alt,
    hand_image,
    row_image,
)
from rules.spytrap.cards import CODE_OF, COUNTRY_CODES, card_name, card_type
from rules.spytrap.views import HomeFile, SpyTrapView

# Country -> (fill, shape). Colours at least ΔE 30 apart under every simulated colour blindness
# (tests/drawings/test_colour_vision.py); Evil Agent black and Trap white complete the set.
COUNTRIES: dict[str, tuple[RGB, str]] = {
    "American": ((0, 153, 153), "star"),
    "French": ((204, 153, 255), "diamond"),
    "German": ((102, 51, 0), "square"),
    "Italian": ((102, 255, 153), "circle"),
    "Russian": ((153, 0, 204), "triangle"),
    "Spanish": ((255, 102, 0), "hexagon"),
}
AGENT: tuple[RGB, RGB, str] = ((0, 0, 0), (255, 255, 255), "moon")
TRAP: tuple[RGB, RGB, str] = ((255, 255, 255), (0, 0, 0), "cross")
IMMUNITY: tuple[RGB, RGB, str] = ((255, 204, 0), (0, 0, 0), "ring")


def _ink(fill: RGB) -> RGB:
    light = 0.2126 * fill[0] + 0.7152 * fill[1] + 0.0722 * fill[2]
    return (0, 0, 0) if light > 120 else (255, 255, 255)


def face(card: str) -> Face:
    """The face of a card code ("FAM3", "EA2", "TR7"). A File shows its country code and number."""
    kind = card_type(card)
    if kind == "agent":
        fill, ink, shape = AGENT
        return Face(fill, ink, "EA", "", shape, caption="Evil Agent")
    if kind == "trap":
        fill, ink, shape = TRAP
        return Face(fill, ink, "TR", "", shape, caption="Trap!")
    country = COUNTRY_CODES[card[1:3]]
    fill, shape = COUNTRIES[country]
    return Face(fill, _ink(fill), card[1:3], "", shape, caption=f"{country} File")


def identity_face(country: str) -> Face:
    """An identity (ID) card: the country, its code and shape on a card marked ID."""
    fill, shape = COUNTRIES[country]
    return Face(fill, _ink(fill), f"ID {CODE_OF[country]}", "", shape, caption=f"{country} spy")


def hand_png(cards: Sequence[str], playable: Collection[str] | None = None) -> bytes:
    """The hand in the order given; ``playable`` the cards that may go on the pile now (None: no marks)."""
    marks = [None if playable is None else c in playable for c in cards]
    return hand_image([face(c) for c in cards], marks)


def hand_alt(cards: Sequence[str], playable: Collection[str] | None = None) -> str:
    if not cards:
        return "Your hand is empty."
    items = [card_name(c) + (" (can play)" if playable is not None and c in playable else "") for c in cards]
    count = f"{len(cards)} card" + ("" if len(cards) == 1 else "s")
    return fit_alt(f"Your hand, {count}: ", items)


def hand_picture(cards: Sequence[str], playable: Collection[str] | None = None) -> Picture:
    return Picture(hand_png(cards, playable), hand_alt(cards, playable))


def table_png(view: SpyTrapView) -> bytes:
    """This round's drawn cards, face up in the order drawn, each labelled with whose pile it came
    from ("seat 2"; the cog's text gives the names)."""
    drawn = view["drawn"]
    return row_image([face(d["card"]) for d in drawn], labels=[f"seat {d['pile'] + 1}" for d in drawn])


def table_alt(view: SpyTrapView) -> str:
    drawn = view["drawn"]
    if not drawn:
        return "No cards drawn yet this round."
    items = [f"{card_name(d['card'])} from seat {d['pile'] + 1}'s pile" for d in drawn]
    count = f"{len(drawn)} card" + ("" if len(drawn) == 1 else "s")
    return fit_alt(f"Drawn this round, {count}: ", items)


def table_picture(view: SpyTrapView) -> Picture:
    return Picture(table_png(view), table_alt(view))


FROM_WORDS = {"opponent": "drawn", "own": "own pile", "stolen": "stolen"}


def files_png(home: Sequence[HomeFile]) -> bytes:
    """A seat's home area: its Files face up, each labelled how it came (drawn from another spy's
    pile, from its own pile, or stolen), since only drawn and stolen Files count toward a win."""
    return row_image([face(f["card"]) for f in home], labels=[FROM_WORDS.get(f["from"], "") for f in home])


def files_alt(home: Sequence[HomeFile]) -> str:
    if not home:
        return "No Files in this home area yet."
    items = [f"{card_name(f['card'])} ({FROM_WORDS.get(f['from'], f['from'])})" for f in home]
    count = f"{len(home)} File" + ("" if len(home) == 1 else "s")
    return fit_alt(f"Home area, {count}: ", items)


def files_picture(home: Sequence[HomeFile]) -> Picture:
    return Picture(files_png(home), files_alt(home))


def identity_png(country: str, *, immunity: bool = False) -> bytes:
    """A seat's own identity card, and beside it the Immunity card while they still hold it."""
    width = 2 * PAD + CARD_W * (2 if immunity else 1) + (8 if immunity else 0)
    image = Image.new("RGB", (width, 2 * PAD + CARD_H), (38, 92, 62))
    draw_face(image, PAD, PAD, identity_face(country))
    if immunity:
        fill, ink, shape = IMMUNITY
        draw_face(image, PAD + CARD_W + 8, PAD, Face(fill, ink, "IM", "", shape, caption="Immunity"))
    return encode(image)


def identity_alt(country: str, *, immunity: bool = False) -> str:
    text = f"Your secret identity: {country} spy."
    return text + (" You still hold your Immunity card." if immunity else "")


def identity_picture(country: str, *, immunity: bool = False) -> Picture:
    return Picture(identity_png(country, immunity=immunity), identity_alt(country, immunity=immunity))


def palette() -> dict[str, tuple[RGB, str, str]]:
    """For the colour-vision test: each meaning's colour, letters and shape."""
    out = {name: (fill, CODE_OF[name], shape) for name, (fill, shape) in COUNTRIES.items()}
    return out | {
        "Evil Agent": (AGENT[0], "EA", AGENT[2]),
        "Trap Is Sprung": (TRAP[0], "TR", TRAP[2]),
        "Immunity": (IMMUNITY[0], "IM", IMMUNITY[2]),
    }


PILE_PLACES = ("top", "middle", "bottom")


def pile_png(cards: Sequence[str]) -> bytes:
    """A seat's own pile, which the others see face down: its cards top first, each labelled with
    its place, since the order decides which card a drawer takes first."""
    labels = [PILE_PLACES[i] if len(cards) == 3 else f"#{i + 1}" for i in range(len(cards))]
    return row_image([face(c) for c in cards], labels=labels)


def pile_alt(cards: Sequence[str]) -> str:
    if not cards:
        return "Your pile is empty."
    count = f"{len(cards)} card" + ("" if len(cards) == 1 else "s")
    return fit_alt(f"Your pile, face down to the others, {count}, top first: ", [card_name(c) for c in cards])
