"""Leaderboards, records, seasons and forgetting, on a real database (db/standings.py, db/ratings.py).

The finished games here go through the real results write (``Store.commit_action``), except where
a test needs exact ratings to check an order: those put rows straight into ``player_stats``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from db.engine import Database
from db.models import ActionRow, Game, PlayerStats, ResultRow, SeasonStanding, Seat
from db.ratings import (
    PROVISIONAL_GAMES,
    SETTLED_SIGMA,
    START_SIGMA,
    change_text,
    season_sigma,
    shown_rating,
)
from db.standing_changes import Forgetting
from db.standings import FORGOTTEN_NAME, Standings
from db.store import SeatSpec, Store
from tests.e2e.boards_helpers import Sitter, finish_quickly, record_game

GUILD = 1


@pytest.fixture
async def stores(database_url: str) -> AsyncIterator[tuple[Store, Standings]]:
    database = Database(database_url)
    yield Store(database), Standings(database)
    await database.dispose()


def test_one_mapping_from_mu_and_sigma_to_what_people_see() -> None:
    """1500 for a newcomer, 40 points per μ point, "?" while provisional: under ten rated games
    and σ still at or above the threshold; either one settles it."""
    newcomer = shown_rating(25.0, START_SIGMA, 0)
    assert (newcomer.value, newcomer.provisional, str(newcomer)) == (1500, True, "1500?")
    assert shown_rating(35.0, 3.0, 40).value == 1900
    assert str(shown_rating(24.5, 7.0, 3)) == "1480?"  # the issue's own example
    assert not shown_rating(25.0, 7.0, PROVISIONAL_GAMES).provisional  # enough games
    assert not shown_rating(25.0, SETTLED_SIGMA - 0.01, 2).provisional  # sure enough, early
    assert shown_rating(25.0, SETTLED_SIGMA, PROVISIONAL_GAMES - 1).provisional
    assert change_text(newcomer, shown_rating(25.45, 7.0, 1)) == "+18"
    assert change_text(newcomer, shown_rating(24.8, 7.0, 1)) == "−8"  # a real minus sign
    assert change_text(newcomer, newcomer) == "±0"


def test_a_new_season_raises_sigma_halfway_to_a_newcomers() -> None:
    assert season_sigma(4.0) == pytest.approx((4.0 + START_SIGMA) / 2)
    assert season_sigma(START_SIGMA) == pytest.approx(START_SIGMA)  # never past a newcomer's


async def add_rows(
    standings: Standings, rows: list[tuple[int, float, float, int]], game: str = "zipzap"
) -> None:
    """Standings rows (user id, μ, σ, rated games) as if each person had played that many games."""
    async with standings.db.sessions() as session, session.begin():
        for uid, mu, sigma, played in rows:
            session.add(
                PlayerStats(
                    guild_id=GUILD,
                    game=game,
                    user_id=uid,
                    name=f"p{uid}",
                    games=played,
                    wins=played // 3,
                    points=0,
                    total_games=played,
                    total_wins=played // 3,
                    total_points=0,
                    mu=mu,
                    sigma=sigma,
                )
            )


async def test_settled_people_come_first_and_the_asker_always_finds_their_row(
    stores: tuple[Store, Standings],
) -> None:
    """25 people: 15 settled (12 games each) and 10 provisional newcomers whose μ is higher than
    every settled person's. Every page, in order, lists the settled ones first, each group by
    rating; the asker's own row comes with every page, at the place the full list gives it.
    Seen to fail with the old order (μ − 3σ, which puts a lucky newcomer with σ 4.9 above
    steady players) and with the asker's place counted without the provisional rule."""
    _, standings = stores
    settled = [(100 + i, 20.0 + i * 0.5, 4.0, 12) for i in range(15)]
    newcomers = [(200 + i, 40.0 + i, 6.6, 2) for i in range(10)]
    await add_rows(standings, settled + newcomers)
    await add_rows(standings, [(999, 30.0, 5.0, 0)])  # a row with no game this season: not listed
    order = [uid for uid, *_ in sorted(settled, key=lambda r: -r[1])]
    order += [uid for uid, *_ in sorted(newcomers, key=lambda r: -r[1])]
    asker = order[22]
    seen: list[int] = []
    for page in (1, 2, 3):
        board = await standings.board(GUILD, "zipzap", None, page, 10, asker)
        assert (board.page, board.pages, board.total) == (page, 3, 25)
        seen += [row.user_id for row in board.rows]
        assert [row.place for row in board.rows] == list(
            range(10 * page - 9, 10 * page - 9 + len(board.rows))
        )
        assert board.mine is not None and (board.mine.place, board.mine.user_id) == (23, asker)
    assert seen == order
    first = await standings.board(GUILD, "zipzap", None, 1, 10, 999)
    assert first.mine is None  # no game this season: nothing to show as theirs
    past_the_end = await standings.board(GUILD, "zipzap", None, 9, 10, asker)
    assert past_the_end.page == 3


