"""Spy Trap on Discord: `/spytrap new|rules`, the public table and each spy's private panel.

Public: home areas, pile sizes, bids, who is out, whose decision it is; bidding and drawing are
public buttons (the engine refuses anyone whose turn it is not). Private, in the panel: your
identity, hand and pile, and every prompt that is yours to answer.

The engine speaks in data (events, refusals, the result, a seat's hint); every word people read is
made here and in cogs/drawings/spytrap_cards.py, from the ``spytrap`` catalog (cogs.texts).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import partial
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.drawings import spytrap_cards
from cogs.drawings.spytrap_cards import card_name, card_with_article, country_name
from cogs.help import send_rules
from cogs.table.buttons import ActionButton, ActionSelect, TableButton
from cogs.table.drawing import Announcement
from cogs.table.lifecycle import open_table_command
from cogs.table.model import Table
from cogs.table.pictures import Sketch
from cogs.texts import N_, Texts, language, ordinal
from rules.base import Event, IllegalAction
from rules.spytrap import COUNTRIES, FILES_TO_WIN, HAND_SIZE, SpyTrap, SpyTrapState, card_type, country_of
from rules.spytrap.views import CountryTally, SpyTrapPrompt, SpyTrapView

T = Texts(__name__)
locale_str = app_commands.locale_str
GAME = SpyTrap()
FLAGS = {
    "American": "🇺🇸",
    "French": "🇫🇷",
    "German": "🇩🇪",
    "Italian": "🇮🇹",
    "Russian": "🇷🇺",
    "Spanish": "🇪🇸",
}
TYPE_EMOJI = {"agent": "🦹", "trap": "🪤"}
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
# What a seat must do now (its view's legal_hint), in its panel.
HINTS = {
    # Translators: a pile is the 3 cards a spy lays face down each round (the game's own term).
    "pile": N_("Build your pile: choose its cards, top card first."),
    "open": N_("Open the bidding: bid at least 1."),
    "raise": N_("Raise the bid or pass."),
    # Translators: Evil Agent and File are the game's own names for its cards.
    "steal": N_("Your Evil Agent was drawn: steal a File from the drawer, or not."),
    "guess": N_("Your trap was sprung: make a free guess of the drawer's identity, or not."),
    # Translators: Immunity is the game's own name for the card that lets a spy not answer.
    "immunity": N_("Answer the guess, or play your Immunity card and stay silent."),
    "own_guess": N_("Your own trap: guess another spy's identity. If you are wrong, you are out."),
    "keep": N_("Keep your own identity or take the one you received."),
    "challenge": N_("Challenge the drawer's identity, or not. A wrong guess puts you out."),
    "swap": N_("Swap identities with the challenger you put out, or keep yours."),
}
# What a refusal says while a prompt waits for its seat's answer (code "answer_prompt").
PROMPT_REFUSALS = {
    "steal": N_("Take one File from the drawer's home area ('steal-<card>') or decline with 'nosteal'."),
    "guess": N_("Guess the drawer's identity ('guess-French') or decline with 'noguess'."),
    "immunity": N_("Answer the guess with 'noimmunity' or play your Immunity card with 'immunity'."),
    "own_guess": N_("You must guess another spy's identity, such as 'guess-2-French'."),
    "keep": N_("Keep your own identity ('keep-own') or take the new one ('keep-new')."),
    "challenge": N_("Guess the drawer's identity ('challenge-French') or let it go with 'nochallenge'."),
    "swap": N_("Swap identities with the player you put out ('swap') or keep yours ('noswap')."),
}
# Refusals with no parameters, by code.
REFUSALS = {
    "game_over": N_("The game is over."),
    "referee_default_only": N_("The referee only applies the timer's default action."),
    "no_such_seat": N_("That seat is not at this table."),
    "out_of_game": N_("You are out of the game."),
    "referee_only": N_("Only the referee makes a choice for a player whose time ran out."),
    "piles_now": N_("Everyone is building a pile now: choose the cards for yours."),
    "pile_already_built": N_("Your pile is already built for this round."),
    "same_card_twice": N_("You named the same card twice."),
    "bidding_now": N_("The bidding is on: bid a number of cards or pass."),
    "not_your_bid": N_("It is not your turn to bid."),
    "pass_format": N_("Write a pass as 'pass'."),
    "opener_must_bid": N_("You open the bidding, so you must bid at least 1."),
    "bid_format": N_("A bid is a whole number of cards, such as 'bid-3'."),
    "your_draw": N_("It is your draw: choose a pile, such as 'draw-0'."),
    "drawer_drawing": N_("Nothing is waiting on you now: the drawer is drawing."),
    "not_drawer": N_("Only the player who won the bidding draws."),
    "pile_format": N_("Name a pile by its seat, such as 'draw-0'."),
    "answer_to_your_draw": N_("Wait: another player is answering a card you drew."),
    "another_answers_first": N_("Another player must answer first."),
    "guess_target": N_("You can only guess the identity of another spy still in the game."),
    "steal_not_file": N_("That card is not a File in the drawer's home area."),
}
# A seat that ran out of time, by the referee's action for them (event "timeout"), after the name.
TIMEOUTS = {
    "auto-pile": N_("**{name}** ran out of time: the referee built their pile."),
    "auto-guess": N_("**{name}** ran out of time: the referee guesses for them."),
    # An auto-draw names the pile (below); one stored before its data held the pile cannot.
    "auto-draw": N_("**{name}** ran out of time: the referee draws for them."),
    "bid-1": N_("**{name}** ran out of time: the referee opens the bidding at 1 for them."),
    "pass": N_("**{name}** ran out of time and passes."),
    "nosteal": N_("**{name}** ran out of time and steals nothing."),
    "noguess": N_("**{name}** ran out of time and makes no guess."),
    "immunity": N_("**{name}** ran out of time: the referee plays their Immunity card for them."),
    "keep-own": N_("**{name}** ran out of time: the referee settles their identity cards for them."),
    "nochallenge": N_("**{name}** ran out of time and does not challenge."),
    "noswap": N_("**{name}** ran out of time: the referee settles their identity cards for them."),
}
# Events worded the same whatever their data, by kind.
PLAIN_EVENTS = {
    "pass": N_("**{name}** passes."),
    "challenge_over": N_("Nobody guessed right; the drawing goes on."),
    "nosteal": N_("**{name}** steals nothing."),
    "noguess": N_("**{name}** makes no guess."),
    "immunity": N_("**{name}** plays their Immunity card and does not answer the guess."),
    "nochallenge": N_("**{name}** does not challenge."),
    "identity_choice": N_("**{name}** keeps one ID card and discards the other unseen."),
    "short_hands": N_("The deck and the used pile are empty: some hands stay short this round."),
}
AGENT_EFFECTS = {
    "own_pile": N_("The Evil Agent came from the drawer's own pile: it does nothing."),
    "inert": N_("The Evil Agent does nothing: its pile's owner is out of the game."),
    "nothing_to_steal": N_("The Evil Agent finds no File to steal in the drawer's home area."),
    "steal_offer": N_("The Evil Agent lets {owner} steal a File from the drawer."),
}
TRAP_EFFECTS = {
    "own_pile": N_("The trap is sprung from the drawer's own pile: they must guess another spy's identity."),
    "inert": N_("The trap does nothing: its pile's owner is out of the game."),
    "free_guess": N_("The trap is sprung: {owner} may make a free guess of the drawer's identity."),
}
# How a game ended (the result's ``how``), after "The game is over.": {name} is the winner's.
GAME_OVER = {
    "files": N_("The game is over. {name} collected {files} Files of their identity."),
    "challenge": N_("The game is over. {name} survived the challenge with {files} Files of their identity."),
    "last_spy": N_("The game is over. {name} is the last spy standing."),
    "round_limit": N_(
        "The game is over. The round limit was reached, so the spies still in are ranked by their "
        "counting Files."
    ),
    "no_cards": N_(
        "The game is over. No cards were left, so the spies still in are ranked by their counting Files."
    ),
}
# The same ending in the final embed's title, after the winner's name.
WINS = {
    "files": N_("Spy Trap — {name} wins with four Files of their own country"),
    "challenge": N_("Spy Trap — {name} wins by surviving the challenge"),
    "last_spy": N_("Spy Trap — {name} wins as the last spy standing"),
    "round_limit": N_("Spy Trap — {name} wins on Files when the round limit came"),
    "no_cards": N_("Spy Trap — {name} wins on Files when the cards ran out"),
}
# The actions a panel offers as buttons, by their action code.
ACTION_LABELS = {
    "pass": N_("Pass"),
    "nosteal": N_("Steal nothing"),
    "noguess": N_("Make no guess"),
    "immunity": N_("Play your Immunity card"),
    "noimmunity": N_("Answer the guess"),
    "keep-own": N_("Keep your own identity"),
    "keep-new": N_("Take the new identity"),
    "nochallenge": N_("Do not challenge"),
    "swap": N_("Swap identities"),
    "noswap": N_("Keep your identity"),
}
# Whose turn the table waits on: ("bid" | "decide" | "draw", seat).
Turn = tuple[str, int]


def card_label(card: str) -> str:
    if card_type(card) == "file":
        country = country_of(card) or ""
        return f"{FLAGS.get(country, '📁')} {card_name(card)}"
    return f"{TYPE_EMOJI[card_type(card)]} {card_name(card)}"


def _state(table: Table) -> SpyTrapState:
    """The table's engine state, typed, so its views are SpyTrapViews (a Spy Trap table holds one)."""
    assert isinstance(table.state, SpyTrapState)
    return table.state


