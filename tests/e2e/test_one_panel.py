"""Issue 33, item 2: one live panel per person per table. A new "My …" press or a Hand by DM
retires the person's older panel (no buttons, "This hand moved to a newer panel"), so over a whole
game at most one of their panels offers moves."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.simhelpers import message_text, playable
from tests.e2e.trap_driver import Person, is_over, medium_chooser, open_table

MOVED = "This hand moved to a newer panel."


def live_panels(channel: Any, actor: Any) -> list[Any]:
    """The person's panels (their ephemeral answers and their DMs) that still offer moves."""
    seen = [m for m in channel.history(viewer=actor) if m.flags.ephemeral]
    dm = actor.user.dm_channel
    if dm is not None:
        seen += list(dm.history())
    return [m for m in seen if playable(m)]


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
    assert all(not playable(m) for m in moved)
    dm = alice.user.dm_channel
    assert dm is not None and MOVED in message_text(dm.history()[-1])  # her DM panel moved back here
    assert not env.errors
