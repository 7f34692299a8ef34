"""Who may click is who may see: a DM click is taken only from a person who can still see the
table's channel, that is a member of its server whom the channel lets View Channel.

A click in the channel itself proves both (Discord only delivers it from someone who sees the
channel). A DM click proves neither, so Discord is asked: the member (their roles now) by REST,
and the channel's permission overwrites from the gateway's cache, which Discord keeps current
with every channel change. A process that does not serve the table's server (its shard is
another process's, so the gateway cache lacks it) asks REST for the server's roles and the
channel's overwrites too, and works the permission out as Discord does (``can_view``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord

from cogs.table.common import Refusal
from cogs.texts import N_, Texts

T = Texts(__name__)

CANNOT_SEE = N_(
    "You can no longer see that table's channel (its View Channel permission), so you can't play "
    "at its table. A server manager can give it back to you."
)

VIEW = discord.Permissions(view_channel=True).value
ADMINISTRATOR = discord.Permissions(administrator=True).value


def can_view(
    *,
    guild_id: int,
    owner_id: int | None,
    user_id: int,
    member_roles: Iterable[int],
    role_permissions: Mapping[int, int],
    overwrites: Iterable[Mapping[str, Any]],
) -> bool:
    """Discord's permission rule for View Channel, from raw data: the server's owner and
    administrators see everything; otherwise @everyone's and the member's roles' permissions,
    then the channel's overwrites: @everyone's, the roles' (denies, then allows), the member's."""
    if user_id == owner_id:
        return True
    roles = {int(r) for r in member_roles}
    base = role_permissions.get(guild_id, 0)
    for role in roles:
        base |= role_permissions.get(role, 0)
    if base & ADMINISTRATOR:
        return True
    by_target = {int(o["id"]): o for o in overwrites}
    allowed = base

    def apply(allow: int, deny: int) -> None:
        nonlocal allowed
        allowed = (allowed & ~deny) | allow

    everyone = by_target.get(guild_id)
    if everyone is not None:
        apply(int(everyone.get("allow", 0)), int(everyone.get("deny", 0)))
    role_allow = role_deny = 0
    for target, o in by_target.items():
        if int(o.get("type", 0)) == 0 and target in roles:
            role_allow |= int(o.get("allow", 0))
            role_deny |= int(o.get("deny", 0))
    apply(role_allow, role_deny)
    mine = by_target.get(user_id)
    if mine is not None and int(mine.get("type", 1)) == 1:
        apply(int(mine.get("allow", 0)), int(mine.get("deny", 0)))
    return bool(allowed & VIEW)


async def require_sight(bot: Any, guild_id: int, channel_id: int, user_id: int) -> None:
    """Refuse unless the person can see the channel. Raises discord.HTTPException / OSError
    when Discord says no such member (or channel), or can't be asked: the caller words it."""
    guild = bot.get_guild(guild_id)
    if guild is not None:
        member = await guild.fetch_member(user_id)
        # An archived thread is not in the cache: Discord is asked for it (a 404 is "gone").
        channel = guild.get_channel_or_thread(channel_id) or await guild.fetch_channel(channel_id)
        if not channel.permissions_for(member).view_channel:
            raise Refusal(T.gettext(CANNOT_SEE))
        return
    member_data = await bot.http.get_member(guild_id, user_id)
    guild_data = await bot.http.get_guild(guild_id)
    channel_data = await bot.http.get_channel(channel_id)
    if channel_data.get("thread_metadata") is not None and channel_data.get("parent_id"):
        # A thread is seen by whoever sees its channel.
        channel_data = await bot.http.get_channel(int(channel_data["parent_id"]))
    seen = can_view(
        guild_id=guild_id,
        owner_id=int(guild_data["owner_id"]) if guild_data.get("owner_id") else None,
        user_id=user_id,
        member_roles=member_data.get("roles") or (),
        role_permissions={int(r["id"]): int(r.get("permissions", 0)) for r in guild_data.get("roles") or ()},
        overwrites=channel_data.get("permission_overwrites") or (),
    )
    if not seen:
        raise Refusal(T.gettext(CANNOT_SEE))
