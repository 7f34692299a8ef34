"""Standings as people look at them: leaderboards by season, a person's record and match history,
recorded games for replays, and the CSV export's rows.

The results write itself (standings and ratings of a finished game) stays in ``db/store.py``,
in the same transaction as the game's last action; everything here reads what it wrote. The
changes made outside any table (a new season, a person forgotten, a message deleted) are in
``db/standing_changes.py``; ``Standings`` has both, and is what the bot holds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.sql.elements import ColumnElement

from db.models import (
    LIVE_STATUSES,
    ActionRow,
    Game,
    PlayerStats,
    ResultRow,
    Season,
    SeasonStanding,
    Seat,
    utcnow,
)
from db.ratings import PROVISIONAL_GAMES, SETTLED_SIGMA, ShownRating, shown_rating
from db.standing_changes import FORGOTTEN_NAME, SeasonRace, StandingChanges, aware

__all__ = ["FORGOTTEN_NAME", "SeasonRace", "Standings"]


@dataclass(frozen=True)
class Standing:
    """One person's row on a leaderboard (this season's counts, or an archived season's)."""

    place: int
    user_id: int
    name: str
    games: int
    wins: int
    points: int
    total_games: int
    rating: ShownRating


@dataclass(frozen=True)
class SeasonInfo:
    number: int
    current: int  # the game's current season here
    started_at: datetime | None  # None: season 1 of a game nobody has finished yet
    ended_at: datetime | None  # None: the current season

    @property
    def archived(self) -> bool:
        return self.number < self.current


@dataclass(frozen=True)
class BoardPage:
    game: str
    season: SeasonInfo
    rows: list[Standing]
    page: int  # 1-based, clamped to the pages there are
    pages: int
    total: int  # people on this season's board
    mine: Standing | None  # the asker's own row, wherever it is


@dataclass(frozen=True)
class Streak:
    won: bool  # a run of wins, or of games without a win
    length: int


@dataclass(frozen=True)
class GameRecord:
    """A person's record in one game here: /stats."""

    game: str
    season: int
    rating: ShownRating
    games: int
    wins: int
    total_games: int
    total_wins: int
    best_place: int | None  # None: they left every game they played
    best_times: int
    streak: Streak | None


@dataclass(frozen=True)
class Opponent:
    name: str
    computer_level: str | None  # a computer seat, or the computer that took a leaver's seat
    user_id: int | None


@dataclass(frozen=True)
class HistoryEntry:
    game_id: int
    game: str
    finished_at: datetime
    channel_id: int
    message_id: int | None  # the final table message, while it exists
    place: int
    shared: bool  # someone else finished in the same place (a draw, a winning team)
    players: int
    draw: bool  # every seat finished first: nobody won
    left: bool
    others: list[Opponent]
    before: ShownRating | None
    after: ShownRating | None


@dataclass(frozen=True)
class RecordedSeat:
    seat: int
    user_id: int | None
    name: str
    computer_level: str | None  # at the end: a person who left was replaced by this level
    left_at: datetime | None


@dataclass(frozen=True)
class RecordedGame:
    """A game as the action log keeps it: options, seed and every action with its seat."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    settings: dict[str, Any]
    seed: int
    seats: list[RecordedSeat]
    actions: list[tuple[int | None, str]]
    acted_at: list[datetime]  # when each action was taken
    finished_at: datetime | None
    message_id: int | None

    def left_after(self, seat: RecordedSeat) -> int | None:
        """How many actions had been taken when this seat's person left (None: they stayed)."""
        if seat.left_at is None:
            return None
        return sum(1 for at in self.acted_at if at <= seat.left_at)


@dataclass(frozen=True)
class ExportRow:
    game: str
    season: int
    place: int | None  # None: no game this season yet
    user_id: int
    name: str
    rating: ShownRating
    games: int
    wins: int
    points: int
    total_games: int
    total_wins: int | None  # None in an archived season's row: kept for the current one only
    total_points: int | None
    mu: float
    sigma: float


# The board's order: settled people before provisional ones (a lucky first game never tops it),
# then the shown rating (μ), then wins, then who came first (a stable order for paging).
_is_provisional = case(
    (and_(PlayerStats.total_games < PROVISIONAL_GAMES, PlayerStats.sigma >= SETTLED_SIGMA), 1), else_=0
)
_BOARD_ORDER = (_is_provisional, PlayerStats.mu.desc(), PlayerStats.wins.desc(), PlayerStats.user_id)


