"""Seeded self-play across every table size and level, with invariants checked after every action."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from gifttrap_helpers import GAME, assert_views_hide_secrets

from rules.base import Event, State
from rules.gifttrap import NO_MATCH, TOKEN_POINTS, GiftTrapOptions, GiftTrapState
from rules.replay import replay
from rules.selfplay import play_game

ROOT = Path(__file__).resolve().parents[2]
LEVEL_MIXES = [["casual"], ["thoughtful"], ["casual", "thoughtful"], ["thoughtful", "casual", "casual"]]
SECRET_VERBS = ("give", "givemore", "rank", "unrank", "getmore")


def expected_round(
    state: GiftTrapState, give: list[int], get: list[int]
) -> tuple[list[dict], list[int], list[int]]:
    """An independent recomputation of a finished round from the choices still on the table."""
    give, get = list(give), list(get)
    length = state.options.track_length
    records = []
    trapped_at = {t["space"]: t["at"] for t in state.trapped}
    for index, (receiver, giver) in enumerate(state.reveal_order):
        space = state.gives[giver][receiver]
        tokens = {s: t for t, s in state.ranks[receiver].items()}
        points = TOKEN_POINTS[tokens[space]] if space in tokens else NO_MATCH
        trapped = space in trapped_at and trapped_at[space] <= index
        to_receiver = 0 if trapped else points * (2 if state.get_more[receiver] == giver else 1)
        to_giver = 0 if trapped else points * (2 if state.give_more[giver] == receiver else 1)
        get[receiver] = min(length, max(0, get[receiver] + to_receiver))
        give[giver] = min(length, max(0, give[giver] + to_giver))
        records.append(
            {"receiver": receiver, "giver": giver, "space": space, "points": points, "trapped": trapped,
             "receiver_points": to_receiver, "giver_points": to_giver,
             "get": get[receiver], "give": give[giver]}
        )  # fmt: skip
    return records, give, get


class Invariants:
    """Checks every action of a game; ``deep`` adds the JSON reload and the view leak check each time."""

    def __init__(self, deep: bool, seed: int) -> None:
        self.deep = deep
        self.rng = random.Random(seed)
        self.actions = 0
        self.rounds = 0
        self.give: list[int] | None = None
        self.get: list[int] | None = None

    def __call__(self, state: State, seat: int | None, action: str, events: list[Event]) -> None:
        assert isinstance(state, GiftTrapState)
        self.actions += 1
        if self.give is None or self.get is None:
            self.give, self.get = [0] * state.players, [0] * state.players
        length = state.options.track_length
        assert all(0 <= v <= length for v in state.give_track + state.get_track)
        for giver in range(state.players):
            given = [s for r, s in enumerate(state.gives[giver]) if s is not None]
            assert state.gives[giver][giver] is None and len(given) == len(set(given))
            assert len(set(state.ranks[giver].values())) == len(state.ranks[giver])
        if state.phase == "reveal":
            assert all(state.ready)
        verb = action.split("-")[0]
        if verb in SECRET_VERBS:
            assert events == [], "a secret choice made a public event"
        for event in events:
            json.dumps(event.to_json())
            if event.kind == "ready" or event.kind == "filled":
                assert event.data == {"seat": event.seat}
            if event.kind == "gift":
                # The event names the gift by id; the record also carries its name and emoji.
                shown = [
                    {k: v for k, v in r.items() if k not in ("name", "emoji")}
                    for r in state.view(None)["revealed"]
                ]
                assert event.data in shown
            if event.kind == "ranking":
                assert state.view(None)["rankings"][event.seat] == event.data["ranks"]
            if event.kind == "round_over":
                self.check_round(state)
        if self.deep:
            data = state.to_json()
            assert GAME.from_json(json.loads(json.dumps(data))).to_json() == data
            assert_views_hide_secrets(state, self.rng)

    def check_round(self, state: GiftTrapState) -> None:
        assert self.give is not None and self.get is not None
        records, self.give, self.get = expected_round(state, self.give, self.get)
        for mine, theirs in zip(records, state.revealed, strict=True):
            assert {k: theirs[k] for k in mine} == mine
        assert state.give_track == self.give and state.get_track == self.get
        assert state.history[-1]["give_track"] == self.give
        self.rounds += 1
        winners = [
            s for s in range(state.players) if self.give[s] == self.get[s] == state.options.track_length
        ]
        assert state.winners == winners and state.is_over() == bool(winners)


def run_games(count: int, deep: bool, start_seed: int, players: tuple[int, ...]) -> tuple[int, int]:
    actions = rounds = 0
    for index in range(count):
        seed = start_seed + index
        n = players[index % len(players)]
        levels = LEVEL_MIXES[index % len(LEVEL_MIXES)]
        timers = ("relaxed", "fast", "off")[index % 3]
        options = GiftTrapOptions(track_length=(12, 20)[index % 2], strategy_cards=index % 5 != 4)
        check = Invariants(deep, seed)
        record = play_game(GAME, n, options, seed, levels, on_action=check, timers=timers)
        assert record.state.is_over(), f"seed {seed} did not finish"
        result = record.state.result()
        assert result is not None and result.winners
        assert check.rounds == record.state.round
        actions += check.actions
        rounds += check.rounds
    return actions, rounds


def test_many_games_keep_every_invariant() -> None:
    actions, rounds = run_games(30, deep=False, start_seed=1000, players=(3, 4, 5, 6, 8, 3, 4, 5, 7, 4))
    assert rounds >= 60 and actions > 5000


def test_games_with_a_reload_and_a_leak_check_after_every_action() -> None:
    actions, _ = run_games(8, deep=True, start_seed=1, players=(3, 4, 5))
    assert actions > 1000


@pytest.mark.soak
def test_soak_many_games_deeply_checked() -> None:
    run_games(300, deep=True, start_seed=50000, players=(3, 4, 5, 6, 7, 8))


def test_same_seed_same_game() -> None:
    first = play_game(GAME, 5, GiftTrapOptions(), 77, ["casual", "thoughtful"])
    second = play_game(GAME, 5, GiftTrapOptions(), 77, ["casual", "thoughtful"])
    assert first.actions == second.actions and first.elapsed == second.elapsed
    assert first.state.to_json() == second.state.to_json()
    other = play_game(GAME, 5, GiftTrapOptions(), 78, ["casual", "thoughtful"])
    assert other.actions != first.actions


def test_replaying_a_record_reproduces_the_final_state() -> None:
    record = play_game(GAME, 4, GiftTrapOptions(), 5, ["thoughtful", "casual"])
    data = json.loads(json.dumps(record.to_json()))
    outcome = replay(data)
    assert outcome.ok and outcome.state.to_json() == record.state.to_json()


def test_a_reloaded_game_continues_identically() -> None:
    record = play_game(GAME, 4, GiftTrapOptions(), 11, ["casual"])
    state = GAME.new_game(4, GiftTrapOptions(), 11)
    for index, (seat, action) in enumerate(record.actions):
        if index % 25 == 0:
            state = GAME.from_json(json.loads(json.dumps(state.to_json())))
        state.apply(seat, action)
    assert state.to_json() == record.state.to_json()


def test_the_timers_drive_a_table_where_nobody_acts() -> None:
    """Only system actions: the referee picks packs, fills in everyone, reveals, deals on."""
    state = GAME.new_game(3, GiftTrapOptions(track_length=5), 4)
    for _ in range(2000):
        if state.is_over():
            break
        (quiet,) = state.quiet_actions()
        state.apply(None, quiet.action)
    assert state.is_over()


def test_virtual_time_is_human_like() -> None:
    record = play_game(GAME, 4, GiftTrapOptions(), 3, ["casual"])
    per_action = record.elapsed / len(record.actions)
    assert 0.5 < per_action < 10
    assert record.elapsed / record.state.round < 240  # a round takes minutes, not hours


def test_cli_selfplay_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "rules", "selfplay", "gifttrap", "--games", "2", "--players", "4",
         "--seed", "3", "--levels", "casual,thoughtful", "--record", str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game 1 seed 3: winner") and "game 2 seed 4" in done.stdout
    replayed = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replayed.returncode == 0, replayed.stderr
    # Events print as data (kind and details), the result as its ``how`` and details.
    assert "place 1" in replayed.stdout and ': gift {"' in replayed.stdout
    assert 'gifted {"round": ' in replayed.stdout


def test_a_scenario_file_with_expectations(tmp_path: Path) -> None:
    """The rules/gifttrap/FORMATS.md example: the seed's worked example as a scenario file."""
    actions = [
        *[{"seat": 0, "action": a} for a in ("give-1-1", "give-2-2", "give-3-3", "rank-great-5",
                                             "rank-good-1", "rank-ok-2", "rank-noway-4", "ready")],
        *[{"seat": 1, "action": a} for a in ("give-0-5", "givemore-0")],
        {"seat": 2, "action": "give-0-5"},
        {"seat": 3, "action": "give-0-4"},
        {"seat": None, "action": "fill"},
        {"seat": None, "action": "reveal"},
        {"seat": None, "action": "reveal"},
        {"seat": None, "action": "reveal"},
    ]  # fmt: skip
    data = {
        "game": "gifttrap",
        "players": 4,
        "options": {},
        "seed": 1,
        "deal": {"layout": ["rubber-duck", "bag-of-sweets", "wool-socks", "yo-yo", "kite"]},
        "actions": actions,
        "expect": {
            "phase": "reveal",
            "reveal_next": 3,
            "get_track": [2, 0, 0, 0],
            "give_track": [0, 6, 3, 0],
        },
    }
    path = tmp_path / "blue.json"
    path.write_text(json.dumps(data))
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'Seat 0: gift {"get": ' in done.stdout and '"space": 5, ' in done.stdout  # unwraps gift 5
