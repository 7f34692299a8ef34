"""Win counts recounted from the results, so draws stored before they stopped counting as wins
agree with the rest (issue 33; migration 0007).

Until then the results write gave every seat of a draw (every seat first: a Trap draw, everyone
sharing the win) a win in ``player_stats`` and, at a season's end, in ``season_standings``; the
streaks and /history read the results and already said "a draw". The results rows are complete
(a finished game is never deleted), so each count is recounted from them: a win is a first place,
in a finished game someone else did not also finish first in, at a seat its person did not leave.

A count comes down by the draws the old write counted, but never below the recount: so a draw
recorded after the fix (already no win) is not taken off twice, running it again changes nothing,
and a count with no results behind it (none are deleted, but a hand-made row has none) stays.

Plain SQLAlchemy Core on a synchronous connection (Alembic's), with its own table shapes: the
ORM models may gain columns a migration at this point has not made yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

_games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("guild_id", sa.BigInteger),
    sa.column("game", sa.String),
    sa.column("status", sa.String),
    sa.column("finished_at", sa.DateTime(timezone=True)),
)
_results = sa.table(
    "results",
    sa.column("game_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("user_id", sa.BigInteger),
    sa.column("place", sa.Integer),
)
_seats = sa.table(
    "seats",
    sa.column("game_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("left_at", sa.DateTime),
)
_stats = sa.table(
    "player_stats",
    sa.column("guild_id", sa.BigInteger),
    sa.column("game", sa.String),
    sa.column("user_id", sa.BigInteger),
    sa.column("wins", sa.Integer),
    sa.column("total_wins", sa.Integer),
)
_seasons = sa.table(
    "seasons",
    sa.column("guild_id", sa.BigInteger),
    sa.column("game", sa.String),
    sa.column("number", sa.Integer),
    sa.column("started_at", sa.DateTime(timezone=True)),
)
_archived = sa.table(
    "season_standings",
    sa.column("guild_id", sa.BigInteger),
    sa.column("game", sa.String),
    sa.column("season", sa.Integer),
    sa.column("user_id", sa.BigInteger),
    sa.column("wins", sa.Integer),
)

Key = tuple[int, str]  # guild, game


def _utc(moment: datetime | None) -> datetime:
    if moment is None:  # a finished game always has its time; sort an odd one first
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _season_of(starts: Sequence[tuple[int, datetime]], finished: datetime) -> int:
    """The season a game finished in: the last one started by then (season 1 has no row)."""
    number = 1
    for n, started in starts:
        if started <= finished:
            number = n
    return number


def recount_wins(connection: Any) -> int:
    """Bring every stored win count down to the wins its results show. Returns how many rows
    changed."""
    other = _results.alias("other")
    # Someone at the table did not finish first: not a draw.
    not_a_draw = sa.exists().where(other.c.game_id == _results.c.game_id, other.c.place != 1)
    firsts = connection.execute(
        sa.select(_games.c.guild_id, _games.c.game, _results.c.user_id, _games.c.finished_at, not_a_draw)
        .select_from(_results)
        .join(_games, _games.c.id == _results.c.game_id)
        .join(_seats, sa.and_(_seats.c.game_id == _results.c.game_id, _seats.c.seat == _results.c.seat))
        .where(
            _games.c.status == "finished",
            _results.c.user_id.is_not(None),
            _results.c.place == 1,
            _seats.c.left_at.is_(None),
        )
    ).all()
    starts: dict[Key, list[tuple[int, datetime]]] = {}
    for guild, game, number, started in connection.execute(
        sa.select(_seasons.c.guild_id, _seasons.c.game, _seasons.c.number, _seasons.c.started_at).order_by(
            _seasons.c.number
        )
    ):
        starts.setdefault((guild, game), []).append((number, _utc(started)))
    # (guild, game, user) -> season -> [wins, draws the old write counted as wins]
    counted: dict[tuple[int, str, int], dict[int, list[int]]] = {}
    for guild, game, user, finished, won in firsts:
        season = _season_of(starts.get((guild, game), []), _utc(finished))
        tally = counted.setdefault((guild, game, user), {}).setdefault(season, [0, 0])
        tally[0 if won else 1] += 1

    def fixed(stored: int, tallies: list[list[int]]) -> int:
        wins, draws = sum(t[0] for t in tallies), sum(t[1] for t in tallies)
        return min(stored, max(wins, stored - draws))

    changed = 0
    for guild, game, user, season_wins, total_wins in connection.execute(
        sa.select(_stats.c.guild_id, _stats.c.game, _stats.c.user_id, _stats.c.wins, _stats.c.total_wins)
    ).all():
        per_season = counted.get((guild, game, user), {})
        current = starts[(guild, game)][-1][0] if (guild, game) in starts else 1
        values = {
            "wins": fixed(season_wins, [per_season.get(current, [0, 0])]),
            "total_wins": fixed(total_wins, list(per_season.values())),
        }
        if values != {"wins": season_wins, "total_wins": total_wins}:
            connection.execute(
                sa.update(_stats)
                .where(_stats.c.guild_id == guild, _stats.c.game == game, _stats.c.user_id == user)
                .values(**values)
            )
            changed += 1
    for guild, game, season, user, season_wins in connection.execute(
        sa.select(
            _archived.c.guild_id, _archived.c.game, _archived.c.season, _archived.c.user_id, _archived.c.wins
        )
    ).all():
        recounted = fixed(season_wins, [counted.get((guild, game, user), {}).get(season, [0, 0])])
        if recounted != season_wins:
            connection.execute(
                sa.update(_archived)
                .where(
                    _archived.c.guild_id == guild,
                    _archived.c.game == game,
                    _archived.c.season == season,
                    _archived.c.user_id == user,
                )
                .values(wins=recounted)
            )
            changed += 1
    return changed


__all__ = ["recount_wins"]
