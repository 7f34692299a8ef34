"""Checks at the door (issue 19): DM membership asked of Discord within seconds, nothing changes
while the process drains, a resumed table is redrawn, and a person leaving mid-game hands their
seat to a computer that plays, in every game.

Each docstring says how the test failed on the main before this change.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from db.models import Game
from rules import GAMES
from tests.e2e.simhelpers import buttons, message_text, playable, reply_text
from tests.e2e.trap_driver import selects
from tests.e2e.zipzap_driver import open_lobby
from tests.fault.fault_helpers import SETUPS, open_people_table


def table_of(bot: Any, channel: Any) -> Any:
    return bot.referee.table_in(channel.id)


# --- membership -----------------------------------------------------------------------------------


@pytest.mark.simcord(settle_timeout=20)
async def test_a_member_removed_after_a_refresh_cannot_play_by_dm(simcord_env, simcord_bot):
    """Bob presses Refresh in his DM panel (membership seen), is removed from the server, and 30
    seconds later plays a card from the DM panel: refused, nothing changes. On the main it counted
    (a membership seen in the last five minutes was trusted)."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, cpu=None, speed="off")
    alice, bob = t["actors"]
    await alice.click(t["lobby"], label="Start")
    table = table_of(bot, t["channel"])
    await bob.click(t["lobby"], label="Hand by DM")
    dm = bob.user.dm_channel
    panel = dm.history()[-1]
    refresh = next(b for b in buttons(panel) if b["custom_id"].endswith(":refresh"))
    await bob.user.click(panel, custom_id=refresh["custom_id"])
    panel = next(m for m in dm.history() if m.id == panel.id)
    t["guild"].remove_member(bob)
    await env.advance_time(30)
    version = table.version
    offered = playable(panel) or [b for b in buttons(panel) if b["custom_id"].endswith(":refresh")]
    r = await bob.user.click(panel, custom_id=offered[0]["custom_id"])
    assert "no longer a member" in reply_text(r)
    assert table.version == version


@pytest.mark.simcord(settle_timeout=20)
async def test_a_dm_click_is_refused_when_discord_cannot_say_who_is_a_member(simcord_env, simcord_bot):
    """Discord answers the membership check with a 503: the click is refused with "try again" and
    changes nothing. On the main the click went through unchecked ("don't block play on a hiccup")."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, cpu=None, speed="off")
    alice, bob = t["actors"]
    await alice.click(t["lobby"], label="Start")
    table = table_of(bot, t["channel"])
    await bob.click(t["lobby"], label="Hand by DM")
    panel = bob.user.dm_channel.history()[-1]
    await env.advance_time(30)
    env.inject_error("GET", f"/guilds/{t['guild'].id}/members/{bob.id}", status=503, times=1)
    version = table.version
    refresh = next(b for b in buttons(panel) if b["custom_id"].endswith(":refresh"))
    r = await bob.user.click(panel, custom_id=refresh["custom_id"])
    assert "try again" in reply_text(r).lower()
    assert table.version == version
    r = await bob.user.click(panel, custom_id=refresh["custom_id"])
    assert "try again" not in reply_text(r).lower(), "once Discord answers, the panel works"


# --- draining -----------------------------------------------------------------------------------


async def _rows(bot: Any) -> int:
    async with bot.database.sessions() as s:
        return int(await s.scalar(select(func.count()).select_from(Game)) or 0)


@pytest.mark.simcord(settle_timeout=20)
async def test_nothing_changes_while_the_referee_drains(simcord_env, simcord_bot):
    """After shutdown has begun, `/table stop`, `/table leave`, `/zipzap new` with and without a
    thread, and a lobby button all answer "restarting" and create or change nothing, on Discord
    or in the database. On the main `/table stop` still stopped the table and wrote `cancelled`,
    and `/zipzap new thread:true` left an empty thread behind."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, cpu=None, speed="off")
    alice = t["actors"][0]
    await alice.click(t["lobby"], label="Start")
    table = table_of(bot, t["channel"])
    other = t["guild"].create_text_channel("elsewhere")
    await bot.referee.shutdown(timeout=2)
    version, rows, threads = table.version, await _rows(bot), len(other.threads)
    answers = [
        await alice.slash(t["channel"], "table stop"),
        await alice.slash(t["channel"], "table leave"),
        await alice.slash(other, "zipzap new"),
        await alice.slash(other, "zipzap new", thread=True),
        await alice.click(t["lobby"], label="My hand"),
    ]
    for r in answers:
        assert "restarting" in reply_text(r).lower() and r.ephemeral
    assert table.version == version and table.status == "playing"
    assert await _rows(bot) == rows
    assert len(other.threads) == threads
    assert [m for m in other.history()] == []


