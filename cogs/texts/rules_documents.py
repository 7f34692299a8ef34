"""The games' rules documents in every language: translators write
``locales/<lang>/rules/<game>/{rules,rulings,option_rulings}.md``, and the engine reads a
translation exactly as it reads the English beside it (``rules.base.game_document``): by the
position of its ``- `` items, their ``key:`` prefixes, the ``## key`` headings and the
placeholders filled in (``{track_length}``). So a translation must keep the English one's
structure; this is the check (run by ``python -m cogs.texts check`` and its test).

What may differ: every word, the headings of sections read by position (``## The track``), the
text outside the lists (the introduction), and line breaks inside an item.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

from cogs.texts import GAMES, LANGUAGES, SOURCE
from rules.base import markdown_items, packaged_text, translated_path

DOCUMENTS = ("rules.md", "rulings.md", "option_rulings.md")
# An item that starts with its key, "rounds.one: …" (option_rulings.md of Zip Zap and Trap): an
# identifier, lower case; "Lull: …" (a word a person reads, then a colon) is prose, translated.
KEY = re.compile(r"^([a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*): ")
# A heading that is a key, "## deck" (Zap or Trap's option_rulings.md), not words.
KEY_HEADING = re.compile(r"^## (\w+)\s*$", re.MULTILINE)
HEADING = re.compile(r"^## .*$", re.MULTILINE)


def fields(text: str) -> set[str]:
    """The placeholders of a text, {name} as str.format reads them (the engine fills them so)."""
    return {
        name.split(".")[0].split("[")[0]
        for _, name, _, _ in string.Formatter().parse(text)
        if name is not None
    }


def _package(game: str) -> str:
    return f"rules.{game}"


def _sections(text: str) -> list[str]:
    return HEADING.split(text)


def _paragraphs(section: str) -> list[str]:
    """A section's ``- `` items, or the whole section as one paragraph where it has none (a
    keyed section of Zap or Trap's option_rulings.md)."""
    items = markdown_items(section)
    return items if items else ([" ".join(section.split())] if section.strip() else [])


def structure_problems(english: str, translated: str, *, keyed_items: bool) -> list[str]:
    """What in ``translated`` differs from ``english``'s structure, one line each."""
    problems: list[str] = []
    # Only option_rulings.md names its sections by key ("## deck"); elsewhere a one-word heading
    # ("## Winning") is a heading people read, translated like any other.
    key_headings = KEY_HEADING.findall(english) if keyed_items else []
    if key_headings and KEY_HEADING.findall(translated) != key_headings:
        problems.append(f"the ## key headings differ from the English {key_headings}")
    ours, theirs = _sections(english), _sections(translated)
    if len(ours) != len(theirs):
        return [*problems, f"{len(theirs) - 1} ## sections, the English has {len(ours) - 1}"]
    for number, (source, target) in enumerate(zip(ours, theirs, strict=True)):
        where = f"section {number}" if number else "before the first ## heading"
        source_items, target_items = _paragraphs(source), _paragraphs(target)
        if number == 0 and not markdown_items(source):
            continue  # an introduction: prose, read by no one but people
        if len(source_items) != len(target_items):
            problems.append(f"{where}: {len(target_items)} items, the English has {len(source_items)}")
            continue
        for index, (a, b) in enumerate(zip(source_items, target_items, strict=True), start=1):
            if keyed_items and (key := KEY.match(a)) and not b.startswith(key.group(0)):
                problems.append(f"{where}, item {index}: must start with {key.group(0)!r}")
            try:
                wanted, got = fields(a), fields(b)
            except ValueError:
                # A literal brace in prose that is no template: compare the text of braces instead.
                wanted, got = set(re.findall(r"\{\w+\}", a)), set(re.findall(r"\{\w+\}", b))
            if wanted != got:
                problems.append(
                    f"{where}, item {index}: placeholders {sorted(got)}, the English {sorted(wanted)}"
                )
    return problems


def translated_documents() -> list[tuple[str, str, str, Path]]:
    """Every translated rules document present: (language, game, document, path)."""
    found = []
    for lang in LANGUAGES:
        if lang == SOURCE:
            continue
        for game in GAMES:
            for name in DOCUMENTS:
                path = translated_path(_package(game), name, lang)
                if path.is_file():
                    found.append((lang, game, name, path))
    return found


def check_documents() -> list[str]:
    """One line per structural difference of a translated rules document from its English."""
    problems: list[str] = []
    for lang, game, name, path in translated_documents():
        where = f"locales/{lang}/rules/{game}/{name}"
        try:
            english = packaged_text(_package(game), name)
        except FileNotFoundError:
            problems.append(f"{where}: the game has no English {name} to translate")
            continue
        keyed = name == "option_rulings.md"
        for problem in structure_problems(english, path.read_text(encoding="utf-8"), keyed_items=keyed):
            problems.append(f"{where}: {problem}")
    return problems
