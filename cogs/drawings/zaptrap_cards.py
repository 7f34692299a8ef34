"""Zap or Trap's card faces (our own aliens, the doubles and the specials; the kemps preset's plain
cards), a seat's hand and the four face-up table cards, as pictures with alt text.

A species has a colour, a body shape, a number of eyes and its number and initial in the corner
("3 M" is species 3, the Mookah; a double says "3+4"), so two species never differ by colour alone.
Pure functions of card codes (rules/zaptrap/cards.py) and the typed view.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from functools import cache

from PIL import Image, ImageDraw

from cogs.drawings.cards import (
    BACKGROUND,
    PAD,
    RGB,
    Art,
    Face,
    Picture,
    draw_shape,
    encode,
    fit_alt,
    hand_canvas,
    row_canvas,
)
from cogs.drawings.zaptrap_words import ALIENS, card_name, species_name, suit_name
from cogs.texts import N_, Texts
from rules.zaptrap.cards import special_kind, species_shown
from rules.zaptrap.views import ZapTrapView

T = Texts(__name__)
# The line between the hand and the face-up cards on a panel's one picture.
DIVIDER: RGB = (90, 130, 100)
# The combined picture's margins cut away (hand_and_table_png), keeping a few pixels round what
# is drawn: from the top of each half and the foot of the face-up row (a raised card's frame starts
# 4 px above the card), and from the hand's foot (PAD, and 16 px under the cards of which the
# playable notch takes 14); SPLIT is the gap left between the halves for the divider.
TRIM = PAD - 6
HAND_FOOT = PAD + 12
SPLIT = 8

# Species 1..13: colours picked to stay at least ΔE 19 apart under every simulated colour blindness
# (a farthest-point search over the sRGB cube; tests/drawings/test_colour_vision.py checks them).
SPECIES_COLOURS: tuple[RGB, ...] = (
    (255, 255, 255),
    (0, 0, 0),
    (255, 102, 0),
    (153, 0, 204),
    (0, 153, 153),
    (102, 255, 153),
    (204, 153, 255),
    (102, 51, 0),
    (0, 51, 102),
    (0, 0, 255),
    (255, 204, 0),
    (153, 102, 51),
    (153, 204, 204),
)
SPECIES_SHAPES = (
    "circle", "triangle", "square", "diamond", "hexagon", "pentagon", "octagon",
    "star", "star4", "heart", "moon", "drop", "down",
)  # fmt: skip
# The specials: fill, ink, corner letters, shape, caption (translated where drawn).
# Their colours continue the same search, so they stay ΔE 22 from every species and each other.
SPECIAL_FACES: dict[str, tuple[RGB, RGB, str, str, str]] = {
    # Translators: the special cards' short names, drawn on the cards (a few letters fit).
    "XZZ": ((85, 68, 68), (255, 204, 0), "ZZ", "bolt", N_("Zip Zap")),
    "XBF": ((136, 153, 119), (0, 0, 0), "BF", "ring", N_("Be Free")),
    "XDM": ((68, 0, 136), (255, 255, 255), "DM", "cross", N_("Mission")),
}
# The kemps preset: plain cards, ranks and suits. Suit letter and shape carry the suit.
KEMPS_SUITS: tuple[tuple[str, str, RGB], ...] = (
    ("S", "triangle", (20, 20, 20)),
    ("H", "heart", (200, 0, 0)),
    ("D", "diamond", (200, 0, 0)),
    ("C", "plus", (20, 20, 20)),
    ("5", "circle", (0, 51, 102)),
    ("6", "square", (0, 51, 102)),
    ("7", "star", (0, 51, 102)),
    ("8", "hexagon", (0, 51, 102)),
)
RANK_MARKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _ink(fill: RGB) -> RGB:
    # Black on light cards, white on dark ones (relative luminance, roughly).
    light = 0.2126 * fill[0] + 0.7152 * fill[1] + 0.0722 * fill[2]
    return (0, 0, 0) if light > 120 else (255, 255, 255)


def _alien(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, species: int, ink: RGB, fill: RGB
) -> None:
    """Our alien: a body in the species' shape, one to three eyes and two feelers."""
    draw.line([(cx - r * 0.4, cy - r * 0.6), (cx - r * 0.7, cy - r * 1.35)], fill=ink, width=2)
    draw.line([(cx + r * 0.4, cy - r * 0.6), (cx + r * 0.7, cy - r * 1.35)], fill=ink, width=2)
    for fx in (-0.7, 0.7):
        draw.ellipse([cx + fx * r - 3, cy - r * 1.35 - 3, cx + fx * r + 3, cy - r * 1.35 + 3], fill=ink)
    draw_shape(draw, SPECIES_SHAPES[(species - 1) % len(SPECIES_SHAPES)], cx, cy, r, ink)
    eyes = (species - 1) % 3 + 1
    e = max(2.5, r * 0.2)
    for i in range(eyes):
        ex = cx + (i - (eyes - 1) / 2) * e * 2.6
        draw.ellipse([ex - e, cy - e - r * 0.1, ex + e, cy + e - r * 0.1], fill=fill)
        draw.ellipse([ex - e / 2, cy - e / 2 - r * 0.1, ex + e / 2, cy + e / 2 - r * 0.1], fill=ink)


