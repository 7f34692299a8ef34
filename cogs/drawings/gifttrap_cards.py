"""GiftTRAP's gifts and tokens as pictures with alt text: the round's gifts laid out on their numbered
spaces (with a seat's own tokens on them in its panel) and the tokens still to place.

A gift card shows its space number large, its name and the pack's price; a token shows its points
and a shape (GREAT a star, GOOD a circle, OK a square, NO WAY a cross), so nothing is told by
colour alone. Pure functions of the typed view's pieces (rules/gifttrap/views.py).

The words drawn in a picture are made by the caller, in the reader's language (``picture_words``),
and handed to the drawing: a worker process that draws it does not know the language.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, TypedDict

from PIL import Image, ImageDraw

from cogs.drawings.cards import (
    BACKGROUND,
    CARD_H,
    CARD_W,
    GAP,
    PAD,
    RGB,
    ROW_GAP,
    Face,
    Picture,
    draw_face,
    draw_shape,
    encode,
    fit_alt,
    fit_text,
    grid,
)
from cogs.drawings.lettering import font, legible
from cogs.texts import N_, Texts
from rules.gifttrap.gifts import GIFTS
from rules.gifttrap.tokens import TOKENS, Token
from rules.gifttrap.views import GiftTrapView, LaidOutGift, RevealedGift

T = Texts(__name__)
# The four tokens with their points, the game's own terms (printed on its tokens).
TOKEN_LABELS: dict[str, str] = {
    # Translators: a token, the game's own term (the best of four): keep its points.
    "great": N_("GREAT +3"),
    # Translators: a token, the game's own term (the second best): keep its points.
    "good": N_("GOOD +2"),
    # Translators: a token, the game's own term (the third best): keep its points.
    "ok": N_("OK +1"),
    # Translators: a token, the game's own term (a gift you would hate): keep its points.
    "noway": N_("NO WAY −4"),
}
# Translators: a received gift with none of the receiver's tokens on it (the game's own term).
NO_MATCH_LABEL = N_("NO MATCH −1")
# Translators: a token named alone, in "place your GREAT, GOOD tokens" and "GREAT: 3. Teddy bear".
TOKEN_NAMES: dict[str, str] = {
    "great": N_("GREAT"),
    "good": N_("GOOD"),
    "ok": N_("OK"),
    "noway": N_("NO WAY"),
}


def gift_name(gift_id: str, stored: str | None = None) -> str:
    """A gift's name in the language spoken now. The engine names a gift by its id; its English
    name (gifts.json) is the catalog's message, with the context "gift" (python -m cogs.texts
    update adds each one, with its emoji and tags for the translator). A gift not in gifts.json
    (an old record's) keeps the name it was ``stored`` with."""
    known = GIFTS.get(gift_id)
    if known is None:
        return stored if stored is not None else gift_id
    return T.pgettext("gift", known.name)


def name_of(gift: Mapping[str, Any]) -> str:
    """The name of a gift as a view or record holds it (its id, and the name it was stored with)."""
    return gift_name(gift.get("gift", ""), gift.get("name"))


def named(gifts: Sequence[LaidOutGift]) -> list[LaidOutGift]:
    """The gifts with their names in the language spoken now: what a picture draws is made before
    the drawing, which may be done in a worker process that does not know the language."""
    return [{**gift, "name": name_of(gift)} for gift in gifts]


def named_reveals(revealed: Sequence[RevealedGift]) -> list[RevealedGift]:
    """Unwrapped gifts with their names in the language spoken now (see ``named``)."""
    return [{**gift, "name": name_of(gift)} for gift in revealed]


def token_label(token: str | None) -> str:
    """A token with its points ("GREAT +3"); None is NO MATCH."""
    return T.gettext(NO_MATCH_LABEL if token is None else TOKEN_LABELS[token])


class PictureWords(TypedDict):
    """The words drawn in GiftTRAP's pictures, made in the reader's language: under a revealed gift,
    "from" and "to" with each seat's name (per seat), or the seat numbers when there are no names
    (``seats``, a template: its ``{giver}`` and ``{receiver}`` are filled where it is drawn)."""

    no_gifts: str
    nothing: str
    from_names: list[str]
    to_names: list[str]
    seats: str


def drawn_name(name: str, seat: int) -> str:
    """A seat's name as the picture can letter it (cogs/drawings/lettering.py): a name in a script
    the font lacks, or all emoji, is drawn as its seat ("seat 2"), never as empty boxes."""
    # Translators: a player by seat number, drawn in a picture where their name cannot be.
    return legible(name, T.pgettext("picture", "seat {number}", number=seat + 1))


def picture_words(names: Sequence[str] = ()) -> PictureWords:
    """The pictures' words in the language spoken now (the caller's: pass them to the drawing)."""
    drawn = [drawn_name(name, seat) for seat, name in enumerate(names)]
    return {
        "no_gifts": T.gettext("no gifts yet"),
        "nothing": T.gettext("nothing yet"),
        # Translators: under a revealed gift, who gave it (drawn in a small picture: keep it short).
        "from_names": [T.gettext("from {name}", name=name) for name in drawn],
        # Translators: under a revealed gift, who received it (drawn in a small picture: keep it short).
        "to_names": [T.gettext("to {name}", name=name) for name in drawn],
        # Translators: under a revealed gift, seat numbers: the giver's to the receiver's (a template:
        # keep the doubled braces).
        "seats": T.gettext("{{giver}} to {{receiver}}"),
    }


# Token -> (fill, ink, points as printed, shape). Checked under simulated colour blindness.
TOKEN_FACES: dict[Token, tuple[RGB, RGB, str, str]] = {
    "great": ((255, 204, 0), (0, 0, 0), "+3", "star"),
    "good": ((0, 153, 153), (255, 255, 255), "+2", "circle"),
    "ok": ((204, 153, 255), (0, 0, 0), "+1", "square"),
    "noway": ((0, 0, 0), (255, 255, 255), "-4", "cross"),
}
# A received gift with no token of the receiver's on it.
NO_MATCH_FACE: tuple[RGB, RGB, str, str] = ((255, 255, 255), (0, 0, 0), "-1", "ring")
REVEALS_SHOWN = 8  # the latest unwrapped gifts; the text keeps the whole story
# Pack (1-4, "$" to "$$$$") -> the gift cards' colour; the price is printed on every card too.
PACK_FILLS: dict[int, RGB] = {1: (255, 255, 255), 2: (153, 204, 204), 3: (255, 204, 0), 4: (204, 153, 255)}
TOKEN_R = 17
# A token chip hangs under its card, its top on the card's bottom edge: on the card it covered the
# upside-down "$$$ 2" and the name (issue 33). Under each row of cards: room for the chips.
TOKEN_DROP = TOKEN_R - 2  # the chip's centre below the card's bottom
UNDER_CARD = TOKEN_DROP + TOKEN_R + 2


def _chip_centre(x: int, y: int, k: int = 0) -> tuple[int, int]:
    """Where the ``k``-th token chip on the card at (x, y) goes: under its right end, leftwards."""
    return x + CARD_W - TOKEN_R - k * (2 * TOKEN_R - 2), y + CARD_H + TOKEN_DROP


def _gift_face(gift: LaidOutGift, price: str) -> Face:
    fill = PACK_FILLS.get(len(price), PACK_FILLS[1])
    name = gift["name"]  # already in the reader's language (named)

    def art(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], face: Face) -> None:
        x0, y0, x1, _ = box
        cx = (x0 + x1) / 2
        # Our gift: a box with a ribbon, the space number on it. The bow stays below the corner's
        # "1 $$$$" (it reached up into the price, which then read "8$$").
        top = y0 + 12
        draw.rectangle([cx - 22, top, cx + 22, top + 24], fill=(255, 255, 255), outline=(0, 0, 0), width=2)
        draw.rectangle([cx - 3, top, cx + 3, top + 24], fill=(0, 0, 0))
        draw.ellipse([cx - 10, top - 8, cx - 1, top + 1], outline=(0, 0, 0), width=2)
        draw.ellipse([cx + 1, top - 8, cx + 10, top + 1], outline=(0, 0, 0), width=2)
        number = str(gift["space"])
        draw.text((cx, top + 12), number, fill=(0, 0, 0), font=font(22), anchor="mm", stroke_width=3,
                  stroke_fill=(255, 255, 255))  # fmt: skip
        # The name on up to two lines under the box.
        words, lines, line = name.split(), [], ""
        for word in words:
            trial = f"{line} {word}".strip()
            if draw.textlength(trial, font=font(12)) <= x1 - x0 or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
        if len(lines) > 2:
            lines = [lines[0], fit_text(draw, " ".join(lines[1:]), x1 - x0, 12)]
        for i, text in enumerate(lines):
            draw.text((cx, y0 + 45 + 13 * i), fit_text(draw, text, x1 - x0, 12), fill=face.ink, font=font(12),
                      anchor="mm")  # fmt: skip

    return Face(fill, (0, 0, 0), f"{gift['space']} {price}", "", "square", art=art)


