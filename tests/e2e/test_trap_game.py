"""Whole Trap games through SimCord, by clicks only: the board picture, the step-by-step panels,
the pings, the event lines and the final move list."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from cogs.drawings.trap_board import image_size
from cogs.drawings.trap_words import outcome
from tests.e2e.simhelpers import action_rows, all_components, alt_texts, buttons, message_text
from tests.e2e.trap_driver import (
    Person,
    Typist,
    board_png,
    controls,
    final_message,
    medium_chooser,
    moves_file,
    open_table,
    play_to_end,
    section,
    selects,
)


def handovers(bot: Any, seat: int) -> list[int]:
    """Count the times the turn passes to ``seat`` from someone else (each deserves one ping)."""
    count = [0]

    def hook(table: Any, events: list[Any]) -> None:
        if not events or table.status != "playing":
            return
        actors = [e.seat for e in events if e.seat is not None]
        if table.state.view(None)["to_move"] == seat and (not actors or actors[-1] != seat):
            count[0] += 1

    bot.referee.on_change.append(hook)
    return count


@pytest.mark.simcord(settle_timeout=30)
async def test_a_whole_game_against_the_computer_by_clicks_only(simcord_env, simcord_bot):
    """Alice (red) against the medium computer, quick setup, every drop and move by clicking her
    panel; every panel she sees offers only legal actions and never shows a refusal.

    Seen failing without TrapUI's guard for a live panel refresh that lands while a move is being
    saved (TrapUI.committed made a no-op): that panel showed the new board with buttons of the
    old version, and her next click was answered "Too slow" instead of playing."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 7
    simcord_bot.referee.computer_speed = 0.5
    pings = handovers(simcord_bot, 0)
    t = await open_table(env, cpu="medium", quick_setup=True)
    alice, channel, lobby = t["host"], t["channel"], t["lobby"]
    lobby_text = message_text(channel.history()[0])
    assert "Seats (2/2)" in lobby_text and "quick (random arrows)" in lobby_text
    assert {"Add computer: easy", "Add computer: medium", "Add computer: hard"} <= {
        b["label"] for b in buttons(channel.history()[0])
    }
    await alice.click(lobby, label="Start")

    table_message = channel.history()[0]
    (alt,) = alt_texts(table_message)  # the board in a MediaGallery, with its words
    assert "alice, red (A)" in alt and "to drop a pawn" in alt
    assert board_png(env, table_message).size == image_size(5)
    person = Person(alice, lobby, simcord_bot, seat=0)
    await person.open_panel()
    # Her first drop: every free point offered in one select, in one row, no grid of buttons.
    assert len(controls(person.panel)) == 25 and not buttons(person.panel)
    assert len(action_rows(person.panel)) == 1 and len(selects(person.panel)) == 1
    table = simcord_bot.referee.tables[1]

    await play_to_end(env, [person], channel, medium_chooser(7))
    state = table.state
    view = state.view(None)
    assert view["phase"] == "over"
    await env.advance_time(6)  # the last coalesced table edit

    # The end: winner or draw, the reason and the last moves, short enough for a phone; the full
    # move list in the notation is a .txt on the final table message.
    final = message_text(final_message(channel))
    assert re.search(r"Trap — (alice wins|Robo 1 \(medium\) wins|a draw)", final), final
    ending = outcome(view["result"]["winners"], view["result"]["reason"], "?")
    assert ending.split(": ")[-1].rstrip(".") in final
    assert sum(len(e) for e in final_message(channel).embeds) <= 1500
    assert "trap-moves.txt" in final and f"Main play: {view['ply']} move" in final
    listing = moves_file(env, channel.history()[0])
    # ...as a File component of its V2 layout, beside the board's picture (nothing unreferenced).
    shown = all_components(channel.history()[0])
    files = [c for c in shown if isinstance(c, discord.components.FileComponent)]
    assert [f.media.url.rsplit("/", 1)[-1] for f in files] == ["trap-moves.txt"]
    assert sorted(a.filename for a in channel.history()[0].attachments) == ["board.png", "trap-moves.txt"]
    assert len(section(listing, "Piece Drop")) == 16
    moves = section(listing, "Main play")
    assert len(moves) == view["ply"]
    assert sum(m.count("×") for m in moves) == sum(len(side) for side in view["captured"])
    assert view["last"]["action"] == moves[-1].split("×")[0].rstrip("*")

    # The table message shows the final board, with the last move's flips named.
    last_table = message_text(channel.history()[0])
    assert "game over" in last_table and "arrows flipped:" in last_table
    assert board_png(env, channel.history()[0]).size == image_size(5)
    if view["captured"][0] or view["captured"][1]:
        said = " ".join(str(r.json) for r in env.http_requests if r.json is not None)
        assert "is trapped and captured by" in said

    # The turn came to her many times, but she was playing all along (she acted within the last
    # minute each time), so she was notified once, when the game began; after that the one turn
    # line was edited in place. The channel got one message for all her turns, not one each.
    posts = [
        r
        for r in env.http_requests
        if r.method == "POST"
        and r.path == f"/channels/{channel.id}/messages"
        and "your turn" in str((r.json or {}).get("content", ""))
    ]
    notified = [r for r in posts if str(alice.id) in str(r.json.get("allowed_mentions", {}).get("users", []))]
    assert pings[0] > 5 and len(notified) == 1 and len(posts) <= 2
    turn_line = [m for m in channel.history() if (m.content or "").startswith(f"<@{alice.id}>, your turn")]
    assert len(turn_line) <= 1
    assert not any(
        "Robo" in (m.content or "") and "your turn" in (m.content or "") for m in channel.history()
    )
    # One pick per action: no pawn to pick before its move (a page of more moves is rare).
    assert person.actions >= 8 and person.panels_checked > person.actions
    assert person.steps <= person.actions // 10, (person.steps, person.actions)
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_six_by_six_king_setup_through_paged_selects(simcord_env, simcord_bot):
    """Two people on 6 × 6 with the full Arrow Drop: alice picks from her panel's select (36 free
    points: two pages of one select; arrows through a point, then the arrow, until they fit one
    select), bob types `/trap move`; the board picture is 6 × 6 sized."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 11
    t = await open_table(env, cpu=None, people=("alice", "bob"), size=6, variant="king")
    alice, bob = t["actors"]
    channel, lobby = t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    assert board_png(env, channel.history()[0]).size == image_size(6)
    people = [Person(alice, lobby, simcord_bot, 0), Typist(bob, channel, simcord_bot, 1)]
    await people[0].open_panel()
    # 36 free points: a select of 24 and the way to the other 12, in one row.
    offered = controls(people[0].panel)
    points = {p for p in offered if not p.startswith("nav-")}
    assert len(points) == 24 and set(offered) - points == {"nav-g1"}
    assert len(action_rows(people[0].panel)) == 1
    assert selects(people[0].panel)[0]["placeholder"] == "Pick your King's point"
    await people[0].press("nav-g1")
    rest = {p for p in controls(people[0].panel) if not p.startswith("nav-")}
    assert len(rest) == 12 and not rest & points and set(controls(people[0].panel)) - rest == {"nav-g0"}
    table = simcord_bot.referee.tables[1]
    chooser = medium_chooser(3)
    await play_to_end(env, people, channel, chooser, until=lambda: table.state.view(None)["ply"] >= 4)
    view = table.state.view(None)
    assert len(view["arrows"]) == 60 and sum(p["king"] for p in view["pawns"]) >= 1
    await env.advance_time(6)
    text = message_text(channel.history()[0])
    assert "6 × 6, King variant" in text
    assert board_png(env, channel.history()[0]).size == image_size(6)
    assert people[0].actions + people[1].actions == 24 + 60 + view["ply"]
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_the_board_image_is_drawn_off_the_event_loop(simcord_env, simcord_bot):
    """Pillow takes about 10 ms a board; drawn on the event loop, every other table would wait
    that long at each edit of a Trap table. Over a game played to its end by clicks (the first
    board at Start, each move's edit, the final table), every board is drawn like the card
    games' pictures: in the pictures' worker process, once per position (the content cache),
    none on the loop or in a fallback thread; and the final table message shows the final
    board, as render_board draws it.

    Seen to fail with TableDrawing.prepare_table not making the table's pictures first: every
    board was then drawn on the loop, by the drawing itself (``drawn_on_loop`` counted them)."""
    from cogs.drawings.trap_board import render_board
    from cogs.drawings.trap_words import board_words
    from tests.e2e.simhelpers import held_pictures

    env = simcord_env
    art = simcord_bot.referee.drawing.art
    on_loop, in_thread = art.drawn_on_loop, art.drawn_in_thread
    simcord_bot.referee.new_seed = lambda: 7
    simcord_bot.referee.computer_speed = 0.5
    t = await open_table(env, cpu="medium", quick_setup=True)
    alice, channel, lobby = t["host"], t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    person = Person(alice, lobby, simcord_bot, seat=0)
    await person.open_panel()
    await play_to_end(env, [person], channel, medium_chooser(7))
    await env.advance_time(6)  # the last paced table edit
    boards = [key for key in art.cache._items if key[0] == "trap-board"]
    assert len(boards) >= 5, "a board for the start, the moves and the end"
    assert (art.drawn_on_loop, art.drawn_in_thread) == (on_loop, in_thread)
    table = simcord_bot.referee.messages.closed[1]
    shown = held_pictures(env.backend, channel.id, lobby.id)
    last = table.state.view(None)
    assert shown["board.png"][1] == render_board(last, board_words(last)), "the last board is the end"
    assert not env.errors