def _mark(species: int) -> str:
    """The corner mark: number and initial, spaced so that Oozel's "12 O" never reads as 120."""
    return f"{species} {species_name(species)[:1]}"


def _species_colour(species: int) -> RGB:
    return SPECIES_COLOURS[(species - 1) % len(SPECIES_COLOURS)]


@cache  # one closure per species: faces with it are then equal keys of the drawn faces' cache
def _single_art(species: int) -> Art:
    def art(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], face: Face) -> None:
        x0, y0, x1, _ = box
        _alien(draw, (x0 + x1) / 2, y0 + 32, 17, species, face.ink, face.fill)

    return art


@cache
def _double_art(low: int, high: int) -> Art:
    def art(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], face: Face) -> None:
        x0, y0, x1, y1 = box
        mid = (x0 + x1) // 2
        other = _species_colour(high)
        draw.rectangle([mid, y0, x1, y1], fill=other, outline=(0, 0, 0))
        draw.line([mid, y0, mid, y1], fill=(0, 0, 0), width=2)
        cy = (y0 + y1) / 2 + 6
        _alien(draw, (x0 + mid) / 2, cy, 11, low, face.ink, face.fill)
        _alien(draw, (mid + x1) / 2, cy, 11, high, _ink(other), other)

    return art


def face(code: str, preset: str = "zaptrap", species_count: int = 10, caption: str | None = None) -> Face:
    """The face of a card code ("3a", "D3", "XDM", or a kemps card "12b"); ``caption`` the words
    at its foot, made by the caller (``captions``) where the drawing may be done elsewhere, else
    in the language spoken now."""
    kind = special_kind(code)
    if kind is not None:
        fill, ink, letters, shape, special = SPECIAL_FACES[kind]
        return Face(fill, ink, letters, "", shape, caption=T.gettext(special) if caption is None else caption)
    shown = species_shown(code, species_count)
    if len(shown) == 2:
        low, high = shown
        fill = _species_colour(low)
        corner = f"{low}+{high}"
        art = _double_art(low, high)
        return Face(fill, _ink(fill), corner, "", "circle", art=art)
    species = shown[0]
    if preset == "kemps":
        copy = "abcdefgh".index(code[-1])
        letter, shape, ink = KEMPS_SUITS[copy % len(KEMPS_SUITS)]
        rank = RANK_MARKS[species - 1]
        # Suits past the fourth (more copies than a pack has suits) are numbered: "7/5".
        corner = f"{rank}{letter}" if letter.isalpha() else f"{rank}/{letter}"
        return Face((250, 250, 245), ink, corner, rank, shape)
    fill = _species_colour(species)
    name = species_name(species) if caption is None else caption
    return Face(fill, _ink(fill), _mark(species), "", "circle", caption=name, art=_single_art(species))


def captions(cards: Sequence[str], preset: str = "zaptrap", species_count: int = 10) -> dict[str, str]:
    """The words drawn on these cards (a species' name, a special card's), in the language spoken
    now: made before a drawing is handed to a worker process, which does not know the language."""
    return {code: face(code, preset, species_count).caption for code in dict.fromkeys(cards)}


def _name(code: str, preset: str, species_count: int) -> str:
    return card_name(code, preset, species_count)


def hand_png(
    cards: Sequence[str],
    playable: Collection[str] | None = None,
    *,
    preset: str = "zaptrap",
    species: int = 10,
    words: Mapping[str, str] | None = None,
) -> bytes:
    """The hand in the order given; ``playable`` the cards that may be swapped now (None: no
    marks); ``words`` each card's caption (``captions``), else made in the language spoken now."""
    return encode(_hand(cards, playable, preset, species, words))


def _hand(
    cards: Sequence[str],
    playable: Collection[str] | None,
    preset: str,
    species: int,
    words: Mapping[str, str] | None,
) -> Image.Image:
    marks = [None if playable is None else c in playable for c in cards]
    said = words if words is not None else captions(cards, preset, species)
    return hand_canvas([face(c, preset, species, said.get(c)) for c in cards], marks)


