"""Every card of every game draws; the largest hands stay small and their alt text within Discord's
1,024 characters; marks change the picture; the same inputs give the same bytes.

Determinism matters twice: the content cache (cogs/drawings/cache.py) hands one drawing to every
table showing the same cards, and the twin-state secrecy audit compares pictures byte for byte.
"""

from __future__ import annotations

import io
from typing import Any, cast

import pytest
from PIL import Image

from cogs.drawings import gifttrap_cards, spytrap_cards, zaptrap_cards, zipzap_cards
from cogs.drawings.cards import ALT_LIMIT, Picture
from rules.gifttrap.gifts import PACK_GIFTS, PRICES
from rules.gifttrap.views import GiftTrapView
from rules.spytrap.cards import COUNTRIES, all_cards
from rules.spytrap.views import SpyTrapView
from rules.zaptrap.options import ZapTrapOptions
from rules.zaptrap.views import ZapTrapView
from rules.zipzap.cards import all_number_cards
from rules.zipzap.views import ZipZapView

MAX_BYTES = 60 * 1024
ZIPZAP_DECK = [*all_number_cards([]), *(f"Z{s}" for s in range(6))]
ZAPTRAP_DECK = ZapTrapOptions(species=13, copies=8, doubles=2, specials=2).deck()
KEMPS_DECK = ZapTrapOptions(preset="kemps", species=13, copies=8).deck()
SPYTRAP_DECK = all_cards()


