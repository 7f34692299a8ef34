"""`/settings language` (a server's language for new tables; server managers) and `/settings
my-language` (a person's own language for what only they see). Whose language is used where is
cogs/table/languages.py; both answer in the language just chosen, so the person sees it at once.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.table.common import NOT_SAVED, reply
from cogs.table.languages import Languages, client_language
from cogs.table.lifecycle import LANGUAGE_CHOICES
from cogs.texts import LANGUAGES, Texts, speaking

log = logging.getLogger(__name__)
T = Texts(__name__)

# `/settings my-language`'s choice to follow the Discord client again (no choice stored).
FOLLOW_DISCORD = "discord"
MY_CHOICES = [
    app_commands.Choice(name=locale_str("Discord's language"), value=FOLLOW_DISCORD),
    *LANGUAGE_CHOICES,
]


def may_set_server_language(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, in the channel asked from (Discord computes it, owners and admins included)."""
    return bool(interaction.permissions.manage_guild)


class SettingsCog(commands.Cog):
    settings = app_commands.Group(
        # Translators: a slash command's name: lowercase letters, no spaces.
        name=locale_str("settings"),
        description=locale_str("How the referee speaks, to you and in this server"),
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @property
    def languages(self) -> Languages:
        return self.bot.referee.languages  # type: ignore[no-any-return]

    @settings.command(
        # Translators: a slash command's name: lowercase letters and "-", no spaces.
        name=locale_str("language"),
        description=locale_str("The language new tables in this server speak (server managers)"),
    )
    @app_commands.describe(
        language=locale_str("Leave it empty to follow the server's Discord language again"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.guild_only()
    async def server_language(
        self, interaction: discord.Interaction[Any], language: str | None = None
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply(interaction, T.gettext("The server's language can only be set in a server."))
            return
        if not may_set_server_language(interaction):
            await reply(
                interaction,
                T.gettext(
                    "Only server managers (Manage Server) can set the server's language, so nothing changed."
                ),
            )
            return
        try:
            await self.languages.set_guild(guild_id, language)
        except Exception:
            log.exception("could not store guild %s's language", guild_id)
            await reply(interaction, T.gettext(NOT_SAVED))
            return
        now = self.languages.server(interaction)
        with speaking(now):  # said in the server's language as it is now
            if language is None:
                text = T.gettext(
                    "This server no longer has a language of its own: new tables speak the server's "
                    "Discord language, {language}. Tables already open keep theirs.",
                    language=LANGUAGES[now],
                )
            else:
                text = T.gettext(
                    "New tables in this server speak {language}. Tables already open keep theirs, and "
                    "`language` on `/… new` still picks another for one table. What only one person "
                    "sees follows that person's language.",
                    language=LANGUAGES[now],
                )
            await reply(interaction, text)

    @settings.command(
        # Translators: a slash command's name: lowercase letters and "-", no spaces.
        name=locale_str("my-language"),
        description=locale_str("The language the referee speaks to you (panels, answers, /help)"),
    )
    @app_commands.describe(language=locale_str("Discord's language: follow your Discord app's language"))
    @app_commands.choices(language=MY_CHOICES)
    async def my_language(self, interaction: discord.Interaction[Any], language: str) -> None:
        chosen = language if language in LANGUAGES else None
        try:
            await self.languages.set_person(interaction.user.id, chosen)
        except Exception:
            log.exception("could not store a person's language")
            await reply(interaction, T.gettext(NOT_SAVED))
            return
        table = self.bot.referee.table_in(interaction.channel_id)
        now = self.languages.of_interaction(interaction, table)
        with speaking(now):  # said in the language it will speak to them from now on
            if chosen is None:
                client = client_language(interaction, "locale")
                if client is None:
                    text = T.gettext(
                        "I follow your Discord language again. I don't speak it yet, so I speak "
                        "{language} to you. Tables speak their own language.",
                        language=LANGUAGES[now],
                    )
                else:
                    text = T.gettext(
                        "I follow your Discord language again: {language}, in your panels, answers and "
                        "/help. Tables speak their own language.",
                        language=LANGUAGES[now],
                    )
            else:
                text = T.gettext(
                    "From now on I speak {language} to you, whatever your Discord language: in your panels, "
                    "answers and /help. Tables speak their own language.",
                    language=LANGUAGES[now],
                )
            await reply(interaction, text)


async def setup(bot: Any) -> None:
    await bot.add_cog(SettingsCog(bot))
