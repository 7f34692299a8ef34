"""Forgetting a person in one server: what `/stats forget` removes, and when.

Complete: after it, the person's Discord id and chosen name are in no row here. Their standings
(every game, every season, archived ones included) are deleted; the finished games they played
keep their seat, with no id and the stored marker FORGOTTEN_NAME for a name (shown "former
player"), so everyone else's results, replays and rematches keep their shape. Their id also
goes from results, action rows (who clicked), games they hosted and seasons they started, and
their chosen language (kept per person, so it goes whichever server they are forgotten in). Latest
lines are stored as data with seat numbers (cogs/table/latest.py), so they follow the seat; lines
stored as sentences by older versions may hold names, so those are dropped from the games they
played.

Fair: a game in progress rates its players as they stood when it began. So a person seated at a
game in progress (or in a lobby) is not forgotten yet: a ForgetRequest row waits, and the
transaction that ends their last such table forgets them (``settle``).

Atomic: forgetting a person and ending a game they sit at take the same lock per person
(``lock_people``) before anything else, so one of the two goes first and the other sees all of
it: never half-forgotten. On PostgreSQL that is a transaction-level advisory lock; on SQLite the
file's one write lock, taken before the first read.

Every function here runs Core statements on the caller's connection (or session), inside its
transaction.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, false, func, insert, select, text, update

from db.models import (
    LIVE_STATUSES,
    ActionRow,
    ForgetRequest,
    Game,
    PersonSettings,
    PlayerStats,
    ResultRow,
    Season,
    SeasonStanding,
    Seat,
)

# What a forgotten person's seat is stored as in the games they played: a marker, not their
# name, worded "former player" in the reader's language when shown (cogs/table/model.py).
FORGOTTEN_NAME = "former player"  # text: a stored marker, worded when shown

# The advisory lock namespace of "one person in one server" (two-key form: its keys never meet
# the one-key shard locks of db/ownership.py, and this first key is not the shard count's).
PERSON_LOCKS = 0x5245_4602


def _dialect(connection: Any) -> str:
    # An AsyncConnection names its dialect; an AsyncSession (also accepted) through its bind.
    found = getattr(connection, "dialect", None) or connection.get_bind().dialect
    return str(found.name)


def _person_key(guild_id: int, user_id: int) -> int:
    # 32 bits for the lock's second key; two people sharing one only ever wait for each other.
    key = zlib.crc32(f"{guild_id}:{user_id}".encode())
    return key - (1 << 32) if key >= 1 << 31 else key


async def lock_people(connection: Any, guild_id: int, user_ids: Iterable[int | None]) -> None:
    """Hold each person's lock until the transaction ends (PostgreSQL), taken in key order so
    that two transactions locking the same people queue instead of deadlocking."""
    dialect = _dialect(connection)
    if dialect == "sqlite":
        # The file's write lock, now: Python's sqlite3 starts a transaction only at the first
        # write, so the reads before it would see the other side's rows as of before its commit.
        # (In one process writers also take turns, Database.writer; this covers two processes.)
        await connection.execute(update(ForgetRequest).where(false()).values(user_id=ForgetRequest.user_id))
        return
    if dialect != "postgresql":
        return
    keys = sorted({_person_key(guild_id, uid) for uid in user_ids if uid is not None})
    for key in keys:
        await connection.execute(
            text("SELECT pg_advisory_xact_lock(:ns, :key)"), {"ns": PERSON_LOCKS, "key": key}
        )


async def games_in_play(connection: Any, guild_id: int, user_id: int) -> int:
    """How many tables here that have not ended seat the person: games in progress (as a
    player, or a seat they left that a computer plays on: it is still rated as theirs), and
    lobbies (which become games, or end as cancelled tables that would keep the seat)."""
    return int(
        await connection.scalar(
            select(func.count(func.distinct(Seat.game_id)))
            .select_from(Seat)
            .join(Game, Game.id == Seat.game_id)
            .where(Game.guild_id == guild_id, Game.status.in_(LIVE_STATUSES), Seat.user_id == user_id)
        )
        or 0
    )


async def ask(connection: Any, guild_id: int, user_id: int) -> tuple[int, int]:
    """`/stats forget` confirmed: forget the person now, or once their games in progress end.
    Returns (finished games they were taken off, games in progress that they wait for)."""
    await lock_people(connection, guild_id, [user_id])
    playing = await games_in_play(connection, guild_id, user_id)
    if playing:
        waiting = await connection.scalar(
            select(func.count())
            .select_from(ForgetRequest)
            .where(ForgetRequest.guild_id == guild_id, ForgetRequest.user_id == user_id)
        )
        if not waiting:
            await connection.execute(insert(ForgetRequest).values(guild_id=guild_id, user_id=user_id))
        return 0, playing
    return await forget_now(connection, guild_id, user_id), 0


def _without_sentences(lines: list[Any]) -> list[Any]:
    # Lines stored as data name nobody; a line stored as a sentence (older versions) may.
    return [line for line in lines if not isinstance(line, str)]


async def forget_now(connection: Any, guild_id: int, user_id: int) -> int:
    """Take the person off every row here (see the module docstring). Returns how many finished
    games they were seated at. The caller holds their lock (``lock_people``)."""
    finished = select(Game.id).where(Game.guild_id == guild_id, Game.status.not_in(LIVE_STATUSES))
    played = list(
        (
            await connection.execute(
                select(Seat.game_id).where(Seat.game_id.in_(finished), Seat.user_id == user_id).distinct()
            )
        ).scalars()
    )
    await connection.execute(
        delete(PlayerStats).where(PlayerStats.guild_id == guild_id, PlayerStats.user_id == user_id)
    )
    await connection.execute(
        delete(SeasonStanding).where(SeasonStanding.guild_id == guild_id, SeasonStanding.user_id == user_id)
    )
    await connection.execute(
        delete(ForgetRequest).where(ForgetRequest.guild_id == guild_id, ForgetRequest.user_id == user_id)
    )
    if played:
        await connection.execute(
            update(Seat)
            .where(Seat.game_id.in_(played), Seat.user_id == user_id)
            .values(user_id=None, name=FORGOTTEN_NAME)
        )
        for game_id, lines in (
            await connection.execute(select(Game.id, Game.log).where(Game.id.in_(played)))
        ).all():
            kept = _without_sentences(list(lines or []))
            if kept != list(lines or []):
                await connection.execute(update(Game).where(Game.id == game_id).values(log=kept))
        for action_id, added in (
            await connection.execute(
                select(ActionRow.id, ActionRow.log).where(
                    ActionRow.game_id.in_(played), ActionRow.log.is_not(None)
                )
            )
        ).all():
            lines = list((added or {}).get("lines") or [])
            kept = _without_sentences(lines)
            if kept != lines:
                await connection.execute(
                    update(ActionRow).where(ActionRow.id == action_id).values(log={**added, "lines": kept})
                )
    await connection.execute(
        update(ResultRow)
        .where(ResultRow.game_id.in_(finished), ResultRow.user_id == user_id)
        .values(user_id=None)
    )
    await connection.execute(
        update(ActionRow)
        .where(ActionRow.game_id.in_(finished), ActionRow.actor_id == user_id)
        .values(actor_id=None)
    )
    await connection.execute(
        update(Game).where(Game.id.in_(finished), Game.host_id == user_id).values(host_id=0)
    )
    await connection.execute(
        update(Season)
        .where(Season.guild_id == guild_id, Season.started_by == user_id)
        .values(started_by=None)
    )
    # Their language for what only they see (`/settings my-language`) is theirs too.
    await connection.execute(delete(PersonSettings).where(PersonSettings.user_id == user_id))
    return len(played)


async def people_at(connection: Any, game_id: int) -> tuple[int, list[int]]:
    """The server of a game and the people seated at it (those who left included)."""
    guild_id = await connection.scalar(select(Game.guild_id).where(Game.id == game_id))
    users = (
        await connection.execute(
            select(Seat.user_id).where(Seat.game_id == game_id, Seat.user_id.is_not(None)).distinct()
        )
    ).scalars()
    return int(guild_id or 0), [int(u) for u in users]


async def settle(connection: Any, guild_id: int, user_ids: Iterable[int | None]) -> list[int]:
    """A game of these people just ended (in this transaction, which holds their locks): forget
    those who asked to be and have no other game in progress here. Returns who was forgotten."""
    people = sorted({uid for uid in user_ids if uid is not None})
    if not people:
        return []
    asked = (
        await connection.execute(
            select(ForgetRequest.user_id).where(
                ForgetRequest.guild_id == guild_id, ForgetRequest.user_id.in_(people)
            )
        )
    ).scalars()
    forgotten = []
    for uid in list(asked):
        if not await games_in_play(connection, guild_id, uid):
            await forget_now(connection, guild_id, uid)
            forgotten.append(int(uid))
    return forgotten
