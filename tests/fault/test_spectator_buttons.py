"""A spectator pressing a public table button is refused, above all one whose action is also a
system action (the referee's own: a stall, an idle leader's forced play, the next deal).

Zip Zap's public "Next round" button sends the action "deal", which is exactly what the referee's
next-round timer applies with no seat; a forged button can name "stall" or "idle" the same way.
Without the seat check in the referee's public-button path, a spectator's press reaches the
engine with no seat, that is as the referee itself, and the engine accepts it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.simhelpers import answer_text, emit_click, reply_text
from tests.e2e.zipzap_driver import Player, open_lobby
from tests.fault.fault_helpers import answered_privately, counts

REFUSAL = "Only the players at this table can do that."


def latest(channel: Any, message_id: int) -> Any:
    """The table message as it is now (after the referee's edits)."""
    return next(m for m in channel.history() if m.id == message_id)


async def snapshot(bot: Any, table_id: int) -> tuple[Any, ...]:
    table = bot.referee.tables[table_id]
    return table.version, table.state.to_json(), await counts(bot)


@pytest.mark.simcord(settle_timeout=30)
async def test_a_spectator_cannot_press_a_system_action(simcord_env: Any, simcord_bot: Any) -> None:
    """Mallory, in the server but not at the table, presses public buttons of a Zip Zap game:
    forged ones naming each system action the referee could take during play, then the real
    "Next round" button between rounds. Each gets an ephemeral refusal; the version, the state
    and the database stay as they were. Alice then presses the same "Next round" and it deals.

    Seen failing (a throwaway run) with the seat check removed from Referee._table_button's
    "act" branch: Mallory's forged "stall" was applied as the referee's own stall ("changed the
    table (version 2 → 3)", one action row added, answered with a silent defer instead of a
    refusal). tests/fault/test_hostile_input.py passed with the check removed."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, cpu=None, people=("alice", "bob"), speed="off", rounds=2)
    await t["host"].click(t["lobby"], label="Start")
    channel, message = t["channel"], t["lobby"]
    table_id = bot.referee.by_channel[channel.id]
    table = bot.referee.tables[table_id]
    mallory = t["guild"].add_member(env.create_user("mallory"))

    # During play: the system actions the referee itself could apply now, forged onto the table.
    system = table.state.legal_actions(None)
    assert system, "the referee has no action to take now; pick another moment"
    for action in system:
        before = await snapshot(bot, table_id)
        flight = emit_click(mallory, message, f"gt:{table_id}:act:{action}")
        await env.settle()
        after = await snapshot(bot, table_id)
        changed = f"a spectator's {action!r} changed the table (version {before[0]} → {after[0]})"
        assert after == before, changed
        assert answered_privately(flight), f"{action}: not answered privately: {answer_text(env, flight)!r}"
        assert REFUSAL in answer_text(env, flight), f"{action}: {answer_text(env, flight)!r}"

    # Between rounds: the real "Next round" button on the table message.
    players = [Player(actor, channel, message) for actor in t["actors"]]
    for _ in range(400):
        if table.state.view(None)["phase"] == "between_rounds":
            break
        for player in players:
            await player.step()
        await env.advance_time(1.0)
    assert table.state.view(None)["phase"] == "between_rounds", "the first round did not end"
    await env.advance_time(2.0)  # let the table message be redrawn with its Next round button
    before = await snapshot(bot, table_id)
    result = await mallory.click(latest(channel, message.id), label="Next round")
    assert result.ephemeral and REFUSAL in reply_text(result), reply_text(result)
    assert await snapshot(bot, table_id) == before, "a spectator dealt the next round"

    # The button itself works, for a player.
    await t["host"].click(latest(channel, message.id), label="Next round")
    assert table.version > before[0] and table.state.view(None)["phase"] == "play"
