"""Shared table machinery that every game relies on: selects, lobby seating, slash errors."""

from __future__ import annotations

import pytest

from tests.e2e.simhelpers import action_rows, emit_click, message_text, reply_text


def select_ids(message) -> list[str]:  # type: ignore[no-untyped-def]
    ids = []
    for row in action_rows(message):
        children = row.get("components", []) if isinstance(row, dict) else getattr(row, "children", [])
        for c in children:
            data = c if isinstance(c, dict) else c.to_dict()
            if data.get("type") == 3:
                ids.append(data["custom_id"])
    return ids


@pytest.mark.simcord(settle_timeout=20)
async def test_a_panel_select_applies_its_action(simcord_env, simcord_bot):
    """Seen failing when ActionSelect was not registered as a dynamic item: the select went
    unanswered and the signal was never chosen."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("signals")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "zaptrap new", seats=3)
    lobby = channel.last_message
    await alice.click(lobby, label="Add computer: casual")
    await alice.click(lobby, label="Add computer: casual")
    await alice.click(lobby, label="Start")
    table = simcord_bot.referee.tables[1]
    panel = (await alice.click(lobby, label="My hand & signal")).response
    (menu,) = select_ids(panel)
    result = await alice.select(panel, ["wink"], custom_id=menu)
    assert result.acknowledged
    assert table.state.view(0)["my_signal"] == "wink"


@pytest.mark.simcord(settle_timeout=20)
async def test_the_host_arranges_seats_with_the_lobby_select(simcord_env, simcord_bot):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("lobby")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "zipzap new", seats=3)
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    (menu,) = select_ids(channel.history()[0])
    refused = await bob.select(channel.history()[0], ["0"], custom_id=menu)
    assert "Only the host" in reply_text(refused)
    await alice.select(channel.history()[0], ["0"], custom_id=menu)
    seating = message_text(channel.history()[0])
    assert seating.index("1. **bob**") < seating.index("2. **alice**")
    assert [s.name for s in simcord_bot.referee.tables[1].seats] == ["bob", "alice"]


@pytest.mark.simcord(settle_timeout=20)
async def test_a_forged_select_value_is_refused(simcord_env, simcord_bot):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("forged")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "zipzap new", seats=2)
    lobby = channel.last_message
    await alice.click(lobby, label="Add computer: casual")
    (menu,) = select_ids(channel.history()[0])
    flight = emit_click(alice, channel.history()[0], menu)  # a select payload with no valid value
    await env.settle()
    assert flight.result.acknowledged
    assert next(s.name for s in simcord_bot.referee.tables[1].seats) == "alice"


@pytest.mark.simcord(settle_timeout=20)
async def test_no_view_or_sleeping_task_is_kept_per_panel(simcord_env, simcord_bot):
    """Seen failing before panels were sent as stopped Views: every ephemeral panel left a stored
    View with a 15-minute timeout task (discord.py forces that timeout on ephemeral views)."""
    import asyncio

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("panels")
    people = [guild.add_member(env.create_user(name)) for name in ("ann", "ben", "cat")]
    await people[0].slash(channel, "zipzap new", seats=3)
    lobby = channel.last_message
    for person in people[1:]:
        await person.click(lobby, label="Join")
    await people[0].click(lobby, label="Start")
    for _ in range(4):
        for person in people:
            await person.click(lobby, label="My hand")
    store = simcord_bot._connection._view_store
    assert not store._views, "views were stored per message"
    sleepers = [t for t in asyncio.all_tasks() if "timeout" in repr(t.get_coro()).lower()]
    assert sleepers == []
