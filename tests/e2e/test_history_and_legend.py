"""The public History button (Trap, GiftTRAP) and Trap's board legend."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from cogs.table.model import SeatInfo, Table
from cogs.trap import TrapUI
from rules.trap import Trap
from tests.e2e.gifttrap_driver import open_lobby, play_to_end
from tests.e2e.simhelpers import answer_text, buttons, emit_click, reply_text
from tests.e2e.trap_driver import open_table, section

ENGINE = Trap()


def history_button(message: Any) -> dict[str, Any]:
    return next(b for b in buttons(message) if b.get("label") == "History")


@pytest.mark.simcord(settle_timeout=30)
async def test_anyone_in_the_channel_reads_trap_history_privately(simcord_env, simcord_bot):
    """Carol, who is not playing, presses History: she alone sees every drop so far, and nothing
    changes. Seen to fail without the referee's history branch ("doesn't do anything any more")."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 5
    t = await open_table(env, cpu=None, people=("alice", "bob"), quick_setup=True)
    alice, bob = t["actors"]
    channel, lobby = t["channel"], t["lobby"]
    carol = t["guild"].add_member(env.create_user("carol"))
    await alice.click(lobby, label="Start")
    table = simcord_bot.referee.tables[1]
    for actor, point in ((alice, "c3"), (bob, "d4"), (alice, "a1")):
        await actor.slash(channel, "trap move", move=point)
    await env.advance_time(2)  # the table message redraws
    public_before = len(channel.history())
    version, state = table.version, table.state.to_json()

    result = await carol.click(channel.history()[0], label="History")
    assert result.ephemeral
    shown = reply_text(result)
    assert section(shown, "Piece Drop") == ["c3", "d4", "a1"]
    assert (table.version, table.state.to_json()) == (version, state)
    assert len(channel.history()) == public_before  # nothing public was said

    # The same button forged from another channel is refused, as every table button is.
    other = t["guild"].create_text_channel("elsewhere")
    flight = emit_click(
        carol, channel.history()[0], history_button(channel.history()[0])["custom_id"], channel_id=other.id
    )
    await env.settle()
    assert "another channel" in answer_text(env, flight)
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_a_long_history_comes_as_a_file(simcord_env, simcord_bot):
    """Eight seats of GiftTRAP: once most gifts are unwrapped the round's history is far over a
    message's 2,000 characters, so History answers with a .txt (plain text, no markdown)."""
    env = simcord_env
    t = await open_lobby(
        env,
        simcord_bot,
        seed=3,
        people=("alice",),
        cpus=("thoughtful",) * 7,
        seats=8,
        track_length=40,
        strategy_cards=False,
    )
    table, channel = t["table"], t["channel"]
    carol = t["guild"].add_member(env.create_user("carol"))
    for _ in range(400):  # the referee fills in alice's choices when her time runs out
        if len(table.state.view(None)["revealed"]) >= 30:
            break
        await env.advance_time(2)
    assert len(table.state.view(None)["revealed"]) >= 30
    version = table.version
    result = await carol.click(channel.history()[0], custom_id=f"gt:{table.id}:history")
    assert result.ephemeral and "as a file" in reply_text(result)
    (attachment,) = result.response.attachments
    assert attachment.filename == f"gifttrap-{table.id}-history.txt"
    text = bytes(env.backend.cdn.get(attachment.url)).decode()
    assert text.count(" unwraps ") >= 30 and "**" not in text
    assert table.version == version  # pressing History changed nothing


def history_text(env: Any, result: Any) -> str:
    """What History answered: the message, or the .txt it came as when long."""
    if result.response.attachments:
        (attachment,) = result.response.attachments
        return bytes(env.backend.cdn.get(attachment.url)).decode()
    return reply_text(result)


