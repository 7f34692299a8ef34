"""`/help`, each game's one-minute quick start, and the "Full rules" button behind it.

A newcomer should be able to start and finish any game from `/help` and a quick start alone, on a
phone: so `/help` is one short embed, and `/<game> rules` answers with a quick start of at most
QUICK_START_LIMIT characters; the full rules and the house rulings in force (often 3,000 characters
each) stay one press of **Full rules** away. Everything here is public information, so every answer
is ephemeral only to keep the channel quiet.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.buttons import view_of
from cogs.table.common import NOBODY, reply
from rules import GAMES
from rules.words import plural

QUICK_START_LIMIT = 600
# "Full rules" under a quick start: the game's key, no table.
RULES_ID = re.compile(r"gr:(?P<game>[a-z0-9_]{1,16})")

# One line per game for /help, in the games' own words (player counts come from the engines).
TAGLINES: dict[str, str] = {
    "zipzap": "race to shed your cards in number runs; lowest score wins",
    "zaptrap": "swap for four matching aliens, then signal your partner in secret",
    "spytrap": "hidden spies bid, build piles and draw Files for their country",
    "gifttrap": "give everyone a gift they'll love, pick the gifts you want",
    "trap": "move pawns through a maze of arrows that flip with every move",
}
GAME_EMOJI: dict[str, str] = {"zipzap": "⚡", "zaptrap": "👽", "spytrap": "🕵️", "gifttrap": "🎁", "trap": "🔀"}

# How to play in one minute: how to win, what you do, which buttons to press. From the rule texts
# and RULINGS.md (e.g. Zip Zap: a Zap may follow your own number card while it is on top, a 10 too).
# Each is written from the options of the table it is asked at (the defaults elsewhere), so a
# quick start never promises "7 points" at a table playing to 10. ``seats``: the table's seat
# count, or None away from a table.


def _zipzap_quick(options: Any, seats: int | None) -> str:
    rounds = f" ({plural(options.rounds, 'round')})" if options.rounds else ""
    if options.scoring == "first_out":
        win = f"**Win:** the most points after the last round{rounds}: going out first scores 1."
        scores = ""
    else:
        win = f"**Win:** the fewest points after the last round{rounds}. Empty your hand first."
        scores = " Cards left score 1, wilds 3, a Zap 5."
    return (
        f"{win}\n"
        "**No turns:** anyone may play the next number on the top card: same colour (🟥3 → 🟥4) "
        "or the 🌈 wild of that number. On a wild, any colour of the next number fits. "
        "First card down stays.\n"
        "**The lead:** after a 10, or when nobody can follow, the last player leads any card.\n"
        "**⚡ Zap:** once a round, add your Zap to your own number card (a 10 too) to keep the lead.\n"
        "Press **My hand** and click a green card; **+ ZAP!** plays it with your Zap." + scores
    )


def _zaptrap_quick(options: Any, seats: int | None) -> str:
    side = "team (or player)" if seats is None else ("team" if seats in (4, 6) else "player")
    points = plural(options.target, "point")
    if options.preset == "kemps":
        collect = "4 cards of one rank"
    else:
        collect = "4 cards of one alien" + (" (a double counts as either)" if options.doubles else "")
    odd, partner = "", "your partner's real one"
    if seats is None:
        odd = " With 3 or 5 players you signal to your left."
    elif seats not in (4, 6):  # everyone for themselves: no partner, a neighbour
        partner = "the real one of the player on your right"
        odd = " You signal to the player on your left."
    return (
        f"**Win:** first {side} to {points}.\n"
        "Pick your secret gesture in **My hand & signal**. Then, no turns: swap a hand card for "
        f"one of the 4 on the table (Give, then Take) to collect {collect}. "
        "The dealer's **Deal** brings 4 new cards when swapping stops.\n"
        "Got a set? Make your gesture with the buttons on the table; fakes are allowed. Seen "
        f"{partner}? **ZAP** them. Think an opponent holds a set? **TRAP** them. "
        f"Wrong calls score for others.{odd}"
    )


def _spytrap_quick(options: Any, seats: int | None) -> str:
    return (
        "**Win:** hold 4 Files of your secret country, or be the last spy left "
        f"(after {options.round_limit} rounds: the most Files).\n"
        "Each round, in **My spy panel** pick 3 cards for your face-down pile (order matters) and "
        "press **Build**. Then bid on the table (**Bid**, **Pass**): the winner draws that many "
        "cards from the tops of any piles.\n"
        "A File goes to the drawer's home area. An Evil Agent lets its pile's owner steal one. "
        "A Trap Is Sprung lets its owner guess the drawer's country: right means out, unless they "
        "play Immunity. Watch your panel when a decision is yours."
    )


def _gifttrap_quick(options: Any, seats: int | None) -> str:
    if options.strategy_cards:
        cards = "Give More and Get More double one gift; a **GiftTRAP** button blocks a gift, once a game."
    else:
        cards = "Strategy cards (Give More, Get More, GiftTRAP) are off at this table."
    return (
        f"**Win:** both your markers, GET and GIVE, on GIFTED (space {options.track_length}) at "
        "the end of a round.\n"
        "The dealer picks a pack with the buttons on the table. Then in **My gifts**: give each "
        "player a gift (never the same one twice), place GREAT +3, GOOD +2, OK +1 and NO WAY −4 "
        "on four gifts you'd like, and press **Ready**.\n"
        "At the reveal each gift moves its receiver (GET) and its giver (GIVE) by the receiver's "
        f"token on it, or −1 if none. {cards}"
    )


def _trap_quick(options: Any, seats: int | None) -> str:
    if options.variant == "king":
        win = "**Win:** capture your opponent's King."
    else:
        win = "**Win:** capture all your opponent's pieces."
    if options.quick_setup:
        arrows = "2. Every line gets a random arrow (quick setup)."
    else:
        arrows = "2. Take turns dropping arrows on the lines."
    return (
        f"{win}\n"
        "1. Take turns dropping your pawns on empty points.\n"
        f"{arrows}\n"
        "3. Move one pawn a step the way an arrow at its point shows; onto a pawn, the two swap. "
        "Every arrow touching where it lands flips, and a piece whose arrows all point in is "
        "captured. No move on your turn: you lose.\n"
        "Press **My moves** and pick points, or type `/trap move c3` or `c3>c4`."
    )


QUICK_STARTS: dict[str, Callable[[Any, int | None], str]] = {
    "zipzap": _zipzap_quick,
    "zaptrap": _zaptrap_quick,
    "spytrap": _spytrap_quick,
    "gifttrap": _gifttrap_quick,
    "trap": _trap_quick,
}


def quick_start(game: Any, options: Any = None, seats: int | None = None) -> str:
    """The game's quick start for these options (the game's defaults if None)."""
    write = QUICK_STARTS.get(game.key)
    if write is None:
        return "Press **Full rules** below."
    return write(options if options is not None else game.parse_options({}), seats)


def help_embed() -> discord.Embed:
    """What the bot does, the games, and how to get a game going."""
    games = [
        f"{GAME_EMOJI.get(key, '🎲')} **{game.title}** `/{key}` ({_players(game)}) — {TAGLINES.get(key, '')}"
        for key, game in GAMES.items()
    ]
    lines = [
        "I referee tabletop games in your channels: I deal, keep every hand secret, check each "
        "move and keep the score.",
        "",
        "**The games**",
        *games,
        "",
        "**Start one**",
        "1. `/<game> new` here, e.g. `/zipzap new`. Add 🤖 computer players if you like.",
        "2. Friends press **Join**; the host presses **Start**.",
        "3. Press the table's **My …** button (My hand, My gifts, My moves…): only you see it. "
        "**Hand by DM** sends it to your DMs instead.",
        "`/<game> rules`: how to play in a minute.",
        "",
        "**At the table**",
        "`/table hand` your hand again · `/table status` whom the table waits on · "
        "`/table leave` a computer takes your seat · `/table stop` the host ends the game",
        "`/trap move c3>c4` a Trap move from the keyboard",
        "",
        "**Standings and replays**",
        "`/leaderboard` a game's standings · `/stats show` a player's record · `/history` recent "
        "games, each one a replay away · `/replay` a game by its number",
        "`/stats forget` delete your record here · managers: `/season new`, `/stats export`",
    ]
    return discord.Embed(
        title="How this bot works", description="\n".join(lines), colour=discord.Colour.blurple()
    )


def _players(game: Any) -> str:
    low, high = game.min_players, game.max_players
    return f"{low} players" if low == high else f"{low}–{high} players"


def quick_start_embed(game: Any, options: Any = None, seats: int | None = None) -> discord.Embed:
    embed = discord.Embed(
        title=f"{game.title} — quick start",
        description=quick_start(game, options, seats),
        colour=discord.Colour.green(),
    )
    embed.set_footer(text="The full rules and the house rulings: Full rules, below.")
    return embed


def rules_embeds(game: Any, interaction: discord.Interaction[Any]) -> list[discord.Embed]:
    """The full rules and the house rulings in force: the table's options here, else the defaults."""
    table = _table_here(game, interaction)
    options = table.options if table is not None else game.parse_options({})
    rules = discord.Embed(title=f"{game.title} — how to play", description=game.rules_text()[:4096])
    rulings = "\n".join(f"• {r}" for r in game.house_rulings(options))
    house = discord.Embed(
        title="House rulings in force", description=rulings[:4096], colour=discord.Colour.blurple()
    )
    return [rules, house]


