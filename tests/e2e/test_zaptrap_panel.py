"""Zap or Trap's private panel fits one phone screen (issue 33): the hand and the face-up cards are
the pictures (their words in the alt texts), not lists in the panel's text as well; no title in
play, the signals two short lines, every name short (a long one would wrap a line or three); the
swaps are one select ("Give X · take Y"), the calls one row of short buttons (a call stays one
tap), no Refresh in play (the panel follows the table); no disabled buttons.

Drawn straight from engine states, through the real layout (``Drawing.layout``), as Discord
would receive them: no Discord and no database needed.
"""

from __future__ import annotations

from typing import Any

import pytest

from cogs.drawings.zaptrap_panel import LINE, _width, short_names
from cogs.drawings.zaptrap_words import card_label
from cogs.table.layout import Drawing, Picture
from cogs.table.model import SeatInfo, Table
from cogs.words.zaptrap import signal_text
from cogs.zaptrap import GAME, ZapTrapUI
from rules.zaptrap import ZapTrapState

LONG = "Maximiliana Evangelista-Papadopoulou"


def _table(players: int = 3) -> Table:
    state = GAME.new_game(players, None, 5)
    assert isinstance(state, ZapTrapState)
    for seat in range(players):
        chosen = [a for a in state.legal_actions(seat) if a.startswith("signal-")]
        if chosen:
            state.apply(seat, chosen[seat % len(chosen)])
    assert state.view(0)["phase"] == "play"
    table = Table(1, 1, 2, GAME, 100, {"seats": players, "rules": {}}, "relaxed", 5, status="playing")
    table.seats = [SeatInfo(i, 100 + i, f"{LONG} {i}") for i in range(players)]
    table.state, table.version = state, 7
    return table


def _drawn(ui: ZapTrapUI, table: Table, nav: str | None = None) -> tuple[Drawing, list[Picture]]:
    embed, items = ui.panel(table, 0, None, nav)
    pictures = [Picture(s.filename, b"", s.alt, small=s.small) for s in ui.panel_sketches(table, 0, nav)]
    return Drawing(embed, items, pictures), pictures


def _controls(drawing: Drawing) -> list[list[dict[str, Any]]]:
    container = drawing.layout.components[0]
    return [row["components"] for row in container["components"] if row["type"] == 1]


def test_in_play_the_cards_are_pictures_and_the_signals_one_line() -> None:
    table = _table()
    view = table.state.view(0)  # type: ignore[union-attr]
    drawing, pictures = _drawn(ZapTrapUI(), table)
    text = drawing.layout.text
    assert "Your hand:" not in text and "On the table:" not in text
    (picture,) = pictures  # one picture: the hand above the face-up cards
    hand_alt, table_alt = picture.alt.split(". Face up on the table, ")
    for code in view["table"]:
        assert card_label(code, view) not in text
        assert card_label(code, view) in table_alt
    for code in view["hand"]:
        assert card_label(code, view) in hand_alt
    head = text.split("\n")
    # No title in play: the signals come first, one short line each, the names short.
    assert head[0] == f"You → **Maxi…u 1**: **{signal_text(view['my_signal'])}**"
    assert head[1] == f"**Maxi…u 2** → you: **{signal_text(view['watch_signal'])}**"
    assert "round" not in text and "##" not in text
    assert "watches for it" not in text and "You watch" not in text and LONG not in text
    # The table shows the scores and the dealer: in play the panel keeps what you act on.
    assert "score" not in text and "dealer" not in text


def _actions(rows: list[list[dict[str, Any]]]) -> list[str]:
    return [c["custom_id"].split(":", 3)[3] for row in rows for c in row if c["type"] == 2]


def _swaps(rows: list[list[dict[str, Any]]]) -> list[tuple[str, str]]:
    """Every swap the selects offer: (action, label)."""
    return [
        (c["custom_id"].split(":", 3)[3] + o["value"], o["label"])
        for row in rows
        for c in row
        if c["type"] == 3
        for o in c["options"]
    ]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_in_play_the_swaps_are_one_select_and_the_calls_one_row(players: int) -> None:
    table = _table(players)
    state = table.state
    assert isinstance(state, ZapTrapState)
    view = state.view(0)
    legal = set(state.legal_actions(0))
    rows = _controls(_drawn(ZapTrapUI(), table)[0])
    controls = [c for row in rows for c in row]
    assert not any(c.get("disabled") for c in controls)
    # Row 1: the swaps, every legal one by its faces ("Give X · take Y"), nothing else.
    assert [c["type"] for c in rows[0]] == [3]
    offered = _swaps(rows)
    assert all(action in legal for action, _ in offered)
    faces = {
        (card_label(a[1:].split("-")[0], view), card_label(a.split("-")[1], view))
        for a in legal
        if a.startswith("S")
    }
    assert {(label) for _, label in offered} == {f"Give {g} · take {t}" for g, t in faces}
    assert len(offered) == len(faces), "two copies of a card are one option"
    # No card buttons: the pictures show the cards.
    actions = _actions(rows)
    assert not [a for a in actions if a.startswith(("nav-g", "nav-t", "S"))]
    # Row 2: ZAP on the watched seat, TRAP on the others; no Refresh (the panel follows the table).
    calls = [a for a in actions if a.startswith(("ZAP-", "TRAP-"))]
    assert calls[0] == f"ZAP-{view['watch_seat']}"
    assert all(a in legal for a in calls)
    assert [c["custom_id"].split(":", 3)[3] for c in rows[1]][: len(calls)] == calls
    labels = [c["label"] for c in rows[1]]
    assert labels[0] == "ZAP" and all(len(label) <= len("TRAP ") + 8 for label in labels), labels
    assert len(set(labels)) == len(labels), "the shortened names still tell the targets apart"
    assert "refresh" not in actions
    assert len(rows) <= 3  # the select, the calls (and Other calls…)


