"""Seeded self-play across every table size and level, with invariants checked after every action."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from zipzap_helpers import GAME, expected_round_points

from rules.base import Event, State
from rules.replay import replay
from rules.selfplay import play_game
from rules.zipzap import SOLID_SUITS, ZAP_CARDS, ZipZapOptions, ZipZapState, all_number_cards

LEVEL_MIXES = [["casual"], ["sharp"], ["casual", "sharp"], ["sharp", "casual", "casual"]]
FULL_DECK = Counter(all_number_cards([]) + [f"Z{s}" for s in range(ZAP_CARDS)])


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


class Invariants:
    """Checks every action of a game; ``round_trip`` adds the (slower) JSON reload each time."""

    def __init__(self, round_trip: bool) -> None:
        self.round_trip = round_trip
        self.totals: list[int] | None = None
        self.actions = 0
        self.rounds_scored = 0

    def __call__(self, state: State, seat: int | None, action: str, events: list[Event]) -> None:
        assert isinstance(state, ZipZapState)
        self.actions += 1
        if self.totals is None:
            self.totals = [0] * state.players
        self.check_cards(state)
        self.check_views(state)
        if self.round_trip:
            data = state.to_json()
            assert GAME.from_json(json.loads(json.dumps(data))).to_json() == data
        for event in events:
            if event.kind == "round_over":
                points = expected_round_points(state, event.data["went_out"])
                self.totals = [a + b for a, b in zip(self.totals, points, strict=True)]
                assert event.data["points"] == points
                assert state.scores == self.totals == event.data["scores"]
                self.rounds_scored += 1

    @staticmethod
    def check_cards(state: ZipZapState) -> None:
        out = [c for c in FULL_DECK if c[0] in state.out_of_game and c[0] in SOLID_SUITS]
        out += [f"Z{s}" for s in range(state.players, ZAP_CARDS)]
        places = [c for h in state.hands for c in h] + state.deck + state.played + out
        assert Counter(places) == FULL_DECK, "a card is missing or in two places"
        if state.phase == "play" and state.control is None:
            # An open run always has someone able to follow: otherwise control should have passed.
            assert state.top is not None
            assert any(state.legal_actions(s) for s in range(state.players))

    @staticmethod
    def check_views(state: ZipZapState) -> None:
        deck = set(state.deck)
        spectator = strings_in(state.view(None))
        assert not spectator & (deck | {c for h in state.hands for c in h})
        for seat in range(state.players):
            view = state.view(seat)
            hidden = deck | {c for s, h in enumerate(state.hands) if s != seat for c in h}
            assert not strings_in(view) & hidden, f"seat {seat} sees a hidden card"
            assert view["hand"] == state.view(seat)["hand"]


def run_games(count: int, round_trip: bool, start_seed: int, rounds: int | None) -> tuple[int, int]:
    actions = rounds_scored = 0
    for index in range(count):
        seed = start_seed + index
        players = 2 + index % 5
        levels = LEVEL_MIXES[(index // 5) % len(LEVEL_MIXES)]
        scoring = "first_out" if index % 7 == 3 else "cards"
        timers = ("relaxed", "fast", "off")[index % 3]
        check = Invariants(round_trip)
        record = play_game(
            GAME, players, ZipZapOptions(scoring, rounds), seed, levels, on_action=check, timers=timers
        )
        assert record.state.is_over(), f"seed {seed} did not finish"
        result = record.state.result()
        assert result is not None and result.winners
        assert check.rounds_scored == record.state.view(None)["rounds"]
        actions += check.actions
        rounds_scored += check.rounds_scored
    return actions, rounds_scored


def test_thousands_of_short_games_keep_every_invariant() -> None:
    actions, rounds = run_games(2000, round_trip=False, start_seed=1000, rounds=1)
    assert rounds == 2000 and actions > 20000


def test_full_length_games_with_a_json_round_trip_after_every_action() -> None:
    actions, _ = run_games(150, round_trip=True, start_seed=1, rounds=None)
    assert actions > 10000


@pytest.mark.soak
def test_soak_many_full_games() -> None:
    run_games(3000, round_trip=True, start_seed=50000, rounds=None)


def test_same_seed_same_game() -> None:
    for players in (2, 4, 6):
        first = play_game(GAME, players, ZipZapOptions(), 77, ["casual", "sharp"])
        second = play_game(GAME, players, ZipZapOptions(), 77, ["casual", "sharp"])
        assert first.actions == second.actions and first.elapsed == second.elapsed
        assert first.state.to_json() == second.state.to_json()
    other = play_game(GAME, 4, ZipZapOptions(), 78, ["casual", "sharp"])
    assert other.actions != first.actions


def test_replaying_a_record_reproduces_the_final_state() -> None:
    record = play_game(GAME, 3, ZipZapOptions(), 5, ["sharp", "casual"])
    data = json.loads(json.dumps(record.to_json()))
    outcome = replay(data)
    assert outcome.ok and outcome.state.to_json() == record.state.to_json()


def test_a_reloaded_game_continues_identically() -> None:
    record = play_game(GAME, 4, ZipZapOptions(), 11, ["casual"])
    state = GAME.new_game(4, ZipZapOptions(), 11)
    for index, (seat, action) in enumerate(record.actions):
        if index % 25 == 0:
            state = GAME.from_json(json.loads(json.dumps(state.to_json())))
        state.apply(seat, action)
    assert state.to_json() == record.state.to_json()


def test_virtual_time_is_human_like() -> None:
    record = play_game(GAME, 4, ZipZapOptions(rounds=1), 3, ["casual"])
    per_action = record.elapsed / len(record.actions)
    assert 0.5 < per_action < 10


def test_computer_players_decide_from_the_view_alone() -> None:
    rng = random.Random(1)
    for level in GAME.computer_levels:
        bot = GAME.computer_player(level)
        following = {"seat": 0, "control": None, "hand": ["R5", "W5", "G1", "Z0"], "top": "R4", "top_seat": 1}
        assert bot.choose(following, ["R5", "W5", "R5+Z", "W5+Z"], rng) in {"R5", "W5", "R5+Z", "W5+Z"}
        assert bot.choose(following, [], rng) is None
        assert bot.choose({"seat": 0, "hand": ["R5"]}, ["deal"], rng) == "deal"
        going_out = {"seat": 0, "control": 0, "hand": ["G1", "Z0"], "top": "R9", "top_seat": 0}
        assert bot.choose(going_out, ["G1", "G1+Z"], rng) == "G1+Z"
        assert bot.choose({"seat": 0, "control": 0, "hand": ["Z0"]}, ["Z"], rng) == "Z"
        leading = dict(going_out, hand=["G1", "G2", "R7", "Z0"])
        lead_time = bot.reaction_time(leading, "G1", random.Random(2))
        follow_time = bot.reaction_time(following, "R5", random.Random(2))
        assert lead_time > follow_time > 0.5
    sharp = GAME.computer_player("sharp")
    leading = {"seat": 0, "control": 0, "hand": ["G1", "G2", "G3", "R7", "W4", "R9", "Z0"], "top": "R2"}
    assert sharp.choose(leading, ["G1", "G2", "G3", "R7", "W4", "R9"], rng) == "G1"
    fast = GAME.computer_player("sharp", speed=0.5)
    assert fast.reaction_time(leading, "G1", random.Random(3)) < sharp.reaction_time(
        leading, "G1", random.Random(3)
    )
    with pytest.raises(ValueError, match="Unknown Zip Zap computer level"):
        GAME.computer_player("grandmaster")


def test_reaction_time_ranges() -> None:
    rng = random.Random(4)
    view = {"seat": 0, "control": None, "hand": ["R5"]}
    casual = [GAME.computer_player("casual").reaction_time(view, "R5", rng) for _ in range(200)]
    sharp = [GAME.computer_player("sharp").reaction_time(view, "R5", rng) for _ in range(200)]
    assert min(casual) >= 1.5 and max(casual) <= 3.5
    assert min(sharp) >= 0.8 and max(sharp) <= 1.8
