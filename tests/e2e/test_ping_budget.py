"""Issue 33, item 1: one ping per turn at most, over whole self-played games with a slow player.

A person who is slow gets one ping when their turn comes after someone else's move; one whose
time runs out twice in a row is away ("💤 away" on the table) and is not pinged again until they
act. The Trap ping wall (14 pings in one game for an absent player) must not come back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.simhelpers import message_text
from tests.e2e.trap_driver import Person, is_over, medium_chooser, open_table


def pings_to(env: Any, channel: Any, user_id: int) -> int:
    """Messages posted in the table's channel that may notify ``user_id``."""
    count = 0
    for r in env.http_requests:
        if r.method != "POST" or r.path != f"/channels/{channel.id}/messages" or r.json is None:
            continue
        if str(user_id) in str((r.json.get("allowed_mentions") or {}).get("users", [])):
            count += 1
    return count


def turns_of(bot: Any, seat: int) -> list[int]:
    """The number of times the turn passed to ``seat`` after someone else's move (a "round" of
    Trap: each deserves at most one ping)."""
    count = [0]

    def hook(table: Any, events: list[Any]) -> None:
        if not events or table.status != "playing":
            return
        actors = [e.seat for e in events if e.seat is not None]
        if table.state.view(None)["to_move"] == seat and (not actors or actors[-1] != seat):
            count[0] += 1

    bot.referee.on_change.append(hook)
    return count


@pytest.mark.simcord(settle_timeout=30)
async def test_a_slow_then_absent_trap_player_is_pinged_once_a_turn_then_not_at_all(simcord_env, simcord_bot):
    """Alice plays Trap against the computer on the relaxed clock (90 s a move): for her first
    turns she answers each after 65 s (a slow player: one ping per turn), then she lets her time
    run out for eight turns (the referee moves for her), then she comes back and plays at once.

    Pinged at most once per turn; after two timeouts in a row she is away: the table says "💤 away"
    and no ping comes until she acts again; the channel keeps one turn line, each pinging one
    replacing the one before. Fails on main before issue 33: every one of her away turns posted a
    new "@alice, your turn at Trap…" (the ping wall), and nothing said "away"."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 11
    simcord_bot.referee.computer_speed = 0.5
    turns = turns_of(simcord_bot, 0)
    t = await open_table(env, cpu="medium", quick_setup=True, speed="relaxed")
    alice, channel, lobby = t["host"], t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    person = Person(alice, lobby, simcord_bot, seat=0)
    choose = medium_chooser(11)
    table = simcord_bot.referee.tables[1]
    waited: dict[int, float] = {}  # her turn (by the handover count) -> seconds she has let pass
    pings_by_turn: dict[int, int] = {}
    seen_away = False
    steps = 0
    while not is_over(channel):
        steps += 1
        assert steps < 4000, "the game did not finish"
        turn = turns[0]
        pings_by_turn[turn] = pings_to(env, channel, alice.id)
        mine = table.status == "playing" and bool(table.state.legal_actions(0))
        if not mine:
            await env.advance_time(1)
            continue
        if 3 <= turn < 11:  # away: she does not answer
            await env.advance_time(10)
            if "💤 away" in message_text(channel.history()[0]):
                seen_away = True
                assert "alice" in message_text(channel.history()[0]).split("💤 away")[1]
            continue
        if turn < 3 and waited.get(turn, 0.0) < 65:  # slow: she looks after a minute
            waited[turn] = waited.get(turn, 0.0) + 13
            await env.advance_time(13)
            continue
        person.panel = None  # she opens her panel afresh when she comes back to the table
        await person.step(choose)
        if turn == 11:
            await env.advance_time(3)  # the table's coalesced edit
            assert "💤 away" not in message_text(channel.history()[0])  # she acted: not away now
    last_turn = turns[0]
    # Per turn (from one handover to the next): at most one ping.
    previous = 0
    per_turn = []
    for turn in range(1, last_turn + 1):
        now = pings_by_turn.get(turn, previous)
        per_turn.append(now - previous)
        previous = now
    assert max(per_turn) <= 1, per_turn
    # Her slow first turn is pinged (the turn after it came right after her move: she is at the
    # table); of the away turns 3-10 only those before her second timeout in a row (turn 4).
    assert per_turn[0] == 1, per_turn
    assert sum(per_turn[2:4]) >= 1 and sum(per_turn[4:10]) == 0, per_turn
    assert seen_away
    # Back, and playing at once: she is active, so no ping is needed either.
    assert pings_to(env, channel, alice.id) <= 5, per_turn
    assert last_turn > 12
    # One turn line in the channel, not a wall of them: a pinging line replaces the one before.
    turn_lines = [m for m in channel.history() if "your turn at Trap" in (m.content or "")]
    assert len(turn_lines) <= 1, [m.content for m in turn_lines]
    assert not env.errors
