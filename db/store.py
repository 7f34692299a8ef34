"""Intention-revealing persistence for the referee: every method is one transaction.

The table framework calls these and nothing else, so the rule "an accepted action is committed
(action row + state snapshot, one transaction) before the player is answered" lives in one place:
``commit_action``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from db.engine import Database, Refused
from db.models import LIVE_STATUSES, ActionRow, Game, PlayerStats, ResultRow, Seat, Signal, utcnow
from db.ratings import (
    COMPUTER_RATINGS,
    DEFAULT_COMPUTER_RATING,
    RATING_MODEL,
    ShownRating,
    kept_mu,
    shown_rating,
)
from db.snapshots import Unreplayable, replay, replay_log

log = logging.getLogger(__name__)

__all__ = [
    "COMPUTER_RATINGS",
    "ChannelBusy",
    "Conflict",
    "RatingChange",
    "SeatResult",
    "SeatSpec",
    "Store",
]


class ChannelBusy(Exception):
    """The channel or thread already holds a live table."""


class Conflict(Refused):
    """The table's row no longer holds the version a change was made from: someone else (another
    process, or an older copy of the table) wrote first. Reload the table; never overwrite."""

    def __init__(self, game_id: int, expected: int) -> None:
        # text: for the log
        super().__init__(f"table {game_id} is no longer at version {expected}")
        self.game_id = game_id
        self.expected = expected


@dataclass(frozen=True)
class SeatSpec:
    seat: int
    user_id: int | None
    name: str
    computer_level: str | None = None
    team: int | None = None
    prefers_dm: bool = False
    left_at: datetime | None = None


@dataclass(frozen=True)
class SeatResult:
    seat: int
    place: int
    points: int


@dataclass(frozen=True)
class RatingChange:
    """What one finished game did to one person's rating (the results message's "alice 1523 (+18)")."""

    seat: int
    user_id: int
    name: str
    place: int
    left: bool
    before: ShownRating
    after: ShownRating


class Store:
    def __init__(self, database: Database) -> None:
        self.db = database

    # --- writing -----------------------------------------------------------------------------
    #
    # Every change to a table bumps its version by exactly one, and is written only if the row
    # still holds the version the change was made from: ``UPDATE … WHERE id = :id AND version =
    # :version - 1``. A missed row is a Conflict (another process, or a copy of the table that is
    # out of date), never a silent overwrite. Under PostgreSQL the UPDATE's row lock also makes two
    # writers of one table queue, and the second one then sees the new version and misses.

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        options: dict[str, Any],
        speed: str,
        seed: int,
        seats: Sequence[SeatSpec],
        language: str | None = None,
    ) -> int:
        async with self.db.writer(), self.db.sessions() as session:
            row = Game(
                language=language,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                status="lobby",
                host_id=host_id,
                options=options,
                speed=speed,
                seed=seed,
                version=0,
                log=[],
                seats=[_seat_row(s) for s in seats],
            )
            session.add(row)
            try:
                await session.commit()
            except IntegrityError as error:
                raise ChannelBusy from error
            return row.id

    async def discard_table(self, game_id: int) -> None:
        """Remove a lobby whose message could never be posted: nobody ever saw it."""
        async with self.db.writer(), self.db.sessions() as session, session.begin():
            await session.execute(delete(Game).where(Game.id == game_id, Game.version == 0))

    async def set_table_message(self, game_id: int, message_id: int) -> None:
        """Where the table is drawn. Not a change of the game, so no version bump; a table that
        ended meanwhile keeps the message it had."""
        async with self.db.writer(), self.db.sessions() as session, session.begin():
            await session.execute(
                update(Game)
                .where(Game.id == game_id, Game.status.in_(LIVE_STATUSES))
                .values(table_message_id=message_id)
            )

    async def set_options(self, game_id: int, options: dict[str, Any]) -> None:
        """Presentation settings kept with the table (e.g. where its thread's parent line is);
        not a change of the game, so no version bump."""
        async with self.db.writer(), self.db.sessions() as session, session.begin():
            await session.execute(update(Game).where(Game.id == game_id).values(options=options))

    async def write(
        self,
        game_id: int,
        *,
        version: int,
        values: dict[str, Any],
        seats: Sequence[SeatSpec] | None = None,
        action: tuple[int | None, str, int | None] | None = None,
        results: Sequence[SeatResult] | None = None,
        guild_id: int | None = None,
        game: str | None = None,
        signals: Sequence[dict[str, Any]] = (),
        action_log: dict[str, Any] | None = None,
    ) -> None:
        """One change of a table in one transaction: the row (checked against ``version - 1``),
        then optionally its seats, the action row (seat, action, actor) at ``seq = version``, the
        results with standings and ratings, and the game's secret signals
        (``{"round", "team", "seat", "gesture"}`` each). ``action_log`` is the public lines the
        action added (kept on its row: db/snapshots.py).

        Core statements on a bare connection (no ORM unit of work: it cost more than the SQL on
        every click); only a game's end, which rates players, opens an ORM session for
        ``_record_results``. On SQLite, commits take turns (``Database.writer``), and the plain
        writes of one moment share a commit (``Database.line``); it returns once its own commit
        is on disk, or raises (``Conflict`` for this write alone)."""
        if results is None:

            async def rows(connection: Any) -> None:
                await _write_rows(connection, game_id, version, values, seats, action, signals, action_log)

            if self.db.line is not None:
                await self.db.line.write(rows)
                return
            async with self.db.writer(), self.db.engine.begin() as connection:
                await rows(connection)
            return
        async with self.db.writer():
            assert seats is not None and guild_id is not None and game is not None
            async with self.db.sessions() as session, session.begin():
                await _write_rows(
                    await session.connection(), game_id, version, values, seats, action, signals, action_log
                )
                await _record_results(session, game_id, guild_id, game, seats, results)

    async def save_snapshots(self, snapshots: Sequence[tuple[int, int, dict[str, Any], list[str]]]) -> None:
        """Store each ``(game_id, version, state, log)`` as that table's snapshot, of the version
        it is at, all in one transaction: at a clean shutdown (cogs/table/lifecycle.py), so the
        next start replays no actions. The version doesn't move (this changes nothing a person
        can see), and a table that has moved on meanwhile (another process's change) is left
        as it is: its own snapshot and log still rebuild it."""
        if not snapshots:
            return
        rows = [
            {
                "where_id": game_id,
                "where_version": version,
                "state": state,
                "state_version": version,
                "log": log,
            }
            for game_id, version, state, log in snapshots
        ]
        async with self.db.writer(), self.db.engine.begin() as connection:
            await connection.execute(_UPDATE_GAME, rows)

    # The named changes below are the shapes the referee writes; each is one ``write``.

    async def save_lobby(
        self, game_id: int, version: int, seats: Sequence[SeatSpec], host_id: int | None = None
    ) -> None:
        values: dict[str, Any] = {} if host_id is None else {"host_id": host_id}
        await self.write(game_id, version=version, values=values, seats=seats)

    async def start_game(
        self,
        game_id: int,
        *,
        version: int,
        seats: Sequence[SeatSpec],
        state: dict[str, Any],
        log: list[Any],
        deadline_at: datetime | None,
        deadline_action: str | None,
    ) -> None:
        values = {
            "status": "playing",
            "state": state,
            "log": log,
            "deadline_at": deadline_at,
            "deadline_action": deadline_action,
        }
        await self.write(game_id, version=version, values=values, seats=seats)

    async def end_table(self, game_id: int, status: str, version: int) -> None:
        """Cancel a lobby, stop or abandon a game: no results, no stats."""
        values = {"status": status, "deadline_at": None, "finished_at": utcnow()}
        await self.write(game_id, version=version, values=values)

    async def commit_action(
        self,
        game_id: int,
        *,
        seq: int,
        seat: int | None,
        action: str,
        actor_id: int | None,
        state: dict[str, Any],
        version: int,
        log: list[Any],
        deadline_at: datetime | None,
        deadline_action: str | None,
        seats: Sequence[SeatSpec] | None = None,
        results: Sequence[SeatResult] | None = None,
        guild_id: int | None = None,
        game: str | None = None,
        signals: Sequence[dict[str, Any]] = (),
    ) -> None:
        """The action row, the new snapshot and (at the end) results, standings and the game's
        secret signals: one transaction."""
        assert seq == version, "an action's sequence number is the version it produced"
        values: dict[str, Any] = {
            "state": state,
            "log": log,
            "deadline_at": deadline_at,
            "deadline_action": deadline_action,
        }
        if results is not None:
            values |= {"status": "finished", "finished_at": utcnow(), "deadline_at": None}
        await self.write(
            game_id,
            version=version,
            values=values,
            seats=seats,
            action=(seat, action, actor_id),
            results=results,
            guild_id=guild_id,
            game=game,
            signals=signals,
        )

    async def update_seats(
        self, game_id: int, version: int, seats: Sequence[SeatSpec], host_id: int | None = None
    ) -> None:
        await self.save_lobby(game_id, version, seats, host_id)

    # --- reading -----------------------------------------------------------------------------

    # Rows come out with ``state`` as of their ``version``: the stored snapshot (of
    # ``state_version``) with the actions after it replayed through the engine (db/snapshots.py).
    # ``state_version`` still says which snapshot that was. A row whose actions can't be replayed
    # comes out with no state, and is logged: the table framework treats it as a table that no
    # longer loads.

    async def live_tables(self) -> list[Game]:
        async with self.db.sessions() as session:
            rows = list(
                await session.scalars(select(Game).where(Game.status.in_(LIVE_STATUSES)).order_by(Game.id))
            )
            # One query for every live table's actions after its snapshot (none for most).
            pending = await session.execute(
                select(ActionRow.game_id, ActionRow.seq, ActionRow.seat, ActionRow.action, ActionRow.log)
                .join(Game, Game.id == ActionRow.game_id)
                .where(
                    Game.status.in_(LIVE_STATUSES),
                    Game.state_version.is_not(None),
                    ActionRow.seq > Game.state_version,
                )
                .order_by(ActionRow.game_id, ActionRow.seq)
            )
        after: dict[int, list[_Pending]] = {}
        for game_id, seq, seat, action, added in pending:
            after.setdefault(game_id, []).append((seq, seat, action, added))
        for row in rows:
            _bring_up_to_date(row, after.get(row.id, []))
        return rows

    async def get_table(self, game_id: int) -> Game | None:
        async with self.db.sessions() as session:
            row = await session.get(Game, game_id, populate_existing=True)
            if row is None:
                return None
            since = row.state_version
            pending = []
            if row.state is not None and since is not None and since < row.version:
                pending = [(a.seq, a.seat, a.action, a.log) for a in await self.actions(game_id, after=since)]
        _bring_up_to_date(row, pending)
        return row

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        """The stored snapshot itself, as (the version it is of, the state), or None if none."""
        async with self.db.sessions() as session:
            found = (
                await session.execute(
                    select(Game.state_version, Game.version, Game.state).where(Game.id == game_id)
                )
            ).first()
        if found is None or found.state is None:
            return None
        version = found.state_version if found.state_version is not None else found.version
        return version, found.state

    async def actions(self, game_id: int, *, after: int = 0) -> list[ActionRow]:
        """The game's actions in order; those with ``seq > after`` (what a process at version
        ``after`` has not seen yet) when ``after`` is given."""
        async with self.db.sessions() as session:
            rows = await session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.seq > after)
                .order_by(ActionRow.seq)
            )
            return list(rows)

    async def results(self, game_id: int) -> list[ResultRow]:
        async with self.db.sessions() as session:
            rows = await session.scalars(
                select(ResultRow).where(ResultRow.game_id == game_id).order_by(ResultRow.seat)
            )
            return list(rows)

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """Each person's rating before and after this finished game, best place first."""
        async with self.db.sessions() as session:
            rows = await session.execute(
                select(ResultRow, Seat.name, Seat.left_at)
                .join(Seat, (Seat.game_id == ResultRow.game_id) & (Seat.seat == ResultRow.seat))
                .where(ResultRow.game_id == game_id, ResultRow.mu_after.is_not(None))
                .order_by(ResultRow.place, ResultRow.seat)
            )
            changes = []
            for result, name, left_at in rows:
                assert result.user_id is not None and result.rated_games is not None
                assert result.mu_before is not None and result.sigma_before is not None
                assert result.mu_after is not None and result.sigma_after is not None
                changes.append(
                    RatingChange(
                        seat=result.seat,
                        user_id=result.user_id,
                        name=name,
                        place=result.place,
                        left=left_at is not None,
                        before=shown_rating(result.mu_before, result.sigma_before, result.rated_games - 1),
                        after=shown_rating(result.mu_after, result.sigma_after, result.rated_games),
                    )
                )
            return changes