def _token(draw: ImageDraw.ImageDraw, token: Token | None, cx: float, cy: float, r: float = TOKEN_R) -> None:
    """A token chip; None is NO MATCH (a received gift the receiver put no token on)."""
    fill, ink, points, shape = NO_MATCH_FACE if token is None else TOKEN_FACES[token]
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=(255, 255, 255), width=2)
    draw_shape(draw, shape, cx, cy - r * 0.15, r * 0.45, ink)
    draw.text((cx, cy + r * 0.55), points, fill=ink, font=font(max(10, int(r * 0.7))), anchor="mm")


def gifts_png(
    layout: Sequence[LaidOutGift],
    price: str,
    tokens: Mapping[Token, int] | None = None,
    trapped: Collection[int] = (),
    words: PictureWords | None = None,
) -> bytes:
    """The round's gifts on their spaces (``layout`` with its names worded: ``named``); ``tokens``
    (token -> space) puts those tokens on the gifts, a seat's own placings in its panel (never pass
    someone else's before the reveal); the ``trapped`` spaces (GiftTRAP shouted on them: public)
    are crossed out, as in the reveal."""
    columns, rows = grid(len(layout))
    width = 2 * PAD + columns * CARD_W + (columns - 1) * GAP
    height = 2 * PAD + rows * (CARD_H + UNDER_CARD) + (rows - 1) * ROW_GAP
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    on_space: dict[int, list[Token]] = {}
    for token in TOKENS:
        if tokens is not None and token in tokens:
            on_space.setdefault(tokens[token], []).append(token)
    for index, gift in enumerate(layout):
        row, column = divmod(index, columns)
        x = PAD + column * (CARD_W + GAP)
        y = PAD + row * (CARD_H + UNDER_CARD + ROW_GAP)
        draw_face(image, x, y, _gift_face(gift, price))
        if gift["space"] in trapped:
            _cross(draw, x, y)
        for k, token in enumerate(on_space.get(gift["space"], [])):
            _token(draw, token, *_chip_centre(x, y, k))
    if not layout:
        empty = (words or picture_words())["no_gifts"]
        draw.text((width / 2, height / 2), empty, fill=(235, 245, 235), font=font(14), anchor="mm")
    return encode(image)


