"""Trap self-play with invariants after every action, perft counts, determinism, replays, the CLI and
the computer players."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from trap_helpers import GAME, all_lines, brute_apply, brute_from_state, brute_perft, position, to_xy

from rules.base import Event, State
from rules.replay import replay
from rules.selfplay import play_game
from rules.trap import TrapOptions, TrapState, line_count, perft

ROOT = Path(__file__).resolve().parents[2]
OPTION_MIX = [
    TrapOptions(),
    TrapOptions(variant="king"),
    TrapOptions(quick_setup=True),
    TrapOptions(size=6, variant="king", quick_setup=True),
    TrapOptions(size=6),
]
LEVEL_MIX = [["easy"], ["medium"], ["easy", "medium"], ["medium", "easy"]]


class Invariants:
    """Checks every action; the brute-force model recomputes each main-play move independently."""

    def __init__(self, round_trip: bool) -> None:
        self.round_trip = round_trip
        self.before: TrapState | None = None
        self.actions = 0
        self.moves = 0

    def remember(self, state: TrapState) -> None:
        self.before = GAME.from_json(state.to_json())

    def __call__(self, state: State, seat: int | None, action: str, events: list[Event]) -> None:
        assert isinstance(state, TrapState)
        self.actions += 1
        before = self.before
        assert before is not None
        view = state.view(None)
        pawns = state.options.pawns
        for side in (0, 1):
            dropped = pawns - view["pawns_to_drop"][side]
            assert view["piece_counts"][side] + len(view["captured"][side]) == dropped, "a piece vanished"
        arrows = len(view["arrows"])
        if state.phase in ("main", "over"):
            assert arrows == line_count(state.options.size)
        assert arrows + view["arrows_to_drop"] == line_count(state.options.size)
        for side in (0, 1):
            seat_view = state.view(side)
            assert {k: v for k, v in seat_view.items() if k not in ("seat", "legal")} == {
                k: v for k, v in view.items() if k != "seat"
            }, "a seat sees something the spectator does not"
            if side != state.to_move:
                assert seat_view["legal"] == []
        if self.round_trip:
            data = state.to_json()
            assert GAME.from_json(json.loads(json.dumps(data))).to_json() == data
        last = view["last"]
        if last is not None and last["kind"] == "move" and before.phase == "main":
            self.check_move(before, state, last)
        self.remember(state)

    def check_move(self, before: TrapState, after: TrapState, last: dict) -> None:
        self.moves += 1
        mover = last["seat"]
        pieces, arrows, to_move, size, _ = brute_from_state(before)
        assert to_move == mover
        frm, to = to_xy(last["from"]), to_xy(last["to"])
        want_pieces, want_arrows, trapped = brute_apply(pieces, arrows, (frm, to), size)
        got_pieces, got_arrows, _, _, _ = brute_from_state(after)
        assert got_pieces == want_pieces and got_arrows == want_arrows
        assert len(trapped) == len(last["captures"])
        # The derived facts: the moving pawn survives its own move, so the mover keeps a piece.
        assert got_pieces[to][0] == mover
        assert after.view(None)["piece_counts"][mover] >= 1


def run_games(count: int, start_seed: int, round_trip: bool) -> tuple[int, int, dict[str, int]]:
    actions = moves = 0
    reasons: dict[str, int] = {}
    for index in range(count):
        seed = start_seed + index
        options = OPTION_MIX[index % len(OPTION_MIX)]
        levels = LEVEL_MIX[(index // len(OPTION_MIX)) % len(LEVEL_MIX)]
        check = Invariants(round_trip)
        check.remember(GAME.new_game(2, options, seed))
        timers = ("relaxed", "fast", "off")[index % 3]
        record = play_game(GAME, 2, options, seed, levels, on_action=check, timers=timers)
        state = record.state
        assert state.is_over(), f"seed {seed} did not finish"
        result = state.result()
        assert result is not None and result.winners
        reason = state.view(None)["result"]["reason"]
        reasons[reason] = reasons.get(reason, 0) + 1
        actions += check.actions
        moves += check.moves
    return actions, moves, reasons


def test_many_games_keep_every_invariant() -> None:
    actions, moves, reasons = run_games(25, 100, round_trip=False)
    assert actions > 1500 and moves > 400
    assert {"eliminated", "king"} <= set(reasons)


def test_games_with_a_json_round_trip_after_every_action() -> None:
    actions, _, _ = run_games(5, 500, round_trip=True)
    assert actions > 250


@pytest.mark.soak
def test_soak_many_games() -> None:
    run_games(1000, 10000, round_trip=True)


def test_timeouts_alone_finish_every_kind_of_game() -> None:
    for index, options in enumerate(OPTION_MIX):
        state = GAME.new_game(2, options, 40 + index)
        check = Invariants(round_trip=False)
        check.remember(state)
        while not state.is_over():
            events = state.apply(None, "auto")
            check(state, None, "auto", events)
        assert state.result() is not None


def test_same_seed_same_game() -> None:
    first = play_game(GAME, 2, TrapOptions(), 77, ["easy", "medium"])
    second = play_game(GAME, 2, TrapOptions(), 77, ["easy", "medium"])
    assert first.actions == second.actions and first.state.to_json() == second.state.to_json()
    other = play_game(GAME, 2, TrapOptions(), 78, ["easy", "medium"])
    assert other.actions != first.actions


def test_replaying_a_record_reproduces_the_final_state() -> None:
    record = play_game(GAME, 2, TrapOptions(variant="king", quick_setup=True), 5, ["medium", "easy"])
    data = json.loads(json.dumps(record.to_json()))
    outcome = replay(data)
    assert outcome.ok and outcome.state.to_json() == record.state.to_json()


def test_a_reloaded_game_continues_identically() -> None:
    record = play_game(GAME, 2, TrapOptions(), 11, ["medium"])
    state = GAME.new_game(2, TrapOptions(), 11)
    for index, (seat, action) in enumerate(record.actions):
        if index % 9 == 0:
            state = GAME.from_json(json.loads(json.dumps(state.to_json())))
        state.apply(seat, action)
    assert state.to_json() == record.state.to_json()


def test_a_scenario_file_with_expectations_replays() -> None:
    state = position(["a1", "e1"], ["c1"], "a2>a1", "c1>b1")
    data = {
        "game": "trap",
        "players": 2,
        "options": {},
        "seed": 7,
        "deal": {"pawns": [["a1", "e1"], ["c1"]], "arrows": state.view(None)["arrows"], "to_move": 1},
        "actions": [{"seat": 1, "action": "c1>b1"}],
        "expect": {"piece_counts": [1, 1], "phase": "main", "to_move": 0, "winners": None},
    }
    outcome = replay(data)
    assert outcome.ok, outcome.mismatches or outcome.reason


def test_cli_selfplay_and_replay(tmp_path: Path) -> None:
    record = tmp_path / "trap.json"
    done = subprocess.run(
        [sys.executable, "-m", "rules", "selfplay", "trap", "--games", "2", "--players", "2",
         "--levels", "easy,medium", "--record", str(record)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game 1 seed 1: winner") and "wins per level" in done.stdout
    replayed = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(record)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replayed.returncode == 0, replayed.stderr
    # The CLI prints events as data (kind and data) and the ending as its code.
    assert 'phase {"phase": "piece_drop", "to_move": 0}' in replayed.stdout and "place 1" in replayed.stdout
    assert '"winners": [' in replayed.stdout


# --- perft -------------------------------------------------------------------------------------


def perft_position(seed: int, variant: str = "basic", size: int = 5) -> TrapState:
    """Pawns on shuffled points and every arrow pointing a random way, all from ``seed``."""
    rng = random.Random(seed)
    points = [f"{c}{r}" for r in range(1, size + 1) for c in "abcdef"[:size]]
    rng.shuffle(points)
    arrows = [f"{a}>{b}" if rng.random() < 0.5 else f"{b}>{a}" for a, b in all_lines(size)]
    pawns = TrapOptions(size=size).pawns
    deal = {"pawns": [points[:pawns], points[pawns : 2 * pawns]], "arrows": arrows}
    return GAME.new_game(2, TrapOptions(variant=variant, size=size), 1, deal)


@pytest.mark.parametrize(
    ("seed", "variant", "size", "counts"),
    [
        (1, "basic", 5, [14, 153, 2102]),
        (2, "king", 5, [14, 164, 2071]),
        (3, "basic", 5, [15, 184, 2696]),
        (4, "king", 6, [17, 284, 4973]),
    ],
)
def test_perft_counts(seed: int, variant: str, size: int, counts: list[int]) -> None:
    state = perft_position(seed, variant, size)
    before = state.to_json()
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts
    assert perft(state, 0) == 1 and state.to_json() == before


@pytest.mark.parametrize(("seed", "variant"), [(1, "basic"), (2, "king")])
def test_perft_agrees_with_a_brute_force_model(seed: int, variant: str) -> None:
    state = perft_position(seed, variant)
    pieces, arrows, to_move, size, king = brute_from_state(state)
    for depth in (1, 2, 3):
        assert perft(state, depth) == brute_perft(pieces, arrows, to_move, size, king, depth)


def test_perft_of_a_finished_game_is_zero() -> None:
    state = position(["a1"], ["e5"])
    assert state.is_over() and perft(state, 1) == 0


# --- computer players ----------------------------------------------------------------------------


def test_computer_players_decide_from_the_view_alone() -> None:
    state = position(["a1", "e1"], ["c1", "a3"], "a2>a1", "c1>b1")
    view, legal = state.view(1), state.legal_actions(1)
    for level in GAME.computer_levels:
        bot = GAME.computer_player(level)
        action = bot.choose(view, legal, random.Random(1))
        assert action in legal
        assert bot.choose(state.view(0), state.legal_actions(0), random.Random(1)) is None
        assert bot.choose(state.view(None), [], random.Random(1)) is None
        assert 0.3 < bot.reaction_time(view, action, random.Random(2)) < 10
    for level in ("medium", "hard"):
        # Capturing a1 wins on the spot.
        assert GAME.computer_player(level).choose(view, legal, random.Random(3)) == "c1>b1"
    with pytest.raises(ValueError, match="Unknown Trap computer level"):
        GAME.computer_player("grandmaster")
    with pytest.raises(ValueError):
        GAME.computer_player("hard", speed=0)


def test_medium_avoids_capturing_its_own_pawn() -> None:
    state = position(["e1", "e3"], ["a1", "c1"], "a2>a1", "c1>b1")
    bot = GAME.computer_player("medium")
    for seed in range(10):
        assert bot.choose(state.view(1), state.legal_actions(1), random.Random(seed)) != "c1>b1"


def test_hard_is_deterministic_given_its_rng() -> None:
    bot = GAME.computer_player("hard", node_budget=600)
    state = GAME.new_game(2, TrapOptions(variant="king", quick_setup=True), 9)
    rngs = [random.Random(0), random.Random(1)]
    while not state.is_over() and state.ply < 16:
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_actions(seat)
        twin = json.loads(json.dumps(view))
        rng_state = rngs[seat].getstate()
        action = bot.choose(view, legal, rngs[seat])
        copy = random.Random()
        copy.setstate(rng_state)
        assert bot.choose(twin, legal, copy) == action
        assert action is not None
        state.apply(seat, action)
    assert state.phase in ("main", "over")


def test_hard_beats_easy() -> None:
    wins = 0
    for seed in range(2):
        state = GAME.new_game(2, TrapOptions(), seed)
        hard_seat = seed % 2
        bots = {
            hard_seat: GAME.computer_player("hard", node_budget=600),
            1 - hard_seat: GAME.computer_player("easy"),
        }
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_move
            assert seat is not None
            state.apply(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat), rng))
        result = state.result()
        assert result is not None
        wins += result.winners == [hard_seat]
    assert wins == 2
