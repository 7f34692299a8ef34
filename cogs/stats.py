"""`/leaderboard`, `/stats show|forget|export`, `/history`, `/replay` and `/season new`: this
server's standings, records, match history and replays. The commands only hand over to
``cogs/boards/``, where each part lives with its own buttons."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.boards import history, leaderboard, record, replay, seasons
from rules import GAMES

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=g.title, value=key) for key, g in GAMES.items()]
SEASON_CHOICES = [app_commands.Choice(name=locale_str("every game"), value=seasons.ALL), *GAME_CHOICES]


class StatsCog(commands.Cog):
    stats = app_commands.Group(
        name=locale_str("stats"), description=locale_str("Records in this server"), guild_only=True
    )
    season = app_commands.Group(
        name=locale_str("season"),
        description=locale_str("Leaderboard seasons in this server"),
        guild_only=True,
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(
        name=locale_str("leaderboard"), description=locale_str("This server's standings in a game")
    )
    # Translators: a slash command option's name: lowercase letters, digits, - or _, no spaces.
    @app_commands.rename(game=locale_str("game"), season=locale_str("season"))
    @app_commands.describe(
        game=locale_str("Which game"),
        season=locale_str("An earlier season's number (the current one if left empty)"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        season: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        await leaderboard.send_board(interaction, game.value, season)

    @stats.command(
        name=locale_str("show"), description=locale_str("A player's record per game here (only you see it)")
    )
    @app_commands.rename(user=locale_str("user"))
    @app_commands.describe(user=locale_str("Whose record (yours, if left empty)"))
    async def show(self, interaction: discord.Interaction[Any], user: discord.Member | None = None) -> None:
        await record.show(interaction, user)

    @stats.command(
        name=locale_str("forget"), description=locale_str("Delete your standings in this server (asks first)")
    )
    async def forget(self, interaction: discord.Interaction[Any]) -> None:
        await record.ask_to_forget(interaction)

    @stats.command(
        name=locale_str("export"),
        description=locale_str("This server's standings as a CSV file (server managers)"),
    )
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        await record.export(interaction)

    @app_commands.command(
        name=locale_str("history"), description=locale_str("A player's recent games here (only you see it)")
    )
    @app_commands.rename(user=locale_str("user"), game=locale_str("game"))
    @app_commands.describe(
        user=locale_str("Whose games (yours, if left empty)"), game=locale_str("Only this game")
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def history(
        self,
        interaction: discord.Interaction[Any],
        user: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        who = user or interaction.user
        key = game.value if game is not None else history.ALL
        await history.send_page(interaction, who.id, who.display_name, key, 1, edit=False)

    @app_commands.command(
        name=locale_str("replay"), description=locale_str("Watch a finished game again (only you see it)")
    )
    @app_commands.rename(number=locale_str("number"))
    @app_commands.describe(number=locale_str("The game's number, as /history shows it (#42)"))
    @app_commands.guild_only()
    async def replay(
        self, interaction: discord.Interaction[Any], number: app_commands.Range[int, 1, 10**15]
    ) -> None:
        await replay.show(interaction, number, 0, edit=False)

    @season.command(
        name=locale_str("new"), description=locale_str("Start a new season (server managers; asks first)")
    )
    @app_commands.rename(game=locale_str("game"))
    @app_commands.describe(game=locale_str("Which game (every game, if left empty)"))
    @app_commands.choices(game=SEASON_CHOICES)
    async def new_season(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None
    ) -> None:
        await seasons.ask(interaction, game.value if game is not None else seasons.ALL)

    # --- a finished game's table message going away ----------------------------------------
    # /history links each game to its final table message; once that is deleted (or its whole
    # channel), the link goes, so nobody follows it to "message not found".

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        await self._gone(message_ids=[payload.message_id])

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        await self._gone(message_ids=list(payload.message_ids))

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._gone(channel_id=channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._gone(channel_id=payload.thread_id)

    async def _gone(self, message_ids: list[int] | None = None, channel_id: int | None = None) -> None:
        try:
            await self.bot.standings.message_gone(message_ids or (), channel_id)
        except Exception:
            # Only a link is at stake: it stays until the next deletion event that reaches us.
            log.warning("could not forget a deleted table message", exc_info=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(StatsCog(bot))
