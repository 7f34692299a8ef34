"""Whole Zap or Trap games through the real bot, by clicks only: a team game (two people, each
partnered with a computer) and a three-player game against two computers. Short games
(`target:2` on /zaptrap new) on pinned deals."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from db.models import ActionRow, Game, ResultRow, Signal
from tests.e2e.simhelpers import message_text
from tests.e2e.zaptrap_driver import Person, current, is_over, open_lobby, play_to_end


async def stored(bot: Any) -> dict[str, Any]:
    async with bot.database.sessions() as s:
        return {
            "status": (await s.scalars(select(Game.status))).one(),
            "results": await s.scalar(select(func.count()).select_from(ResultRow)),
            "actions": [(a.seat, a.action, a.actor_id) for a in (await s.scalars(select(ActionRow))).all()],
            "signals": sorted(
                (x.round, x.team, x.seat, x.gesture) for x in (await s.scalars(select(Signal))).all()
            ),
        }


def posted_titles(channel: Any) -> list[str]:
    return [m.embeds[0].title or "" for m in channel.history() if m.embeds]


@pytest.mark.simcord(settle_timeout=20)
async def test_team_game_played_to_a_win(simcord_env, simcord_bot):
    """alice & Robo 1 against bob & Robo 2. The people choose their teams' signals, swap toward
    sets, make their signal when they hold one and ZAP when their computer partner makes its."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 1
    t = await open_lobby(env, seats=4, target=2, lull=5)
    channel, (alice, bob) = t["channel"], t["actors"]
    assert "Team 1: **alice** & **Robo 1 (casual)**" in message_text(current(channel, t["lobby"]))
    await alice.click(t["lobby"], label="Start")
    people = [Person(env, alice, channel, t["lobby"], "smirk"), Person(env, bob, channel, t["lobby"], "wink")]
    table = simcord_bot.referee.tables[1]
    await play_to_end(env, people, channel)
    state = table.state

    assert is_over(channel)
    final = channel.last_message
    text = message_text(final)
    assert "The secret signals, revealed" in text and "Rematch" in text
    for entry in state.signal_history:
        assert f"Round {entry['round']}: alice & Robo 1 (casual)" in text
    # Every call was explained publicly, line by line, with the target's hand.
    reveals = [m for m in channel.history() if m.embeds and " calls ZAP on " in (m.embeds[0].title or "")]
    assert reveals and all("shows:" in message_text(m) and "• ZAP on" in message_text(m) for m in reveals)

    db = await stored(simcord_bot)
    assert db["status"] == "finished" and db["results"] == 4
    by = {alice.id: "alice", bob.id: "bob"}
    clicks = [(by[actor], action) for _seat, action, actor in db["actions"] if actor in by]
    assert ("alice", "signal-smirk") in clicks and ("bob", "signal-wink") in clicks
    assert any(who == "alice" and a.startswith("S") for who, a in clicks), "alice swapped by clicks"
    # bob saw his computer partner make their team's real signal and ZAPped it.
    assert ("bob", "ZAP-3") in clicks
    assert any(seat == 3 and a == "gesture-wink" for seat, a, _ in db["actions"])
    assert ("alice", "gesture-smirk") in clicks, "alice made her signal on the public palette"
    # The signals are stored with the game, one row per team and round.
    expected = sorted(
        (e["round"], unit, None, g) for e in state.signal_history for unit, g in enumerate(e["signals"])
    )
    assert db["signals"] == expected and len(expected) == 2 * state.round
    assert max(state.scores) >= 2 and state.winners
    board = await alice.slash(channel, "leaderboard", game="zaptrap")
    assert "alice" in message_text(board.response)


@pytest.mark.simcord(settle_timeout=20)
async def test_three_player_game_against_computers_to_a_win(simcord_env, simcord_bot):
    """alice alone against a casual and a sharp computer; she watches the sharp one (on her
    right) for the signal her panel shows her, and ZAPs it."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 1
    t = await open_lobby(env, seats=3, people=("alice",), cpus=("casual", "sharp"), target=2, lull=5)
    channel, (alice,) = t["channel"], t["actors"]
    assert "alice → Robo 1 (casual) → Robo 2 (sharp) → alice" in message_text(current(channel, t["lobby"]))
    await alice.click(t["lobby"], label="Start")
    person = Person(env, alice, channel, t["lobby"], "smirk")
    table = simcord_bot.referee.tables[1]
    await play_to_end(env, [person], channel)
    state = table.state

    assert is_over(channel)
    assert any(title.startswith("Round 1: ") and " calls " in title for title in posted_titles(channel))
    db = await stored(simcord_bot)
    assert db["status"] == "finished" and db["results"] == 3
    mine = [a for _s, a, actor in db["actions"] if actor == alice.id]
    assert "signal-smirk" in mine and any(a.startswith("S") for a in mine)
    assert "ZAP-2" in mine, "alice ZAPped the player on her right when they made their signal"
    expected = sorted(
        (e["round"], None, unit, g) for e in state.signal_history for unit, g in enumerate(e["signals"])
    )
    assert db["signals"] == expected and len(expected) == 3 * state.round
    final = message_text(channel.last_message)
    assert "Round 1: alice 😏 smirk" in final
