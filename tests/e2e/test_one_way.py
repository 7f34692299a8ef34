"""Issue 33: one way to do one thing, and one line for one thing that happened.

Spy Trap's timeout line says what the referee did for a seat ("carol ran out of time and
passes."): the engine's own "pass" event after it is not a second line, which read as two passes.
(The bids in one place, the bidder's panel, are in test_spytrap_game.py.) A finished Zip Zap table
says its result once and offers no Zap; Trap numbers its moves with the count its results give."""

from __future__ import annotations

import json
import re

import pytest

from cogs.spytrap import SpyTrapUI
from cogs.table import latest
from cogs.table.model import SeatInfo, Table
from rules.base import Event
from rules.spytrap import SpyTrap, SpyTrapState
from tests.e2e.golden.render import CASES, recorded_actions, render_case
from tests.e2e.test_trap_keyboard import private_lines, typed
from tests.e2e.trap_driver import open_table

GAME = SpyTrap()
NAMES = ["alice", "bob", "carol"]


def make_table(state: SpyTrapState) -> Table:
    seats = [SeatInfo(s, 1000 + s, NAMES[s]) for s in range(state.players)]
    return Table(
        id=1, guild_id=1, channel_id=1, game=GAME, host_id=1000,
        settings={"seats": state.players, "rules": {}}, speed="relaxed", seed=0,
        status="playing", seats=seats, state=state,
    )  # fmt: skip


def run_out_of_time(state: SpyTrapState, action: str) -> list[Event]:
    """Let every timer run out until one of them does ``action`` for a seat; its events."""
    for _ in range(400):
        quiet = state.quiet_actions()
        assert quiet and not state.is_over(), "no such timeout in this game"
        events = state.apply(None, quiet[0].action)
        if any(e.kind == "timeout" and e.data.get("action") == action for e in events):
            return events
    raise AssertionError("no such timeout in this game")


def test_a_bid_timeout_says_once_that_the_seat_passes():
    """Fails on main: the Latest lines read "carol ran out of time and passes." and then
    "carol passes."."""
    state = GAME.new_game(3, None, 3)
    events = run_out_of_time(state, "pass")
    seat = next(e.seat for e in events if e.kind == "timeout")
    assert [e.kind for e in events if e.seat == seat] == ["timeout", "pass"]  # the engine's data
    table = make_table(state)
    table.log_events(events)
    ui = SpyTrapUI()
    lines = [latest.line(table, entry, ui.event_line) for entry in table.log]
    name = NAMES[seat]
    assert f"**{name}** ran out of time and passes." in lines
    assert f"**{name}** passes." not in lines, lines


def test_an_opening_timeout_says_once_that_the_referee_bids():
    """The opener out of time: "the referee opens the bidding at 1 for them", not also "bids 1"."""
    state = GAME.new_game(3, None, 3)
    events = run_out_of_time(state, "bid-1")
    table = make_table(state)
    table.log_events(events)
    ui = SpyTrapUI()
    lines = [latest.line(table, entry, ui.event_line) for entry in table.log]
    assert any("opens the bidding at 1 for them" in line for line in lines), lines
    assert not any(line.endswith(" bids 1.") for line in lines), lines


def rendered(case_id: str, surface: str) -> list[str]:
    """Every ``surface`` payload (as JSON text) of a golden case's whole game, drawn now."""
    case = next(c for c in CASES if c.id == case_id)
    actions = recorded_actions(case)
    assert actions
    return [
        json.dumps(r["data"], ensure_ascii=False)
        for r in render_case(case, actions)
        if r["surface"] == surface
    ]


def test_a_finished_zip_zap_table_says_its_result_once_and_offers_no_zap():
    """Fails on main: the last table read "The game is over. alice wins…" in its text and again
    as its last Latest line, and "bob — 5 cards · 23 points · ⚡ Zap ready" after the game."""
    last = rendered("zipzap-2p-cards", "table")[-1]
    assert "game over" in last
    assert last.count("The game is over.") == 1, last
    assert "Zap ready" not in last
    assert "went out in the final round" in last


def test_trap_results_number_the_moves_with_the_count_they_give():
    """Fails on main: "Main play: 175 moves" above "The last moves: … 83. e4>d4 … 88. c1>c2"
    (two moves to a number). Here the last number is the count of moves."""
    finals = [text for text in rendered("trap-5-basic", "post") if "Main play:" in text]
    assert finals, "the results post"
    final = finals[-1]
    count = int(re.search(r"Main play: (\d+) move", final).group(1))
    numbers = [int(n) for n in re.findall(r"(?<![\w>])(\d+)\. [a-f]\d", final)]
    assert numbers and numbers[-1] == count, (count, numbers[-3:])


@pytest.mark.simcord(settle_timeout=30)
async def test_a_typo_typed_at_trap_replaces_the_last_line_too(simcord_env, simcord_bot):
    """The README: a typed move is "answered with one short line … that replaces your last one".
    Fails on main: a typo ("`zz` isn't a Trap move…") was a separate answer that stayed beside the
    move's line, and the next move's line stayed beside it."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True)
    alice, bob = t["actors"]
    channel = t["channel"]
    await alice.click(t["lobby"], label="Start")
    await typed(alice, channel, "c3")
    typo = await typed(alice, channel, "zz")
    await env.advance_time(1)
    assert "isn't a Trap move" in typo.response.content
    assert [m.content for m in private_lines(channel, alice)] == [typo.response.content]
    await typed(bob, channel, "d4")
    last = await typed(alice, channel, "a1")
    await env.advance_time(1)
    assert [m.content for m in private_lines(channel, alice)] == [last.response.content]
    assert not env.errors
