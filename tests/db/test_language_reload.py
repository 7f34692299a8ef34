"""A language chosen through one process reaches another that shares the database (issue 31's
note: with several processes, `/settings my-language` reached the others only at their restart).

Two ``Languages`` on one real database stand for two bot processes; the bot reloads the stored
choices every ``RELOAD_EVERY`` where several processes may share the database (bot.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from cogs.table.languages import RELOAD_EVERY, Languages
from db.engine import Database
from db.languages import LanguageChoices


async def test_a_choice_made_through_another_process_is_seen_after_a_reload(database_url: str) -> None:
    """Seen failing with ``load`` keeping what it read first (the reload a no-op): B went on
    drawing for alice in her client's language."""
    database = Database(database_url)
    try:
        a, b = Languages(LanguageChoices(database)), Languages(LanguageChoices(database))
        await a.load()
        await b.load()
        await a.set_person(11, "pl")
        await a.set_guild(1, "de")
        assert b.person(11, "en") == "en", "B has not reloaded yet"
        await b.load()
        assert b.person(11, "en") == "pl" and b.guilds == {1: "de"}
        # Back to Discord's language through A: B follows at its next reload.
        await a.set_person(11, None)
        await b.load()
        assert b.person(11, "en") == "en"
        assert 0 < RELOAD_EVERY <= 120, "within a couple of minutes, not at the next restart"
    finally:
        await database.dispose()


async def test_a_reload_never_puts_back_a_choice_older_than_one_made_here(database_url: str) -> None:
    """A reload that read the database while this process stored a new choice would put the old
    one back until the next reload; it is dropped instead. Seen failing without the change count
    (``_changes``): alice's new "es" became "pl" again."""
    database = Database(database_url)
    try:
        choices = LanguageChoices(database)
        here = Languages(choices)
        await here.set_person(11, "pl")
        read = asyncio.Event()
        go_on = asyncio.Event()
        real_load = choices.load

        async def slow_load() -> Any:
            found = await real_load()  # the database as it was: "pl"
            read.set()
            await go_on.wait()
            return found

        choices.load = slow_load  # type: ignore[method-assign]
        reload = asyncio.create_task(here.load())
        await read.wait()
        choices.load = real_load  # type: ignore[method-assign]
        await here.set_person(11, "es")  # made while the reload's read was on its way
        go_on.set()
        await reload
        assert here.person(11, "en") == "es"
        await here.load()  # the next reload reads it from the database
        assert here.person(11, "en") == "es"
    finally:
        await database.dispose()
