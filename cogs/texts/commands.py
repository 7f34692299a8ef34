"""Slash commands in every language the referee speaks: discord.py's ``Translator``, fed by the
catalogs.

A command's name, description, option names and choices are marked where they are declared with
``app_commands.locale_str`` (which the catalogs' extractor reads like ``gettext``). When the
command tree is synced, discord.py asks ``translate`` for each of them in each of Discord's
locales; the answer is the text from that locale's language catalog, looked up in every domain
(a game's commands are in the game's domain, `/table` in the table's). ``None`` (Discord then
shows the English) for a locale whose language the referee does not speak, for English itself,
and for a text no catalog translates. A ``locale_str`` may carry ``context="…"`` (as
``pgettext``'s) when one short word means two things.
"""

from __future__ import annotations

import discord
from discord import app_commands

import cogs.texts as texts

# Discord locales whose language is not simply the part before the "-" (or the whole code).
SPECIAL = {"no": "nb"}


def language_of(locale: discord.Locale) -> str | None:
    """The referee's language for a Discord locale ("es-419" and "es-ES": "es"; "pt-BR":
    "pt_BR", or "pt" if only that is spoken), None if it speaks none of it."""
    code = str(locale.value)
    region = code.replace("-", "_")
    base = SPECIAL.get(code, code.split("-")[0])
    for candidate in (region, base):
        if candidate in texts.LANGUAGES:
            return candidate
    return None


def _domains(string: app_commands.locale_str, context: app_commands.TranslationContextTypes) -> list[str]:
    """The domains to look a text up in, its own first: the one it names (``domain=``), else its
    command's module's (an option's name "seats" is Zip Zap's in /zipzap new, and a game's
    translator may word it unlike another game's); then every other domain."""
    own = string.extras.get("domain")
    if own is None:
        data = context.data
        command = getattr(data, "command", data)  # an option (Parameter) belongs to its command
        module = getattr(command, "module", None)
        if isinstance(module, str):
            own = texts.domain_of(module)
    return [own] + [d for d in texts.DOMAINS if d != own] if own in texts.DOMAINS else list(texts.DOMAINS)


class CatalogTranslator(app_commands.Translator):
    @staticmethod
    def needed() -> bool:
        """Whether the referee speaks any language besides the source's (English)."""
        return any(lang != texts.SOURCE for lang in texts.LANGUAGES)

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = language_of(locale)
        if lang is None or lang == texts.SOURCE:
            return None
        message = string.message
        msgctxt = string.extras.get("context")
        domains = _domains(string, context)
        # The context first; then without it, since the catalogs' extractor (Babel's, reading
        # ``locale_str`` like ``gettext``) cannot see a keyword argument: a choice declared with
        # ``context="scoring"`` is in the catalog under its message alone.
        for ctx in dict.fromkeys([msgctxt, None]):
            for domain in domains:
                catalog = texts.translations(lang, domain)
                found = catalog.pgettext(ctx, message) if ctx else catalog.gettext(message)
                if found != message:
                    return found
        return None