def gifts_alt(
    layout: Sequence[LaidOutGift],
    price: str,
    tokens: Mapping[Token, int] | None = None,
    trapped: Collection[int] = (),
) -> str:
    if not layout:
        return T.gettext("No gifts laid out yet: the dealer is picking the pack.")
    placed: dict[int, list[str]] = {}
    for token in TOKENS:
        if tokens is not None and token in tokens:
            placed.setdefault(tokens[token], []).append(token_label(token))
    items = []
    for g in layout:
        notes = [T.gettext("GiftTRAPped")] if g["space"] in trapped else []
        if g["space"] in placed:
            here = placed[g["space"]]
            mine = (
                here[0]
                if len(here) == 1
                else T.gettext("{first} and {second}", first=here[0], second=here[1])
            )
            notes.append(T.gettext("your {tokens}", tokens=mine))
        item = T.gettext("{space}. {name}", space=g["space"], name=name_of(g))
        if notes:
            item = T.gettext("{gift} ({notes})", gift=item, notes="; ".join(notes))
        items.append(item)
    head = T.ngettext(
        "The {price} gifts, {n} on the spaces: ",
        "The {price} gifts, {n} on the spaces: ",
        len(layout),
        price=price,
    )
    return fit_alt(head, items)


def gifts_picture(
    layout: Sequence[LaidOutGift], price: str, tokens: Mapping[Token, int] | None = None
) -> Picture:
    return Picture(gifts_png(named(layout), price, tokens), gifts_alt(layout, price, tokens))


