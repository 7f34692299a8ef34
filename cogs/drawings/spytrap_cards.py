"""Spy Trap's card faces (Files of six countries, Evil Agents, Trap Is Sprung) and identity cards, a
seat's hand, the round's drawn cards and a seat's own identity, as pictures with alt text.

A country has a colour, a two-letter code (AM FR GE IT RU SP) and a shape; an Evil Agent says EA
with a mask, a Trap TR with a cross, so no card differs from another by colour alone. Pure functions
of card codes (rules/spytrap/cards.py) and the typed view.

Every word here (card names, the captions and labels drawn on the cards, the alt texts) is made in
the language being drawn (cogs.texts); a picture drawn in a worker process is given its language
(``lang``), since the worker does not share the caller's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager

from PIL import Image, ImageDraw

from cogs.drawings.cards import (
    BACKGROUND,
    CARD_H,
    CARD_W,
    OUTLINE,
    PAD,
    PLAYABLE_EDGE,
    RGB,
    Face,
    Picture,
    draw_face,
    draw_shape,
    empty_word,
    encode,
    fit_alt,
    fit_text,
    hand_image,
    row_image,
)
from cogs.drawings.lettering import font
from cogs.texts import N_, Texts, speaking
from rules.spytrap.cards import CODE_OF, COUNTRY_CODES, card_type, country_of
from rules.spytrap.views import HomeFile, SpyTrapView

T = Texts(__name__)

# Translators: a country as the game names a spy's identity ("is not French", "the French spy").
COUNTRY_NAMES = {
    # Translators: a spy's identity; the countries are the game's six (American … Spanish).
    "American": N_("American"),
    "French": N_("French"),
    "German": N_("German"),
    "Italian": N_("Italian"),
    "Russian": N_("Russian"),
    "Spanish": N_("Spanish"),
}
# Translators: a File card of a country (the game's own term for its cards of secrets).
FILE_NAMES = {
    # Translators: a File is the game's own term for a card of secrets of one country.
    "American": N_("American File"),
    "French": N_("French File"),
    "German": N_("German File"),
    "Italian": N_("Italian File"),
    "Russian": N_("Russian File"),
    "Spanish": N_("Spanish File"),
}
# The same cards with the article a sentence puts before them ("draws an Italian File").
FILES_WITH_ARTICLE = {
    "American": N_("an American File"),
    "French": N_("a French File"),
    "German": N_("a German File"),
    "Italian": N_("an Italian File"),
    "Russian": N_("a Russian File"),
    "Spanish": N_("a Spanish File"),
}

# A File's country by its flag, and the other cards by their type, in a card's label in text.
FLAGS = {
    "American": "🇺🇸",
    "French": "🇫🇷",
    "German": "🇩🇪",
    "Italian": "🇮🇹",
    "Russian": "🇷🇺",
    "Spanish": "🇪🇸",
}
TYPE_EMOJI = {"agent": "🦹", "trap": "🪤"}


def country_name(country: str) -> str:
    """A country (an identity) in words: "French"."""
    label = COUNTRY_NAMES.get(country)
    return T.gettext(label) if label is not None else country


def card_name(card: str) -> str:
    """ "French File", "Evil Agent", "Trap Is Sprung"."""
    country = country_of(card)
    if country is not None:
        return T.gettext(FILE_NAMES[country])
    if card_type(card) == "agent":
        # Translators: the Evil Agent card, the game's own name for it.
        return T.gettext("Evil Agent")
    # Translators: the Trap Is Sprung card, the game's own name for it.
    return T.gettext("Trap Is Sprung")


def card_with_article(card: str) -> str:
    """ "an Italian File", "a French File", "an Evil Agent", "a Trap Is Sprung"."""
    country = country_of(card)
    if country is not None:
        return T.gettext(FILES_WITH_ARTICLE[country])
    if card_type(card) == "agent":
        return T.gettext("an Evil Agent")
    return T.gettext("a Trap Is Sprung")


def card_label(card: str) -> str:
    """A card as the table, the panel and their buttons write it: "🇫🇷 French File", "🦹 Evil Agent"."""
    if card_type(card) == "file":
        country = country_of(card) or ""
        return f"{FLAGS.get(country, '📁')} {card_name(card)}"
    return f"{TYPE_EMOJI[card_type(card)]} {card_name(card)}"


def seat_label(seat: int) -> str:
    """A seat by its number, as the pictures label whose pile a card came from ("seat 2")."""
    return T.pgettext("picture", "seat {number}", number=seat + 1)


@contextmanager
def _in(lang: str | None) -> Iterator[None]:
    """Draw in ``lang`` (a worker process's drawing), or in the language already set."""
    if lang is None:
        yield
        return
    with speaking(lang):
        yield


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
        # Translators: the Evil Agent card's name, printed small at the foot of the card.
        return Face(fill, ink, "EA", "", shape, caption=T.pgettext("card caption", "Evil Agent"))
    if kind == "trap":
        fill, ink, shape = TRAP
        # Translators: the Trap Is Sprung card, shortened to fit at the foot of the card.
        return Face(fill, ink, "TR", "", shape, caption=T.pgettext("card caption", "Trap!"))
    country = COUNTRY_CODES[card[1:3]]
    fill, shape = COUNTRIES[country]
    return Face(fill, _ink(fill), card[1:3], "", shape, caption=T.gettext(FILE_NAMES[country]))


def identity_face(country: str) -> Face:
    """An identity (ID) card: the country, its code and shape on a card marked ID."""
    fill, shape = COUNTRIES[country]
    # Translators: the caption of an identity card: the spy of that country.
    caption = T.pgettext("card caption", "{country} spy", country=country_name(country))
    return Face(fill, _ink(fill), f"ID {CODE_OF[country]}", "", shape, caption=caption)  # text: a card's code


def hand_png(
    cards: Sequence[str], playable: Collection[str] | None = None, *, lang: str | None = None
) -> bytes:
    """The hand in the order given; ``playable`` the cards that may go on the pile now (None: no marks)."""
    marks = [None if playable is None else c in playable for c in cards]
    with _in(lang):
        return hand_image([face(c) for c in cards], marks)


def hand_alt(cards: Sequence[str], playable: Collection[str] | None = None) -> str:
    if not cards:
        return T.gettext("Your hand is empty.")
    items = [
        T.gettext("{card} (can play)", card=card_name(c))
        if playable is not None and c in playable
        else card_name(c)
        for c in cards
    ]
    head = T.ngettext("Your hand, {n} card: ", "Your hand, {n} cards: ", len(cards))
    return fit_alt(head, items)


def hand_picture(cards: Sequence[str], playable: Collection[str] | None = None) -> Picture:
    return Picture(hand_png(cards, playable), hand_alt(cards, playable))


def table_png(view: SpyTrapView, *, lang: str | None = None) -> bytes:
    """This round's drawn cards, face up in the order drawn, each labelled with whose pile it came
    from ("seat 2"; the cog's text gives the names)."""
    drawn = view["drawn"]
    with _in(lang):
        return row_image([face(d["card"]) for d in drawn], labels=[seat_label(d["pile"]) for d in drawn])


def table_alt(view: SpyTrapView, owners: Sequence[str] | None = None) -> str:
    """``owners``: each seat's name (the table's); by default the seats by number ("seat 2")."""
    drawn = view["drawn"]
    if not drawn:
        return T.gettext("No cards drawn yet this round.")

    def owner(seat: int) -> str:
        return owners[seat] if owners is not None and 0 <= seat < len(owners) else seat_label(seat)

    items = [
        T.gettext("{card} from {owner}'s pile", card=card_name(d["card"]), owner=owner(d["pile"]))
        for d in drawn
    ]
    head = T.ngettext("Drawn this round, {n} card: ", "Drawn this round, {n} cards: ", len(drawn))
    return fit_alt(head, items)


def table_picture(view: SpyTrapView) -> Picture:
    return Picture(table_png(view), table_alt(view))


# How a File in a home area came there, as its label and its alt text say.
FROM_WORDS = {"opponent": N_("drawn"), "own": N_("own pile"), "stolen": N_("stolen")}


def _from_word(source: str) -> str:
    label = FROM_WORDS.get(source)
    return T.gettext(label) if label is not None else source


def files_png(home: Sequence[HomeFile], *, lang: str | None = None) -> bytes:
    """A seat's home area: its Files face up, each labelled how it came (drawn from another spy's
    pile, from its own pile, or stolen), since only drawn and stolen Files count toward a win."""
    with _in(lang):
        labels = [_from_word(f["from"]) if f["from"] in FROM_WORDS else "" for f in home]
        return row_image([face(f["card"]) for f in home], labels=labels)


def files_alt(home: Sequence[HomeFile], *, yours: bool = False) -> str:
    """``yours``: the alt of the viewer's own home area."""
    if not home:
        return T.gettext("No Files in this home area yet.")
    items = [T.gettext("{card} ({how})", card=card_name(f["card"]), how=_from_word(f["from"])) for f in home]
    if yours:
        head = T.ngettext("Your home area, {n} File: ", "Your home area, {n} Files: ", len(home))
    else:
        head = T.ngettext("Home area, {n} File: ", "Home area, {n} Files: ", len(home))
    return fit_alt(head, items)


def files_picture(home: Sequence[HomeFile]) -> Picture:
    return Picture(files_png(home), files_alt(home))


def identity_png(country: str, *, immunity: bool = False, lang: str | None = None) -> bytes:
    """A seat's own identity card, and beside it the Immunity card while they still hold it."""
    with _in(lang):
        return _identity_png(country, immunity=immunity)


def _identity_png(country: str, *, immunity: bool) -> bytes:
    width = 2 * PAD + CARD_W * (2 if immunity else 1) + (8 if immunity else 0)
    image = Image.new("RGB", (width, 2 * PAD + CARD_H), (38, 92, 62))
    draw_face(image, PAD, PAD, identity_face(country))
    if immunity:
        fill, ink, shape = IMMUNITY
        # Translators: the Immunity card's name, printed small at the foot of the card.
        caption = T.pgettext("card caption", "Immunity")
        draw_face(image, PAD + CARD_W + 8, PAD, Face(fill, ink, "IM", "", shape, caption=caption))
    return encode(image)


def identity_alt(country: str, *, immunity: bool = False) -> str:
    if immunity:
        return T.gettext(
            "Your secret identity: {country} spy. You still hold your Immunity card.",
            country=country_name(country),
        )
    return T.gettext("Your secret identity: {country} spy.", country=country_name(country))


def identity_picture(country: str, *, immunity: bool = False) -> Picture:
    return Picture(identity_png(country, immunity=immunity), identity_alt(country, immunity=immunity))


def palette() -> dict[str, tuple[RGB, str, str]]:
    """For the colour-vision test: each meaning's colour, letters and shape."""
    out = {name: (fill, CODE_OF[name], shape) for name, (fill, shape) in COUNTRIES.items()}
    return out | {
        "Evil Agent": (AGENT[0], "EA", AGENT[2]),  # text: a key of the colour-vision test
        "Trap Is Sprung": (TRAP[0], "TR", TRAP[2]),  # text: a key of the colour-vision test
        "Immunity": (IMMUNITY[0], "IM", IMMUNITY[2]),
    }


PILE_PLACES = (N_("top"), N_("middle"), N_("bottom"))


def pile_place(index: int, size: int) -> str:
    """A card's place in a pile: "top", "middle", "bottom" in a pile of 3, else "#2"."""
    if size == 3:
        return T.gettext(PILE_PLACES[index])
    return T.pgettext("pile place", "#{number}", number=index + 1)


def pile_png(cards: Sequence[str], *, lang: str | None = None) -> bytes:
    """A seat's own pile, which the others see face down: its cards top first, each labelled with
    its place, since the order decides which card a drawer takes first."""
    with _in(lang):
        labels = [pile_place(i, len(cards)) for i in range(len(cards))]
        return row_image([face(c) for c in cards], labels=labels)


def pile_alt(cards: Sequence[str], *, so_far: bool = False) -> str:
    """``so_far``: the pile being built, the cards picked so far."""
    if not cards:
        return T.gettext("Your pile is empty.")
    names = [card_name(c) for c in cards]
    if so_far:
        head = T.ngettext(
            "Your new pile so far, face down to the others, {n} card, top first: ",
            "Your new pile so far, face down to the others, {n} cards, top first: ",
            len(cards),
        )
    else:
        head = T.ngettext(
            "Your pile, face down to the others, {n} card, top first: ",
            "Your pile, face down to the others, {n} cards, top first: ",
            len(cards),
        )
    return fit_alt(head, names)


# ---------------------------------------------------------------------------------------------
# The panel's one picture: hand, pile, identity and Immunity together (issue 33: one phone screen)
#
# A phone shows a panel's picture about 227 CSS px wide. The standard cards (84 px wide) in one
# strip of six came out 35 px wide there, their names unreadable. This picture is drawn at twice
# the size it is shown on a phone (crisp on its 2x screen), in two rows: the hand and the pile in
# three columns, the identity cards in a column beside them, so each card shows about 48 px wide
# with its code, shape and short name (a country, "Evil Agent") lettered large enough to read.

SLOT_W, SLOT_H = 100, 124  # one compact card, in picture pixels
SLOT_GAP = 12  # between cards, room for a playable card's frame
BLOCK_GAP = 28  # between the hand-and-pile block and the identity cards
SLOT_PAD = 12
HAND_COLUMNS = 3
NAME_PX = (22, 20, 18)  # the name's sizes, tried in turn until it fits in two lines


def _name_lines(draw: ImageDraw.ImageDraw, name: str, width: int) -> tuple[list[str], int]:
    """``name`` in at most two lines of ``width`` pixels, at the largest size of NAME_PX that holds
    it; a name too long even then is cut with an ellipsis on its second line."""
    words = name.split()
    for px in NAME_PX:
        lines: list[str] = []
        for word in words:
            line = f"{lines[-1]} {word}" if lines else word
            if lines and draw.textlength(line, font=font(px)) <= width:
                lines[-1] = line
            else:
                lines.append(word)
        if len(lines) <= 2 and all(draw.textlength(t, font=font(px)) <= width for t in lines):
            return lines, px
    px = NAME_PX[-1]
    first = fit_text(draw, words[0] if words else "", width, px)
    rest = " ".join(words[1:])
    return ([first, fit_text(draw, rest, width, px)] if rest else [first]), px


def _slot(image: Image.Image, x: int, y: int, face: Face, name: str, *, banner: str = "",
          playable: bool = False) -> None:  # fmt: skip
    """One compact card at (x, y): its code in the corner, its shape (or a ``banner`` naming its
    place: "top", "received"), its name under; ``playable`` frames it as the hand's marks do."""
    draw = ImageDraw.Draw(image)
    box = (x, y, x + SLOT_W - 1, y + SLOT_H - 1)
    draw.rounded_rectangle(box, radius=12, fill=face.fill, outline=OUTLINE, width=3)
    draw.text((x + 8, y + 5), face.corner, fill=face.ink, font=font(28), anchor="la")
    cx = x + SLOT_W / 2
    if banner:
        text = fit_text(draw, banner, SLOT_W - 18, 20)
        half = draw.textlength(text, font=font(20)) / 2 + 7
        draw.rounded_rectangle([cx - half, y + 37, cx + half, y + 65], radius=8, fill=(20, 20, 20),
                               outline=(255, 255, 255), width=2)  # fmt: skip
        draw.text((cx, y + 51), text, fill=(255, 255, 255), font=font(20), anchor="mm")
    else:
        draw_shape(draw, face.shape, cx, y + 51, 13, face.ink)
    lines, px = _name_lines(draw, name, SLOT_W - 10)
    bottom = y + SLOT_H - 8
    for i, line in enumerate(reversed(lines)):
        draw.text((cx, bottom - i * (px + 2)), line, fill=face.ink, font=font(px), anchor="md")
    if playable:
        draw.rounded_rectangle([x - 5, y - 5, x + SLOT_W + 4, y + SLOT_H + 4], radius=15,
                               outline=PLAYABLE_EDGE, width=5)  # fmt: skip


def short_name(card: str) -> str:
    """A card's name as the panel's compact card letters it: a File by its country ("American"),
    the others by their caption ("Evil Agent", "Trap!")."""
    country = country_of(card)
    return country_name(country) if country is not None else face(card).caption


def panel_png(
    hand: Sequence[str],
    pile: Sequence[str],
    identity: str,
    *,
    immunity: bool,
    received: str | None = None,
    playable: Collection[str] | None = None,
    pile_size: int | None = None,
    lang: str | None = None,
) -> bytes:
    """The panel's one picture. Left, in three columns: the hand (``playable`` cards framed: the
    ones that may go on the pile now), then the pile top first, each with its place on a banner
    (while it is built, the cards picked so far, of a pile of ``pile_size``). Right: the identity
    card, Immunity while held, and an ID card just received."""
    with _in(lang):
        return _panel_png(hand, pile, identity, immunity, received, playable, pile_size or len(pile))


def _panel_png(
    hand: Sequence[str],
    pile: Sequence[str],
    identity: str,
    immunity: bool,
    received: str | None,
    playable: Collection[str] | None,
    pile_size: int,
) -> bytes:
    mine = [*hand, *pile]
    columns = min(HAND_COLUMNS, max(1, len(mine)))
    rows = max(1, -(-len(mine) // HAND_COLUMNS))
    # An identity card says ID in its corner: its name is the country alone, to fit.
    ids: list[tuple[Face, str, str]] = [(identity_face(identity), country_name(identity), "")]
    if immunity:
        fill, ink, shape = IMMUNITY
        caption = T.pgettext("card caption", "Immunity")
        ids.append((Face(fill, ink, "IM", "", shape, caption=caption), caption, ""))
    if received:
        # Translators: a banner on an identity card a spy has just received (they keep one of two).
        word = T.pgettext("picture", "received")
        ids.append((identity_face(received), country_name(received), word))
    # Stacked two high beside a hand of two rows or more; beside one row (or none: a spy out of the
    # game) side by side, or the picture is twice as tall as it needs to be on a phone (issue 33).
    id_rows = max(1, min(2, len(ids), rows if mine else 1))
    id_columns = -(-len(ids) // id_rows)
    rows = max(rows, id_rows)
    left = columns * SLOT_W + (columns - 1) * SLOT_GAP
    width = 2 * SLOT_PAD + left + BLOCK_GAP + id_columns * SLOT_W + (id_columns - 1) * SLOT_GAP
    height = 2 * SLOT_PAD + rows * SLOT_H + (rows - 1) * SLOT_GAP
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    if not mine:
        draw.rounded_rectangle([SLOT_PAD, SLOT_PAD, SLOT_PAD + SLOT_W - 1, SLOT_PAD + SLOT_H - 1], radius=12,
                               outline=(200, 220, 200), width=3)  # fmt: skip
        draw.text((SLOT_PAD + SLOT_W / 2, SLOT_PAD + SLOT_H / 2), empty_word(), fill=(220, 235, 220),
                  font=font(22), anchor="mm")  # fmt: skip
    for index, card in enumerate(mine):
        row, column = divmod(index, HAND_COLUMNS)
        x = SLOT_PAD + column * (SLOT_W + SLOT_GAP)
        y = SLOT_PAD + row * (SLOT_H + SLOT_GAP)
        in_pile = index >= len(hand)
        banner = _place(index - len(hand), len(pile), pile_size) if in_pile else ""
        mark = not in_pile and playable is not None and card in playable
        _slot(image, x, y, face(card), short_name(card), banner=banner, playable=mark)
    start = SLOT_PAD + left + BLOCK_GAP
    for index, (card_face, name, banner) in enumerate(ids):
        column, row = divmod(index, id_rows)
        _slot(image, start + column * (SLOT_W + SLOT_GAP), SLOT_PAD + row * (SLOT_H + SLOT_GAP), card_face,
              name, banner=banner)  # fmt: skip
    return encode(image)


def _place(index: int, count: int, size: int) -> str:
    """A pile card's banner: its place in a pile of ``size`` ("top", "middle", "bottom"); a pile
    already drawn from (``count`` cards left) says "top" and "bottom" rather than "#1" and "#2"."""
    if size == 3:
        return pile_place(index, size)
    if index == 0:
        return T.gettext(PILE_PLACES[0])
    return T.gettext(PILE_PLACES[2]) if index == count - 1 else pile_place(index, size)


def panel_alt(
    hand: Sequence[str],
    pile: Sequence[str],
    identity: str,
    *,
    immunity: bool,
    received: str | None = None,
    playable: Collection[str] | None = None,
    so_far: bool = False,
) -> str:
    """The panel picture in words: the hand (the cards that may go on the pile now), the pile top
    first (``so_far``: being built), the identity and Immunity, an ID card received."""
    parts = [hand_alt(hand, playable)]
    if pile:
        parts.append(pile_alt(pile, so_far=so_far))
    parts.append(identity_alt(identity, immunity=immunity))
    if received:
        parts.append(T.gettext("You received the {country} ID card.", country=country_name(received)))
    return " ".join(parts)