def is_png(data: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.size


def check(picture: Picture) -> None:
    is_png(picture.png)
    assert len(picture.png) <= MAX_BYTES
    assert 0 < len(picture.alt) <= ALT_LIMIT


# The largest hands each game deals: Zip Zap 12 cards and the Zap card; Zap or Trap 7; Spy Trap 6
# plus the 3 a pile gives back; GiftTRAP lays out at most 9 gifts (8 players + 1).
LARGEST: dict[str, Any] = {
    "zipzap": lambda: zipzap_cards.hand_picture(
        ["R7", "R8", "R9", "R10", "G8", "G9", "G10", "W7", "W8", "W9", "W10", "B10", "Z0"], {"R7", "W7", "Z"}
    ),
    "zaptrap": lambda: zaptrap_cards.hand_picture(
        ["D10a", "D9b", "D8a", "D7b", "XZZa", "XBFb", "XDMa"], {"D10a"}, species=13
    ),
    "spytrap": lambda: spytrap_cards.hand_picture(SPYTRAP_DECK[:9], set(SPYTRAP_DECK[:3])),
    "gifttrap": lambda: gifttrap_cards.gifts_picture(
        [g.on_space(i + 1) for i, g in enumerate(PACK_GIFTS[4][-9:])],
        PRICES[4],
        {"great": 1, "good": 1, "ok": 1, "noway": 1},
    ),
}


@pytest.mark.parametrize("game", list(LARGEST))
def test_the_largest_hand_is_small_and_described(game: str) -> None:
    check(LARGEST[game]())


def test_every_zipzap_card_draws() -> None:
    for code in ZIPZAP_DECK:
        picture = zipzap_cards.hand_picture([code], None)
        check(picture)
    # Whole deck at once: wraps into rows, alt text still within the limit (shortened at the end).
    whole = zipzap_cards.hand_picture(ZIPZAP_DECK, set(ZIPZAP_DECK[:10]))
    assert len(whole.alt) <= ALT_LIMIT
    assert whole.alt.startswith(f"Your hand, {len(ZIPZAP_DECK)} cards: red 1 (playable)")
    width, height = is_png(whole.png)
    assert height > 3 * width // 7  # several rows, not one strip


@pytest.mark.parametrize("deck,preset", [(ZAPTRAP_DECK, "zaptrap"), (KEMPS_DECK, "kemps")])
def test_every_zaptrap_card_draws(deck: list[str], preset: str) -> None:
    for code in deck:
        is_png(zaptrap_cards.hand_png([code], None, preset=preset, species=13))
    whole = zaptrap_cards.hand_alt(deck, set(deck), preset=preset, species=13)
    assert len(whole) <= ALT_LIMIT
    assert whole.endswith("more.")


def test_every_spytrap_card_and_identity_draws() -> None:
    for code in SPYTRAP_DECK:
        is_png(spytrap_cards.hand_png([code]))
    for country in COUNTRIES:
        for immunity in (False, True):
            picture = spytrap_cards.identity_picture(country, immunity=immunity)
            check(picture)
            assert country in picture.alt
    assert len(spytrap_cards.hand_alt(SPYTRAP_DECK)) <= ALT_LIMIT


def test_every_gift_and_token_draws() -> None:
    for pack, gifts in PACK_GIFTS.items():
        for start in range(0, len(gifts), 9):
            layout = [g.on_space(i + 1) for i, g in enumerate(gifts[start : start + 9])]
            check(gifttrap_cards.gifts_picture(layout, PRICES[pack]))
    check(gifttrap_cards.tokens_picture(["great", "good", "ok", "noway"]))
    check(gifttrap_cards.tokens_picture([]))


def test_marks_change_the_hand_picture_and_its_words() -> None:
    hand = ["R4", "G5", "W6", "Z1"]
    plain = zipzap_cards.hand_picture(hand, None)
    one = zipzap_cards.hand_picture(hand, {"R4"})
    other = zipzap_cards.hand_picture(hand, {"G5"})
    none = zipzap_cards.hand_picture(hand, set())
    assert len({plain.png, one.png, other.png, none.png}) == 4
    assert one.alt == "Your hand, 4 cards: red 4 (playable), green 5, wild 6, Zap card."
    assert "No card can be played now." in none.alt
    # The Zap card is played as "Z" or with a card as "R4+Z": both mark it.
    assert zipzap_cards.hand_alt(hand, {"R4+Z"}).count("(playable)") == 2
    for module in (zaptrap_cards, spytrap_cards):
        cards = ["1a", "2a"] if module is zaptrap_cards else ["FAM1", "EA1"]
        assert module.hand_png(cards, {cards[0]}) != module.hand_png(cards, {cards[1]})


def test_the_same_inputs_give_the_same_bytes() -> None:
    for make in LARGEST.values():
        first, second = make(), make()
        assert first == second


def zipzap_view(played: list[str]) -> ZipZapView:
    return cast(ZipZapView, {"played": played, "top": played[-1] if played else None})


def test_zipzap_table_shows_the_top_of_the_pile() -> None:
    picture = zipzap_cards.table_picture(zipzap_view(["R1", "R2", "W3", "G4", "G5", "W6"]))
    check(picture)
    assert picture.alt == "Top of the pile: wild 6. Under it: green 5, green 4, wild 3. 2 more below."
    assert zipzap_cards.table_picture(zipzap_view([])).alt.startswith("The pile is empty")
    # Only the shown cards matter: the same top four give the same picture.
    assert zipzap_cards.table_png(zipzap_view(["R1", "W3", "G4", "G5", "W6"])) == zipzap_cards.table_png(
        zipzap_view(["R2", "W3", "G4", "G5", "W6"])
    )


def test_zaptrap_and_spytrap_tables() -> None:
    view = cast(ZapTrapView, {"table": ["1a", "D3", "XDM", "13b"], "preset": "zaptrap", "species": 13})
    picture = zaptrap_cards.table_picture(view)
    check(picture)
    assert picture.alt == (
        "Face up on the table, 4 cards: Glorp, Mookah-Fennix double, Dangerous Mission, Pibbitt."
    )
    drawn = [{"pile": 1, "card": "FFR2", "type": "file", "country": "French"}]
    spy = spytrap_cards.table_picture(cast(SpyTrapView, {"drawn": drawn}))
    check(spy)
    assert spy.alt == "Drawn this round, 1 card: French File from seat 2's pile."


def test_gifttrap_table_never_shows_a_seats_tokens() -> None:
    """A seat's own view holds its tokens; the public table picture must not show them. Seen to
    fail when table_picture drew view.get("my")'s ranks (as panel_picture does)."""
    layout = [g.on_space(i + 1) for i, g in enumerate(PACK_GIFTS[1][:4])]
    base = {"layout": layout, "price": "$"}
    mine = cast(GiftTrapView, base | {"my": {"ranks": {"great": 2, "noway": 3}}})
    theirs = cast(GiftTrapView, base | {"my": {"ranks": {"great": 4, "noway": 1}}})
    assert gifttrap_cards.table_picture(mine) == gifttrap_cards.table_picture(theirs)
    assert gifttrap_cards.panel_picture(mine) != gifttrap_cards.panel_picture(theirs)
    assert "(your GREAT +3)" in gifttrap_cards.panel_picture(mine).alt
    assert "your" not in gifttrap_cards.table_picture(mine).alt


def test_zipzap_top_card_alone() -> None:
    picture = zipzap_cards.top_picture(zipzap_view(["R1", "W2"]))
    check(picture)
    assert picture.alt == "Top of the pile: wild 2."
    assert is_png(picture.png)[0] < is_png(zipzap_cards.table_png(zipzap_view(["R1", "W2"])))[0]
    assert zipzap_cards.top_alt(zipzap_view([])) == "No card on the pile yet."


def test_spytrap_home_area() -> None:
    home: list[Any] = [
        {"card": "FAM1", "country": "American", "from": "opponent"},
        {"card": "FAM2", "country": "American", "from": "own"},
        {"card": "FRU3", "country": "Russian", "from": "stolen"},
    ]
    picture = spytrap_cards.files_picture(home)
    check(picture)
    assert picture.alt == (
        "Home area, 3 Files: American File (drawn), American File (own pile), Russian File (stolen)."
    )
    # How a File came is part of the picture (only drawn and stolen Files count toward a win).
    moved = [home[1], home[0], home[2]]
    assert spytrap_cards.files_png(moved) != picture.png
    assert spytrap_cards.files_alt([]) == "No Files in this home area yet."


def _colourless(face: Any) -> tuple[str, str, str, str]:
    return (face.corner, face.centre, face.shape if face.art is None else "art", face.caption)


@pytest.mark.parametrize("game", ["zipzap", "zaptrap", "kemps", "spytrap"])
def test_cards_with_different_names_differ_without_colour(game: str) -> None:
    """Two cards that mean different things differ in more than colour: their corner mark, centre,
    shape or caption. Seen to fail with Zip Zap's green given red's letter and shape ("R",
    "circle"): green 4 and red 4 then differed by colour alone."""
    from cogs.drawings.spytrap_cards import card_name as spy_name
    from cogs.drawings.zaptrap_words import card_name as zap_name
    from cogs.drawings.zipzap_cards import card_name as zip_name

    decks: dict[str, tuple[list[str], Any, Any]] = {
        "zipzap": (ZIPZAP_DECK, zipzap_cards.face, zip_name),
        "zaptrap": (
            ZAPTRAP_DECK,
            lambda c: zaptrap_cards.face(c, "zaptrap", 13),
            lambda c: zap_name(c, "zaptrap", 13),
        ),
        "kemps": (
            KEMPS_DECK,
            lambda c: zaptrap_cards.face(c, "kemps", 13),
            lambda c: zap_name(c, "kemps", 13),
        ),
        "spytrap": (SPYTRAP_DECK, spytrap_cards.face, spy_name),
    }
    deck, face, name = decks[game]
    seen: dict[tuple[str, str, str, str], str] = {}
    for code in deck:
        f = face(code)
        assert f.corner, code
        marks = _colourless(f)
        assert seen.setdefault(marks, name(code)) == name(code), (
            f"{code} looks like a {seen[marks]} but for colour"
        )


def test_gifttrap_reveal() -> None:
    def gift(n: int, token: Any, trapped: bool = False) -> dict[str, Any]:
        return {"receiver": n % 8, "giver": (n + 1) % 8, "space": n % 9 + 1, "gift": f"g{n}",
                "name": f"Gift number {n}", "token": token, "trapped": trapped}  # fmt: skip

    revealed = [gift(0, "great"), gift(1, None), gift(2, "noway", trapped=True)]
    view = cast(GiftTrapView, {"revealed": revealed, "price": "$$"})
    picture = gifttrap_cards.reveal_picture(view)
    check(picture)
    assert picture.alt == (
        "Unwrapped: seat 2 gave seat 1 the Gift number 0 from space 1 (GREAT +3), seat 3 gave seat 2 the"
        " Gift number 1 from space 2 (NO MATCH −1), seat 4 gave seat 3 the Gift number 2 from space 3"
        " (NO WAY −4, GiftTRAPped)."
    )
    untrapped = cast(GiftTrapView, {"revealed": [*revealed[:2], gift(2, "noway")], "price": "$$"})
    assert gifttrap_cards.reveal_png(untrapped["revealed"], "$$") != picture.png
    # Eight players give 56 gifts in a round: the picture and the words keep the latest eight.
    many = [gift(n, "ok") for n in range(56)]
    big = gifttrap_cards.reveal_picture(cast(GiftTrapView, {"revealed": many, "price": "$$$$"}))
    check(big)
    assert big.alt.startswith("Unwrapped, the latest 8 of 56: seat 2 gave seat 1 the Gift number 48")
    assert gifttrap_cards.reveal_alt([]) == "No gift unwrapped yet."


@pytest.mark.parametrize(
    "faces",
    [
        [zipzap_cards.face(c) for c in ZIPZAP_DECK],
        [zaptrap_cards.face(c, "zaptrap", 13) for c in ZAPTRAP_DECK],
        [zaptrap_cards.face(c, "kemps", 13) for c in KEMPS_DECK],
    ],
    ids=["zipzap", "zaptrap", "kemps"],
)
def test_a_face_drawn_once_and_pasted_is_the_face_drawn_in_place(faces: list[Any]) -> None:
    """Hands and rows paste faces drawn once per process (``_face_tile``): every face, plain and
    faded, must be what drawing it in place on the felt gives, or a cached face would show other
    than the card. Up to a few pixels: Pillow rounds an ellipse's fractional corners by where it
    lands, so an alien's 2.5-pixel eye drawn at x = 10 differs from one drawn at x = 0 by a pixel
    or two (Zap or Trap's 11+12 double, 3 pixels). Seen to fail with the tile drawn on a white
    ground (the rounded corners differ: 84 pixels) and with the fading left out of the tile."""
    from PIL import ImageChops

    from cogs.drawings import cards

    for face in {(f, f.art): f for f in faces}.values():
        for dimmed in (False, True):
            in_place = Image.new("RGB", (cards.CARD_W + 20, cards.CARD_H + 20), cards.BACKGROUND)
            cards.draw_face(in_place, 10, 10, face)
            if dimmed:
                cards._dim(in_place, (10, 10, 10 + cards.CARD_W, 10 + cards.CARD_H))
            pasted = Image.new("RGB", in_place.size, cards.BACKGROUND)
            cards._paste_face(pasted, 10, 10, face, dimmed=dimmed)
            changed = ImageChops.difference(in_place, pasted).convert("L").point(lambda v: 255 if v else 0)
            assert changed.histogram()[255] <= 8, (face.corner, dimmed, changed.histogram()[255])


@pytest.mark.parametrize(
    "draw",
    [
        pytest.param(lambda: zipzap_cards.hand_png(["R1", "G2", "B3"], ["R1"]), id="zipzap short hand"),
        pytest.param(lambda: zipzap_cards.hand_png(ZIPZAP_DECK[:12], ZIPZAP_DECK[:2]), id="zipzap two rows"),
        pytest.param(
            lambda: zaptrap_cards.hand_and_table_png(
                ZAPTRAP_DECK[:4], ZAPTRAP_DECK[:1], ZAPTRAP_DECK[4:8], preset="zaptrap", species=13
            ),
            id="zaptrap hand and table",
        ),
    ],
)
def test_a_picture_is_encoded_once(draw: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture made of parts (a hand widened, a hand above the face-up cards) is quantized and
    encoded once, as a whole: an encoding is most of a drawing's time, and a click waits on its
    hand's drawing (bench part 2). Counted, not timed. Fails if a part is encoded, decoded and
    pasted again (as ``_widened`` did with a short Zip Zap hand: two encodings)."""
    quantized = 0
    original = Image.Image.quantize

    def counting(self: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        nonlocal quantized
        quantized += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", counting)
    is_png(draw())
    assert quantized == 1
