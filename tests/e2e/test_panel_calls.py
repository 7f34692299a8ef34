"""No wasted Discord call: a panel is never sent what it already shows, and a person's DM channel
gets at most 5 panel edits in any 5 seconds, however many tables they follow there."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from bench.e2e import call_breakdown, max_in_window
from cogs.table.layout import Picture
from tests.e2e.simhelpers import alt_texts, reply_text
from tests.e2e.zipzap_driver import Player, open_lobby, play_to_end

DM_EDIT = re.compile(r"^/channels/(\d+)/messages/\d+$")


@pytest.mark.simcord(settle_timeout=30)
async def test_a_dm_channel_gets_at_most_five_edits_in_five_seconds(simcord_env, simcord_bot):
    """Alice follows two busy tables (three quick computers each) by DM: both panels live in her
    one DM channel. Over 30 s of play, every edit of her DM messages is timed (virtual clock,
    sampled after each quarter-second step): never more than 5 in any closed 5-second window.

    Seen to fail without the per-DM budget (each panel only kept to once a second): 12 edits in
    a 5-second window."""
    env, bot = simcord_env, simcord_bot
    bot.referee.computer_speed = 0.2
    guild = env.create_guild()
    alice = guild.add_member(env.create_user("alice"))
    for name in ("one", "two"):
        channel = guild.create_text_channel(name)
        await alice.slash(channel, "zipzap new", seats=4, speed="fast")
        lobby = channel.last_message
        for _ in range(3):
            await alice.click(lobby, label="Add computer: casual")
        await alice.click(lobby, label="Start")
        answer = await alice.click(lobby, label="Hand by DM")
        assert "sent your hand to your DMs" in reply_text(answer)
    dm = alice.user.dm_channel.id
    times: list[float] = []
    seen = len(env.http_requests)
    for _ in range(120):
        await env.advance_time(0.25)
        now = env.now().timestamp()
        for entry in env.http_requests[seen:]:
            match = DM_EDIT.match(entry.path)
            if entry.method == "PATCH" and match and int(match.group(1)) == dm:
                times.append(now)
        seen = len(env.http_requests)
    assert len(times) >= 10, "both panels were kept live"
    assert max_in_window(times) <= 5
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_no_panel_is_sent_what_it_already_shows(simcord_env, simcord_bot):
    """A whole game of two people clicking their ephemeral panels and a third on DM, with a
    computer: every edit of a panel (through its interaction token or, by DM, the bot's token)
    changes what that message shows.

    Seen to fail when Panels._refresh lost both of its checks (same version, same drawing): 157
    live refreshes re-sent panels that a click's own answer had just drawn."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 4
    t = await open_lobby(env, seats=4, speed="fast", people=("alice", "bob", "cara"))
    alice, bob, cara = t["actors"]
    lobby, channel = t["lobby"], t["channel"]
    await alice.click(lobby, label="Start")
    await cara.click(lobby, label="Hand by DM")
    players = [Player(alice, channel, lobby), Player(bob, channel, lobby)]
    await play_to_end(env, players, channel, tick=0.5)
    calls, redundant = call_breakdown(env.http_requests, SimpleNamespace(sources={}), {channel.id})
    assert calls["interaction-token edits"] + calls["bot-token calls (DM)"] > 5, "panels were kept live"
    assert sum(redundant.values()) == 0, redundant
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_a_panel_is_left_alone_while_its_owners_view_is_unchanged_and_still_counts(
    simcord_env, simcord_bot
):
    """Zap or Trap's secret signals: alice and bob each have their panel open with the signal
    select. Alice picks hers; bob sees nothing of it (it is secret), so his panel is not edited,
    even though the table's version moved and his panel's buttons still carry the old one. He
    then picks his signal from that panel, seconds later: it counts, with no "too slow".

    Seen to fail (1) with the version stamp back in the panel fingerprint (panels.shown): bob's
    panel was edited a second after alice's pick; and (2) with ``Panels.still_shown`` answering
    False: bob's pick was refused as "Too slow" and changed nothing."""
    from tests.e2e.zaptrap_driver import Person as ZapPerson
    from tests.e2e.zaptrap_driver import open_lobby as open_zaptrap
    from tests.e2e.zaptrap_driver import panel_version, select_id

    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 7
    t = await open_zaptrap(env, seats=4, people=("alice", "bob", "carol", "dave"), cpus=())
    await t["host"].click(t["lobby"], label="Start")
    alice, bob = (ZapPerson(env, a, t["channel"], t["lobby"], "smirk") for a in t["actors"][:2])
    table = bot.referee.tables[1]
    assert table.state.phase == "signals"
    await alice.open_hand()
    await bob.open_hand()
    drawn_at = panel_version(bob.panel)
    assert drawn_at == table.version
    bob_token = bot.referee.panels.get(table.id, bob.seat).interaction.token
    seen = len(env.http_requests)

    await alice.choose_signal("smirk")
    assert table.version == drawn_at + 1, "alice's pick moved the table on"
    await env.advance_time(3)  # well past the once-a-second live refresh
    edits = [e for e in env.http_requests[seen:] if e.method == "PATCH" and bob_token in e.path]
    assert edits == [], "bob's panel shows exactly what it showed: no edit"

    menu = select_id(bob.panel)
    assert menu == f"gs:{table.id}:{drawn_at}:signal-", "his panel still carries the old version"
    result = await bob.actor.select(bob.panel, ["wink"], custom_id=menu)
    assert "Too slow" not in reply_text(result), reply_text(result)
    assert table.version == drawn_at + 2, "bob's pick from his untouched panel counted"
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_a_games_panel_pictures_reach_only_their_owner_ephemeral_and_by_dm(simcord_env, simcord_bot):
    """A game that draws its hands as pictures (``GameUI.panel_pictures``, here a stand-in for the
    card art of issue 23 on Zip Zap) gets each seat's picture, with its alt text, on that seat's
    panel only: alice's ephemeral panel and bob's DM panel each carry their own hand (bytes and
    words), attached as the one file the layout refers to; the public table carries none. When
    her hand changes, the live refresh sends the new picture.

    Seen to fail with TableDrawing.panel drawing every panel with seat 0's pictures: bob's DM
    then showed alice's hand."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 4
    t = await open_lobby(env, seats=3, speed="off", people=("alice", "bob"))
    alice, bob = t["actors"]
    lobby, channel = t["lobby"], t["channel"]
    ui = bot.referee.uis["zipzap"]

    def hand(table: Any, seat: int) -> list[str]:
        return list(table.state.view(seat)["hand"])

    def panel_pictures(table: Any, seat: int) -> list[Picture]:
        cards = hand(table, seat)
        return [Picture("hand.png", b"PNG" + " ".join(cards).encode(), "Your hand: " + ", ".join(cards))]

    ui.panel_pictures = panel_pictures
    # Zip Zap now sketches its own card art: the stand-in alone is what this test follows.
    ui.panel_sketches = lambda table, seat, nav=None: []
    ui.table_sketches = lambda table: []
    await alice.click(lobby, label="Start")
    table = bot.referee.tables[1]
    mine = await alice.click(lobby, label="My hand")
    assert [a.filename for a in mine.response.attachments] == ["hand.png"]
    assert alt_texts(mine.response) == ["Your hand: " + ", ".join(hand(table, 0))]
    assert await bob.click(lobby, label="Hand by DM")
    dm = bob.user.dm_channel.history()[-1]
    assert alt_texts(dm) == ["Your hand: " + ", ".join(hand(table, 1))]
    assert env.backend.cdn.get(dm.attachments[0].url) == b"PNG" + " ".join(hand(table, 1)).encode()
    assert not channel.history()[0].attachments and alt_texts(channel.history()[0]) == []

    before = hand(table, 0)
    player = Player(alice, channel, lobby)
    player.panel = mine.response
    for _ in range(20):
        if await player.step():
            break
        await env.advance_time(1)
    await env.advance_time(2)  # the live refresh
    now = next(m for m in channel.history(viewer=alice) if m.id == mine.response.id)
    assert hand(table, 0) != before
    assert alt_texts(now) == ["Your hand: " + ", ".join(hand(table, 0))]
    assert env.backend.cdn.get(now.attachments[0].url) == b"PNG" + " ".join(hand(table, 0)).encode()
    assert not env.errors
