"""The table's words are made when shown, in the language of the moment: a computer player's stored
name ("Robo 1 (casual)", kept as data) is worded then, and a person's name never is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import cogs.texts as texts
from cogs.table.model import SeatInfo
from cogs.texts import speaking


@pytest.fixture
def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    catalog = Catalog(locale="de", domain="table")
    catalog.add("Robo {number} ({level})", "Roboter {number} ({level})")
    catalog.add("player {number}", "Spieler {number}")
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "table.po").open("wb") as po:
        write_po(po, catalog)
    monkeypatch.setattr(texts, "LOCALES", tmp_path)
    monkeypatch.setattr(texts, "LANGUAGES", {**texts.LANGUAGES, "de": "Deutsch"})
    texts.translations.cache_clear()
    yield
    texts.translations.cache_clear()


def test_a_computer_name_reads_as_stored_in_english() -> None:
    assert SeatInfo(1, None, "Robo 2 (sharp)", computer_level="sharp").plain_name == "Robo 2 (sharp)"
    assert SeatInfo(3, 7, "  ").plain_name == "player 4"


def test_a_computer_name_is_worded_when_shown(german: None) -> None:
    robo = SeatInfo(1, None, "Robo 2 (sharp)", computer_level="sharp")
    with speaking("de"):
        assert robo.plain_name == "Roboter 2 (sharp)"
        assert SeatInfo(3, 7, "").plain_name == "Spieler 4"
        # A person who left (a computer plays their seat) keeps the name they chose, even this one.
        left = SeatInfo(0, 5, "Robo 1 (sharp)", computer_level="sharp")
        assert left.plain_name == "Robo 1 (sharp)"
    assert robo.plain_name == "Robo 2 (sharp)"