def table_picture(view: GiftTrapView) -> Picture:
    """The public table's gifts (no one's tokens)."""
    return gifts_picture(view["layout"], view["price"] or "")


def panel_picture(view: GiftTrapView) -> Picture:
    """A seat's panel: the gifts with its own tokens on them, from its own view only."""
    my = view.get("my")
    return gifts_picture(view["layout"], view["price"] or "", my["ranks"] if my is not None else None)


def _cross(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A GiftTRAPped gift: crossed out, since it moves no marker."""
    draw.line([x + 6, y + 6, x + CARD_W - 7, y + CARD_H - 7], fill=(0, 0, 0), width=5)
    draw.line([x + 6, y + CARD_H - 7, x + CARD_W - 7, y + 6], fill=(0, 0, 0), width=5)


def _reveals(revealed: Sequence[RevealedGift]) -> list[RevealedGift]:
    return list(revealed[-REVEALS_SHOWN:])


def reveal_png(
    revealed: Sequence[RevealedGift],
    price: str,
    names: Sequence[str] | None = None,
    words: PictureWords | None = None,
) -> bytes:
    """The latest unwrapped gifts in reveal order (their names worded: ``named_reveals``), each
    with the receiver's token on it (public once revealed) and labelled giver to receiver: by
    ``names`` (each seat's, as the table shows them: "from Bea" over "to Al"), else by seat
    number ("2 to 3"); a GiftTRAPped gift is crossed out, since it moves no marker."""
    shown = _reveals(revealed)
    said = words or picture_words(names or ())
    columns, rows = grid(len(shown))
    # The labels go under the token chip, never over the card; a column is as wide as its
    # longest label (to REVEAL_COLUMN), so "to Robo 1 (casual)" is not cut to "to Robo 1 (ca…".
    labels = [reveal_labels(said, gift, names is not None) for gift in shown]
    column_w = reveal_column(labels)
    label_h = UNDER_CARD + 14 * (2 if names is not None else 1) + 4
    width = 2 * PAD + columns * column_w + (columns - 1) * GAP
    height = 2 * PAD + rows * (CARD_H + label_h) + (rows - 1) * ROW_GAP
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index, gift in enumerate(shown):
        row, column = divmod(index, columns)
        x = PAD + column * (column_w + GAP)
        y = PAD + row * (CARD_H + label_h + ROW_GAP)
        laid: LaidOutGift = {
            "space": gift["space"],
            "gift": gift["gift"],
            "name": gift["name"],
            "emoji": "",
            "tags": [],
        }
        draw_face(image, x, y, _gift_face(laid, price))
        if gift["trapped"]:
            _cross(draw, x, y)
        _token(draw, gift["token"], *_chip_centre(x, y))
        # Words, not an arrow: they read in any language. A name longer than the widest column is
        # still cut; the alt text has it whole.
        for i, label in enumerate(labels[index]):
            text = fit_text(draw, label, column_w, LABEL_PX)
            at = (x, y + CARD_H + UNDER_CARD + 9 + 14 * i)
            draw.text(at, text, fill=(235, 245, 235), font=font(LABEL_PX), anchor="lm")
    if not shown:
        draw.text((width / 2, height / 2), said["nothing"], fill=(235, 245, 235), font=font(14), anchor="mm")
    return encode(image)


LABEL_PX = 12
REVEAL_COLUMN = 150  # the widest a reveal's column grows for its labels


def reveal_labels(said: PictureWords, gift: RevealedGift, named: bool) -> list[str]:
    """The lines under a revealed gift: "from Bea", "to Al"; or "2 to 3" by seat numbers."""
    if not named:
        return [said["seats"].format(giver=gift["giver"] + 1, receiver=gift["receiver"] + 1)]
    return [said["from_names"][gift["giver"]], said["to_names"][gift["receiver"]]]


def reveal_column(labels: Sequence[Sequence[str]]) -> int:
    """A reveal's column width: a card, or its longest label up to REVEAL_COLUMN."""
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    widest = max(
        (measure.textlength(line, font=font(LABEL_PX)) for lines in labels for line in lines), default=0
    )
    return int(min(REVEAL_COLUMN, max(CARD_W, widest + 2)))


def reveal_alt(revealed: Sequence[RevealedGift], names: Sequence[str] | None = None) -> str:
    if not revealed:
        return T.gettext("No gift unwrapped yet.")
    items = []
    for gift in _reveals(revealed):
        token = token_label(gift["token"])
        if gift["trapped"]:
            token = T.gettext("{token}, GiftTRAPped", token=token)
        what = {"gift": name_of(gift), "space": gift["space"], "token": token}
        if names is None:
            giver, receiver = gift["giver"] + 1, gift["receiver"] + 1
            items.append(
                T.gettext(
                    "seat {giver} gave seat {receiver} the {gift} from space {space} ({token})",
                    giver=giver,
                    receiver=receiver,
                    **what,
                )
            )
        else:
            giver_name, receiver_name = names[gift["giver"]], names[gift["receiver"]]
            items.append(
                T.gettext(
                    "{giver} gave {receiver} the {gift} from space {space} ({token})",
                    giver=giver_name,
                    receiver=receiver_name,
                    **what,
                )
            )
    earlier = len(revealed) - len(items)
    if earlier:
        head = T.ngettext(
            "Unwrapped, the latest {n} of {total}: ",
            "Unwrapped, the latest {n} of {total}: ",
            len(items),
            total=len(revealed),
        )
    else:
        head = T.gettext("Unwrapped: ")
    return fit_alt(head, items)


def reveal_picture(view: GiftTrapView) -> Picture:
    """The reveal so far on the public table: what each gift was and the token it met."""
    revealed = named_reveals(view["revealed"])
    return Picture(reveal_png(revealed, view["price"] or ""), reveal_alt(view["revealed"]))


def tokens_png(tokens: Sequence[Token]) -> bytes:
    """Tokens as chips in a row (the ones still to place, or a seat's whole set)."""
    r = 26
    width = 2 * PAD + max(1, len(tokens)) * (2 * r + GAP)
    image = Image.new("RGB", (width, 2 * PAD + 2 * r), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, token in enumerate(tokens):
        _token(draw, token, PAD + r + i * (2 * r + GAP), PAD + r, r)
    return encode(image)


def tokens_alt(tokens: Sequence[Token]) -> str:
    if not tokens:
        return T.gettext("No tokens left to place.")
    return T.gettext("Tokens: {tokens}.", tokens=", ".join(token_label(t) for t in tokens))


def tokens_picture(tokens: Sequence[Token]) -> Picture:
    return Picture(tokens_png(tokens), tokens_alt(tokens))


def palette() -> dict[str, tuple[RGB, str, str]]:
    """For the colour-vision test: the tokens' colours, points and shapes."""
    out = {TOKEN_LABELS[t]: (fill, points, shape) for t, (fill, _, points, shape) in TOKEN_FACES.items()}
    fill, _, points, shape = NO_MATCH_FACE
    return out | {NO_MATCH_LABEL: (fill, points, shape)}


def pack_palette() -> dict[str, tuple[RGB, str, str]]:
    return {"$" * p: (fill, "$" * p, "square") for p, fill in PACK_FILLS.items()}
