"""100 clicks in flight at once on one contested card: exactly one applied, every other clicker
told why."""

from __future__ import annotations

from typing import Any

import pytest

from rules.zipzap import ZipZap
from tests.e2e.simhelpers import InFlight, answer_text, emit_click, playable
from tests.e2e.zipzap_driver import Player, open_lobby
from tests.fault.fault_helpers import counts, stored_actions

ENGINE = ZipZap()
SEATS = 6
FLIGHTS = 100
PEOPLE = ("alice", "bob", "carol", "dave", "erin", "frank")


def contested_seed() -> int:
    """A deal where nobody has control and at least four seats can follow the flipped card."""
    for seed in range(5000):
        state = ENGINE.new_game(SEATS, ENGINE.parse_options({}), seed)
        if state.control is None and sum(1 for s in range(SEATS) if state.legal_actions(s)) >= 4:
            return seed
    raise AssertionError("no seed found")


@pytest.mark.simcord(settle_timeout=60)
async def test_a_hundred_clicks_in_flight_one_is_applied_the_rest_are_told_why(
    simcord_env: Any, simcord_bot: Any
) -> None:
    """Six people; every seat that can follow the first card clicks each of its playable cards
    (and its play-and-Zap buttons) over and over: 100 interactions queued before the bot runs
    any of them. The first to arrive wins; the 99 others are all answered with a reason.

    Seen failing (a throwaway run) against a referee whose click handler compared the panel's
    version with the table's, awaited a database read, and only then took the lock to act: the
    later clicks were judged on the new state, so click 1 (alice's double click) was answered
    "You don't hold the wild 6" instead of "Too slow", and others were put to the engine again."""
    env = simcord_env
    seed = contested_seed()
    simcord_bot.referee.new_seed = lambda: seed
    t = await open_lobby(env, seats=SEATS, cpu=None, people=PEOPLE, speed="off")
    await t["host"].click(t["lobby"], label="Start")
    table = simcord_bot.referee.tables[1]
    players = [Player(a, t["channel"], t["lobby"]) for a in t["actors"]]
    for p in players:
        await p.open_hand()
    contenders = [p for p in players if playable(p.panel)]
    assert len(contenders) >= 4
    version, (_games, actions_before) = table.version, await counts(simcord_bot)
    stored_before = await stored_actions(simcord_bot, table.id)

    clicks: list[tuple[Player, str]] = []
    while len(clicks) < FLIGHTS:
        for p in contenders:
            for button in playable(p.panel):
                clicks.append((p, button["custom_id"]))
    clicks = clicks[:FLIGHTS]
    flights: list[InFlight] = [emit_click(p.actor, p.panel, cid) for p, cid in clicks]
    await env.settle()

    # Exactly one action stored, and it is the first click that arrived.
    _games, actions_after = await counts(simcord_bot)
    assert actions_after == actions_before + 1
    new = (await stored_actions(simcord_bot, table.id))[len(stored_before) :]
    first_player, first_id = clicks[0]
    assert new == [(version + 1, players.index(first_player), first_id.rsplit(":", 1)[1])]
    assert table.version == version + 1
    rows = await simcord_bot.store.actions(table.id)
    assert rows[-1].actor_id == first_player.actor.id

    # Every interaction was answered; the winner got a fresh panel, every other one a reason.
    assert all(f.result.acknowledged for f in flights)
    answers = [answer_text(env, f) for f in flights]
    assert "⚠️" not in answers[0], answers[0]
    for i, said in enumerate(answers[1:], start=1):
        assert "Too slow" in said, f"click {i} ({clicks[i][1]}) was told: {said[:300]}"
    assert env.errors == []
