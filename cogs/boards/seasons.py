"""`/season new [game]`: a server manager starts a new season of one game, or of every game.

The command only asks; the confirm button under the (private) question does it, in one
transaction (``Standings.new_season``): the current standings are archived as "Season N" and
stay on `/leaderboard … season:N`, everyone carries their rating into the new season with σ
raised (``db.ratings.season_sigma``), all-time counts stay. The button carries the moment it
was asked, so a second press (or a second manager's) starts nothing more. The channel then gets
one short line saying the season began.
"""

from __future__ import annotations

import logging
import re
import time
from datetime import UTC, datetime
from typing import Any

import discord

from cogs.boards.common import (
    NO_PINGS,
    READ_FAILED,
    Dismiss,
    acknowledge,
    answer,
    confirmation_age,
    game_title,
    is_ephemeral,
    say,
    settle,
)
from cogs.table.buttons import view_of
from cogs.table.common import NOT_SAVED, is_manager
from cogs.table.failures import classify
from cogs.table.languages import Spoken
from cogs.texts import N_, Texts
from db.standings import SeasonRace
from rules import GAMES

log = logging.getLogger(__name__)
T = Texts(__name__)

SEASON_ID = re.compile(r"sn:(?P<game>[a-z0-9]{1,16}):(?P<at>\d{1,12})")
ALL = "all"
MANAGERS_ONLY = N_("Only server managers (Manage Server or Manage Channels) can start a season.")


def scope(game: str) -> list[str]:
    return list(GAMES) if game == ALL else [game]


async def ask(interaction: discord.Interaction[Any], game: str) -> None:
    """`/season new`: say exactly what will happen, then ask."""
    if interaction.guild_id is None:
        await say(interaction, T.gettext("Seasons belong to a server: use this in one of its channels."))
        return
    if not is_manager(interaction.user):
        await say(interaction, T.gettext(MANAGERS_ONLY))
        return
    standings = interaction.client.standings
    try:
        current = {key: await standings.seasons(interaction.guild_id, key) for key in scope(game)}
    except Exception:
        log.exception("could not read the seasons")
        await say(interaction, T.gettext(READ_FAILED))
        return
    if game == ALL:
        which = ", ".join(
            T.gettext("{game} → Season {season}", game=game_title(k), season=n + 1)
            for k, n in current.items()
        )
        lines = [T.gettext("**Start a new season of every game?** ({which})", which=which)]
        label = T.pgettext("button", "Start the new seasons")
    else:
        n = current[game]
        lines = [T.gettext("**Start Season {season} of {game}?**", season=n + 1, game=game_title(game))]
        label = T.pgettext("button", "Start Season {season}", season=n + 1)
    lines += [
        T.gettext(
            "• The standings as they are now are archived, and stay on `/leaderboard game:… season:<number>`."
        ),
        T.gettext(
            "• Everyone carries their rating into the new season, with more room to move: its "
            "uncertainty goes halfway back to a newcomer's, so the new season sorts itself out "
            "within a few games."
        ),
        T.gettext(
            "• This season's games, wins and points start again from 0; "
            "all-time counts stay in `/stats show`."
        ),
    ]
    items: list[discord.ui.Item[Any]] = [SeasonConfirm(game, int(time.time()), label), Dismiss()]
    await answer(interaction, edit=False, content="\n".join(lines), view=view_of(items))


class SeasonConfirm(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=SEASON_ID.pattern):
    """The confirm button: which game (or all), and when it was asked."""

    def __init__(self, game: str, asked_at: int, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or T.pgettext("button", "Start the new season"),
                style=discord.ButtonStyle.danger,
                custom_id=f"sn:{game}:{asked_at}",
            )
        )
        self.game, self.asked_at = game, asked_at

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeasonConfirm:
        return cls(match["game"], int(match["at"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        edit = is_ephemeral(interaction)
        guild_id = interaction.guild_id
        if guild_id is None or (self.game != ALL and self.game not in GAMES):
            await say(
                interaction, T.gettext("That isn't a season I can start, so nothing changed."), edit=edit
            )
            return
        if not is_manager(interaction.user):
            await say(interaction, T.gettext(MANAGERS_ONLY) + " " + T.gettext("Nothing changed."), edit=edit)
            return
        now = time.time()
        age = confirmation_age(self.asked_at, now)
        if age == "forged":
            log.warning("a season confirmation from the future (%s) was refused", self.asked_at)
            await say(
                interaction, T.gettext("That confirmation isn't one I sent, so nothing changed."), edit=edit
            )
            return
        if age == "old":
            await say(
                interaction,
                T.gettext("That question is old: use `/season new` again. Nothing changed."),
                edit=edit,
            )
            return
        if not await acknowledge(interaction, edit=edit):
            return
        # Never a season that begins later than now (the clocks of two processes may differ a little).
        asked = datetime.fromtimestamp(min(self.asked_at, now), UTC)
        try:
            started = await interaction.client.standings.new_season(
                guild_id, scope(self.game), interaction.user.id, asked
            )
        except SeasonRace:
            started = []
        except Exception:
            log.exception("could not start a season")
            await settle(interaction, T.gettext(NOT_SAVED), edit=edit)
            return
        if not started:
            await settle(
                interaction,
                T.gettext(
                    "That season has already begun (pressed twice, or another manager was quicker): "
                    "`/leaderboard` shows it."
                ),
                edit=edit,
            )
            return
        log.info("guild %s started %s", guild_id, ", ".join(f"{g} season {n}" for g, n in started))
        begun = ", ".join(
            T.gettext("**Season {season} of {game}**", season=n, game=game_title(g)) for g, n in started
        )
        archived = (
            f"`/leaderboard game:{game_title(started[0][0])} season:{started[0][1] - 1}`"  # text: a command
            if len(started) == 1
            else T.gettext("`/leaderboard game:… season:<number>`")
        )
        done = T.gettext(
            "Done: {begun} began. Last season's standings: {archived}.", begun=begun, archived=archived
        )
        await settle(interaction, done, edit=edit)
        try:  # a short public line, through the interaction (no channel permission needed)
            await interaction.followup.send(
                T.gettext(
                    "🏁 {begun} began. Last season's final standings: {archived}.",
                    begun=begun,
                    archived=archived,
                ),
                allowed_mentions=NO_PINGS,
            )
        except (discord.HTTPException, OSError) as error:
            log.info("could not announce a new season (%s): %s", classify(error).value, error)
