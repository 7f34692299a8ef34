"""`/help`, the quick starts of `/<game> rules` and the **Full rules** button behind them."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.help import QUICK_START_LIMIT, QUICK_STARTS, TAGLINES, quick_start, quick_start_embed
from cogs.symbols import SYMBOLS_LIMIT, symbol_lines
from rules import GAMES
from tests.e2e.simhelpers import answer_text, buttons, emit_click, message_text, reply_text

# What a phone shows comfortably in one embed; Discord's own limits are 4,096 and 6,000. (1,500
# until `/settings` needed its line: both of its commands don't fit in fewer words.)
HELP_LIMIT = 1600


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
    for needed in ("new", "**Join**", "**Start**", "My hand", "Hand by DM"):
        assert needed in text, needed
    for command in ("/leaderboard", "/stats show", "/history", "/replay", "/stats forget", "/season new"):
        assert command in text, command
    assert "/stats export" in text
    assert channel.history() == []  # nothing public


def slash_commands(bot) -> list[str]:  # type: ignore[no-untyped-def]
    """Every slash command the bot registers, as a person types it ("/table status")."""
    names = []
    for command in bot.tree.get_commands():
        subcommands = getattr(command, "commands", None)
        if subcommands:
            names += [f"/{command.name} {sub.name}" for sub in subcommands]
        else:
            names.append(f"/{command.name}")
    return names


@pytest.mark.simcord(settle_timeout=20)
async def test_help_names_every_command_a_player_has(simcord_env, simcord_bot):
    """Read off the bot's own command tree, so a command added later without a line in `/help`
    fails here. A game's `new` and `rules` count as named by `/<game> new` and `/<game> rules`.
    Seen to fail before issue 21: `/table status` and `/trap move` were missing (and Hand by DM,
    checked above)."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    text = message_text((await alice.slash(channel, "help")).response)
    commands = slash_commands(simcord_bot)
    assert {"/table status", "/trap move", "/zipzap new", "/help"} <= set(commands)  # the tree was read
    generic = {f"/{key} {verb}": f"/<game> {verb}" for key in GAMES for verb in ("new", "rules")}
    missing = [c for c in commands if c != "/help" and generic.get(c, c) not in text]
    assert missing == []


def test_every_game_has_a_quick_start_and_a_tagline():
    for key, game in GAMES.items():
        assert key in QUICK_STARTS and key in TAGLINES, key
        text = quick_start(game)
        assert 200 <= len(text) <= QUICK_START_LIMIT, (key, len(text))
        assert "**Win:**" in text, key


def test_the_quick_start_explains_every_mark_a_table_shows() -> None:
    """Issue 33: Zap or Trap's specials and corner numbers, Spy Trap's "counting Files" and Zip
    Zap's hatching were seen with no word of explanation. The quick start names each, one line
    each, and lists only what the table's options deal."""

    def seen(key: str, **options: Any) -> str:
        game = GAMES[key]
        embed = quick_start_embed(game, game.parse_options(options))
        (field,) = [f for f in embed.fields if f.name == "What you see"]
        return str(field.value)

    zaptrap = seen("zaptrap")
    for name, letters in [
        ("Zip Zap, Don't Come Back", "ZZ"),
        ("Be Free!! Be Free!!", "BF"),
        ("Dangerous Mission", "DM"),
    ]:
        (line,) = [line for line in zaptrap.splitlines() if f"**{name}** ({letters}):" in line]
        assert "+" in line, line  # what it scores
    assert "**3 M** in a corner" in zaptrap and "**3+4**: a double" in zaptrap
    bare = seen("zaptrap", specials=0, doubles=0)
    assert "Dangerous Mission" not in bare and "3+4" not in bare and "**3 M**" in bare
    assert "**Counting Files:**" in seen("spytrap")
    assert "hatched" in seen("zipzap")


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
        assert f"**{label}**" in quick_start(GAMES[key]), (key, label)


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
    assert embed.description == quick_start(game)
    # Title and footer, and the marks the table shows (What you see, issue 33).
    symbols = len("\n".join(symbol_lines(game, game.parse_options({}))))
    assert symbols <= SYMBOLS_LIMIT, (key, symbols)
    assert embed_size(result.response) <= QUICK_START_LIMIT + 150 + symbols
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


