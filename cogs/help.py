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
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.symbols import symbol_lines
from cogs.table.buttons import view_of
from cogs.table.common import NOBODY, reply
from cogs.table.languages import Spoken
from cogs.texts import N_, Texts, language
from rules import GAMES

T = Texts(__name__)

QUICK_START_LIMIT = 600
# "Full rules" under a quick start: the game's key, no table.
RULES_ID = re.compile(r"gr:(?P<game>[a-z0-9_]{1,16})")

# One line per game for /help, in the games' own words (player counts come from the engines).
TAGLINES: dict[str, str] = {
    "zipzap": N_("race to shed your cards in number runs; lowest score wins"),
    "zaptrap": N_("swap for four matching aliens, then signal your partner in secret"),
    "spytrap": N_("hidden spies bid, build piles and draw Files for their country"),
    "gifttrap": N_("give everyone a gift they'll love, pick the gifts you want"),
    "trap": N_("move pawns through a maze of arrows that flip with every move"),
}
GAME_EMOJI: dict[str, str] = {"zipzap": "⚡", "zaptrap": "👽", "spytrap": "🕵️", "gifttrap": "🎁", "trap": "🔀"}

# How to play in one minute: how to win, what you do, which buttons to press. From the rule texts
# and RULINGS.md (e.g. Zip Zap: a Zap may follow your own number card while it is on top, a 10 too).
# Each is written from the options of the table it is asked at (the defaults elsewhere), so a
# quick start never promises "7 points" at a table playing to 10. ``seats``: the table's seat
# count, or None away from a table. Each sentence is one message, so a translator sees it whole.


def _zipzap_quick(options: Any, seats: int | None) -> str:
    rounds = options.rounds
    if options.scoring == "first_out":
        if rounds:
            win = T.ngettext(
                "**Win:** the most points after the last round ({n} round): going out first scores 1.",
                "**Win:** the most points after the last round ({n} rounds): going out first scores 1.",
                rounds,
            )
        else:
            win = T.gettext("**Win:** the most points after the last round: going out first scores 1.")
        scores = ""
    else:
        if rounds:
            win = T.ngettext(
                "**Win:** the fewest points after the last round ({n} round). Empty your hand first.",
                "**Win:** the fewest points after the last round ({n} rounds). Empty your hand first.",
                rounds,
            )
        else:
            win = T.gettext("**Win:** the fewest points after the last round. Empty your hand first.")
        scores = " " + T.gettext("Cards left score 1, wilds 3, a Zap 5.")
    how = T.gettext(
        "**No turns:** anyone may play the next number on the top card: same colour (🟥3 → 🟥4) "
        "or the 🌈 wild of that number. On a wild, any colour of the next number fits. "
        "First card down stays.\n"
        "**The lead:** after a 10, or when nobody can follow, the last player leads any card.\n"
        "**⚡ Zap:** once a round, add your Zap to your own number card (a 10 too) to keep the lead.\n"
        "Press **My hand** and click a green card; **+ ZAP!** plays it with your Zap."
    )
    return f"{win}\n{how}{scores}"


def _zaptrap_quick(options: Any, seats: int | None) -> str:
    target = options.target
    if seats is None:
        win = T.ngettext(
            "**Win:** first team (or player) to {n} point.",
            "**Win:** first team (or player) to {n} points.",
            target,
        )
    elif seats in (4, 6):
        win = T.ngettext("**Win:** first team to {n} point.", "**Win:** first team to {n} points.", target)
    else:
        win = T.ngettext(
            "**Win:** first player to {n} point.", "**Win:** first player to {n} points.", target
        )
    if options.preset == "kemps":
        collect = T.gettext("4 cards of one rank")
    elif options.doubles:
        collect = T.gettext("4 cards of one alien (a double counts as either)")
    else:
        collect = T.gettext("4 cards of one alien")
    odd, partner = "", T.gettext("your partner's real one")
    if seats is None:
        odd = " " + T.gettext("With 3 or 5 players you signal to your left.")
    elif seats not in (4, 6):  # everyone for themselves: no partner, a neighbour
        partner = T.gettext("the real one of the player on your right")
        odd = " " + T.gettext("You signal to the player on your left.")
    how = T.gettext(
        "Pick your secret gesture in **My hand & signal**. Then, no turns: swap a hand card for "
        "one of the 4 on the table (Give, then Take) to collect {collect}. "
        "The dealer's **Deal** brings 4 new cards when swapping stops.\n"
        "Got a set? Make your gesture with the buttons on the table; fakes are allowed. Seen "
        "{partner}? **ZAP** them. Think an opponent holds a set? **TRAP** them. "
        "Wrong calls score for others.",
        collect=collect,
        partner=partner,
    )
    return f"{win}\n{how}{odd}"


