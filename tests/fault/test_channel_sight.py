"""Who may click is who may see (cogs/table/sight.py): a DM click is taken only from a member who
can still see the table's channel. Before it, only server membership was checked: a member denied
View Channel on the table's channel kept playing from a DM panel.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord.backend.models.channel import Overwrite, OverwriteType

from cogs.table.sight import can_view
from tests.e2e.simhelpers import buttons, reply_text
from tests.e2e.zipzap_driver import open_lobby

VIEW = discord.Permissions(view_channel=True).value
EVERYONE_PERMS = discord.Permissions.general().value | VIEW


def refresh_of(panel: Any) -> str:
    return next(b["custom_id"] for b in buttons(panel) if b["custom_id"].endswith(":refresh"))


@pytest.mark.simcord(settle_timeout=20)
async def test_a_member_denied_view_channel_cannot_play_by_dm(simcord_env: Any, simcord_bot: Any) -> None:
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, cpu=None, speed="off")
    alice, bob = t["actors"]
    channel = t["channel"]
    await alice.click(t["lobby"], label="Start")
    table = bot.referee.table_in(channel.id)
    await bob.click(t["lobby"], label="Hand by DM")
    panel = bob.user.dm_channel.history()[-1]
    r = await bob.user.click(panel, custom_id=refresh_of(panel))
    assert "can't play" not in reply_text(r)  # he sees the channel: his DM panel works

    # A moderator takes the channel away from bob (a member overwrite denying View Channel).
    env.backend.set_overwrite(channel.id, Overwrite(bob.id, OverwriteType.MEMBER, allow=0, deny=VIEW))
    await env.settle()
    await env.advance_time(11)  # past the short cache of what Discord said
    version = table.version
    r = await bob.user.click(panel, custom_id=refresh_of(panel))
    refused = reply_text(r)
    assert "can no longer see that table's channel" in refused and "View Channel" in refused
    assert table.version == version

    # A role that denies it does the same; a member overwrite that allows it wins over the role.
    muted = t["guild"].create_role("muted")
    env.backend.delete_overwrite(channel.id, bob.id)
    env.backend.add_member_role(t["guild"].id, bob.id, muted.id)
    env.backend.set_overwrite(channel.id, Overwrite(muted.id, OverwriteType.ROLE, allow=0, deny=VIEW))
    await env.settle()
    await env.advance_time(11)
    r = await bob.user.click(panel, custom_id=refresh_of(panel))
    assert "can no longer see that table's channel" in reply_text(r)
    assert table.version == version
    env.backend.set_overwrite(channel.id, Overwrite(bob.id, OverwriteType.MEMBER, allow=VIEW, deny=0))
    await env.settle()
    await env.advance_time(11)
    r = await bob.user.click(panel, custom_id=refresh_of(panel))
    assert "can't play" not in reply_text(r), "given back to him, the panel works again"


def test_view_channel_worked_out_from_raw_data_as_discord_does() -> None:
    """The REST path (a process that does not serve the server): @everyone, roles, overwrites in
    Discord's order; the owner and administrators always see."""
    guild, user, role, other_role = 10, 20, 30, 40
    roles = {guild: EVERYONE_PERMS, role: 0, other_role: discord.Permissions(administrator=True).value}

    def sees(member_roles: list[int], overwrites: list[dict[str, Any]], owner: int | None = None) -> bool:
        return can_view(
            guild_id=guild,
            owner_id=owner,
            user_id=user,
            member_roles=member_roles,
            role_permissions=roles,
            overwrites=overwrites,
        )

    deny_everyone = {"id": guild, "type": 0, "allow": 0, "deny": VIEW}
    allow_role = {"id": role, "type": 0, "allow": VIEW, "deny": 0}
    deny_role = {"id": role, "type": 0, "allow": 0, "deny": VIEW}
    deny_member = {"id": user, "type": 1, "allow": 0, "deny": VIEW}
    allow_member = {"id": user, "type": 1, "allow": VIEW, "deny": 0}
    assert sees([], [])
    assert not sees([], [deny_everyone])
    assert sees([role], [deny_everyone, allow_role])  # a private channel for a role
    assert not sees([], [deny_everyone, allow_role])
    assert not sees([role], [deny_role])
    assert sees([role], [deny_role, allow_member])  # the member's own overwrite comes last
    assert not sees([role], [allow_role, deny_member])
    assert sees([other_role], [deny_everyone, deny_member])  # an administrator
    assert sees([], [deny_everyone, deny_member], owner=user)  # the server's owner


@pytest.mark.simcord(settle_timeout=20)
async def test_a_process_without_the_server_in_its_cache_asks_rest(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DM click that reaches a process not serving the table's server (no gateway cache of it):
    the member, the server's roles and the channel's overwrites come from REST, and a private
    channel (@everyone denied, a role allowed) is seen by the role's members only."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, cpu=None, speed="off")
    alice, bob = t["actors"]
    channel = t["channel"]
    await alice.click(t["lobby"], label="Start")
    table = bot.referee.table_in(channel.id)
    await bob.click(t["lobby"], label="Hand by DM")
    panel = bob.user.dm_channel.history()[-1]
    players = t["guild"].create_role("players")
    env.backend.set_overwrite(channel.id, Overwrite(t["guild"].id, OverwriteType.ROLE, allow=0, deny=VIEW))
    env.backend.set_overwrite(channel.id, Overwrite(players.id, OverwriteType.ROLE, allow=VIEW, deny=0))
    me = bot.user.id  # the bot sees its table's channel, as it must to run the table
    env.backend.set_overwrite(channel.id, Overwrite(me, OverwriteType.MEMBER, allow=VIEW, deny=0))
    await env.settle()
    monkeypatch.setattr(bot, "get_guild", lambda _id: None)
    version = table.version
    r = await bob.user.click(panel, custom_id=refresh_of(panel))
    assert "can no longer see that table's channel" in reply_text(r)
    assert table.version == version
    env.backend.add_member_role(t["guild"].id, bob.id, players.id)
    await env.settle()
    await env.advance_time(11)
    r = await bob.user.click(panel, custom_id=refresh_of(panel))
    assert "can't play" not in reply_text(r)
    assert any(c.method == "GET" and c.path == f"/guilds/{t['guild'].id}" for c in env.http_requests)
