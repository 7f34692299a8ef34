"""Trap from the keyboard: each `/trap move` is answered with one short private line, and the
line before it goes, so a game typed move by move leaves one line on screen, not one per move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.simhelpers import message_text, title
from tests.e2e.trap_driver import Typist, medium_chooser, open_table, play_to_end

DELETE_LINE = "/webhooks/*/messages/@original"


def private_lines(channel: Any, actor: Any) -> list[Any]:
    """The answers to keyboard moves that ``actor`` sees in the channel now (not, say, the private
    "Your table is open" from `/trap new`)."""
    public = {m.id for m in channel.history()}
    return [
        m
        for m in channel.history(viewer=actor)
        if m.id not in public and (m.content or "").startswith(("✅ `", "⚠️ `"))
    ]


async def typed(actor: Any, channel: Any, move: str) -> Any:
    result = await actor.slash(channel, "trap move", move=move)
    assert result.ephemeral
    return result


@pytest.mark.simcord(settle_timeout=30)
async def test_a_whole_game_typed_leaves_one_short_line(simcord_env, simcord_bot):
    """Alice types every drop and move of a whole game against a computer. Each answer is one
    short line (no text board) saying what her move did; at the end she sees one private line,
    not one per move. Seen to fail before issue 21: every move answered with a whole panel and
    text board, and she saw as many private messages as she typed moves."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 9
    t = await open_table(env, cpu="easy", quick_setup=True)
    alice, channel, lobby = t["host"], t["channel"], t["lobby"]
    await alice.click(lobby, label="Start")
    before = {m.id for m in channel.history(viewer=alice)}
    typist = Typist(alice, channel, simcord_bot, seat=0)
    await play_to_end(env, [typist], channel, medium_chooser(9))
    await env.advance_time(2)  # the last deletion
    assert typist.actions >= 8
    public = {m.id for m in channel.history()}
    mine = [m for m in channel.history(viewer=alice) if m.id not in public | before]
    assert len(mine) == 1, [m.content or title(m) for m in mine]
    (last,) = mine
    assert last.content.startswith("✅ `") and "```" not in last.content and not last.embeds
    assert "That ended the game" in last.content or "**alice**" in last.content
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_a_refused_move_says_why_in_the_same_one_line(simcord_env, simcord_bot):
    """A move the rules refuse changes nothing and its reason replaces the previous line."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True)
    alice, bob = t["actors"]
    channel = t["channel"]
    await alice.click(t["lobby"], label="Start")
    table = simcord_bot.referee.tables[1]
    first = await typed(alice, channel, "c3")
    assert "**alice**" in message_text(first.response) and "c3" in message_text(first.response)
    version = table.version
    refused = await typed(alice, channel, "d4")  # bob's turn now
    await env.advance_time(1)
    assert refused.response.content.startswith("⚠️ `d4`:") and "turn" in refused.response.content
    assert table.version == version
    assert [m.content for m in private_lines(channel, alice)] == [refused.response.content]
    assert private_lines(channel, bob) == []
    assert not env.errors


@pytest.mark.parametrize(
    ("status", "code"),
    [(503, 0), (429, 0), (404, 10008), (404, 10015)],
    ids=["discord-hiccup", "rate-limited", "already-dismissed", "token-expired"],
)
@pytest.mark.simcord(settle_timeout=30)
async def test_deleting_the_old_line_fails(simcord_env, simcord_bot, status, code):
    """Discord refuses to delete the previous line. A passing refusal (5xx, 429) is tried again
    until the line is gone; a line already gone (dismissed, or its token dead) is let be. The
    move itself stands either way and nothing is logged as an error.
    Seen to fail with Panels._delete_typed not raising TryLater: after a 503 two lines stayed."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True)
    alice, bob = t["actors"]
    channel = t["channel"]
    await alice.click(t["lobby"], label="Start")
    table = simcord_bot.referee.tables[1]
    await typed(alice, channel, "c3")
    await typed(bob, channel, "d4")
    env.inject_error("DELETE", DELETE_LINE, status=status, code=code, times=1)
    second = await typed(alice, channel, "a1")
    assert "a1" in {p["point"] for p in table.state.view(None)["pawns"]}  # the move stands
    await env.advance_time(10)
    lines = [m.content for m in private_lines(channel, alice)]
    if status >= 429:
        assert lines == [second.response.content]  # tried again until the old one went
    else:
        assert second.response.content in lines and len(lines) <= 2
    await typed(bob, channel, "b2")
    third = await typed(alice, channel, "e5")
    await env.advance_time(2)
    assert [m.content for m in private_lines(channel, alice)][-1] == third.response.content
    assert len(private_lines(channel, alice)) <= 2
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_a_typed_move_whose_answer_comes_too_late_still_counts(simcord_env, simcord_bot):
    """Discord drops the answer (after its 3-second window): the move stands and the table
    shows it; the line before it stays until the next answer replaces both. Seen to fail with
    Panels.answer_typed going on after a refused answer: it deleted the last line she had and
    remembered one that was never shown."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True)
    alice, bob = t["actors"]
    channel = t["channel"]
    await alice.click(t["lobby"], label="Start")
    table = simcord_bot.referee.tables[1]
    first = (await typed(alice, channel, "c3")).response.content
    await typed(bob, channel, "d4")
    env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, times=1)
    await alice.slash(channel, "trap move", move="a1")
    assert {p["point"] for p in table.state.view(None)["pawns"]} == {"c3", "d4", "a1"}
    await env.advance_time(2)
    assert "a1" in message_text(channel.history()[0])  # the table message shows it
    assert [m.content for m in private_lines(channel, alice)] == [first]
    await typed(bob, channel, "b2")
    last = await typed(alice, channel, "e5")
    await env.advance_time(1)
    assert [m.content for m in private_lines(channel, alice)] == [last.response.content]
    assert not env.errors
