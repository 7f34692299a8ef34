"""The Trap table under pressure: refusals, stale panels, a restart mid-game, the move clock."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from sqlalchemy import func, select

from db.models import ActionRow, Game
from rules.trap import Trap
from tests.e2e.simhelpers import answer_text, emit_click, message_text, reply_text
from tests.e2e.trap_driver import (
    Person,
    controls,
    final_message,
    medium_chooser,
    moves_file,
    offered_actions,
    open_table,
    play_to_end,
    section,
)

ENGINE = Trap()


async def counts(bot: Any) -> tuple[int, int]:
    async with bot.database.sessions() as s:
        actions = await s.scalar(select(func.count()).select_from(ActionRow))
        version = await s.scalar(select(Game.version))
        return int(actions or 0), int(version or 0)


async def typed(actor: Any, channel: Any, move: str) -> str:
    result = await actor.slash(channel, "trap move", move=move)
    assert result.ephemeral, "a keyboard move is answered privately"
    return reply_text(result)


def illegal_move(state: Any, seat: int) -> str:
    """A move by ``seat`` along a line whose arrow points the other way (against the arrow)."""
    view = state.view(seat)
    mine = [p["point"] for p in view["pawns"] if p["owner"] == seat]
    for arrow in view["arrows"]:
        tail, head = arrow.split(">")
        if head in mine:
            return f"{head}>{tail}"
    raise AssertionError("every arrow points away from every pawn")


@pytest.mark.simcord(settle_timeout=30)
async def test_wrong_player_out_of_turn_malformed_and_illegal_moves_are_refused(simcord_env, simcord_bot):
    """Nothing refused changes the game: same state, same stored actions, same version."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True)
    alice, bob = t["actors"]
    channel, lobby = t["channel"], t["lobby"]
    carol = t["guild"].add_member(env.create_user("carol"))
    await alice.click(lobby, label="Start")
    table = simcord_bot.referee.tables[1]
    snapshot, before = table.state.to_json(), await counts(simcord_bot)

    async def unchanged() -> None:
        assert table.state.to_json() == snapshot
        assert await counts(simcord_bot) == before

    # Bob waits (alice, red, drops first): his panel offers nothing but Refresh.
    r = await bob.click(lobby, label="My moves")
    bob_panel = r.response
    assert set(controls(bob_panel)) == {"refresh"} and "waiting for **alice**" in message_text(bob_panel)
    # Out of turn, by a forged click on his panel and by keyboard.
    flight = emit_click(bob, bob_panel, f"ga:1:{table.version}:c3")
    await env.settle()
    assert "not your turn" in answer_text(env, flight)
    assert "not your turn" in await typed(bob, channel, "c3")
    # Not a player at all.
    assert "not playing" in await typed(carol, channel, "c3")
    r = await carol.click(lobby, label="My moves")
    assert "not playing" in reply_text(r)
    flight = emit_click(carol, bob_panel, f"ga:1:{table.version}:c3")
    await env.settle()
    assert "not playing" in answer_text(env, flight)
    # Malformed text is refused before it reaches the table, with a sentence saying what to type.
    for bad in ("zz9", "c3>>c4", "", "drop c3 please"):
        text = await typed(alice, channel, bad)
        assert "isn't a Trap move" in text and "`c3>c4`" in text, text
    # Well formed but not legal here: off the board, a move during the Piece Drop.
    assert "There is no point f6 on this 5 × 5 board" in await typed(alice, channel, "f6")
    assert "Pawns come first" in await typed(alice, channel, "c3>c4")
    await unchanged()

    # Typing help offers her legal drops only; the rules answer names the house rulings.
    choices = await alice.autocomplete(channel, "trap move", "move", "c")
    assert {c["value"] for c in choices} == {f"c{r}" for r in range(1, 6)}
    assert await bob.autocomplete(channel, "trap move", "move", "c") == []
    quick = await bob.slash(channel, "trap rules")
    rules = await bob.click(quick.response, label="Full rules")
    assert (
        rules.ephemeral and "House rulings" in reply_text(rules) and "threefold" in reply_text(rules).lower()
    )

    # A real drop, then bob may not drop on the same point.
    await typed(alice, channel, "C3")  # tidied: upper case is fine
    assert table.state.view(None)["pawns"] == [{"point": "c3", "owner": 0, "king": False}]
    assert "c3 is taken" in await typed(bob, channel, "c3")

    # To main play by keyboard; then moves against an arrow, of the other's pawn, not neighbours.
    while table.state.view(None)["phase"] == "piece_drop":
        seat = table.state.to_move
        await typed((alice, bob)[seat], channel, table.state.legal_actions(seat)[0])
    assert table.state.view(None)["phase"] == "main"
    seat = table.state.to_move  # blue (bob) moves first
    mover, other = (alice, bob)[seat], (alice, bob)[1 - seat]
    snapshot, before = table.state.to_json(), await counts(simcord_bot)
    assert "never move against an arrow" in await typed(mover, channel, illegal_move(table.state, seat))
    theirs = next(p["point"] for p in table.state.view(None)["pawns"] if p["owner"] != seat)
    column, row = theirs[0], int(theirs[1:])
    neighbour = f"{column}{row + 1}" if row < 5 else f"{column}{row - 1}"
    assert "You have no pawn on" in await typed(mover, channel, f"{theirs}>{neighbour}")
    assert "not neighbours" in await typed(mover, channel, "a1>c3")
    assert "Main play has begun" in await typed(mover, channel, "c3")
    assert "not your turn" in await typed(other, channel, table.state.legal_actions(seat)[0])
    await unchanged()

    # The move clock: nobody moves for 90 s, so the referee moves for the player to move.
    await env.advance_time(95)
    assert table.version == before[1] + 1
    await env.advance_time(6)
    assert f"Time ran out for **{('alice', 'bob')[seat]}**" in message_text(channel.history()[0])
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_a_stale_panel_click_after_the_opponent_moved_gets_a_fresh_panel(simcord_env, simcord_bot):
    """Alice keeps an old panel (its select of moves), moves by keyboard, the computer answers;
    picking from the old panel then changes nothing and shows the current panel.

    Seen failing against a referee whose version check was removed (Referee._apply_from_click
    patched to ignore the clicked version): the old button played a move."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 21
    t = await open_table(env, cpu="easy", quick_setup=True)
    alice, channel, lobby = t["host"], t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    table = simcord_bot.referee.tables[1]
    person = Person(alice, lobby, simcord_bot, seat=0)
    chooser = medium_chooser(2)
    await play_to_end(env, [person], channel, chooser, until=lambda: table.state.view(None)["ply"] >= 3)
    while table.state.to_move != 0:
        await env.advance_time(1)
    # Her panel: every legal move in its select.
    r = await alice.click(lobby, label="My moves")
    old = r.response
    stale = {a: b["custom_id"] for a, b in controls(old).items()}
    stale_moves = offered_actions(old)
    assert stale_moves and stale_moves <= set(table.state.legal_actions(0))
    # She moves by keyboard (answered with one line; the old panel stays open); the computer replies.
    await alice.slash(channel, "trap move", move=sorted(stale_moves)[0])
    while table.state.to_move != 0 and table.status == "playing":
        await env.advance_time(1)
    assert table.status == "playing"
    snapshot, before = table.state.to_json(), await counts(simcord_bot)
    for action in sorted(stale_moves):
        flight = emit_click(alice, old, stale[action], values=[action])
        await env.settle()
        text = answer_text(env, flight)
        assert "Too slow" in text and "Your turn" in text, text
    # A panel-only step from the old panel (another page of moves) is drawn on the current
    # state: it never moves anything, and the panel shows that page only if it still has one.
    menu = next(iter(stale.values()))
    flight = emit_click(alice, old, menu, values=["nav-g1"])
    await env.settle()
    assert "Your turn" in answer_text(env, flight)
    assert table.state.to_json() == snapshot and await counts(simcord_bot) == before
    # And the fresh panel she got works: its select carries the current version.
    fresh = controls(old)
    assert fresh and all(f":{table.version}:" in b["custom_id"] for b in fresh.values())


@pytest.mark.simcord(settle_timeout=30)
async def test_restart_mid_game_resumes_and_finishes_with_the_whole_move_list(
    simcord_env, simcord_bot, make_bot
):
    """Seen failing with TrapCog.cog_load not rebuilding the move list: the final post said
    "the start of this game was not recorded" and listed only the moves after the restart."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 33
    simcord_bot.referee.computer_speed = 0.5
    t = await open_table(env, cpu="medium", quick_setup=True)
    alice, channel, lobby = t["host"], t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    table = simcord_bot.referee.tables[1]
    person = Person(alice, lobby, simcord_bot, seat=0)
    chooser = medium_chooser(4)
    await play_to_end(env, [person], channel, chooser, until=lambda: table.state.view(None)["ply"] >= 6)
    while table.state.to_move != 0:
        await env.advance_time(0.5)
    assert final_message(channel) is None
    await person.open_panel()  # her panel as it is now: her moves to pick from
    old_panel = {a: b["custom_id"] for a, b in controls(person.panel).items()}
    state_before, version_before = table.state.to_json(), table.version

    new_bot = make_bot()
    await env.restart_bot(new_bot)
    resumed = new_bot.referee.tables[1]
    assert resumed.version == version_before and resumed.state.to_json() == state_before
    assert resumed.deadline_at is not None, "the move clock came back"

    # A panel from before the restart still plays: the version it was drawn at is still the
    # table's, and its answer is the table as it is now.
    move = sorted(old_panel)[0]
    r = await alice.select(person.panel, [move], custom_id=old_panel[move])
    assert r.acknowledged and resumed.version == version_before + 1
    assert offered_actions(person.panel) <= set(resumed.state.legal_actions(0))

    person.bot = new_bot
    await play_to_end(env, [person], channel, chooser)
    await env.advance_time(6)  # the last coalesced table edit carries the move list
    final = message_text(final_message(channel))
    listing = moves_file(env, channel.history()[0])
    view = resumed.state.view(None)
    assert "not recorded" not in final + listing
    assert len(section(listing, "Piece Drop")) == 16
    assert len(section(listing, "Main play")) == view["ply"]
    async with new_bot.database.sessions() as s:
        assert (await s.scalars(select(Game.status))).one() == "finished"
    assert not env.errors


@pytest.mark.simcord(settle_timeout=20)
async def test_a_trap_table_needs_attach_files_and_says_so(simcord_env, simcord_bot):
    """Trap's table message carries its board as a file (``GameUI.table_pictures``), and every card
    game's its cards (``table_sketches``): in a channel where the bot may not attach files, `/… new`
    of every game says what is missing and opens nothing, while the same channel with Attach Files
    allowed opens a table. Seen to fail when the check still looked for the ``table_files`` hook
    that issue 23 replaced (the Trap table opened, and its board could never be drawn), and, for
    the card games, while it looked only for ``table_pictures``/``table_downloads``."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel(
        "no-files", overwrites={bot.user: discord.PermissionOverwrite(attach_files=False)}
    )
    alice = guild.add_member(env.create_user("alice"))
    for game in ("trap", "zipzap", "zaptrap", "spytrap", "gifttrap"):
        refused = await alice.slash(channel, f"{game} new")
        assert refused.ephemeral and "Attach Files" in reply_text(refused), game
    assert channel.history() == [] and bot.referee.tables == {}
    allowed = guild.create_text_channel("files")
    opened = await alice.slash(allowed, "zipzap new")
    assert "table is open" in reply_text(opened)
    assert not env.errors
