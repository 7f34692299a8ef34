"""The public table message costs the bot's own Discord budget: it is edited only when what it
shows changes, and at most once a second and a half per table (cogs/table/messages.py)."""

from __future__ import annotations

import asyncio
import itertools
import re
from typing import Any

import pytest

from cogs.table.buttons import view_of
from cogs.table.messages import TABLE_EDIT_SPACING
from tests.e2e.simhelpers import buttons, message_text, title
from tests.e2e.zaptrap_driver import Person as ZapPerson
from tests.e2e.zaptrap_driver import open_lobby as open_zaptrap
from tests.e2e.zipzap_driver import open_lobby as open_zipzap

# The promise (not the constant, so that changing it shows here): 1.5 s between a table's edits.
SPACING = 1.5
MESSAGE_EDIT = re.compile(r"^/channels/(\d+)/messages/(\d+)$")


def table_edits(env: Any, since: int, message_id: int) -> list[Any]:
    return [
        e
        for e in env.http_requests[since:]
        if e.method == "PATCH" and (m := MESSAGE_EDIT.match(e.path)) and int(m.group(2)) == message_id
    ]


async def started_zaptrap(env: Any, bot: Any) -> tuple[Any, ZapPerson, ZapPerson]:
    """A four-person Zap or Trap table started on a fixed deal, and alice and bob, the first two
    seats: once both have chosen their signals, the round is dealt."""
    bot.referee.new_seed = lambda: 7
    t = await open_zaptrap(env, seats=4, people=("alice", "bob", "carol", "dave"), cpus=())
    await t["host"].click(t["lobby"], label="Start")
    alice = ZapPerson(env, t["actors"][0], t["channel"], t["lobby"], "smirk")
    bob = ZapPerson(env, t["actors"][1], t["channel"], t["lobby"], "wink")
    return bot.referee.tables[1], alice, bob


@pytest.mark.simcord(settle_timeout=20)
async def test_a_redraw_with_nothing_new_sends_nothing(simcord_env, simcord_bot):
    """A redraw is asked for whenever the table may have changed (after a change, a reload on a
    version conflict, another process's change, a restart). When the message already shows
    exactly what would be drawn, nothing is sent; once something public changes, it is.

    Seen to fail with TableMessages._render's "shows exactly this already" check removed: an
    edit identical to the one before."""
    env, bot = simcord_env, simcord_bot
    table, alice, bob = await started_zaptrap(env, bot)
    await alice.open_hand()
    await alice.choose_signal("smirk")
    await env.advance_time(TABLE_EDIT_SPACING.total_seconds() + 0.5)
    seen = len(env.http_requests)
    bot.referee.messages.request(table)
    await env.advance_time(TABLE_EDIT_SPACING.total_seconds() + 0.5)
    assert table_edits(env, seen, table.table_message_id) == [], "it shows this already"
    await bob.open_hand()
    await bob.choose_signal("wink")  # both signals chosen: the round is dealt
    await env.advance_time(TABLE_EDIT_SPACING.total_seconds() + 0.5)
    assert table.state.phase == "play"
    assert len(table_edits(env, seen, table.table_message_id)) == 1, "news is drawn, once"
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_a_busy_table_is_edited_at_most_once_a_second_and_a_half(simcord_env, simcord_bot):
    """Zip Zap with three quick computers and nobody waiting on a person: many actions a second.
    Every edit of the table message is timed (virtual clock, sampled every quarter second):
    consecutive edits are never closer than the spacing (less one sample), there are fewer
    edits than actions, and the last edit shows the last action.

    Seen to fail with TABLE_EDIT_SPACING set to zero (the channel's 5-in-5 s budget alone): two
    edits in the same quarter second, and as many edits as actions while the budget lasted."""
    env, bot = simcord_env, simcord_bot
    bot.referee.computer_speed = 0.2
    bot.referee.new_seed = lambda: 4  # a deal that keeps the computers playing all along
    t = await open_zipzap(env, seats=4, speed="fast", cpu=None, people=("alice",))
    for _ in range(3):
        await t["host"].click(t["lobby"], label="Add computer: casual")
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.tables[1]
    message_id = table.table_message_id
    times: list[float] = []
    seen, version = len(env.http_requests), table.version
    for _ in range(80):
        await env.advance_time(0.25)
        times += [env.now().timestamp()] * len(table_edits(env, seen, message_id))
        seen = len(env.http_requests)
    actions = table.version - version
    assert actions > len(times) >= 5, (actions, len(times))
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= SPACING - 0.25, gaps
    await env.advance_time(TABLE_EDIT_SPACING.total_seconds())
    assert not env.errors


