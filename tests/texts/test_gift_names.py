"""GiftTRAP's gift names are catalog texts (context "gift", extracted from gifts.json): the engine
names a gift by its id, and every place a gift is shown words its name in the reader's language,
the pictures too (their names are made before the drawing, which a worker process may do)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

import cogs.texts as texts
from cogs.drawings import gifttrap_cards
from cogs.drawings.gifttrap_panel import gift_text
from cogs.texts import speaking
from cogs.texts.catalogs import extract, template_path
from rules.gifttrap import GIFTS
from rules.gifttrap.views import GiftTrapView, RevealedGift

DUCK = GIFTS["rubber-duck"].on_space(1)
KITE = GIFTS["kite"].on_space(2)


@pytest.fixture
def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    catalog = Catalog(locale="de", domain="gifttrap")
    catalog.add("Rubber duck", "Quietscheentchen", context="gift")
    catalog.add("Kite", "Drachen", context="gift")
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "gifttrap.po").open("wb") as po:
        write_po(po, catalog)
    monkeypatch.setattr(texts, "LOCALES", tmp_path)
    monkeypatch.setattr(texts, "LANGUAGES", {**texts.LANGUAGES, "de": "Deutsch"})
    texts.translations.cache_clear()
    yield
    texts.translations.cache_clear()


def test_every_gift_name_is_in_the_gifttrap_template_with_its_emoji() -> None:
    with template_path("gifttrap").open("rb") as pot:
        template = read_po(pot)
    for gift in GIFTS.values():
        message = template.get(gift.name, context="gift")
        assert message is not None, gift.id
        assert gift.emoji in " ".join(message.auto_comments), gift.id
    # Only the gifttrap domain gets them.
    assert extract("table").get("Rubber duck", context="gift") is None


def test_a_gift_reads_in_english_by_default() -> None:
    assert gift_text(DUCK) == "1. 🦆 Rubber duck"
    assert gifttrap_cards.gift_name("kite") == "Kite"


def test_a_gift_is_named_in_the_readers_language_everywhere(german: None) -> None:
    english_png = gifttrap_cards.gifts_picture([DUCK, KITE], "$").png
    with speaking("de"):
        assert gift_text(DUCK) == "1. 🦆 Quietscheentchen"
        assert [g["name"] for g in gifttrap_cards.named([DUCK, KITE])] == ["Quietscheentchen", "Drachen"]
        picture = gifttrap_cards.gifts_picture([DUCK, KITE], "$")
        assert "Quietscheentchen" in picture.alt and "Rubber duck" not in picture.alt
        # The drawn card carries the German name: the picture differs from the English one.
        assert picture.png != english_png
        reveal: RevealedGift = cast(
            RevealedGift,
            {**DUCK, "receiver": 1, "giver": 0, "token": "great", "trapped": False},
        )
        shown = gifttrap_cards.reveal_picture(cast(GiftTrapView, {"revealed": [reveal], "price": "$"}))
        assert "Quietscheentchen" in shown.alt
        # A name the catalog lacks is the English one, never the id.
        assert gifttrap_cards.gift_name("wool-socks") == "Wool socks"
    assert gift_text(DUCK) == "1. 🦆 Rubber duck"
