"""The schema: tables, seats, the append-only action log, signals, results and per-guild standings.

Kept to portable SQL (no SQLite-only types or functions) so PostgreSQL via DATABASE_URL needs no
rewrite: Discord snowflakes are BigInteger, documents are JSON, times are timezone-aware.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Explicit constraint names keep Alembic's batch mode (SQLite) and PostgreSQL migrations identical.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

LIVE_STATUSES = ("lobby", "playing")


# What "now" is for the times the database keeps. The wall clock, except in the offline mode,
# where Discord is simulated with its own clock and the database must keep the same time, or
# /history says "in 47 weeks" and a replay "played" on a day the page has not reached
# (cogs/offline.py sets it; ``use_clock``).
_clock: Callable[[], datetime] | None = None


def utcnow() -> datetime:
    return _clock() if _clock is not None else datetime.now(UTC)


def use_clock(clock: Callable[[], datetime] | None) -> None:
    """Read "now" from ``clock`` (None: the wall clock again)."""
    global _clock
    _clock = clock


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class GuildSettings(Base):
    __tablename__ = "guild_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    # Table speed used when /…new is given none ("relaxed" if unset).
    default_speed: Mapped[str | None] = mapped_column(String(16))
    # Whether games with computer players change OpenSkill ratings in this server.
    rate_computer_games: Mapped[bool] = mapped_column(default=True, server_default=true())
    # The language new tables speak here (`/settings language`; cogs.texts.LANGUAGES); None: the
    # server's Discord language, else English.
    language: Mapped[str | None] = mapped_column(String(16))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Game(Base):
    """One table: its lobby, then the game in progress, then the finished record."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    game: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # lobby | playing | finished | cancelled
    host_id: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    speed: Mapped[str] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    # What the channel reads (the table message, posts, pings, results) is in this language
    # (cogs.texts.LANGUAGES); None on rows from before 0006: English.
    language: Mapped[str | None] = mapped_column(String(16))
    # The engine's to_json() at version ``state_version`` (the latest snapshot; None while in the
    # lobby). Not rewritten by every action: the actions after it rebuild the current state
    # (db/snapshots.py), and Store hands out rows with ``state`` already brought up to date.
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The version ``state`` is of; None (rows written before 0005): the current ``version``.
    state_version: Mapped[int | None] = mapped_column(Integer)
    # Bumped by every accepted change; buttons carry it so stale clicks are recognised.
    version: Mapped[int] = mapped_column(Integer, default=0)
    # The table message; for a finished game, None once it was deleted (so history links only to
    # messages that still exist).
    table_message_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    # The one pending engine timer (stall, idle leader, next round) survives restarts here.
    deadline_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    deadline_action: Mapped[str | None] = mapped_column(String(64))
    # Recent public events, newest last, so the table message looks the same after a restart.
    # Written with each snapshot, as of ``state_version``; the actions' own lines bring it up to
    # date (Store hands out rows with ``log`` current, as it does ``state``).
    log: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The latest change that was not a plain action (a snapshot, seats, the end); an action's time
    # is on its own row (actions.created_at).
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    seats: Mapped[list[Seat]] = relationship(
        # text: a schema name
        back_populates="game_row",
        order_by="Seat.seat",
        cascade="all, delete-orphan",
        lazy="selectin",
    )

    __table_args__ = (
        # One live table per channel or thread; finished ones do not count.
        Index(
            "uq_games_live_channel",
            "channel_id",
            unique=True,
            sqlite_where=text("status IN ('lobby', 'playing')"),
            postgresql_where=text("status IN ('lobby', 'playing')"),
        ),
        Index("ix_games_status", "status"),
    )


class Seat(Base):
    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    # The person who sat here (kept after they leave, for their record); None for a computer seat.
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    # Set when a computer plays this seat: from the start, or since its person left.
    computer_level: Mapped[str | None] = mapped_column(String(16))
    team: Mapped[int | None] = mapped_column(Integer)
    # Send this player's hand by DM instead of an ephemeral panel.
    prefers_dm: Mapped[bool] = mapped_column(default=False, server_default=false())
    left_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    game_row: Mapped[Game] = relationship(back_populates="seats")

    # text: a schema name
    __table_args__ = (UniqueConstraint("game_id", "seat", name="uq_seats_game_seat"),)


class ActionRow(Base):
    """Append-only: every accepted action, in order. (options, seed, actions) rebuild a game."""

    __tablename__ = "actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)  # None: the referee (stall, idle, timers)
    action: Mapped[str] = mapped_column(String(64))
    actor_id: Mapped[int | None] = mapped_column(BigInteger)  # the user who clicked, if any
    # The public lines this action added to the table's Latest ({"lines": [...], "fresh": bool};
    # None if none): the games row stores its log only with a snapshot (db/snapshots.py).
    log: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    # text: a schema name
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),)


class Signal(Base):
    """A secret signal choice (Zap or Trap): stored, never checked, revealed at the end."""

    __tablename__ = "signals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    team: Mapped[int | None] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    gesture: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ResultRow(Base):
    """A seat's place and points in a finished game; for a person, their rating before and after
    it (what the results message and /history show as "1523 (+18)")."""

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    computer_level: Mapped[str | None] = mapped_column(String(16))
    place: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    # None for computer seats, and for games recorded before ratings were kept per game.
    mu_before: Mapped[float | None] = mapped_column(Float)
    sigma_before: Mapped[float | None] = mapped_column(Float)
    mu_after: Mapped[float | None] = mapped_column(Float)
    sigma_after: Mapped[float | None] = mapped_column(Float)
    # The person's rated games in this game here, this one included (decides the "?" mark).
    rated_games: Mapped[int | None] = mapped_column(Integer)


class PlayerStats(Base):
    """Per guild, per game, per person: the current season's standing, the OpenSkill rating, and
    the all-time counts a new season leaves alone."""

    __tablename__ = "player_stats"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(100))
    # This season.
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    # All time (every season).
    total_games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    total_wins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    total_points: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Season(Base):
    """A season of one game in one server, from ``started_at`` until the next one starts. A game
    with no row here is in season 1, which began with its first finished game."""

    __tablename__ = "seasons"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_by: Mapped[int | None] = mapped_column(BigInteger)


class SeasonStanding(Base):
    """A finished season's standings as they stood when the next season began ("Season N")."""

    __tablename__ = "season_standings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    season: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    place: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    total_games: Mapped[int] = mapped_column(Integer)


class PersonSettings(Base):
    """A person's own choices, wherever they play: the language of what only they see
    (`/settings my-language`). No row: follow their Discord client's language."""

    __tablename__ = "person_settings"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    language: Mapped[str | None] = mapped_column(String(16))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ShardLease(Base):
    """Which process plays the tables of a Discord shard, under which shard count (on SQLite;
    PostgreSQL uses advisory locks). A lease is renewed by its owner's heartbeat; one that ran
    out may be taken over."""

    __tablename__ = "shard_leases"

    shard_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    owner: Mapped[str] = mapped_column(String(200))
    # The SHARD_COUNT the owner runs under: a process with another count is refused, since the
    # same guild has a different shard number under each count. NULL on leases written before
    # the count was recorded (nothing is known of those; they run out on their own).
    shard_count: Mapped[int | None] = mapped_column(Integer)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


__all__ = [
    "LIVE_STATUSES",
    "ActionRow",
    "Base",
    "Game",
    "GuildSettings",
    "PersonSettings",
    "PlayerStats",
    "ResultRow",
    "Season",
    "SeasonStanding",
    "Seat",
    "ShardLease",
    "Signal",
    "use_clock",
    "utcnow",
]
