"""`/table …`: what any table needs whatever the game — your hand, leaving, stopping.

Also the catch-all for component clicks that match none of our buttons (forged or from a
version of the bot that no longer exists), so every click gets an answer.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs import boards
from cogs.help import RULES_ID, show_full_rules
from cogs.table.buttons import is_ours, on_message, payload, route_unlisted
from cogs.table.common import NOBODY, Refusal, reply
from cogs.table.rendered import drop_answer_handle
from cogs.texts import Texts

T = Texts(__name__)


class TablesCog(commands.Cog):
    table = app_commands.Group(
        name=locale_str("table"), description=locale_str("The game table in this channel"), guild_only=True
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def _table_here(self, interaction: discord.Interaction[Any]) -> Any:
        """The table in the channel the command came from, or None after saying there is none."""
        table = self.bot.referee.table_in(interaction.channel_id)
        if table is None:
            broken = self.bot.referee.broken_in(interaction.channel_id)
            await reply(
                interaction,
                broken.notice() if broken is not None else T.gettext("There's no table in this channel."),
            )
        return table

    @table.command(
        name=locale_str("hand"), description=locale_str("Show your hand (same as the My hand button)")
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        if (table := await self._table_here(interaction)) is not None:
            await self.bot.referee.on_table_button(interaction, table.id, "hand", None)

    @table.command(
        name=locale_str("status"),
        description=locale_str("Who the table waits on, and its clocks (only you see it)"),
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        if (table := await self._table_here(interaction)) is None:
            return
        async with table.lock:  # draw committed state only
            drawing = await self.bot.referee.drawing.status(table)
        with contextlib.suppress(discord.HTTPException):  # nothing changed; they can ask again
            await interaction.response.send_message(
                view=drawing.layout.view, files=drawing.files(), ephemeral=True, allowed_mentions=NOBODY
            )

    @table.command(
        name=locale_str("leave"),
        description=locale_str("Leave the table; a computer player takes over your seat"),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await self._answer(interaction, self.bot.referee.leave(interaction))

    @table.command(
        name=locale_str("stop"),
        description=locale_str("Stop the table in this channel (host or server manager)"),
    )
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        await self._answer(interaction, self.bot.referee.stop(interaction))

    async def _answer(self, interaction: discord.Interaction[Any], work: Any) -> None:
        try:
            text = await work
        except Refusal as refusal:
            text = str(refusal)
        await reply(interaction, text)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(payload(interaction).get("custom_id", ""))
        listed = is_ours(custom_id) or boards.is_ours(custom_id) or RULES_ID.fullmatch(custom_id)
        if listed and on_message(interaction, custom_id):
            return  # its DynamicItem answers it, in its own task
        try:
            if rules := RULES_ID.fullmatch(custom_id):
                await show_full_rules(interaction, rules["game"])
            elif boards.is_ours(custom_id):
                await boards.route_unlisted(interaction, custom_id)
            elif not is_ours(custom_id):
                await reply(interaction, T.gettext("That button isn't one I recognise, so nothing happened."))
            else:
                await route_unlisted(interaction, custom_id)
        finally:
            # Answered here (a button no longer on its message, or a forged one): its answer
            # handle must not hold it in a reference cycle (cogs/table/rendered.py).
            drop_answer_handle(interaction)


async def setup(bot: Any) -> None:
    await bot.add_cog(TablesCog(bot))