def _home_line(view: SpyTrapView, seat: int) -> str:
    """ "🇫🇷 French ×3 (1 from own pile) 🇩🇪 German ×1": Files drawn from your own pile do not count toward the
    ordinary win, so the line says how many of each country came from there."""
    tallies: dict[str, CountryTally] = view["tallies"][seat]
    parts = []
    for country in COUNTRIES:
        tally = tallies.get(country)
        if tally and tally["all"]:
            own, count = tally["all"] - tally["counting"], tally["all"]
            # The flag alone is a picture to a screen reader ("flag: France"): the word says it.
            flag, name = FLAGS[country], country_name(country)
            if own == 0:
                part = T.gettext("{flag} {country} ×{count}", flag=flag, country=name, count=count)
            elif own == count:
                part = T.ngettext(
                    "{flag} {country} ×{count} (from own pile)",
                    "{flag} {country} ×{count} (all from own pile)",
                    own,
                    flag=flag,
                    country=name,
                    count=count,
                )
            else:
                part = T.gettext(
                    "{flag} {country} ×{count} ({own} from own pile)",
                    flag=flag,
                    country=name,
                    count=count,
                    own=own,
                )
            parts.append(part)
    return " ".join(parts) or T.gettext("no Files yet")


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
        return _state(table).view(None)["round"]

    def __init__(self) -> None:
        # Table id -> whose turn the table waited on after the last change, so a person is pinged
        # once when it becomes their turn and not again while it stays theirs.
        self._turns: dict[int, Turn | None] = {}
        # Table id -> (round, seat) of the drawer already told to draw: a draw interrupted by
        # someone else's decision is still the same turn when it comes back.
        self._draws: dict[int, tuple[int, int]] = {}

    def options_lines(self, table: Table) -> list[str]:
        return [
            T.gettext("Speed: {speed}", speed=table.speed),
            T.gettext("Round limit: {rounds}", rounds=table.options.round_limit),
        ]

    # --- public table --------------------------------------------------------------------------

    def table_embed(self, table: Table) -> discord.Embed:
        view = _state(table).view(None)
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
            value = said + "\n" + T.gettext("Home: {files}", files=_home_line(view, i))
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
        view = _state(table).view(None)
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
        view = _state(table).view(None)
        items: list[discord.ui.Item[Any]] = []
        if view["prompt"] is not None:
            return items
        if view["phase"] == "bid" and view["to_bid"] is not None:
            low, high = view["min_bid"], view["max_bid"]
            for bid in sorted({low, low + 1, low + 2, high}):
                if low <= bid <= high:
                    label = T.pgettext("button", "Bid {bid}", bid=bid)
                    items.append(TableButton(table.id, "act", f"bid-{bid}", label=label, row=1))
            if view["high_bidder"] is not None or view["to_bid"] != view["opener"]:
                items.append(TableButton(table.id, "act", "pass", label=T.pgettext("button", "Pass"), row=1))
        elif view["phase"] == "draw" and view["drawer"] is not None:
            for i, size in enumerate(view["pile_sizes"]):
                if size:
                    label = T.pgettext(
                        "button", "Draw from {name}'s pile ({size})", name=table.plain_name(i), size=size
                    )[:80]
                    items.append(
                        TableButton(table.id, "act", f"draw-{i}", label=label, row=1 + len(items) // 5)
                    )
        return items

    def event_line(self, table: Table, event: Event) -> str:
        """An engine event in words, with the seats' names as they are now (state.py lists the kinds)."""
        return event_line(table, event)

    def refusal(self, table: Table, error: IllegalAction) -> str:
        """An engine refusal in words (state.py lists the codes)."""
        return refusal(error)

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        return None  # the table's log tells a round's story; a round is short

    def announcements(self, table: Table, events: list[Event]) -> list[Announcement]:
        """One ping to the person whose bid, decision or draw the table now waits on, when it
        becomes their turn; none while it stays theirs, none for computers."""
        view = _state(table).view(None)
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
                    return T.gettext("you open the bidding at Spy Trap: bid {low} on the table.", low=low)
                return T.gettext(
                    "you open the bidding at Spy Trap: bid from {low} to {high} on the table.",
                    low=low,
                    high=high,
                )
            standing = {"name": table.name(view["high_bidder"]), "bid": view["high_bid"]}
            if low > high:
                return T.gettext("your bid at Spy Trap: {name} bids {bid}; pass on the table.", **standing)
            if low == high:  # one raise left: "Raise (12 to 12)" read like a typo
                return T.gettext(
                    "your bid at Spy Trap: {name} bids {bid}. Raise to {low} or pass on the table.",
                    low=low,
                    **standing,
                )
            return T.gettext(
                "your bid at Spy Trap: {name} bids {bid}. Raise ({low} to {high}) or pass on the table.",
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
        state = _state(table)
        view = state.view(None)
        result = state.result()
        assert result is not None
        winner = view.get("winner")
        wins = WINS.get(result.how)
        if winner is None:
            title = T.gettext("Spy Trap — game over")
        elif wins is None:
            title = T.gettext("Spy Trap — {name} wins", name=table.name(winner))
        else:
            title = T.gettext(wins, name=table.name(winner))
        embed = discord.Embed(title=title[:256], colour=discord.Colour.gold())
        identities = view.get("identities") or []
        out = view["out_order"]
        lines = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            country = identities[p.seat] if p.seat < len(identities) else "?"
            medal = "🏆" if p.place == 1 else T.gettext("{place}.", place=p.place)
            spy = T.gettext("the {country} spy", country=country_name(country))
            spy = f"{spy} {FLAGS.get(country, '')}".strip()
            name = table.name(p.seat)
            if p.seat in out:
                line = _put_out_line(medal, name, spy, out.index(p.seat) + 1)
            elif p.seat == winner:
                line = T.gettext("{medal} **{name}** — {spy}", medal=medal, name=name, spy=spy)
            else:
                line = T.ngettext(
                    "{medal} **{name}** — {spy} · {n} counting File",
                    "{medal} **{name}** — {spy} · {n} counting Files",
                    p.points,
                    medal=medal,
                    name=name,
                    spy=spy,
                )
            lines.append(line)
        embed.description = "\n".join(lines)
        embed.set_footer(
            text=T.gettext("Every identity is revealed. Results are on /leaderboard. Rematch below.")
        )
        return embed

    # --- private panel -------------------------------------------------------------------------

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        state = _state(table)
        view = state.view(seat)
        legal = state.legal_actions(seat)
        identity = view["identity"]
        embed = discord.Embed(
            title=T.gettext(
                "You are the {country} spy {flag}",
                country=country_name(identity),
                flag=FLAGS.get(identity, ""),
            ),
            colour=discord.Colour.dark_red(),
        )
        lines = []
        if not view["active"][seat]:
            lines.append(T.gettext("You are out of the game — watch the rest unfold."))
        lines.append(
            T.gettext("🛡️ You still hold your Immunity card.")
            if view["immunity"][seat]
            else T.gettext("Immunity: used.")
        )
        hand = view["hand"]
        cards = ", ".join(card_label(c) for c in hand) or T.pgettext("hand", "empty")
        lines.append(T.gettext("**Hand:** {cards}", cards=cards))
        piles = [a for a in legal if a.startswith("pile-")]
        if piles:
            lines.append(self._pile_so_far(_picked(hand, piles, nav), len(piles[0].split("-")) - 1))
        if view.get("my_pile"):
            pile = ", ".join(card_label(c) for c in view["my_pile"])
            lines.append(T.gettext("**Your pile (top first):** {cards}", cards=pile))
        received = view.get("received_id")
        if received:
            lines.append(T.gettext("You received the **{country}** ID card.", country=country_name(received)))
        for fact in view.get("learned") or []:
            lines.append(
                T.gettext(
                    "You know {name} was the {country} spy.",
                    name=table.name(fact["seat"]),
                    country=country_name(fact["country"]),
                )
            )
        lines.append(T.gettext("**Your home area:** {files}", files=_home_line(view, seat)))
        hint = view.get("legal_hint")
        if hint:
            lines.append("\n👉 " + _hint(view, hint))
        if note:
            lines.append(f"\n⚠️ {note}")
        embed.description = "\n".join(lines)[:4096]
        embed.set_footer(text=T.gettext("Round {round} · only you can see this panel", round=view["round"]))
        return embed, self._controls(table, seat, view, legal, nav)

    def panel_sketches(self, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        """The seat's own cards as pictures, for its panel only: the hand (the cards that may go on
        the pile now raised and framed; none marked when no card can be played), the identity card
        with Immunity beside it while held, the pile laid face down (or, while it is being built,
        the cards picked so far: ``nav``), and the home area's Files. Keys name what each picture
        shows, by faces (two French Files look alike), never the seat."""
        state = _state(table)
        view = state.view(seat)
        hand: list[str] = view["hand"]
        piles = [a for a in state.legal_actions(seat) if a.startswith("pile-")]
        chosen = _picked(hand, piles, nav) if piles else []
        # While building, the cards still to pick are the playable ones (a picked card is spent).
        playable = frozenset(c for a in piles for c in a[5:].split("-")) - set(chosen) if piles else None
        marks = None if playable is None else tuple(c in playable for c in hand)
        identity, immunity = view["identity"], view["immunity"][seat]
        lang = language()
        sketches = [
            Sketch(
                "spytrap-hand.png",
                ("spytrap-hand", tuple(_face_key(c) for c in hand), marks, lang),
                partial(
                    spytrap_cards.hand_png,
                    tuple(hand),
                    None if playable is None else frozenset(playable),
                    lang=lang,
                ),
                spytrap_cards.hand_alt(hand, playable),
            ),
            Sketch(
                "spytrap-identity.png",
                ("spytrap-identity", identity, immunity, lang),
                partial(spytrap_cards.identity_png, identity, immunity=immunity, lang=lang),
                spytrap_cards.identity_alt(identity, immunity=immunity),
            ),
        ]
        if chosen:
            sketches.append(_pile_sketch(chosen, spytrap_cards.pile_alt(chosen, so_far=True)))
        pile: list[str] = view.get("my_pile") or []
        if pile:
            sketches.append(_pile_sketch(pile, spytrap_cards.pile_alt(pile)))
        home = view["home"][seat]
        if home:
            sketches.append(
                Sketch(
                    "spytrap-files.png",
                    ("spytrap-files", tuple((_face_key(f["card"]), f["from"]) for f in home), lang),
                    partial(spytrap_cards.files_png, tuple(home), lang=lang),
                    spytrap_cards.files_alt(home, yours=True),
                )
            )
        return sketches

    def _controls(
        self, table: Table, seat: int, view: SpyTrapView, legal: list[str], nav: str | None
    ) -> list[discord.ui.Item[Any]]:
        v = table.version
        items: list[discord.ui.Item[Any]] = []
        piles = [a for a in legal if a.startswith("pile-")]
        if piles:
            return self._pile_builder(table, view, piles, nav)
        bids = sorted(int(a[4:]) for a in legal if a.startswith("bid-"))
        if bids:
            options = [
                discord.SelectOption(label=T.pgettext("option", "Bid {bid}", bid=b), value=str(b))
                for b in bids[:25]
            ]
            placeholder = T.pgettext("placeholder", "Your bid")
            items.append(ActionSelect(table.id, v, "bid-", options, placeholder=placeholder, row=0))
        own_guesses = [a for a in legal if re.fullmatch(r"guess-\d+-\w+", a)]
        if own_guesses:
            targets = sorted({int(a.split("-")[1]) for a in own_guesses})
            if nav and nav.startswith("t") and nav[1:].isdigit() and int(nav[1:]) in targets:
                target = int(nav[1:])
                countries = [a.split("-")[2] for a in own_guesses if a.split("-")[1] == str(target)]
                options = [
                    discord.SelectOption(label=country_name(c), value=c, emoji=FLAGS.get(c))
                    for c in countries
                ]
                placeholder = T.pgettext("placeholder", "{name} is…", name=table.plain_name(target))
                items.append(
                    ActionSelect(table.id, v, f"guess-{target}-", options, placeholder=placeholder, row=0)
                )
            for i, target in enumerate(targets):
                label = T.pgettext("button", "Guess {name}", name=table.plain_name(target))[:80]
                items.append(ActionButton(table.id, v, f"nav-t{target}", label=label, row=1 + i // 5))
        free_guesses = [a for a in legal if re.fullmatch(r"(guess|challenge)-[A-Za-z]+", a)]
        if free_guesses:
            prefix = free_guesses[0].split("-")[0] + "-"
            options = [
                discord.SelectOption(
                    label=country_name(a.split("-")[1]),
                    value=a.split("-")[1],
                    emoji=FLAGS.get(a.split("-")[1]),
                )
                for a in free_guesses
            ]
            word = (
                T.pgettext("placeholder", "Challenge: the drawer is…")
                if prefix == "challenge-"
                else T.pgettext("placeholder", "Guess: the drawer is…")
            )
            items.append(ActionSelect(table.id, v, prefix, options, placeholder=word, row=0))
        handled = set(piles) | {f"bid-{b}" for b in bids} | set(own_guesses) | set(free_guesses)
        rest = _one_steal_each([a for a in legal if a not in handled], view)
        kinds = Counter(a.split("-")[0] for a in rest if "-" in a)
        row = 2
        if len(rest) > 14 and kinds:
            # Rows 2–4 hold 15 buttons and Refresh takes one: the long choice of one kind (a steal
            # from a drawer holding many Files) is a select instead, and what else is offered (Steal
            # nothing) stays a button beside it, so every option stays offered.
            kind = kinds.most_common(1)[0][0]
            prefix = kind + "-"
            options = [
                discord.SelectOption(label=self._describe(table, a)[:100], value=a[len(prefix) :])
                for a in rest
                if a.startswith(prefix)
            ][:25]
            placeholder = T.pgettext("placeholder", "Choose one…")
            items.append(ActionSelect(table.id, v, prefix, options, placeholder=placeholder, row=2))
            rest = [a for a in rest if not a.startswith(prefix)]
            row = 3
        for i, action in enumerate(rest[: 5 * (5 - row) - 1]):
            items.append(
                ActionButton(
                    table.id,
                    v,
                    action,
                    label=self._describe(table, action)[:80],
                    style=discord.ButtonStyle.primary,
                    row=row + i // 5,
                )
            )
        items.append(
            ActionButton(table.id, v, "refresh", label=T.pgettext("button", "Refresh"), emoji="🔄", row=4)
        )
        return items

    def _describe(self, table: Table, action: str) -> str:
        """A button's (or a long choice's option's) label for a panel action."""
        if action.startswith("steal-"):
            card = card_label(action[6:])
            source = _sources(_state(table).view(None)).get(action[6:])
            if source:
                how = T.gettext(STEAL_SOURCE[source])
                return T.pgettext("button", "Steal the {card} ({how})", card=card, how=how)
            return T.pgettext("button", "Steal the {card}", card=card)
        state = _state(table)
        if action.startswith("draw-"):
            # The panel is redrawn in answer to each click, so its counts are always current.
            pile = int(action[5:])
            size = state.view(None)["pile_sizes"][pile]
            return T.npgettext(
                "button",
                "Draw from {name}'s pile ({n} card)",
                "Draw from {name}'s pile ({n} cards)",
                size,
                name=table.plain_name(pile),
            )
        label = ACTION_LABELS.get(action)
        if label is not None:
            return T.pgettext("button", label)
        return _action_words(table, action)

    @staticmethod
    def _pile_so_far(chosen: list[str], size: int) -> str:
        """The pile being built, in the panel's text: the buttons alone never showed the picks."""
        if not chosen:
            return T.gettext("**Your new pile:** pick its top card below.")
        cards = ", ".join(card_label(c) for c in chosen)
        if len(chosen) < size:
            if size == 3:
                steps = (None, N_("middle"), N_("bottom"))
                step = steps[len(chosen)]
                assert step is not None
                return T.gettext(
                    "**Your new pile so far (top first):** {cards}. Now pick the {step} card.",
                    cards=cards,
                    step=T.gettext(step),
                )
            return T.gettext(
                "**Your new pile so far (top first):** {cards}. Now pick the #{number} card.",
                cards=cards,
                number=len(chosen) + 1,
            )
        return T.gettext(
            "**Your new pile (top first):** {cards}. Press **Build** to lay it face down.", cards=cards
        )

    def _pile_builder(
        self, table: Table, view: SpyTrapView, piles: list[str], nav: str | None
    ) -> list[discord.ui.Item[Any]]:
        """Pick the pile's cards one at a time, top first: panel-only steps, then one action."""
        v = table.version
        hand: list[str] = view["hand"]
        size = len(piles[0].split("-")) - 1
        chosen = _picked(hand, piles, nav)
        items: list[discord.ui.Item[Any]] = []
        if len(chosen) == size:
            action = "pile-" + "-".join(chosen)
            pile = ", ".join(card_label(c) for c in chosen)
            label = T.pgettext("button", "Build: {cards}", cards=pile)[:80]
            items.append(
                ActionButton(table.id, v, action, label=label, style=discord.ButtonStyle.success, row=0)
            )
        else:
            position = spytrap_cards.pile_place(len(chosen), size)
            for i, card in enumerate(c for c in hand if c not in chosen):
                step = "_".join([*chosen, card])
                label = T.pgettext("button", "{place}: {card}", place=position, card=card_label(card))[:80]
                items.append(ActionButton(table.id, v, f"nav-{step}", label=label, row=i // 5))
        if chosen:
            items.append(
                ActionButton(table.id, v, "nav-start", label=T.pgettext("button", "Start over"), row=3)
            )
        # Refresh redraws the same picks (a "nav" step to where the pile is), so it never throws
        # a half-built pile away; Start over does that.
        again = "nav-" + "_".join(chosen) if chosen else "refresh"
        items.append(
            ActionButton(table.id, v, again, label=T.pgettext("button", "Refresh"), emoji="🔄", row=4)
        )
        return items

    def signal_rows(self, table: Table) -> list[dict[str, Any]]:
        return []


# Where a File in a home area came from, as a steal offers it: it decides whether the File counted
# toward its holder's win, so two Files of a country differ only in this.
STEAL_SOURCE = {
    "own": N_("from their own pile"),
    "opponent": N_("counts for them"),
    "stolen": N_("stolen, counts for them"),
}


def _sources(view: SpyTrapView) -> dict[str, str]:
    """Each File in a home area and where it came from (public: home areas are face up)."""
    return {f["card"]: f["from"] for home in view["home"] for f in home}


def _one_steal_each(actions: list[str], view: SpyTrapView) -> list[str]:
    """The steals offered once per country and source (the same choice to a player: six French Files
    drawn from a pile are six equal buttons otherwise); every other action as it is."""
    sources = _sources(view)
    seen: set[tuple[str, str]] = set()
    kept = []
    for action in actions:
        if action.startswith("steal-"):
            card = action[6:]
            key = (card[:3], sources.get(card, ""))
            if key in seen:
                continue
            seen.add(key)
        kept.append(action)
    return kept


def _picked(hand: list[str], piles: list[str], nav: str | None) -> list[str]:
    """The cards picked so far for the pile, top first, from the panel's "nav" step ("A_B"):
    only cards still in hand, each once, at most a pile's worth."""
    size = len(piles[0].split("-")) - 1
    chosen = [c for c in (nav or "").split("_") if c in hand]
    return list(dict.fromkeys(chosen))[:size]


def _face_key(card: str) -> str:
    """What a card's face shows, for a picture's key: a File's country (two French Files look
    alike), or the card's type; never the card's own code, so equal pictures share one key."""
    return country_of(card) or card_type(card)


def _pile_sketch(cards: list[str], alt: str) -> Sketch:
    """A pile as its owner's panel shows it: the one being built, or the one laid face down."""
    lang = language()
    return Sketch(
        "spytrap-pile.png",
        ("spytrap-pile", tuple(_face_key(c) for c in cards), lang),
        partial(spytrap_cards.pile_png, tuple(cards), lang=lang),
        alt,
    )


def _put_out_line(medal: str, name: str, spy: str, order: int) -> str:
    """A final line of a spy put out, the ``order``-th: "3. **bob** — the French spy 🇫🇷 · put out 1st"."""
    return T.gettext(
        "{medal} **{name}** — {spy} · put out {order}", medal=medal, name=name, spy=spy, order=ordinal(order)
    )


def _hint(view: SpyTrapView, hint: str) -> str:
    """What the seat must do now (its view's ``legal_hint``) in words."""
    if hint == "draw":
        return T.gettext("Draw a card: {left} left.", left=view["draws_left"])
    label = HINTS.get(hint)
    return T.gettext(label) if label is not None else hint


def _action_words(table: Table, action: str) -> str:
    """A panel action with no fixed label in words ("Bid 3", "Guess that bob is French")."""
    head, _, rest = action.partition("-")
    try:
        if head == "pile":
            cards = ", ".join(card_name(c) for c in rest.split("-"))
            return T.pgettext("button", "Build a pile of {cards} (top first)", cards=cards)
        if head == "bid":
            return T.pgettext("button", "Bid {bid}", bid=int(rest))
        if head == "challenge":
            return T.pgettext("button", "Challenge: {country}", country=country_name(rest))
        if head == "guess" and "-" in rest:
            target, country = rest.split("-")
            name = table.plain_name(int(target))
            return T.pgettext(
                "button", "Guess that {name} is {country}", name=name, country=country_name(country)
            )
        if head == "guess":
            return T.pgettext("button", "Guess {country}", country=country_name(rest))
    except (ValueError, KeyError, IndexError):
        return action
    return action


def event_line(table: Table, event: Event) -> str:
    """An engine event in words (state.py lists the kinds and their data), names as they are now."""
    kind, data = event.kind, event.data
    name = table.name(event.seat) if event.seat is not None else ""
    plain = PLAIN_EVENTS.get(kind)
    if plain is not None:
        return T.gettext(plain, name=name)
    if kind == "deal":
        return T.ngettext(
            "Each spy gets a secret identity, an Immunity card and {n} card.",
            "Each spy gets a secret identity, an Immunity card and {n} cards.",
            HAND_SIZE,
        )
    if kind == "round_start":
        return T.gettext(
            "Round {round}: build your piles. {name} opens the bidding.",
            round=data["round"],
            name=table.name(data["opener"]),
        )
    if kind == "pile_built":
        return T.ngettext(
            "**{name}** built a pile of {n} card.",
            "**{name}** built a pile of {n} cards.",
            data["size"],
            name=name,
        )
    if kind == "timeout":
        if data.get("action") == "auto-draw" and "pile" in data:
            return T.gettext(
                "**{name}** ran out of time: the referee draws from {owner}'s pile.",
                name=name,
                owner=table.name(data["pile"]),
            )
        timeout = TIMEOUTS.get(data.get("action", ""))
        if timeout is not None:
            return T.gettext(timeout, name=name)
        return T.gettext("**{name}** ran out of time.", name=name)
    if kind == "piles_ready":
        if "max_bid" not in data:
            return T.gettext("Nobody has a card left to put in a pile.")
        return T.ngettext(
            "Every pile is built ({n} card in all). The bidding starts.",
            "Every pile is built ({n} cards in all). The bidding starts.",
            data["max_bid"],
        )
    if kind == "bid":
        return T.gettext("**{name}** bids {bid}.", name=name, bid=data["bid"])
    if kind == "bid_won":
        return T.ngettext(
            "**{name}** wins the bidding and draws {n} card.",
            "**{name}** wins the bidding and draws {n} cards.",
            data["bid"],
            name=name,
        )
    if kind == "draw":
        card = card_with_article(data["card"])
        if data["pile"] == event.seat:
            return T.gettext("**{name}** draws {card} from their own pile.", name=name, card=card)
        return T.gettext(
            "**{name}** draws {card} from {owner}'s pile.",
            name=name,
            card=card,
            owner=table.name(data["pile"]),
        )
    if kind in ("agent", "trap"):
        effects = AGENT_EFFECTS if kind == "agent" else TRAP_EFFECTS
        return T.gettext(effects[data["effect"]], owner=table.name(data["pile"]))
    if kind == "challenge_start":
        return T.gettext(
            "**{name}** now holds {files} {country} Files, the 4th from their own pile: "
            "each other spy in turn may challenge by guessing their identity.",
            name=name,
            files=FILES_TO_WIN,
            country=country_name(data["country"]),
        )
    if kind == "win":
        if data["how"] == "files":
            return T.gettext(
                "**{name}** holds {files} Files of their own identity and wins!",
                name=name,
                files=FILES_TO_WIN,
            )
        if data["how"] == "challenge":
            return T.gettext(
                "**{name}** survives the challenge holding {files} Files of their identity and wins!",
                name=name,
                files=FILES_TO_WIN,
            )
        return T.gettext("**{name}** is the last spy standing and wins!", name=name)
    if kind == "steal":
        return T.gettext(
            "**{name}** steals the {card} from {owner}'s home area.",
            name=name,
            card=card_name(data["card"]),
            owner=table.name(data["from_seat"]),
        )
    if kind == "guess":
        return T.gettext(
            "**{name}** guesses that the drawer is {country}.",
            name=name,
            country=country_name(data["country"]),
        )
    if kind == "answer":
        country = country_name(data["country"])
        if data["right"]:
            return T.gettext("**{name}** is {country}: the guess is right.", name=name, country=country)
        return T.gettext("**{name}** is not {country}.", name=name, country=country)
    if kind == "own_guess":
        params = {
            "name": name,
            "target": table.name(data["target"]),
            "country": country_name(data["country"]),
        }
        if data["right"]:
            return T.gettext("**{name}** guesses that {target} is {country}: right.", **params)
        return T.gettext("**{name}** guesses that {target} is {country}: wrong.", **params)
    if kind == "challenge":
        country = country_name(data["country"])
        if data["right"]:
            return T.gettext(
                "**{name}** challenges: the drawer is {country}? The guess is right.",
                name=name,
                country=country,
            )
        return T.gettext(
            "**{name}** challenges: the drawer is {country}? The guess is wrong.", name=name, country=country
        )
    if kind == "eliminated":
        return T.gettext(
            "**{name}** is out of the game; {by} receives their ID card.",
            name=name,
            by=table.name(data["by"]),
        )
    if kind == "round_over":
        return T.gettext("Round {round} is over.", round=data["round"])
    if kind == "reshuffle":
        return T.ngettext(
            "The deck is empty: the {n} used card is shuffled into a new deck.",
            "The deck is empty: the {n} used cards are shuffled into a new deck.",
            data["cards"],
        )
    if kind == "game_over":
        over = GAME_OVER.get(data.get("reason") or "")
        if over is None:
            return T.gettext("The game is over.")
        winner = data.get("winner")
        return T.gettext(over, name=table.name(winner if winner is not None else 0), files=FILES_TO_WIN)
    return kind


def refusal(error: IllegalAction) -> str:
    """An engine refusal in words (state.py lists the codes and their parameters)."""
    code, params = error.code, error.params
    plain = REFUSALS.get(code)
    if plain is not None:
        return T.gettext(plain)
    if code == "pile_size":
        return T.ngettext(
            "Your pile must have exactly {n} card.", "Your pile must have exactly {n} cards.", params["size"]
        )
    if code == "card_not_held":
        # The card as it was written, quoted: "You don't hold the card 'FAM1'."
        return T.gettext("You don't hold the card {card}.", card=repr(params["card"]))
    if code == "bid_too_low":
        return T.gettext("You must bid more than the standing bid of {bid}.", bid=params["high_bid"])
    if code == "bid_too_high":
        return T.ngettext(
            "There are only {n} card in all the piles: you cannot bid more.",
            "There are only {n} cards in all the piles: you cannot bid more.",
            params["max_bid"],
        )
    if code == "pile_empty":
        cards = T.ngettext("{n} card", "{n} cards", params["left"])
        draws = T.ngettext("{n} draw", "{n} draws", params["draws_left"])
        return T.gettext(
            "That pile is empty now: draw from another one ({cards} left in the piles, {draws} to go).",
            cards=cards,
            draws=draws,
        )
    if code == "answer_prompt":
        label = PROMPT_REFUSALS.get(params.get("kind", ""))
        if label is not None:
            return T.gettext(label)
    return code


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
    )
    @app_commands.describe(
        seats=locale_str("How many seats (2–6)"),
        speed=locale_str("Timers: relaxed, fast or off"),
        thread=locale_str("Play in a new thread"),
        max_rounds=locale_str("Stop after this many rounds and rank by Files (default 40)"),
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 6] = 4,
        speed: Literal["relaxed", "fast", "off"] = "relaxed",
        thread: bool = False,
        max_rounds: app_commands.Range[int, 5, 200] | None = None,
    ) -> None:
        rules = {} if max_rounds is None else {"round_limit": max_rounds}
        await open_table_command(interaction, GAME.key, seats=seats, speed=speed, rules=rules, thread=thread)

    @spytrap.command(
        name=locale_str("rules"),
        description=locale_str("How to play Spy Trap, and the house rulings in force"),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(SpyTrapCog(bot))