_Pending = tuple[int, int | None, str, dict[str, Any] | None]  # seq, seat, action, its log lines


def _bring_up_to_date(row: Game, pending: Sequence[_Pending]) -> None:
    """``row.state`` and ``row.log`` as of ``row.version`` (see the note above ``live_tables``).
    Changes only the loaded object (its session is closed): nothing is written."""
    since = row.state_version
    if row.state is None or since is None or since >= row.version:
        return
    try:
        row.state = replay(row.game, row.state, since, row.version, [p[:3] for p in pending])
        row.log = replay_log(list(row.log or []), [p[3] for p in pending])
    except Unreplayable:
        log.exception("table %s: its actions after version %s can't be replayed", row.id, since)
        row.state = None


def _seat_row(spec: SeatSpec, game_id: int | None = None) -> Seat:
    row = Seat(
        seat=spec.seat,
        user_id=spec.user_id,
        name=spec.name,
        computer_level=spec.computer_level,
        team=spec.team,
        prefers_dm=spec.prefers_dm,
        left_at=spec.left_at,
    )
    if game_id is not None:
        row.game_id = game_id
    return row


def _seat_values(spec: SeatSpec, game_id: int) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "seat": spec.seat,
        "user_id": spec.user_id,
        "name": spec.name,
        "computer_level": spec.computer_level,
        "team": spec.team,
        "prefers_dm": spec.prefers_dm,
        "left_at": spec.left_at,
    }


