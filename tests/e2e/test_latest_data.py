"""A recorded game holds data, not words: every Latest entry a game of each title stores (on the
table row, and on each action's row) is an event's kind, seat and parameters, with no sentence in
it and no person's name; and a game shown again from its action log (a replay, a restart, a
catch-up) words the same Latest lines as the table showed when it was played.

The check is model-based rather than a list of words: the seats are given names that appear
nowhere in the games' vocabulary, and every string anywhere in a stored entry must be a code (no
space, no name). Seen failing with Zip Zap's engine still writing ``Event.text`` (a sentence in
every entry), and with ``Table.log_events`` storing the worded line instead of the event.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from cogs.boards.replay import rebuild
from cogs.gifttrap import GiftTrapUI
from cogs.spytrap import SpyTrapUI
from cogs.table import latest
from cogs.table.drawing import TableDrawing
from cogs.table.lobby import Lobby
from cogs.table.model import SeatInfo, Table
from cogs.trap import TrapUI
from cogs.zaptrap import ZapTrapUI
from cogs.zipzap import ZipZapUI
from db.standings import RecordedGame, RecordedSeat
from rules import get_game
from rules.base import Event, State
from rules.selfplay import play_game

# Names no game's words contain, so a name in a stored entry cannot hide among the game's terms.
NAMES = ["Qwyllo", "Brzzt", "Xandrix", "Vuqqa", "Zeplo", "Kroobix"]
CODE = re.compile(r"^[^\s]{0,40}$")
CASES = [
    ("zipzap", ZipZapUI, 4, {}),
    ("zaptrap", ZapTrapUI, 4, {}),
    ("spytrap", SpyTrapUI, 3, {}),
    ("gifttrap", GiftTrapUI, 4, {}),
    ("trap", TrapUI, 2, {}),
]


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *strings(v)]]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings(v)]
    return []


def drawing(ui: Any) -> TableDrawing:
    return TableDrawing({ui.key: ui}, Lobby({ui.key: ui}))


@pytest.mark.parametrize(("key", "ui_class", "players", "options"), CASES, ids=[c[0] for c in CASES])
def test_a_recorded_game_holds_data_and_words_the_same_again(
    key: str, ui_class: type, players: int, options: dict[str, Any]
) -> None:
    game = get_game(key)
    parsed = game.parse_options(options)
    ui = ui_class()
    seats = [SeatInfo(s, 1000 + s, NAMES[s]) for s in range(players)]
    table = Table(
        id=1, guild_id=1, channel_id=1, game=game, host_id=1000,
        settings={"seats": players, "rules": game.options_to_json(parsed)}, speed="relaxed", seed=5,
        status="playing", seats=seats,
    )  # fmt: skip
    stored: list[Any] = []
    worded_then: list[str] = []  # each entry worded when it happened, as the table showed it
    shown_live: list[str] = []

    def keep(entries: list[Any]) -> None:
        stored.extend(entries)
        worded_then.extend(latest.line(table, entry, ui.event_line) for entry in entries)

    def on_action(state: State[Any], seat: int | None, action: str, events: list[Event]) -> None:
        table.state = state
        table.version += 1
        table.log_events(events)
        keep(table.log_added["lines"] if table.log_added is not None else [])
        shown_live[:] = drawing(ui).latest(table, count=100)

    start = game.new_game(players, parsed, 5)
    table.state = start
    table.log_start(list(getattr(start, "opening_events", None) or []))
    keep(list(table.log))
    record = play_game(
        game, players, parsed, 5, list(game.computer_levels[:1]) * players, on_action=on_action
    )
    assert record.actions and stored

    for entry in [*stored, *table.log]:
        assert isinstance(entry, dict) and set(entry) <= {"kind", "seat", "data"}, entry
        for text in strings(entry):
            assert CODE.match(text), f"a sentence in a stored entry: {text!r} in {entry}"
            assert not any(name.lower() in text.lower() for name in NAMES), f"a name in {entry}"

    # Worded again at the end (a later redraw, another language, a renamed seat), each entry reads
    # as it did when it happened: its words depend on its data, not on the table's state now.
    assert [latest.line(table, entry, ui.event_line) for entry in stored] == worded_then

    now = datetime.now(UTC)
    recorded = RecordedGame(
        id=1, guild_id=1, channel_id=1, game=key, status="finished", settings=table.settings, seed=5,
        seats=[RecordedSeat(s, 1000 + s, NAMES[s], None, None) for s in range(players)],
        actions=list(record.actions), acted_at=[now] * len(record.actions), finished_at=now, message_id=None,
    )  # fmt: skip
    frame = rebuild(recorded, ui_class(), len(record.actions))
    assert drawing(ui).latest(frame.table, count=100) == shown_live
