"""The one typeface every picture is lettered in, and what becomes of a character it cannot draw.

Pillow's built-in font (``ImageFont.load_default``) has no glyphs beyond Latin-1: a Polish "ł" or
"ż" came out as an empty box. The pictures draw with DejaVu Sans Condensed instead, shipped in
``fonts/`` beside this file (licence in ``fonts/LICENSE.txt``): Latin with its extensions, Greek,
Cyrillic, Arabic and Hebrew, arrows and the typographic minus. Condensed because its widths match
the old font's to a pixel or two, so card captions and labels keep their sizes and positions.

Every translated word drawn is checked against this font's characters by
tests/drawings/test_lettering.py (each language's catalog, read when the test runs). A name a person
chose can hold anything (Chinese, emoji): ``legible`` turns it into what the font can draw, so a
picture never shows an empty box where a character was.

No Discord here: worker processes import this to draw.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_FILE = Path(__file__).resolve().with_name("fonts") / "DejaVuSansCondensed.ttf"
# What stands for letters the font cannot draw inside a name that still has some it can ("Ana…").
LEFT_OUT = "…"


@cache
def font(px: int) -> ImageFont.FreeTypeFont:
    """The pictures' font at ``px`` pixels, loaded once per size and process."""
    return ImageFont.truetype(str(FONT_FILE), px)


@cache
def characters() -> frozenset[int]:
    """The code points the font has a glyph for (its ``cmap``), read from the file once."""
    return _cmap(FONT_FILE.read_bytes())


def has_glyph(character: str) -> bool:
    return ord(character) in characters()


def missing(text: str) -> list[str]:
    """The characters of ``text`` the font cannot draw, in order, each once."""
    return list(dict.fromkeys(c for c in text if not has_glyph(c)))


def legible(name: str, fallback: str) -> str:
    """``name`` as the font can draw it. Every character it has stays. Of the rest, a letter or a
    digit it lacks (Chinese, Thai…) is shown left out ("…", once per run), since the name is then
    not whole; anything else (an emoji, a symbol, a joiner or variation selector, which only
    decorate a name) is dropped. A name left with no letter or digit ("花子", "🎲🎲") is
    ``fallback`` instead (the seat, say): a picture then still tells the players apart, and the alt
    text and the message keep the name whole."""
    if name.strip() and not missing(name):
        return name
    shown: list[str] = []
    for character in name:
        if has_glyph(character):
            shown.append(character)
        elif unicodedata.category(character)[0] in "LN" and (not shown or shown[-1] != LEFT_OUT):
            shown.append(LEFT_OUT)
    text = " ".join("".join(shown).split())
    return text if any(c.isalnum() for c in text) else fallback


# ---------------------------------------------------------------------------------------------
# The font's cmap, read with the struct module: Pillow draws with a font but cannot say which
# characters it has, and the bot would otherwise need fontTools at run time for this one table.
# The test compares this with fontTools' reading of the same file.


def _cmap(data: bytes, *, full: bool = True) -> frozenset[int]:
    """The characters of a TrueType file's cmap; ``full`` False reads its Basic Multilingual
    Plane table (format 4) even when a full one (format 12) is there, which the test uses to check
    both readings against fontTools'."""
    tables = struct.unpack_from(">H", data, 4)[0]
    for index in range(tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        if tag == b"cmap":
            break
    else:
        raise ValueError("the font has no cmap table")
    count = struct.unpack_from(">H", data, offset + 2)[0]
    subtables: dict[tuple[int, int], int] = {}
    for index in range(count):
        platform, encoding, start = struct.unpack_from(">HHI", data, offset + 4 + 8 * index)
        subtables[(platform, encoding)] = offset + start
    # Windows' full repertoire (format 12) when there is one, else its Basic Multilingual Plane.
    if full and (3, 10) in subtables and struct.unpack_from(">H", data, subtables[(3, 10)])[0] == 12:
        return _format12(data, subtables[(3, 10)])
    if (3, 1) in subtables and struct.unpack_from(">H", data, subtables[(3, 1)])[0] == 4:
        return _format4(data, subtables[(3, 1)])
    raise ValueError("the font has no Unicode cmap of format 4 or 12")


def _format12(data: bytes, at: int) -> frozenset[int]:
    groups = struct.unpack_from(">I", data, at + 12)[0]
    found: set[int] = set()
    for index in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * index)
        found.update(c for c in range(first, last + 1) if glyph + c - first != 0)
    return frozenset(found)


def _format4(data: bytes, at: int) -> frozenset[int]:
    segments = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends_at = at + 14
    starts_at = ends_at + 2 * segments + 2  # after the reserved pad
    deltas_at = starts_at + 2 * segments
    offsets_at = deltas_at + 2 * segments
    found: set[int] = set()
    for index in range(segments):
        last = struct.unpack_from(">H", data, ends_at + 2 * index)[0]
        first = struct.unpack_from(">H", data, starts_at + 2 * index)[0]
        delta = struct.unpack_from(">h", data, deltas_at + 2 * index)[0]
        range_offset = struct.unpack_from(">H", data, offsets_at + 2 * index)[0]
        for c in range(first, last + 1):
            if c == 0xFFFF:
                continue  # the table's closing segment, no character
            if range_offset == 0:
                glyph = (c + delta) & 0xFFFF
            else:
                # The glyph index array is addressed from this segment's own offset entry.
                where = offsets_at + 2 * index + range_offset + 2 * (c - first)
                glyph = struct.unpack_from(">H", data, where)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                found.add(c)
    return frozenset(found)
