"""A picture drawn in a worker process carries its words already made: the process does not know
the reader's language (cogs/texts/__init__.py). Zap or Trap's cards name their species and special
cards at their foot; the sketch makes those words in the language spoken when it is made, and the
drawing (run here outside that language, as a worker would) draws them."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import cogs.texts as texts
from cogs.drawings import zaptrap_cards
from cogs.texts import speaking
from cogs.zaptrap import hand_sketch, table_sketch
from rules.zaptrap import ZapTrapView

CARDS = ["1a", "2b", "XDM"]


@pytest.fixture
def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    catalog = Catalog(locale="de", domain="zaptrap")
    catalog.add("Glorp", "Glorpsi")
    catalog.add("Mission", "Auftrag")
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "zaptrap.po").open("wb") as po:
        write_po(po, catalog)
    monkeypatch.setattr(texts, "LOCALES", tmp_path)
    texts.translations.cache_clear()
    yield
    texts.translations.cache_clear()


def _view() -> ZapTrapView:
    view: dict[str, Any] = {
        "table": CARDS,
        "hand": CARDS,
        "preset": "zaptrap",
        "species": 10,
        "phase": "deal",
    }
    return cast(ZapTrapView, view)


def test_the_cards_words_are_made_before_the_drawing(german: None) -> None:
    english = table_sketch(_view())
    assert english is not None
    with speaking("de"):
        sketch = table_sketch(_view())
        hand = hand_sketch(_view(), set())
        words = zaptrap_cards.captions(CARDS)
        in_german = zaptrap_cards.face_up_png(CARDS, "zaptrap", 10)
    assert sketch is not None
    assert words["1a"] == "Glorpsi" and words["XDM"] == "Auftrag"
    # Drawn outside the language (as a worker process draws it): still the German words.
    assert sketch.draw() == in_german != english.draw()
    assert sketch.key != english.key  # the cache tells the two languages apart
    assert hand.draw() != hand_sketch(_view(), set()).draw()
    # What a worker is sent pickles, words and all.
    assert pickle.loads(pickle.dumps(sketch.draw))() == in_german
