"""The pictures' font draws every shipped language, and a name in any script still draws legibly.

- Every text the picture modules mark (cogs/drawings/*.py but the Discord panels), in every
  language's catalog as it is on disk when the test runs (translators fill them in as they go), has
  a glyph in the shipped font for each of its characters, and lays out in it; so do numbers as each
  language writes them and the gifts' names. The alt texts beside the pictures' words are checked
  too (they are a screen reader's, so a character only Discord can show would be refused here:
  move such a text out of cogs/drawings, or name it in an exception here).
- The font's characters are read twice: by lettering.py's own cmap reader (what the bot uses) and by
  fontTools; they must agree, and a Polish letter must draw differently from the missing-glyph box.
- Names people chose (Cyrillic, Greek, Arabic, Chinese, emoji) drawn in GiftTRAP's reveal picture:
  every string that reaches Pillow has all its glyphs (nothing can come out as an empty box), the
  scripts the font has come out whole, and a name it cannot draw at all becomes its seat.
"""

from __future__ import annotations

import io
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import Image, ImageDraw

from cogs.drawings import gifttrap_cards, lettering
from cogs.texts import DOMAINS, LANGUAGES, SOURCE, catalog_path, number, speaking
from cogs.texts.catalogs import extract
from cogs.texts.sources import ROOT
from rules.gifttrap.gifts import PACK_GIFTS, PRICES
from rules.gifttrap.views import RevealedGift

DRAWINGS = ROOT / "cogs" / "drawings"
# The Discord panels live beside the pictures but are messages, not drawings: their texts are
# shown by Discord, which has every script.
PICTURE_FILES = sorted(p for p in DRAWINGS.glob("*.py") if not p.stem.endswith("_panel"))
FONT = lettering.font(13)  # each text is laid out at a caption's size too


def literal(text: str) -> str:
    """A catalog text without its placeholders ({name} is filled in when drawn; names are
    ``legible``'s business) and with doubled braces as the one they stand for."""
    return "".join(part for part, _field, _spec, _conv in string.Formatter().parse(text))


def picture_messages() -> Iterator[tuple[str, Any]]:
    """(domain, message) for every text the picture modules mark."""
    for domain in DOMAINS:
        for message in extract(domain, PICTURE_FILES):
            if message.id:
                yield domain, message


def read_catalog(lang: str, domain: str) -> Catalog | None:
    path: Path = catalog_path(lang, domain)
    if not path.exists():
        return None
    with path.open("rb") as po:
        return read_po(po, locale=lang, domain=domain)


def unlettered(lang: str) -> list[str]:
    """Every drawn text of ``lang`` with a character the font lacks, said with those characters.
    An untranslated message is drawn in English, so its source text is checked."""
    problems: list[str] = []
    catalogs = {domain: read_catalog(lang, domain) for domain in DOMAINS}
    for domain, source in picture_messages():
        catalog = catalogs[domain]
        found = catalog.get(source.id, context=source.context) if catalog is not None else None
        ids = source.id if isinstance(source.id, tuple) else (source.id,)
        strings = found.string if found is not None else ()
        translated = strings if isinstance(strings, tuple) else (strings,)
        for text in [*ids, *(t for t in translated if t)]:
            lacking = lettering.missing(literal(text))
            if lacking:
                problems.append(f"{lang}/{domain}: {text!r} lacks {lacking}")
            elif literal(text).strip() and FONT.getbbox(literal(text)) == (0, 0, 0, 0):
                problems.append(f"{lang}/{domain}: {text!r} lays out as nothing")
    return problems


def test_the_picture_modules_mark_texts() -> None:
    """The scan sees the pictures' words (else the next test would pass on nothing)."""
    ids = {message.id for _domain, message in picture_messages()}
    assert {"Evil Agent", "no gifts yet", "Game over", "from {name}"} <= ids
    assert len(ids) > 100


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_drawn_text_of_every_language_has_its_glyphs(lang: str) -> None:
    assert unlettered(lang) == []