# The statements of every write, built once: constructing them (``update(...).where(...)``,
# ``Game.id == ...``) cost more of the event loop than executing them (the bench's --cpu-profile:
# 5% of the loop's busy time against 2% at 50 tables). The SET clause of the table update comes
# from the keys of the parameters, so one statement serves every shape of change; the WHERE
# clause's own parameters are named apart from the columns.
_UPDATE_GAME = update(Game).where(
    Game.id == bindparam("where_id"), Game.version == bindparam("where_version")
)
_INSERT_ACTION = insert(ActionRow)
_DELETE_SEATS = delete(Seat).where(Seat.game_id == bindparam("where_game_id"))
_INSERT_SEATS = insert(Seat)
_INSERT_SIGNALS = insert(Signal)


async def _write_rows(
    connection: Any,
    game_id: int,
    version: int,
    values: dict[str, Any],
    seats: Sequence[SeatSpec] | None,
    action: tuple[int | None, str, int | None] | None,
    signals: Sequence[dict[str, Any]],
    action_log: dict[str, Any] | None = None,
) -> None:
    """The statements of one ``Store.write``, on the transaction's connection."""
    now = utcnow()
    if values.get("state") is not None and "state_version" not in values:
        values = values | {"state_version": version}  # a full snapshot, of this very version
    if "state_version" in values or action is None:
        # Not with a plain action, which has its own time: a column changed near the row's end
        # makes PostgreSQL log the whole middle of the row again (the Latest lines included).
        values = values | {"updated_at": now}
    moved = await connection.execute(
        _UPDATE_GAME,
        {"where_id": game_id, "where_version": version - 1, "version": version, **values},
    )
    if moved.rowcount != 1:
        raise Conflict(game_id, version - 1)
    if action is not None:
        seat, name, actor_id = action
        await connection.execute(
            _INSERT_ACTION,
            {
                "game_id": game_id,
                "seq": version,
                "seat": seat,
                "action": name,
                "actor_id": actor_id,
                "log": action_log,
                "created_at": now,
            },
        )
    if seats is not None:
        await connection.execute(_DELETE_SEATS, {"where_game_id": game_id})
        if seats:
            await connection.execute(_INSERT_SEATS, [_seat_values(s, game_id) for s in seats])
    if signals:
        await connection.execute(
            _INSERT_SIGNALS,
            [
                {
                    "game_id": game_id,
                    "round": s["round"],
                    "team": s.get("team"),
                    "seat": s.get("seat"),
                    "gesture": s["gesture"],
                    "created_at": now,
                }
                for s in signals
            ],
        )


