"""Forgetting is fair and atomic (db/forgetting.py), on a real database (SQLite, and PostgreSQL
with TEST_DATABASE_URL).

Fair: ann asks to be forgotten while she plays; the game still rates her as she stood (2000,
not a newcomer's 1500), so bea's gain is what it would have been; the game's end forgets her.
Atomic: her forget and the end of her game, sent at the same moment from two connection pools,
always leave her wholly forgotten (no seat, result or standing keeps her id) and always rated as
she stood. Seen to fail before the lock per person: on PostgreSQL her result lost her id while
her seat kept it, in 4-10 of 20 trials.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import select, update

from db.engine import Database
from db.models import Base, ForgetRequest, PlayerStats, ResultRow, Seat
from db.ratings import RATING_MODEL, START_SIGMA, kept_mu
from db.standing_changes import Forgetting
from db.standings import FORGOTTEN_NAME, Standings
from db.store import SeatResult, SeatSpec, Store
from rules import get_game
from rules.selfplay import play_game
from tests.conftest import ON_POSTGRES
from tests.e2e.boards_helpers import Sitter, record_game

GUILD = 1
ANN, BEA = 431_000_000_000_000_001, 431_000_000_000_000_002  # ids no row number reaches
Ending = Callable[..., Awaitable[list[int]]]
STRONG_MU = 37.5  # 2000 on the shown scale


@pytest.fixture
async def pools(database_url: str) -> AsyncIterator[tuple[Database, Database]]:
    """Two databases on one URL: two connection pools, as two processes would have."""
    first, second = Database(database_url), Database(database_url)
    yield first, second
    await first.dispose()
    await second.dispose()


async def strong_ann(store: Store, channel: int) -> None:
    """ann has a record here, with a rating well above a newcomer's."""
    people = [Sitter(ANN, "ann"), Sitter(BEA, "bea")]
    await record_game(store, guild_id=GUILD, channel_id=channel, key="zipzap", sitters=people, seed=2)
    async with store.db.sessions() as session, session.begin():
        await session.execute(
            update(PlayerStats).where(PlayerStats.user_id == ANN).values(mu=STRONG_MU, sigma=4.0)
        )


async def game_at_its_last_action(store: Store, channel: int, seed: int) -> tuple[int, Ending]:
    """A Zip Zap game between ann and bea, committed up to its last action; returns the commit of
    that last action (the game's end, which rates them)."""
    game = get_game("zipzap")
    options = game.parse_options({})
    record = play_game(game, 2, options, seed, list(game.computer_levels))
    seats = [SeatSpec(0, ANN, "ann"), SeatSpec(1, BEA, "bea")]
    gid = await store.create_table(
        guild_id=GUILD,
        channel_id=channel,
        game="zipzap",
        host_id=ANN,
        options={"seats": 2, "rules": game.options_to_json(options)},
        speed="relaxed",
        seed=seed,
        seats=seats,
    )
    state = game.new_game(2, options, seed)
    await store.start_game(
        gid, version=1, seats=seats, state=state.to_json(), log=[], deadline_at=None, deadline_action=None
    )
    *early, last = record.actions
    for version, (seat, action) in enumerate(early, start=2):
        state.apply(seat, action)
        await store.commit_action(
            gid,
            seq=version,
            seat=seat,
            action=action,
            actor_id=seats[seat].user_id if seat is not None else None,
            state=state.to_json(),
            version=version,
            log=[],
            deadline_at=None,
            deadline_action=None,
        )
    version = len(early) + 2
    state.apply(*last)
    result = state.result()
    assert result is not None

    async def end(on: Store = store) -> list[int]:
        return await on.commit_action(
            gid,
            seq=version,
            seat=last[0],
            action=last[1],
            actor_id=None,
            state=state.to_json(),
            version=version,
            log=[],
            deadline_at=None,
            deadline_action=None,
            seats=seats,
            results=[SeatResult(p.seat, p.place, p.points) for p in result.placements],
            guild_id=GUILD,
            game="zipzap",
        )

    return gid, end


async def holding(database: Database, user_id: int) -> list[str]:
    """Every column of every row that holds the id (the schema's metadata: nothing skipped)."""
    hits = []
    async with database.engine.connect() as connection:
        for table in Base.metadata.sorted_tables:
            for row in (await connection.execute(select(table))).mappings():
                hits += [f"{table.name}.{k}" for k, v in row.items() if v == user_id or v == str(user_id)]
    return hits


