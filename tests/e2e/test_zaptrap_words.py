"""Zap or Trap's words come from the cog, the engine gives data: every refusal code and event kind
reads as the sentences people saw when the engine still wrote them; a stored game shown again from
its action log reads the same Latest lines as when it was played; and a snapshot stored by the
previous code (English in its events and call lines) loads, and is worded as before.

No Discord connection: a Table is built around the engine's state, as the referee holds it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cogs.table import latest
from cogs.table.model import SeatInfo, Table
from cogs.zaptrap import ZapTrapUI
from rules.base import Event, IllegalAction
from rules.selfplay import play_game
from rules.zaptrap import ZapOrTrap, ZapTrapState
from tests.e2e.test_texts import embed_text
from tests.rules.zaptrap_helpers import new_state

GAME = ZapOrTrap()
NAMES = ["alice", "bob", "carol", "dan", "erin", "fay"]
SET4 = ["1a", "1b", "1c", "1d", "2a"]
FILLER = [["3a", "3b", "4a", "5a", "6a"], ["2b", "2c", "3c", "4b", "5b"], ["6b", "6c", "4c", "5c", "9b"]]
OTHER = ["7c", "7d", "8d", "9d", "10c"]
TABLE = ["8b", "8c", "9c", "10b"]


def table_for(state: ZapTrapState, options: dict[str, Any] | None = None) -> Table:
    seats = [SeatInfo(s, 1000 + s, NAMES[s]) for s in range(state.players)]
    return Table(
        id=1, guild_id=1, channel_id=1, game=GAME, host_id=1000,
        settings={"seats": state.players, "rules": options or {}}, speed="relaxed", seed=0,
        status="playing", seats=seats, state=state,
    )  # fmt: skip


def said(state: ZapTrapState, seat: int | None, action: str) -> str:
    """The sentence a player reads for an action the rules refuse."""
    with pytest.raises(IllegalAction) as refused:
        state.apply(seat, action)
    return ZapTrapUI().refusal(table_for(state), refused.value)


def team4(**options: Any) -> ZapTrapState:
    return new_state([SET4, FILLER[0], OTHER, FILLER[1]], TABLE, **options)


def test_refusals_read_as_they_did() -> None:
    state = GAME.new_game(4, None, 3)
    assert said(state, 0, "gesture-wink") == "Gestures are for while a round is in play."
    assert said(state, 0, "ZAP-2") == "The round has not started yet: secret signals are being chosen."
    assert said(state, 0, "signals") == "Only the referee closes the signal choice when time runs out."
    assert said(state, None, "signal-wink") == "Only a player chooses a secret signal."
    assert said(state, 0, "signal-wave") == (
        "'wave' is not one of the gestures: "
        "choose from think, wink, yawn, shush, smirk, cool, eyeroll, sneeze."
    )
    state = team4()
    assert (
        said(state, 0, "signal-wink")
        == "You can choose or change your secret signal only before a round starts."
    )
    assert said(state, None, "signals") == "Secret signals are chosen only before a round starts."
    assert said(state, 0, "S3a-8b") == "You don't hold a Mookah (3a)."
    assert said(state, 0, "S1a-1b") == "The Glorp (1b) is already in your hand."
    assert said(state, 0, "S1a-4d") == "The Fennix (4d) is not on the table."
    assert said(state, 0, "next") == "The next round starts only after this round has ended."
    assert said(state, 1, "deal") == "Only the dealer clears the table and deals four new cards."
    assert said(state, None, "S1a-9c") == "Only a player can do that."
    assert said(state, 7, "gesture-wink") == "That seat is not at this table."
    assert said(state, 0, "S1a") == (
        "'S1a' is not a Zap or Trap action: swap with 'S3a-7c', gesture with 'gesture-wink', "
        "or call with 'ZAP-2' or 'TRAP-2'."
    )
    assert said(state, 0, "ZAP-x") == "Write a call as 'ZAP-' and a seat number, such as 'ZAP-2'."
    assert said(state, 0, "ZAP-1") == "In the team game you can only ZAP your partner."
    assert said(state, 0, "TRAP-2") == "You can't TRAP your own partner: TRAP is for opponents."
    assert said(state, 0, "ZAP-0") == "You can't call ZAP on yourself."
    assert said(state, 0, "TRAP-9") == "There is no such seat at this table."
    state.apply(1, "S3a-8b")
    assert said(state, 3, "S2b-8b") == "Another player took the Blimble (8b) first."
    state.apply(0, "deal")
    assert said(state, 3, "S2b-3a") == "The Mookah (3a) was cleared off the table."
    state.apply(2, "ZAP-0")
    assert said(state, 1, "S3a-8b") == "The round is over: a call ended it, so swaps and calls are frozen."
    strict = new_state([["7a", "7b", "8a", "9a", "10a"], *FILLER[:2]], TABLE, refuse_wrong_targets=True)
    assert said(strict, 2, "ZAP-0") == (
        "This table refuses wrong targets: you can only ZAP the player on your right, whose signal you watch."
    )
    assert said(strict, 2, "TRAP-1") == (
        "This table refuses wrong targets: you can't TRAP the player on your right, whose signal you watch."
    )
    kemps = new_state([["13a", "13b", "13c", "13d"], ["1a", "2a", "3a", "4a"], ["5a", "6a", "7a", "8a"]],
                      preset="kemps")  # fmt: skip
    assert said(kemps, 0, "S12b-9a") == "You don't hold a queen of hearts (12b)."
    kemps.apply(1, "ZAP-0")
    assert said(kemps, 0, "ZAP-1") == "The round is over: a call ended it, so swaps and calls are frozen."
    state.apply(None, "next")
    state.phase = "over"
    assert said(state, 0, "next") == "The game is over."
    # A code this cog does not know (a newer engine) is shown as it is rather than failing.
    assert ZapTrapUI().refusal(table_for(state), IllegalAction("some_new_rule")) == "some_new_rule"


def lines(state: ZapTrapState, events: list[Event]) -> list[str]:
    ui, table = ZapTrapUI(), table_for(state)
    return [ui.event_line(table, e) for e in events]


def test_event_lines_read_as_they_did() -> None:
    state = GAME.new_game(4, None, 3)
    assert lines(state, state.opening_events) == [
        "Zap or Trap for 4: teams of two, partners opposite; first to 7 points wins.",
        "Round 1: each team chooses its secret signal. alice deals.",
    ]
    assert lines(state, state.apply(0, "signal-wink")) == ["**alice** has chosen their team's secret signal."]
    state = team4()
    assert lines(state, state.apply(0, "S2a-8c")) == ["**alice** swapped a Zibble for the Blimble."]
    assert lines(state, state.apply(1, "gesture-wink")) == ["**bob**: 😉"]
    assert lines(state, state.apply(0, "deal"))[0].startswith("**alice** cleared the table and dealt ")
    assert lines(state, state.apply(None, "deal"))[0].startswith("The table is cleared after a lull: ")
    assert lines(state, state.apply(2, "ZAP-0")) == [
        "**carol** called ZAP on **alice**: 1 point to alice & carol.",
        "Round 1 is over. Scores: alice & carol: 1, bob & dan: 0.",
    ]
    state = GAME.new_game(3, {"target": 1}, 5)
    assert lines(state, state.opening_events)[0] == (
        "Zap or Trap for 3: everyone for themselves; first to 1 point wins."
    )
    events = state.apply(None, "signals")
    assert lines(state, events)[0] == (
        "Time is up: every player still choosing keeps last round's secret signal "
        "(or gets a random one in the first round)."
    )
    assert lines(state, events)[1].startswith("Round 1 is dealt: 5 cards each, and on the table ")


def test_a_call_on_a_set_of_kings_is_worded_in_the_reveal() -> None:
    kings = ["13a", "13b", "13c", "13d"]
    others = [["1a", "2a", "3a", "4a"], ["5a", "6a", "7a", "8a"], ["9a", "10a", "11a", "12a"]]
    state = new_state([kings, *others], preset="kemps")
    events = state.apply(2, "ZAP-0")
    embed = ZapTrapUI().round_embed(table_for(state), events[1])
    text = embed_text(embed)
    assert "That is a set of four kings." in text and "• ZAP on a set +1" in text, text


def played(
    players: int, seed: int, options: dict[str, Any]
) -> tuple[list[tuple[int | None, str]], list[str]]:
    """A self-played game's actions, and its Latest lines as they read at each moment of play."""
    actions: list[tuple[int | None, str]] = []
    shown: list[str] = []
    ui: ZapTrapUI = ZapTrapUI()
    tables: list[Table] = []

    def on_action(state: Any, seat: int | None, action: str, events: list[Event]) -> None:
        if not tables:
            tables.append(table_for(state, options))
            tables[0].log_start(GAME.from_json(state.to_json()).opening_events)
        table = tables[0]
        actions.append((seat, action))
        table.log_events(events)
        shown.extend(latest.line(table, entry, ui.event_line) for entry in table.log)

    play_game(GAME, players, options, seed, ["sharp", "casual"], on_action=on_action)
    return actions, shown