# --- resume ---------------------------------------------------------------------------------------


@pytest.mark.simcord(settle_timeout=20)
async def test_a_resumed_table_is_redrawn(simcord_env, simcord_bot, make_bot):
    """Discord refuses the Start click's answer (404 Unknown interaction) and the bot restarts
    before its redraw through the bot token has run (the edit meets a 503 until then). With the
    timers off nothing changes at the table after the restart; its message must still come to
    show the game, not the lobby. On the main it kept showing Join and Start."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, cpu=None, people=("alice", "bob"), speed="off")
    channel = t["channel"]
    env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, times=1)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=503, times=None)
    await t["host"].click(t["lobby"], label="Start")
    table = table_of(bot, channel)
    assert table.status == "playing"
    lobby = next(m for m in channel.history() if m.id == table.table_message_id)
    assert "Start" in message_text(lobby), "the message still shows the lobby"
    env.backend.faults.clear()  # Discord is back
    await env.restart_bot(make_bot())
    await env.advance_time(5)
    shown = next(m for m in channel.history() if m.id == table.table_message_id)
    labels = [b.get("label") for b in buttons(shown)]
    assert "Start" not in labels and "My hand" in labels


# --- leaving mid-game -----------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.simcord(settle_timeout=30)
async def test_a_leave_mid_game_hands_the_seat_to_a_computer_that_plays(simcord_env, simcord_bot, key):
    """The last seat's person types `/table leave` mid-game: the seat goes to a computer of a level
    the game has, which then plays (the game moves on without anyone else acting where the game
    lets it). On the main, Trap answered "Something went wrong" and its `casual` replacement (a
    level Trap does not have) broke every later change."""
    env, bot = simcord_env, simcord_bot
    t = await open_people_table(env, bot, key, seed=7)
    table = bot.referee.tables[t["table_id"]]
    leaver = t["actors"][-1]
    seat = table.seat_of(leaver.id)
    r = await leaver.slash(t["channel"], "table leave")
    assert "computer player has taken your seat" in reply_text(r)
    info = table.seats[seat]
    assert info.is_computer and info.computer_level in GAMES[key].computer_levels
    player = bot.referee.computer(key, info.computer_level, info.name)
    assert player is not None
    # The computer acts when the game gives it something to do: drive the others with whatever
    # they may do, and let time pass, until the computer's seat has acted.
    before = await bot.store.actions(table.id)
    acted = False
    for _ in range(60):
        await env.advance_time(5)
        now = await bot.store.actions(table.id)
        if any(row.seat == seat for row in now[len(before) :]) or table.status != "playing":
            acted = True
            break
        for actor in t["actors"][:-1]:
            hand = (await actor.slash(t["channel"], "table hand")).response
            offered = playable(hand) if hand is not None else []
            if offered:
                await actor.click(hand, custom_id=offered[0]["custom_id"])
                break
            # A panel that offers its choices in a select (Trap's points and moves): the first.
            menus = selects(hand) if hand is not None else []
            if menus and menus[0]["options"]:
                await actor.select(hand, [menus[0]["options"][0]["value"]], custom_id=menus[0]["custom_id"])
                break
    assert acted, f"the {info.computer_level} computer in {key} never acted"
    assert SETUPS[key].players == len(t["actors"])