def expected_bea_mu(places: dict[int, int], bea_mu: float, bea_sigma: float) -> float:
    """bea's μ after the game against ann at her stored rating (what fairness asks for)."""
    teams = [
        [RATING_MODEL.rating(mu=STRONG_MU, sigma=4.0)],
        [RATING_MODEL.rating(mu=bea_mu, sigma=bea_sigma)],
    ]
    rated = RATING_MODEL.rate(teams, ranks=[places[0], places[1]])
    return kept_mu(bea_mu, float(rated[1][0].mu), beaten=places[0] < places[1])


async def test_a_game_in_progress_rates_her_as_she_stood_then_forgets_her(database_url: str) -> None:
    database = Database(database_url)
    store, standings = Store(database), Standings(database)
    try:
        await strong_ann(store, channel=5)
        gid, end = await game_at_its_last_action(store, channel=6, seed=4)
        async with database.sessions() as session:
            bea = await session.get(PlayerStats, (GUILD, "zipzap", BEA))
            assert bea is not None
            bea_mu, bea_sigma = bea.mu, bea.sigma

        assert await standings.forget(GUILD, ANN) == Forgetting(games=0, waiting_for=1)
        assert await standings.forget(GUILD, ANN) == Forgetting(games=0, waiting_for=1)  # asked twice
        async with database.sessions() as session:
            ann = await session.get(PlayerStats, (GUILD, "zipzap", ANN))
            assert ann is not None and ann.mu == STRONG_MU  # kept for the game in progress
            assert await session.get(ForgetRequest, (GUILD, ANN)) is not None

        assert await end() == [ANN]

        async with database.sessions() as session:
            results = {
                r.seat: r for r in await session.scalars(select(ResultRow).where(ResultRow.game_id == gid))
            }
            bea_after = await session.get(PlayerStats, (GUILD, "zipzap", BEA))
        assert results[0].mu_before == STRONG_MU and results[0].user_id is None  # rated, then forgotten
        places = {seat: r.place for seat, r in results.items()}
        assert bea_after is not None
        assert bea_after.mu == pytest.approx(expected_bea_mu(places, bea_mu, bea_sigma))
        assert await holding(database, ANN) == []
        assert not await standings.has_record(GUILD, ANN)
    finally:
        await database.dispose()


async def test_forget_and_a_game_end_at_once_never_half_forget(pools: tuple[Database, Database]) -> None:
    first, second = pools
    forgetter, ender = Standings(first), Store(second)
    trials = 20 if ON_POSTGRES else 4
    orders: set[int] = set()  # which went first, across the trials
    for trial in range(trials):
        async with first.sessions() as session, session.begin():  # each trial: ann known again
            for table in reversed(Base.metadata.sorted_tables):
                if table.name != "alembic_version":
                    await session.execute(table.delete())
        await strong_ann(Store(first), channel=10 * trial + 1)
        gid, end = await game_at_its_last_action(Store(first), channel=10 * trial + 2, seed=trial)

        async def forget(trial: int) -> Forgetting:
            # Started a little later each trial, so it lands before, inside and after the end's
            # transaction (which takes some milliseconds: it rates the players).
            await asyncio.sleep(trial * 0.002)
            return await forgetter.forget(GUILD, ANN)

        outcome: tuple[Any, ...] = await asyncio.gather(forget(trial), end(ender))
        asked, forgotten_at_end = outcome
        # One of the two went first and the other saw all of it.
        assert (asked.waiting_for, forgotten_at_end) in ((1, [ANN]), (0, [])), (trial, outcome)
        orders.add(asked.waiting_for)
        assert await holding(first, ANN) == [], trial
        async with first.sessions() as session:
            seat = (await session.scalars(select(Seat).where(Seat.game_id == gid, Seat.seat == 0))).one()
            result = (
                await session.scalars(select(ResultRow).where(ResultRow.game_id == gid, ResultRow.seat == 0))
            ).one()
            bea = await session.get(PlayerStats, (GUILD, "zipzap", BEA))
        assert (seat.user_id, seat.name) == (None, FORGOTTEN_NAME), trial
        assert result.mu_before == STRONG_MU and result.sigma_before != START_SIGMA, trial
        assert bea is not None and bea.total_games == 2, trial
    if ON_POSTGRES:
        assert orders == {0, 1}, "both orders were tried (else the trials missed the race)"
