"""The computer players: a stable taste from the persona, learning others' tastes from public history,
GiftTRAP reflexes, and decisions made from the view alone."""

from __future__ import annotations

import random

import pytest
from gifttrap_helpers import GAME, choose, new_state, reveal

from rules.gifttrap import GIFTS, PACK_GIFTS, TOKENS, GiftTrapState
from rules.gifttrap.players import rank_by_taste, taste


def drive(state: GiftTrapState, seat: int, level: str, persona: str = "", limit: int = 60) -> list[str]:
    """Let one computer player act until it stops wanting anything; returns its actions."""
    bot = GAME.computer_player(level, persona=persona)
    rng = random.Random(seat)
    done: list[str] = []
    for _ in range(limit):
        action = bot.choose(state.view(seat), state.legal_actions(seat), rng)
        if action is None:
            return done
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
        done.append(action)
    raise AssertionError(f"the {level} player never settled: {done[-6:]}")


def layout_of(pack: int, start: int, count: int) -> list[dict]:
    return [{"space": n, **g.to_json()} for n, g in enumerate(PACK_GIFTS[pack][start : start + count], 1)]


def test_the_persona_fixes_the_taste_across_games_and_levels() -> None:
    layout = layout_of(2, 0, 9)
    bea = rank_by_taste("Bea", layout, set(), park_noway=False)
    assert bea == rank_by_taste("Bea", layout, set(), park_noway=False)
    assert sorted(bea) == sorted(TOKENS) and len(set(bea.values())) == 4
    others = {
        tuple(rank_by_taste(name, layout, set(), False).values()) for name in ("Cy", "Dot", "Eve", "Flo")
    }
    assert len(others | {tuple(bea.values())}) > 2, "different names should have different tastes"
    for level in GAME.computer_levels:
        for seed in (1, 2):
            state = GAME.new_game(4, None, seed)
            state.apply(0, "pack-2")
            drive(state, 1, level, persona="Bea")
            view_layout = state.view(None)["layout"]
            assert state.ranks[1] == rank_by_taste("Bea", view_layout, set(), park_noway=False)


def test_without_a_persona_the_seat_gives_the_taste() -> None:
    state = new_state(4)
    drive(state, 2, "casual")
    assert state.ranks[2] == rank_by_taste("seat 3", state.view(None)["layout"], set(), False)


def test_both_levels_make_complete_choices_and_then_wait() -> None:
    for level in GAME.computer_levels:
        state = new_state(5)
        actions = drive(state, 3, level)
        assert actions[-1] == "ready" and state.ready[3]
        assert None not in [g for r, g in enumerate(state.gives[3]) if r != 3]
        bot = GAME.computer_player(level)
        assert bot.choose(state.view(3), state.legal_actions(3), random.Random(1)) is None


def test_the_dealer_picks_a_pack() -> None:
    for level in GAME.computer_levels:
        state = GAME.new_game(3, None, 4)
        bot = GAME.computer_player(level)
        action = bot.choose(state.view(0), state.legal_actions(0), random.Random(1))
        assert action in ("pack-1", "pack-2", "pack-3", "pack-4")
        assert bot.choose(state.view(1), state.legal_actions(1), random.Random(1)) is None


def test_the_thoughtful_player_gives_what_the_history_says_the_receiver_loves() -> None:
    """Seat 1 put GREAT on a pet gift two rounds running; now the thoughtful seat 0 gives it the pet."""

    def past(round_number: int, ids: list[str]) -> dict:
        layout = [{"space": n, **GIFTS[g].to_json()} for n, g in enumerate(ids, 1)]
        seat_1 = {"great": 1, "good": 2, "ok": 3, "noway": 4}
        return {"round": round_number, "layout": layout, "rankings": [None, seat_1, None], "revealed": []}

    history = [
        past(1, ["chew-bone", "dice-set", "crayons", "lipstick"]),
        past(2, ["toy-mouse", "deck-of-cards", "notebook", "sunglasses"]),
    ]
    state = GAME.new_game(3, None, 2, {"layout": ["rubber-duck", "wool-socks", "tennis-balls", "kite"]})
    bot = GAME.computer_player("thoughtful")
    for _ in range(30):
        view = state.view(0)
        view["history"] = history
        action = bot.choose(view, state.legal_actions(0), random.Random(1))
        if action is None:
            break
        state.apply(0, action)
    assert state.ready[0] and state.gives[0][1] == 3  # the tennis balls: a pet's toy


def test_the_thoughtful_player_parks_no_way_on_a_gifttrapped_gift() -> None:
    state = new_state(4)
    state.apply(1, "gifttrap-3")
    drive(state, 0, "thoughtful", persona="Bea")
    assert state.ranks[0]["noway"] == 3
    assert 3 not in [state.ranks[0][t] for t in ("great", "good", "ok")]


def test_gifttrap_to_save_a_gift_heading_for_a_no_way() -> None:
    for level in GAME.computer_levels:
        trapped_at_least_once = False
        for seed in range(6):
            state = new_state(3, seed=seed)
            # Seat 2 gives seat 0 gift 4, which seat 0 ranks NO WAY; seat 0's tokens come up first.
            choose(state, 0, {1: 1, 2: 2}, {"great": 1, "good": 2, "ok": 3, "noway": 4})
            choose(state, 1, {0: 1, 2: 2}, {"great": 1, "good": 2, "ok": 3, "noway": 4})
            choose(state, 2, {0: 4, 1: 3}, {"great": 1, "good": 2, "ok": 3, "noway": 4})
            reveal(state, 1)
            bot = GAME.computer_player(level)
            action = bot.choose(state.view(2), state.legal_actions(2), random.Random(seed))
            assert action in (None, "gifttrap-4")
            trapped_at_least_once |= action == "gifttrap-4"
            if level == "thoughtful":
                assert action == "gifttrap-4"
        assert trapped_at_least_once


def test_reaction_times_are_human_and_gifttrap_is_a_quick_shout() -> None:
    state = new_state(4)
    view = state.view(0)
    for level in GAME.computer_levels:
        bot = GAME.computer_player(level)
        first = [bot.reaction_time(view, "give-1-1", random.Random(i)) for i in range(50)]
        shout = [bot.reaction_time(view, "gifttrap-2", random.Random(i)) for i in range(50)]
        assert min(first) > 3 and max(first) < 15
        assert max(shout) <= 2.0 < GAME.timers["relaxed"]["reveal_step"]
        fast = GAME.computer_player(level, speed=0.5)
        assert fast.reaction_time(view, "ready", random.Random(3)) < bot.reaction_time(
            view, "ready", random.Random(3)
        )
    with pytest.raises(ValueError, match="Unknown GiftTRAP computer level"):
        GAME.computer_player("grandmaster")
    with pytest.raises(ValueError, match="positive"):
        GAME.computer_player("casual", speed=0)


def test_taste_is_a_pure_function_of_persona_and_gift() -> None:
    gift = layout_of(1, 0, 1)[0]
    assert taste("Bea", gift) == taste("Bea", dict(gift))
    assert taste("Bea", gift) != taste("Cy", gift)
