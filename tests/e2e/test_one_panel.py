"""Issue 33, item 2: one live panel per person per table. A new "My …" press or a Hand by DM
retires the person's older panel (no buttons, "This hand moved to a newer panel"), so over a whole
game at most one of their panels offers moves."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.simhelpers import buttons, message_text
from tests.e2e.trap_driver import Person, controls, is_over, medium_chooser, open_table, selects

MOVED = "This hand moved to a newer panel."


def live_panels(channel: Any, actor: Any) -> list[Any]:
    """The person's panels (their ephemeral answers and their DMs) that still show buttons or a
    select (a retired one shows none)."""
    seen = [m for m in channel.history(viewer=actor) if m.flags.ephemeral]
    dm = actor.user.dm_channel
    if dm is not None:
        seen += list(dm.history())
    return [m for m in seen if buttons(m) or selects(m)]


@pytest.mark.simcord(settle_timeout=30)
async def test_a_new_panel_retires_the_older_one_over_a_whole_game(simcord_env, simcord_bot):
    """Alice plays a whole Trap game against the computer, pressing **My moves** for a fresh panel
    every third move and once asking for her hand by DM (and back). After every move at most one
    of her panels offers moves; each older one says it moved, with no buttons.

    Fails on main before issue 33: every press left the older panels with their buttons (46 live
    panels in one game in the report)."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    simcord_bot.referee.computer_speed = 0.5
    t = await open_table(env, cpu="medium", quick_setup=True)
    alice, channel, lobby = t["host"], t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    person = Person(alice, lobby, simcord_bot, seat=0)
    choose = medium_chooser(5)
    presses = most = steps = 0
    while not is_over(channel):
        steps += 1
        assert steps < 3000, "the game did not finish"
        if await person.step(choose):
            if person.actions % 3 == 0:
                person.panel = None  # her next step presses My moves again: a new panel
                presses += 1
            if person.actions == 7:
                result = await alice.click(lobby, label="Hand by DM")
                assert "DMs" in message_text(result.response)
                await env.advance_time(0.5)
                assert MOVED in message_text(person.panel)  # the ephemeral one moved to her DMs
                person.panel = None  # and then back: My moves moves her hand here again
                presses += 1
            await env.advance_time(0.5)  # the older panel's edit
            live = live_panels(channel, alice)
            most = max(most, len(live))
            assert len(live) <= 1, [message_text(m)[:80] for m in live]
        else:
            await env.advance_time(1)
    assert presses >= 5 and most == 1
    ephemerals = [m for m in channel.history(viewer=alice) if m.flags.ephemeral]
    moved = [m for m in ephemerals if MOVED in message_text(m)]
    assert len(moved) >= presses - 2  # each older panel says where its hand went
    assert all(not controls(m) for m in moved)
    dm = alice.user.dm_channel
    assert dm is not None and MOVED in message_text(dm.history()[-1])  # her DM panel moved back here
    assert not env.errors


@pytest.mark.simcord(settle_timeout=60)
async def test_a_click_on_a_panel_too_old_to_retire_moves_the_current_panel_there(simcord_env, simcord_bot):
    """A panel older than its interaction token (15 minutes) cannot be edited any more, so a newer
    panel cannot retire it. A click on it is answered with the current panel, in that message,
    and the newer one is retired instead: still one live panel.

    Fails on main before issue 33: the click's answer made the old message live again and the
    newer panel kept its buttons too (two live panels)."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True, speed="off")
    alice, bob = t["actors"]
    channel, lobby = t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    old = (await alice.click(lobby, label="My moves")).response
    assert controls(old)
    await env.advance_time(14.5 * 60)  # under the 15-minute move clock of "off"; past the token
    new = (await alice.click(lobby, label="My moves")).response
    await env.advance_time(1)
    assert controls(new) and controls(old)  # the old one could not be edited: Discord's limit
    version = simcord_bot.referee.tables[1].version
    drop = next(iter(controls(old).values()))
    await alice.select(old, [drop["value"]], custom_id=drop["custom_id"])  # her drop, from the old panel
    await env.advance_time(1)
    assert simcord_bot.referee.tables[1].version == version + 1  # it was still her turn: it counts
    assert "waiting for **bob**" in message_text(old), message_text(old)[:200]  # the current panel
    assert MOVED in message_text(new) and not controls(new)
    assert len(live_panels(channel, alice)) == 1
    assert not bob.user.dm_channel or not live_panels(channel, bob)
    assert not env.errors
