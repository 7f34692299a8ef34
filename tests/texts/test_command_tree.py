"""Slash commands in every language: the whole command tree, every cog loaded as bot.py loads
them, translated by the catalogs for every Discord locale of each language the referee speaks, keeps
Discord's rules (names lowercase, 1–32 letters, digits, - or _; descriptions and choices 1–100
characters; no two siblings with one name). It holds with the catalogs as they are (an untranslated
text leaves Discord the English) and must hold once the translations land; a bad translation in a
temporary catalog is seen failing it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import cogs.texts as texts
from tests.texts.command_tree import name_problem, problems, spoken_locales, translated_tree


def _catalog(root: Path, domain: str, entries: list[tuple[str, str, str | None]]) -> None:
    catalog = Catalog(locale="de", domain=domain)
    for message, translation, context in entries:
        catalog.add(message, translation, context=context)
    folder = root / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"{domain}.po").open("wb") as po:
        write_po(po, catalog)


@pytest.fixture
def temporary_catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(texts, "LOCALES", tmp_path)
    texts.translations.cache_clear()
    yield tmp_path
    texts.translations.cache_clear()


def _find(payloads: list[dict[str, Any]], *path: str) -> dict[str, Any]:
    items, item = payloads, {}
    for name in path:
        item = next(i for i in items if i["name"] == name)
        items = item.get("options", [])
    return item


async def test_the_whole_tree_keeps_discords_rules_in_every_language() -> None:
    payloads = await translated_tree()
    locales = spoken_locales()
    assert {discord.Locale.spain_spanish, discord.Locale.latin_american_spanish} <= set(locales)
    assert {discord.Locale.german, discord.Locale.polish, discord.Locale.brazil_portuguese} <= set(locales)
    assert {p["name"] for p in payloads} >= {"table", "stats", "help", "zipzap", "gifttrap", "trap"}
    found = problems(payloads, locales)
    assert not found, "\n".join(found[:40])


async def test_every_option_and_choice_goes_through_the_catalogs(temporary_catalogs: Path) -> None:
    """Option names, option descriptions and choices are ``locale_str``s the translator answers
    for, each from its own game's catalog first; game titles (the /leaderboard choices) stay."""
    _catalog(
        temporary_catalogs,
        "zipzap",
        [
            ("seats", "plaetze", None),
            ("first_out", "zuerst_raus", "scoring"),
            ("Play in a new thread", "Im Thread", None),
        ],
    )
    _catalog(temporary_catalogs, "gifttrap", [("seats", "sitze", None)])
    _catalog(temporary_catalogs, "table", [("fast", "schnell", "speed"), ("game", "spiel", None)])
    payloads = await translated_tree()
    new = _find(payloads, "zipzap", "new")
    seats = _find(new["options"], "seats")
    assert seats["name_localizations"]["de"] == "plaetze"
    # The same word in another game's catalog is that game's.
    assert _find(payloads, "gifttrap", "new", "seats")["name_localizations"]["de"] == "sitze"
    assert _find(new["options"], "thread")["description_localizations"]["de"] == "Im Thread"
    scoring = {c["value"]: c for c in _find(new["options"], "scoring")["choices"]}
    assert scoring["first_out"]["name_localizations"]["de"] == "zuerst_raus"
    for game in ("zipzap", "zaptrap", "spytrap", "gifttrap", "trap"):
        speed = {c["value"]: c for c in _find(payloads, game, "new", "speed")["choices"]}
        assert speed["fast"]["name_localizations"]["de"] == "schnell", game
        assert "de" not in speed["off"].get("name_localizations", {})  # untranslated: Discord's English
    board = _find(payloads, "leaderboard")
    assert _find(board["options"], "game")["name_localizations"]["de"] == "spiel"
    assert next(c["name"] for c in _find(board["options"], "game")["choices"]) == "Zip Zap"
    assert not problems(payloads, spoken_locales())


async def test_a_bad_translation_is_found(temporary_catalogs: Path) -> None:
    _catalog(
        temporary_catalogs,
        "table",
        [
            ("hand", "Meine Hand", None),  # capitals and a space
            ("status", "zustand", None),
            ("leave", "zustand", None),  # the same name as its sibling
            ("The game table in this channel", "x" * 101, None),
            ("every game", "", None),  # empty: gettext gives the English back, which is fine
        ],
    )
    _catalog(temporary_catalogs, "zipzap", [("cards", "k" * 101, "scoring"), ("seats", "a" * 33, None)])
    found = problems(await translated_tree(), [discord.Locale.german])
    assert any("/table hand: name 'Meine Hand'" in p for p in found), found
    assert any("/table: two options named 'zustand'" in p for p in found), found
    assert any("/table: description of 101 characters" in p for p in found), found
    assert any("/zipzap new scoring: choice 'kkk" in p for p in found), found
    assert any("/zipzap new seats: name 'aaa" in p for p in found), found
    assert all(p.startswith("de: ") for p in found)
    # An empty translation leaves the English: nothing wrong with /season new's choices.
    assert not any("every game" in p or "/season" in p for p in found), found


def test_discords_name_rule() -> None:
    assert name_problem("plätze") is None
    assert name_problem("miejsca_1") is None
    assert name_problem("Plätze") == "not lowercase"
    assert name_problem("zwei wörter") is not None
    assert name_problem("") is not None
    assert name_problem("a" * 33) is not None
    assert name_problem("नमस्ते") is None  # Devanagari's marks are allowed