async def test_a_record_has_best_finish_and_current_streak(stores: tuple[Store, Standings]) -> None:
    """ann's places, oldest first: 2nd, 1st, 3rd, 1st, 1st, and then a game she left while
    first (never a win). Best finish 1st three times; the streak is the run since the last
    change: one game without a win, then (after another win) one win."""
    store, standings = stores
    names = {1: "ann", 2: "bea", 3: "cy"}
    for channel, (ann, bea, cy) in enumerate([(2, 1, 3), (1, 2, 3), (3, 1, 2), (1, 3, 2), (1, 2, 3)], 10):
        await finish_quickly(
            store,
            guild_id=GUILD,
            channel_id=channel,
            key="zipzap",
            places={1: ann, 2: bea, 3: cy},
            names=names,
        )
    (record,) = await standings.record(GUILD, 1)
    assert record.streak is not None and (record.streak.won, record.streak.length) == (True, 2)
    assert (record.best_place, record.best_times, record.games, record.wins) == (1, 3, 5, 3)
    # A game she left while in first place: counted, rated last, never a win.
    seats = [SeatSpec(0, 1, "ann", computer_level="casual", left_at=datetime.now(UTC)), SeatSpec(1, 2, "bea")]
    gid = await store.create_table(
        guild_id=GUILD,
        channel_id=99,
        game="zipzap",
        host_id=1,
        options={},
        speed="relaxed",
        seed=1,
        seats=seats,
    )
    from db.store import SeatResult

    await store.commit_action(
        gid,
        seq=1,
        seat=0,
        action="end",
        actor_id=None,
        state={},
        version=1,
        log=[],
        deadline_at=None,
        deadline_action=None,
        seats=seats,
        results=[SeatResult(0, 1, 0), SeatResult(1, 2, 5)],
        guild_id=GUILD,
        game="zipzap",
    )
    (record,) = await standings.record(GUILD, 1)
    assert record.streak is not None and (record.streak.won, record.streak.length) == (False, 1)
    assert (record.best_place, record.best_times, record.games, record.wins) == (1, 3, 6, 3)
    # A draw for first: both count a win, and history says the first place was shared.
    await finish_quickly(
        store, guild_id=GUILD, channel_id=100, key="zipzap", places={1: 1, 2: 1, 3: 3}, names=names
    )
    (draw, left, *_), _, _ = await standings.history(GUILD, 1, None, 1, 10)
    assert (draw.place, draw.shared, draw.players, draw.left) == (1, True, 3, False)
    assert (left.shared, left.left) == (False, True)


