"""What a live table holds (issue 35): tables share their strings, resumed or newly dealt.

The JSON decoder makes every string of every row anew, and an engine makes a round's cards anew at
each deal; a thousand live tables held a thousand copies of each card code, event kind and key,
40% of a resumed table's memory. These tests count objects, so a change that loads or deals
tables without sharing them again fails here (the bench's figure, ``python -m bench --only
memory``, is not a test)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest

from bot import Settings, create_bot
from cogs.table.model import SHARED_MAX, Table
from db.engine import Database
from db.store import SeatSpec, Store
from rules import get_game

GAME = get_game("zipzap")
SEATS = [
    SeatSpec(0, 11, "ann"),
    SeatSpec(1, None, "Robo 2 (casual)", computer_level="casual"),
    SeatSpec(2, None, "Robo 3 (sharp)", computer_level="sharp"),
]
# The Latest lines as the bot stores them (data), the same news at both tables.
LOG = [
    {"kind": "begins", "seat": None, "data": {"players": 3}},
    {"kind": "played", "seat": 0, "data": {"card": "R7"}},
]


@pytest.fixture
async def store(database_url: str):  # type: ignore[no-untyped-def]
    s = Store(Database(database_url))
    yield s
    await s.db.dispose()


async def live_table(store: Store, channel_id: int) -> int:
    """A Zip Zap table in play; the same seed at every channel, so the same cards."""
    gid = await store.create_table(
        guild_id=1,
        channel_id=channel_id,
        game="zipzap",
        host_id=11,
        options={"seats": 3, "rules": {"scoring": "cards"}},
        speed="relaxed",
        seed=42,
        seats=SEATS,
    )
    state = GAME.new_game(3, GAME.parse_options({}), 42)
    await store.start_game(
        gid,
        version=1,
        seats=SEATS,
        state=state.to_json(),
        log=LOG,
        deadline_at=None,
        deadline_action="stall",
    )
    return gid


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)


def held(table: Table) -> list[str]:
    """The strings a table holds: its engine state (``to_json`` hands out the engine's own
    strings), its Latest lines, its settings, its words and its computers' names."""
    assert table.state is not None
    words = [table.speed, table.status, table.language, table.deadline_action]
    for seat in table.seats:
        if seat.is_computer:
            words += [seat.chosen_name, seat.computer_level]
    found = [*strings(table.state.to_json()), *strings(table.log), *strings(table.settings), *words]
    return [s for s in found if isinstance(s, str)]


async def test_resumed_tables_share_every_short_string(store: Store, database_url: str) -> None:
    for channel_id in (5, 6, 7):
        await live_table(store, channel_id)
    fresh = Store(Database(database_url))
    try:
        tables = [Table.from_row(row) for row in await fresh.live_tables()]
    finally:
        await fresh.db.dispose()
    assert len(tables) == 3
    found = [s for table in tables for s in held(table)]
    short = [s for s in found if len(s) <= SHARED_MAX]
    # Counted: one object per distinct short string across the three tables. Unshared, each
    # table brought its own copy of each (three objects for each card code, kind and key).
    assert len(short) > 100  # cards, keys and words: the count below means something
    assert len({id(s) for s in short}) == len(set(short))
    # The tables hold what their rows say, and their engine states are whole.
    for table in tables:
        assert table.log == LOG
        assert table.settings == {"seats": 3, "rules": {"scoring": "cards"}}
        assert table.deadline_action == "stall"
        assert table.state is not None
        assert table.state.to_json() == GAME.new_game(3, GAME.parse_options({}), 42).to_json()
        assert [s.chosen_name for s in table.seats] == [s.name for s in SEATS]


async def test_a_long_string_stays_the_tables_own(store: Store, database_url: str) -> None:
    """A sentence stored in the log before the catalogs is one table's own: kept as it is, not
    added to the interpreter's interned strings."""
    sentence = "ann played a red 7 and nobody could follow it, so ann leads."
    assert len(sentence) > SHARED_MAX
    gid = await live_table(store, 5)
    await store.commit_action(
        gid,
        seq=2,
        seat=None,
        action="note",
        actor_id=None,
        state=GAME.new_game(3, GAME.parse_options({}), 42).to_json(),
        version=2,
        log=[sentence],
        deadline_at=None,
        deadline_action=None,
    )
    fresh = Store(Database(database_url))
    try:
        [table] = [Table.from_row(row) for row in await fresh.live_tables()]
    finally:
        await fresh.db.dispose()
    assert table.log == [sentence]
    # Interned, an equal string would be handed back as the table's own object.
    assert sys.intern("".join(sentence)) is not table.log[0]


async def test_a_resumed_table_and_its_seats_keep_no_attribute_dicts(store: Store, database_url: str) -> None:
    """Slots: a table's fields and each seat's live in the object, without a dictionary of
    attributes beside it (about 260 bytes a Zip Zap table of four). Their drafts, the copies a
    change is made on, are alike."""
    await live_table(store, 5)
    fresh = Store(Database(database_url))
    try:
        [table] = [Table.from_row(row) for row in await fresh.live_tables()]
    finally:
        await fresh.db.dispose()
    draft = table.draft()
    for held_by in (table, *table.seats, draft, *draft.seats):
        assert not hasattr(held_by, "__dict__"), type(held_by).__name__
    # A draft is still a whole copy: the change made on it reaches the table only by adopt().
    draft.seats[0].prefers_dm = True
    assert not table.seats[0].prefers_dm
    table.adopt(draft)
    assert table.seats[0].prefers_dm


async def test_a_new_deal_shares_its_cards_with_every_other_table(store: Store, database_url: str) -> None:
    """The engine makes the cards of each round anew for its table; the referee shares them
    (Spine._advance) so a table from its second round on is as compact as a resumed one."""
    ids = [await live_table(store, channel_id) for channel_id in (5, 6)]
    # A bot that owns shard 1 only: guild 1 is shard 0's, so nothing of this bot plays these
    # tables behind the test's back; it commits each action as a DM click reaching it would.
    bot = create_bot(
        Settings(token=None, database_url=database_url, shard_count=2, shard_ids=(1,), instance="shard-1"),
        sync_commands=False,
    )
    tables: list[Table] = []
    try:
        await bot.setup_hook()
        for gid in ids:
            row = await bot.store.get_table(gid)
            assert row is not None
            table = Table.from_row(row)
            table.foreign = True
            tables.append(table)
            dealt = False
            for _ in range(400):  # Zip Zap's first round of three seats is over well before
                assert table.state is not None
                seat = next(s for s in [None, 0, 1, 2] if table.state.legal_actions(s))
                async with table.lock:
                    events = await bot.referee.act(table, seat, table.state.legal_actions(seat)[0], None)
                if any(event.kind == "deal" for event in events):
                    dealt = True
                    break
            assert dealt and table.state is not None and table.state.to_json()["round"] == 2
    finally:
        bot.scheduler.stop()
        await bot.release()
        await bot.database.dispose()
    # to_json hands out the engine's own card strings (in fresh lists).
    cards = [
        card for table in tables if table.state for hand in table.state.to_json()["hands"] for card in hand
    ]
    assert len(cards) > 30
    # Counted: one object per card code across both tables' hands (each table dealt its own).
    assert len({id(card) for card in cards}) == len(set(cards))
