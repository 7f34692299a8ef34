"""Small pieces every part of the table framework uses: refusals and how to answer a person."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)


class Refusal(Exception):
    """A request we turn down with a reason for the person who made it."""


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already answered."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:
        log.info("could not answer interaction: %s", error)


def display_name(user: discord.abc.User) -> str:
    return user.display_name[:100]


def plain(line: str) -> str:
    return line.replace("**", "")


def is_manager(user: discord.abc.User) -> bool:
    perms = getattr(user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.manage_channels))


# What every entry point says when a change could not be made; each changes nothing.
RESTARTING = "The referee is restarting. Try again in a moment; nothing changed."
MOVED = "Someone changed this table at the same moment, so nothing changed. Here it is now; try again."
NOT_SAVED = "I couldn't save that, so nothing changed. Please try again."
