"""Game night as players feel it (issue 14): visible clocks, the thread's join line, `/table
status`, and panel steps that survive other players' actions."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.gifttrap_driver import select_with
from tests.e2e.simhelpers import buttons, message_text, playable, reply_text
from tests.e2e.spytrap_driver import selects
from tests.e2e.zipzap_driver import open_lobby

STAMP = re.compile(r"<t:(\d+):R>")


def table_message(channel: Any, bot: Any) -> Any:
    table = bot.referee.table_in(channel.id)
    return next(m for m in channel.history() if m.id == table.table_message_id)


@pytest.mark.simcord(settle_timeout=20)
async def test_a_running_timer_shows_as_a_countdown_on_the_table_and_the_panel(simcord_env, simcord_bot):
    """While the stall timer runs, the table message and the hand panel both carry a Discord
    relative timestamp for its deadline, and a re-armed timer shows its new deadline. Seen to fail
    with Referee.clock returning None (no timestamp anywhere)."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 2
    t = await open_lobby(env, seats=2, speed="relaxed", cpu=None)
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.table_in(t["channel"].id)
    await env.advance_time(2)
    shown = STAMP.findall(message_text(table_message(t["channel"], bot)))
    assert shown == [str(int(table.deadline_at.timestamp()))]
    hands = [await person.click(t["lobby"], label="My hand") for person in t["actors"]]
    assert all(STAMP.findall(message_text(h.response)) == shown for h in hands)
    first = table.deadline_at
    # Whoever can play does; the stall timer is armed again from that moment.
    person, hand = next((p, h) for p, h in zip(t["actors"], hands, strict=True) if playable(h.response))
    await env.advance_time(3)
    await person.click(hand.response, custom_id=playable(hand.response)[0]["custom_id"])
    await env.advance_time(2)
    assert table.deadline_at is not None and table.deadline_at != first
    assert STAMP.findall(message_text(table_message(t["channel"], bot))) == [
        str(int(table.deadline_at.timestamp()))
    ]


@pytest.mark.simcord(settle_timeout=20)
async def test_a_thread_table_has_a_join_line_in_its_parent_channel(simcord_env, simcord_bot):
    """With thread:true the parent channel gets one line with a Join button that seats the
    clicker at the thread's table; the line says when the game starts. Seen to fail before: the
    parent channel showed only the thread's starter, with no way to join."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("game-night")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    r = await alice.slash(channel, "zipzap new", seats=2, thread=True)
    assert "is open" in reply_text(r)
    line = next(m for m in channel.history() if "Press **Join**" in (m.content or ""))
    r = await bob.click(line, label="Join")
    assert "seated" in reply_text(r) and r.ephemeral
    thread = channel.threads[0]
    table = bot.referee.table_in(thread.id)
    assert table.seat_of(bob.id) is not None
    lobby = next(m for m in thread.history() if m.id == table.table_message_id)
    await alice.click(lobby, label="Start")
    await env.advance_time(2)
    line = next(m for m in channel.history() if m.id == line.id)
    assert "under way" in (line.content or "") and buttons(line) == []


@pytest.mark.simcord(settle_timeout=20)
async def test_table_status_shows_the_public_table_and_whom_it_waits_on(simcord_env, simcord_bot):
    """`/table status` answers anyone privately with the spectator's table, whom it waits on and
    the clock, and changes nothing. (Its secrecy is the table embed's: see the twin-state audit.)"""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, speed="relaxed", cpu=None)
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.table_in(t["channel"].id)
    version = table.version
    carol = t["guild"].add_member(env.create_user("carol"))
    r = await carol.slash(t["channel"], "table status")
    assert r.ephemeral
    text = reply_text(r)
    assert "Waiting on" in text and STAMP.search(text)
    assert table.version == version


def action_buttons(message: Any) -> list[tuple[str, str]]:
    """(action, custom_id) of every enabled panel button."""
    out = []
    for b in buttons(message):
        found = re.fullmatch(r"ga:\d+:\d+:(.+)", b.get("custom_id") or "")
        if found and not b.get("disabled"):
            out.append((found.group(1), b["custom_id"]))
    return out


@pytest.mark.simcord(settle_timeout=20)
async def test_spy_trap_picks_survive_another_spys_build(simcord_env, simcord_bot):
    """alice picks the three cards of her pile; before she presses Build, bob builds his. Her
    Build, from the panel she had, is applied. Seen to fail with Spy Trap's version_free taken
    out: "Too slow — the table moved on", and her picks were gone."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 11
    guild = env.create_guild()
    channel = guild.create_text_channel("spies")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "spytrap new", seats=2, speed="off")
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    table = bot.referee.table_in(channel.id)

    async def pick(person: Any, panel: Any) -> Any:
        """The pile builder's next card: the first its one select offers."""
        (menu,) = selects(panel)
        r = await person.select(panel, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
        return r.response

    panel = (await alice.click(lobby, label="My spy panel")).response
    for _ in range(3):
        panel = await pick(alice, panel)
    stale_build = next(cid for a, cid in action_buttons(panel) if a.startswith("pile-"))
    bobs = (await bob.click(lobby, label="My spy panel")).response
    for _ in range(3):
        bobs = await pick(bob, bobs)
    build = next(cid for a, cid in action_buttons(bobs) if a.startswith("pile-"))
    version = table.version
    await bob.click(bobs, custom_id=build)
    assert table.version == version + 1, "bob's pile is built"
    r = await alice.click(panel, custom_id=stale_build)
    assert "Too slow" not in message_text(r.response)
    assert table.version == version + 2, "and alice's, from the panel she had"


@pytest.mark.simcord(settle_timeout=20)
async def test_a_gifttrap_step_survives_someone_elses_choice(simcord_env, simcord_bot):
    """alice picks a step in the step select of a panel drawn before bob chose a gift: she lands
    on the step she picked. Seen to fail before (with tabs, as buttons then): the click was
    refused ("The table moved on") and she stayed where she was."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 4
    guild = env.create_guild()
    channel = guild.create_text_channel("gifts")
    people = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")]
    alice, bob = people[0], people[1]
    await alice.slash(channel, "gifttrap new", seats=3, speed="off")
    lobby = channel.last_message
    for other in people[1:]:
        await other.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    table = bot.referee.table_in(channel.id)
    for _ in range(5):  # the dealer picks a pack with the table's buttons, if asked to
        if table.state.view(None)["phase"] != "pack":
            break
        message = next(m for m in channel.history() if m.id == table.table_message_id)
        pack = next(b for b in buttons(message) if ":act:pack-" in (b.get("custom_id") or ""))
        dealer = people[table.state.view(None)["dealer"]]
        await dealer.click(message, custom_id=pack["custom_id"])
    assert table.state.view(None)["phase"] == "choosing"
    panel = (await alice.click(lobby, label="My gifts")).response
    steps = select_with(panel, "nav-")
    assert steps is not None, "the choosing panel has its step select"
    version = table.version
    async with table.lock:  # bob gives a gift (as his own panel would)
        give = next(a for a in table.state.legal_actions(1) if a != "ready")
        await bot.referee.act(table, 1, give, bob.id)
    assert table.version > version, "bob chose something"
    last = steps["options"][-1]["value"]
    r = await alice.select(panel, [last], custom_id=steps["custom_id"])
    assert "moved on" not in message_text(r.response)
    assert bot.referee.panels.nav(table.id, 0) == last