def _spytrap_quick(options: Any, seats: int | None) -> str:
    return T.ngettext(
        "**Win:** hold 4 Files of your secret country, or be the last spy left "
        "(after {n} round: the most Files).\n"
        "Each round, in **My spy panel** pick 3 cards for your face-down pile (order matters) and "
        "press **Build**. Then bid in the same panel when it is your turn (your bid, or **Pass**): "
        "the winner draws that many "
        "cards from the tops of any piles.\n"
        "A File goes to the drawer's home area. An Evil Agent lets its pile's owner steal one. "
        "A Trap Is Sprung lets its owner guess the drawer's country: right means out, unless they "
        "play Immunity. Watch your panel when a decision is yours.",
        "**Win:** hold 4 Files of your secret country, or be the last spy left "
        "(after {n} rounds: the most Files).\n"
        "Each round, in **My spy panel** pick 3 cards for your face-down pile (order matters) and "
        "press **Build**. Then bid in the same panel when it is your turn (your bid, or **Pass**): "
        "the winner draws that many "
        "cards from the tops of any piles.\n"
        "A File goes to the drawer's home area. An Evil Agent lets its pile's owner steal one. "
        "A Trap Is Sprung lets its owner guess the drawer's country: right means out, unless they "
        "play Immunity. Watch your panel when a decision is yours.",
        options.round_limit,
    )


def _gifttrap_quick(options: Any, seats: int | None) -> str:
    if options.strategy_cards:
        cards = T.gettext(
            "Give More and Get More double one gift; a **GiftTRAP** button blocks a gift, once a game."
        )
    else:
        cards = T.gettext("Strategy cards (Give More, Get More, GiftTRAP) are off at this table.")
    how = T.gettext(
        "**Win:** both your markers, GET and GIVE, on GIFTED (space {space}) at "
        "the end of a round.\n"
        "The dealer picks a pack with the buttons on the table. Then in **My gifts**: give each "
        "player a gift (never the same one twice), place GREAT +3, GOOD +2, OK +1 and NO WAY −4 "
        "on four gifts you'd like, and press **Ready**.\n"
        "At the reveal each gift moves its receiver (GET) and its giver (GIVE) by the receiver's "
        "token on it, or −1 if none.",
        space=options.track_length,
    )
    return f"{how} {cards}"


def _trap_quick(options: Any, seats: int | None) -> str:
    if options.variant == "king":
        win = T.gettext("**Win:** capture your opponent's King.")
    else:
        win = T.gettext("**Win:** capture all your opponent's pieces.")
    if options.quick_setup:
        arrows = T.gettext("2. Every line gets a random arrow (quick setup).")
    else:
        arrows = T.gettext("2. Take turns dropping arrows on the lines.")
    pawns = T.gettext("1. Take turns dropping your pawns on empty points.")
    move = T.gettext(
        "3. Move one pawn a step the way an arrow at its point shows; onto a pawn, the two swap. "
        "Every arrow touching where it lands flips, and a piece whose arrows all point in is "
        "captured. No move on your turn: you lose.\n"
        "Press **My moves** and pick points, or type `/trap move c3` or `c3>c4`."
    )
    return f"{win}\n{pawns}\n{arrows}\n{move}"


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
        return T.gettext("Press **Full rules** below.")
    return write(options if options is not None else game.parse_options({}), seats)


