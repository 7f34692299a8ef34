"""A picture with words is drawn in the language of whoever it is for, even where no language is
set (a worker process), and its cache key says which: two tables in two languages showing the same
cards get two pictures. Zap or Trap's captions and corners (species names, special cards).

The catalogs are being translated as this runs, so the test brings its own "language": a catalog
that writes every text upper case."""

from __future__ import annotations

from gettext import NullTranslations
from typing import cast

import pytest

import cogs.texts
from cogs.drawings import zaptrap_cards
from cogs.texts import speaking
from cogs.zaptrap import hand_sketch, table_sketch
from rules.zaptrap.views import ZapTrapView

CARDS = ["XDMa", "XBFb", "3a"]


class Shouted(NullTranslations):
    def gettext(self, message: str) -> str:
        return message.upper()


@pytest.fixture
def shouting_polish(monkeypatch: pytest.MonkeyPatch) -> None:
    def translations(lang: str, domain: str) -> NullTranslations:
        return Shouted() if lang == "pl" else NullTranslations()

    monkeypatch.setattr(cogs.texts, "translations", translations)


def view() -> ZapTrapView:
    return cast(
        ZapTrapView, {"table": CARDS, "hand": CARDS, "phase": "play", "preset": "zaptrap", "species": 10}
    )


@pytest.mark.usefixtures("shouting_polish")
def test_zap_or_trap_pictures_are_keyed_and_drawn_in_the_language_they_are_for() -> None:
    with speaking("pl"):
        polish = [table_sketch(view()), hand_sketch(view(), set())]
    with speaking("en"):
        english = [table_sketch(view()), hand_sketch(view(), set())]
    for pl, en in zip(polish, english, strict=True):
        assert pl is not None and en is not None
        assert pl.key != en.key
        # Drawn later, outside any speaking(): each in the language it was planned in.
        assert pl.draw() != en.draw()
    assert polish[0] is not None
    with speaking("pl"):
        words = zaptrap_cards.captions(CARDS, "zaptrap", 10)
        assert zaptrap_cards.hand_png(CARDS, None) == zaptrap_cards.hand_png(CARDS, None, words=words)
    # The words are made where the sketch is planned, and the drawing needs no language of its own.
    assert polish[0].draw() == zaptrap_cards.face_up_png(CARDS, "zaptrap", 10, words)