@pytest.mark.simcord(settle_timeout=30)
async def test_gifttrap_history_stays_on_the_final_table_and_covers_the_whole_game(
    simcord_env, simcord_bot, make_bot, caplog, monkeypatch
):
    """A game of several rounds to its end: the final table message keeps 📜 History, and carol
    (watching) reads every round's unwraps there, again after a restart (read from the
    database; a failed read says so and changes nothing). A forged press from another channel
    is refused; when Discord drops the answer, nothing changes and pressing again works (seen
    to fail, an error logged by discord.py, with Entry._send_history not catching it).
    Seen to fail before issue 21: the final table had no History button, a press on it said
    "That table has ended", and History while playing showed the current round only."""
    env = simcord_env
    t = await open_lobby(env, simcord_bot, seed=7, track_length=12)
    table, channel, lobby = t["table"], t["channel"], t["lobby"]
    carol = t["guild"].add_member(env.create_user("carol"))
    seen_mid_game = ""

    async def read_mid_game(_step: int) -> None:
        nonlocal seen_mid_game
        if not seen_mid_game and table.state.round == 2 and table.state.phase == "reveal":
            seen_mid_game = history_text(env, await carol.click(lobby, label="History"))

    await play_to_end(env, t["people"], table, channel, on_step=read_mid_game)
    rounds = table.state.round
    assert rounds >= 2 and "**Round 1**" in seen_mid_game and "**Round 2**" in seen_mid_game
    final_table = next(m for m in channel.history() if m.id == lobby.id)
    assert [b.get("label") for b in buttons(final_table)] == ["History"]

    async def read() -> str:
        result = await carol.click(final_table, label="History")
        assert result.ephemeral
        return history_text(env, result)

    def whole_game(text: str) -> bool:
        plain = text.replace("**", "")
        unwraps = plain.count(" unwraps ")
        return "the whole game" in plain and unwraps == rounds * 4 * 3 and f"Round {rounds}" in plain

    first = await read()
    assert whole_game(first), first[:400]
    public = len(channel.history())
    bot = make_bot()
    await env.restart_bot(bot)
    # After a restart the finished game is read from the database; a read that fails says so
    # and changes nothing, and the next press works.
    real = bot.store.get_table

    async def locked_once(table_id: int) -> Any:
        monkeypatch.setattr(bot.store, "get_table", real)
        raise OperationalError("SELECT", {}, Exception("database is locked"))

    monkeypatch.setattr(bot.store, "get_table", locked_once)
    refused = await carol.click(final_table, label="History")
    assert "couldn't read that game's history just now" in reply_text(refused)
    assert await read() == first  # the same game, read back from the database
    assert len(channel.history()) == public  # nothing public was said

    elsewhere = t["guild"].create_text_channel("elsewhere")
    custom_id = history_button(final_table)["custom_id"]
    flight = emit_click(carol, final_table, custom_id, channel_id=elsewhere.id)
    await env.settle()
    assert "another channel" in answer_text(env, flight)
    env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, times=1)
    caplog.clear()
    dropped = emit_click(carol, final_table, custom_id)
    await env.settle()
    assert dropped.result.response is None
    # discord.py logs an error a button's callback let through; a refused answer is not one.
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert await read() == first
    assert not env.errors


@pytest.mark.simcord(settle_timeout=20)
async def test_a_game_without_history_says_so(simcord_env, simcord_bot):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("zip")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "zipzap new", seats=2)
    lobby = channel.last_message
    await alice.click(lobby, label="Add computer: casual")
    await alice.click(lobby, label="Start")
    assert "History" not in [b.get("label") for b in buttons(channel.history()[0])]
    flight = emit_click(alice, channel.history()[0], "gt:1:history")
    await env.settle()
    assert "keeps no history" in answer_text(env, flight)


# --- Trap's legend -------------------------------------------------------------------------------


def trap_table(options: dict[str, Any], seed: int = 1) -> Table:
    table = Table(
        id=1,
        guild_id=1,
        channel_id=1,
        game=ENGINE,
        host_id=1,
        settings={"seats": 2, "rules": options},
        speed="relaxed",
        seed=seed,
        status="playing",
        seats=[SeatInfo(0, 10, "alice"), SeatInfo(1, 11, "bob")],
    )
    table.state = ENGINE.new_game(2, ENGINE.parse_options(options), seed)
    return table


