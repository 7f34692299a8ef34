"""A whole Zip Zap game through the real bot: two people and a computer player, clicks only."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from db.models import ActionRow, Game, ResultRow
from tests.e2e.simhelpers import message_text
from tests.e2e.zipzap_driver import Player, is_over, open_lobby, play_to_end


@pytest.mark.simcord(settle_timeout=20)
async def test_full_game_from_new_to_leaderboard(simcord_env, simcord_bot):
    env = simcord_env
    t = await open_lobby(env, seats=3)
    channel, (alice, bob) = t["channel"], t["actors"]
    await alice.click(t["lobby"], label="Start")
    table_message = channel.history()[0] if False else t["lobby"]
    players = [Player(alice, channel, table_message), Player(bob, channel, table_message)]
    await play_to_end(env, players, channel)

    assert is_over(channel)
    final = channel.last_message
    assert "Rematch" in message_text(final)
    async with simcord_bot.database.sessions() as s:
        game = (await s.scalars(select(Game))).one()
        assert game.status == "finished"
        assert await s.scalar(select(func.count()).select_from(ResultRow)) == 3
        assert await s.scalar(select(func.count()).select_from(ActionRow)) > 20

    board = await alice.slash(channel, "leaderboard", game="zipzap")
    text = message_text(board.response)
    assert "alice" in text and "bob" in text
    stats = await bob.slash(channel, "stats show", user=alice)
    assert stats.ephemeral and "1 game ·" in message_text(stats.response)
