"""Migrations run up, down and up again on a real database (a SQLite file, or PostgreSQL with
TEST_DATABASE_URL), and the schema holds its rules."""

from __future__ import annotations

import asyncio
import itertools
import json

import pytest
from sqlalchemy import inspect, text

from db.engine import Database, downgrade, migrate
from db.store import ChannelBusy, SeatSpec, Store

TABLES = {
    "games",
    "seats",
    "actions",
    "signals",
    "results",
    "player_stats",
    "guild_settings",
    "person_settings",
    "shard_leases",
    "seasons",
    "season_standings",
}


def tables_in(url: str) -> set[str]:
    async def names() -> set[str]:
        database = Database(url)
        try:
            async with database.engine.connect() as conn:
                return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        finally:
            await database.dispose()

    return asyncio.run(names()) - {"alembic_version"}


def test_up_down_up(fresh_database_url: str) -> None:
    url = fresh_database_url  # on SQLite, a file in a folder that is created on first start
    migrate(url)
    assert tables_in(url) == TABLES
    downgrade(url, "base")
    assert tables_in(url) == set()
    migrate(url)
    assert tables_in(url) == TABLES
    migrate(url)  # a second start finds nothing to do
    assert tables_in(url) == TABLES


@pytest.mark.sqlite_only("checks SQLite's own pragmas")
async def test_connections_use_wal_and_foreign_keys(database_url: str) -> None:
    database = Database(database_url)
    try:
        async with database.engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar() == "wal"
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar() == 1
            assert (await conn.execute(text("PRAGMA busy_timeout"))).scalar() >= 1000
    finally:
        await database.dispose()


async def test_one_live_table_per_channel(database_url: str) -> None:
    store = Store(Database(database_url))
    seats = [SeatSpec(0, 11, "ann")]
    common = {"guild_id": 1, "game": "zipzap", "host_id": 11, "options": {}, "speed": "relaxed", "seed": 7}
    try:
        first = await store.create_table(channel_id=100, seats=seats, **common)
        with pytest.raises(ChannelBusy):
            await store.create_table(channel_id=100, seats=seats, **common)
        await store.create_table(channel_id=200, seats=seats, **common)  # another channel is fine
        await store.end_table(first, "cancelled", 1)
        await store.create_table(channel_id=100, seats=seats, **common)  # a finished table frees it
    finally:
        await store.db.dispose()


def test_standings_keep_their_counts_through_0004_up_and_down(fresh_database_url: str) -> None:
    """Before 0004 a standing's games were all its games. Up: the all-time counts start from them.
    Down (after a new season emptied the season's counts): the old columns get the all-time
    counts back, so nothing a person played is lost either way."""
    url = fresh_database_url
    migrate(url, "0003")
    row = "(1, 'zipzap', 11, 'ann', 3, 1, 7, 25.0, 8.0, '2026-01-01 00:00:00')"
    run(
        url,
        "INSERT INTO player_stats (guild_id, game, user_id, name, games, wins, points, mu, sigma, "
        f"updated_at) VALUES {row}",
    )
    migrate(url)
    assert fetch(url, "SELECT total_games, total_wins, total_points FROM player_stats") == [(3, 1, 7)]
    run(url, "UPDATE player_stats SET games = 0, wins = 0, points = 0")  # a new season began
    downgrade(url, "0003")
    assert fetch(url, "SELECT games, wins, points FROM player_stats") == [(3, 1, 7)]
    migrate(url)
    assert fetch(url, "SELECT games, total_games FROM player_stats") == [(3, 3)]


def run(url: str, statement: str) -> None:
    async def go() -> None:
        database = Database(url)
        try:
            async with database.engine.begin() as conn:
                await conn.execute(text(statement))
        finally:
            await database.dispose()

    asyncio.run(go())


def fetch(url: str, statement: str) -> list[tuple[object, ...]]:
    async def go() -> list[tuple[object, ...]]:
        database = Database(url)
        try:
            async with database.engine.connect() as conn:
                return [tuple(r) for r in (await conn.execute(text(statement))).all()]
        finally:
            await database.dispose()

    return asyncio.run(go())


