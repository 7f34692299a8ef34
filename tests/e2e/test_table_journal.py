"""One log line per table event (cogs/table/journal.py): what `make offline` shows below its
address, and what a real bot's log says about its tables.

Seen to fail before issue 21: nothing was logged for any of these events (the table machinery
logged only Discord failures), so a person running `make offline` saw no sign of their game in the
terminal; and with the names printed as given, the right-to-left mark in a member's name reached
the terminal and turned the rest of the line around."""

from __future__ import annotations

import logging

import pytest

from cogs.table.journal import TABLE_EVENTS
from tests.e2e.zipzap_driver import Player, is_over, open_lobby, play_to_end


@pytest.mark.simcord(settle_timeout=20)
async def test_each_table_event_is_one_line(simcord_env, simcord_bot, caplog) -> None:
    caplog.set_level(logging.INFO, logger=TABLE_EVENTS)
    env = simcord_env
    t = await open_lobby(env, seats=2, rounds=1, people=("alice",))
    channel, alice = t["channel"], t["host"]
    await alice.click(t["lobby"], label="Start")
    await play_to_end(env, [Player(alice, channel, t["lobby"])], channel)
    assert is_over(channel)

    evil = t["guild"].add_member(env.create_user("mallory\u202eevil"))
    await evil.slash(channel, "zipzap new", seats=3)
    await evil.click(channel.last_message, label="Cancel")

    lines = [r.getMessage() for r in caplog.records if r.name == TABLE_EVENTS]
    assert lines[0] == "#game-night (table 1): alice opened a Zip Zap table for 2 players"
    assert lines[1] == "#game-night (table 1): Zip Zap started with alice and Robo 1 (casual)"
    assert lines[2].startswith("#game-night (table 1): Zip Zap finished: 1st ")
    assert "alice" in lines[2] and "2nd" in lines[2]
    assert lines[3] == "#game-night (table 2): mallory?evil opened a Zip Zap table for 3 players"
    # The note is the one the table shows, whose names carry no reordering character at all.
    assert lines[4] == "#game-night (table 2): the Zip Zap lobby ended. Cancelled by malloryevil."
    assert len(lines) == 5
    assert all(line.isprintable() for line in lines)
