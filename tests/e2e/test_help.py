"""`/help`, the quick starts of `/<game> rules` and the **Full rules** button behind them."""

from __future__ import annotations

import pytest

from cogs.help import QUICK_START_LIMIT, QUICK_STARTS, TAGLINES
from rules import GAMES
from tests.e2e.simhelpers import answer_text, buttons, emit_click, message_text, reply_text

# What a phone shows comfortably in one embed; Discord's own limits are 4,096 and 6,000.
HELP_LIMIT = 1500


def embed_size(message) -> int:  # type: ignore[no-untyped-def]
    return sum(len(e) for e in message.embeds)


@pytest.mark.simcord(settle_timeout=20)
async def test_help_names_every_game_and_how_to_start(simcord_env, simcord_bot):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    result = await alice.slash(channel, "help")
    assert result.ephemeral
    text = message_text(result.response)
    assert 0 < embed_size(result.response) <= HELP_LIMIT
    for key, game in GAMES.items():
        assert game.title in text and f"/{key}" in text, key
    for needed in ("new", "**Join**", "**Start**", "My hand", "/table hand", "/table leave", "/table stop"):
        assert needed in text, needed
    for command in ("/leaderboard", "/stats show", "/history", "/replay", "/stats forget", "/season new"):
        assert command in text, command
    assert "/stats export" in text
    assert channel.history() == []  # nothing public


def test_every_game_has_a_quick_start_and_a_tagline():
    for key in GAMES:
        assert key in QUICK_STARTS and key in TAGLINES, key
        assert 200 <= len(QUICK_STARTS[key]) <= QUICK_START_LIMIT, (key, len(QUICK_STARTS[key]))
        assert "**Win:**" in QUICK_STARTS[key], key


@pytest.mark.simcord(settle_timeout=20)
async def test_each_quick_start_names_the_button_its_table_shows(simcord_env, simcord_bot):
    """A quick start that says "press My hand" where the table says "My gifts" sends a newcomer
    looking for a button that isn't there."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("labels")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "help")  # the bot is set up: every game's UI is registered
    for key, ui in simcord_bot.referee.uis.items():
        label = getattr(ui, "hand_label", "My hand")
        assert f"**{label}**" in QUICK_STARTS[key], (key, label)


@pytest.mark.simcord(settle_timeout=20)
@pytest.mark.parametrize("key", list(GAMES))
async def test_rules_shows_the_quick_start_and_full_rules_behind_a_button(simcord_env, simcord_bot, key):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("rules")
    alice = guild.add_member(env.create_user("alice"))
    game = GAMES[key]
    result = await alice.slash(channel, f"{key} rules")
    assert result.ephemeral and result.followups == []
    (embed,) = result.response.embeds
    assert embed.description == QUICK_STARTS[key]
    assert embed_size(result.response) <= QUICK_START_LIMIT + 150  # title and footer
    assert game.rules_text()[:60] not in message_text(result.response)
    assert [b["label"] for b in buttons(result.response)] == ["Full rules"]

    full = await alice.click(result.response, label="Full rules")
    assert full.ephemeral
    shown = reply_text(full)
    assert game.rules_text()[:4096] in [e.description for e in full.response.embeds]
    assert "House rulings in force" in shown
    for ruling in game.house_rulings(game.parse_options({})):
        assert ruling[:80] in shown, ruling
    assert channel.history() == []


@pytest.mark.simcord(settle_timeout=20)
async def test_full_rules_show_the_rulings_of_the_table_here(simcord_env, simcord_bot):
    """The button reads the options of the table in the channel, like `/… rules` did before.
    Seen to fail when the button used the default options: the King variant's rulings were missing."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("kings")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "trap new", variant="king")
    game = GAMES["trap"]
    king = set(game.house_rulings(game.parse_options({"variant": "king"})))
    basic = set(game.house_rulings(game.parse_options({})))
    assert king != basic  # otherwise this test proves nothing
    quick = await alice.slash(channel, "trap rules")
    shown = reply_text(await alice.click(quick.response, label="Full rules"))
    for ruling in king - basic:
        assert ruling[:80] in shown


@pytest.mark.simcord(settle_timeout=20)
async def test_forged_full_rules_buttons_are_answered(simcord_env, simcord_bot):
    """Seen to fail (no answer at all, "This interaction failed") before route_unlisted knew the
    Full rules button: discord.py drops a click whose custom_id is not on the message."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("forged")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "zipzap new")
    lobby = channel.last_message
    before = message_text(lobby)

    unknown = emit_click(alice, lobby, "gr:chess")
    await env.settle()
    assert "no game called `chess`" in answer_text(env, unknown)

    # A real game's button forged onto another message still just shows its (public) rules.
    moved = emit_click(alice, lobby, "gr:trap")
    await env.settle()
    assert "House rulings in force" in answer_text(env, moved)

    # Outside the button's alphabet: not one of ours at all.
    odd = emit_click(alice, lobby, "gr:Chess!")
    await env.settle()
    assert "isn't one I recognise" in answer_text(env, odd)

    assert message_text(channel.history()[0]) == before  # the lobby is untouched
    assert len(simcord_bot.referee.tables) == 1
