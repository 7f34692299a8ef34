"""Small pieces every part of the table framework uses: refusals, how to answer a person, and
how text people chose (names) is shown and whom a message may ping."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

import discord

from cogs.texts import N_, Texts

T = Texts(__name__)

log = logging.getLogger(__name__)

# Whom a message may notify: nobody, unless it names exactly the users it means to ping
# (``only``). bot.py makes NOBODY the bot-wide default too, and every send and edit still says so
# itself (tests/fault/test_hostile_names.py checks both).
NOBODY = discord.AllowedMentions.none()


def only(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Ping exactly these users: never a role, never @everyone or @here."""
    users = [discord.Object(id=u) for u in dict.fromkeys(user_ids)]
    return discord.AllowedMentions(everyone=False, users=users, roles=False, replied_user=False)


# --- text people chose --------------------------------------------------------------------------
# A display name, a nickname or a thread name is input: "<@id>" would show (and ping) someone,
# "**" would turn the rest of a line bold, a right-to-left override (U+202E) would turn the rest
# of the line around. Names are kept as their owners wrote them and made safe where they are shown:
# ``plain_name`` where Discord shows text as it is (button and select labels, footers, thread
# names), ``escape`` where it reads markdown (message text, embed titles, descriptions, fields).

# Invisible characters that reorder the text around them (bidirectional embeddings, overrides,
# isolates and marks): dropped.
_REORDER = re.compile(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# What Discord reads as a live token: <@id>, <@!id>, <@&id>, <#id>, </command:id>, <:emoji:id>,
# <a:emoji:id>, <t:…>, <id:…>, and @everyone, @here. An invisible space after the "@" (as
# discord.utils.escape_mentions puts it), or after the "<" of the others, leaves them plain
# words, in every client and for Discord's own mention parser.
_LIVE = re.compile(r"(?<=<)@(?!\u200b)|<(?=[#/:]|a:|t:|id:)|@(?=everyone|here)")
_BREAK = "\u200b"


def _neutral(text: str) -> str:
    return _LIVE.sub(lambda m: m.group(0) + _BREAK, _REORDER.sub("", _CONTROL.sub(" ", text)))


def plain_name(text: str, fallback: str | None = None) -> str:
    """A name for places Discord shows text as it is: nothing in it reorders the line, breaks
    it or reads as a mention. ``fallback`` ("someone") if nothing visible is left."""
    return _neutral(text).strip() or (
        T.pgettext("a name with nothing visible in it", "someone") if fallback is None else fallback
    )


def escape(text: str) -> str:
    """Plain text (a name, or a line built with plain names) made safe to show as Discord
    markdown: it reads exactly as written, with no formatting, link or mention of its own.
    Escape once, where the text is put into markdown: escaping escaped text shows backslashes."""
    return discord.utils.escape_markdown(_neutral(text))


def markdown_name(text: str, fallback: str | None = None) -> str:
    """A name as its owner chose it, for message text and embeds: ``escape(plain_name(text))``."""
    return escape(plain_name(text, fallback))


_MARKUP = re.compile(r"\\([^A-Za-z0-9\s])|\*\*|(?<=[<@])\u200b")


def as_text(markdown: str) -> str:
    """Markdown we drew, as plain text for a file: bold dropped, escapes and mention breaks
    undone, so names read exactly as their owners wrote them."""
    return _MARKUP.sub(lambda m: m.group(1) or "", markdown)


class Refusal(Exception):
    """A request we turn down with a reason for the person who made it."""


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already answered."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NOBODY)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NOBODY)
    except discord.HTTPException as error:
        log.info("could not answer interaction: %s", error)


async def edit_answer(
    interaction: discord.Interaction[Any], *, allowed_mentions: discord.AllowedMentions, **fields: Any
) -> Any:
    """Answer a click by editing the message clicked: at once, or through the interaction's
    token when the click was answered (deferred) first, as a DM click is before it asks Discord
    anything (cogs/table/entry.py). Whom it may notify is said by every caller."""
    if interaction.response.is_done():
        return await interaction.edit_original_response(allowed_mentions=allowed_mentions, **fields)
    return await interaction.response.edit_message(allowed_mentions=allowed_mentions, **fields)


async def private_answer(
    interaction: discord.Interaction[Any], *, allowed_mentions: discord.AllowedMentions, **fields: Any
) -> Any:
    """A click's private answer: sent now, or, when the click was answered first (deferred,
    "thinking"), put in place of that placeholder (a follow-up would leave it thinking)."""
    if interaction.response.is_done():
        if "files" in fields:
            fields["attachments"] = fields.pop("files")
        return await interaction.edit_original_response(allowed_mentions=allowed_mentions, **fields)
    return await interaction.response.send_message(
        ephemeral=True, allowed_mentions=allowed_mentions, **fields
    )


def display_name(user: discord.abc.User) -> str:
    return user.display_name[:100]


_UNBOLD = re.compile(r"(\\.)|\*\*")


def plain(line: str) -> str:
    """A line without its bold (to quote it inside other text); escaped stars stay escaped."""
    return _UNBOLD.sub(lambda m: m.group(1) or "", line)


def is_manager(user: discord.abc.User) -> bool:
    perms = getattr(user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.manage_channels))


# What every entry point says when a change could not be made; each changes nothing. Marked here,
# worded where they are said (``T.gettext(RESTARTING)``), in the language of the moment.
RESTARTING = N_("The referee is restarting. Try again in a moment; nothing changed.")
MOVED = N_("Someone changed this table at the same moment, so nothing changed. Here it is now; try again.")
NOT_SAVED = N_("I couldn't save that, so nothing changed. Please try again.")
# A drawing too large for one Discord message (cogs/table/failures.py, Failure.TOO_LARGE): what was
# committed before the drawing stands, so the person is told it counted and where to look.
TOO_LARGE = N_(
    "This has more than one Discord message can hold, so I couldn't show it here. "
    "Anything you just played still counts: `/table status` shows the table."
)