async def test_a_new_season_archives_the_standings_and_starts_from_the_ratings(
    stores: tuple[Store, Standings],
) -> None:
    """Season 1's board is archived exactly as it stood; in season 2 everyone keeps μ with σ
    raised, counts start from 0 and the all-time ones stay; a second press of the same
    confirmation starts nothing; another game's season is untouched."""
    store, standings = stores
    names = {1: "ann", 2: "bea", 3: "cy"}
    for channel in range(3):
        await finish_quickly(
            store, guild_id=GUILD, channel_id=channel, key="zipzap", places={1: 1, 2: 2, 3: 3}, names=names
        )
    await finish_quickly(store, guild_id=GUILD, channel_id=50, key="trap", places={1: 2, 2: 1}, names=names)
    before = await standings.board(GUILD, "zipzap", None, 1, 10, 1)
    async with standings.db.sessions() as session:
        old = {
            r.user_id: r
            for r in await session.scalars(select(PlayerStats).where(PlayerStats.game == "zipzap"))
        }
    asked = datetime.now(UTC) - timedelta(seconds=1)

    assert await standings.new_season(GUILD, ["zipzap"], 7, asked) == [("zipzap", 2)]
    assert await standings.new_season(GUILD, ["zipzap"], 7, asked) == []  # pressed twice

    archived = await standings.board(GUILD, "zipzap", 1, 1, 10, 1)
    assert archived.season.archived and archived.season.number == 1 and archived.season.current == 2
    assert archived.rows == before.rows
    assert archived.season.ended_at is not None
    current = await standings.board(GUILD, "zipzap", None, 1, 10, 1)
    assert current.season.number == 2 and current.rows == [] and current.mine is None
    assert current.season.started_at == archived.season.ended_at
    with pytest.raises(ValueError):
        await standings.board(GUILD, "zipzap", 3, 1, 10, 1)
    async with standings.db.sessions() as session:
        now = {
            r.user_id: r
            for r in await session.scalars(select(PlayerStats).where(PlayerStats.game == "zipzap"))
        }
        kept = list(await session.scalars(select(SeasonStanding)))
    assert len(kept) == 3
    for uid, row in now.items():
        assert (row.games, row.wins, row.points) == (0, 0, 0)
        assert (row.total_games, row.total_wins) == (old[uid].total_games, old[uid].total_wins)
        assert row.mu == old[uid].mu and row.sigma == pytest.approx(season_sigma(old[uid].sigma))
    assert (await standings.season(GUILD, "trap")).number == 1  # only Zip Zap's season moved on

    # The next game counts in season 2, and all time.
    await finish_quickly(store, guild_id=GUILD, channel_id=60, key="zipzap", places={2: 1, 3: 2}, names=names)
    board = await standings.board(GUILD, "zipzap", None, 1, 10, 2)
    assert [(r.name, r.games, r.wins, r.total_games) for r in board.rows] == [
        ("bea", 1, 1, 4),
        ("cy", 1, 0, 4),
    ]
    assert board.mine is not None and board.mine.name == "bea"
    # Every game at once: season 3 of Zip Zap, 2 of everything else.
    started = dict(await standings.new_season(GUILD, ["zipzap", "trap"], 7, datetime.now(UTC)))
    assert started == {"zipzap": 3, "trap": 2}
    # A game nobody played in season 1: season 1 has no start date, even once season 2 has games.
    assert await standings.new_season(GUILD, ["spytrap"], 7, datetime.now(UTC)) == [("spytrap", 2)]
    await finish_quickly(
        store, guild_id=GUILD, channel_id=70, key="spytrap", places={1: 1, 2: 2}, names=names
    )
    first = await standings.season(GUILD, "spytrap", 1)
    assert first.started_at is None and first.ended_at is not None


