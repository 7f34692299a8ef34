"""Whose language a text is made in: the reader's.

- What only one person sees (their panel, a refusal, an ephemeral answer, a DM) is in *their*
  language: their own choice (`/settings my-language`), else their Discord client's
  (``interaction.locale``), else the table's (or the server's, where there is no table), else
  English. A panel redrawn later, with no interaction at hand, uses their choice or the client
  language remembered from their last interaction.
- What the channel sees (the table message, posts, pings, results) is in the *table's* language,
  chosen when it was opened: the `language` option of `/… new`, else the server's (`/settings
  language`), else the server's Discord language (``interaction.guild_locale``), else English.

Each interaction runs in a task of its own (discord.py makes one per interaction), so the
person's language is set once for the whole task where the interaction comes in (``speak_to``:
the command tree's check, and every button's through ``Spoken``). Public drawings never rely on
that: they say ``speaking(table.language)`` themselves, wherever they are made, since a click
sets off the table's posts and the scheduler runs jobs in the context they were booked from.

The choices are kept in memory (loaded at start-up, changed by `/settings`), as drawings ask
without awaiting. With several processes, a person's choice made in one reaches the others at
their next start; the client language still follows each interaction.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.table.model import Table
from cogs.texts import LANGUAGES, SOURCE, speak
from cogs.texts.commands import language_of
from db.languages import LanguageChoices

log = logging.getLogger(__name__)

# Seconds between reloads of the stored choices where several processes share the database: a
# `/settings` choice made through one reaches the others' drawings within this.
RELOAD_EVERY = 60.0


class Languages:
    def __init__(self, choices: LanguageChoices | None) -> None:
        self.choices = choices
        self.guilds: dict[int, str] = {}  # `/settings language`
        self.people: dict[int, str] = {}  # `/settings my-language`
        # Each person's Discord client language, as their last interaction said (None: one the
        # referee does not speak), for what is drawn for them with no interaction at hand.
        self.seen: dict[int, str | None] = {}
        # Choices made in this process, counted: a reload that read the database while one was
        # being made would put the older choice back, so it is dropped (the next one sees it).
        self._changes = 0

    async def load(self) -> None:
        """Read every stored choice: at start, and then every RELOAD_EVERY where several
        processes may share the database (a choice made through another one)."""
        if self.choices is None:
            return
        started = self._changes
        guilds, people = await self.choices.load()
        if self._changes == started:
            self.guilds, self.people = guilds, people

    # --- what is drawn for one person ----------------------------------------------------------

    def person(self, user_id: int | None, fallback: str) -> str:
        """A person's language with no interaction at hand: their choice, else their client's as
        last seen, else ``fallback`` (the table's)."""
        if user_id is None:
            return fallback
        return self.people.get(user_id) or self.seen.get(user_id) or fallback

    def seat(self, table: Table, seat: int) -> str:
        """The language of a seat's panel: its person's."""
        info = table.seats[seat] if 0 <= seat < len(table.seats) else None
        return self.person(info.user_id if info is not None else None, table.language)

    def of_interaction(self, interaction: discord.Interaction[Any], table: Table | None) -> str:
        """The language to answer this interaction's person in (and remember their client's)."""
        client = client_language(interaction, "locale")
        user_id = interaction.user.id
        self.seen[user_id] = client
        if own := self.people.get(user_id):
            return own
        if client is not None:
            return client
        if table is not None:
            return table.language
        return self.server(interaction)

    # --- what the channel sees ------------------------------------------------------------------

    def server(self, interaction: discord.Interaction[Any]) -> str:
        """A new table's language when `/… new` names none: the server's setting, else its Discord
        language (a Community server's), else English."""
        if interaction.guild_id is not None and (chosen := self.guilds.get(interaction.guild_id)):
            return chosen
        return client_language(interaction, "guild_locale") or SOURCE

    def new_table(self, interaction: discord.Interaction[Any], asked: str | None) -> str:
        return asked if asked in LANGUAGES else self.server(interaction)

    # --- changes --------------------------------------------------------------------------------

    async def set_guild(self, guild_id: int, language: str | None) -> None:
        self._changes += 1
        if self.choices is not None:
            await self.choices.set_guild(guild_id, language)
        if language is None:
            self.guilds.pop(guild_id, None)
        else:
            self.guilds[guild_id] = language

    async def set_person(self, user_id: int, language: str | None) -> None:
        self._changes += 1
        if self.choices is not None:
            await self.choices.set_person(user_id, language)
        if language is None:
            self.people.pop(user_id, None)
        else:
            self.people[user_id] = language

    def forgotten(self, user_id: int) -> None:
        """`/stats forget` deleted the person's stored choice (db/standing_changes.py)."""
        self._changes += 1
        self.people.pop(user_id, None)
        self.seen.pop(user_id, None)


def client_language(interaction: discord.Interaction[Any], which: str) -> str | None:
    """The referee's language for the interaction's ``locale`` (the person's Discord app) or
    ``guild_locale`` (a Community server's), None if it speaks neither or Discord sent none."""
    locale = getattr(interaction, which, None)
    return language_of(locale) if isinstance(locale, discord.Locale) else None


def speak_to(interaction: discord.Interaction[Any], table_id: int | None = None) -> str:
    """Make the rest of this interaction's task speak its person's language; returns it. The
    table it concerns (for a person whose Discord language the referee does not speak): the one
    a button names (``table_id``: a DM panel's is in no channel of it), else the channel's."""
    referee = getattr(interaction.client, "referee", None)
    languages: Languages | None = getattr(referee, "languages", None)
    if referee is None or languages is None:
        lang = client_language(interaction, "locale") or SOURCE
    else:
        table = referee.table_or_closed(table_id) if table_id is not None else None
        lang = languages.of_interaction(interaction, table or referee.table_in(interaction.channel_id))
    speak(lang)
    return lang


class Spoken:
    """Mixed into every button and select (DynamicItems): discord.py runs ``interaction_check``
    in the interaction's own task right before the callback, so what the callback says is in the
    clicker's language. It awaits nothing: the callback still takes the table's lock first."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        table_id = getattr(self, "table_id", None)  # the table's buttons name their table
        speak_to(interaction, table_id if isinstance(table_id, int) else None)
        return True