def play_first_legal(table: Table, until: Any) -> None:
    state = table.state
    assert state is not None
    while not until(state.view(None)):
        seat = state.to_move
        state.apply(seat, state.legal_actions(seat)[0])


def panel_text(ui: TrapUI, table: Table, seat: int) -> str:
    """Every word the panel shows: its text, its controls (a button's label, a select's
    placeholder and options) and its picture's alt text."""
    embed, items = ui.panel(table, seat, None)
    words: list[str] = []
    for i in items:
        control = getattr(i, "item", i)
        words.append(str(getattr(control, "label", None) or getattr(control, "placeholder", None) or ""))
        words += [option.label for option in getattr(control, "options", [])]
    alts = [str(getattr(sketch, "alt", "")) for sketch in ui.panel_sketches(table, seat)]
    return "\n".join([str(embed.description), str(embed.footer.text), " ".join(words), *alts])


@pytest.mark.parametrize("options", [{}, {"size": 6}, {"quick_setup": True}])
def test_the_basic_games_panel_never_mentions_kings(options: dict[str, Any]) -> None:
    """Seen to fail before: "r/R red pawn/King · b/B blue pawn/King" in every basic game."""
    ui = TrapUI()
    table = trap_table(options)
    for phase in ("piece_drop", "arrow_drop", "main"):
        play_first_legal(table, lambda v, p=phase: v["phase"] == p or v["phase"] == "over")
        for seat in (0, 1):
            assert "King" not in panel_text(ui, table, seat), phase


def test_the_king_games_panel_speaks_of_the_king() -> None:
    """The phone panel (issue 33) keeps no legend: the board picture draws a King apart, the
    table message's legend explains each mark, and the panel asks for the King by name."""
    ui = TrapUI()
    table = trap_table({"variant": "king"})
    assert "King" in panel_text(ui, table, 0)


def test_the_table_legend_explains_each_mark_when_it_is_drawn() -> None:
    """The board draws a yellow ring on the last drop, an orange arrow for the arrow just dropped,
    and after a move yellow and blue rings and orange flipped arrows: the footer says which."""
    ui = TrapUI()
    table = trap_table({})
    assert "ring" not in (ui.table_embed(table).footer.text or "")  # nothing drawn yet
    play_first_legal(table, lambda v: v["last"] is not None)
    assert "yellow ring: the pawn just dropped" in ui.table_embed(table).footer.text
    play_first_legal(table, lambda v: (v["last"] or {}).get("kind") == "arrow")
    assert "orange arrow: the arrow just dropped" in ui.table_embed(table).footer.text
    play_first_legal(table, lambda v: (v["last"] or {}).get("kind") == "move")
    footer = ui.table_embed(table).footer.text
    for mark in ("yellow ring", "blue ring", "orange arrows: just flipped", "orange ✗"):
        assert mark in footer, mark


def test_pieces_lost_say_lost() -> None:
    """'captured: 1' under a colour read as taken or lost; it is the colour's lost pieces."""
    ui = TrapUI()
    for seed in range(1, 40):
        table = trap_table({"quick_setup": True}, seed)
        state = table.state
        assert state is not None
        while not state.is_over() and not any(state.view(None)["captured"]):
            seat = state.to_move
            state.apply(seat, state.legal_actions(seat)[-1])
        lost = state.view(None)["captured"]
        if any(lost):
            break
    else:
        raise AssertionError("no capture in any of these games")
    embed = ui.table_embed(table)
    fields = {f.name: f.value for f in embed.fields}
    for seat in (0, 1):
        value = fields[f"{'🔴🔵'[seat]} {table.name(seat)}"]
        assert "captured" not in value
        assert (f"lost: {len(lost[seat])}" in value) == bool(lost[seat])