async def test_forgetting_a_person_keeps_the_games_without_them(stores: tuple[Store, Standings]) -> None:
    """ann asks to be forgotten: her standings (all seasons) go; the finished games she played
    keep her seat as a "former player" with no account behind it, and her clicks lose her id;
    bea's standings and everyone's results stay; a lobby ann sits in keeps her until it ends."""
    store, standings = stores
    people = [Sitter(1, "ann"), Sitter(2, "bea"), Sitter(None, "Robo 1 (casual)", "casual")]
    gid = await record_game(store, guild_id=GUILD, channel_id=5, key="zipzap", sitters=people, seed=3)
    async with standings.db.sessions() as session, session.begin():  # the table's last public lines
        await session.execute(update(Game).where(Game.id == gid).values(log=["**ann** played the red 4."]))
    await standings.new_season(GUILD, ["zipzap"], 9, datetime.now(UTC))  # an archived season too
    live = await store.create_table(
        guild_id=GUILD,
        channel_id=6,
        game="zipzap",
        host_id=1,
        options={},
        speed="relaxed",
        seed=1,
        seats=[SeatSpec(0, 1, "ann")],
    )
    async with standings.db.sessions() as session:
        bea_before = await session.get(PlayerStats, (GUILD, "zipzap", 2))
        assert bea_before is not None

    assert await standings.has_record(GUILD, 1)
    # Seated in a lobby: forgotten when it ends (else the cancelled table would keep her seat).
    assert await standings.forget(GUILD, 1) == Forgetting(games=0, waiting_for=1)
    assert await standings.has_record(GUILD, 1)
    assert await store.end_table(live, "cancelled", 1) == [1]
    assert not await standings.has_record(GUILD, 1)

    async with standings.db.sessions() as session:
        assert await session.get(PlayerStats, (GUILD, "zipzap", 1)) is None
        assert list(await session.scalars(select(SeasonStanding).where(SeasonStanding.user_id == 1))) == []
        seats = {s.seat: s for s in await session.scalars(select(Seat).where(Seat.game_id == gid))}
        assert (seats[0].user_id, seats[0].name) == (None, FORGOTTEN_NAME)
        assert (seats[1].user_id, seats[1].name) == (2, "bea")
        results = list(await session.scalars(select(ResultRow).where(ResultRow.game_id == gid)))
        assert len(results) == 3 and 1 not in {r.user_id for r in results}
        assert 1 not in set(await session.scalars(select(ActionRow.actor_id).where(ActionRow.game_id == gid)))
        game = await session.get(Game, gid)
        assert game is not None and game.host_id == 0 and game.log == []  # no line names her now
        lobby_seat = (await session.scalars(select(Seat).where(Seat.game_id == live))).one()
        assert (lobby_seat.user_id, lobby_seat.name) == (None, FORGOTTEN_NAME)
        bea = await session.get(PlayerStats, (GUILD, "zipzap", 2))
        assert bea is not None and (bea.mu, bea.sigma, bea.total_games) == (
            bea_before.mu,
            bea_before.sigma,
            bea_before.total_games,
        )
    entries, _, _ = await standings.history(GUILD, 1, None, 1, 5)
    assert entries == []
    recorded = await standings.recorded_game(gid)
    assert recorded is not None and recorded.seats[0].name == FORGOTTEN_NAME


async def test_a_deleted_table_message_is_no_longer_linked(stores: tuple[Store, Standings]) -> None:
    """A finished game's table message deleted: its history entry stops linking to it; a live
    table's message is the table's own business (it is posted again) and stays."""
    store, standings = stores
    people = [Sitter(1, "ann"), Sitter(None, "Robo 1 (casual)", "casual")]
    done = await record_game(
        store, guild_id=GUILD, channel_id=5, key="trap", sitters=people, seed=2, message_id=555
    )
    live = await store.create_table(
        guild_id=GUILD, channel_id=6, game="zipzap", host_id=1, options={}, speed="relaxed", seed=1, seats=[]
    )
    await store.set_table_message(live, 555)
    (entry,), _, _ = await standings.history(GUILD, 1, "trap", 1, 5)
    assert entry.message_id == 555
    assert await standings.message_gone([123]) == 0  # not one of ours: nothing written
    assert await standings.message_gone([555]) == 1
    (entry,), _, _ = await standings.history(GUILD, 1, "trap", 1, 5)
    assert entry.message_id is None
    assert (await store.get_table(live)).table_message_id == 555  # type: ignore[union-attr]
    other = await record_game(
        store, guild_id=GUILD, channel_id=7, key="trap", sitters=people, seed=4, message_id=777
    )
    assert await standings.message_gone(channel_id=7) == 1  # the whole channel went
    assert (await standings.recorded_game(other)).message_id is None  # type: ignore[union-attr]
    assert (await standings.recorded_game(done)).message_id is None  # type: ignore[union-attr]