async def show_full_rules(interaction: discord.Interaction[Any], game_key: str) -> None:
    """The full rules, then the house rulings in force, privately. Two messages, because Discord
    allows 6,000 characters of embeds per message and Zap or Trap's two come to about that."""
    game = GAMES.get(game_key)
    if game is None:
        shown = re.sub(r"[^a-z0-9_]", "", game_key)[:16] or "?"  # it came from a custom_id
        await reply(
            interaction, f"There's no game called `{shown}`, so there are no rules to show. Try `/help`."
        )
        return
    rules, house = rules_embeds(game, interaction)
    try:
        await interaction.response.send_message(embed=rules, ephemeral=True, allowed_mentions=NOBODY)
        await interaction.followup.send(embed=house, ephemeral=True, allowed_mentions=NOBODY)
    except discord.HTTPException:
        # Nothing changed anywhere; the person can press again.
        await reply(interaction, "I couldn't show the rules just now. Please press again.")


class FullRulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RULES_ID.pattern):
    """**Full rules** under a quick start: the game is in the custom_id, so the button works for
    anyone, after restarts, with nothing kept per message."""

    def __init__(self, game_key: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Full rules",
                emoji="📖",
                style=discord.ButtonStyle.secondary,
                custom_id=f"gr:{game_key}",
            )
        )
        self.game_key = game_key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FullRulesButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await show_full_rules(interaction, self.game_key)


def _table_here(game: Any, interaction: discord.Interaction[Any]) -> Any:
    """This game's table in the channel asked from (its options are the ones in force), or None."""
    table = interaction.client.referee.table_in(interaction.channel_id)
    return table if table is not None and table.game.key == game.key else None


async def send_rules(interaction: discord.Interaction[Any], game: Any) -> None:
    """`/<game> rules`: a one-minute quick start for the table here (its options, its seats),
    privately; the full rules and the house rulings in force are behind its **Full rules** button."""
    table = _table_here(game, interaction)
    embed = quick_start_embed(game)
    if table is not None:  # a game under way has its players; a lobby, the seats it will fill
        embed = quick_start_embed(game, table.options, len(table.seats) if table.state else table.max_seats)
    await interaction.response.send_message(
        embed=embed,
        view=view_of([FullRulesButton(game.key)]),
        ephemeral=True,
        allowed_mentions=NOBODY,
    )


class HelpCog(commands.Cog):
    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot does and how to start a game")
    async def show_help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True, allowed_mentions=NOBODY)


async def setup(bot: Any) -> None:
    await bot.add_cog(HelpCog(bot))