def help_embed() -> discord.Embed:
    """What the bot does, the games, and how to get a game going."""
    games = [
        T.gettext(
            "{emoji} **{title}** `/{key}` ({players}) — {tagline}",
            emoji=GAME_EMOJI.get(key, "🎲"),
            title=game.title,
            key=key,
            players=_players(game),
            tagline=T.gettext(TAGLINES[key]) if key in TAGLINES else "",
        )
        for key, game in GAMES.items()
    ]
    lines = [
        T.gettext(
            "I referee tabletop games in your channels: I deal, keep every hand secret, check each "
            "move and keep the score."
        ),
        "",
        T.gettext("**The games**"),
        *games,
        "",
        T.gettext("**Start one**"),
        T.gettext("1. `/<game> new` here, e.g. `/zipzap new`. Add 🤖 computer players if you like."),
        T.gettext("2. Friends press **Join**; the host presses **Start**."),
        T.gettext(
            "3. Press the table's **My …** button (My hand, My gifts, My moves…): only you see it. "
            "**Hand by DM** sends it to your DMs instead."
        ),
        T.gettext("`/<game> rules`: how to play in a minute."),
        "",
        T.gettext("**At the table**"),
        T.gettext(
            "`/table hand` your hand again · `/table status` whom the table waits on · "
            "`/table leave` a computer takes your seat · `/table stop` the host ends the game"
        ),
        T.gettext("`/trap move c3>c4` a Trap move from the keyboard"),
        "",
        T.gettext("**Standings and replays**"),
        T.gettext(
            "`/leaderboard` a game's standings · `/stats show` a player's record · `/history` recent "
            "games, each one a replay away · `/replay` a game by its number"
        ),
        T.gettext("`/stats forget` delete your record here · managers: `/season new`, `/stats export`"),
        T.gettext("`/settings my-language` the language I speak to you · managers: `/settings language`"),
    ]
    return discord.Embed(
        title=T.gettext("How this bot works"), description="\n".join(lines), colour=discord.Colour.blurple()
    )


def _players(game: Any) -> str:
    low, high = game.min_players, game.max_players
    if low == high:
        return T.ngettext("{n} player", "{n} players", low)
    return T.gettext("{low}–{high} players", low=low, high=high)


def quick_start_embed(game: Any, options: Any = None, seats: int | None = None) -> discord.Embed:
    embed = discord.Embed(
        title=T.gettext("{title} — quick start", title=game.title),
        description=quick_start(game, options, seats),
        colour=discord.Colour.green(),
    )
    symbols = symbol_lines(game, options if options is not None else game.parse_options({}))
    if symbols:
        embed.add_field(name=T.gettext("What you see"), value="\n".join(symbols)[:1024], inline=False)
    embed.set_footer(text=T.gettext("The full rules and the house rulings: Full rules, below."))
    return embed


def rules_embeds(game: Any, interaction: discord.Interaction[Any]) -> list[discord.Embed]:
    """The full rules and the house rulings in force: the table's options here, else the defaults."""
    table = _table_here(game, interaction)
    options = table.options if table is not None else game.parse_options({})
    title = T.gettext("{title} — how to play", title=game.title)
    # The reader's language (their own: the Full rules are shown to them alone); a game whose
    # documents are not translated into it yet reads in English.
    lang = language()
    rules = discord.Embed(title=title, description=game.rules_text(lang)[:4096])
    rulings = "\n".join(f"• {r}" for r in game.house_rulings(options, lang))
    house = discord.Embed(
        title=T.gettext("House rulings in force"), description=rulings[:4096], colour=discord.Colour.blurple()
    )
    return [rules, house]


async def show_full_rules(interaction: discord.Interaction[Any], game_key: str) -> None:
    """The full rules, then the house rulings in force, privately. Two messages, because Discord
    allows 6,000 characters of embeds per message and Zap or Trap's two come to about that."""
    game = GAMES.get(game_key)
    if game is None:
        shown = re.sub(r"[^a-z0-9_]", "", game_key)[:16] or "?"  # it came from a custom_id
        await reply(
            interaction,
            T.gettext(
                "There's no game called `{game}`, so there are no rules to show. Try `/help`.", game=shown
            ),
        )
        return
    rules, house = rules_embeds(game, interaction)
    try:
        await interaction.response.send_message(embed=rules, ephemeral=True, allowed_mentions=NOBODY)
        await interaction.followup.send(embed=house, ephemeral=True, allowed_mentions=NOBODY)
    except discord.HTTPException:
        # Nothing changed anywhere; the person can press again.
        await reply(interaction, T.gettext("I couldn't show the rules just now. Please press again."))


class FullRulesButton(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=RULES_ID.pattern):
    """**Full rules** under a quick start: the game is in the custom_id, so the button works for
    anyone, after restarts, with nothing kept per message."""

    def __init__(self, game_key: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=T.pgettext("button", "Full rules"),
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

    @app_commands.command(
        name=locale_str("help"), description=locale_str("What this bot does and how to start a game")
    )
    async def show_help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=help_embed(), ephemeral=True, allowed_mentions=NOBODY)


async def setup(bot: Any) -> None:
    await bot.add_cog(HelpCog(bot))