def _ahead_of(row: PlayerStats) -> ColumnElement[bool]:
    """Rows that come before ``row`` in the board's order."""
    mine = 1 if shown_rating(row.mu, row.sigma, row.total_games).provisional else 0
    return or_(
        _is_provisional < mine,
        and_(
            _is_provisional == mine,
            or_(
                PlayerStats.mu > row.mu,
                and_(
                    PlayerStats.mu == row.mu,
                    or_(
                        PlayerStats.wins > row.wins,
                        and_(PlayerStats.wins == row.wins, PlayerStats.user_id < row.user_id),
                    ),
                ),
            ),
        ),
    )


def _standing(place: int, row: PlayerStats | SeasonStanding) -> Standing:
    return Standing(
        place=place,
        user_id=row.user_id,
        name=row.name,
        games=row.games,
        wins=row.wins,
        points=row.points,
        total_games=row.total_games,
        rating=shown_rating(row.mu, row.sigma, row.total_games),
    )


class Standings(StandingChanges):
    # --- seasons ---------------------------------------------------------------------------

    async def season(self, guild_id: int, game: str, number: int | None = None) -> SeasonInfo:
        """Season ``number`` of a game here (the current one if None). ValueError if there is no
        such season yet."""
        async with self.db.sessions() as session:
            rows = (
                await session.execute(
                    select(Season.number, Season.started_at)
                    .where(Season.guild_id == guild_id, Season.game == game)
                    .order_by(Season.number)
                )
            ).all()
            starts = {n: aware(at) for n, at in rows}
            current = max(starts, default=1)
            wanted = current if number is None else number
            if not 1 <= wanted <= current:
                raise ValueError(wanted)
            started = starts.get(wanted)
            if wanted == 1 and started is None:
                # Season 1 began with its first finished game (one before season 2, if any).
                where = [Game.guild_id == guild_id, Game.game == game, Game.status == "finished"]
                if (second := starts.get(2)) is not None:
                    where.append(Game.finished_at < second)
                started = aware(await session.scalar(select(func.min(Game.finished_at)).where(*where)))
            return SeasonInfo(wanted, current, started, starts.get(wanted + 1))

    async def seasons(self, guild_id: int, game: str) -> int:
        """The current season number of a game here."""
        async with self.db.sessions() as session:
            latest = await session.scalar(
                select(func.max(Season.number)).where(Season.guild_id == guild_id, Season.game == game)
            )
            return int(latest or 1)

    # --- leaderboards ----------------------------------------------------------------------

    async def board(
        self, guild_id: int, game: str, season: int | None, page: int, per_page: int, asker: int
    ) -> BoardPage:
        """One page of a season's board (the current one if None), with the asker's own row.
        ValueError if there is no such season."""
        info = await self.season(guild_id, game, season)
        if info.archived:
            return await self._archived_board(guild_id, game, info, page, per_page, asker)
        where = (PlayerStats.guild_id == guild_id, PlayerStats.game == game, PlayerStats.games > 0)
        async with self.db.sessions() as session:
            total = int(
                await session.scalar(select(func.count()).select_from(PlayerStats).where(*where)) or 0
            )
            pages = max(1, -(-total // per_page))
            page = min(max(page, 1), pages)
            rows = await session.scalars(
                select(PlayerStats)
                .where(*where)
                .order_by(*_BOARD_ORDER)
                .offset((page - 1) * per_page)
                .limit(per_page)
            )
            shown = [_standing((page - 1) * per_page + i, r) for i, r in enumerate(rows, 1)]
            mine = next((s for s in shown if s.user_id == asker), None)
            if mine is None:
                own = await session.get(PlayerStats, (guild_id, game, asker))
                if own is not None and own.games > 0:
                    ahead = await session.scalar(
                        select(func.count()).select_from(PlayerStats).where(*where, _ahead_of(own))
                    )
                    mine = _standing(int(ahead or 0) + 1, own)
        return BoardPage(game, info, shown, page, pages, total, mine)

    async def _archived_board(
        self, guild_id: int, game: str, info: SeasonInfo, page: int, per_page: int, asker: int
    ) -> BoardPage:
        where = (
            SeasonStanding.guild_id == guild_id,
            SeasonStanding.game == game,
            SeasonStanding.season == info.number,
        )
        async with self.db.sessions() as session:
            total = int(
                await session.scalar(select(func.count()).select_from(SeasonStanding).where(*where)) or 0
            )
            pages = max(1, -(-total // per_page))
            page = min(max(page, 1), pages)
            rows = await session.scalars(
                select(SeasonStanding)
                .where(*where)
                .order_by(SeasonStanding.place)
                .offset((page - 1) * per_page)
                .limit(per_page)
            )
            shown = [_standing(r.place, r) for r in rows]
            mine = next((s for s in shown if s.user_id == asker), None)
            if mine is None:
                own = await session.scalar(
                    select(SeasonStanding).where(*where, SeasonStanding.user_id == asker)
                )
                mine = _standing(own.place, own) if own is not None else None
        return BoardPage(game, info, shown, page, pages, total, mine)

    # --- one person -------------------------------------------------------------------------

    async def record(self, guild_id: int, user_id: int) -> list[GameRecord]:
        """A person's record in every game they have played here, in game-key order."""
        async with self.db.sessions() as session:
            stats = list(
                await session.scalars(
                    select(PlayerStats)
                    .where(PlayerStats.guild_id == guild_id, PlayerStats.user_id == user_id)
                    .order_by(PlayerStats.game)
                )
            )
            seasons = dict(
                (
                    await session.execute(
                        select(Season.game, func.max(Season.number))
                        .where(Season.guild_id == guild_id)
                        .group_by(Season.game)
                    )
                ).all()
            )
            # A game's last place: 1 means every seat finished first, a draw that nobody won.
            last = (
                select(ResultRow.game_id, func.max(ResultRow.place).label("last"))
                .group_by(ResultRow.game_id)
                .subquery()
            )
            finishes = (
                await session.execute(
                    select(Game.game, ResultRow.place, Seat.left_at, last.c.last)
                    .join(Game, Game.id == ResultRow.game_id)
                    .join(Seat, (Seat.game_id == ResultRow.game_id) & (Seat.seat == ResultRow.seat))
                    .join(last, last.c.game_id == ResultRow.game_id)
                    .where(Game.guild_id == guild_id, ResultRow.user_id == user_id, Game.status == "finished")
                    .order_by(Game.finished_at.desc(), Game.id.desc())
                )
            ).all()
        by_game: dict[str, list[tuple[int, bool, bool]]] = {}
        for game, place, left_at, last_place in finishes:
            by_game.setdefault(game, []).append((place, left_at is not None, last_place == 1))
        records = []
        for row in stats:
            played = by_game.get(row.game, [])
            kept = [place for place, left, _draw in played if not left]
            best = min(kept, default=None)
            records.append(
                GameRecord(
                    game=row.game,
                    season=int(seasons.get(row.game) or 1),
                    rating=shown_rating(row.mu, row.sigma, row.total_games),
                    games=row.games,
                    wins=row.wins,
                    total_games=row.total_games,
                    total_wins=row.total_wins,
                    best_place=best,
                    best_times=kept.count(best) if best is not None else 0,
                    streak=_streak(played),
                )
            )
        return records

    async def history(
        self, guild_id: int, user_id: int, game: str | None, page: int, per_page: int
    ) -> tuple[list[HistoryEntry], int, int]:
        """A page of a person's finished games here, newest first: (entries, page, pages)."""
        where = [Game.guild_id == guild_id, ResultRow.user_id == user_id, Game.status == "finished"]
        if game is not None:
            where.append(Game.game == game)
        async with self.db.sessions() as session:
            total = int(
                await session.scalar(
                    select(func.count())
                    .select_from(ResultRow)
                    .join(Game, Game.id == ResultRow.game_id)
                    .where(*where)
                )
                or 0
            )
            pages = max(1, -(-total // per_page))
            page = min(max(page, 1), pages)
            rows = (
                await session.execute(
                    select(ResultRow, Game)
                    .join(Game, Game.id == ResultRow.game_id)
                    .where(*where)
                    .order_by(Game.finished_at.desc(), Game.id.desc())
                    .offset((page - 1) * per_page)
                    .limit(per_page)
                )
            ).all()
            ids = [g.id for _, g in rows]
            seats = list(await session.scalars(select(Seat).where(Seat.game_id.in_(ids)).order_by(Seat.seat)))
            finishes = await session.execute(
                select(ResultRow.game_id, ResultRow.place).where(ResultRow.game_id.in_(ids))
            )
            places = Counter((game_id, place) for game_id, place in finishes)
        at_table: dict[int, list[Seat]] = {}
        for seat in seats:
            at_table.setdefault(seat.game_id, []).append(seat)
        entries = []
        for result, row in rows:
            table = at_table.get(row.id, [])
            mine = next((s for s in table if s.seat == result.seat), None)
            before = after = None
            if result.mu_after is not None and result.rated_games is not None:
                assert result.mu_before is not None and result.sigma_before is not None
                assert result.sigma_after is not None
                before = shown_rating(result.mu_before, result.sigma_before, result.rated_games - 1)
                after = shown_rating(result.mu_after, result.sigma_after, result.rated_games)
            finished = aware(row.finished_at)
            assert finished is not None  # a finished game has its time
            entries.append(
                HistoryEntry(
                    game_id=row.id,
                    game=row.game,
                    finished_at=finished,
                    channel_id=row.channel_id,
                    message_id=row.table_message_id,
                    place=result.place,
                    shared=places[(row.id, result.place)] > 1,
                    players=len(table),
                    draw=places[(row.id, 1)] == len(table) > 1,
                    left=mine is not None and mine.left_at is not None,
                    others=[
                        Opponent(s.name, s.computer_level, s.user_id) for s in table if s.seat != result.seat
                    ],
                    before=before,
                    after=after,
                )
            )
        return entries, page, pages

    # --- recorded games ---------------------------------------------------------------------

    async def recorded_game(self, game_id: int) -> RecordedGame | None:
        async with self.db.sessions() as session:
            row = await session.get(Game, game_id)
            if row is None:
                return None
            actions = (
                await session.execute(
                    select(ActionRow.seat, ActionRow.action, ActionRow.created_at)
                    .where(ActionRow.game_id == game_id)
                    .order_by(ActionRow.seq)
                )
            ).all()
            return RecordedGame(
                id=row.id,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                game=row.game,
                status=row.status,
                settings=dict(row.options),
                seed=row.seed,
                seats=[
                    RecordedSeat(s.seat, s.user_id, s.name, s.computer_level, aware(s.left_at))
                    for s in sorted(row.seats, key=lambda s: s.seat)
                ],
                actions=[(seat, action) for seat, action, _ in actions],
                acted_at=[aware(at) or utcnow() for _, _, at in actions],
                finished_at=aware(row.finished_at),
                message_id=row.table_message_id,
            )

    async def name_of(self, guild_id: int, user_id: int) -> str | None:
        """The name a person last played under here (None if they have no standing)."""
        async with self.db.sessions() as session:
            name = await session.scalar(
                select(PlayerStats.name)
                .where(PlayerStats.guild_id == guild_id, PlayerStats.user_id == user_id)
                .order_by(PlayerStats.updated_at.desc())
                .limit(1)
            )
            return str(name) if name is not None else None

    async def has_record(self, guild_id: int, user_id: int) -> bool:
        async with self.db.sessions() as session:
            stats = await session.scalar(
                select(func.count())
                .select_from(PlayerStats)
                .where(PlayerStats.guild_id == guild_id, PlayerStats.user_id == user_id)
            )
            played = await session.scalar(
                select(func.count())
                .select_from(Seat)
                .join(Game, Game.id == Seat.game_id)
                .where(Game.guild_id == guild_id, Seat.user_id == user_id, Game.status.not_in(LIVE_STATUSES))
            )
            return bool(stats or played)

    # --- export -------------------------------------------------------------------------------

    async def export(self, guild_id: int) -> list[ExportRow]:
        """Every standing of this server: each game's current season (everyone with a rating
        here), then every archived season, each in its board's order."""
        out: list[ExportRow] = []
        async with self.db.sessions() as session:
            seasons = dict(
                (
                    await session.execute(
                        select(Season.game, func.max(Season.number))
                        .where(Season.guild_id == guild_id)
                        .group_by(Season.game)
                    )
                ).all()
            )
            current = await session.scalars(
                select(PlayerStats)
                .where(PlayerStats.guild_id == guild_id)
                .order_by(PlayerStats.game, *_BOARD_ORDER)
            )
            place: dict[str, int] = {}
            for r in current:
                if r.games > 0:
                    place[r.game] = place.get(r.game, 0) + 1
                out.append(
                    ExportRow(
                        r.game,
                        int(seasons.get(r.game) or 1),
                        place[r.game] if r.games > 0 else None,
                        r.user_id,
                        r.name,
                        shown_rating(r.mu, r.sigma, r.total_games),
                        r.games,
                        r.wins,
                        r.points,
                        r.total_games,
                        r.total_wins,
                        r.total_points,
                        r.mu,
                        r.sigma,
                    )
                )
            archived = await session.scalars(
                select(SeasonStanding)
                .where(SeasonStanding.guild_id == guild_id)
                .order_by(SeasonStanding.game, SeasonStanding.season, SeasonStanding.place)
            )
            for a in archived:
                out.append(
                    ExportRow(
                        a.game,
                        a.season,
                        a.place,
                        a.user_id,
                        a.name,
                        shown_rating(a.mu, a.sigma, a.total_games),
                        a.games,
                        a.wins,
                        a.points,
                        a.total_games,
                        None,
                        None,
                        a.mu,
                        a.sigma,
                    )
                )
        return out


def _streak(played: list[tuple[int, bool, bool]]) -> Streak | None:
    """The current run, newest game first: wins in a row, or games in a row without a win (a game
    the person left is never a win, nor is a draw)."""
    if not played:
        return None
    won = [place == 1 and not left and not draw for place, left, draw in played]
    length = next((i for i, w in enumerate(won) if w != won[0]), len(won))
    return Streak(won[0], length)
