"""Changes to standings outside any table: a new season, a person forgotten, a table message
deleted. Each is one transaction, taking its turn with every other write (``Database.writer``).

(Reading them is ``db/standings.py``, whose ``Standings`` the bot holds; it has these too.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from db import forgetting
from db.engine import Database
from db.forgetting import FORGOTTEN_NAME
from db.models import (
    LIVE_STATUSES,
    Game,
    PlayerStats,
    Season,
    SeasonStanding,
    utcnow,
)
from db.ratings import season_sigma, shown_rating


@dataclass(frozen=True)
class Forgetting:
    """What a forget did: the finished games the person was taken off now, and the games in
    progress (nonzero: nothing was removed yet) whose end forgets them."""

    games: int
    waiting_for: int


__all__ = ["FORGOTTEN_NAME", "Forgetting", "SeasonRace", "StandingChanges", "aware"]


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

    async def forget(self, guild_id: int, user_id: int) -> Forgetting:
        """`/stats forget` confirmed (db/forgetting.py says what goes): now, in one transaction,
        or, when the person is seated at a game in progress, in the transaction that ends their
        last such game, so that game still rates them as they stood."""
        async with self.db.writer(), self.db.sessions() as session, session.begin():
            games, playing = await forgetting.ask(session, guild_id, user_id)
        return Forgetting(games, playing)
