"""Game night as players feel it (issue 14): visible clocks, the thread's join line, `/table
status`, and panel steps that survive other players' actions."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.simhelpers import buttons, message_text, playable, reply_text
from tests.e2e.zipzap_driver import open_lobby

STAMP = re.compile(r"<t:(\d+):R>")


def table_message(channel: Any, bot: Any) -> Any:
    table = bot.referee.table_in(channel.id)
    return next(m for m in channel.history() if m.id == table.table_message_id)


@pytest.mark.simcord(settle_timeout=20)
async def test_a_running_timer_shows_as_a_countdown_on_the_table_and_the_panel(simcord_env, simcord_bot):
    """While the stall timer runs, the table message and the hand panel both carry a Discord
    relative timestamp for its deadline, and a re-armed timer shows its new deadline. Seen to fail
    with Referee.clock returning None (no timestamp anywhere)."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, speed="relaxed", cpu=None)
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.table_in(t["channel"].id)
    await env.advance_time(2)
    shown = STAMP.findall(message_text(table_message(t["channel"], bot)))
    assert shown == [str(int(table.deadline_at.timestamp()))]
    hand = await t["host"].click(t["lobby"], label="My hand")
    assert STAMP.findall(message_text(hand.response)) == shown
    first = table.deadline_at
    card = playable(hand.response)[0]
    await t["host"].click(hand.response, custom_id=card["custom_id"])
    await env.advance_time(2)
    if table.deadline_at is not None and table.deadline_at != first:
        assert STAMP.findall(message_text(table_message(t["channel"], bot))) == [
            str(int(table.deadline_at.timestamp()))
        ]


@pytest.mark.simcord(settle_timeout=20)
async def test_a_thread_table_has_a_join_line_in_its_parent_channel(simcord_env, simcord_bot):
    """With thread:true the parent channel gets one line with a Join button that seats the
    clicker at the thread's table; the line says when the game starts. Seen to fail before: the
    parent channel showed only the thread's starter, with no way to join."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("game-night")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    r = await alice.slash(channel, "zipzap new", seats=2, thread=True)
    assert "is open" in reply_text(r)
    line = next(m for m in channel.history() if "Press **Join**" in (m.content or ""))
    r = await bob.click(line, label="Join")
    assert "seated" in reply_text(r) and r.ephemeral
    thread = channel.threads[0]
    table = bot.referee.table_in(thread.id)
    assert table.seat_of(bob.id) is not None
    lobby = next(m for m in thread.history() if m.id == table.table_message_id)
    await alice.click(lobby, label="Start")
    await env.advance_time(2)
    line = next(m for m in channel.history() if m.id == line.id)
    assert "under way" in (line.content or "") and buttons(line) == []


@pytest.mark.simcord(settle_timeout=20)
async def test_table_status_shows_the_public_table_and_whom_it_waits_on(simcord_env, simcord_bot):
    """`/table status` answers anyone privately with the spectator's table, whom it waits on and
    the clock, and changes nothing. (Its secrecy is the table embed's: see the twin-state audit.)"""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, speed="relaxed", cpu=None)
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.table_in(t["channel"].id)
    version = table.version
    carol = t["guild"].add_member(env.create_user("carol"))
    r = await carol.slash(t["channel"], "table status")
    assert r.ephemeral
    text = reply_text(r)
    assert "Waiting on" in text and STAMP.search(text)
    assert table.version == version
