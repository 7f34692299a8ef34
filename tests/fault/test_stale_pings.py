"""Effects that lost their moment are dropped (issue 32): after an outage, a ping about a turn
that is over is not posted; what is still true is.

Discord answers 503 to every post and edit for ten minutes of a Trap game whose players are
away: the referee moves for them when their time runs out, and each new turn queues a
"@alice, your turn…" line. When Discord is back, only a line for a turn still running may go out.

Seen failing: with ``Post.due`` ignored in ``TableMessages._send_posts`` (every queued line sent,
as before), the recovery posted 6 pings at once, for turns long over.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.trap_driver import open_table

MENTION = re.compile(r"<@(\d+)>")


@pytest.mark.simcord(settle_timeout=60)
async def test_pings_about_turns_that_ended_during_an_outage_are_not_posted(
    simcord_env: Any, simcord_bot: Any
) -> None:
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True)
    alice = t["actors"][0]
    channel, lobby = t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    table = bot.referee.tables[1]
    await env.advance_time(5)

    env.inject_error("POST", "/channels/*/messages", status=503, message="Service Unavailable", times=None)
    env.inject_error("PATCH", "/channels/*/messages/*", status=503, message="Service Unavailable", times=None)
    version = table.version
    for _ in range(20):  # ten minutes, in steps the virtual clock settles within
        await env.advance_time(30)
    assert table.version >= version + 4, "the referee moved for the absent players meanwhile"

    seen = len(channel.history())
    env.backend.faults.clear()  # Discord is back
    await env.advance_time(10)  # past the effects' longest backoff, before the next turn's time runs out
    posted = [m for m in channel.history()[seen:] if MENTION.search(m.content or "")]
    user_ids = {seat.user_id: seat.seat for seat in table.seats if seat.user_id is not None}
    waiting = bot.referee.drawing.waiting_on(table) or []
    pinged = [int(user) for m in posted for user in MENTION.findall(m.content)]
    assert len(pinged) == len(set(pinged)) <= 1, f"one ping at most, for the turn now: {pinged}"
    for user in pinged:
        assert user_ids[user] in waiting, "a ping is only for a turn still running"
