"""Spy Trap on Discord: `/spytrap new|rules`, the public table and each spy's private panel.

Public: home areas, pile sizes, bids, who is out, whose decision it is; bidding and drawing are
public buttons (the engine refuses anyone whose turn it is not). Private, in the panel: your
identity, hand and pile, and every prompt that is yours to answer.

The engine speaks in data (events, refusals, the result, a seat's hint); every word people read is
made from the ``spytrap`` catalog (cogs.texts): the table's here, the words of what happened (events,
refusals, how the game ended, the actions' names) in cogs/words/spytrap.py, the private panel in
cogs/drawings/spytrap_panel.py and the cards' names and pictures in cogs/drawings/spytrap_cards.py.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.drawings import spytrap_cards, spytrap_panel
from cogs.drawings.spytrap_cards import card_label, country_name
from cogs.drawings.spytrap_panel import home_line, state_of
from cogs.help import send_rules
from cogs.table.buttons import TableButton
from cogs.table.drawing import Announcement
from cogs.table.lifecycle import LANGUAGE_CHOICES, LANGUAGE_OPTION, open_table_command
from cogs.table.model import Table
from cogs.table.options import SPEED_CHOICES, speed_name
from cogs.table.pictures import Sketch
from cogs.texts import N_, Texts, language
from cogs.words import spytrap as words
from rules.base import Event, IllegalAction
from rules.spytrap import SpyTrap
from rules.spytrap.views import SpyTrapPrompt, SpyTrapView

T = Texts(__name__)
locale_str = app_commands.locale_str
GAME = SpyTrap()
# Whose decision the table waits on, after the name: "⏳ **bob** may steal a File from the drawer."
PROMPT_TEXT = {
    "steal": N_("⏳ **{name}** may steal a File from the drawer."),
    "guess": N_("⏳ **{name}** may guess the drawer's identity."),
    "immunity": N_("⏳ **{name}** answers a guess — or plays Immunity."),
    "own_guess": N_("⏳ **{name}** must guess someone's identity."),
    "keep": N_("⏳ **{name}** chooses which identity to keep."),
    "challenge": N_("⏳ **{name}** may challenge the drawer's identity."),
    "swap": N_("⏳ **{name}** may swap identities."),
}
# Whose turn the table waits on: ("bid" | "decide" | "draw", seat).
Turn = tuple[str, int]


def _turn(view: SpyTrapView) -> Turn | None:
    """The one person the table waits on for a bid, a decision or their draws, if any."""
    if view["phase"] == "bid" and view["to_bid"] is not None:
        return ("bid", view["to_bid"])
    if view["prompt"] is not None:
        return ("decide", view["prompt"]["seat"])
    if view["phase"] == "draw" and view["drawer"] is not None and view["draws_left"] > 0:
        return ("draw", view["drawer"])
    return None


class SpyTrapUI:
    key = GAME.key

    @property
    def hand_label(self) -> str:
        # Translators: the button that opens a spy's private panel (identity, hand, pile).
        return T.pgettext("button", "My spy panel")

    @staticmethod
    def version_free(action: str) -> bool:
        """Everyone builds a pile at once. A Build names its cards, so it means the same whatever
        another spy did meanwhile: without this, someone else's pile wiped a person's picks with
        "too slow". The engine still refuses a pile that no longer fits the hand."""
        return action.startswith("pile-")

    @staticmethod
    def epoch(table: Table) -> Any:
        # Next round the same card codes can be back in hand: a Build never carries over.
        return state_of(table).view(None)["round"]

    def __init__(self) -> None:
        # Table id -> whose turn the table waited on after the last change, so a person is pinged
        # once when it becomes their turn and not again while it stays theirs.
        self._turns: dict[int, Turn | None] = {}
        # Table id -> (round, seat) of the drawer already told to draw: a draw interrupted by
        # someone else's decision is still the same turn when it comes back.
        self._draws: dict[int, tuple[int, int]] = {}

    def options_lines(self, table: Table) -> list[str]:
        return [
            T.gettext("Speed: {speed}", speed=speed_name(table.speed)),
            T.gettext("Round limit: {rounds}", rounds=table.options.round_limit),
        ]

    # --- public table --------------------------------------------------------------------------

    def table_embed(self, table: Table) -> discord.Embed:
        view = state_of(table).view(None)
        over = view["phase"] == "over"
        title = (
            T.gettext("Spy Trap — round {round} — game over", round=view["round"])
            if over
            else T.gettext("Spy Trap — round {round}", round=view["round"])
        )
        embed = discord.Embed(
            title=title, colour=discord.Colour.dark_red() if not over else discord.Colour.dark_grey()
        )
        embed.description = self._status(table, view)
        for s in table.seats:
            i = s.seat
            out = not view["active"][i]
            marks = T.pgettext("seat", "❌ out") if out else ""
            if view["immunity"][i] and not out:
                marks += " " + T.pgettext("seat", "🛡️ Immunity")
            bid = view["bids"][i]
            counts = {"hand": view["hand_counts"][i], "pile": view["pile_sizes"][i]}
            if isinstance(bid, int):
                said = T.gettext("hand {hand} · pile {pile} · bid {bid}", bid=bid, **counts)
            elif bid == "pass":
                said = T.gettext("hand {hand} · pile {pile} · passed", **counts)
            else:
                said = T.gettext("hand {hand} · pile {pile}", **counts)
            value = said + "\n" + T.gettext("Home: {files}", files=home_line(view, i))
            # Only the marks that apply, one space apart: "alice 🛡️", never "alice  🛡️".
            computer = T.pgettext("seat", "🤖 computer") if s.is_computer else ""
            name = " ".join(part for part in (s.name, computer, marks.strip()) if part)
            embed.add_field(name=name[:256], value=value[:1024], inline=True)
        if view["drawn"]:
            drawn = " · ".join(card_label(d["card"]) for d in view["drawn"][-8:])
            embed.add_field(name=T.gettext("Drawn this round"), value=drawn[:1024], inline=False)
        facts = [
            T.gettext(
                "{name} is not {country}",
                name=table.plain_name(w["seat"]),
                country=country_name(w["country"]),
            )
            for w in view["wrong_guesses"]
        ]
        footer = T.gettext("Deck {deck} · used {used}", deck=view["deck_count"], used=view["used_count"])
        if facts:
            footer = T.gettext("{counts} · known: {facts}", counts=footer, facts="; ".join(facts))
        embed.set_footer(text=footer[:2048])
        return embed

    def table_sketches(self, table: Table) -> list[Sketch]:
        """This round's face-up cards as one picture, from the public view only: beside the title
        when one card is down, full width when several are. The alt text names whose pile each
        card came from (the picture labels them by seat number, the table's text by name)."""
        view = state_of(table).view(None)
        drawn = view["drawn"]
        if not drawn:
            return []
        faces = tuple((d["card"], d["pile"]) for d in drawn)
        alt = spytrap_cards.table_alt(view, [table.plain_name(s) for s in range(view["players"])])
        lang = language()
        return [
            Sketch(
                "spytrap-drawn.png",
                ("spytrap-drawn", faces, lang),
                partial(spytrap_cards.table_png, view, lang=lang),
                alt,
                small=len(drawn) == 1,
            )
        ]

    def _status(self, table: Table, view: SpyTrapView) -> str:
        phase = view["phase"]
        if phase == "over":
            return T.gettext("The game is over.")
        prompt = view["prompt"]
        if prompt is not None:
            return T.gettext(PROMPT_TEXT[prompt["kind"]], name=table.name(prompt["seat"]))
        if phase == "pile":
            marks = [
                T.gettext("✅ {name} built", name=table.name(i))
                if done
                else T.gettext("⏳ {name} building", name=table.name(i))
                for i, done in enumerate(view["piles_done"])
                if view["active"][i]
            ]
            return T.gettext("Everyone builds a secret pile of 3 in their panel.") + "\n" + " · ".join(marks)
        if phase == "bid":
            to_bid, most = table.name(view["to_bid"]), view["max_bid"]
            if view["high_bidder"] is not None:
                return T.gettext(
                    "Bidding: High bid **{bid}** by {bidder}. **{name}** to bid (up to {most}).",
                    bid=view["high_bid"],
                    bidder=table.name(view["high_bidder"]),
                    name=to_bid,
                    most=most,
                )
            return T.gettext("Bidding: No bid yet. **{name}** to bid (up to {most}).", name=to_bid, most=most)
        if phase == "draw":
            return T.ngettext(
                "**{name}** won the bidding with {bid} and draws: {n} draw left. "
                "They pick a pile for each card.",
                "**{name}** won the bidding with {bid} and draws: {n} draws left. "
                "They pick a pile for each card.",
                view["draws_left"],
                name=table.name(view["drawer"]),
                bid=view["draw_bid"],
            )
        return ""

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        view = state_of(table).view(None)
        items: list[discord.ui.Item[Any]] = []
        if view["prompt"] is not None:
            return items
        # Bids are made in the bidder's own panel only (its bid select and Pass): buttons here
        # were offered to everyone and refused all but one (issue 33: one way to do one thing).
        if view["phase"] == "draw" and view["drawer"] is not None:
            for i, size in enumerate(view["pile_sizes"]):
                if size:
                    label = T.pgettext(
                        "button", "Draw from {name}'s pile ({size})", name=table.plain_name(i), size=size
                    )[:80]
                    items.append(
                        TableButton(table.id, "act", f"draw-{i}", label=label, row=1 + len(items) // 5)
                    )
        return items

    # --- the words of what happened (events, refusals): cogs/words/spytrap.py -----------------

    def event_line(self, table: Table, event: Event) -> str:
        return words.event_line(table, event)

    def refusal(self, table: Table, error: IllegalAction) -> str:
        return words.refusal(error)

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        return None  # the table's log tells a round's story; a round is short

    def announcements(self, table: Table, events: list[Event]) -> list[Announcement]:
        """One ping to the person whose bid, decision or draw the table now waits on, when it
        becomes their turn; none while it stays theirs, none for computers."""
        view = state_of(table).view(None)
        turn = _turn(view)
        last = self._turns.get(table.id)
        self._turns[table.id] = turn
        if turn is None or (last is not None and last[1] == turn[1]):
            return []
        kind, seat = turn
        if kind == "draw":
            if self._draws.get(table.id) == (view["round"], seat):
                return []
            self._draws[table.id] = (view["round"], seat)
        return [Announcement(self._turn_text(table, view, kind), (seat,))]  # not told if a computer

    def _turn_text(self, table: Table, view: SpyTrapView, kind: str) -> str:
        if kind == "bid":
            low, high = view["min_bid"], view["max_bid"]
            if view["high_bidder"] is None:
                if low == high:
                    return T.gettext(
                        "you open the bidding at Spy Trap: bid {low} in **{panel}**.",
                        low=low,
                        panel=self.hand_label,
                    )
                return T.gettext(
                    "you open the bidding at Spy Trap: bid from {low} to {high} in **{panel}**.",
                    low=low,
                    high=high,
                    panel=self.hand_label,
                )
            standing = {
                "name": table.name(view["high_bidder"]),
                "bid": view["high_bid"],
                "panel": self.hand_label,
            }
            if low > high:
                return T.gettext("your bid at Spy Trap: {name} bids {bid}; pass in **{panel}**.", **standing)
            if low == high:  # one raise left: "Raise (12 to 12)" read like a typo
                return T.gettext(
                    "your bid at Spy Trap: {name} bids {bid}. Raise to {low} or pass in **{panel}**.",
                    low=low,
                    **standing,
                )
            return T.gettext(
                "your bid at Spy Trap: {name} bids {bid}. Raise ({low} to {high}) or pass in **{panel}**.",
                low=low,
                high=high,
                **standing,
            )
        if kind == "draw":
            # One card is not "one at a time": that read oddly.
            return T.ngettext(
                "you won the bidding at Spy Trap: draw {n} card from the piles.",
                "you won the bidding at Spy Trap: draw {n} cards, one at a time, from the piles.",
                view["draws_left"],
            )
        prompt = view["prompt"]
        assert prompt is not None  # a "decide" turn is the prompt's seat's
        return T.gettext(
            "your decision at Spy Trap: {decision} Open **{panel}**.",
            decision=self._decision(table, prompt),
            panel=self.hand_label,
        )

    @staticmethod
    def _decision(table: Table, prompt: SpyTrapPrompt) -> str:
        name = table.name
        # Each test names prompt["kind"] itself, so the type checker knows which prompt it is.
        if prompt["kind"] == "steal":
            return T.gettext(
                "your Evil Agent was drawn — you may steal a File from {name}.", name=name(prompt["drawer"])
            )
        if prompt["kind"] == "guess":
            return T.gettext(
                "your trap was sprung — you may guess {name}'s identity.", name=name(prompt["drawer"])
            )
        if prompt["kind"] == "immunity":
            return T.gettext(
                "{name} guesses you are {country} — answer, or play your Immunity card.",
                name=name(prompt["guesser"]),
                country=country_name(prompt["guess"]),
            )
        if prompt["kind"] == "own_guess":
            return T.gettext("your own trap was sprung — you must guess another spy's identity.")
        if prompt["kind"] == "keep":
            return T.gettext(
                "you put {name} out — choose which identity to keep.", name=name(prompt["eliminated"])
            )
        if prompt["kind"] == "challenge":
            return T.gettext(
                "you may challenge {name}'s identity, or let it go.", name=name(prompt["drawer"])
            )
        return T.gettext(
            "you may swap identities with {name}, whom you put out.", name=name(prompt["eliminated"])
        )

    def final_embed(self, table: Table) -> discord.Embed:
        state = state_of(table)
        view = state.view(None)
        result = state.result()
        assert result is not None
        winner = view.get("winner")
        embed = discord.Embed(
            title=words.final_title(table, result.how, winner)[:256], colour=discord.Colour.gold()
        )
        identities = view.get("identities") or []
        lines = [
            words.placement_line(table, p, identities, view["out_order"], winner)
            for p in sorted(result.placements, key=lambda p: (p.place, p.seat))
        ]
        embed.description = "\n".join(lines)
        embed.set_footer(
            text=T.gettext("Every identity is revealed. Results are on /leaderboard. Rematch below.")
        )
        return embed

    # --- private panel: cogs/drawings/spytrap_panel.py ------------------------------------------

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        return spytrap_panel.panel(table, seat, note, nav)

    def panel_sketches(self, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        return spytrap_panel.panel_sketches(table, seat, nav)

    def signal_rows(self, table: Table) -> list[dict[str, Any]]:
        return []


class SpyTrapCog(commands.Cog):
    spytrap = app_commands.Group(
        name=locale_str("spytrap"),
        description=locale_str("Spy Trap: bidding, piles and hidden identities"),
        guild_only=True,
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        bot.referee.register(SpyTrapUI())

    @spytrap.command(
        name=locale_str("new"),
        description=locale_str("Open a Spy Trap table in this channel"),
    )
    @app_commands.rename(
        seats=locale_str("seats"),
        speed=locale_str("speed"),
        thread=locale_str("thread"),
        max_rounds=locale_str("max_rounds"),
        language=locale_str("language"),
    )
    @app_commands.describe(
        seats=locale_str("How many seats (2–6)"),
        speed=locale_str("Timers: relaxed, fast or off"),
        thread=locale_str("Play in a new thread"),
        max_rounds=locale_str("Stop after this many rounds and rank by Files (default 40)"),
        language=LANGUAGE_OPTION,
    )
    @app_commands.choices(speed=SPEED_CHOICES, language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 6] = 4,
        speed: str = "relaxed",
        thread: bool = False,
        max_rounds: app_commands.Range[int, 5, 200] | None = None,
        language: str | None = None,
    ) -> None:
        rules = {} if max_rounds is None else {"round_limit": max_rounds}
        await open_table_command(
            interaction, GAME.key, seats=seats, speed=speed, rules=rules, thread=thread, language=language
        )

    @spytrap.command(
        name=locale_str("rules"),
        description=locale_str("How to play Spy Trap, and the house rulings in force"),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(SpyTrapCog(bot))
