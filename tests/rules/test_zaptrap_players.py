"""The computer players decide from their own view only: swapping toward a set, signalling it,
noticing a partner's signal, bluffing and TRAPping at the sharp level."""

from __future__ import annotations

import random

import pytest
from zaptrap_helpers import GAME, new_state

from rules.zaptrap import GESTURES, ZapTrapState

HANDS = [
    ["1a", "1b", "1c", "2a", "5d"],
    ["3a", "3b", "4a", "5a", "6a"],
    ["7a", "7b", "8a", "9a", "10a"],
    ["2b", "2c", "3c", "4b", "5b"],
]


def table_state(**kw: object) -> ZapTrapState:
    return new_state(HANDS, ["1d", "8c", "9c", "10b"], **kw)  # type: ignore[arg-type]


def legal_and_view(state: ZapTrapState, seat: int) -> tuple[dict, list[str]]:
    return state.view(seat), state.legal_actions(seat)


@pytest.mark.parametrize("level", GAME.computer_levels)
def test_swaps_toward_a_set_then_signals_it_to_the_partner(level: str) -> None:
    state = table_state()
    bot = GAME.computer_player(level)
    rng = random.Random(1)
    view, legal = legal_and_view(state, 0)
    assert bot.choose(view, legal, rng) == "S2a-1d"
    state.apply(0, "S2a-1d")
    view, legal = legal_and_view(state, 0)
    assert view["best_set"]["count"] == 4
    assert bot.choose(view, legal, rng) == "gesture-think"  # team 0's real signal
    state.apply(0, "gesture-think")
    view, legal = legal_and_view(state, 0)
    assert bot.choose(view, legal, rng) is None  # signalled: now it waits for the ZAP


def test_a_partner_notices_the_real_signal_and_zaps() -> None:
    state = table_state()
    state.apply(0, "S2a-1d")
    state.apply(0, "gesture-think")
    sharp = GAME.computer_player("sharp")
    view, legal = legal_and_view(state, 2)
    assert sharp.choose(view, legal, random.Random(1)) == "ZAP-0"
    casual = GAME.computer_player("casual")
    picks = {casual.choose(view, legal, random.Random(seed)) for seed in range(30)}
    assert "ZAP-0" in picks and len(picks) > 1  # now and then a casual player misses it
    # A gesture that is not the team's signal means nothing to the partner.
    other = table_state()
    other.apply(0, "gesture-wink")
    view, legal = legal_and_view(other, 2)
    assert sharp.choose(view, legal, random.Random(1)) != "ZAP-0"


def test_in_the_individual_game_the_left_neighbour_zaps() -> None:
    hands = [["1a", "1b", "1c", "1d", "5d"], HANDS[1], HANDS[2]]
    state = new_state(hands, ["2a", "8c", "9c", "10b"])
    state.apply(0, "gesture-think")  # seat 0's signal, watched by seat 1
    for level in GAME.computer_levels:
        bot = GAME.computer_player(level)
        view, legal = legal_and_view(state, 1)
        assert view["watch_seat"] == 0
        picks = {bot.choose(view, legal, random.Random(s)) for s in range(10)}
        assert "ZAP-0" in picks
        view, legal = legal_and_view(state, 2)  # seat 2 watches seat 1: no ZAP
        assert all(bot.choose(view, legal, random.Random(s)) != "ZAP-0" for s in range(10))


def test_sharp_traps_an_opponent_repeating_a_gesture_after_a_swap_casual_does_not() -> None:
    state = table_state()
    state.apply(1, "S6a-8c")
    state.apply(1, "gesture-cool")
    for _ in range(4):
        state.apply(3, "gesture-think")  # seat 3's noise on the team's own signal is ignored
    state.apply(1, "gesture-cool")
    view, legal = legal_and_view(state, 0)
    assert GAME.computer_player("sharp").choose(view, legal, random.Random(1)) == "TRAP-1"
    casual = GAME.computer_player("casual")
    assert all(not (casual.choose(view, legal, random.Random(s)) or "").startswith("TRAP") for s in range(20))


def test_sharp_bluffs_now_and_then_after_its_own_swaps() -> None:
    bluffs = 0
    for waited in range(40):
        state = table_state()
        for _ in range(waited):
            state.apply(3, "gesture-yawn")  # the decision is made once per swap, at its moment
        state.apply(1, "S6a-8c")
        view, legal = legal_and_view(state, 1)
        bot = GAME.computer_player("sharp")
        choice = bot.choose(view, legal, random.Random(waited))
        if choice and choice.startswith("gesture-"):
            assert choice != "gesture-wink"  # never its own real signal when it has no set
            bluffs += 1
    assert 0 < bluffs < 40


def test_signals_phase_choice_and_waiting_between_rounds() -> None:
    state = GAME.new_game(4, None, 2)
    for level in GAME.computer_levels:
        bot = GAME.computer_player(level)
        view, legal = legal_and_view(state, 0)
        choice = bot.choose(view, legal, random.Random(3))
        assert choice in {f"signal-{g}" for g in GESTURES}
    state.apply(0, "signal-think")
    view, legal = legal_and_view(state, 2)
    assert GAME.computer_player("sharp").choose(view, legal, random.Random(3)) is None  # partner chose
    played = table_state()
    played.apply(2, "ZAP-0")
    view, legal = legal_and_view(played, 1)
    assert GAME.computer_player("casual").choose(view, legal, random.Random(3)) is None
    assert GAME.computer_player("casual").choose(view, [], random.Random(3)) is None


def test_the_dealer_deals_when_it_has_nothing_better() -> None:
    hands = [["3d", "4c", "6b", "7c", "9b"], HANDS[1], HANDS[2], HANDS[3]]
    state = new_state(hands, ["1d", "8c", "10b", "10c"])
    view, legal = legal_and_view(state, 0)
    assert "deal" in legal
    assert GAME.computer_player("casual").choose(view, legal, random.Random(1)) == "deal"


def test_reaction_times_are_human_like_and_scale_with_speed() -> None:
    state = table_state()
    view = state.view(2)
    rng = random.Random(4)
    casual = GAME.computer_player("casual")
    sharp = GAME.computer_player("sharp")
    zaps = [casual.reaction_time(view, "ZAP-0", rng) for _ in range(100)]
    assert min(zaps) >= 1.8 and max(zaps) <= 4.5
    swaps = [sharp.reaction_time(view, "S7a-8c", rng) for _ in range(100)]
    assert min(swaps) >= 0.9 and max(swaps) <= 2.2
    assert sharp.reaction_time(view, "deal", random.Random(1)) > sharp.reaction_time(
        view, "S7a-8c", random.Random(1)
    )
    fast = GAME.computer_player("sharp", speed=0.5)
    assert fast.reaction_time(view, "ZAP-0", random.Random(5)) < sharp.reaction_time(
        view, "ZAP-0", random.Random(5)
    )
    with pytest.raises(ValueError, match="Unknown Zap or Trap computer level"):
        GAME.computer_player("grandmaster")
    with pytest.raises(ValueError, match="positive"):
        GAME.computer_player("sharp", speed=0)