@pytest.mark.parametrize(
    ("players", "seed", "options"), [(4, 6, {}), (3, 4, {"preset": "kemps"}), (5, 2, {})]
)
def test_a_stored_game_shown_again_from_its_action_log_reads_the_same(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    actions, shown = played(players, seed, options)
    state = GAME.new_game(players, options, seed)
    table = table_for(state, options)
    table.log_start(state.opening_events)
    ui = ZapTrapUI()
    again: list[str] = []
    for seat, action in actions:
        # As the database keeps them: each entry through JSON.
        table.log_events(
            [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in state.apply(seat, action)]
        )
        again.extend(latest.line(table, entry, ui.event_line) for entry in table.log)
    assert state.is_over() and again == shown
    # Drawn once the game is over (its result known), every line of the game still reads the same.
    assert [latest.line(table, e, ui.event_line) for e in table.log] == shown[-len(table.log) :]


# A snapshot and the events of its last action as the previous code stored them (English in the
# events' "text" and the call's "lines"): captured from main before the engine moved to data.
OLD_SNAPSHOT = json.loads(
    '{"game": "zaptrap", "version": 1, "players": 4, "options": {"preset": "zaptrap", "species": 10, '
    '"copies": 4, "doubles": 1, "specials": 1, "hand_size": 5, "lull": "auto", '
    '"refuse_wrong_targets": false, "target": 7}, "seed": 6, "round": 1, "phase": "between", '
    '"dealer": 0, "hands": [["2a", "2b", "7c", "8d", "D2"], ["7d", "9a", "9b", "9d", "D8"], ["4a", '
    '"4d", "6b", "D3", "D5"], ["1a", "3b", "6d", "D9", "D10"]], "table": ["1b", "10b", "10c", "6a"], '
    '"deck": ["10a", "3d", "1d", "D6", "8a", "5b", "2c", "D1", "4c", "6c", "1c", "4b", "10d", "3c", '
    '"5d", "3a", "7b", "9c", "2d", "5c", "D4", "D7", "8b", "7a", "8c"], "discards": ["XDM", "XBF", '
    '"XZZ", "5a"], "cleared": ["XDM", "XBF", "XZZ", "5a"], "shown": ["D2", "XBF", "D3", "4a", "XDM", '
    '"10b", "2a", "XZZ", "5a", "1b", "9d", "10c", "D10", "2b", "10b", "6a"], "seq": 12, "lulls": 0, '
    '"gestures": [{"seq": 3, "seat": 0, "gesture": "smirk"}, {"seq": 5, "seat": 2, "gesture": '
    '"wink"}, {"seq": 12, "seat": 1, "gesture": "sneeze"}], "swaps": [{"seq": 1, "seat": 0, "gave": '
    '"XDM", "took": "D2"}, {"seq": 2, "seat": 2, "gave": "10b", "took": "D3"}, {"seq": 4, "seat": 2, '
    '"gave": "2a", "took": "4a"}, {"seq": 6, "seat": 1, "gave": "XZZ", "took": "10b"}, {"seq": 7, '
    '"seat": 0, "gave": "5a", "took": "2a"}, {"seq": 9, "seat": 3, "gave": "2b", "took": "D10"}, '
    '{"seq": 10, "seat": 1, "gave": "10b", "took": "9d"}, {"seq": 11, "seat": 0, "gave": "6a", '
    '"took": "2b"}], "deals": [8], "choices": ["yawn", "sneeze"], "last_signals": ["yawn", "sneeze"],'
    ' "signal_history": [{"round": 1, "signals": ["yawn", "sneeze"]}], "scores": [0, 1], "call": '
    '{"caller": 3, "target": 1, "call": "ZAP", "case": "zap_set", "correct_target": true, "hand": '
    '["7d", "9a", "9b", "9d", "D8"], "set": {"species": 9, "count": 4, "cards": ["9a", "9b", "9d", '
    '"D8"]}, "lines": ["ZAP on a set +1"], "value": 1, "scorers": [1], "points": [0, 1], "team_win": '
    'false}, "void": false, "winners": [], "team_win": false, "pending_deal": null, "opening_events":'
    ' [{"kind": "game_start", "text": "Zap or Trap for 4: teams of two, partners opposite; first to 7'
    ' points wins.", "seat": null, "data": {"team_game": true, "dealer": 0}}, {"kind": '
    '"signals_open", "text": "Round 1: each team chooses its secret signal. Seat 1 deals.", "seat": '
    'null, "data": {"round": 1, "dealer": 0}}]}'
)
OLD_EVENTS = json.loads(
    '[{"kind": "call", "text": "called ZAP on their partner, who shows Yarrowax; Vexxo; Vexxo; Vexxo;'
    " Blimble-Vexxo double: a set of four Vexxos. ZAP on a set +1 = 1 point to the team of seats 2 "
    'and 4.", "seat": 3, "data": {"caller": 3, "target": 1, "call": "ZAP", "case": "zap_set", '
    '"correct_target": true, "hand": ["7d", "9a", "9b", "9d", "D8"], "set": {"species": 9, "count": '
    '4, "cards": ["9a", "9b", "9d", "D8"]}, "lines": ["ZAP on a set +1"], "value": 1, "scorers": [1],'
    ' "points": [0, 1], "team_win": false}}, {"kind": "round_over", "text": "Round 1 is over. Scores:'
    ' seats 1 & 3: 0, seats 2 & 4: 1.", "seat": null, "data": {"round": 1, "points": [0, 1], '
    '"scores": [0, 1]}}]'
)


def test_an_old_snapshot_loads_and_reads_as_it_did() -> None:
    state = GAME.from_json(OLD_SNAPSHOT)
    assert state.phase == "between" and state.call is not None and state.call["lines"] == ["on_set"]
    assert all("text" not in e.to_json() for e in state.opening_events)
    assert GAME.from_json(state.to_json()).to_json() == state.to_json()
    ui, table = ZapTrapUI(), table_for(state)
    assert [ui.event_line(table, e) for e in state.opening_events] == [
        "Zap or Trap for 4: teams of two, partners opposite; first to 7 points wins.",
        "Round 1: each team chooses its secret signal. alice deals.",
    ]
    events = [Event.from_json(e) for e in OLD_EVENTS]
    assert [ui.event_line(table, e) for e in events] == [
        "**dan** called ZAP on **bob**: 1 point to bob & dan.",
        "Round 1 is over. Scores: alice & carol: 0, bob & dan: 1.",
    ]
    reveal = embed_text(ui.round_embed(table, events[1]))
    assert "• ZAP on a set +1" in reveal and "That is a set of four Vexxos." in reveal
    state.apply(None, "next")
    assert state.round == 2 and state.phase == "signals"
