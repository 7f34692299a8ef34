"""Pieces every game cog shares: opening a table from `/… new`, and the `/… rules` answer."""

from __future__ import annotations

from typing import Any

import discord

from cogs.common import Refusal, reply
from cogs.failures import NEEDED_FOR_THREADS, Failure, classify, missing
from cogs.help import rules_embeds, send_quick_start
from rules import get_game

__all__ = ["open_table_command", "rules_embeds", "send_rules"]


async def open_table_command(
    interaction: discord.Interaction[Any],
    game_key: str,
    *,
    seats: int,
    speed: str,
    rules: dict[str, Any],
    thread: bool,
    timers: dict[str, float] | None = None,
) -> None:
    """Shared by every game's `/… new`: open a lobby here or in a fresh thread."""
    referee = interaction.client.referee  # type: ignore[attr-defined]
    channel = interaction.channel
    if interaction.guild_id is None or channel is None:
        await reply(interaction, "Tables can only be opened in a server channel.")
        return
    title = get_game(game_key).title
    try:
        if thread:
            if not isinstance(channel, discord.TextChannel):
                raise Refusal("Threads can only be made from a text channel; try again without `thread`.")
            if lacking := missing(interaction.app_permissions, NEEDED_FOR_THREADS):
                raise Refusal(
                    f"I can't open a thread here: I'm missing {', '.join(lacking)}. Ask a server "
                    "manager to allow that, or try again without `thread`."
                )
            try:
                place: Any = await channel.create_thread(
                    name=f"{title} — {interaction.user.display_name}"[:100],
                    type=discord.ChannelType.public_thread,
                )
            except discord.HTTPException as error:
                if classify(error) in (Failure.NO_PERMISSION, Failure.CHANNEL_GONE):
                    raise Refusal(
                        "Discord didn't let me create a thread here (Create Public Threads and Send "
                        "Messages in Threads are needed). Try again without `thread`."
                    ) from error
                raise Refusal("Discord didn't create the thread, so no table was opened.") from error
        else:
            place = channel
        table = await referee.open_table(
            game_key=game_key,
            guild_id=interaction.guild_id,
            channel=place,
            channel_id=place.id,
            host=interaction.user,
            seats=seats,
            speed=speed,
            rules=rules,
            timers=timers,
            permissions=interaction.app_permissions,
        )
    except Refusal as refusal:
        await reply(interaction, str(refusal))
        return
    if thread and isinstance(channel, discord.abc.Messageable):
        await referee.post_thread_line(table, channel, channel.id)
    where = f" in {place.mention}" if thread else ""
    await interaction.response.send_message(
        f"Your {title} table is open{where} (table {table.id}). Press **Start** when everyone is seated.",
        ephemeral=True,
    )


async def send_rules(interaction: discord.Interaction[Any], game: Any) -> None:
    """`/… rules`: a one-minute quick start, privately, with the full rules and the house rulings
    behind its **Full rules** button (see cogs/help.py)."""
    await send_quick_start(interaction, game)
