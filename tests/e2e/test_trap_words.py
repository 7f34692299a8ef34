"""Trap's words, made by the cog from the engine's data (cogs/trap.py, cogs/drawings/trap_*.py):
every refusal and event line as players read them, a stored game shown again from its action log
reading as it did when played, and snapshots stored before the texts moved still loading.

No Discord connection is needed: a Table is built around the engine state, as the referee holds it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.table import latest
from cogs.table.model import SeatInfo, Table
from cogs.trap import TrapUI
from rules.base import Event, IllegalAction
from rules.selfplay import play_game
from rules.trap import Trap, TrapState
from tests.rules.trap_helpers import position

GAME = Trap()
NAMES = ["alice", "Blue (B)"]  # a name that reads like the engine's old words is only a name

# Stored by the code before the texts moved to the cog (main at 53c24a8): its events carried their
# English sentence ("text") and its outcome a "summary".
OLD_START = json.loads(
    '{"game": "trap", "version": 1, "players": 2, "options": {"variant": "king", "size": 5, "quick_se'
    'tup": false}, "seed": 11, "phase": "piece_drop", "to_move": 0, "board": [-1, -1, -1, -1, -1, -1,'
    ' -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1], "heads": [null, nu'
    "ll, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, nu"
    "ll, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, nu"
    'll, null, null, null, null, null, null], "pawns_to_drop": [8, 8], "captured": [[], []], "last": '
    'null, "ply": 0, "quiet_plies": 0, "positions": [], "actions_applied": 0, "outcome": null, "fixed'
    '_arrows": null, "opening_events": [{"kind": "phase", "text": "Piece Drop begins: Red (A) drops f'
    'irst.", "seat": null, "data": {"phase": "piece_drop", "to_move": 0}}]}'
)
OLD_OVER = json.loads(
    '{"game": "trap", "version": 1, "players": 2, "options": {"variant": "king", "size": 5, "quick_se'
    'tup": false}, "seed": 5, "phase": "over", "to_move": null, "board": [-1, -1, -1, -1, -1, -1, -1,'
    ' -1, -1, -1, -1, -1, -1, -1, 0, -1, 2, -1, -1, -1, -1, -1, 1, -1, -1], "heads": [0, 2, 2, 3, 5, '
    "7, 8, 8, 11, 12, 12, 13, 15, 17, 17, 18, 20, 21, 23, 24, 0, 5, 10, 20, 6, 11, 11, 21, 2, 7, 17, "
    '17, 3, 8, 13, 18, 4, 14, 19, 24], "pawns_to_drop": [0, 0], "captured": [[{"point": "e2", "king":'
    ' false, "ply": 17}], [{"point": "c4", "king": true, "ply": 97}]], "last": {"kind": "move", "seat'
    '": 1, "action": "b5>c5", "auto": false, "from": "b5", "to": "c5", "swap": null, "flips": ["c5>b5'
    '", "c5>d5", "c5>c4"], "captures": [{"point": "c4", "owner": 1, "king": true}]}, "ply": 97, "quie'
    't_plies": 0, "positions": ["..............a.A.....b../0100011011000100001100011101001000000111/0'
    '"], "actions_applied": 137, "outcome": {"winners": [0], "reason": "king", "summary": "Red (A) wi'
    'ns: the blue King is captured."}, "fixed_arrows": null, "opening_events": [{"kind": "phase", "te'
    'xt": "Arrow Drop begins: Blue (B) drops the first arrow.", "seat": null, "data": {"phase": "arro'
    'w_drop", "to_move": 1}}]}'
)


def table_for(state: TrapState) -> Table:
    seats = [SeatInfo(s, 1000 + s, NAMES[s]) for s in range(2)]
    return Table(
        id=1, guild_id=1, channel_id=1, game=GAME, host_id=1000,
        settings={"seats": 2, "rules": GAME.options_to_json(state.options)}, speed="relaxed", seed=0,
        status="playing", seats=seats, state=state,
    )  # fmt: skip


def worded(state: TrapState, seat: int | None, action: str) -> str:
    """The sentence a player reads for a refused action."""
    try:
        state.apply(seat, action)
    except IllegalAction as error:
        return TrapUI().refusal(table_for(state), error)
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def test_every_refusal_reads_as_before() -> None:
    state = GAME.new_game(2, GAME.parse_options({}), 1)
    assert worded(state, 1, "c3") == "It is not your turn: wait for the other player."
    state.apply(0, "c3")
    assert worded(state, 1, "c3") == "c3 is taken: drop your pawn on an empty point."
    assert worded(state, 1, "c3>c4") == "Pawns come first: drop a pawn on an empty point, such as 'c3'."
    assert worded(state, 1, "f1") == "There is no point f1 on this 5 × 5 board: points run from a1 to e5."
    assert worded(state, 1, "zz") == (
        "'zz' is not a Trap action: name a point such as 'c3', or an arrow or move such as 'c3>c4'."
    )
    assert worded(state, 5, "a1") == "That seat is not at this table."
    main = position(["a5"], ["c3"])
    assert (
        worded(main, 1, "c3>b3")
        == "The arrow between c3 and b3 points to c3: you can never move against an arrow."
    )
    assert worded(main, 1, "a5>b5") == "You have no pawn on a5."
    assert worded(main, 1, "c3") == "Main play has begun: move a pawn along an arrow, such as 'c3>c4'."
    assert worded(main, None, "c3>c4") == "Only a player can drop or move a piece."
    assert worded(main, 1, "auto") == "Only the referee moves for a player whose time has run out."
    six = GAME.new_game(2, GAME.parse_options({"size": 6}), 1)
    assert worded(six, 0, "a9") == "There is no point a9 on this 6 × 6 board: points run from a1 to f6."
    arrows = GAME.new_game(2, GAME.parse_options({}), 1, {"pawns": [["a1"], ["e5"]]})
    assert worded(arrows, 1, "e5") == (
        "All pawns are down: now drop an arrow along a line, such as 'c3>c4' (pointing to c4)."
    )
    assert worded(arrows, 1, "a1>c1") == (
        "a1 and c1 are not neighbours: an arrow lies along one line between two neighbouring points, "
        "and a pawn moves one line at a time."
    )
    arrows.apply(1, "a1>b1")
    assert worded(arrows, 0, "b1>a1") == "The line a1–b1 already has its arrow."
    over = GAME.from_json(OLD_OVER)
    assert worded(over, 1, "b1>a1") == "The game is over."


def test_event_lines_name_the_players_as_they_are_now() -> None:
    ui = TrapUI()
    state = GAME.new_game(2, GAME.parse_options({"variant": "king"}), 1)
    table = table_for(state)
    assert [ui.event_line(table, e) for e in state.opening_events] == [
        "Piece Drop begins: **alice** (red, A) drops first."
    ]
    assert ui.event_line(table, state.apply(0, "c3")[0]) == "**alice** dropped their King on c3."
    assert ui.event_line(table, state.apply(1, "c4")[0]) == "**Blue (B)** dropped their King on c4."
    assert ui.event_line(table, state.apply(0, "a1")[0]) == "**alice** dropped a pawn on a1."
    assert ui.describe(table, "a2") == "drop a pawn on a2"
    assert ui.describe(table, "auto") == "let the referee act for the player out of time"

    swap = position(["b1", "e1"], ["c1"], "c1>b1")
    line = ui.event_line(table_for(swap), swap.apply(1, "c1>b1")[0])
    assert line == "**Blue (B)** moved c1>b1, swapping with a red pawn; arrows flipped: b1>a1, b1>c1, b2>b1."
    own = position(["e1"], ["b1", "c1"], "c1>b1")
    line = ui.event_line(table_for(own), own.apply(1, "c1>b1")[0])
    assert line.startswith("**Blue (B)** moved c1>b1, swapping with their own pawn; arrows flipped: ")
    assert ui.describe(table_for(own), "a5>b5") == "move a5 to b5"

    trapped = position(["a1", "e1"], ["c1"], "a2>a1", "c1>b1", variant="king")
    table = table_for(trapped)
    lines = [ui.event_line(table, e) for e in trapped.apply(1, "c1>b1")]
    assert lines[1:] == [
        "💥 alice's red King on a1 is trapped and captured by Blue (B)'s move.",
        "🏁 The game is over. **Blue (B)** (blue, B) wins: the red King is captured.",
    ]
    stuck = position(["a5"], ["e5", "d4", "a1"])
    assert ui.event_line(table_for(stuck), stuck.opening_events[-1]) == (
        "Main play begins: **Blue (B)** (blue, B) moves first. Pawns with every arrow pointing in are safe "
        "until an arrow next to them flips: e5."
    )
    timeout = Event("timeout", data={"seat": 0})
    assert ui.event_line(table, timeout) == "⏰ Time ran out for **alice**: the referee plays for them."


def test_every_reason_reads_in_the_final_embed() -> None:
    ui = TrapUI()
    for reason, winners, ending in [
        ("eliminated", [0], "**alice** (red, A) wins: blue has no pieces left."),
        ("no_moves", [1], "**Blue (B)** (blue, B) wins: red cannot move."),
        ("both_kings", [0, 1], "Both Kings were captured by the same move: a draw."),
        ("repetition", [0, 1], "The same position came up a third time: a draw."),
        ("quiet_plies", [0, 1], "100 moves in a row without a capture: a draw."),
    ]:
        state = GAME.from_json({**OLD_OVER, "outcome": {"winners": winners, "reason": reason}})
        table = table_for(state)
        event = Event("game_over", data={"winners": winners, "reason": reason})
        assert ui.event_line(table, event) == f"🏁 The game is over. {ending}"
        assert (ui.final_embed(table).description or "").startswith(f"🏁 {ending}")


def played_with_lines(options: dict[str, Any], seed: int) -> tuple[TrapState, list[Any], list[str]]:
    """A self-played game: its action log, and its Latest lines as shown while it was played."""
    ui = TrapUI()
    tables: list[Table] = []
    log: list[Any] = []

    def on_action(state: Any, _seat: Any, _action: Any, events: list[Event]) -> None:
        if not tables:
            tables.append(table_for(state))
            tables[0].log_start(list(state.opening_events))
        tables[0].log_events(events)
        log.extend(events)

    record = play_game(GAME, 2, options, seed, ["hard", "easy"], on_action=on_action, timers="fast")
    table = tables[0]
    # As the table draws them: every entry stored as data, through JSON, worded now.
    stored = json.loads(json.dumps(table.log))
    lines = [latest.line(table, entry, ui.event_line) for entry in stored]
    return record.state, record.actions, lines


@pytest.mark.parametrize(("options", "seed"), [({"variant": "king"}, 4), ({"quick_setup": True}, 2)])
def test_a_stored_game_shown_again_from_its_action_log_reads_the_same(
    options: dict[str, Any], seed: int
) -> None:
    state, actions, lines = played_with_lines(options, seed)
    again = GAME.new_game(2, GAME.parse_options(options), seed)
    table = table_for(again)
    table.log_start(list(again.opening_events))
    for seat, action in actions:
        table.log_events(again.apply(seat, action))
    assert again.to_json() == state.to_json()
    replayed = [latest.line(table, entry, TrapUI().event_line) for entry in json.loads(json.dumps(table.log))]
    assert replayed == lines and len(lines) > 5
    assert all("text" not in entry for entry in table.log if isinstance(entry, dict))
    assert any(line.startswith("🏁 The game is over.") for line in lines)


def test_snapshots_stored_before_the_texts_moved_still_load() -> None:
    over = GAME.from_json(json.loads(json.dumps(OLD_OVER)))
    assert over.is_over() and over.view(None)["result"] == {"winners": [0], "reason": "king"}
    result = over.result()
    assert result is not None and result.how == "king" and result.winners == [0]
    assert "summary" not in result.to_json()
    data = over.to_json()
    assert "summary" not in data["outcome"] and all("text" not in e for e in data["opening_events"])
    assert GAME.from_json(data).to_json() == data
    ui = TrapUI()
    table = table_for(over)
    assert [ui.event_line(table, e) for e in over.opening_events] == [
        "Arrow Drop begins: **Blue (B)** (blue, B) drops the first arrow."
    ]
    assert "🏁 **alice** (red, A) wins: the blue King is captured." in (
        ui.table_embed(table).description or ""
    )

    start = GAME.from_json(json.loads(json.dumps(OLD_START)))
    assert start.opening_events == [Event("phase", data={"phase": "piece_drop", "to_move": 0})]
    assert start.apply(0, "c3")[0].data == {"point": "c3", "king": True, "auto": False}