async def _record_results(
    session: Any,
    game_id: int,
    guild_id: int,
    game: str,
    seats: Sequence[SeatSpec],
    results: Sequence[SeatResult],
) -> None:
    """Results rows, then standings and ratings for every person who sat at the table.

    How games with computer players count: a person's game, win and points always count. In the
    rating, computer seats play at a fixed strength per level (COMPUTER_RATINGS) and are never
    re-rated. A person who left mid-game counts the game, is rated as finishing last and never gets
    the win, whatever their computer replacement went on to do. OpenSkill's new μ is bounded and a
    draw never costs points (``kept_mu``).
    """
    by_seat = {s.seat: s for s in seats}
    worst = max(r.place for r in results)
    people = {by_seat[r.seat].user_id: r for r in results if by_seat[r.seat].user_id is not None}
    if not people:
        session.add_all(_result_row(game_id, by_seat[r.seat], r) for r in results)
        return
    # Standings rows are shared by every table a person plays, and two tables can finish at the same
    # moment (on PostgreSQL truly in parallel). So: create missing rows without failing on a row
    # another table is creating, lock the rows, and add to them in SQL. Rows are inserted and locked
    # in user id order, so two tables with the same people always queue in the same order instead of
    # deadlocking. On SQLite FOR UPDATE compiles to nothing: SQLite already runs one writer at a time.
    uids = sorted(uid for uid in people if uid is not None)
    fresh = RATING_MODEL.rating()
    await _insert_missing_stats(
        session,
        [
            {
                "guild_id": guild_id,
                "game": game,
                "user_id": uid,
                "name": by_seat[people[uid].seat].name,
                "games": 0,
                "wins": 0,
                "points": 0,
                "total_games": 0,
                "total_wins": 0,
                "total_points": 0,
                "mu": fresh.mu,
                "sigma": fresh.sigma,
                "updated_at": utcnow(),
            }
            for uid in uids
        ],
    )
    locked = await session.execute(
        select(PlayerStats.user_id, PlayerStats.mu, PlayerStats.sigma, PlayerStats.total_games)
        .where(PlayerStats.guild_id == guild_id, PlayerStats.game == game, PlayerStats.user_id.in_(uids))
        .order_by(PlayerStats.user_id)
        .with_for_update()
    )
    current = {uid: (mu, sigma, played) for uid, mu, sigma, played in locked}
    rated_seats = {r.seat for r in people.values()}
    teams = []
    ranks: list[float] = []
    for r in results:
        spec = by_seat[r.seat]
        if r.seat in rated_seats:
            assert spec.user_id is not None
            mu, sigma, _ = current[spec.user_id]
        else:
            mu, sigma = COMPUTER_RATINGS.get(spec.computer_level or "", DEFAULT_COMPUTER_RATING)
        teams.append([RATING_MODEL.rating(mu=mu, sigma=sigma)])
        ranks.append(r.place if spec.left_at is None or r.seat not in rated_seats else worst)
    rated = RATING_MODEL.rate(teams, ranks=ranks) if len(teams) > 1 else teams
    best = min(ranks)
    new_rating = {
        by_seat[r.seat].user_id: RATING_MODEL.rating(
            mu=kept_mu(teams[i][0].mu, rated[i][0].mu, beaten=ranks[i] > best), sigma=rated[i][0].sigma
        )
        for i, r in enumerate(results)
        if r.seat in rated_seats
    }
    for r in results:
        spec = by_seat[r.seat]
        row = _result_row(game_id, spec, r)
        if r.seat in rated_seats and spec.user_id is not None:
            mu, sigma, played = current[spec.user_id]
            row.mu_before, row.sigma_before = mu, sigma
            row.mu_after, row.sigma_after = new_rating[spec.user_id].mu, new_rating[spec.user_id].sigma
            row.rated_games = played + 1
        session.add(row)
    # Every seat first is a draw (Trap's, or everyone sharing the win): nobody won it.
    draw = all(r.place == 1 for r in results)
    for uid in uids:
        r = people[uid]
        spec = by_seat[r.seat]
        won = 1 if r.place == 1 and spec.left_at is None and not draw else 0
        await session.execute(
            update(PlayerStats)
            .where(PlayerStats.guild_id == guild_id, PlayerStats.game == game, PlayerStats.user_id == uid)
            .values(
                name=spec.name,
                games=PlayerStats.games + 1,
                wins=PlayerStats.wins + won,
                points=PlayerStats.points + r.points,
                total_games=PlayerStats.total_games + 1,
                total_wins=PlayerStats.total_wins + won,
                total_points=PlayerStats.total_points + r.points,
                mu=new_rating[uid].mu,
                sigma=new_rating[uid].sigma,
                updated_at=utcnow(),
            )
            .execution_options(synchronize_session=False)
        )


def _result_row(game_id: int, spec: SeatSpec, result: SeatResult) -> ResultRow:
    return ResultRow(
        game_id=game_id,
        seat=result.seat,
        user_id=spec.user_id,
        computer_level=spec.computer_level,
        place=result.place,
        points=result.points,
    )


async def _insert_missing_stats(session: Any, rows: list[dict[str, Any]]) -> None:
    """INSERT … ON CONFLICT DO NOTHING in the dialect's own words; rows already in user id order."""
    dialect = session.get_bind().dialect.name
    keys = ["guild_id", "game", "user_id"]
    if dialect == "postgresql":
        await session.execute(
            postgresql.insert(PlayerStats).values(rows).on_conflict_do_nothing(index_elements=keys)
        )
    elif dialect == "sqlite":
        await session.execute(
            sqlite.insert(PlayerStats).values(rows).on_conflict_do_nothing(index_elements=keys)
        )
    else:  # another database: one savepoint per row, so a row another table made is not an error
        for row in rows:
            try:
                async with session.begin_nested():
                    session.add(PlayerStats(**row))
            except IntegrityError:
                pass