def test_0005_down_gives_every_row_its_current_state_and_lines(fresh_database_url: str) -> None:
    """After 0005 a row's state is a snapshot that may be older than the row, and each action
    keeps its own Latest lines. Down: the code before 0005 reads ``state`` and ``log`` as the
    current ones, so the downgrade replays them into the row. Up again: the row (now without a
    snapshot version) loads as it is. Seen failing (throwaway run) with the downgrade's replay
    loop removed: the state after the downgrade was the start's."""
    from db.snapshots import LOG_LINES
    from rules import get_game
    from rules.selfplay import play_game

    url = fresh_database_url
    migrate(url)
    game = get_game("zipzap")
    options = game.parse_options({})
    record = play_game(game, 3, options, 9, ["casual", "casual", "sharp"], max_actions=10)
    state = game.new_game(3, options, 9)
    latest: list[str] = ["begins"]

    async def play() -> int:
        store = Store(Database(url))
        seats = [
            SeatSpec(0, 11, "ann"),
            SeatSpec(1, 22, "bea"),
            SeatSpec(2, None, "Robo", computer_level="sharp"),
        ]
        try:
            gid = await store.create_table(
                guild_id=1,
                channel_id=5,
                game="zipzap",
                host_id=11,
                options={},
                speed="relaxed",
                seed=9,
                seats=seats,
            )
            await store.start_game(
                gid, version=1, seats=seats, state=state.to_json(), log=list(latest), deadline_at=None,
                deadline_action=None,
            )  # fmt: skip
            for version, (seat, action) in enumerate(record.actions, start=2):
                state.apply(seat, action)
                latest[:] = [*latest, f"line {version}"][-LOG_LINES:]
                await store.write(
                    gid, version=version, values={}, action=(seat, action, None),
                    action_log={"lines": [f"line {version}"], "fresh": False},
                )  # fmt: skip
            return gid
        finally:
            await store.db.dispose()

    gid = asyncio.run(play())
    downgrade(url, "0004")
    ((stored_state, stored_log),) = fetch(url, f"SELECT state, log FROM games WHERE id = {gid}")
    decode = (lambda v: json.loads(v)) if isinstance(stored_state, str) else (lambda v: v)
    assert decode(stored_state) == state.to_json()
    assert decode(stored_log) == latest
    migrate(url)

    async def load() -> None:
        store = Store(Database(url))
        try:
            row = await store.get_table(gid)
            assert row is not None and row.state_version is None
            assert row.state == state.to_json() and row.log == latest
        finally:
            await store.db.dispose()

    asyncio.run(load())


REVISIONS = ["0007", "0006", "0005", "0004", "0003", "0002", "0001"]


def row_counts(url: str) -> dict[str, int]:
    return {table: int(fetch(url, f"SELECT COUNT(*) FROM {table}")[0][0]) for table in sorted(tables_in(url))}


def test_migrations_keep_every_row_down_to_0001_and_up_again(fresh_database_url: str) -> None:
    """With a finished and a live game of every title in the database (seats, actions, results,
    standings, a season), every downgrade to 0001 and every upgrade back to head keeps every row of
    every table that exists on both sides of the step: only a table a revision creates or drops
    comes or goes with it. Seen failing without ``PRAGMA foreign_keys=OFF`` in migrations/env.py
    (SQLite): 0005's downgrade rebuilds ``games``, and dropping the old one cascaded to every seat
    and action (0 seats, 0 actions left)."""
    from rules import GAMES
    from tests.e2e.boards_helpers import Sitter, record_game

    url = fresh_database_url
    migrate(url)

    async def fill() -> None:
        store = Store(Database(url))
        try:
            for n, (key, game) in enumerate(GAMES.items()):
                players = max(game.min_players, 2)
                sitters = [Sitter(100 + i, f"p{i}") for i in range(players)]
                await record_game(store, guild_id=1, channel_id=10 + n, key=key, sitters=sitters, seed=n + 1)
                seats = [SeatSpec(i, 100 + i, f"p{i}") for i in range(players)]
                gid = await store.create_table(
                    guild_id=1, channel_id=50 + n, game=key, host_id=100, options={"seats": players},
                    speed="relaxed", seed=n, seats=seats,
                )  # fmt: skip
                state = game.new_game(players, game.parse_options({}), n)
                await store.start_game(
                    gid, version=1, seats=seats, state=state.to_json(), log=[], deadline_at=None,
                    deadline_action=None,
                )  # fmt: skip
                seat, action = next((s, a) for s in range(players) for a in state.legal_actions(s)[:1])
                state.apply(seat, action)
                await store.write(
                    gid, version=2, values={}, action=(seat, action, 100 + seat),
                    action_log={"lines": [], "fresh": False},
                )  # fmt: skip
        finally:
            await store.db.dispose()

    asyncio.run(fill())
    # Each server's and person's language (0006): their rows come and go with their table only.
    run(url, "INSERT INTO guild_settings (guild_id, language, updated_at) VALUES (1, 'de', '2026-01-01')")
    run(url, "INSERT INTO guild_settings (guild_id, updated_at) VALUES (2, '2026-01-01')")
    run(url, "INSERT INTO person_settings (user_id, language, updated_at) VALUES (100, 'pl', '2026-01-01')")
    run(url, "UPDATE games SET language = 'es' WHERE channel_id = 50")
    counts = {"head": row_counts(url)}
    assert counts["head"]["guild_settings"] == 2 and counts["head"]["person_settings"] == 1
    assert counts["head"]["games"] == 2 * len(GAMES) and counts["head"]["actions"] > len(GAMES)
    assert counts["head"]["seats"] > 0 and counts["head"]["results"] > 0
    for revision in REVISIONS:
        downgrade(url, revision)
        counts[revision] = row_counts(url)
    for revision in [*reversed(REVISIONS[:-1]), "head"]:
        migrate(url, revision)
        counts[f"up {revision}"] = row_counts(url)
    steps = list(counts.items())
    for (before_name, before), (after_name, after) in itertools.pairwise(steps):
        for table in before.keys() & after.keys():
            assert after[table] == before[table], (
                f"{table}: {before[table]} rows at {before_name}, {after[table]} at {after_name}"
            )


