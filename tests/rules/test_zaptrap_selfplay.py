"""Seeded self-play and random-walk games across every table size, with invariants after every action:
cards conserved, views and events leak nothing (cards or secret signals), JSON round-trips, points
recomputed independently from the rule tables."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from zaptrap_helpers import GAME, expected_points, refused

from rules.base import Event, IllegalAction, State
from rules.replay import replay
from rules.selfplay import play_game
from rules.zaptrap import GESTURES, ZapTrapOptions, ZapTrapState, best_set
from rules.zaptrap.players import hand_value

ROOT = Path(__file__).resolve().parents[2]
LEVEL_MIXES = [["casual"], ["sharp"], ["casual", "sharp"], ["sharp", "casual", "casual"]]
SIGNAL_KEYS = {"my_signal", "last_signal", "watch_signal", "signal_history"}


STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def strings_in(value: Any) -> set[str]:
    """Every string in a JSON-able value (keys included: no key is ever a card code)."""
    return set(STRING.findall(json.dumps(value)))


class Invariants:
    """Checks every action of one game. ``public`` follows, from the events alone, which cards
    have been seen face up this round; ``deep`` adds the JSON reload and the signal-privacy
    comparison after every action."""

    def __init__(self, state: ZapTrapState, deep: bool, rng: random.Random) -> None:
        self.deep = deep
        self.rng = rng
        self.full = Counter(state.options.deck())
        self.totals = list(state.scores)
        self.public: set[str] = set()
        self.actions = 0
        self.cases: Counter[str] = Counter()
        self.rounds = 0
        self.absorb(state.opening_events)

    def absorb(self, events: list[Event]) -> None:
        for event in events:
            if event.kind == "signals_open":
                self.public = set()
            elif event.kind in ("deal", "lull_deal"):
                self.public |= set(event.data["table"])
            elif event.kind == "swap":
                self.public |= {event.data["gave"], event.data["took"]}
            elif event.kind == "call":
                self.public |= set(event.data["hand"])

    def __call__(self, state: State, seat: int | None, action: str, events: list[Event]) -> None:
        assert isinstance(state, ZapTrapState)
        self.actions += 1
        before_public = set(self.public)
        self.absorb(events)
        self.check_cards(state)
        self.check_events(state, events, before_public)
        self.check_views(state)
        if self.deep:
            for text in (a for s in [None, *range(state.players)] for a in state.legal_actions(s)):
                assert len(text) <= 48 and all(ch.isalnum() or ch in "_+>-" for ch in text)
            data = state.to_json()
            assert GAME.from_json(json.loads(json.dumps(data))).to_json() == data
            self.check_signal_privacy(state)

    def check_cards(self, state: ZapTrapState) -> None:
        places = [c for h in state.hands for c in h] + state.table + state.deck + state.discards
        if state.phase == "signals":
            assert places == []
        else:
            assert Counter(places) == self.full, "a card is missing or in two places"
        if state.phase == "play":
            assert len(state.table) == 4
            assert all(len(h) == state.options.hand_size for h in state.hands)

    def hidden_from(self, state: ZapTrapState, seat: int | None) -> set[str]:
        others = {c for s, h in enumerate(state.hands) if s != seat for c in h}
        return (others | set(state.deck)) - self.public

    def check_events(self, state: ZapTrapState, events: list[Event], before: set[str]) -> None:
        hidden = self.hidden_from(state, None)
        for event in events:
            found = strings_in(event.to_json())
            assert not found & hidden, f"event {event.kind} shows a hidden card"
            if event.kind not in ("gesture", "game_over"):
                assert not found & set(GESTURES), f"event {event.kind} names a gesture"
            if event.kind == "call":
                data = event.data
                expected = expected_points(state, data["caller"], data["call"], data["target"])
                assert data["points"] == expected
                self.totals = [a + b for a, b in zip(self.totals, expected, strict=True)]
                self.cases[data["case"]] += 1
            if event.kind in ("round_over", "void_round"):
                self.rounds += 1
            if event.kind == "round_over":
                assert state.scores == self.totals == event.data["scores"]
            if event.kind == "game_over":
                self.check_winners(state)

    def check_winners(self, state: ZapTrapState) -> None:
        call = state.call
        assert call is not None
        unit = state.unit_of
        pair = [call["caller"], call["target"]]
        if call["case"] == "A" and max(state.scores[s] for s in pair) >= state.options.target:
            assert state.winners == sorted([call["caller"], call["target"]])
            return
        best = max(state.scores)
        assert best >= state.options.target
        assert state.winners == [s for s in range(state.players) if state.scores[unit(s)] == best]
        result = state.result()
        assert result is not None and result.winners == state.winners

    def check_views(self, state: ZapTrapState) -> None:
        spectator = state.view(None)
        assert not strings_in(spectator) & self.hidden_from(state, None)
        assert not SIGNAL_KEYS & set(spectator) or state.phase == "over"
        for seat in range(state.players):
            view = state.view(seat)
            assert not strings_in(view) & self.hidden_from(state, seat), f"seat {seat} sees a hidden card"
            unit = state.unit_of(seat)
            assert view["my_signal"] == state.choices[unit]
            assert view["last_signal"] == state.last_signals[unit]
            assert view["watch_signal"] == state.choices[state.unit_of(view["watch_seat"])]
            assert ("signal_history" in view) == (state.phase == "over")

    def check_signal_privacy(self, state: ZapTrapState) -> None:
        """Changing another side's secret signals must change nothing in a view that may not know them."""
        if state.phase == "over":
            return
        seat: int | None = self.rng.choice([None, *range(state.players)])
        visible = set() if seat is None else state.visible_units(seat)
        other = GAME.from_json(state.to_json())
        for unit in range(state.units):
            if unit in visible:
                continue
            swap = {g: h for g, h in zip(GESTURES, [*list(GESTURES)[1:], next(iter(GESTURES))], strict=True)}
            if other.choices[unit] is not None:
                other.choices[unit] = swap[other.choices[unit]]
            if other.last_signals[unit] is not None:
                other.last_signals[unit] = swap[other.last_signals[unit]]
            for entry in other.signal_history:
                if entry["signals"][unit] is not None:
                    entry["signals"][unit] = swap[entry["signals"][unit]]
        assert other.view(seat) == state.view(seat), f"seat {seat}'s view depends on a hidden signal"