def test_a_missing_glyph_in_a_translation_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A translation with a character the font lacks fails the check above."""
    catalog = Catalog(locale="pl", domain="spytrap")
    catalog.add("Evil Agent", "邪恶特工", context="card caption")
    monkeypatch.setattr(
        __name__ + ".read_catalog", lambda lang, domain: catalog if domain == "spytrap" else None
    )
    assert any("邪" in problem for problem in unlettered("pl"))


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_numbers_as_each_language_writes_them_have_glyphs(lang: str) -> None:
    with speaking(lang):
        written = number(1234567) + number(-12.5)
    assert lettering.missing(written) == []


def test_the_gifts_names_have_glyphs() -> None:
    names = {gift.name for gifts in PACK_GIFTS.values() for gift in gifts}
    assert names
    assert {name: lettering.missing(name) for name in names if lettering.missing(name)} == {}


def test_the_cmap_reader_agrees_with_fonttools() -> None:
    data = lettering.FONT_FILE.read_bytes()
    cmap = set(TTFont(io.BytesIO(data)).getBestCmap())
    assert lettering.characters() == cmap
    assert lettering._cmap(data, full=False) == {c for c in cmap if c <= 0xFFFF}
    for text in ("łśżźćńąęó ŁŚŻŹĆŃĄĘÓ", "äöüß ÄÖÜẞ", "ñáéíóú¿¡", "ãõçâêô", "−…→«»„“"):
        assert lettering.missing(text) == [], text


def drawn(character: str, font: Any) -> bytes:
    image = Image.new("L", (40, 40))
    ImageDraw.Draw(image).text((8, 8), character, font=font, fill=255)
    return image.tobytes()


def test_a_polish_letter_draws_as_itself_not_as_the_missing_box() -> None:
    font = lettering.font(19)
    assert not lettering.has_glyph("花")
    box = drawn("花", font)  # a character the font lacks: its .notdef glyph, the empty box
    assert box != drawn(" ", font)
    for character in "łśżźćńąęóŁŚŻ":
        assert drawn(character, font) != box, character


# ---------------------------------------------------------------------------------------------
# Names


NAMES = ["Алиса", "Ελένη", "ليلى", "花子", "🎲🎲", "🎲 Bea", "Ana 太郎", "Zoë"]


def reveals(count: int) -> list[RevealedGift]:
    """``count`` unwrapped gifts, seat i's to seat i+1, a GREAT token on each."""
    gifts = PACK_GIFTS[4]
    return [
        {
            "receiver": (i + 1) % count,
            "giver": i,
            "space": i + 1,
            "gift": gifts[i].id,
            "name": gifts[i].name,
            "emoji": gifts[i].emoji,
            "token": "great",
            "points": 3,
            "trapped": False,
            "give_more": False,
            "get_more": False,
            "receiver_points": 3,
            "giver_points": 3,
            "receiver_moved": 3,
            "giver_moved": 3,
            "get": 3,
            "give": 3,
            "why": [],
        }
        for i in range(count)
    ]


def drawn_strings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every string handed to Pillow from now on."""
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, content: Any, *args: Any, **kwargs: Any) -> None:
        seen.append(str(content))
        original(self, xy, content, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return seen


def test_names_in_any_script_draw_without_empty_boxes(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = drawn_strings(monkeypatch)
    png = gifttrap_cards.reveal_png(reveals(len(NAMES)), PRICES[4], NAMES)
    assert Image.open(io.BytesIO(png)).format == "PNG"
    assert seen
    assert {text: lettering.missing(text) for text in seen if lettering.missing(text)} == {}
    labels = [text for text in seen if text.startswith(("from ", "to "))]
    # The scripts the font has, whole; the rest legible and told apart by seat.
    for name in ("Алиса", "Ελένη", "ليلى", "Zoë"):
        assert f"from {name}" in labels
    assert "from seat 4" in labels and "from seat 5" in labels  # 花子 and 🎲🎲
    assert "from Bea" in labels and "from Ana …" in labels


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Алиса", "Алиса"),
        ("Ελένη", "Ελένη"),
        ("ليلى", "ليلى"),
        ("花子", "seat 3"),
        ("🎲", "seat 3"),
        ("👩‍👩‍👧", "seat 3"),
        ("🎲 Bea 🎲", "Bea"),
        ("Ana太郎Lu", "Ana…Lu"),
        ("", "seat 3"),
    ],
)
def test_legible(name: str, shown: str) -> None:
    assert lettering.legible(name, "seat 3") == shown
    assert lettering.missing(shown) == []


def test_a_name_drawn_in_another_language_falls_back_to_that_languages_seat() -> None:
    """The fallback is a catalog text, in the language of the picture."""
    with speaking(SOURCE):
        english = gifttrap_cards.drawn_name("花子", 1)
    assert english == "seat 2"
    for lang in LANGUAGES:
        with speaking(lang):
            assert lettering.missing(gifttrap_cards.drawn_name("花子", 1)) == []
