"""Seeded Spy Trap self-play across every table size and level, with invariants after every action,
plus determinism, reloads, replays, the command line and the computer players' own behaviour."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from spytrap_helpers import GAME, check_conservation, make_deal

from rules.base import Event, State
from rules.replay import replay
from rules.selfplay import play_game
from rules.spytrap import ALL_CARDS, COUNTRIES, FILES_TO_WIN, SpyTrapOptions, SpyTrapState, country_of

STRING = re.compile(r'"([^"]*)"')
ROOT = Path(__file__).resolve().parents[2]
LEVEL_MIXES = [["casual"], ["sharp"], ["casual", "sharp"], ["sharp", "casual", "casual"]]
# View keys that may name a country: public facts, and the viewer's own secrets (checked one by one).
COUNTRY_KEYS = {
    "home",
    "tallies",
    "drawn",
    "wrong_guesses",
    "prompt",
    "identity",
    "learned",
    "received_id",
    "identities",
}


def strings_in(value: Any) -> set[str]:
    """Every string in a JSON-able value, dict keys included (json.dumps keeps this fast)."""
    return set(STRING.findall(json.dumps(value)))


class Invariants:
    """Checks every action of a game; ``round_trip`` adds the JSON reload each time."""

    def __init__(self, round_trip: bool) -> None:
        self.round_trip = round_trip
        self.actions = 0
        self.kinds: set[str] = set()

    def __call__(self, state: State, seat: int | None, action: str, events: list[Event]) -> None:
        assert isinstance(state, SpyTrapState)
        self.actions += 1
        check_conservation(state)
        self.check_inert(state)
        self.check_views(state)
        self.check_events(state, events)
        if self.round_trip:
            data = state.to_json()
            assert GAME.from_json(json.loads(json.dumps(data))).to_json() == data
        if state.is_over():
            self.check_end(state)

    @staticmethod
    def check_inert(state: SpyTrapState) -> None:
        assert sum(state.active) >= 1
        for s in range(state.players):
            if not state.active[s]:
                assert state.hands[s] == [] and state.home[s] == [] and state.legal_actions(s) == []
                assert state.eliminated_by[s] is not None and s in state.out_order
                assert state.prompt is None or state.prompt["seat"] != s
        if not state.is_over():
            assert state.waiting(), "the table waits on nobody"
            assert state.quiet_actions(), "no timer runs although the game waits"
            assert all(state.legal_actions(s) for s in state.waiting())
            assert state.legal_actions(None) == [state.quiet_actions()[0].action]

    @staticmethod
    def check_views(state: SpyTrapState) -> None:
        over = state.is_over()
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            hidden = set(state.deck)
            hidden |= {c for s, h in enumerate(state.hands) if s != seat for c in h}
            hidden |= {c for s, p in enumerate(state.piles) if s != seat for c in p}
            assert not strings_in(view) & hidden, f"seat {seat} sees a hidden card"
            rest = {k: v for k, v in view.items() if k not in COUNTRY_KEYS}
            assert not strings_in(rest) & set(COUNTRIES), f"seat {seat} sees an identity"
            assert ("identities" in view) == over
            if seat is None:
                assert "identity" not in view and "hand" not in view
                continue
            assert view["identity"] == state.identity[seat]
            for fact in view["learned"]:
                assert state.eliminated_by[fact["seat"]] == seat
                assert state.identity[fact["seat"]] == fact["country"]
            if view["received_id"] is not None:
                assert state.prompt is not None and state.prompt["seat"] == seat
                assert view["received_id"] == state.pending_id
            for guess in view["wrong_guesses"]:
                assert state.identity[guess["seat"]] != guess["country"]

    @staticmethod
    def check_events(state: SpyTrapState, events: list[Event]) -> None:
        for event in events:
            # Only a drawn card (now face up) or a stolen File may be named; never a hand or a pile.
            allowed = {event.data["card"]} if event.kind in ("draw", "steal") else set()
            named = strings_in(event.to_json()) & ALL_CARDS
            assert named <= allowed, f"event {event.kind} names {named - allowed}"
            if event.kind in ("identity_choice", "eliminated", "timeout", "pile_built", "immunity"):
                assert not strings_in(event.to_json()) & set(COUNTRIES), event.to_json()
            if event.kind != "game_over":
                assert "identities" not in event.data
        # RULINGS §3: a challenge opens only on exactly the 4th File of its country, and every
        # own-pile File that makes exactly 4 opens one.
        for i, event in enumerate(events):
            if event.kind == "draw" and event.data["from"] == "own" and event.data["type"] == "file":
                opened = i + 1 < len(events) and events[i + 1].kind == "challenge_start"
                drawer = event.seat
                assert drawer is not None
                country = event.data["country"]
                if opened:
                    assert events[i + 1].data["country"] == country
                # Later events (a steal, an elimination) may change the home area; check only
                # when the draw is the last thing that touched it.
                if not any(e.kind in ("steal", "eliminated") for e in events[i + 1 :]):
                    count = state.tally(drawer, country, counting_only=False)
                    assert opened == (count == FILES_TO_WIN), (count, opened)

    def check_end(self, state: SpyTrapState) -> None:
        result = state.result()
        assert result is not None and result.winners
        winner = state.winner
        self.kinds.add(str(state.end_reason))
        if state.end_reason == "files":
            assert winner is not None
            mine = [
                c for c, src in state.home[winner] if country_of(c) == state.identity[winner] and src != "own"
            ]
            assert len(mine) >= FILES_TO_WIN
        elif state.end_reason == "challenge":
            assert winner is not None
            mine = [c for c, _ in state.home[winner] if country_of(c) == state.identity[winner]]
            assert len(mine) >= FILES_TO_WIN
        elif state.end_reason == "last_spy":
            assert state.active_seats() == [winner]
        assert result.winners == ([winner] if winner is not None else result.winners)
        # Losers rank by how far they got: spies still in above spies put out, later out higher.
        place = {p.seat: p.place for p in result.placements}
        out = state.out_order
        for earlier, later in pairwise(out):
            assert place[later] < place[earlier]
        for seat in state.active_seats():
            assert all(place[seat] < place[o] for o in out)


def run_games(count: int, round_trip: bool, start_seed: int) -> tuple[int, set[str]]:
    actions = 0
    reasons: set[str] = set()
    for index in range(count):
        seed = start_seed + index
        players = 2 + index % 5
        levels = LEVEL_MIXES[(index // 5) % len(LEVEL_MIXES)]
        timers = ("relaxed", "fast", "off")[index % 3]
        check = Invariants(round_trip)
        record = play_game(GAME, players, SpyTrapOptions(), seed, levels, on_action=check, timers=timers)
        assert record.state.is_over(), f"seed {seed} did not finish"
        actions += check.actions
        reasons |= check.kinds
    return actions, reasons


def test_self_play_keeps_every_invariant_after_every_action() -> None:
    actions, reasons = run_games(15, round_trip=True, start_seed=1)
    assert actions > 2000
    assert {"last_spy", "challenge"} <= reasons


@pytest.mark.soak
def test_soak_many_games() -> None:
    run_games(1000, round_trip=True, start_seed=10000)


def test_timer_defaults_alone_always_finish_a_game() -> None:
    # Everyone walks away: only the referee's defaults are applied, at every table size.
    for players in range(2, 7):
        state = GAME.new_game(players, SpyTrapOptions(round_limit=8), players)
        check = Invariants(round_trip=False)
        steps = 0
        while not state.is_over():
            action = state.quiet_actions()[0].action
            events = state.apply(None, action)
            check(state, None, action, events)
            steps += 1
            assert steps < 3000


def test_same_seed_same_game() -> None:
    for players in (2, 4, 6):
        first = play_game(GAME, players, SpyTrapOptions(), 77, ["casual", "sharp"])
        second = play_game(GAME, players, SpyTrapOptions(), 77, ["casual", "sharp"])
        assert first.actions == second.actions and first.elapsed == second.elapsed
        assert first.state.to_json() == second.state.to_json()
    other = play_game(GAME, 6, SpyTrapOptions(), 78, ["casual", "sharp"])
    assert other.actions != first.actions


def test_replaying_a_record_reproduces_the_final_state() -> None:
    record = play_game(GAME, 4, SpyTrapOptions(), 5, ["sharp", "casual"])
    data = json.loads(json.dumps(record.to_json()))
    outcome = replay(data)
    assert outcome.ok and outcome.state.to_json() == record.state.to_json()


def test_a_reloaded_game_continues_identically() -> None:
    record = play_game(GAME, 5, SpyTrapOptions(), 11, ["casual", "sharp"])
    state = GAME.new_game(5, SpyTrapOptions(), 11)
    for index, (seat, action) in enumerate(record.actions):
        if index % 7 == 0:
            state = GAME.from_json(json.loads(json.dumps(state.to_json())))
        state.apply(seat, action)
    assert state.to_json() == record.state.to_json()


def test_a_scenario_file_with_a_deal_and_expectations_replays() -> None:
    hands = [
        ["FFR1", "FAM1", "FAM2", "FIT1", "FIT2", "FIT3"],
        ["FGE1", "FAM3", "FAM4", "FIT4", "FIT5", "FIT6"],
    ]
    home = [[["FFR2", "opponent"], ["FFR3", "opponent"], ["FFR4", "stolen"]], []]
    data = {
        "game": "spytrap",
        "players": 2,
        "seed": 1,
        "deal": make_deal(["French", "German"], hands, home=home, opener=0),
        "actions": [
            {"seat": 0, "action": "pile-FAM1-FAM2-FIT1"},
            {"seat": 1, "action": "pile-FGE1-FAM3-FAM4"},
            {"seat": 0, "action": "bid-2"},
            {"seat": 1, "action": "pass"},
            {"seat": 0, "action": "draw-0"},
            {"seat": 0, "action": "draw-0"},
        ],
        "expect": {"round": 2, "phase": "pile", "opener": 0, "winners": None},
    }
    outcome = replay(data)
    assert outcome.ok, (outcome.reason, outcome.mismatches)


def test_the_command_line_runs_self_play_and_replays_its_record(tmp_path: Path) -> None:
    record = tmp_path / "spy.json"
    done = subprocess.run(
        [sys.executable, "-m", "rules", "selfplay", "spytrap", "--games", "2", "--players", "3",
         "--seed", "4", "--record", str(record)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game 1 seed 4: winner") and "wins per level" in done.stdout
    replayed = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(record)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "Seat " in replayed.stdout and "place 1" in replayed.stdout


# --- computer players ----------------------------------------------------------------------------------


def test_computer_players_decide_from_the_view_alone_and_answer_every_prompt() -> None:
    rng = random.Random(1)
    state = GAME.new_game(4, SpyTrapOptions(), 21)
    for level in GAME.computer_levels:
        bot = GAME.computer_player(level)
        for seat in range(4):
            legal = state.legal_actions(seat)
            choice = bot.choose(state.view(seat), legal, rng)
            assert choice in legal
            assert bot.reaction_time(state.view(seat), choice, rng) > 1.0
        assert bot.choose(state.view(0), [], rng) is None
    with pytest.raises(ValueError, match="Unknown Spy Trap computer level"):
        GAME.computer_player("grandmaster")
    fast = GAME.computer_player("sharp", speed=0.5)
    slow = GAME.computer_player("sharp")
    view = state.view(0)
    assert fast.reaction_time(view, "x", random.Random(3)) < slow.reaction_time(view, "x", random.Random(3))


def base_view(**changes: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "seat": 0, "phase": "draw", "identity": "French", "active": [True, True, True],
        "immunity": [True, True, True], "home": [[], [], []], "tallies": [{}, {}, {}],
        "wrong_guesses": [], "learned": [], "my_pile": [], "hand": [], "prompt": None,
        "received_id": None, "min_bid": 1, "pile_sizes": [3, 3, 3],
    }  # fmt: skip
    view.update(changes)
    return view


def test_sharp_reads_the_table() -> None:
    sharp = GAME.computer_player("sharp")
    rng = random.Random(5)
    # It steals a File of its own country first.
    prompt = {"seat": 0, "kind": "steal", "drawer": 1, "choices": ["FGE1", "FFR7"]}
    assert (
        sharp.choose(base_view(prompt=prompt), ["steal-FGE1", "steal-FFR7", "nosteal"], rng) == "steal-FFR7"
    )
    # It names the country a spy has been stealing.
    home = [[], [{"card": "FRU1", "country": "Russian", "from": "stolen"}], []]
    prompt = {"seat": 0, "kind": "guess", "drawer": 1}
    legal = [f"guess-{c}" for c in COUNTRIES] + ["noguess"]
    assert sharp.choose(base_view(prompt=prompt, home=home), legal, rng) == "guess-Russian"
    # It plays Immunity only against a right guess.
    prompt = {"seat": 0, "kind": "immunity", "guesser": 1, "guess": "French"}
    assert sharp.choose(base_view(prompt=prompt), ["immunity", "noimmunity"], rng) == "immunity"
    prompt = dict(prompt, guess="German")
    assert sharp.choose(base_view(prompt=prompt), ["immunity", "noimmunity"], rng) == "noimmunity"
    # It draws from a pile whose owner is out, where nothing can hurt it.
    view = base_view(active=[True, True, False], my_pile=["TR1"])
    assert sharp.choose(view, ["draw-0", "draw-1", "draw-2"], rng) == "draw-2"
    # It avoids its own trap while another pile is open.
    view = base_view(my_pile=["TR1", "FAM1"])
    assert sharp.choose(view, ["draw-0", "draw-1"], rng) == "draw-1"
    # With every other country ruled out, it challenges.
    wrong = [{"seat": 1, "country": c} for c in ("American", "German", "Italian", "Spanish")]
    prompt = {"seat": 0, "kind": "challenge", "drawer": 1, "country": "German", "still_to_guess": []}
    legal = [f"challenge-{c}" for c in COUNTRIES] + ["nochallenge"]
    assert sharp.choose(base_view(prompt=prompt, wrong_guesses=wrong), legal, rng) == "challenge-Russian"
    assert sharp.choose(base_view(prompt=prompt), legal, rng) == "nochallenge"
    # It takes a new identity that its counting Files already favour.
    tallies = [{"German": {"all": 3, "counting": 3}}, {}, {}]
    prompt = {"seat": 0, "kind": "keep", "eliminated": 1}
    view = base_view(prompt=prompt, tallies=tallies, received_id="German")
    assert sharp.choose(view, ["keep-own", "keep-new"], rng) == "keep-new"
    # Traps go on top of its pile.
    view = base_view(phase="pile", hand=["FAM1", "FIT1", "TR3", "FSP1", "EA2", "FGE1"])
    legal = GAME.new_game(2, None, 1, make_deal(["French", "German"], [view["hand"], []])).legal_actions(0)
    assert sharp.choose(view, legal, rng).startswith("pile-TR3-EA2-")


def test_sharp_beats_casual_over_a_few_games() -> None:
    wins = {"casual": 0, "sharp": 0}
    for seed in range(12):
        record = play_game(GAME, 4, SpyTrapOptions(), 300 + seed, ["casual", "sharp"])
        result = record.state.result()
        assert result is not None
        for seat in result.winners:
            wins[record.levels[seat]] += 1
    assert wins["sharp"] > wins["casual"]


def test_virtual_time_is_human_like() -> None:
    record = play_game(GAME, 4, SpyTrapOptions(), 3, ["casual"])
    per_action = record.elapsed / len(record.actions)
    assert 1.0 < per_action < 20
