"""A table that can no longer be loaded after a restart is shown as such (issue 32): its players'
clicks, `/table status`, `/table hand`, a typed move and `/… new` in its channel all say that it
could not be loaded, what is kept, and that a server manager can end it with `/table stop`; the
log says why once.

Two ways a stored table stops loading: its snapshot no longer reads (garbage JSON), or an action
logged after the snapshot no longer replays (an engine that now refuses it; here the stored
action is replaced by one no game knows).

Seen failing: before, a click on the table message answered "That table has ended", a panel
click "That table has ended, so this panel no longer does anything" and `/table status` "There's
no table in this channel"; only `/… new` named the broken table.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import update

from db.models import ActionRow, Game
from tests.e2e.simhelpers import reply_text
from tests.e2e.trap_driver import Person, controls, medium_chooser, open_table


def broken_notice(text: str, table_id: int) -> bool:
    return (
        f"Table {table_id} in this channel couldn't be loaded" in text
        and "/table stop" in text
        and "1 move it recorded" in text
    )


@pytest.mark.parametrize("damage", ["snapshot", "action"])
@pytest.mark.simcord(settle_timeout=30)
async def test_a_table_that_does_not_load_says_so_everywhere(
    simcord_env: Any, simcord_bot: Any, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True)
    alice, bob = t["actors"]
    channel, lobby = t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    table = bot.referee.tables[1]
    person = Person(alice, lobby, bot, seat=0)
    assert await person.step(medium_chooser())  # one action, stored after the start's snapshot
    panel = person.panel
    async with bot.database.sessions() as s, s.begin():
        if damage == "snapshot":
            await s.execute(update(Game).where(Game.id == table.id).values(state={"garbage": True}))
        else:
            await s.execute(update(ActionRow).where(ActionRow.game_id == table.id).values(action="xyzzy"))

    caplog.set_level(logging.WARNING)
    fresh = type(bot)(bot.settings, sync_commands=False)
    await env.restart_bot(fresh)
    assert table.id not in fresh.referee.tables

    answers = {
        "table button": reply_text(await bob.click(lobby, label="My moves")),
        "panel button": reply_text(
            await alice.click(panel, custom_id=next(iter(controls(panel).values()))["custom_id"])
        ),
        "/table status": reply_text(await bob.slash(channel, "table status")),
        "/table hand": reply_text(await alice.slash(channel, "table hand")),
        "/trap move": reply_text(await alice.slash(channel, "trap move", move="c3")),
        "/trap new": reply_text(await bob.slash(channel, "trap new")),
    }
    for where, text in answers.items():
        assert broken_notice(text, table.id), f"{where}: {text!r}"
    why = [r for r in caplog.records if f"could not resume table {table.id}" in r.getMessage()]
    assert len(why) == 1, "the log says why once, at the restart"
