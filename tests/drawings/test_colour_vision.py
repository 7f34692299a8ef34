"""Every game's palette stays readable under simulated colour blindness.

For each palette (meaning -> colour, letters, shape): every pair of meanings has different letters,
and different shapes where the palette uses shapes for meaning; and every pair of different colours
stays at least ``MIN_DELTA_E`` apart (CIE76 ΔE in L*a*b*) for normal vision and under simulated
protanopia, deuteranopia and tritanopia (Machado et al. 2009). Two meanings may share a colour (the
kemps suits: spades and clubs both black), then the letters and shapes alone tell them apart.

Seen to fail on a broken palette: ``test_a_broken_palette_is_caught`` runs the same check on the
red and green of a traffic light, (204, 0, 0) and (0, 153, 0) (ΔE 6.1 under deuteranopia), on
Discord's 🟥 and 🟩 (ΔE 11.7 under deuteranopia) and on two cards sharing a letter; replacing Zip
Zap's green with (0, 153, 0) in zipzap_cards.SUITS made ``test_palette_is_colour_blind_safe[zipzap]``
fail too (ΔE 12.6 against red under protanopia, 12.5 under deuteranopia). Pure red (255, 0, 0)
against pure green (0, 255, 0) passes, honestly: a deuteranope sees them as a dark and a light
yellow (ΔE 27.8).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from cogs.drawings import gifttrap_cards, spytrap_cards, zaptrap_cards, zipzap_cards
from tests.drawings.colour_vision import KINDS, RGB, delta_e, simulate

MIN_DELTA_E = 15.0
Palette = dict[str, tuple[RGB, str, str]]

PALETTES: dict[str, tuple[Palette, bool]] = {
    # name: (palette, whether shapes must differ too)
    "zipzap": (zipzap_cards.palette(), True),
    "zaptrap": (zaptrap_cards.palette(), True),
    "zaptrap-kemps": (zaptrap_cards.kemps_palette(), True),
    "spytrap": (spytrap_cards.palette(), True),
    "gifttrap-tokens": (gifttrap_cards.palette(), True),
    "gifttrap-packs": (gifttrap_cards.pack_palette(), False),
}


def problems(palette: Palette, shapes_differ: bool = True) -> list[str]:
    found = []
    for (a, (colour_a, letters_a, shape_a)), (b, (colour_b, letters_b, shape_b)) in itertools.combinations(
        palette.items(), 2
    ):
        if letters_a == letters_b:
            found.append(f"{a} and {b} share the letters {letters_a!r}")
        if shapes_differ and shape_a == shape_b:
            found.append(f"{a} and {b} share the shape {shape_a!r}")
        if colour_a == colour_b:
            continue
        for kind in KINDS:
            d = delta_e(colour_a, colour_b, kind)
            if d < MIN_DELTA_E:
                found.append(f"{a} and {b}: ΔE {d:.1f} with {kind}")
    return found


@pytest.mark.parametrize("name", list(PALETTES))
def test_palette_is_colour_blind_safe(name: str) -> None:
    palette, shapes_differ = PALETTES[name]
    assert len(palette) >= 2
    assert problems(palette, shapes_differ) == []


def test_a_broken_palette_is_caught() -> None:
    traffic: Palette = {"red": ((204, 0, 0), "R", "circle"), "green": ((0, 153, 0), "G", "triangle")}
    assert problems(traffic) == ["red and green: ΔE 6.1 with deuteranopia"]
    emoji: Palette = {"red": ((221, 46, 68), "R", "circle"), "green": ((120, 177, 89), "G", "triangle")}
    assert problems(emoji) == ["red and green: ΔE 11.7 with deuteranopia"]
    same_letter: Palette = {"red": ((213, 94, 0), "R", "circle"), "rose": ((0, 90, 160), "R", "square")}
    assert problems(same_letter) == ["red and rose share the letters 'R'"]


def test_the_simulation_matches_published_values() -> None:
    # Machado's matrices map white to white and black to black (rows sum to 1) ...
    for kind in KINDS:
        assert all(abs(c - 255) < 1 for c in simulate((255, 255, 255), kind))
        assert simulate((0, 0, 0), kind) == (0.0, 0.0, 0.0)
    # ... and make red and green alike for a deuteranope but not for normal vision.
    assert delta_e((204, 0, 0), (0, 153, 0), "deuteranopia") < delta_e((204, 0, 0), (0, 153, 0)) / 3


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""

    def luminance(c: tuple[float, float, float]) -> float:
        r, g, b = (_linear(x) for x in c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def every_face() -> list[tuple[str, Any]]:
    from rules.spytrap.cards import COUNTRIES, all_cards
    from rules.zaptrap.options import ZapTrapOptions
    from rules.zipzap.cards import all_number_cards

    faces: list[tuple[str, Any]] = [(c, zipzap_cards.face(c)) for c in [*all_number_cards([]), "Z0"]]
    faces += [
        (c, zaptrap_cards.face(c, "zaptrap", 13))
        for c in ZapTrapOptions(species=13, doubles=2, specials=2).deck()
    ]
    faces += [
        (c, zaptrap_cards.face(c, "kemps", 13)) for c in ZapTrapOptions(preset="kemps", copies=8).deck()
    ]
    faces += [(c, spytrap_cards.face(c)) for c in all_cards()]
    faces += [(f"ID {c}", spytrap_cards.identity_face(c)) for c in COUNTRIES]
    return faces


def test_letters_stand_out_on_every_face() -> None:
    """The corner letters and centre of every card keep a WCAG contrast of at least 3 (large text)
    against the card, for normal vision and under each simulation. Seen to fail with white ink on
    Zip Zap's yellow: contrast 1.3."""
    low = []
    for code, face in every_face():
        for kind in KINDS:
            ratio = contrast(simulate(face.fill, kind), simulate(face.ink, kind))
            if ratio < 3:
                low.append(f"{code} with {kind}: {ratio:.1f}")
    assert low == []
