"""Whether the person behind a DM click is still in the table's server and can still see its
channel (its View Channel permission: cogs/table/sight.py): who may click is who may see.

A click in a DM carries no server membership, so Discord is asked (at most every
``MEMBER_CHECK_TTL`` per person and server). That is a bot-token route with a rate limit of its
own, so the click is answered (deferred) first and the question asked outside the table's lock
(``first``): a slow answer neither leaves the click unanswered past Discord's 3 seconds nor holds
up the other players' clicks at the table (issue 34). Only members who hold a seat play; if
Discord can't say, the click is refused and nothing changes.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import discord

from cogs.table.common import Refusal, reply
from cogs.table.failures import Failure, classify
from cogs.table.model import Table
from cogs.table.sight import CANNOT_SEE, require_sight
from cogs.table.spine import Spine
from cogs.texts import N_, Texts

log = logging.getLogger(__name__)
T = Texts(__name__)

# A server membership (and sight of the table's channel) seen this recently is trusted for a DM
# click without asking Discord again: long enough to spare Discord a call per click in a quick
# exchange, short enough that someone removed from the server or the channel stops playing within
# seconds.
MEMBER_CHECK_TTL = timedelta(seconds=10)
MEMBERSHIP_UNKNOWN = N_(
    "I couldn't check with Discord that you're still in that server, so nothing changed. "
    "Try again in a moment."
)


class Membership:
    def __init__(self, spine: Spine) -> None:
        self.spine = spine
        # When each (guild, channel, user) was last seen to be a member who sees the channel.
        self.seen: dict[tuple[int, int, int], datetime] = {}

    def fresh(self, table: Table, user: discord.abc.User) -> bool:
        seen = self.seen.get((table.guild_id, table.channel_id, user.id))
        return seen is not None and self.spine.scheduler.now() - seen < MEMBER_CHECK_TTL

    async def first(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """Before the table's lock: if the membership is not known fresh, answer the click
        (deferred: the panel is edited through its token afterwards), then ask Discord. False
        if the click was refused (and told so)."""
        if self.fresh(table, interaction.user):
            return True
        try:
            await interaction.response.defer()
        except (discord.HTTPException, OSError) as error:
            log.info("could not defer a DM click: %s", error)
        try:
            await self.require(table, interaction.user)
        except Refusal as refusal:
            await reply(interaction, str(refusal))
            return False
        return True

    async def require(self, table: Table, user: discord.abc.User) -> None:
        """Refuse (``Refusal``) unless ``user`` is known to be in the table's server; asks
        Discord unless ``first`` just did."""
        if self.fresh(table, user):
            return
        key = (table.guild_id, table.channel_id, user.id)
        now = self.spine.scheduler.now()
        self.seen.pop(key, None)
        try:
            await require_sight(self.spine.bot, table.guild_id, table.channel_id, user.id)
        except (discord.HTTPException, OSError) as error:
            failure = classify(error)
            if failure == Failure.MEMBER_GONE:
                raise Refusal(
                    T.gettext("You're no longer a member of that server, so you can't play at its table.")
                ) from None
            if failure in (Failure.MESSAGE_GONE, Failure.CHANNEL_GONE):
                raise Refusal(T.gettext(CANNOT_SEE)) from None
            log.info("could not check membership for a DM click: %s", error)
            raise Refusal(T.gettext(MEMBERSHIP_UNKNOWN)) from None
        self.seen[key] = now