def options_for(index: int) -> ZapTrapOptions:
    if index % 9 == 4:
        return ZapTrapOptions(preset="kemps")
    if index % 9 == 7:
        return ZapTrapOptions(species=8, copies=3, doubles=1, specials=1, refuse_wrong_targets=True)
    if index % 9 == 8:
        return ZapTrapOptions(lull="dealer", target=4)
    return ZapTrapOptions()


def run_selfplay(count: int, start_seed: int, deep: bool) -> Invariants:
    total: Invariants | None = None
    for index in range(count):
        seed = start_seed + index
        players = 3 + index % 4
        levels = LEVEL_MIXES[(index // 4) % len(LEVEL_MIXES)]
        timers = ("relaxed", "fast", "off")[index % 3]
        options = options_for(index)
        state = GAME.new_game(players, options, seed)
        check = Invariants(state, deep, random.Random(seed))
        record = play_game(GAME, players, options, seed, levels, on_action=check, timers=timers)
        assert record.state.is_over(), f"seed {seed} did not finish"
        assert record.state.to_json() is not None
        if total is None:
            total = check
        else:
            total.actions += check.actions
            total.rounds += check.rounds
            total.cases += check.cases
    assert total is not None
    return total


def after(hand: list[str], swap: str) -> list[str]:
    give, take = swap[1:].split("-")
    return [c for c in hand if c != give] + [take]


def random_walk(
    players: int, options: ZapTrapOptions, seed: int, deep: bool, steps: int = 3000
) -> Invariants:
    """Random legal actions from random seats and the referee: reaches every case of the tables,
    wrong targets and void rounds included, far faster than polite computer players."""
    rng = random.Random(seed)
    species = int(options.species or 0)
    state = GAME.new_game(players, options, seed)
    check = Invariants(state, deep, rng)
    for _ in range(steps):
        if state.is_over():
            break
        seat: int | None = (
            rng.choice([None, *range(players)]) if rng.random() < 0.1 else rng.randrange(players)
        )
        legal = state.legal_actions(seat)
        calls = [a for a in legal if a.startswith(("ZAP", "TRAP"))]
        rest = [a for a in legal if a not in calls]
        swaps = [a for a in rest if a.startswith("S")]
        if calls and rng.random() < 0.04:
            # Half the calls aim at a hand holding a set, as a player who read the signals would.
            on_set = [a for a in calls if best_set(state.hands[int(a.split("-")[1])], species)]
            action = rng.choice(on_set if on_set and rng.random() < 0.5 else calls)
        elif swaps and seat is not None and rng.random() < 0.6:
            action = max(swaps, key=lambda a: hand_value(after(state.hands[seat], a), species, True))
        else:
            action = rng.choice(rest or calls)
        if rng.random() < 0.02:
            # A stale action from another moment: if refused it must change nothing.
            stale = rng.choice(["S1a-2b", "ZAP-0", "TRAP-1", "deal", "next", "signals", "signal-wink"])
            try:
                events = state.apply(seat, stale)
            except IllegalAction:
                refused(state, seat, stale)
                continue
            check(state, seat, stale, events)
            continue
        events = state.apply(seat, action)
        check(state, seat, action, events)
    return check


def test_many_self_play_games_keep_every_invariant() -> None:
    total = run_selfplay(40, start_seed=1000, deep=False)
    assert total.rounds >= 200 and total.actions > 5000
    assert {"A", "zap_set"} <= set(total.cases)


def test_self_play_with_a_json_round_trip_and_signal_privacy_after_every_action() -> None:
    total = run_selfplay(8, start_seed=1, deep=True)
    assert total.actions > 800


def test_random_walks_reach_every_case_and_keep_every_invariant() -> None:
    cases: Counter[str] = Counter()
    voids = 0
    tiny = ZapTrapOptions(species=5, copies=4, doubles=0, specials=2, hand_size=4)
    for index in range(24):
        players = 3 + index % 4
        options = [ZapTrapOptions(), tiny, ZapTrapOptions(refuse_wrong_targets=True)][index % 3]
        if players == 6 and options is tiny:
            options = ZapTrapOptions(preset="kemps")
        check = random_walk(players, options, 500 + index, deep=index % 4 == 0)
        cases += check.cases
        voids += check.rounds - sum(check.cases.values())
    assert set("ABCDEF") | {"zap_set", "zap_miss", "trap_set", "trap_miss"} <= set(cases)
    assert voids > 0


@pytest.mark.soak
def test_soak_many_games() -> None:
    run_selfplay(2000, start_seed=50000, deep=True)
    for index in range(500):
        random_walk(3 + index % 4, ZapTrapOptions(), 90000 + index, deep=True)


def test_same_seed_same_game() -> None:
    for players in (3, 4, 5, 6):
        first = play_game(GAME, players, ZapTrapOptions(), 77, ["casual", "sharp"])
        second = play_game(GAME, players, ZapTrapOptions(), 77, ["casual", "sharp"])
        assert first.actions == second.actions and first.elapsed == second.elapsed
        assert first.state.to_json() == second.state.to_json()
    other = play_game(GAME, 6, ZapTrapOptions(), 78, ["casual", "sharp"])
    assert other.actions != first.actions


def test_replaying_a_record_reproduces_the_final_state() -> None:
    record = play_game(GAME, 5, ZapTrapOptions(), 5, ["sharp", "casual"])
    data = json.loads(json.dumps(record.to_json()))
    outcome = replay(data)
    assert outcome.ok and outcome.state.to_json() == record.state.to_json()


def test_a_reloaded_game_continues_identically() -> None:
    record = play_game(GAME, 4, ZapTrapOptions(), 11, ["casual", "sharp"])
    state = GAME.new_game(4, ZapTrapOptions(), 11)
    for index, (seat, action) in enumerate(record.actions):
        if index % 20 == 0:
            state = GAME.from_json(json.loads(json.dumps(state.to_json())))
        state.apply(seat, action)
    assert state.to_json() == record.state.to_json()


def test_virtual_time_is_human_like() -> None:
    record = play_game(GAME, 4, ZapTrapOptions(), 3, ["casual"])
    per_action = record.elapsed / len(record.actions)
    assert 0.5 < per_action < 10
    rounds = record.state.round
    assert 20 < record.elapsed / rounds < 600  # a round lasts from a few seconds to a few minutes


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_the_command_line_self_play_and_replay(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    done = run_cli(
        "selfplay", "zaptrap", "--games", "2", "--players", "5", "--seed", "3",
        "--levels", "casual,sharp", "--record", str(record),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("game 1 seed 3: winner") and lines[1].startswith("game 2 seed 4: winner")
    data = json.loads(record.read_text())
    assert data["game"] == "zaptrap" and data["actions"]
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "Seat " in replayed.stdout and "place 1" in replayed.stdout


def test_a_scenario_file_with_expectations(tmp_path: Path) -> None:
    from zaptrap_helpers import make_deal

    hands = [["1a", "1b", "1c", "1d", "2a"], ["3a", "3b", "4a", "5a", "6a"], ["7a", "7b", "8a", "9a", "10a"]]
    hands.append(["2b", "2c", "3c", "4b", "5b"])
    scenario = {
        "game": "zaptrap",
        "players": 4,
        "options": {"target": 1},
        "seed": 1,
        "deal": make_deal(hands, ["8b", "8c", "9c", "10b"], signals=["think", "wink"]),
        "actions": [{"seat": 0, "action": "gesture-think"}, {"seat": 2, "action": "ZAP-0"}],
        "expect": {"scores": [1, 0], "phase": "over", "winners": [0, 2], "places": [1, 2, 1, 2]},
    }
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    done = run_cli("replay", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    call = next(line for line in done.stdout.splitlines() if line.startswith("Seat 2: call "))
    data = json.loads(call.removeprefix("Seat 2: call "))
    assert (data["caller"], data["target"], data["call"]) == (2, 0, "ZAP")
    scenario["expect"] = {"scores": [0, 1]}
    path.write_text(json.dumps(scenario))
    assert run_cli("replay", str(path)).returncode == 1
