"""Changes to standings outside any table: a new season, a person forgotten, a table message
deleted. Each is one transaction, taking its turn with every other write (``Database.writer``).

(Reading them is ``db/standings.py``, whose ``Standings`` the bot holds; it has these too.)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from db.engine import Database
from db.models import (
    LIVE_STATUSES,
    ActionRow,
    Game,
    PersonSettings,
    PlayerStats,
    ResultRow,
    Season,
    SeasonStanding,
    Seat,
    utcnow,
)
from db.ratings import season_sigma, shown_rating

# What a forgotten person's seat is stored as in the games they played: a marker, not their
# name, worded "former player" in the reader's language when shown (cogs/table/model.py).
FORGOTTEN_NAME = "former player"  # text: a stored marker, worded when shown


class SeasonRace(Exception):
    """Another manager started the same season at the same moment; nothing was changed here."""


def aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes even for timezone-aware columns; we store UTC only.
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


class StandingChanges:
    def __init__(self, database: Database) -> None:
        self.db = database

    async def new_season(
        self, guild_id: int, games: Sequence[str], by: int | None, asked_at: datetime
    ) -> list[tuple[str, int]]:
        """Start the next season of each game: archive its standings as they are, then start
        everyone again from their rating with σ raised (``season_sigma``); all-time counts stay.

        One transaction. A game whose current season began at or after ``asked_at`` is left
        alone: the confirm button was pressed twice, or another manager was quicker. Returns the
        (game, new season number) pairs started. SeasonRace if another process started the same
        season number at the same moment (nothing changed)."""
        started: list[tuple[str, int]] = []
        now = max(utcnow(), asked_at)
        try:
            async with self.db.writer(), self.db.sessions() as session, session.begin():
                for game in games:
                    latest = (
                        await session.execute(
                            select(Season.number, Season.started_at)
                            .where(Season.guild_id == guild_id, Season.game == game)
                            .order_by(Season.number.desc())
                            .limit(1)
                        )
                    ).first()
                    number = latest[0] if latest is not None else 1
                    if latest is not None and (aware(latest[1]) or now) >= asked_at:
                        continue
                    await self._archive(session, guild_id, game, number)
                    session.add(
                        Season(guild_id=guild_id, game=game, number=number + 1, started_at=now, started_by=by)
                    )
                    started.append((game, number + 1))
        except IntegrityError as error:
            raise SeasonRace from error
        return started

    async def _archive(self, session: Any, guild_id: int, game: str, number: int) -> None:
        # Lock in user id order, as the results write does, so the two never deadlock.
        where = (PlayerStats.guild_id == guild_id, PlayerStats.game == game)
        locked = list(
            await session.scalars(
                select(PlayerStats).where(*where).order_by(PlayerStats.user_id).with_for_update()
            )
        )
        ranked = sorted(
            (r for r in locked if r.games > 0),
            key=lambda r: (
                shown_rating(r.mu, r.sigma, r.total_games).provisional,
                -r.mu,
                -r.wins,
                r.user_id,
            ),
        )
        if ranked:
            await session.execute(
                insert(SeasonStanding),
                [
                    {
                        "guild_id": guild_id,
                        "game": game,
                        "season": number,
                        "user_id": r.user_id,
                        "place": place,
                        "name": r.name,
                        "games": r.games,
                        "wins": r.wins,
                        "points": r.points,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "total_games": r.total_games,
                    }
                    for place, r in enumerate(ranked, 1)
                ],
            )
        for r in locked:
            await session.execute(
                update(PlayerStats)
                .where(*where, PlayerStats.user_id == r.user_id)
                .values(games=0, wins=0, points=0, sigma=season_sigma(r.sigma))
                .execution_options(synchronize_session=False)
            )

    async def message_gone(self, message_ids: Sequence[int] = (), channel_id: int | None = None) -> int:
        """Finished games whose table message (or its whole channel) was deleted stop linking to
        it. A cheap read first: nearly every deleted message in a server is not one of ours.
        Returns how many games changed."""
        if channel_id is not None:
            mine: Any = Game.channel_id == channel_id
        elif message_ids:
            mine = Game.table_message_id.in_(list(message_ids))
        else:
            return 0
        where = (mine, Game.table_message_id.is_not(None), Game.status.not_in(LIVE_STATUSES))
        async with self.db.sessions() as session:
            found = await session.scalar(select(func.count()).select_from(Game).where(*where))
        if not found:
            return 0
        async with self.db.writer(), self.db.sessions() as session, session.begin():
            await session.execute(
                update(Game)
                .where(*where)
                .values(table_message_id=None)
                .execution_options(synchronize_session=False)
            )
        return int(found)

    # --- a person's data ----------------------------------------------------------------------

    async def forget(self, guild_id: int, user_id: int) -> int:
        """Delete a person's standings here (every game, every season) and take their name and id
        off the finished games they played; the seats and everyone else's results stay. The
        public log kept with each of those games (the table message's last lines, which name
        people) is emptied too: nothing reads a finished game's log, and replays write their
        lines afresh from the seats. Tables still being played are left alone: a game in
        progress needs its players. Returns how many finished games they were taken off."""
        finished = select(Game.id).where(Game.guild_id == guild_id, Game.status.not_in(LIVE_STATUSES))
        async with self.db.writer(), self.db.sessions() as session, session.begin():
            played = list(
                await session.scalars(
                    select(Seat.game_id).where(Seat.game_id.in_(finished), Seat.user_id == user_id).distinct()
                )
            )
            await session.execute(
                delete(PlayerStats).where(PlayerStats.guild_id == guild_id, PlayerStats.user_id == user_id)
            )
            await session.execute(
                delete(SeasonStanding).where(
                    SeasonStanding.guild_id == guild_id, SeasonStanding.user_id == user_id
                )
            )
            await session.execute(
                update(Seat)
                .where(Seat.game_id.in_(played), Seat.user_id == user_id)
                .values(user_id=None, name=FORGOTTEN_NAME)
                .execution_options(synchronize_session=False)
            )
            await session.execute(
                update(Game)
                .where(Game.id.in_(played))
                .values(log=[])
                .execution_options(synchronize_session=False)
            )
            await session.execute(
                update(ResultRow)
                .where(ResultRow.game_id.in_(finished), ResultRow.user_id == user_id)
                .values(user_id=None)
                .execution_options(synchronize_session=False)
            )
            await session.execute(
                update(ActionRow)
                .where(ActionRow.game_id.in_(finished), ActionRow.actor_id == user_id)
                .values(actor_id=None)
                .execution_options(synchronize_session=False)
            )
            await session.execute(
                update(Game)
                .where(Game.id.in_(finished), Game.host_id == user_id)
                .values(host_id=0)
                .execution_options(synchronize_session=False)
            )
            # Their language for what only they see (`/settings my-language`) is theirs too.
            await session.execute(delete(PersonSettings).where(PersonSettings.user_id == user_id))
            return len(played)
