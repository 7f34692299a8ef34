"""The whole slash-command tree as Discord gets it, and Discord's rules for its localized names.

``translated_tree`` loads every cog as bot.py does and asks the catalogs' translator for every
name, description and choice in every Discord locale (what ``tree.sync`` sends); ``problems``
reads the payloads and says, one line each, what Discord would refuse.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

import discord
from discord.ext import commands

from bot import EXTENSIONS
from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from cogs.texts.commands import CatalogTranslator, language_of

# Discord's rule for a command's or option's name (CHAT_INPUT), as its API documents it:
# ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$, and lowercase where the script has case. Written
# with unicodedata (Python's re has no \p{…}): a letter or number, - or _, or a character of the
# Devanagari or Thai blocks.
SCRIPTS = ((0x0900, 0x097F), (0x0E00, 0x0E7F))


def _allowed(char: str) -> bool:
    if char in "-_" or unicodedata.category(char)[0] in "LN":
        return True
    return any(low <= ord(char) <= high for low, high in SCRIPTS)


DESCRIPTION_MAX = 100
CHOICE_MAX = 100
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2


async def translated_tree() -> list[dict[str, Any]]:
    """Every top-level command's payload with its localizations, every cog loaded as bot.py loads
    them (a Referee that is never started: the cogs register their games with it)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    bot.referee = Referee(bot, None, Scheduler())  # type: ignore[arg-type, attr-defined]
    for name in EXTENSIONS:
        await bot.load_extension(name)
    translator = CatalogTranslator()
    try:
        return [
            await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()
        ]
    finally:
        await bot.close()


def spoken_locales() -> list[discord.Locale]:
    """Every Discord locale whose language the referee speaks (es-ES and es-419 both, en-US and
    en-GB both)."""
    return [locale for locale in discord.Locale if language_of(locale) is not None]


def _shown(item: dict[str, Any], key: str, locale: discord.Locale) -> str:
    """What Discord shows a person in ``locale``: the localization, else the English."""
    localized = item.get(f"{key}_localizations") or {}
    return str(localized.get(locale.value, item[key]))


def _walk(item: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    yield path, item
    for option in item.get("options", []):
        yield from _walk(option, f"{path} {option['name']}")


def name_problem(name: str) -> str | None:
    if not 1 <= len(name) <= 32 or not all(_allowed(c) for c in name):
        return "not 1–32 letters, digits, - or _"
    if name.lower() != name:
        return "not lowercase"
    return None


def problems(payloads: list[dict[str, Any]], locales: list[discord.Locale]) -> list[str]:
    """What Discord would refuse, in each locale: a bad name, a description or a choice's name
    empty or over 100 characters, two siblings (commands, options or choices) with one name."""
    found: list[str] = []
    for locale in locales:
        where = locale.value
        tops = [_shown(p, "name", locale) for p in payloads]
        found += [f"{where}: two commands named /{n}" for n in sorted({n for n in tops if tops.count(n) > 1})]
        for payload in payloads:
            for path, item in _walk(payload, "/" + payload["name"]):
                name = _shown(item, "name", locale)
                if (problem := name_problem(name)) is not None:
                    found.append(f"{where}: {path}: name {name!r} {problem}")
                description = _shown(item, "description", locale) if "description" in item else "-"
                if not 1 <= len(description) <= DESCRIPTION_MAX:
                    found.append(f"{where}: {path}: description of {len(description)} characters")
                siblings = [_shown(o, "name", locale) for o in item.get("options", [])]
                found += [
                    f"{where}: {path}: two options named {n!r}"
                    for n in sorted({n for n in siblings if siblings.count(n) > 1})
                ]
                choices = [_shown(c, "name", locale) for c in item.get("choices", [])]
                found += [
                    f"{where}: {path}: choice {c!r} of {len(c)} characters"
                    for c in choices
                    if not 1 <= len(c) <= CHOICE_MAX
                ]
                found += [
                    f"{where}: {path}: two choices named {c!r}"
                    for c in sorted({c for c in choices if choices.count(c) > 1})
                ]
    return found
