"""Standings and ratings: exact under concurrent finishes, and computers rated by their level.

These run on SQLite by default and on PostgreSQL with TEST_DATABASE_URL (see tests/conftest.py);
the race matters on PostgreSQL, where two transactions really do run at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from sqlalchemy import select

from db.engine import Database
from db.models import PlayerStats
from db.store import COMPUTER_RATINGS, SeatResult, SeatSpec, Store
from rules import GAMES, get_game

PAIRS = 40
REGULAR = 7  # the same person at both tables of every pair


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    s = Store(Database(database_url))
    yield s
    await s.db.dispose()


async def finish(
    store: Store,
    guild_id: int,
    channel_id: int,
    seats: list[SeatSpec],
    places: dict[int, int],
    *,
    game: str = "zipzap",
) -> Callable[[], Awaitable[None]]:
    """Open a table and return its final commit with these places (user id → place; a seat
    without a user id, a computer, by its seat number)."""
    gid = await store.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        game=game,
        host_id=REGULAR,
        options={},
        speed="relaxed",
        seed=channel_id,
        seats=seats,
    )
    results = [
        SeatResult(s.seat, place, 10 - place)
        for s in seats
        if (place := places.get(s.user_id if s.user_id is not None else s.seat)) is not None
    ]

    async def commit() -> None:
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
            results=results,
            guild_id=guild_id,
            game=game,
        )

    return commit


def pair_seats(newcomer: int) -> tuple[list[SeatSpec], list[SeatSpec]]:
    # The two tables seat the same two people in opposite orders: rows must be created and locked in
    # an order of their own (user id), not the seats', or the two tables can deadlock.
    first = [SeatSpec(0, REGULAR, "reg"), SeatSpec(1, newcomer, f"new{newcomer}")]
    second = [SeatSpec(0, newcomer, f"new{newcomer}"), SeatSpec(1, REGULAR, "reg")]
    return first, second


async def standings(store: Store, guild_id: int, game: str = "zipzap") -> dict[int, PlayerStats]:
    async with store.db.sessions() as session:
        rows = await session.scalars(
            select(PlayerStats).where(PlayerStats.guild_id == guild_id, PlayerStats.game == game)
        )
        return {row.user_id: row for row in rows}


@pytest.mark.parametrize("known", [False, True], ids=["newcomers", "known-people"])
async def test_forty_pairs_finishing_at_once_lose_no_update(store: Store, known: bool) -> None:
    """40 rounds; in each, two tables with the same regular and the same newcomer finish at the same
    moment (two sessions committing concurrently). Guild 1 commits each pair concurrently; guild 2
    replays the very same finishes one at a time. Both tables of a pair are identical for the
    rating (the regular first, the newcomer second), so the result cannot depend on which of the two
    commits first: every count, every μ and σ must equal the serial replay's exactly. With
    ``known``, everyone already has a standings row (one serial game each first), so only the
    increments race; without, each pair also creates the newcomer's row twice at once.

    Seen to fail on PostgreSQL with the old read-modify-write (session.get, add a row if missing,
    then += in Python): "newcomers" failed in round 1 with "deadlock detected" on INSERT INTO
    player_stats (both sessions inserting the same two new people, in opposite seat orders), rolling
    back that whole final action; "known-people" ended with the regular on 81 and 82 games instead of
    120 (38–39 of the 80 concurrent increments lost) and μ unequal to the serial replay. On SQLite
    it passed either way, because SQLite runs one writer at a time.
    """
    channel = 1000
    expected_games = 2 * PAIRS
    if known:
        expected_games += PAIRS
        for round_ in range(PAIRS):
            seats, _ = pair_seats(100 + round_)
            for guild in (1, 2):
                await (await finish(store, guild, channel, seats, {REGULAR: 1, 100 + round_: 2}))()
                channel += 1
    for round_ in range(PAIRS):
        newcomer = 100 + round_
        first, second = pair_seats(newcomer)
        places = {REGULAR: 1, newcomer: 2}
        concurrent = [
            await finish(store, 1, channel, first, places),
            await finish(store, 1, channel + 1, second, places),
        ]
        serial = [
            await finish(store, 2, channel + 2, first, places),
            await finish(store, 2, channel + 3, second, places),
        ]
        channel += 4
        await asyncio.gather(*(commit() for commit in concurrent))
        for commit in serial:
            await commit()

    together, alone = await standings(store, 1), await standings(store, 2)
    regular = together[REGULAR]
    assert (regular.games, regular.wins) == (expected_games, expected_games)
    assert regular.points == expected_games * 9
    newcomer_games = 3 if known else 2
    for uid in range(100, 100 + PAIRS):
        assert (together[uid].games, together[uid].wins) == (newcomer_games, 0)
        assert together[uid].points == newcomer_games * 8
    assert set(together) == set(alone)
    for uid, row in alone.items():
        assert together[uid].mu == pytest.approx(row.mu, abs=1e-9), uid
        assert together[uid].sigma == pytest.approx(row.sigma, abs=1e-9), uid
    assert regular.mu > 25  # and the updates did move it: a long run of wins


def test_every_computer_level_has_its_own_strength() -> None:
    """Every level of every game is in COMPUTER_RATINGS (none falls back to the default), and within
    a game a stronger level rates higher. Seen to fail while Trap's easy/medium/hard and GiftTRAP's
    thoughtful were missing (all rated as the default μ 25)."""
    for name in GAMES:
        levels = get_game(name).computer_levels
        strengths = [COMPUTER_RATINGS[level][0] for level in levels]  # KeyError names the missing one
        assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths), name


async def beat_a_computer(store: Store, guild_id: int, level: str) -> PlayerStats:
    seats = [SeatSpec(0, REGULAR, "reg"), SeatSpec(1, None, "Robo", computer_level=level)]
    await (await finish(store, guild_id, guild_id, seats, {REGULAR: 1, 1: 2}, game="trap"))()
    return (await standings(store, guild_id, "trap"))[REGULAR]


async def test_beating_trap_hard_moves_rating_more_than_beating_trap_easy(store: Store) -> None:
    """Seen to fail before Trap's levels had strengths: both gains were identical (μ 25 each)."""
    easy = await beat_a_computer(store, 1, "easy")
    medium = await beat_a_computer(store, 2, "medium")
    hard = await beat_a_computer(store, 3, "hard")
    fresh = 25.0
    assert 0 < easy.mu - fresh < medium.mu - fresh < hard.mu - fresh
