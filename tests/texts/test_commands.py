"""Slash commands are translated from the catalogs (cogs.texts.commands): a Discord locale whose
language the referee speaks gets its catalog's text, any other gets None (Discord shows the
English). The command tree still syncs with the translator installed: the e2e tests' bots sync at
start (tests/e2e/test_framework.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from discord import app_commands

import cogs.texts as texts
from cogs.texts.commands import CatalogTranslator, language_of


@pytest.fixture
def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A German catalog of the table's domain with two texts, one of them with a context."""
    catalog = Catalog(locale="de", domain="table")
    catalog.add("The game table in this channel", "Der Spieltisch in diesem Kanal")
    catalog.add("status", "zustand", context="command")
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "table.po").open("wb") as po:
        write_po(po, catalog)
    monkeypatch.setattr(texts, "LOCALES", tmp_path)
    monkeypatch.setattr(texts, "LANGUAGES", {**texts.LANGUAGES, "de": "Deutsch"})
    texts.translations.cache_clear()
    yield
    texts.translations.cache_clear()


CONTEXT: app_commands.TranslationContextTypes = app_commands.TranslationContext(
    app_commands.TranslationContextLocation.other, None
)


async def translate(text: app_commands.locale_str, locale: discord.Locale) -> str | None:
    return await CatalogTranslator().translate(text, locale, CONTEXT)


def test_discord_locales_map_to_our_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    spoken = {"en": "English", "es": "Español", "pt_BR": "Português", "de": "Deutsch", "pl": "Polski"}
    monkeypatch.setattr(texts, "LANGUAGES", spoken)
    assert language_of(discord.Locale.spain_spanish) == "es"
    assert language_of(discord.Locale.latin_american_spanish) == "es"
    assert language_of(discord.Locale.brazil_portuguese) == "pt_BR"
    assert language_of(discord.Locale.german) == "de"
    assert language_of(discord.Locale.polish) == "pl"
    assert language_of(discord.Locale.american_english) == "en"
    assert language_of(discord.Locale.japanese) is None


async def test_an_unknown_language_gets_none() -> None:
    text = app_commands.locale_str("The game table in this channel")
    assert await translate(text, discord.Locale.japanese) is None  # Japanese is not spoken (yet)
    assert await translate(text, discord.Locale.korean) is None
    assert await translate(text, discord.Locale.american_english) is None  # English is the default


async def test_a_language_with_a_catalog_gets_its_text(german: None) -> None:
    text = app_commands.locale_str("The game table in this channel")
    assert await translate(text, discord.Locale.german) == "Der Spieltisch in diesem Kanal"
    assert (
        await translate(app_commands.locale_str("status", context="command"), discord.Locale.german)
        == "zustand"
    )
    # A text the catalog lacks, and a language still unspoken, leave Discord the English.
    assert await translate(app_commands.locale_str("Not in any catalog"), discord.Locale.german) is None
    assert await translate(text, discord.Locale.french) is None


def test_the_translator_is_needed_only_beside_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(texts, "LANGUAGES", {"en": "English"})
    assert not CatalogTranslator.needed()
    monkeypatch.setattr(texts, "LANGUAGES", {"en": "English", "de": "Deutsch"})
    assert CatalogTranslator.needed()


@pytest.mark.simcord(settle_timeout=20)
async def test_the_commands_sync_with_their_translations(
    german: None, simcord_env: Any, simcord_bot: Any
) -> None:
    """The bot installs the translator when a second language is spoken, and the tree syncs with
    the catalog's text as the command's localization for that language's Discord locales."""
    table = simcord_env.backend.find_command("table", None)
    assert table is not None
    assert table["description"] == "The game table in this channel"
    assert table["description_localizations"]["de"] == "Der Spieltisch in diesem Kanal"
    assert "fr" not in table["description_localizations"]


async def test_a_choice_with_a_context_is_found_under_its_message_alone(german: None) -> None:
    """Babel's extractor reads ``locale_str`` like ``gettext`` and cannot see its ``context=``
    keyword, so the catalog has the text without it. Seen failing before the lookup without the
    context: Zip Zap's scoring and Zap or Trap's preset choices stayed English in every language."""
    text = app_commands.locale_str("The game table in this channel", context="scoring")
    assert await translate(text, discord.Locale.german) == "Der Spieltisch in diesem Kanal"