def test_a_seven_card_hand_splits_its_swaps_over_two_selects() -> None:
    """Seven different cards and four face up: 28 swaps, more than a select's 25 options; the
    last card's swaps are a second select, none is dropped."""
    table = _table()
    state = table.state
    assert isinstance(state, ZapTrapState)
    view = state.view(0)
    pool = state.table + state.hands[0] + state.deck
    faces: dict[str, str] = {}  # one code per face
    for code in pool:
        faces.setdefault(card_label(code, view), code)
    distinct = list(faces.values())
    assert len(distinct) >= 11
    state.table, state.hands[0] = distinct[:4], distinct[4:11]
    state.deck = [c for c in state.deck if c not in distinct[:11]]
    rows = _controls(_drawn(ZapTrapUI(), table)[0])
    legal = {a for a in state.legal_actions(0) if a.startswith("S")}
    assert len(legal) == 28
    assert sorted(a for a, _ in _swaps(rows)) == sorted(legal)
    assert [c["type"] for c in rows[0]] == [3] and [c["type"] for c in rows[1]] == [3]


def test_short_names_stay_apart() -> None:
    assert short_names(["Robo 1 (casual)", "Robo 2 (casual)"]) == ["Robo 1", "Robo 2"]
    assert short_names(["Robo (casual)", "Robo (sharp)"]) == ["Robo (c…", "Robo (s…"]
    assert short_names([f"{LONG} 1", f"{LONG} 2"]) == ["Maxi…u 1", "Maxi…u 2"]
    assert short_names(["alice", "bob"]) == ["alice", "bob"]


# The longest names a seat can have: a person's display name (32 characters) and a computer's.
PERSON = "Wilhelmina Bartholomew-Kowalskyy"
COMPUTER = "Robo {n} (thoughtful)"


def _long_named(players: int, names: list[str]) -> Table:
    table = _table(players)
    table.seats = [SeatInfo(i, 100 + i, name) for i, name in enumerate(names)]
    return table


def _lines(text: str) -> list[str]:
    """The panel's text as a phone shows it, a line per line of text (the clock's countdown left
    out: the page words it)."""
    return [line for line in text.split("\n") if line and not line.startswith("⏰")]


@pytest.mark.parametrize(
    "names",
    [
        [PERSON, PERSON[:-1] + "1", PERSON[:-1] + "2"],
        [COMPUTER.format(n=n) for n in range(1, 4)],
        [f"{LONG} {n}" for n in range(4)],
    ],
    ids=["people", "computers", "four people"],
)
def test_in_play_long_names_keep_every_line_short(names: list[str]) -> None:
    """Issue 33: in play the panel has no title (the signal lines say what matters) and each of
    its lines fits a 360 px phone's width (``LINE`` characters), whatever the names: on the old
    panel a title and one signal sentence with three 32-character names took six phone lines."""
    table = _long_named(len(names), names)
    state = table.state
    assert isinstance(state, ZapTrapState)
    others = [s for s in range(len(names)) if s != 0]
    for seat in others:  # gestures from everyone else, the newest last
        state.apply(seat, "gesture-yawn")
    drawing, _ = _drawn(ZapTrapUI(), table)
    text = drawing.layout.text
    assert "##" not in text, "no title in play"
    lines = _lines(text)
    assert 1 <= len(lines) <= 4, lines  # the signals (one or two lines), a set, the gestures
    assert all(_width(line.replace("**", "")) <= LINE for line in lines), lines
    assert lines[-1].startswith("Gestures: ") and lines[-1].endswith("🥱")
    assert all(name not in text for name in names)


@pytest.mark.parametrize("players", [3, 4])
def test_choosing_a_signal_with_long_names_takes_few_lines(players: int) -> None:
    """While signals are chosen: a one-line title, the names short, the text within ten phone
    lines (with 32-character names the old panel's took fourteen)."""
    state = GAME.new_game(players, None, 5)
    assert isinstance(state, ZapTrapState)
    table = _long_named(players, [PERSON[:-1] + str(n) for n in range(players)])
    table.state = state
    text = ZapTrapUI().panel(table, 0, None)[0].to_dict()
    title = str(text.get("title", ""))
    assert title == "Round 1: your signal" and _width(title) <= 21
    lines = [*str(text["description"]).split("\n"), text["footer"]["text"]]
    assert all(PERSON[:-1] not in line for line in lines), lines
    wrapped = sum(-(-_width(line.replace("**", "")) // LINE) for line in lines)
    assert wrapped <= 10, lines
