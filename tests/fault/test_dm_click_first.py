"""A DM click asks Discord whether its person is still in the table's server: a bot-token route
with a rate limit of its own. That question is asked after the click is answered (deferred) and
outside the table's lock, so a slow answer neither leaves the click unanswered past Discord's
3 seconds nor holds the other players' clicks up (issue 34).

The member route is made to hang (the check waits on a ``bot.wait_for`` gate, which SimCord
parks) while Bob's DM click is in flight; likewise the DM route for "Hand by DM". Both seen to
fail with the check and the DM made under the lock and before the answer (as they were): Bob's
click was not acknowledged.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.e2e.simhelpers import emit_click, message_text, playable
from tests.e2e.trap_driver import open_table as open_trap
from tests.e2e.trap_driver import selects


@pytest.mark.simcord(settle_timeout=20)
async def test_a_dm_click_is_answered_before_the_membership_check(simcord_env, simcord_bot, monkeypatch):
    env, bot = simcord_env, simcord_bot
    t = await open_trap(env, cpu=None, people=("alice", "bob"), quick_setup=True, speed="off")
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.table_in(t["channel"].id)
    alice, bob = t["actors"]
    # Alice moves first, so it is Bob's turn when he clicks from his DM panel.
    panel = (await alice.slash(t["channel"], "table hand")).response
    menu = selects(panel)[0]  # Trap's points and moves are one select (issue 33)
    await alice.select(panel, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
    await bob.click(t["lobby"], label="Hand by DM")
    dm = bob.user.dm_channel.history()[-1]
    menu = selects(dm)[0]
    move, value = menu["custom_id"], menu["options"][0]["value"]

    asked: list[int] = []
    fetch_member = discord.Guild.fetch_member

    async def slow_member(guild: discord.Guild, member_id: int, /) -> Any:
        asked.append(member_id)
        await bot.wait_for("member_route_free")  # Discord's member route is rate limited
        return await fetch_member(guild, member_id)

    monkeypatch.setattr(discord.Guild, "fetch_member", slow_member)
    bot.referee.entry.members.seen.clear()  # his membership was checked long ago
    before = table.version
    flight = emit_click(bob.user, dm, move, values=[value])
    await env.settle()
    assert asked == [bob.user.id], "the check is under way"
    assert flight.result.acknowledged, "and Bob's click was answered before it"
    assert not table.lock.locked(), "nobody else's click waits on it"
    assert table.version == before

    bot.dispatch("member_route_free")
    await env.settle()
    assert table.version == before + 1, "once Discord answers, Bob's move is made"
    shown = next(m for m in bob.user.dm_channel.history() if m.id == dm.id)
    assert not selects(shown), "and his DM panel shows it is no longer his turn"


@pytest.mark.simcord(settle_timeout=20)
async def test_hand_by_dm_is_answered_before_the_dm_is_opened(simcord_env, simcord_bot, monkeypatch):
    """ "Hand by DM" opens a DM and sends to it: two more rate-limited routes. The click is answered
    (deferred) first, and the DM goes out without the table's lock."""
    env, bot = simcord_env, simcord_bot
    t = await open_trap(env, cpu=None, people=("alice", "bob"), quick_setup=True, speed="off")
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.table_in(t["channel"].id)
    bob = t["actors"][1]
    create_dm = discord.User.create_dm

    async def slow_dm(user: discord.User) -> Any:
        await bot.wait_for("dm_route_free")  # Discord's DM route is rate limited
        return await create_dm(user)

    monkeypatch.setattr(discord.User, "create_dm", slow_dm)
    flight = emit_click(bob, t["lobby"], f"gt:{table.id}:dm")  # the table's Hand by DM button
    await env.settle()
    assert flight.result.acknowledged and flight.result.deferred, "answered before the DM is opened"
    assert not table.lock.locked(), "and no other click at the table waits on it"

    bot.dispatch("dm_route_free")
    await env.settle()
    dm = bob.user.dm_channel.history()
    assert dm and playable(dm[-1]) is not None, "his hand arrived by DM"
    assert "sent your hand to your DMs" in message_text(flight.result.response)
    assert table.seats[table.seat_of(bob.user.id)].prefers_dm