def hand_alt(
    cards: Sequence[str],
    playable: Collection[str] | None = None,
    *,
    preset: str = "zaptrap",
    species: int = 10,
) -> str:
    if not cards:
        return T.gettext("Your hand is empty.")
    items = [
        T.gettext("{card} (can swap)", card=_name(c, preset, species))
        if playable is not None and c in playable
        else _name(c, preset, species)
        for c in cards
    ]
    return fit_alt(T.ngettext("Your hand, {n} card: ", "Your hand, {n} cards: ", len(cards)), items)


def hand_picture(
    cards: Sequence[str],
    playable: Collection[str] | None = None,
    *,
    preset: str = "zaptrap",
    species: int = 10,
) -> Picture:
    return Picture(
        hand_png(cards, playable, preset=preset, species=species),
        hand_alt(cards, playable, preset=preset, species=species),
    )


def face_up_png(
    cards: Sequence[str], preset: str, species: int, words: Mapping[str, str] | None = None
) -> bytes:
    """The face-up cards in a row: a pure function of what they are and the ``words`` on them
    (``captions``), for the picture cache (and a module-level one, so that a worker process can be
    sent it)."""
    return encode(_face_up(cards, preset, species, words))


def _face_up(cards: Sequence[str], preset: str, species: int, words: Mapping[str, str] | None) -> Image.Image:
    said = words if words is not None else captions(cards, preset, species)
    return row_canvas([face(c, preset, species, said.get(c)) for c in cards])


def hand_and_table_png(
    cards: Sequence[str],
    playable: Collection[str] | None,
    table: Sequence[str],
    *,
    preset: str,
    species: int,
    words: Mapping[str, str] | None = None,
) -> bytes:
    """The hand above the face-up cards, one picture on a panel (issue 33: two galleries took a
    phone screen's fifth; both halves of a swap in one glance), a faint line between them."""
    said = words if words is not None else captions([*cards, *table], preset, species)
    # Both halves drawn, not encoded: the whole is encoded once (an encoding is most of a drawing).
    drawn = _hand(cards, playable, preset, species, said)
    shown = _face_up(table, preset, species, said)
    # Each half without the margins that meet in the middle or edge the picture (a playable card's
    # frame and notch stay whole): a phone shows the picture full width, so every row of pixels
    # saved here is half a CSS px of the panel's height (issue 33).
    hand = drawn.crop((0, TRIM, drawn.width, drawn.height - HAND_FOOT))
    row = shown.crop((0, TRIM, shown.width, shown.height - TRIM))
    width = max(hand.width, row.width)
    middle = hand.height + SPLIT // 2
    image = Image.new("RGB", (width, hand.height + SPLIT + row.height), BACKGROUND)
    image.paste(hand, (0, 0))
    image.paste(row, (0, hand.height + SPLIT))
    ImageDraw.Draw(image).line([(PAD, middle), (width - PAD, middle)], fill=DIVIDER, width=2)
    return encode(image)


def hand_and_table_alt(cards: Sequence[str], playable: Collection[str] | None, view: ZapTrapView) -> str:
    """Both alt texts, the hand's first (a screen reader says what the picture shows in order)."""
    return hand_alt(cards, playable, preset=view["preset"], species=view["species"]) + " " + table_alt(view)


def table_png(view: ZapTrapView) -> bytes:
    """The four face-up cards in the middle of the table (an empty slot outside play)."""
    return face_up_png(view["table"], view["preset"], view["species"])


def table_alt(view: ZapTrapView) -> str:
    cards = view["table"]
    if not cards:
        return T.gettext("No cards face up on the table.")
    names = [_name(c, view["preset"], view["species"]) for c in cards]
    prefix = T.ngettext("Face up on the table, {n} card: ", "Face up on the table, {n} cards: ", len(cards))
    return fit_alt(prefix, names)


def table_picture(view: ZapTrapView) -> Picture:
    return Picture(table_png(view), table_alt(view))


def palette() -> dict[str, tuple[RGB, str, str]]:
    """For the colour-vision test: each species' colour, corner letters and shape."""
    out = {
        species_name(s): (_species_colour(s), _mark(s), SPECIES_SHAPES[s - 1])
        for s in range(1, len(ALIENS) + 1)
    }
    return out | {
        caption: (fill, letters, shape) for fill, _, letters, shape, caption in SPECIAL_FACES.values()
    }


def kemps_palette() -> dict[str, tuple[RGB, str, str]]:
    return {suit_name(i): (ink, letter, shape) for i, (letter, shape, ink) in enumerate(KEMPS_SUITS)}


__all__ = [
    "face",
    "hand_alt",
    "hand_and_table_alt",
    "hand_and_table_png",
    "hand_picture",
    "hand_png",
    "table_alt",
    "table_picture",
    "table_png",
]