@pytest.mark.simcord(settle_timeout=20)
async def test_a_quick_start_quotes_the_options_of_the_table_here(simcord_env, simcord_bot):
    """`/zaptrap rules` at a table playing to 10 in teams says "first team to 10 points"; in a
    channel without a Zap or Trap table it gives the defaults. Seen to fail before issue 21: every
    quick start said "first team (or player) to 7 points"."""
    env = simcord_env
    guild = env.create_guild()
    here, elsewhere = guild.create_text_channel("zap"), guild.create_text_channel("zip")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(here, "zaptrap new", target=10, preset="kemps", seats=5)
    await alice.slash(elsewhere, "zipzap new")  # another game's table: its options don't apply
    quick = message_text((await alice.slash(here, "zaptrap rules")).response)
    assert "**Win:** first player to 10 points." in quick and "7 points" not in quick
    assert "4 cards of one rank" in quick and "alien" not in quick
    assert "partner" not in quick  # five seats: everyone for themselves
    other = message_text((await alice.slash(elsewhere, "zaptrap rules")).response)
    assert "first team (or player) to 7 points" in other
    # A four-seat lobby started with three players plays without teams: the game's players count.
    third = guild.create_text_channel("three")
    await alice.slash(third, "zaptrap new", seats=4)
    lobby = third.last_message
    assert "first team to 7 points" in message_text((await alice.slash(third, "zaptrap rules")).response)
    for _ in range(2):
        await alice.click(lobby, label="Add computer: casual")
    await alice.click(lobby, label="Start")
    started = message_text((await alice.slash(third, "zaptrap rules")).response)
    assert "first player to 7 points" in started


@pytest.mark.parametrize(
    ("key", "options", "seats", "quoted"),
    [
        ("zipzap", {"scoring": "first_out", "rounds": 3}, 4, ["the most points", "(3 rounds)"]),
        ("zipzap", {"rounds": 1}, 2, ["the fewest points", "(1 round)", "wilds 3"]),
        ("zaptrap", {"target": 1}, 4, ["first team to 1 point.", "(a double counts as either)"]),
        ("spytrap", {"round_limit": 12}, 3, ["after 12 rounds"]),
        ("gifttrap", {"track_length": 9, "strategy_cards": False}, 5, ["space 9", "are off"]),
        ("trap", {"variant": "king", "quick_setup": True}, 2, ["King", "random arrow"]),
    ],
)
def test_each_quick_start_follows_its_options(key, options, seats, quoted):  # type: ignore[no-untyped-def]
    game = GAMES[key]
    default = quick_start(game)
    text = quick_start(game, game.parse_options(options), seats)
    assert text != default and len(text) <= QUICK_START_LIMIT
    for words in quoted:
        assert words in text, (words, text)


def test_the_invite_asks_for_every_permission_a_table_checks() -> None:
    """The invite the bot prints and the README's link ask for every permission `/… new` checks
    (a server set up by the README was refused every table when Attach Files was left out).
    Fails if a permission is added to the checks and not to the invite, or if the README's number
    and the bot's differ."""
    from pathlib import Path

    from cogs.table.failures import INVITE, NEEDED, NEEDED_FOR_FILES, NEEDED_FOR_THREADS, invite_url

    for name in [*NEEDED, *NEEDED_FOR_FILES, *NEEDED_FOR_THREADS]:
        assert getattr(INVITE, name), name
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    assert f"permissions={INVITE.value}" in readme and f"**{INVITE.value}**" in readme
    assert invite_url(42).endswith(f"client_id=42&scope=bot+applications.commands&permissions={INVITE.value}")
