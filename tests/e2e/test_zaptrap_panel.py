"""Zap or Trap's private panel fits one phone screen (issue 33): the hand and the face-up cards are
the pictures (their words in the alt texts), not lists in the panel's text as well; the signals
are one line in play; the face-up cards become buttons only once a hand card is picked to give;
no disabled buttons.

Drawn straight from engine states, through the real layout (``Drawing.layout``), as Discord
would receive them: no Discord and no database needed.
"""

from __future__ import annotations

from typing import Any

from cogs.drawings.zaptrap_words import card_label
from cogs.table.layout import Drawing, Picture
from cogs.table.model import SeatInfo, Table
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
    for code in view["table"]:
        assert card_label(code, view) not in text
        assert card_label(code, view) in pictures[1].alt
    for code in view["hand"]:
        assert card_label(code, view) in pictures[0].alt
    head = text.split("\n")
    assert head[0] == "## Your hand — round 1"
    assert head[1].startswith("You signal **") and "signals **" in head[1]
    assert "watches for it" not in text and "You watch" not in text


def test_the_face_up_cards_are_buttons_only_once_a_hand_card_is_picked() -> None:
    table = _table()
    view = table.state.view(0)  # type: ignore[union-attr]
    ui = ZapTrapUI()
    drawing, _ = _drawn(ui, table)
    rows = _controls(drawing)
    controls = [c for row in rows for c in row]
    assert not any(c.get("disabled") for c in controls)
    actions = [c["custom_id"].split(":", 3)[3] for c in controls]
    assert [a for a in actions if a.startswith("nav-g")] == [f"nav-g{c}" for c in view["hand"]]
    assert not [a for a in actions if a.startswith(("nav-t", "S"))]
    assert len(rows) <= 3  # the hand, the calls, Refresh (and Deal, Other calls…)
    give = view["hand"][0]
    drawing, _ = _drawn(ui, table, f"nav-g{give}"[4:])
    actions = [c["custom_id"].split(":", 3)[3] for row in _controls(drawing) for c in row]
    assert [a for a in actions if a.startswith("S")] == [f"S{give}-{t}" for t in view["table"]]
    assert "nav-none" in actions
