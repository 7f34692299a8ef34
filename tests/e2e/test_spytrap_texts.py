"""Spy Trap's texts are data until they are shown: the engine's events, refusals and result carry
codes and numbers, and the cog words them when drawn. So a game stored today, or stored before the
catalogs, reads the same when it is shown again.

``spytrap_before_catalogs.json`` was made by the code before the move (the engine then wrote English
sentences): a snapshot of a game in progress (its opening events hold their sentence, ``text``), and
a whole game's events as the Latest lines stored them then (``Event.to_json()``, sentence included)
with the lines the table showed for them (seats named alice, bob and carol).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cogs.spytrap import SpyTrapUI
from cogs.table import latest
from cogs.table.model import SeatInfo, Table
from rules.base import Event, IllegalAction
from rules.replay import replay
from rules.selfplay import play_game
from rules.spytrap import SpyTrap, SpyTrapState

GAME = SpyTrap()
BEFORE = json.loads((Path(__file__).parent / "spytrap_before_catalogs.json").read_text(encoding="utf-8"))


def make_table(state: SpyTrapState, names: list[str]) -> Table:
    seats = [SeatInfo(s, 1000 + s, names[s]) for s in range(state.players)]
    return Table(
        id=1, guild_id=1, channel_id=1, game=GAME, host_id=1000,
        settings={"seats": state.players, "rules": {}}, speed="relaxed", seed=0,
        status="playing", seats=seats, state=state,
    )  # fmt: skip


def sentences(value: Any) -> list[str]:
    """Every string in a JSON value that reads like a sentence (has a space)."""
    if isinstance(value, str):
        return [value] if " " in value else []
    if isinstance(value, dict):
        return [s for v in value.values() for s in sentences(v)]
    if isinstance(value, list):
        return [s for v in value for s in sentences(v)]
    return []


def test_a_snapshot_stored_before_the_catalogs_loads_and_plays_on() -> None:
    data = BEFORE["snapshot"]
    assert any("text" in e for e in data["opening_events"])  # the old format, sentences and all
    state = GAME.from_json(json.loads(json.dumps(data)))
    # The sentences are dropped; the kinds and data stay, and say the same.
    assert [e.kind for e in state.opening_events] == [e["kind"] for e in data["opening_events"]]
    assert all("text" not in e.to_json() for e in state.opening_events)
    assert [e.data for e in state.opening_events] == [e["data"] for e in data["opening_events"]]
    again = state.to_json()
    assert sentences(again) == [] and GAME.from_json(again).to_json() == again
    table = make_table(state, BEFORE["names"])
    ui = SpyTrapUI()
    assert ui.event_line(table, state.opening_events[0]) == data["opening_events"][0]["text"]
    # The game goes on from where it was stored.
    seat = state.view(None)["waiting"][0]
    events = state.apply(seat, state.legal_actions(seat)[0])
    assert events and all("text" not in e.to_json() and sentences(e.data) == [] for e in events)
    assert [ui.event_line(table, e) for e in events]


def test_latest_lines_stored_before_the_catalogs_read_as_they_did() -> None:
    """Each old entry is worded from its kind and data, with today's names: the same line."""
    entries, lines = BEFORE["entries"], BEFORE["lines"]
    assert len(entries) == len(lines) > 50
    state = GAME.from_json(BEFORE["snapshot"])
    table = make_table(state, BEFORE["names"])
    ui = SpyTrapUI()
    shown = [latest.line(table, entry, ui.event_line) for entry in entries]
    # One exception: the referee's draw for a drawer out of time named the pile only in its
    # sentence then (its data has it now), so an old one says the referee drew, not from where.
    old_draws = [
        i for i, e in enumerate(entries) if e["kind"] == "timeout" and e["data"]["action"] == "auto-draw"
    ]
    assert old_draws and all("pile" not in entries[i]["data"] for i in old_draws)
    for i in old_draws:
        assert (
            shown[i]
            == f"**{BEFORE['names'][entries[i]['seat']]}** ran out of time: the referee draws for them."
        )
        assert lines[i].startswith(
            f"**{BEFORE['names'][entries[i]['seat']]}** ran out of time: the referee draws"
        )
    assert [x for i, x in enumerate(shown) if i not in old_draws] == [
        x for i, x in enumerate(lines) if i not in old_draws
    ]


def test_a_stored_game_shown_again_from_its_action_log_gives_the_same_latest_lines() -> None:
    names = ["alice", "b*b", "carol", "dan"]
    shown: list[str] = []
    stored: list[Any] = []
    table: Table | None = None
    ui = SpyTrapUI()

    def on_action(state: Any, _seat: int | None, _action: str, events: list[Event]) -> None:
        nonlocal table
        if table is None:
            table = make_table(state, names)
            opening = list(state.opening_events)
            stored.extend(e.to_json() for e in opening)
            shown.extend(ui.event_line(table, e) for e in opening)
        stored.extend(e.to_json() for e in events)
        shown.extend(ui.event_line(table, e) for e in events)

    record = play_game(GAME, 4, {}, 21, ["sharp", "casual"], on_action=on_action)
    assert record.state.is_over() and len(shown) > 100
    # Stored as data: no sentence and no name in any entry.
    kept = json.loads(json.dumps(stored))
    assert sentences(kept) == [] and not any(name in json.dumps(kept) for name in names)
    # Shown again from the stored entries…
    later = make_table(record.state, names)  # type: ignore[arg-type]
    assert [latest.line(later, entry, ui.event_line) for entry in kept] == shown
    # …and from the action log, rebuilt by the engine.
    outcome = replay(json.loads(json.dumps(record.to_json())))
    assert outcome.ok and outcome.state.is_over()
    again = make_table(outcome.state, names)  # type: ignore[arg-type]
    assert [ui.event_line(again, e) for e in outcome.events] == shown
    # A renamed seat is shown as it is called now.
    later.seats[1] = SeatInfo(1, 1001, "bea")
    renamed = [latest.line(later, entry, ui.event_line) for entry in kept]
    assert any("**bea**" in line for line in renamed) and not any("b\\*b" in line for line in renamed)


def test_the_result_and_refusals_are_data_worded_by_the_cog() -> None:
    record = play_game(GAME, 3, {}, 5, ["sharp"])
    state = record.state
    result = state.result()
    assert result is not None and "summary" not in result.to_json() and result.how == state.end_reason
    assert set(result.details) == {"winner", "files"}
    table = make_table(state, ["alice", "bob", "carol"])
    ui = SpyTrapUI()
    try:
        state.apply(0, "draw-0")
    except IllegalAction as error:
        assert error.code == "game_over" and error.params == {}
        assert ui.refusal(table, error) == "The game is over."
    else:
        raise AssertionError("a finished game took an action")
    fresh = GAME.new_game(3, None, 1)
    try:
        fresh.apply(0, "pile-FAM1")
    except IllegalAction as error:
        assert error.code in ("pile_size", "card_not_held")
        assert ui.refusal(table, error).startswith("Your pile must have exactly 3 cards") or "'FAM1'" in (
            ui.refusal(table, error)
        )
