"""Issue 33, item 1, in GiftTRAP: at most one ping per person per round over a whole game with a
slow player, and none for a player away (the referee filled in their choices two rounds running)
until they act again."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.gifttrap_driver import open_lobby
from tests.e2e.test_ping_budget import pings_to


def has_something_to_do(table: Any, seat: int) -> bool:
    view = table.state.view(seat)
    if view["phase"] == "pack":
        return view["dealer"] == seat
    return view["phase"] == "choosing" and not view["my"]["ready"]


@pytest.mark.simcord(settle_timeout=30)
async def test_a_slow_gifttrap_player_gets_one_ping_a_round_and_an_absent_one_none(simcord_env, simcord_bot):
    """Alice plays each round after 70 s (slow: not at the table when a round is dealt, unless she
    played less than a minute before); bob never
    plays (the referee fills in his choices). Per round: at most one ping each; bob, away after
    two rounds filled in, gets none after that.

    Fails on main before issue 33: the dealer got "you deal round N" and then "the gifts for round
    N are on the table" (two pings in a round), and bob was pinged every round."""
    env = simcord_env
    t = await open_lobby(
        env, simcord_bot, seed=3, track_length=14, speed="relaxed", cpus=("casual", "casual")
    )
    table, channel = t["table"], t["channel"]
    alice, bob = t["people"][0], t["people"][1]
    per_round: dict[tuple[int, int], int] = {}  # (round, seat) -> pings
    seen = {0: 0, 1: 0}
    waited = 0.0
    steps = 0
    while table.status == "playing":
        steps += 1
        assert steps < 3000, "the game did not finish"
        if has_something_to_do(table, 0) and waited >= 70:
            while table.status == "playing" and has_something_to_do(table, 0):
                await alice.step(table)
            waited = 0.0
        else:
            await env.advance_time(5)
            waited = waited + 5 if has_something_to_do(table, 0) else 0.0
        if table.status != "playing":
            break
        round_now = table.state.view(None)["round"]
        for seat, person in ((0, alice), (1, bob)):
            now = pings_to(env, channel, person.actor.id)
            if now > seen[seat]:
                key = (round_now, seat)
                per_round[key] = per_round.get(key, 0) + now - seen[seat]
                seen[seat] = now
    rounds = table.state.view(None)["round"]
    assert rounds >= 4, (rounds, per_round)
    assert max(per_round.values()) <= 1, per_round
    assert sum(1 for (_r, seat) in per_round if seat == 0) >= 2, per_round  # alice, slow
    bob_rounds = sorted(r for (r, seat) in per_round if seat == 1)
    assert bob_rounds and all(r <= 2 for r in bob_rounds), per_round  # away from round 3 on
    assert not env.errors
