"""One scenario per rule and ruling of RULINGS.md §3 (Spy Trap), each from an explicit deal.

Unless said otherwise seat 0 opens, every spy holds Immunity, and cards not named lie at the bottom of
the deck. Hands are written with the pile's cards first (top first).
"""

from __future__ import annotations

from collections import Counter

import pytest
from spytrap_helpers import (
    GAME,
    bid_to,
    build_piles,
    check_conservation,
    new_state,
    refusal,
    refused,
    to_draw,
)

from cogs.words.spytrap import refusal as spytrap_refusal
from rules.base import QuietAction
from rules.spytrap import COUNTRIES, SpyTrapOptions, all_cards, card_type, country_of


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def strings_in(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


# Three spies, plain hands: Files of countries nobody is, so nothing wins by accident.
IDS3 = ["French", "German", "Russian"]
H0 = ["FAM1", "FAM2", "FIT1", "FSP1", "FSP2", "FIT2"]
H1 = ["FAM3", "FAM4", "FIT3", "FSP3", "FSP4", "FIT4"]
H2 = ["FAM5", "FAM6", "FIT5", "FSP5", "FSP6", "FIT6"]


# --- set-up ----------------------------------------------------------------------------------------


def test_deck_of_98_and_each_spy_gets_an_identity_immunity_and_six_cards() -> None:
    cards = all_cards()
    assert len(cards) == len(set(cards)) == 98
    types = Counter(card_type(c) for c in cards)
    assert types == {"file": 72, "agent": 13, "trap": 13}
    assert Counter(country_of(c) for c in cards if card_type(c) == "file") == {c: 12 for c in COUNTRIES}
    openers = set()
    for players in range(2, 7):
        for seed in range(6):
            state = GAME.new_game(players, None, seed)
            assert len(set(state.identity)) == players and len(state.id_discard) == 6 - players
            assert [len(h) for h in state.hands] == [6] * players and len(state.deck) == 98 - 6 * players
            assert state.immunity == [True] * players and state.phase == "pile"
            openers.add((players, state.opener))
            check_conservation(state)
            assert "identity" not in state.view(None) and state.view(0)["identity"] == state.identity[0]
    assert len({o for p, o in openers if p == 6}) > 1, "the first opener should be random"


# --- piles -----------------------------------------------------------------------------------------


def test_piles_are_built_secretly_and_the_table_sees_only_who_is_done() -> None:
    state = new_state(IDS3, [H0, H1, H2])
    events = state.apply(0, "pile-FIT2-FAM1-FSP1")
    assert kinds(events) == ["pile_built"] and events[0].data == {"size": 3}
    assert not strings_in([e.to_json() for e in events]) & set(H0)
    for seat in (None, 1, 2):
        view = state.view(seat)
        assert view["piles_done"] == [True, False, False] and view["pile_sizes"] == [3, 0, 0]
        assert not strings_in(view) & {"FIT2", "FAM1", "FSP1"}
    assert state.view(0)["my_pile"] == ["FIT2", "FAM1", "FSP1"]
    assert state.view(0)["hand"] == ["FAM2", "FIT1", "FSP2"]
    assert state.view(None)["waiting"] == [1, 2]
    assert refused(state, 0, "pile-FAM2-FIT1-FSP2") == "pile_already_built"
    assert refusal(state, 1, "pile-FAM3-FAM4").params == {"size": 3}
    assert refused(state, 1, "pile-FAM3-FAM3-FIT3") == "same_card_twice"
    assert refusal(state, 1, "pile-FAM1-FAM3-FIT3").params == {"card": "FAM1"}
    assert refused(state, 1, "bid-1") == "piles_now"
    assert len(state.legal_actions(1)) == 6 * 5 * 4 and state.legal_actions(0) == []


def test_a_short_hand_goes_whole_into_the_pile_and_an_empty_hand_has_none() -> None:
    state = new_state(IDS3, [["FAM1", "EA1"], [], H2])
    assert state.pile_done == [False, True, False]
    assert (error := refusal(state, 0, "pile-FAM1")).code == "pile_size" and error.params == {"size": 2}
    assert state.legal_actions(0) == ["pile-FAM1-EA1", "pile-EA1-FAM1"]
    state.apply(0, "pile-EA1-FAM1")
    state.apply(2, "pile-FAM5-FAM6-FIT5")
    assert state.phase == "bid" and state.max_bid == 5


def test_the_pile_timer_builds_a_pile_for_absent_players_and_says_so_without_contents() -> None:
    state = new_state(IDS3, [H0, H1, H2])
    state.apply(1, "pile-FAM3-FAM4-FIT3")
    assert state.quiet_actions() == [QuietAction("pile", "auto-pile")]
    assert state.legal_actions(None) == ["auto-pile"]
    assert refused(state, 0, "auto-pile") == "referee_only"
    assert refused(state, None, "pass") == "referee_default_only"
    events = state.apply(None, "auto-pile")
    assert [e.seat for e in events if e.kind == "timeout"] == [0, 2]
    assert not strings_in([e.to_json() for e in events]) & (set(H0) | set(H2))
    assert state.phase == "bid" and [len(p) for p in state.piles] == [3, 3, 3]
    # The referee's choice comes from the seed: the same game picks the same piles.
    again = new_state(IDS3, [H0, H1, H2])
    again.apply(1, "pile-FAM3-FAM4-FIT3")
    again.apply(None, "auto-pile")
    assert again.piles == state.piles
    check_conservation(state)


# --- bidding ---------------------------------------------------------------------------------------


def piled() -> object:
    state = new_state(IDS3, [H0, H1, H2])
    build_piles(state, [H0[:3], H1[:3], H2[:3]])
    return state


def test_the_opener_must_bid_at_least_one_and_nobody_above_the_cards_in_the_piles() -> None:
    state = piled()
    assert state.phase == "bid" and state.to_bid == 0 and state.max_bid == 9
    assert state.quiet_actions() == [QuietAction("bid", "bid-1")]
    assert refused(state, 0, "pass") == "opener_must_bid"
    assert refused(state, 0, "bid-0") == "opener_must_bid"
    assert (error := refusal(state, 0, "bid-10")).code == "bid_too_high" and error.params == {"max_bid": 9}
    assert refused(state, 1, "bid-2") == "not_your_bid"
    assert refused(state, 0, "bid-x") == "bid_format"
    assert state.legal_actions(0) == [f"bid-{n}" for n in range(1, 10)]


def test_spytrap_the_opener_of_a_later_round_must_bid_at_least_one() -> None:
    """RULINGS §3: the opener must bid at least 1 in every round (stated for rounds 2 on), not only
    in round 1: in round 2 the last winner opens and may neither pass nor bid 0. Seen to fail,
    every other Spy Trap test passing, with _check_bid and legal_actions refusing the opener's pass
    in round 1 only (the pass got past the check and tripped an assert in apply); and with
    _start_round not clearing high_bidder (last round's winner "stands", so the opener may pass),
    which the round-limit test and self-play also notice."""
    state = piled()
    bid_to(state, 1, 2)
    state.apply(1, "draw-0")
    state.apply(1, "draw-0")
    assert state.round == 2 and state.opener == 1 and state.phase == "pile"
    state.apply(None, "auto-pile")
    assert state.phase == "bid" and state.to_bid == 1 and state.max_bid == 9
    assert refused(state, 1, "pass") == "opener_must_bid"
    assert refused(state, 1, "bid-0") == "opener_must_bid"
    assert state.legal_actions(1) == [f"bid-{n}" for n in range(1, 10)]
    assert state.view(1)["min_bid"] == 1
    assert state.quiet_actions() == [QuietAction("bid", "bid-1")]
    state.apply(1, "bid-1")
    assert "pass" in state.legal_actions(2)


def test_raises_are_strictly_higher_and_passing_is_not_final() -> None:
    state = piled()
    state.apply(0, "bid-2")
    assert (error := refusal(state, 1, "bid-2")).code == "bid_too_low" and error.params == {"high_bid": 2}
    assert "pass" in state.legal_actions(1)
    assert state.quiet_actions() == [QuietAction("bid", "pass")]
    state.apply(1, "pass")
    state.apply(2, "bid-3")
    state.apply(0, "pass")
    events = state.apply(1, "bid-4")  # passed before, bids again
    assert kinds(events) == ["bid"] and state.phase == "bid"
    assert state.view(None)["bids"] == ["pass", 4, 3]
    state.apply(2, "pass")
    events = state.apply(0, "pass")
    assert kinds(events) == ["pass", "bid_won"]
    assert state.phase == "draw" and state.drawer == 1 and state.draws_left == 4 and state.draw_bid == 4


def test_a_bid_of_every_card_in_the_piles_ends_the_bidding_at_once() -> None:
    state = piled()
    events = state.apply(0, "bid-9")
    assert kinds(events) == ["bid", "bid_won"] and state.drawer == 0 and state.draws_left == 9


def test_bid_timer_opens_at_one_for_the_opener_and_passes_for_anyone_else() -> None:
    state = piled()
    events = state.apply(None, "bid-1")
    assert kinds(events) == ["timeout", "bid"] and events[0].seat == 0 and state.high_bid == 1
    events = state.apply(None, "pass")
    assert kinds(events) == ["timeout", "pass"] and events[0].seat == 1


def test_two_players_the_bidding_ends_when_the_other_passes() -> None:
    state = new_state(["French", "German"], [H0, H1], opener=1)
    build_piles(state, [H0[:3], H1[:3]])
    assert state.to_bid == 1
    state.apply(1, "bid-2")
    state.apply(0, "pass")
    assert state.phase == "draw" and state.drawer == 1


def test_the_last_winner_opens_the_next_round_or_the_next_spy_in_if_they_are_out() -> None:
    state = piled()
    bid_to(state, 1, 2)
    state.apply(1, "draw-0")
    state.apply(1, "draw-0")
    assert state.round == 2 and state.opener == 1 and state.to_bid is None and state.phase == "pile"
    # Seat 1 wins the bid, draws seat 0's trap, and is put out by a right free guess.
    state = new_state(IDS3, [["TR1", *H0[1:]], H1, H2], immunity=[True, False, True])
    to_draw(state, [["TR1", *H0[1:3]], H1[:3], H2[:3]], 1, 2)
    state.apply(1, "draw-0")
    state.apply(0, "guess-German")
    state.apply(0, "keep-own")
    assert state.round == 2 and state.opener == 2


# --- drawing ---------------------------------------------------------------------------------------


def test_the_winner_draws_exactly_the_bid_from_any_pile_files_go_face_up() -> None:
    state = piled()
    bid_to(state, 1, 3)
    assert state.legal_actions(1) == ["draw-0", "draw-1", "draw-2"]
    assert refused(state, 0, "draw-0") == "not_drawer"
    assert refused(state, 0, "nosteal") == "drawer_drawing"
    assert refused(state, 1, "draw-7") == "pile_format"
    events = state.apply(1, "draw-1")  # own pile allowed
    assert events[0].kind == "draw" and events[0].data["from"] == "own" and events[0].data["card"] == "FAM3"
    state.apply(1, "draw-0")
    assert state.view(None)["home"][1] == [
        {"card": "FAM3", "country": "American", "from": "own"},
        {"card": "FAM1", "country": "American", "from": "opponent"},
    ]
    assert state.view(None)["tallies"][1] == {"American": {"all": 2, "counting": 1}}
    assert state.draws_left == 1 and state.quiet_actions() == [QuietAction("draw", "auto-draw")]
    events = state.apply(None, "auto-draw")  # first pile clockwise from the drawer's left
    assert events[0].kind == "timeout" and events[1].data["pile"] == 2
    assert kinds(events)[-2:] == ["round_over", "round_start"]
    check_conservation(state)


def test_drawing_from_an_empty_pile_is_refused() -> None:
    state = new_state(IDS3, [H0, H1, ["FAM5"]])
    to_draw(state, [H0[:3], H1[:3], ["FAM5"]], 0, 3)
    state.apply(0, "draw-2")
    # The refusal says how things stand now: a public table may be a moment behind.
    error = refusal(state, 0, "draw-2")
    assert error.code == "pile_empty" and error.params == {"left": 6, "draws_left": 2}
    assert "draw-2" not in state.legal_actions(0)


# --- Evil Agent ------------------------------------------------------------------------------------


def agent_table(home1: list[list[str]] | None = None) -> object:
    state = new_state(
        IDS3, [["EA1", *H0[1:]], ["EA2", *H1[1:]], H2], home=[[], home1 or [], []], immunity=[True] * 3
    )
    to_draw(state, [["EA1", *H0[1:3]], ["EA2", *H1[1:3]], H2[:3]], 1, 3)
    return state


def test_an_evil_agent_from_another_pile_lets_its_owner_steal_any_file_from_the_drawer() -> None:
    state = agent_table([["FRU1", "opponent"], ["FGE1", "own"]])
    events = state.apply(1, "draw-0")
    assert kinds(events) == ["draw", "agent"] and events[1].data["effect"] == "steal_offer"
    prompt = state.view(2)["prompt"]
    assert prompt == {"seat": 0, "kind": "steal", "drawer": 1, "choices": ["FGE1", "FRU1"]}
    assert state.legal_actions(0) == ["steal-FGE1", "steal-FRU1", "nosteal"]
    assert refused(state, 1, "draw-1") == "answer_to_your_draw"
    assert refused(state, 0, "steal-FAM1") == "steal_not_file"
    assert state.quiet_actions() == [QuietAction("prompt", "nosteal")]
    events = state.apply(0, "steal-FGE1")  # even a File the drawer drew from their own pile
    assert kinds(events) == ["steal"]
    assert state.home[0] == [["FGE1", "stolen"]] and state.home[1] == [["FRU1", "opponent"]]
    assert state.prompt is None and state.legal_actions(1)


def test_an_evil_agent_from_your_own_pile_does_nothing_and_an_empty_home_has_nothing_to_steal() -> None:
    state = agent_table([["FRU1", "opponent"]])
    events = state.apply(1, "draw-1")
    assert events[1].data["effect"] == "own_pile" and state.prompt is None
    state = agent_table()
    events = state.apply(1, "draw-0")
    assert events[1].data["effect"] == "nothing_to_steal" and state.prompt is None


def test_steal_timer_steals_nothing() -> None:
    state = agent_table([["FRU1", "opponent"]])
    state.apply(1, "draw-0")
    events = state.apply(None, "nosteal")
    assert kinds(events) == ["timeout", "nosteal"] and state.home[1] == [["FRU1", "opponent"]]


# --- Trap Is Sprung: free guess and Immunity ---------------------------------------------------------


def trap_table(immunity: list[bool] | None = None, players: int = 3) -> object:
    ids = IDS3[:players] if players <= 3 else ["French", "German", "Russian", "Italian"]
    hands = [["TR1", *H0[1:]], ["TR2", *H1[1:]], H2, ["FAM7", "FAM8", "FAM9"]][:players]
    state = new_state(ids, hands, immunity=immunity or [True] * players)
    piles = [["TR1", *H0[1:3]], ["TR2", *H1[1:3]], H2[:3], ["FAM7", "FAM8", "FAM9"]][:players]
    to_draw(state, piles, 1, 3)
    return state


def test_a_trap_from_another_pile_gives_its_owner_a_free_guess_without_penalty() -> None:
    state = trap_table()
    events = state.apply(1, "draw-0")
    assert events[1].kind == "trap" and events[1].data["effect"] == "free_guess"
    assert state.view(None)["prompt"] == {"seat": 0, "kind": "guess", "drawer": 1}
    assert state.legal_actions(0) == [f"guess-{c}" for c in COUNTRIES] + ["noguess"]
    assert state.quiet_actions() == [QuietAction("prompt", "noguess")]
    state.apply(0, "guess-Italian")
    # The drawer holds Immunity, so they choose before answering, whether the guess is right or not.
    assert state.view(None)["prompt"] == {"seat": 1, "kind": "immunity", "guesser": 0, "guess": "Italian"}
    assert state.quiet_actions() == [QuietAction("prompt", "immunity")]
    events = state.apply(1, "noimmunity")
    assert kinds(events) == ["answer"] and events[0].data == {"country": "Italian", "right": False}
    assert state.active == [True, True, True] and state.view(None)["wrong_guesses"] == [
        {"seat": 1, "country": "Italian"}
    ]
    assert state.immunity[1] and state.drawer == 1 and state.draws_left == 2


def test_immunity_played_after_a_right_guess_saves_the_drawer_and_is_spent() -> None:
    state = trap_table()
    state.apply(1, "draw-0")
    state.apply(0, "guess-German")
    events = state.apply(1, "immunity")
    assert kinds(events) == ["immunity"] and "German" not in strings_in(events[0].to_json())
    assert state.active[1] and not state.immunity[1] and state.view(None)["immunity"] == [True, False, True]
    assert state.view(None)["wrong_guesses"] == []


def test_a_right_free_guess_unanswered_by_immunity_puts_the_drawer_out() -> None:
    state = trap_table()
    state.apply(1, "draw-0")
    state.apply(0, "guess-German")
    events = state.apply(1, "noimmunity")
    assert kinds(events) == ["answer", "eliminated"] and events[1].data == {"by": 0, "how": "free_guess"}
    assert not state.active[1] and state.view(None)["prompt"] == {"seat": 0, "kind": "keep", "eliminated": 1}
    assert state.view(0)["received_id"] == "German" and state.view(1)["received_id"] is None
    assert state.view(0)["learned"] == [{"seat": 1, "country": "German", "how": "received_id"}]


def test_a_drawer_without_immunity_answers_at_once() -> None:
    state = trap_table(immunity=[True, False, True])
    state.apply(1, "draw-0")
    events = state.apply(0, "guess-German")
    assert kinds(events) == ["guess", "answer", "eliminated"]
    state = trap_table(immunity=[True, False, True])
    state.apply(1, "draw-0")
    assert kinds(state.apply(0, "noguess")) == ["noguess"] and state.prompt is None


def test_the_immunity_timer_plays_the_card() -> None:
    state = trap_table()
    state.apply(1, "draw-0")
    state.apply(0, "guess-German")
    events = state.apply(None, "immunity")
    assert kinds(events) == ["timeout", "immunity"] and state.active[1] and not state.immunity[1]


# --- Trap Is Sprung from your own pile ----------------------------------------------------------------


def test_own_pile_trap_forces_a_guess_and_a_right_one_puts_the_target_out() -> None:
    state = trap_table()
    events = state.apply(1, "draw-1")
    assert events[1].data["effect"] == "own_pile"
    assert state.view(None)["prompt"] == {"seat": 1, "kind": "own_guess", "targets": [0, 2]}
    assert "noguess" not in state.legal_actions(1)
    assert (error := refusal(state, 1, "noguess")).code == "answer_prompt" and error.params == {
        "kind": "own_guess"
    }
    assert refused(state, 1, "guess-1-German") == "guess_target"
    events = state.apply(1, "guess-2-Russian")
    assert kinds(events) == ["own_guess", "eliminated"] and events[1].seat == 2 and events[1].data["by"] == 1
    assert state.view(1)["received_id"] == "Russian"
    state.apply(1, "keep-own")
    assert state.phase == "draw" and state.drawer == 1 and state.draws_left == 2  # the drawing goes on
    check_conservation(state)


def test_own_pile_trap_wrong_guess_puts_the_drawer_out_no_immunity_and_the_named_spy_gets_the_id() -> None:
    state = trap_table()
    state.apply(1, "draw-1")
    assert state.legal_actions(1) == [f"guess-{t}-{c}" for t in (0, 2) for c in COUNTRIES]
    events = state.apply(1, "guess-2-Italian")
    assert kinds(events) == ["own_guess", "eliminated"]
    assert events[1].seat == 1 and events[1].data == {"by": 2, "how": "own_trap_wrong"}
    assert state.immunity[1], "Immunity is never offered against your own trap"
    assert state.view(None)["prompt"] == {"seat": 2, "kind": "keep", "eliminated": 1}
    assert state.view(2)["learned"] == [{"seat": 1, "country": "German", "how": "received_id"}]
    events = state.apply(2, "keep-own")
    assert kinds(events)[:2] == ["identity_choice", "round_over"]  # the drawer is out: the round ends


def test_forced_guess_timer_guesses_from_the_seed() -> None:
    state = trap_table()
    state.apply(1, "draw-1")
    assert state.quiet_actions() == [QuietAction("prompt", "auto-guess")]
    events = state.apply(None, "auto-guess")
    assert kinds(events)[:2] == ["timeout", "own_guess"]
    assert events[1].data["country"] != "German" and events[1].data["target"] in (0, 2)


# --- identity cards -----------------------------------------------------------------------------------


def test_keep_new_switches_identity_and_discards_the_old_one_unseen() -> None:
    state = trap_table()
    state.apply(1, "draw-1")
    state.apply(1, "guess-2-Russian")
    before = list(state.id_discard)
    events = state.apply(1, "keep-new")
    assert kinds(events) == ["identity_choice"] and events[0].data == {}
    assert not strings_in(events[0].to_json()) & {"Russian", "German"}
    assert state.identity[1] == "Russian" and state.id_discard == [*before, "German"]
    assert state.view(1)["identity"] == "Russian" and state.view(1)["received_id"] is None
    check_conservation(state)


def test_a_new_identity_with_four_counting_files_wins_at_once() -> None:
    home1 = [[f"FRU{n}", "opponent"] for n in range(1, 5)]
    state = new_state(IDS3, [H0, ["TR2", *H1[1:]], H2], home=[[], home1, []])
    to_draw(state, [H0[:3], ["TR2", *H1[1:3]], H2[:3]], 1, 3)
    state.apply(1, "draw-1")
    state.apply(1, "guess-2-Russian")
    events = state.apply(1, "keep-new")
    assert kinds(events)[:2] == ["identity_choice", "win"] and state.winner == 1
    assert state.end_reason == "files"


def test_keep_timer_keeps_your_own_and_choices_clear_public_wrong_guesses() -> None:
    state = trap_table(players=3)
    state.wrong_guesses = [{"seat": 1, "country": "Spanish"}]
    state.apply(1, "draw-1")
    state.apply(1, "guess-2-Russian")
    assert state.quiet_actions() == [QuietAction("prompt", "keep-own")]
    events = state.apply(None, "keep-own")
    assert kinds(events)[:2] == ["timeout", "identity_choice"] and state.identity[1] == "German"
    assert state.wrong_guesses == []


# --- spies put out ----------------------------------------------------------------------------------


def test_a_pile_whose_owner_is_out_stays_drawable_but_its_agents_and_traps_do_nothing() -> None:
    hand2 = ["EA3", "TR3", "FAM5", *H2[2:5]]
    state = new_state(IDS3, [H0, ["TR2", *H1[1:]], hand2], home=[[], [["FIT9", "opponent"]], []])
    to_draw(state, [H0[:3], ["TR2", *H1[1:3]], hand2[:3]], 1, 5)
    state.apply(1, "draw-1")
    state.apply(1, "guess-2-Russian")
    state.apply(1, "keep-own")
    assert not state.active[2] and state.piles[2] == hand2[:3]
    events = state.apply(1, "draw-2")
    assert events[1].kind == "agent" and events[1].data["effect"] == "inert" and state.prompt is None
    events = state.apply(1, "draw-2")
    assert events[1].kind == "trap" and events[1].data["effect"] == "inert" and state.prompt is None
    events = state.apply(1, "draw-2")
    assert events[0].data["from"] == "opponent"  # a File from a spy who is out still counts
    assert ["FAM5", "opponent"] in state.home[1]


def test_a_spy_put_out_loses_hand_and_files_to_the_used_pile_and_is_inert() -> None:
    state = new_state(IDS3, [H0, ["TR2", *H1[1:]], H2], home=[[], [], [["FIT9", "opponent"]]])
    to_draw(state, [H0[:3], ["TR2", *H1[1:3]], H2[:3]], 1, 3)
    state.apply(1, "draw-1")
    state.apply(1, "guess-2-Russian")
    assert state.hands[2] == [] and state.home[2] == [] and "FIT9" in state.used
    assert set(H2[3:]) <= set(state.used) and state.piles[2] == H2[:3]
    assert state.legal_actions(2) == [] and refused(state, 2, "keep-own") == "out_of_game"
    state.apply(1, "keep-own")
    state.apply(1, "draw-0")
    state.apply(1, "draw-0")
    # The round ends: the pile of the spy who is out goes to the used pile, nothing is dealt to them.
    assert state.round == 2 and state.hands[2] == [] and set(H2[:3]) <= set(state.used)
    assert state.pile_done[2] and state.view(None)["waiting"] == [0, 1]
    check_conservation(state)


def test_the_drawer_put_out_mid_draw_stops_the_drawing_and_ends_the_round() -> None:
    state = trap_table(immunity=[True, False, True])
    state.apply(1, "draw-0")  # seat 0's trap; 2 draws left
    events = state.apply(0, "guess-German")
    assert kinds(events)[-1] == "eliminated"
    events = state.apply(0, "keep-own")
    assert kinds(events)[:3] == ["identity_choice", "round_over", "round_start"]
    assert state.round == 2 and state.piles == [[], [], []]
    assert (
        set(H0[1:3]) <= set(state.hands[0])
        and len(state.hands[0]) == 6
        and len(state.hands[2]) == 6
        and state.hands[1] == []
    )


def test_last_spy_standing_wins_and_identities_are_revealed() -> None:
    state = new_state(["French", "German"], [["TR1", *H0[1:]], H1], immunity=[True, False])
    to_draw(state, [["TR1", *H0[1:3]], H1[:3]], 1, 2)
    state.apply(1, "draw-0")
    assert "identities" not in state.view(None)
    events = state.apply(0, "guess-German")
    assert kinds(events) == ["guess", "answer", "eliminated", "win", "game_over"]
    assert events[3].data == {"how": "last_spy"} and state.prompt is None
    assert state.is_over() and state.winner == 0 and state.end_reason == "last_spy"
    result = state.result()
    assert result is not None and result.winners == [0] and [p.place for p in result.placements] == [1, 2]
    for seat in (None, 0, 1):
        assert state.view(seat)["identities"] == ["French", "German"]
    assert events[-1].data["identities"] == ["French", "German"]
    assert state.legal_actions(0) == [] and state.quiet_actions() == []
    assert refused(state, 0, "draw-0") == "game_over"
    check_conservation(state)


# --- end of round ------------------------------------------------------------------------------------


def test_unused_pile_cards_go_back_to_hands_and_everyone_refills_to_six() -> None:
    state = piled()
    deck_top = state.deck[:3]
    bid_to(state, 1, 2)
    state.apply(1, "draw-0")
    events = state.apply(1, "draw-2")
    assert kinds(events)[-2:] == ["round_over", "round_start"]
    # Seat 0 and seat 2 get their two unused pile cards back; seat 1 gets its whole pile back.
    assert set(H0[1:3]) <= set(state.hands[0]) and set(H2[1:3]) <= set(state.hands[2])
    assert set(H1[:3]) <= set(state.hands[1]) and len(state.hands[1]) == 6
    assert [len(h) for h in state.hands] == [6, 6, 6]
    # Refills go clockwise from the next opener (seat 1, the bid winner): seat 2 then seat 0.
    assert deck_top[0] in state.hands[2] and deck_top[1] in state.hands[0]
    check_conservation(state)


def test_an_empty_deck_is_rebuilt_from_the_used_cards() -> None:
    hands = [["FAM1", "FIT1", "FSP1", "EA1", "EA2", "EA3"], ["FAM2", "FIT2", "FSP2", "EA4", "EA5", "EA6"]]
    state = new_state(["French", "German"], hands, deck=["TR1"], rest="used")
    used_before = len(state.used)
    to_draw(state, [hands[0][:3], hands[1][:3]], 0, 3)
    events = [e for _ in range(3) for e in state.apply(0, "draw-0")]
    assert [e.data for e in events if e.kind == "reshuffle"] == [{"cards": used_before}]
    assert state.round == 2
    assert [len(h) for h in state.hands] == [6, 6]
    assert state.reshuffles == 1 and state.used == []
    assert len(state.deck) == used_before - 2  # the deck's one card plus two reshuffled went to seat 0
    check_conservation(state)


def test_reshuffle_and_short_hands_are_announced() -> None:
    # Six spies; every File not in a hand lies in a home area (drawn from their own piles, so no
    # win), and the deck and used pile are empty: after the round, hands stay short.
    ids = list(COUNTRIES)
    specials = [f"EA{n}" for n in range(1, 14)] + [f"TR{n}" for n in range(1, 14)]
    hand_files = ["FAM1", "FFR1", "FGE1", "FIT1", "FRU1", "FSP1", "FAM2", "FFR2", "FGE2", "FIT2"]
    cards = [hand_files[0], *specials, *hand_files[1:]]
    hands = [cards[i * 6 : (i + 1) * 6] for i in range(6)]
    others = [c for c in all_cards() if c not in cards]
    home: list[list[list[str]]] = [[] for _ in range(6)]
    for index, card in enumerate(others):
        home[index % 6].append([card, "own"])
    state = new_state(ids, hands, deck=[], home=home, rest="used")
    assert state.deck == [] and state.used == []
    build_piles(state, [h[:3] for h in hands])
    bid_to(state, 0, 1)
    assert state.piles[0][0] == "FAM1"
    events = state.apply(0, "draw-0")
    short = [e for e in events if e.kind == "short_hands"]
    assert short and short[0].data == {"seats": [0]}
    assert [len(h) for h in state.hands] == [5, 6, 6, 6, 6, 6]
    check_conservation(state)


# --- winning -----------------------------------------------------------------------------------------


def files_table(home0: list[list[str]], pile1: list[str], identities: list[str] | None = None) -> object:
    ids = identities or ["French", "German", "Russian"]
    hand1 = [*pile1, *[c for c in H1 if c not in pile1]][:6]
    state = new_state(ids, [H0, hand1, H2], home=[home0, [], []])
    to_draw(state, [H0[:3], pile1, H2[:3]], 0, 3)
    return state


def test_four_files_of_your_identity_from_opponents_piles_win_at_once() -> None:
    home0 = [["FFR1", "opponent"], ["FFR2", "stolen"], ["FFR3", "opponent"], ["FGE5", "opponent"]]
    state = files_table(home0, ["FFR4", "FAM3", "FAM4"])
    events = state.apply(0, "draw-1")
    assert kinds(events) == ["draw", "win", "game_over"] and events[1].data == {"how": "files"}
    assert state.winner == 0 and state.draws_left == 2
    result = state.result()
    assert result is not None and result.winners == [0] and result.placements[0].points == 4
    assert [p.place for p in result.placements] == [1, 2, 2]


def test_a_stolen_file_counts_and_the_thief_can_win_on_the_steal() -> None:
    home0 = [["FRU1", "opponent"]]
    ids = ["French", "German", "Russian"]
    hand2 = ["EA1", "FAM5", "FAM6", *H2[3:]]
    state = new_state(ids, [H0, H1, hand2], home=[home0, [], [[f"FRU{n}", "opponent"] for n in (2, 3, 4)]])
    to_draw(state, [H0[:3], H1[:3], hand2[:3]], 0, 3)
    state.apply(0, "draw-2")
    events = state.apply(2, "steal-FRU1")
    assert kinds(events) == ["steal", "win", "game_over"] and state.winner == 2


def test_files_of_another_country_or_from_your_own_pile_do_not_win() -> None:
    home0 = [["FGE1", "opponent"], ["FGE2", "opponent"], ["FGE3", "opponent"]]
    state = files_table(home0, ["FGE4", "FAM3", "FAM4"])
    state.apply(0, "draw-1")
    assert not state.is_over() and state.view(None)["tallies"][0]["German"]["counting"] == 4


# --- the challenge -----------------------------------------------------------------------------------


def challenge_table(home0: list[list[str]], ids: list[str] | None = None) -> object:
    ids = ids or ["French", "German", "Russian", "Italian"]
    hand0 = ["FFR4", "FAM1", "FAM2", *H0[3:]]
    hands = [hand0, H1, H2, ["FAM7", "FAM8", "FAM9", "FAM10"]]
    players = len(ids)
    state = new_state(ids, hands[:players], home=[home0, [], [], []][:players])
    to_draw(state, [hand0[:3], H1[:3], H2[:3], ["FAM7", "FAM8", "FAM9"]][:players], 0, 3)
    return state


THREE_FRENCH = [["FFR1", "opponent"], ["FFR2", "own"], ["FFR3", "stolen"]]


def test_a_fourth_file_from_your_own_pile_opens_a_challenge_clockwise_from_your_left() -> None:
    state = challenge_table(THREE_FRENCH)
    events = state.apply(0, "draw-0")
    assert kinds(events) == ["draw", "challenge_start"] and events[1].data == {"country": "French"}
    assert state.view(None)["prompt"] == {
        "seat": 1, "kind": "challenge", "drawer": 0, "country": "French", "still_to_guess": [2, 3],
    }  # fmt: skip
    assert state.quiet_actions() == [QuietAction("prompt", "nochallenge")]
    assert refused(state, 0, "draw-0") == "answer_to_your_draw"
    state.apply(1, "nochallenge")
    assert state.prompt is not None and state.prompt["seat"] == 2
    state.apply(2, "nochallenge")
    events = state.apply(3, "nochallenge")
    # Nobody was right and seat 0 is French with 4 French Files (any source): seat 0 wins.
    assert kinds(events) == ["nochallenge", "win", "game_over"] and events[1].data == {"how": "challenge"}
    assert state.winner == 0 and state.end_reason == "challenge"


def test_a_right_challenger_puts_the_drawer_out_and_the_round_ends() -> None:
    state = challenge_table(THREE_FRENCH)
    state.apply(0, "draw-0")
    state.apply(1, "nochallenge")
    events = state.apply(2, "challenge-French")
    assert kinds(events) == ["challenge", "eliminated"] and events[1].data == {
        "by": 2,
        "how": "challenge_right",
    }
    assert state.immunity[0], "no Immunity against a challenge"
    assert state.prompt == {"seat": 2, "kind": "keep", "eliminated": 0}
    events = state.apply(2, "keep-own")
    assert "round_over" in kinds(events) and state.challenge is None and state.round == 2


def test_wrong_challengers_are_out_and_the_drawer_may_swap_before_the_next_guess() -> None:
    state = challenge_table(THREE_FRENCH)
    state.apply(0, "draw-0")
    events = state.apply(1, "challenge-Spanish")
    assert kinds(events) == ["challenge", "eliminated"] and events[1].seat == 1
    assert events[1].data == {"by": 0, "how": "challenge_wrong"}
    assert state.view(None)["prompt"] == {"seat": 0, "kind": "swap", "eliminated": 1}
    assert state.view(0)["received_id"] == "German" and state.legal_actions(0) == ["swap", "noswap"]
    assert state.quiet_actions() == [QuietAction("prompt", "noswap")]
    state.apply(0, "swap")
    assert state.identity[0] == "German" and "French" in state.id_discard
    # The next challenger names French, which seat 0 no longer is: wrong, and out.
    events = state.apply(2, "challenge-French")
    assert events[0].data["right"] is False and not state.active[2]
    state.apply(0, "noswap")
    state.apply(3, "nochallenge")
    # Nobody was right, but seat 0 is German now and holds no German File: the drawing goes on.
    assert not state.is_over() and state.phase == "draw" and state.draws_left == 2
    assert state.challenge is None and state.prompt is None
    check_conservation(state)


def test_a_challenge_can_end_with_the_last_spy_standing() -> None:
    state = challenge_table(THREE_FRENCH, ids=["French", "German", "Russian"])
    state.apply(0, "draw-0")
    state.apply(1, "challenge-Spanish")
    state.apply(0, "noswap")
    events = state.apply(2, "challenge-German")
    assert kinds(events)[-2:] == ["win", "game_over"] and state.end_reason == "last_spy"


def test_ruling_3_exactly_the_fourth_file_from_your_own_pile_opens_the_challenge() -> None:
    """RULINGS §3: the own-pile File that is exactly the 4th of its country opens a challenge; the
    game asks the others in turn."""
    state = challenge_table(THREE_FRENCH)
    assert state.tally(0, "French", counting_only=False) == 3
    events = state.apply(0, "draw-0")
    assert state.tally(0, "French", counting_only=False) == 4
    assert kinds(events) == ["draw", "challenge_start"]
    assert events[1].seat == 0 and events[1].data == {"country": "French"}


def test_ruling_3_a_fifth_file_from_your_own_pile_opens_no_challenge() -> None:
    """RULINGS §3: a 5th (or later) File of a country from your own pile is just a File: no
    challenge, the drawing goes on."""
    four = [*THREE_FRENCH, ["FFR5", "opponent"]]
    state = challenge_table(four)
    events = state.apply(0, "draw-0")
    assert state.tally(0, "French", counting_only=False) == 5
    assert kinds(events) == ["draw"]
    assert state.challenge is None and state.prompt is None and state.draws_left == 2
    assert state.legal_actions(0) and all(a.startswith("draw-") for a in state.legal_actions(0))


def test_the_challenge_order_starts_left_of_the_drawer() -> None:
    ids = ["French", "German", "Russian", "Italian"]
    hand2 = ["FRU4", "FAM5", "FAM6", *H2[3:]]
    home2 = [["FRU1", "opponent"], ["FRU2", "own"], ["FRU3", "own"]]
    state = new_state(ids, [H0, H1, hand2, ["FAM7", "FAM8", "FAM9"]], home=[[], [], home2, []])
    to_draw(state, [H0[:3], H1[:3], hand2[:3], ["FAM7", "FAM8", "FAM9"]], 2, 2)
    state.apply(2, "draw-2")
    assert state.prompt is not None and state.prompt["seat"] == 3 and state.prompt["still_to_guess"] == [0, 1]


# --- the round limit, results, options ------------------------------------------------------------------


def test_the_round_limit_stops_the_game_and_ranks_the_spies_still_in() -> None:
    state = GAME.new_game(3, SpyTrapOptions(round_limit=5), 3)
    steps = 0
    while not state.is_over() and steps < 2000:
        default = state.legal_actions(None)
        state.apply(None, default[0])
        steps += 1
        check_conservation(state)
    assert state.is_over()
    result = state.result()
    assert result is not None and result.winners
    if state.end_reason == "round_limit":
        points = state.final_points()
        best = max(points[s] for s in range(3) if state.active[s])
        assert {s for s in range(3) if state.active[s] and points[s] == best} == set(result.winners)


def places(state: object) -> dict[int, int]:
    result = state.result()  # type: ignore[attr-defined]
    assert result is not None
    return {p.seat: p.place for p in result.placements}


def test_losers_still_in_are_ranked_by_their_counting_files() -> None:
    """Every loser used to be ranked 2; now the spies still in rank by counting Files of their
    identity (a File from their own pile does not count), equal counts share."""
    ids = ["French", "German", "Russian", "Italian"]
    home = [
        [["FFR1", "opponent"], ["FFR2", "opponent"], ["FFR3", "stolen"]],
        [["FGE1", "own"], ["FGE2", "own"]],  # two German Files, none counting
        [["FRU1", "opponent"], ["FRU2", "stolen"]],
        [["FIT9", "opponent"]],
    ]
    hand1 = ["FFR4", "FSP7", "FSP8", "FSP9"]
    state = new_state(ids, [H0, hand1, H2, ["FAM7", "FAM8", "FAM9"]], home=home)
    to_draw(state, [H0[:3], hand1[:3], H2[:3], ["FAM7", "FAM8", "FAM9"]], 0, 3)
    state.apply(0, "draw-1")
    assert state.winner == 0 and state.end_reason == "files"
    assert places(state) == {0: 1, 2: 2, 3: 3, 1: 4}
    assert [p.points for p in sorted(state.result().placements, key=lambda p: p.seat)] == [4, 0, 2, 1]


def test_spies_put_out_rank_below_those_still_in_the_later_out_ahead() -> None:
    state = challenge_table(THREE_FRENCH)
    state.apply(0, "draw-0")
    state.apply(1, "challenge-Spanish")  # wrong: seat 1 is out first
    state.apply(0, "noswap")
    state.apply(2, "challenge-Spanish")  # wrong: seat 2 is out second
    state.apply(0, "noswap")
    state.apply(3, "nochallenge")
    assert state.winner == 0 and state.out_order == [1, 2]
    assert places(state) == {0: 1, 3: 2, 2: 3, 1: 4}


def test_options_and_help_texts() -> None:
    assert GAME.parse_options({}) == SpyTrapOptions()
    with pytest.raises(ValueError, match="round limit"):
        GAME.parse_options({"round_limit": 1})
    with pytest.raises(ValueError, match="Unknown Spy Trap option"):
        GAME.parse_options({"speed": 3})
    rulings = GAME.house_rulings(SpyTrapOptions(round_limit=12))
    assert any("12 rounds" in r for r in rulings) and len(rulings) >= 15
    assert "# Spy Trap" in GAME.rules_text()
    assert GAME.title == "Spy Trap" and GAME.key == "spytrap"
    with pytest.raises(ValueError, match="2 to 6 players"):
        GAME.new_game(7, None, 1)


def test_spytrap_refuses_one_player_and_seven() -> None:
    """RULINGS §3: Spy Trap is for 2–6 players: one too few and one too many are refused, both ends
    of the range are dealt. Seen to fail with SpyTrap.min_players = 1, with max_players = 7, and
    with new_game's bound loosened by one at either end; loosened at the low end (1 player dealt)
    it fails no other test."""
    assert (GAME.min_players, GAME.max_players) == (2, 6)
    for players in (1, 7):
        with pytest.raises(ValueError, match=f"2 to 6 players, not {players}"):
            GAME.new_game(players, SpyTrapOptions(), 1)
    for players in (2, 6):
        state = GAME.new_game(players, SpyTrapOptions(), 1)
        assert state.players == players and len(state.identity) == players and state.phase == "pile"


def test_a_bad_deal_is_refused_with_the_problem() -> None:
    from spytrap_helpers import make_deal

    good = make_deal(IDS3, [H0, H1, H2])
    GAME.new_game(3, None, 1, good)
    with pytest.raises(ValueError, match="share an identity"):
        GAME.new_game(3, None, 1, dict(good, identities=["French", "French", "German"]))
    with pytest.raises(ValueError, match="not a country"):
        GAME.new_game(3, None, 1, dict(good, identities=["French", "Dutch", "German"]))
    with pytest.raises(ValueError, match="missing FAM1"):
        GAME.new_game(3, None, 1, dict(good, hands=[H0[1:], H1, H2]))
    with pytest.raises(ValueError, match="dealt twice"):
        GAME.new_game(3, None, 1, dict(good, deck=[*good["deck"], "FAM1"]))
    with pytest.raises(ValueError, match="needs 'identities'"):
        GAME.new_game(3, None, 1, {"hands": []})
    with pytest.raises(ValueError, match="Only File cards"):
        GAME.new_game(3, None, 1, make_deal(IDS3, [H0, H1, H2], home=[[["EA1", "own"]], [], []]))


def test_illegal_actions_read_in_the_second_person_and_change_nothing() -> None:
    """Refusals are data (a code and its parameters, never a sentence); as the cog words them they
    read in the second person and name no seat."""
    state = piled()
    for seat, action in [
        (1, "bid-1"),
        (0, "draw-0"),
        (0, "steal-FAM1"),
        (0, "zzz"),
        (5, "pass"),
        (0, "auto-draw"),
    ]:
        error = refusal(state, seat, action)
        assert " " not in error.code and not strings_in(error.params) - {"FAM1"}
        reason = spytrap_refusal(error)
        assert reason.endswith(".") and "seat" not in reason.lower().replace("that seat", "")
    assert refused(state, 5, "pass") == "no_such_seat"
    assert spytrap_refusal(refusal(state, 5, "pass")) == "That seat is not at this table."