def test_0006_languages_up_down_up(fresh_database_url: str) -> None:
    """0006 adds the table's, the server's and each person's language. Up from 0005: the tables
    already there speak English (NULL, read as English). Down: the languages go, every row stays.
    Up again: the columns are back, empty, and a language is stored and read again."""
    from db.languages import LanguageChoices
    from db.models import Game as GameRow

    url = fresh_database_url
    migrate(url, "0005")
    run(url, "INSERT INTO guild_settings (guild_id, updated_at) VALUES (1, '2026-01-01')")

    async def table(language: str, channel_id: int) -> int:
        store = Store(Database(url))
        try:
            return await store.create_table(
                guild_id=1, channel_id=channel_id, game="zipzap", host_id=11, options={},
                speed="relaxed", seed=1, seats=[SeatSpec(0, 11, "ann")], language=language,
            )  # fmt: skip
        finally:
            await store.db.dispose()

    run(
        url,
        "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, speed, seed, version, log, "
        "created_at, updated_at) VALUES (1, 5, 'zipzap', 'lobby', 11, '{}', 'relaxed', 1, 0, '[]', "
        "'2026-01-01', '2026-01-01')",
    )
    migrate(url)
    assert fetch(url, "SELECT language FROM games") == [(None,)]
    german = asyncio.run(table("de", 6))

    async def choose() -> tuple[dict[int, str], dict[int, str], str | None]:
        database = Database(url)
        choices = LanguageChoices(database)
        try:
            await choices.set_guild(1, "es")
            await choices.set_guild(2, "pl")
            await choices.set_person(11, "pt_BR")
            await choices.set_person(11, "de")  # a second choice replaces the first
            await choices.set_person(12, "es")
            await choices.set_person(12, None)  # "Discord's": no row left
            guilds, people = await choices.load()
            async with database.sessions() as session:
                row = await session.get(GameRow, german)
                return guilds, people, row.language if row is not None else None
        finally:
            await database.dispose()

    guilds, people, stored = asyncio.run(choose())
    assert guilds == {1: "es", 2: "pl"} and people == {11: "de"} and stored == "de"
    before = {t: n for t, n in row_counts(url).items() if t != "person_settings"}
    downgrade(url, "0005")
    assert "person_settings" not in tables_in(url)
    assert row_counts(url) == before  # every game and server row stays
    migrate(url)
    assert fetch(url, "SELECT COUNT(*) FROM games WHERE language IS NOT NULL") == [(0,)]
    assert fetch(url, "SELECT COUNT(*) FROM person_settings") == [(0,)]
    polish = asyncio.run(table("pl", 7))
    assert fetch(url, f"SELECT language FROM games WHERE id = {polish}") == [("pl",)]
