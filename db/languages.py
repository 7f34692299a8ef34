"""Who speaks which language: a server's default for new tables (`/settings language`) and a
person's own (`/settings my-language`). A table's own language is on its ``games`` row.

Read whole at start-up (``load``: only the servers and people that chose one have a row) and
kept in memory by cogs/table/languages.py, since every drawing asks without awaiting.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite

from db.engine import Database
from db.models import GuildSettings, PersonSettings, utcnow


class LanguageChoices:
    def __init__(self, database: Database) -> None:
        self.db = database

    async def load(self) -> tuple[dict[int, str], dict[int, str]]:
        """(each server's language, each person's), for those that chose one."""
        async with self.db.sessions() as session:
            guilds = await session.execute(
                select(GuildSettings.guild_id, GuildSettings.language).where(
                    GuildSettings.language.is_not(None)
                )
            )
            people = await session.execute(
                select(PersonSettings.user_id, PersonSettings.language).where(
                    PersonSettings.language.is_not(None)
                )
            )
            return {g: lang for g, lang in guilds.all() if lang}, {
                p: lang for p, lang in people.all() if lang
            }

    async def person(self, user_id: int) -> str | None:
        async with self.db.sessions() as session:
            return await session.scalar(
                select(PersonSettings.language).where(PersonSettings.user_id == user_id)
            )

    async def set_guild(self, guild_id: int, language: str | None) -> None:
        """The server's default for new tables; None clears it (the server's Discord language)."""
        await self._upsert(GuildSettings, "guild_id", guild_id, language)

    async def set_person(self, user_id: int, language: str | None) -> None:
        """A person's own language; None removes their row (their Discord client's language)."""
        if language is None:
            await self.forget_person(user_id)
            return
        await self._upsert(PersonSettings, "user_id", user_id, language)

    async def forget_person(self, user_id: int) -> None:
        async with self.db.writer(), self.db.sessions() as session, session.begin():
            await session.execute(delete(PersonSettings).where(PersonSettings.user_id == user_id))

    async def _upsert(self, model: Any, key: str, value: int, language: str | None) -> None:
        row = {key: value, "language": language, "updated_at": utcnow()}
        async with self.db.writer(), self.db.sessions() as session, session.begin():
            dialect = session.get_bind().dialect.name
            insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
            statement = insert(model).values(row)
            await session.execute(
                statement.on_conflict_do_update(
                    index_elements=[key], set_={"language": language, "updated_at": row["updated_at"]}
                )
            )
