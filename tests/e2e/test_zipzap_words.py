"""Zip Zap's words: the engine gives data (event kinds, refusal codes, card codes), the cog words it.

The sentences here are the ones the engine itself wrote before its texts moved to the zipzap
catalog (locales/): each is checked through the cog's rendering (ZipZapUI.event_line, .refusal),
so the English players read is unchanged. Also: a snapshot stored by the engine before that move
(events holding their English sentence) still loads and reads the same, and a stored game shown
again from its action log (a watched replay, a reload) reads as it did live.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from cogs.boards.replay import rebuild
from cogs.drawings.zipzap_cards import card_name
from cogs.table import latest
from cogs.table.model import SeatInfo, Table
from cogs.zipzap import ZipZapUI, action_name
from db.standings import RecordedGame, RecordedSeat
from rules.base import Event, IllegalAction
from rules.selfplay import play_game
from rules.zipzap import ZipZap, ZipZapOptions, ZipZapState

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from zipzap_helpers import new_state

GAME = ZipZap()
UI = ZipZapUI()
NAMES = ["alice", "bob", "carol"]


def table_of(state: ZipZapState, names: list[str] = NAMES) -> Table:
    seats = [SeatInfo(s, 1000 + s, names[s]) for s in range(state.players)]
    return Table(
        id=1, guild_id=1, channel_id=1, game=GAME, host_id=1000,
        settings={"seats": state.players, "rules": GAME.options_to_json(state.options)}, speed="relaxed",
        seed=state.seed, status="playing", seats=seats, state=state,
    )  # fmt: skip


def refusal(state: ZipZapState, seat: int | None, action: str) -> str:
    """The refusal as a player reads it."""
    try:
        state.apply(seat, action)
    except IllegalAction as error:
        return UI.refusal(table_of(state), error)
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def lines(state: ZipZapState, events: list[Event]) -> list[str]:
    table = table_of(state)
    return [UI.event_line(table, e) for e in events]


# --- refusals --------------------------------------------------------------------------------------


def test_refusals_read_as_before() -> None:
    state = new_state([["R5", "W5", "G5", "G1"], ["R6", "G2"]], deck=["R4"])
    assert refusal(state, 0, "G5") == (
        "The green 5 doesn't follow the red 4 on top: only the red 5 or the wild 5 follows it."
    )
    assert refusal(state, 0, "W6") == "You don't hold the wild 6."
    assert (
        refusal(state, 0, "R5,R6")
        == "'R5,R6' is not a Zip Zap action: play a card such as 'R4', 'R4+Z' or 'Z'."
    )
    assert refusal(state, 0, "Z0") == "Write your Zap as 'Z' (or 'R4+Z' to play a card and Zap at once)."
    assert refusal(state, None, "R5") == "Only a player can play a card."
    assert refusal(state, 0, "stall") == "Only the referee calls a stall or plays for an idle leader."
    assert refusal(state, None, "idle") == "Nobody has control, so nobody is an idle leader."
    assert refusal(state, 5, "R5") == "That seat is not at this table."
    assert (
        refusal(state, 1, "Z")
        == "You can only Zap right after your own number card, while it is still on top."
    )
    assert refusal(state, 0, "deal") == "The round is still being played; the next deal comes after it."

    state = new_state([["G5", "W5", "R7"], ["R5", "G6"]], deck=["W4"])
    state.apply(0, "W5")
    assert refusal(state, 0, "R7") == "The red 7 doesn't follow the wild 5 on top: any 6 follows a wild 5."

    state = new_state([["R5", "G1"], ["W5", "G2", "R6"]], deck=["R4"])
    state.apply(0, "R5")
    assert (
        refusal(state, 1, "W5")
        == "Another player got the red 5 down first, and the wild 5 doesn't follow it."
    )
    state = new_state([["R5", "G1"], ["W5", "G2"]], deck=["R4"])
    state.apply(0, "R5")
    assert refusal(state, 1, "W5") == "Another player got the red 5 down first and has control now."
    assert refusal(state, 1, "G2") == "Another player has control: only the player in control may lead now."
    assert refusal(state, None, "stall") == "There is no open run to stall: a player has control."

    state = new_state([["R4", "G1", "G2", "R6"], ["R5", "G4"]], deck=["R3"])
    state.apply(0, "R4")
    state.apply(0, "Z")
    state.apply(0, "R6")
    assert refusal(state, 0, "G2+Z") == "You have already used your Zap this round."

    state = new_state([["G1"], []], rest_to=1)
    assert refusal(state, 0, "Z") == (
        "You lead now, but the top card is not a number card of yours: lead a card (with "
        "Play and Zap if you like), or lead your Zap as your last card."
    )

    state = new_state([["R4"], ["R5", "G9"]], deck=["R3"])
    state.apply(0, "R4+Z")
    assert refusal(state, 1, "R5") == "The round is over: deal the next round first."


def test_the_refusals_nobody_meets_in_play_are_worded_too() -> None:
    """A 10 on top with nobody in control, and a Zap card that is gone without being used, only
    arise in a made-up state: the words are there all the same."""
    table = table_of(new_state([["R5"], ["G2"]], deck=["R4"]))
    ten = IllegalAction("does_not_follow", card="R1", top="G10")
    assert UI.refusal(table, ten) == "The red 1 doesn't follow the green 10 on top: nothing follows a 10."
    assert UI.refusal(table, IllegalAction("no_zap")) == "You don't hold your Zap card."
    assert UI.refusal(table, IllegalAction("game_over")) == "The game is over."


# --- events --------------------------------------------------------------------------------------


def test_event_lines_read_as_before() -> None:
    state = new_state([["R9", "R10", "G1", "W7"], ["W9", "G2"]], deck=["R8"])
    assert lines(state, state.opening_events) == [
        "Round 1 of 4 is dealt: 2 or 4 cards and a Zap card each.",
        "The red 8 is flipped from the deck.",
    ]
    assert lines(state, state.apply(0, "R9")) == ["**alice** played the red 9."]
    assert lines(state, state.apply(0, "R10")) == [
        "**alice** played the red 10.",
        "**alice** has control after the 10 and leads any card.",
    ]
    assert lines(state, state.apply(0, "W7")) == [
        "**alice** led the wild 7.",
        "**alice** has control: nobody can follow the wild 7, so they lead any card.",
    ]

    state = new_state([["R4", "G1"], ["G2", "G3"]], deck=["R3"])
    assert lines(state, state.apply(0, "R4")) == [
        "**alice** played the red 4.",
        "**alice** has control: nobody can follow the red 4, so they lead any card.",
    ]
    assert lines(state, state.apply(None, "idle")) == [
        "**alice** was idle in control, so the referee plays their lowest card: the green 1.",
        "**alice** led the green 1.",
    ]

    state = new_state([["R4", "G1", "G2"], ["R5", "G3"]], deck=["R3"])
    assert lines(state, state.apply(0, "R4+Z")) == [
        "**alice** played the red 4.",
        "**alice** played their Zap card: ZAP!",
        "**alice** has control after the Zap and leads any card.",
    ]

    state = new_state([["R4", "G1"], ["R5", "G2"]], deck=["R3", "G9"])
    assert lines(state, state.apply(0, "R4")) == ["**alice** played the red 4."]
    assert lines(state, state.apply(None, "stall")) == [
        "The run stalled: nobody played in time.",
        "**alice** has control after the stall: their red 4 is on top.",
    ]


def test_a_stall_on_a_flipped_card_and_the_end_of_the_deck() -> None:
    state = new_state([["R4", "G1"], ["G2", "G3"]], deck=["R3", "W1"], rest_to=1)
    assert lines(state, state.apply(None, "stall")) == [
        "Nobody played on the flipped card: the next card is flipped.",
        "The wild 1 is flipped from the deck.",
    ]
    assert lines(state, state.apply(None, "stall")) == [
        "Nobody played on the flipped card: the next card is flipped.",
        "**alice** leads: the deck is empty and nobody could follow the flipped cards.",
    ]
    state = new_state([["G1"], []], rest_to=1)
    assert lines(state, state.opening_events) == [
        "Round 1 of 4 is dealt: 1 or 29 cards and a Zap card each.",
        "**alice** leads: there is no deck to flip from.",
    ]


def test_the_end_of_a_round_and_of_the_game() -> None:
    state = new_state([["R4"], ["R5", "G9"]], deck=["R3"], rounds=1)
    assert lines(state, state.apply(0, "R4+Z")) == [
        "**alice** played the red 4.",
        "**alice** played their Zap card: ZAP!",
        "**alice** played their last card: Zip Zap! Round 1 of 1 is over.",
        "The game is over. alice wins with 0 points (lowest total wins).",
    ]
    state = new_state([["R4"], ["R5", "G9"]], deck=["R3"], rounds=1, scoring="first_out")
    over = "The game is over. alice wins with 1 point (most rounds won wins)."
    assert lines(state, state.apply(0, "R4+Z"))[-1] == over
    table = table_of(state)
    assert table.state is state
    # The finished table says who went out; the result is said once, by its last Latest line.
    assert UI.table_embed(table).description == "**alice** went out in the final round."


@pytest.mark.parametrize(
    ("scores", "scoring", "said"),
    [
        ([3, 3, 9], "cards", "alice and bob share the win with 3 points each (lowest total wins)."),
        (
            [1, 1, 1],
            "first_out",
            "alice, bob and carol share the win with 1 point each (most rounds won wins).",
        ),
    ],
)
def test_shared_wins(scores: list[int], scoring: str, said: str) -> None:
    state = new_state([["R4"], ["R5"], ["G9"]], deck=["R3"], out=("Y",), scoring=scoring, rounds=1)
    data = state.to_json()
    data.update(phase="over", scores=scores)
    state = GAME.from_json(data)
    result = state.result()
    assert result is not None
    event = Event(
        "game_over", data={"winners": result.winners, "scores": scores, "how": result.how, **result.details}
    )
    assert lines(state, [event]) == [f"The game is over. {said}"]


def test_names_are_the_seats_names_when_shown() -> None:
    state = new_state([["R4", "G1"], ["R5", "G2"]], deck=["R3", "G9"])
    state.apply(0, "R4")
    stored = [e.to_json() for e in state.apply(1, "R5")]
    assert all("text" not in entry and "name" not in json.dumps(entry) for entry in stored)
    renamed = table_of(state, ["alice", "Bea *the* bold"])
    assert latest.line(renamed, stored[0], UI.event_line) == "**Bea \\*the\\* bold** played the red 5."


# --- actions and cards ---------------------------------------------------------------------------


def test_action_names_and_card_names() -> None:
    assert action_name("R4") == "play the red 4"
    assert action_name("R4+Z") == "play the red 4 and Zap"
    assert action_name("Z") == "Zap"
    assert action_name("stall") == "call a stall"
    assert action_name("idle") == "play for the idle leader"
    assert action_name("deal") == "deal the next round"
    assert card_name("R4") == "red 4" and card_name("W7") == "wild 7" and card_name("Z3") == "Zap card"


# --- stored games --------------------------------------------------------------------------------

# Snapshots stored by the engine before its events became data (captured with commit 53c24a8):
# events hold their English sentence, and the data lacks what only the sentence said.
OLD_SNAPSHOT: dict[str, Any] = {
    "game": "zipzap", "version": 1, "players": 2, "options": {"scoring": "cards", "rounds": 2}, "seed": 3,
    "round": 1, "phase": "play",
    "hands": [["R4", "R6", "R9", "G1", "G4", "G6", "G7", "G9", "G10", "W2", "W7", "W9", "Z0"],
              ["R2", "R8", "R10", "G2", "G8", "W1", "W3", "W4", "W5", "W6", "W8", "W10", "Z1"]],
    "deck": ["R5", "R1"], "played": ["R7", "G5", "G3", "R3"], "top": "R3", "top_seat": None, "control": None,
    "first_player": 0, "zap_used": [False, False], "scores": [0, 0], "last_round_points": None,
    "went_out": None, "out_of_game": ["B", "Y"],
    "opening_events": [
        {"kind": "deal", "text": "Round 1 of 2 is dealt: 12 cards and a Zap card each.", "seat": None,
         "data": {"round": 1, "hand_counts": [13, 13], "deck_count": 6}},
        {"kind": "flip", "text": "The red 7 is flipped from the deck.", "seat": None, "data": {"card": "R7"}},
    ],
}  # fmt: skip
OLD_NO_DECK: dict[str, Any] = {
    "game": "zipzap", "version": 1, "players": 2, "options": {"scoring": "cards", "rounds": None}, "seed": 7,
    "round": 1, "phase": "play",
    "hands": [["G1", "Z0"], ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "G2", "G3", "G4",
                             "G5", "G6", "G7", "G8", "G9", "G10", "W1", "W2", "W3", "W4", "W5", "W6", "W7",
                             "W8", "W9", "W10", "Z1"]],
    "deck": [], "played": [], "top": None, "top_seat": None, "control": 0, "first_player": 0,
    "zap_used": [False, False], "scores": [0, 0], "last_round_points": None, "went_out": None,
    "out_of_game": ["B", "Y"],
    "opening_events": [
        {"kind": "deal", "text": "Round 1 of 4 is dealt: 1 or 29 cards and a Zap card each.", "seat": None,
         "data": {"round": 1, "hand_counts": [2, 30], "deck_count": 0}},
        {"kind": "control", "text": "leads: there is no deck to flip from.", "seat": 0,
         "data": {"reason": "first_player"}},
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("stored", "legal", "said"),
    [
        (OLD_SNAPSHOT, [["R4", "R4+Z"], ["W4", "W4+Z"]],
         ["Round 1 of 2 is dealt: 12 cards and a Zap card each.", "The red 7 is flipped from the deck."]),
        (OLD_NO_DECK, [["G1", "G1+Z"], []],
         ["Round 1 of 4 is dealt: 1 or 29 cards and a Zap card each.",
          "**alice** leads: there is no deck to flip from."]),
    ],
)  # fmt: skip
def test_a_snapshot_stored_before_events_became_data_loads(
    stored: dict[str, Any], legal: list[list[str]], said: list[str]
) -> None:
    state = GAME.from_json(json.loads(json.dumps(stored)))
    assert [state.legal_actions(s) for s in range(2)] == legal
    assert lines(state, state.opening_events) == said
    again = state.to_json()
    assert all("text" not in e for e in again["opening_events"])
    assert {k: v for k, v in again.items() if k != "opening_events"} == {
        k: v for k, v in stored.items() if k != "opening_events"
    }
    # It plays on from there.
    seat = 0 if legal[0] else 1
    assert state.apply(seat, legal[seat][0])


def test_a_stored_game_shown_again_from_its_action_log_reads_as_it_did_live() -> None:
    """The Latest lines after every action of a live game (Table.log, stored as data, worded when
    drawn) equal those of the game rebuilt from its action log, as a replay or a reload shows it."""
    options = ZipZapOptions("cards", 2)
    live: list[list[str]] = []
    table: list[Table] = []

    def on_action(state: Any, seat: int | None, action: str, events: list[Event]) -> None:
        if not table:
            table.append(table_of(state))
            table[0].log_start(state.opening_events)  # as the live table began
        table[0].log_events(events)
        stored = json.loads(json.dumps(table[0].log))  # as the database keeps it
        live.append([latest.line(table[0], entry, UI.event_line) for entry in stored])

    record = play_game(GAME, 3, options, 5, ["sharp", "casual"], on_action=on_action)
    assert record.state.is_over() and len(record.actions) > 50

    now = datetime(2026, 1, 1, tzinfo=UTC)
    recorded = RecordedGame(
        id=1, guild_id=1, channel_id=1, game="zipzap", status="finished",
        settings={"seats": 3, "rules": GAME.options_to_json(options)}, seed=5,
        seats=[RecordedSeat(s, 1000 + s, NAMES[s], None, None) for s in range(3)],
        actions=list(record.actions), acted_at=[now] * len(record.actions), finished_at=now, message_id=None,
    )  # fmt: skip
    assert live[0][:2] == [
        "The game begins with 3 players.",
        "Round 1 of 2 is dealt: 12 cards and a Zap card each.",
    ]
    for step in [1, 2, 10, len(record.actions) // 2, len(record.actions) - 1, len(record.actions)]:
        frame = rebuild(recorded, UI, step)
        shown = [latest.line(frame.table, entry, UI.event_line) for entry in frame.table.log]
        assert shown == live[step - 1], step
    assert shown[-1].startswith("The game is over. ") and "wins with" in shown[-1]
