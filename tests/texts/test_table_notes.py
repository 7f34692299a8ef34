"""What the table says as data is worded when shown, in the language of that moment: a computer's
level, the lobby's notes, why a table ended, and why a game refused its options (engines raise
``OptionError`` with a code, never a sentence people read)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

import cogs.texts as texts
from cogs.table.lobby import Clicker, Lobby
from cogs.table.model import SeatInfo, Table
from cogs.table.notes import level_name, note, worded
from cogs.table.options import option_refusal, speed_name
from cogs.texts import speaking
from cogs.zipzap import ZipZapUI
from rules import GAMES
from rules.base import OptionError

GERMAN: list[tuple[str | tuple[str, ...], str | tuple[str, ...], str | None]] = [
    ("{name} joined.", "{name} ist dabei.", None),
    ("{name} left.", "{name} ist gegangen.", None),
    ("{name} is the host now.", "{name} leitet jetzt den Tisch.", None),
    ("Stopped by {name}. No results were recorded.", "Beendet von {name}. Nichts wurde gewertet.", None),
    ("A {level} computer player sat down.", "Ein Computer ({level}) hat sich gesetzt.", None),
    ("sharp", "scharf", "computer level"),
    ("fast", "schnell", "speed"),
    ("Robo {number} ({level})", "Robo {number} ({level})", None),
    (
        "{option} must be a whole number from {low} to {high}.",
        "{option} muss eine ganze Zahl von {low} bis {high} sein.",
        None,
    ),
    (
        ("{game} has no option {options}.", "{game} has no options {options}."),
        ("{game} kennt die Option {options} nicht.", "{game} kennt die Optionen {options} nicht."),
        None,
    ),
]


@pytest.fixture
def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    catalog = Catalog(locale="de", domain="table")
    for message, translation, context in GERMAN:
        catalog.add(message, translation, context=context)
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "table.po").open("wb") as po:
        write_po(po, catalog)
    monkeypatch.setattr(texts, "LOCALES", tmp_path)
    texts.translations.cache_clear()
    yield
    texts.translations.cache_clear()


def _lobby_table() -> Table:
    table = Table(1, 1, 1, GAMES["zipzap"], 100, {"seats": 4, "rules": {}}, "relaxed", 7)
    table.seats = [SeatInfo(0, 100, "Bea"), SeatInfo(1, 101, "Al")]
    return table


def test_notes_are_data_worded_in_the_language_when_shown(german: None) -> None:
    lobby = Lobby({"zipzap": ZipZapUI()})
    draft = _lobby_table().draft()
    edit = lobby.edit(draft, Clicker(100, "Bea", False), "leave", None)
    assert all(not isinstance(n, str) for n in edit.note)  # data, not a sentence
    assert worded(edit.note) == "Bea left. Al is the host now."
    with speaking("de"):
        assert worded(edit.note) == "Bea ist gegangen. Al leitet jetzt den Tisch."
    added = lobby.edit(draft, Clicker(101, "Al", False), "cpu", "sharp")
    with speaking("de"):
        assert worded(added.note) == "Ein Computer (scharf) hat sich gesetzt."
        assert draft.seats[-1].plain_name == "Robo 1 (scharf)"  # its level, worded too
        assert lobby.embed(draft, added.note).footer.text == "Ein Computer (scharf) hat sich gesetzt."
    assert worded(added.note) == "A sharp computer player sat down."
    assert draft.seats[-1].plain_name == "Robo 1 (sharp)"


def test_why_a_table_ended_is_worded_at_each_drawing(german: Any) -> None:
    ended = note("stopped_by", name="**Bea**")
    assert worded(ended) == "Stopped by \\*\\*Bea\\*\\*. No results were recorded."  # Markdown, escaped
    with speaking("de"):
        assert worded(ended) == "Beendet von \\*\\*Bea\\*\\*. Nichts wurde gewertet."
    assert worded(None) == ""
    with pytest.raises(ValueError):
        worded(note("no_such_note"))


def test_level_names_go_through_the_catalog(german: None) -> None:
    assert level_name("sharp") == "sharp"
    with speaking("de"):
        assert level_name("sharp") == "scharf"
        assert level_name("casual") == "casual"  # not in this catalog: the English
        assert level_name("unheard_of") == "unheard_of"
    for game in GAMES.values():
        for level in game.computer_levels:
            assert level_name(level) == level, "every game's level is worded (add it to level_name)"


@pytest.mark.parametrize(
    ("game", "options", "code", "english"),
    [
        (
            "zipzap",
            {"rounds": 99},
            "out_of_range",
            "`rounds` must be a whole number from 1 to 50, or left empty.",
        ),
        ("zipzap", {"scoring": "x"}, "not_a_choice", "`scoring` must be `cards` or `first_out`, not `x`."),
        ("zipzap", {"colour": 1, "mood": 2}, "unknown", "Zip Zap has no options `colour` and `mood`."),
        (
            "zaptrap",
            {"copies": 1, "doubles": 0},
            "no_sets",
            "With so few cards per species nobody could ever hold a set of four.",
        ),
        ("zaptrap", {"lull": "x"}, "not_a_choice", "`lull` must be `auto` or `dealer`, not `x`."),
        (
            "zaptrap",
            {"refuse_wrong_targets": "yes"},
            "not_a_flag",
            "`refuse_wrong_targets` must be true or false.",
        ),
        (
            "spytrap",
            {"round_limit": 1},
            "out_of_range",
            "`round_limit` must be a whole number from 5 to 200.",
        ),
        (
            "gifttrap",
            {"track_length": 4},
            "out_of_range",
            "`track_length` must be a whole number from 5 to 60.",
        ),
        ("gifttrap", {"strategy_cards": 1}, "not_a_flag", "`strategy_cards` must be true or false."),
        ("trap", {"size": 7}, "not_a_choice", "`size` must be `5` or `6`, not `7`."),
        ("trap", {"variant": "queen"}, "not_a_choice", "`variant` must be `basic` or `king`, not `queen`."),
        ("trap", {"quick_setup": "no"}, "not_a_flag", "`quick_setup` must be true or false."),
    ],
)
def test_an_engine_refuses_options_as_data(
    game: str, options: dict[str, Any], code: str, english: str
) -> None:
    with pytest.raises(OptionError) as refused:
        GAMES[game].parse_options(options)
    assert refused.value.code == code
    assert option_refusal(GAMES[game].title, refused.value) == english


def test_an_option_refusal_is_worded_in_the_language(german: None) -> None:
    with pytest.raises(OptionError) as refused:
        GAMES["gifttrap"].parse_options({"track_length": 1000})
    with pytest.raises(OptionError) as unknown:
        GAMES["trap"].parse_options({"colour": "red"})
    with speaking("de"):
        assert (
            option_refusal("GiftTRAP", refused.value)
            == "`track_length` muss eine ganze Zahl von 5 bis 60 sein."
        )
        assert option_refusal("Trap", unknown.value) == "Trap kennt die Option `colour` nicht."
    # The engine's own text stays English, for scenario files and the command line.
    assert str(refused.value) == "The track length must be a whole number from 5 to 60."


def test_a_tables_speed_is_worded_as_its_command_names_it(german: None) -> None:
    """The same messages as /… new's speed choices (context "speed"): a table's options lines
    showed the raw id before."""
    assert speed_name("fast") == "fast"
    with speaking("de"):
        assert speed_name("fast") == "schnell"
        assert speed_name("off") == "off"  # not in this catalog: the English
        assert speed_name("warp") == "warp"


def test_an_option_refusal_names_the_option_as_discord_shows_it() -> None:
    """In Polish Discord shows `/gifttrap new`'s track_length as the catalog's translation, so a
    refusal must name it so (it said the English key before)."""
    with pytest.raises(OptionError) as refused:
        GAMES["gifttrap"].parse_options({"track_length": 1000})
    with speaking("pl"):
        text = option_refusal("GiftTRAP", refused.value)
    assert "`track_length`" not in text and "`długość_toru`" in text, text