@pytest.mark.simcord(settle_timeout=20)
async def test_a_table_posted_as_an_embed_before_the_upgrade_is_converted_on_its_first_redraw(
    simcord_env, simcord_bot
):
    """A table that was live before the upgrade to V2 layouts has an embed message (and maybe a
    text line). Its first redraw turns that very message into the V2 layout: content and embeds
    cleared (Discord refuses a V2 message with either), the components_v2 flag set, its buttons
    still working. Seen to fail with ``table_message`` (cogs/table/messages.py) leaving out
    ``embed=None`` and ``content=None``: the message kept its old embed and line, never
    becoming a layout."""
    env, bot = simcord_env, simcord_bot
    t = await open_zipzap(env, people=("alice", "bob"))
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.tables[1]
    await env.advance_time(TABLE_EDIT_SPACING.total_seconds() + 0.5)
    # The message as the bot drew tables before issue 23: an embed, buttons in legacy rows.
    drawing = bot.referee.drawing.draw(table)
    channel = bot.get_partial_messageable(table.channel_id)
    old = await channel.send(content="A line.", embed=drawing.embed, view=view_of(drawing.items))
    table.table_message_id = old.id
    bot.referee.messages.redraw_later(table, 0)
    await env.advance_time(TABLE_EDIT_SPACING.total_seconds() + 0.5)
    now = next(m for m in t["channel"].history() if m.id == old.id)
    assert not now.embeds and not now.content
    assert now.flags.components_v2
    assert title(now).startswith("Zip Zap") and "Latest" in message_text(now)
    assert any(b.get("label") == "My hand" for b in buttons(now))
    result = await t["actors"][0].click(now, label="My hand")  # its buttons still work
    assert "Your hand" in title(result.response)
    assert not env.errors


@pytest.mark.simcord(settle_timeout=20)
async def test_a_redraw_waiting_its_turn_at_the_global_budget_draws_what_changed_meanwhile(
    simcord_env, simcord_bot, monkeypatch
):
    """When the bot's global budget holds table redraws back (busy tables, a global 429), a
    redraw waits for its token *before* it draws: the one edit that goes out shows both changes
    made while it waited, and no second edit follows. Here the redraws' turn is held by hand.

    Seen to fail with the token taken when the edit is sent (``take_ahead`` not called in
    ``TableMessages._render``, the old order): the redraw drew alice's signal alone and sent it
    without waiting here (under load it waited in the bucket with that old drawing, and bob's
    signal took a second edit a spacing later: p99 staleness 7.3 s at 200 busy tables in the
    rate-limit bench)."""
    env, bot = simcord_env, simcord_bot
    table, alice, bob = await started_zaptrap(env, bot)
    await alice.open_hand()
    await env.advance_time(TABLE_EDIT_SPACING.total_seconds() + 0.5)
    budget = bot.global_budget
    turn = asyncio.Event()
    take_ahead = budget.take_ahead

    async def held(priority: Any) -> None:
        await env.external_wait(turn.wait(), reason="the redraws' turn, held by the test")
        await take_ahead(priority)

    monkeypatch.setattr(budget, "take_ahead", held)
    seen = len(env.http_requests)
    await alice.choose_signal("smirk")  # a redraw is asked for, and waits for its turn
    await bob.open_hand()  # a panel: through the interaction, outside the budget
    await bob.choose_signal("wink")  # both signals chosen: the round is dealt
    assert table.state.phase == "play"
    assert table_edits(env, seen, table.table_message_id) == [], "held back by the budget"
    turn.set()
    await env.advance_time(TABLE_EDIT_SPACING.total_seconds() + 1)
    edits = table_edits(env, seen, table.table_message_id)
    assert len(edits) == 1, f"one edit, of the latest state: {len(edits)}"
    assert not env.errors
