"""A whole GiftTRAP game through the real bot: two people and two computers, clicks only, with a
GiftTRAP shouted by a person in the middle of the reveal."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from db.models import Game, ResultRow
from tests.e2e.gifttrap_driver import is_over, open_lobby, play_to_end
from tests.e2e.simhelpers import buttons, message_text, reply_text


def table_message(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


@pytest.mark.simcord(settle_timeout=30)
async def test_four_players_play_to_a_win_with_a_gifttrap_during_the_reveal(simcord_env, simcord_bot):
    env = simcord_env
    t = await open_lobby(env, simcord_bot, seed=7, track_length=6)
    table, channel, lobby = t["table"], t["channel"], t["lobby"]
    alice = t["people"][0]
    trap: dict[str, Any] = {}

    async def shout_gifttrap(_step: int) -> None:
        state = table.state
        if trap or state.phase != "reveal" or not state.revealed:
            return
        # A gift still to be unwrapped, so the trap visibly costs someone their points.
        receiver, giver = state.reveal_order[len(state.revealed)]
        space = state.gives[giver][receiver]
        version = table.version
        await alice.actor.click(lobby, custom_id=f"gt:{table.id}:act:gifttrap-{space}")
        assert table.version == version + 1, "the GiftTRAP click was not applied"
        trap.update(space=space, round=state.round, at=len(state.revealed))
        await env.advance_time(1.5)  # the table redraws
        shown = table_message(channel, lobby.id)
        assert "— 🪤 GiftTRAPped" in message_text(shown)
        assert "🪤 **alice** shouts **GiftTRAP**" in message_text(shown)
        button = next(b for b in buttons(shown) if b["custom_id"].endswith(f":gifttrap-{space}"))
        assert button["disabled"], "a trapped gift's button stays pressed"
        # Once a game: her second shout is refused with the engine's reason, and changes nothing.
        other = next(b for b in buttons(shown) if ":act:gifttrap-" in b["custom_id"] and not b["disabled"])
        before = (table.version, table.state.to_json())
        result = await alice.actor.click(lobby, custom_id=other["custom_id"])
        assert result.ephemeral and "already used your GiftTRAP card" in reply_text(result)
        assert (table.version, table.state.to_json()) == before

    await play_to_end(env, t["people"], table, channel, on_step=shout_gifttrap)
    assert is_over(channel)
    assert trap, "the game ended before anyone could shout GiftTRAP"

    state = table.state
    winners = state.winners
    assert winners and all(state.give_track[w] == state.get_track[w] == 6 for w in winners)
    final = channel.last_message
    names = [table.name(w) for w in winners]
    assert final.embeds[0].title == "GiftTRAP — " + ", ".join(names) + (
        " share the win" if len(names) > 1 else " wins"
    )
    # The trapped gift scored nothing for anyone from the shout on; what came before stood.
    past = state.history[trap["round"] - 1]
    after = [r for r in past["revealed"][trap["at"] :] if r["space"] == trap["space"]]
    assert after and all(r["trapped"] and r["receiver_points"] == r["giver_points"] == 0 for r in after)
    assert state.trap_used[0]
    # alice backed her gift for bob with Give More through her panel, and the reveal said so.
    backed = [r for r in state.history[0]["revealed"] if (r["giver"], r["receiver"]) == (0, 1)]
    assert backed and backed[0]["give_more"]
    async with simcord_bot.database.sessions() as s:
        assert (await s.scalars(select(Game.status))).one() == "finished"
        assert await s.scalar(select(func.count()).select_from(ResultRow)) == 4
    # Both people were pinged when their choosing began, once per round, not on every change.
    pings = [m for m in channel.history() if "choose your gifts and tokens" in (m.content or "")]
    assert len(pings) == state.round
    assert all("<@" in m.content for m in pings)
    # /leaderboard now lists both people.
    board = await alice.actor.slash(channel, "leaderboard", game="gifttrap")
    text = reply_text(board)
    assert "alice" in text and "bob" in text
