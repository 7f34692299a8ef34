"""What every board answer shares: names shown safely, numbers in words, answering a click in
place, and the Cancel button under a confirmation."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.table.failures import Failure, classify
from cogs.table.languages import Spoken
from cogs.table.results import escaped
from cogs.texts import N_, Texts
from rules import GAMES

__all__ = [
    "CONFIRM_SECONDS",
    "NO_PINGS",
    "READ_FAILED",
    "Dismiss",
    "acknowledge",
    "answer",
    "confirmation_age",
    "escaped",
    "game_title",
    "is_ephemeral",
    "say",
    "settle",
    "win_rate",
]

log = logging.getLogger(__name__)
T = Texts(__name__)

# Nothing on a board, a record or a replay pings anyone: names are shown, never mentioned.
NO_PINGS = discord.AllowedMentions.none()
READ_FAILED = N_("I couldn't read the standings just now, so there's nothing to show. Please try again.")


# A confirmation older than this is pressed again rather than trusted.
CONFIRM_SECONDS = 15 * 60
# How far ahead of this process's clock a confirmation's time may be: the question was asked by a
# process of this bot (the clocks of several processes differ a little). Anything further ahead
# was never asked: a button forged by a modified client, or a time past what a date can hold.
CLOCK_SKEW_SECONDS = 60


def confirmation_age(asked_at: int, now: float) -> str:
    """ "fresh", "old" (ask again) or "forged" (no question of ours was asked then)."""
    if asked_at > now + CLOCK_SKEW_SECONDS:
        return "forged"
    return "old" if now - asked_at > CONFIRM_SECONDS else "fresh"


def win_rate(wins: int, games: int) -> str:
    return f"{round(100 * wins / games)}%" if games else "—"


def game_title(key: str) -> str:
    game = GAMES.get(key)
    return game.title if game is not None else key


def is_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


async def answer(interaction: discord.Interaction[Any], *, edit: bool, **payload: Any) -> bool:
    """Answer privately: by editing the person's own message (a page turned, a step taken), or
    with a new ephemeral one. Nothing is saved by any of these, so a refused answer changes
    nothing: it is logged by its kind and the person can press again. False if refused."""
    allowed = payload.pop("allowed_mentions", NO_PINGS)
    files = payload.pop("files", None) or []
    try:
        if edit:
            # The message's files are replaced: a step without a picture drops the last one.
            payload.setdefault("attachments", files)
            await interaction.response.edit_message(allowed_mentions=allowed, **payload)
        else:
            payload.pop("attachments", None)
            if files:
                payload["files"] = files
            await interaction.response.send_message(ephemeral=True, allowed_mentions=allowed, **payload)
        return True
    except (discord.HTTPException, OSError) as error:
        failure = classify(error)
        if failure is Failure.INTERACTION_GONE:
            log.info("a board answer came too late for Discord: %s", error)
        else:
            log.warning("a board answer was refused (%s): %s", failure.value, error)
        return False


async def say(interaction: discord.Interaction[Any], text: str, *, edit: bool = False) -> bool:
    """A short private answer (a refusal, a reason), with the buttons of an edited message gone."""
    if edit:
        return await answer(interaction, edit=True, content=text, embed=None, view=None, attachments=[])
    return await answer(interaction, edit=False, content=text)


async def acknowledge(interaction: discord.Interaction[Any], *, edit: bool) -> bool:
    """Before a write that may wait for the database's turn: acknowledge the click, so Discord's
    3 seconds never decide the outcome. False (and nothing done) if even that was refused."""
    try:
        await (interaction.response.defer() if edit else interaction.response.defer(ephemeral=True))
        return True
    except (discord.HTTPException, OSError) as error:
        log.info("could not acknowledge a confirmation (%s): nothing done", classify(error).value)
        return False


async def settle(interaction: discord.Interaction[Any], text: str, *, edit: bool) -> None:
    """Say how an acknowledged confirmation ended, its buttons gone. What was done stands whether
    or not this lands (the person can look: /leaderboard, /stats)."""
    try:
        if edit:
            await interaction.edit_original_response(content=text, view=None, allowed_mentions=NO_PINGS)
        else:
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
    except (discord.HTTPException, OSError) as error:
        log.info("could not tell how a confirmation ended (%s): %s", classify(error).value, error)


DISMISS_ID = re.compile(r"bx:(?P<what>[a-z]{1,16})")


class Dismiss(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=DISMISS_ID.pattern):
    """Cancel under a confirmation: says nothing changed and takes the buttons away."""

    def __init__(self, what: str = "cancel", label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or T.pgettext("button", "Cancel"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"bx:{what}",
            )
        )
        self.what = what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Dismiss:
        return cls(match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await say(interaction, T.gettext("Cancelled: nothing changed."), edit=is_ephemeral(interaction))
