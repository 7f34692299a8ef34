"""`/table status`: whom a table waits on, in words that fit the moment, and Trap's board picture
for a spectator, whose status is the only place they see the table privately."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from tests.e2e.gifttrap_driver import open_lobby
from tests.e2e.simhelpers import alt_texts, texts
from tests.e2e.trap_driver import board_png, open_table
from tests.fault.twins import GAME_KEYS, make_table, sample_states, ui_class


def waiting_field(message: Any) -> str:
    """The "Waiting on" line of a `/table status` answer (a V2 layout: cogs/table/layout.py)."""
    return next(t for t in texts(message) if t.startswith("**Waiting on** · ")).removeprefix(
        "**Waiting on** · "
    )


@pytest.mark.simcord(settle_timeout=30)
async def test_a_spectator_sees_trap_s_board_in_the_status(simcord_env, simcord_bot):
    """Carol watches: her `/table status` carries the board picture its embed points at. When
    Discord refuses that answer, nothing changes and asking again works.
    Seen to fail with tables.py sending the embed without its files (as before issue 21): the
    embed pointed at attachment://board.png and no file came with it. (Since issue 23 the
    answer is a V2 layout whose MediaGallery refers to the file, with the board's alt text.)"""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu="easy", people=("alice",), quick_setup=True)
    alice, channel, lobby = t["host"], t["channel"], t["lobby"]
    carol = t["guild"].add_member(env.create_user("carol"))
    await alice.click(lobby, label="Start")
    table = simcord_bot.referee.tables[1]

    result = await carol.slash(channel, "table status")
    assert result.ephemeral
    assert not result.response.embeds
    (alt,) = alt_texts(result.response)  # the board, described for a screen reader
    assert alt.startswith("Trap board, 5 by 5.") and "alice, red (A), to drop a pawn." in alt
    assert [a.filename for a in result.response.attachments] == ["board.png"]
    assert board_png(env, result.response).size[0] > 100
    assert "**alice**" in waiting_field(result.response) or "Robo" in waiting_field(result.response)

    # Discord refuses the answer (too late): she sees "This interaction failed"; nothing changed.
    version, public = table.version, len(channel.history())
    env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, times=1)
    failed = await carol.slash(channel, "table status")
    assert failed.response is None or not failed.response.attachments
    assert (table.version, len(channel.history())) == (version, public)
    again = await carol.slash(channel, "table status")
    assert board_png(env, again.response).size[0] > 100
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_gifttrap_status_names_the_dealer_the_choosers_and_nobody_at_the_reveal(
    simcord_env, simcord_bot
):
    """The pack: the dealer. Choosing: whoever is not ready. The reveal runs by itself: nobody,
    and why. Seen to fail before issue 21: "anyone: play as soon as you can" in every phase."""
    env = simcord_env
    t = await open_lobby(env, simcord_bot, seed=3, people=("alice",), cpus=("casual",) * 3)
    table, channel = t["table"], t["channel"]
    alice = t["people"][0].actor
    seen: dict[str, str] = {}
    for _ in range(300):
        phase = table.state.view(None)["phase"]
        if phase not in seen:
            seen[phase] = waiting_field((await alice.slash(channel, "table status")).response)
        if {"choosing", "reveal"} <= set(seen):
            break
        await env.advance_time(1)
    assert "**alice**" in seen["choosing"]  # she never presses Ready
    assert seen["reveal"].startswith("nobody: the referee unwraps the gifts"), seen
    assert all("anyone" not in text for text in seen.values()), seen


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_status_names_only_people_who_can_act(key: str) -> None:
    """Over a self-played game of each title, whoever `/table status` names as waited on has
    something to do in the engine's own legal actions, and "anyone" is never said while nobody
    has. Seen to fail with GiftTRAP's waiting_on returning every seat during the reveal."""
    players = {"trap": 2, "gifttrap": 4}.get(key, 3)
    options = {"gifttrap": {"track_length": 8}, "trap": {"quick_setup": True}}.get(key, {})
    cls = ui_class(key)
    referee = Referee(None, None, Scheduler())  # type: ignore[arg-type]  # never started: draws only
    referee.register(cls())
    checked = 0
    for sample in sample_states(key, players, options, seed=2, per_phase=5, every=3):
        table = make_table(key, sample.state)
        if table.status != "playing":
            continue
        assert table.state is not None
        able = {s for s in range(players) if table.state.legal_actions(s)}
        waiting = referee.drawing.waiting_on(table)
        text = referee.drawing.waiting_text(table)
        if text.startswith("**"):
            assert waiting is not None and set(waiting) <= able, (sample.index, text, able)
        if text.startswith("anyone"):
            assert able, (sample.index, text)
        checked += 1
    assert checked > 10
