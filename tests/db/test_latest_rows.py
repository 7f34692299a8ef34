"""The Latest lines are stored as data and worded when drawn; rows stored before that (their lines
finished English sentences, on the games row and on every action row) still load and show.

A row of the old kind is written exactly as the referee wrote it before the catalogs (sentences
in ``games.log`` and in each ``actions.log``'s ``lines``), then loaded as a restart loads it, and
drawn: the old sentences come out as they were, and a new action's line, stored as data, is
worded after them. Seen failing with ``latest.line`` handing every entry to the game (a
``TypeError`` on the str entries) and with ``Table.log_events`` storing the worded line (the new
entry was a str, not data).
"""

from __future__ import annotations

import pytest

from cogs.table.drawing import TableDrawing
from cogs.table.lobby import Lobby
from cogs.table.model import Table
from cogs.zipzap import ZipZapUI
from db.engine import Database
from db.store import SeatSpec, Store
from rules import get_game
from rules.selfplay import play_game

GAME = get_game("zipzap")
SEATS = [SeatSpec(0, 11, "ann"), SeatSpec(1, 22, "bea"), SeatSpec(2, None, "Robo 1", computer_level="sharp")]
SEED = 7
OLD_SNAPSHOT_LINES = ["The game begins with 3 players.", "**ann** played the red 4."]


@pytest.fixture
async def store(database_url: str):  # type: ignore[no-untyped-def]
    s = Store(Database(database_url))
    yield s
    await s.db.dispose()


def drawing() -> TableDrawing:
    uis = {"zipzap": ZipZapUI()}
    return TableDrawing(uis, Lobby(uis))  # type: ignore[arg-type]


async def test_rows_with_sentences_load_and_show_and_new_lines_are_data(store: Store) -> None:
    gid = await store.create_table(
        guild_id=1,
        channel_id=5,
        game="zipzap",
        host_id=11,
        options={"seats": 3, "rules": {}},
        speed="relaxed",
        seed=SEED,
        seats=SEATS,
    )
    state = GAME.new_game(3, GAME.parse_options({}), SEED)
    await store.start_game(
        gid,
        version=1,
        seats=SEATS,
        state=state.to_json(),
        log=list(OLD_SNAPSHOT_LINES),
        deadline_at=None,
        deadline_action=None,
    )
    record = play_game(GAME, 3, GAME.parse_options({}), SEED, ["casual", "casual", "sharp"], max_actions=2)
    seat, action = record.actions[0]
    state.apply(seat, action)
    old_line = "**bea** played the blue 5."  # as an action row stored it before the catalogs
    await store.write(
        gid,
        version=2,
        values={"deadline_at": None},
        action=(seat, action, None),
        action_log={"lines": [old_line], "fresh": False},
    )

    (row,) = await store.live_tables()
    table = Table.from_row(row)
    shown = drawing().latest(table)
    assert shown == [*OLD_SNAPSHOT_LINES, old_line]

    # The next action, taken now, is kept as data: seat numbers and codes, no sentence.
    seat, action = record.actions[1]
    events = table.state.apply(seat, action)  # type: ignore[union-attr]
    table.version = 3
    table.log_events(events)
    new_entries = table.log[len(shown) :]
    assert new_entries and all(isinstance(e, dict) and "text" not in e for e in new_entries)
    assert table.log_added == {"lines": new_entries, "fresh": False}
    worded = drawing().latest(table, count=10)
    assert worded[: len(shown)] == shown
    ui = ZipZapUI()
    assert worded[len(shown) :] == [ui.event_line(table, e) for e in events]
