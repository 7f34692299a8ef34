"""`/leaderboard` and `/stats`: this server's standings, per game."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.common import NOBODY, markdown_name
from rules import GAMES

GAME_CHOICES = [app_commands.Choice(name=g.title, value=key) for key, g in GAMES.items()]


class StatsCog(commands.Cog):
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="This server's standings in a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        assert interaction.guild_id is not None
        rows = await self.bot.store.leaderboard(interaction.guild_id, game.value)
        embed = discord.Embed(title=f"{game.name} — leaderboard", colour=discord.Colour.gold())
        if not rows:
            embed.description = "No finished games yet. Start one with `/" + game.value + " new`."
        else:
            lines = [
                f"{i}. **{markdown_name(r.name)}** — rating {r.rating:.1f} · "
                f"{r.wins} wins / {r.games} games · {r.points} pts"
                for i, r in enumerate(rows, 1)
            ]
            embed.description = "\n".join(lines)
        embed.set_footer(
            text="Rating: OpenSkill, shown as mu − 3·sigma. Computer players count at a fixed strength."
        )
        await interaction.response.send_message(embed=embed, allowed_mentions=NOBODY)

    @app_commands.command(name="stats", description="A player's record in this server")
    @app_commands.describe(user="Whose record (you, if left empty)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction[Any], user: discord.Member | None = None) -> None:
        assert interaction.guild_id is not None
        who = user or interaction.user
        rows = await self.bot.store.player_stats(interaction.guild_id, who.id)
        name = markdown_name(who.display_name)
        embed = discord.Embed(title=f"{name} — record here", colour=discord.Colour.blurple())
        if not rows:
            embed.description = "No finished games in this server yet."
        for r in rows:
            title = GAMES[r.game].title if r.game in GAMES else r.game
            embed.add_field(
                name=title,
                value=f"{r.games} games · {r.wins} wins · {r.points} pts · rating {r.rating:.1f}",
                inline=False,
            )
        await interaction.response.send_message(embed=embed, allowed_mentions=NOBODY)


async def setup(bot: Any) -> None:
    await bot.add_cog(StatsCog(bot))
