"""English left in a game played in another language: the words of everything the bot would send
that are English words of the referee's own texts and no word of that language's catalogs.

A shown text that does not come from the language's catalog is one of two things: a marked text
the catalog lacks (``python -m cogs.texts check`` refuses that) or a text made outside the catalogs
(an f-string, an engine's sentence, a data file's name). Both reach Discord as English words, so
this looks at what is sent rather than at how it was made: it gathers the words of every English
msgid (the referee's English vocabulary), takes away every word that the language's own catalogs
use too (names of games, "ZAP", loan words a translator kept on purpose) and the words people
chose (their names), and reports the English words that remain in the payloads' texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from babel.messages.pofile import read_po

import cogs.texts as texts

# The keys of a Discord payload whose values are texts a person reads.
TEXT_KEYS = frozenset({"content", "label", "placeholder", "description", "title", "name", "value", "text"})
# Parts of a text that are not words of a language: mentions, channels, emoji, timestamps, links,
# inline code (a move such as `c3>c4`, a card code such as `R4+Z`), and a card code or an action
# quoted as typed ('FIT4', 'R4+Z').
NOT_WORDS = re.compile(r"<[@#:!a-z][^>]*>|https?://\S+|`[^`]*`|\{[^}]*\}|'[A-Za-z0-9+>\-]+'")
WORD = re.compile(r"[^\W\d_]{3,}")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(NOT_WORDS.sub(" ", text))}


def _strings(message: Any) -> Iterator[str]:
    value = message.id if message.id else ""
    for part in value if isinstance(value, tuple | list) else [value]:
        if part:
            yield part
    strings = message.string if isinstance(message.string, tuple | list) else [message.string]
    for part in strings:
        if part:
            yield part


@cache
def _catalog_words(lang: str, translated_only: bool) -> frozenset[str]:
    found: set[str] = set()
    for domain in texts.DOMAINS:
        path = texts.catalog_path(lang, domain)
        if not path.exists():
            continue
        with path.open("rb") as po:
            catalog = read_po(po, locale=lang, domain=domain)
        for message in catalog:
            if not message.id:
                continue
            if translated_only:
                strings = message.string if isinstance(message.string, tuple | list) else [message.string]
                for s in strings:
                    found |= words(s or "")
            else:
                for s in _strings(message):
                    found |= words(s)
    return frozenset(found)


def english_words() -> frozenset[str]:
    return _catalog_words(texts.SOURCE, False)


def leftovers(payloads: Iterable[Any], lang: str, people: Iterable[str] = ()) -> dict[str, list[str]]:
    """Each English word found in the payloads' texts, with up to three texts it was seen in."""
    suspect = english_words() - _catalog_words(lang, True)
    for name in people:
        suspect -= words(name)
    found: dict[str, list[str]] = {}
    for text in _texts(payloads):
        for word in words(text) & suspect:
            seen = found.setdefault(word, [])
            if len(seen) < 3 and text not in seen:
                seen.append(text)
    return found


def _texts(value: Any, key: str | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "value" and "label" in value:
                continue  # a select option's value is data the bot gets back, never shown
            yield from _texts(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v, key)
    elif isinstance(value, str) and key in TEXT_KEYS:
        yield value
