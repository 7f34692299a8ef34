"""Test helpers for whose language a text is in (cogs/table/languages.py).

- ``Locales``: SimCord sends every interaction as from an "en-US" Discord app in an "en-US"
  server; this sets each person's ``locale`` and each server's ``guild_locale`` instead (by
  wrapping SimCord's payload builder, the one place it writes them).
- ``tag_languages``: every text is made from a catalog that marks it with the language it was
  made in ("[de]…"), English included, so a test can say which language each text on a message
  was drawn in, whatever the real catalogs hold (they are being translated meanwhile).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from gettext import NullTranslations
from typing import Any

import pytest
from simcord import interactions as _interactions

import cogs.texts
from tests.e2e.simhelpers import message_text

TAG = re.compile(r"\[(en|es|de|pt_BR|pl)\]")


@dataclass
class Locales:
    """Discord locales by user id and by guild id ("de", "pl", "es-ES", "fr"…)."""

    users: dict[int, str] = field(default_factory=dict)
    guilds: dict[int, str] = field(default_factory=dict)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = _interactions.base_payload

        def base_payload(backend: Any, **kw: Any) -> tuple[Any, dict[str, Any]]:
            record, payload = original(backend, **kw)
            payload["locale"] = self.users.get(kw["user_id"], "en-US")
            if "guild_locale" in payload:
                payload["guild_locale"] = self.guilds.get(kw["guild_id"], "en-US")
            return record, payload

        monkeypatch.setattr(_interactions, "base_payload", base_payload)


class Tagged(NullTranslations):
    """A catalog that translates every text into itself, marked with its language."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def gettext(self, message: str) -> str:
        return f"[{self.lang}]{message}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"[{self.lang}]{singular if n == 1 else plural}"

    def pgettext(self, context: str, message: str) -> str:
        return f"[{self.lang}]{message}"

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return f"[{self.lang}]{singular if n == 1 else plural}"


def tag_languages(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, every text is marked with the language it is made in. Installed once the bot
    is up: the slash commands it synced carry the real catalogs' names."""
    monkeypatch.setattr(cogs.texts, "translations", lambda lang, _domain: Tagged(lang))


def languages_on(message: Any) -> set[str]:
    """The languages the texts on a message were made in."""
    return set(TAG.findall(message_text(message)))
