"""Ratings people trust (issue 33): a draw never costs points, one game moves a rating by at most
MAX_SWING, computers play at their fixed, documented strength. Through the real results write
(``Store.commit_action``) on a real database."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import update

from db.engine import Database
from db.models import PlayerStats
from db.ratings import COMPUTER_RATINGS, MAX_SWING, POINTS_PER_MU, START_MU, kept_mu
from db.store import RatingChange, SeatResult, SeatSpec, Store

GUILD = 1


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    database = Database(database_url)
    yield Store(database)
    await database.dispose()


async def finish(
    store: Store, channel: int, key: str, seats: list[SeatSpec], places: list[int]
) -> list[RatingChange]:
    """A finished table with these places (one per seat), as a real finish writes it."""
    gid = await store.create_table(
        guild_id=GUILD, channel_id=channel, game=key, host_id=seats[0].user_id or 0,
        options={"seats": len(seats), "rules": {}}, speed="relaxed", seed=channel, seats=seats,
    )  # fmt: skip
    await store.commit_action(
        gid, seq=1, seat=0, action="end", actor_id=None, state={}, version=1, log=[], deadline_at=None,
        deadline_action=None, seats=seats, guild_id=GUILD, game=key,
        results=[SeatResult(s.seat, place, 0) for s, place in zip(seats, places, strict=True)],
    )  # fmt: skip
    return await store.rating_changes(gid)


def test_kept_mu_bounds_a_swing_and_never_lowers_an_unbeaten_person() -> None:
    reach = MAX_SWING / POINTS_PER_MU
    assert kept_mu(25.0, 20.0, beaten=True) == pytest.approx(25.0 - reach)
    assert kept_mu(25.0, 31.0, beaten=False) == pytest.approx(25.0 + reach)
    assert kept_mu(25.0, 24.0, beaten=False) == 25.0  # a draw: nothing lost
    assert kept_mu(25.0, 24.0, beaten=True) == 24.0  # inside the bounds: OpenSkill's own


async def test_a_draw_against_the_easy_computer_costs_nothing(store: Store) -> None:
    """Issue 33: a newcomer's Trap draw against the *easy* computer (1220) cost 41 points."""
    seats = [SeatSpec(0, 11, "ann"), SeatSpec(1, None, "Robo", computer_level="easy")]
    (change,) = await finish(store, 1, "trap", seats, [1, 1])
    assert change.after.value >= change.before.value == 1500
    assert COMPUTER_RATINGS["easy"][0] < START_MU  # it was the lower-rated side


async def test_a_draw_against_a_lower_rated_person_costs_nothing(store: Store) -> None:
    seats = [SeatSpec(0, 11, "ann"), SeatSpec(1, 12, "bea")]
    await finish(store, 1, "trap", seats, [2, 1])  # make both rows
    async with store.db.sessions() as session, session.begin():
        await session.execute(update(PlayerStats).where(PlayerStats.user_id == 11).values(mu=32.0, sigma=4.0))
        await session.execute(update(PlayerStats).where(PlayerStats.user_id == 12).values(mu=22.0, sigma=4.0))
    changes = {c.user_id: c for c in await finish(store, 2, "trap", seats, [1, 1])}
    assert changes[11].before.value == 1780 and changes[11].after.value >= 1780
    assert changes[12].after.value > changes[12].before.value  # the lower-rated side still gains


async def test_a_newcomers_game_moves_the_rating_at_most_max_swing(store: Store) -> None:
    """Issue 33: +124 / −188 in one 3-player GiftTRAP. Last behind two sharp computers, and first
    ahead of them, a newcomer moves at most MAX_SWING points."""
    seats = [
        SeatSpec(0, 11, "ann"),
        SeatSpec(1, None, "Robo 1", computer_level="casual"),
        SeatSpec(2, None, "Robo 2", computer_level="casual"),
    ]
    (lost,) = await finish(store, 1, "gifttrap", seats, [3, 1, 2])
    assert lost.before.provisional and lost.after.value - lost.before.value == -MAX_SWING
    other = [SeatSpec(0, 12, "bea"), *seats[1:]]
    other[1:] = [SeatSpec(s.seat, None, s.name, computer_level="thoughtful") for s in seats[1:]]
    (won,) = await finish(store, 2, "gifttrap", other, [1, 2, 3])
    assert 0 < won.after.value - won.before.value <= MAX_SWING
