"""The games' full rules and house rulings in the reader's language: a translation kept in
locales/<lang>/rules/<game>/ is read as the English is (same items, keys and placeholders), and
a game or document not translated yet reads in English. Every translated document present must
keep the English one's structure (``python -m cogs.texts check`` says where it does not)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import rules.base as base
from cogs.help import rules_embeds
from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from cogs.texts import GAMES, speaking
from cogs.texts.rules_documents import DOCUMENTS, check_documents, structure_problems
from rules import GAMES as ENGINES
from rules.base import game_document, packaged_text


@pytest.fixture
def documents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty locales/ of translated rules documents; each test writes what it needs."""
    monkeypatch.setattr(base, "LOCALES", tmp_path)
    game_document.cache_clear()
    yield tmp_path
    game_document.cache_clear()


def _english(game: str, name: str) -> str:
    return packaged_text(f"rules.{game}", name)


def _write(root: Path, lang: str, game: str, name: str, text: str) -> None:
    folder = root / lang / "rules" / game
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def _german(text: str) -> str:
    """A stand-in translation: the same structure, some words German."""
    return text.replace("The ", "Die ").replace("the ", "die ").replace(" is ", " ist ")


def test_every_translated_document_present_keeps_the_english_structure() -> None:
    problems = check_documents()
    assert not problems, "\n".join(problems)


def test_each_english_document_has_its_own_structure() -> None:
    for game in GAMES:
        for name in DOCUMENTS:
            try:
                text = _english(game, name)
            except FileNotFoundError:
                continue
            assert structure_problems(text, text, keyed_items=name == "option_rulings.md") == []


def test_a_broken_translation_is_found(documents: Path) -> None:
    option_rulings = _english("zipzap", "option_rulings.md")
    _write(
        documents, "de", "zipzap", "option_rulings.md", option_rulings.replace("rounds.one:", "runden.eins:")
    )
    rulings = _english("gifttrap", "rulings.md")
    _write(documents, "pl", "gifttrap", "rulings.md", rulings.replace("({track_length})", "(długość)"))
    zaptrap = _english("zaptrap", "option_rulings.md")
    _write(
        documents, "es", "zaptrap", "option_rulings.md", zaptrap.replace("## deck_kemps", "## baraja_kemps")
    )
    trap = _english("trap", "rulings.md")
    first = trap.index("\n- ")
    _write(documents, "pt_BR", "trap", "rulings.md", trap[:first] + trap[trap.index("\n- ", first + 1) :])
    problems = check_documents()
    assert any("de/rules/zipzap/option_rulings.md" in p and "'rounds.one: '" in p for p in problems), problems
    assert any(
        "pl/rules/gifttrap/rulings.md" in p and "placeholders [], the English ['track_length']" in p
        for p in problems
    ), problems
    assert any("es/rules/zaptrap/option_rulings.md" in p and "## key headings" in p for p in problems), (
        problems
    )
    assert any("pt_BR/rules/trap/rulings.md" in p and "items, the English has" in p for p in problems), (
        problems
    )
    assert len(problems) == 4, problems


def _interaction() -> Any:
    """What rules_embeds reads of an interaction: the channel, and the bot's referee (no table)."""
    referee = Referee(None, None, Scheduler())  # type: ignore[arg-type]  # never started
    return SimpleNamespace(channel_id=1, client=SimpleNamespace(referee=referee))


@pytest.mark.parametrize("game", GAMES)
def test_a_reader_sees_the_rules_in_their_language(documents: Path, game: str) -> None:
    engine = ENGINES[game]
    options = engine.parse_options({})
    english = (engine.rules_text(), engine.house_rulings(options))
    for name in DOCUMENTS:
        try:
            _write(documents, "de", game, name, _german(_english(game, name)))
        except FileNotFoundError:
            continue
    assert not check_documents()
    german = (engine.rules_text("de"), engine.house_rulings(options, "de"))
    assert german[0] != english[0] and german[0] == _german(english[0])
    assert len(german[1]) == len(english[1]) and german[1] != english[1]
    with speaking("de"):
        shown = rules_embeds(engine, _interaction())
    assert shown[0].description == german[0][:4096]
    assert shown[1].description is not None and german[1][0][:60] in shown[1].description
    # A language with no translated documents, and English itself, read the English.
    assert engine.rules_text("pl") == english[0] and engine.house_rulings(options, "pl") == english[1]
    with speaking("en"):
        assert rules_embeds(engine, _interaction())[0].description == english[0][:4096]


def test_a_document_not_translated_yet_reads_in_english(documents: Path) -> None:
    engine = ENGINES["gifttrap"]
    _write(documents, "es", "gifttrap", "rules.md", "# GiftTRAP\n\nReglas en español.\n")
    assert engine.rules_text("es").endswith("Reglas en español.\n")
    assert engine.house_rulings(None, "es") == engine.house_rulings(None)  # rulings.md not translated
