"""The store: one transaction per action, resuming exactly, results and ratings."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from cogs.table.model import Table
from db.engine import Database
from db.models import ActionRow
from db.standings import Standings
from db.store import Conflict, SeatResult, SeatSpec, Store
from rules import get_game
from rules.selfplay import play_game

GAME = get_game("zipzap")
SEATS = [SeatSpec(0, 11, "ann"), SeatSpec(1, 22, "bea"), SeatSpec(2, None, "Robo 1", computer_level="sharp")]


@pytest.fixture
async def store(database_url: str):  # type: ignore[no-untyped-def]
    s = Store(Database(database_url))
    yield s
    await s.db.dispose()


async def new_game(store: Store) -> int:
    gid = await store.create_table(
        guild_id=1,
        channel_id=5,
        game="zipzap",
        host_id=11,
        options={"seats": 3, "rules": {}},
        speed="relaxed",
        seed=42,
        seats=SEATS,
    )
    state = GAME.new_game(3, GAME.parse_options({}), 42)
    await store.start_game(
        gid, version=1, seats=SEATS, state=state.to_json(), log=[], deadline_at=None, deadline_action=None
    )
    return gid


async def test_a_persisted_game_resumes_exactly(store: Store, database_url: str) -> None:
    gid = await new_game(store)
    record = play_game(GAME, 3, GAME.parse_options({}), 42, ["casual", "casual", "sharp"], max_actions=40)
    state = GAME.new_game(3, GAME.parse_options({}), 42)
    for version, (seat, action) in enumerate(record.actions[:30], start=2):
        state.apply(seat, action)
        await store.commit_action(
            gid,
            seq=version,
            seat=seat,
            action=action,
            actor_id=None,
            state=state.to_json(),
            version=version,
            log=[f"line {version}"],
            deadline_at=None,
            deadline_action=None,
        )
    # "Restart": a new engine and store on the same file.
    fresh = Store(Database(database_url))
    try:
        rows = await fresh.live_tables()
        assert [r.id for r in rows] == [gid]
        table = Table.from_row(rows[0])
        assert table.version == 31
        assert table.state is not None and table.state.to_json() == state.to_json()
        assert [s.name for s in table.seats] == ["ann", "bea", "Robo 1"]
        assert table.seats[2].computer_level == "sharp"
        assert len(await fresh.actions(gid)) == 30
    finally:
        await fresh.db.dispose()


async def test_a_failed_commit_writes_nothing(store: Store) -> None:
    """A write that fails half-way (here: two seats with the same number, after the row's UPDATE
    and the action row went in) leaves the table exactly as it was: one transaction."""
    gid = await new_game(store)
    state = GAME.new_game(3, GAME.parse_options({}), 42).to_json()
    await store.commit_action(
        gid,
        seq=2,
        seat=0,
        action="a",
        actor_id=11,
        state=state,
        version=2,
        log=[],
        deadline_at=None,
        deadline_action=None,
    )
    with pytest.raises(IntegrityError):
        await store.commit_action(
            gid,
            seq=3,
            seat=1,
            action="b",
            actor_id=22,
            state={"broken": True},
            version=3,
            log=[],
            deadline_at=None,
            deadline_action=None,
            seats=[SEATS[0], SEATS[0]],
        )
    row = await store.get_table(gid)
    assert row is not None and row.version == 2 and row.state == state
    async with store.db.sessions() as s:
        assert await s.scalar(select(func.count()).select_from(ActionRow)) == 1


async def test_a_stale_write_is_a_conflict_and_writes_nothing(store: Store) -> None:
    """Every write names the version it was made from. Two writers that both start from version
    2 (two processes, or a stale copy of the table): the second is a Conflict, never an overwrite
    and never a second action row. Seen to fail with the version check taken out of Store.write
    (the second write overwrote the state and added a duplicate-looking action)."""
    gid = await new_game(store)
    state = GAME.new_game(3, GAME.parse_options({}), 42).to_json()
    common = {"state": state, "log": [], "deadline_at": None, "deadline_action": None}
    await store.commit_action(gid, seq=2, seat=0, action="a", actor_id=11, version=2, **common)
    with pytest.raises(Conflict):
        await store.commit_action(gid, seq=2, seat=1, action="b", actor_id=22, version=2, **common)
    with pytest.raises(Conflict):  # a lobby write from an old copy is checked the same way
        await store.save_lobby(gid, 2, SEATS)
    row = await store.get_table(gid)
    assert row is not None and row.version == 2
    assert [(a.seq, a.action) for a in await store.actions(gid)] == [(2, "a")]


async def test_results_and_ratings(store: Store) -> None:
    gid = await new_game(store)
    state = GAME.new_game(3, GAME.parse_options({}), 42).to_json()
    await store.commit_action(
        gid,
        seq=2,
        seat=1,
        action="x",
        actor_id=22,
        state=state,
        version=2,
        log=[],
        deadline_at=None,
        deadline_action=None,
        seats=SEATS,
        guild_id=1,
        game="zipzap",
        results=[SeatResult(1, 1, 3), SeatResult(0, 2, 9), SeatResult(2, 3, 14)],
    )
    standings = Standings(store.db)
    board = (await standings.board(1, "zipzap", None, 1, 10, asker=11)).rows
    assert [r.name for r in board] == ["bea", "ann"]  # computer seats are not on the board
    bea, ann = board
    assert (bea.games, bea.wins, bea.points, bea.total_games) == (1, 1, 3, 1)
    assert (ann.games, ann.wins) == (1, 0)
    assert bea.rating.value > ann.rating.value > 1500  # ann beat the sharp computer
    assert bea.rating.provisional and ann.rating.provisional  # one game is not enough to settle
    assert len(await store.results(gid)) == 3
    assert [r.game for r in await standings.record(1, 11)] == ["zipzap"]
    assert (await standings.board(2, "zipzap", None, 1, 10, asker=11)).rows == []  # per server
    # The results message's line: each person's rating before and after, best place first.
    changes = await store.rating_changes(gid)
    assert [(c.name, c.place) for c in changes] == [("bea", 1), ("ann", 2)]
    assert changes[0].before.value == 1500 and changes[0].after == bea.rating
    assert changes[1].after == ann.rating


async def test_a_player_who_left_is_rated_last_and_gets_no_win(store: Store) -> None:
    from datetime import UTC, datetime

    seats = [SEATS[0], SeatSpec(1, 22, "bea", computer_level="casual", left_at=datetime.now(UTC)), SEATS[2]]
    gid = await new_game(store)
    await store.commit_action(
        gid,
        seq=2,
        seat=1,
        action="x",
        actor_id=None,
        state={},
        version=2,
        log=[],
        deadline_at=None,
        deadline_action=None,
        seats=seats,
        guild_id=1,
        game="zipzap",
        results=[SeatResult(1, 1, 3), SeatResult(0, 2, 9), SeatResult(2, 3, 14)],
    )
    board = (await Standings(store.db).board(1, "zipzap", None, 1, 10, asker=11)).rows
    bea = next(r for r in board if r.name == "bea")
    ann = next(r for r in board if r.name == "ann")
    assert bea.wins == 0 and bea.games == 1
    assert ann.rating.value > bea.rating.value
    (left,) = [c for c in await store.rating_changes(gid) if c.name == "bea"]
    assert left.left and left.after.value < left.before.value
