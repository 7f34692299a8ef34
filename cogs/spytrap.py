"""Spy Trap on Discord: `/spytrap new|rules`, the public table and each spy's private panel.

Public: home areas, pile sizes, bids, who is out, whose decision it is; bidding and drawing are
public buttons (the engine refuses anyone whose turn it is not). Private, in the panel: your
identity, hand and pile, and every prompt that is yours to answer.
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
from cogs.help import send_rules
from cogs.table.buttons import ActionButton, ActionSelect, TableButton
from cogs.table.drawing import Announcement
from cogs.table.lifecycle import open_table_command
from cogs.table.model import Table
from cogs.table.pictures import Sketch
from cogs.table.words import plural, seat_names
from rules.base import Event
from rules.spytrap import COUNTRIES, SpyTrap, SpyTrapState, card_name, card_type, country_of
from rules.spytrap.views import CountryTally, SpyTrapPrompt, SpyTrapView

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
PROMPT_TEXT = {
    "steal": "may steal a File from the drawer",
    "guess": "may guess the drawer's identity",
    "immunity": "answers a guess — or plays Immunity",
    "own_guess": "must guess someone's identity",
    "keep": "chooses which identity to keep",
    "challenge": "may challenge the drawer's identity",
    "swap": "may swap identities",
}
# Whose turn the table waits on: ("bid" | "decide" | "draw", seat).
Turn = tuple[str, int]


def card_label(card: str) -> str:
    if card_type(card) == "file":
        country = country_of(card) or ""
        return f"{FLAGS.get(country, '📁')} {country} File"
    return f"{TYPE_EMOJI[card_type(card)]} {card_name(card)}"


def _state(table: Table) -> SpyTrapState:
    """The table's engine state, typed, so its views are SpyTrapViews (a Spy Trap table holds one)."""
    assert isinstance(table.state, SpyTrapState)
    return table.state


def _names(table: Table, text: str) -> str:
    """Engine texts say "seat 3"; people want names."""
    return seat_names(table, text)


def _home_line(view: SpyTrapView, seat: int) -> str:
    """ "🇫🇷 French ×3 (1 from own pile) 🇩🇪 German ×1": Files drawn from your own pile do not count toward the
    ordinary win, so the line says how many of each country came from there."""
    tallies: dict[str, CountryTally] = view["tallies"][seat]
    parts = []
    for country in COUNTRIES:
        tally = tallies.get(country)
        if tally and tally["all"]:
            own = tally["all"] - tally["counting"]
            if own == 0:
                note = ""
            elif own == tally["all"]:
                note = " (from own pile)" if own == 1 else " (all from own pile)"
            else:
                note = f" ({own} from own pile)"
            # The flag alone is a picture to a screen reader ("flag: France"): the word says it.
            parts.append(f"{FLAGS[country]} {country} ×{tally['all']}{note}")
    return " ".join(parts) or "no Files yet"


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
    hand_label = "My spy panel"

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
        return [f"Speed: {table.speed}", f"Round limit: {table.options.round_limit}"]

    # --- public table --------------------------------------------------------------------------

    def table_embed(self, table: Table) -> discord.Embed:
        view = _state(table).view(None)
        over = view["phase"] == "over"
        embed = discord.Embed(
            title=f"Spy Trap — round {view['round']}" + (" — game over" if over else ""),
            colour=discord.Colour.dark_red() if not over else discord.Colour.dark_grey(),
        )
        embed.description = self._status(table, view)
        for s in table.seats:
            i = s.seat
            out = not view["active"][i]
            marks = ("❌ out" if out else "") + (" 🛡️ Immunity" if view["immunity"][i] and not out else "")
            bid = view["bids"][i]
            said = f" · bid {bid}" if isinstance(bid, int) else (" · passed" if bid == "pass" else "")
            value = (
                f"hand {view['hand_counts'][i]} · pile {view['pile_sizes'][i]}{said}\n"
                f"Home: {_home_line(view, i)}"
            )
            # Only the marks that apply, one space apart: "alice 🛡️", never "alice  🛡️".
            computer = "🤖 computer" if s.is_computer else ""
            name = " ".join(part for part in (s.name, computer, marks.strip()) if part)
            embed.add_field(name=name[:256], value=value[:1024], inline=True)
        if view["drawn"]:
            drawn = " · ".join(card_label(d["card"]) for d in view["drawn"][-8:])
            embed.add_field(name="Drawn this round", value=drawn[:1024], inline=False)
        facts = [f"{table.plain_name(w['seat'])} is not {w['country']}" for w in view["wrong_guesses"]]
        footer = f"Deck {view['deck_count']} · used {view['used_count']}"
        if facts:
            footer += " · known: " + "; ".join(facts)
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
        faces = tuple((card_name(d["card"]), d["pile"]) for d in drawn)
        alt = seat_names(table, spytrap_cards.table_alt(view), plain=True)
        return [
            Sketch(
                "spytrap-drawn.png",
                ("spytrap-drawn", faces),
                partial(spytrap_cards.table_png, view),
                alt,
                small=len(drawn) == 1,
            )
        ]

    def _status(self, table: Table, view: SpyTrapView) -> str:
        phase = view["phase"]
        if phase == "over":
            return "The game is over."
        prompt = view["prompt"]
        if prompt is not None:
            what = PROMPT_TEXT.get(prompt["kind"], "must decide")
            return f"⏳ **{table.name(prompt['seat'])}** {what}."
        if phase == "pile":
            marks = [
                f"{'✅' if done else '⏳'} {table.name(i)} {'built' if done else 'building'}"
                for i, done in enumerate(view["piles_done"])
                if view["active"][i]
            ]
            return "Everyone builds a secret pile of 3 in their panel.\n" + " · ".join(marks)
        if phase == "bid":
            high = (
                f"High bid **{view['high_bid']}** by {table.name(view['high_bidder'])}"
                if view["high_bidder"] is not None
                else "No bid yet"
            )
            return f"Bidding: {high}. **{table.name(view['to_bid'])}** to bid (up to {view['max_bid']})."
        if phase == "draw":
            return (
                f"**{table.name(view['drawer'])}** won the bidding with {view['draw_bid']} and draws: "
                f"{plural(view['draws_left'], 'draw')} left. They pick a pile for each card."
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
                    items.append(TableButton(table.id, "act", f"bid-{bid}", label=f"Bid {bid}", row=1))
            if view["high_bidder"] is not None or view["to_bid"] != view["opener"]:
                items.append(TableButton(table.id, "act", "pass", label="Pass", row=1))
        elif view["phase"] == "draw" and view["drawer"] is not None:
            for i, size in enumerate(view["pile_sizes"]):
                if size:
                    label = f"Draw from {table.plain_name(i)}'s pile ({size})"[:80]
                    items.append(
                        TableButton(table.id, "act", f"draw-{i}", label=label, row=1 + len(items) // 5)
                    )
        return items

    def event_line(self, table: Table, event: Event) -> str:
        text = _names(table, event.text)
        if event.seat is not None:
            return f"**{table.name(event.seat)}** {text}"
        return text

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
                    return f"you open the bidding at Spy Trap: bid {low} on the table."
                return f"you open the bidding at Spy Trap: bid from {low} to {high} on the table."
            standing = f"{table.name(view['high_bidder'])} bids {view['high_bid']}"
            if low > high:
                return f"your bid at Spy Trap: {standing}; pass on the table."
            if low == high:  # one raise left: "Raise (12 to 12)" read like a typo
                return f"your bid at Spy Trap: {standing}. Raise to {low} or pass on the table."
            return f"your bid at Spy Trap: {standing}. Raise ({low} to {high}) or pass on the table."
        if kind == "draw":
            if view["draws_left"] == 1:  # "1 card, one at a time" read oddly
                return "you won the bidding at Spy Trap: draw 1 card from the piles."
            cards = plural(view["draws_left"], "card")
            return f"you won the bidding at Spy Trap: draw {cards}, one at a time, from the piles."
        prompt = view["prompt"]
        assert prompt is not None  # a "decide" turn is the prompt's seat's
        return f"your decision at Spy Trap: {self._decision(table, prompt)} Open **{self.hand_label}**."

    @staticmethod
    def _decision(table: Table, prompt: SpyTrapPrompt) -> str:
        name = table.name
        # Each test names prompt["kind"] itself, so the type checker knows which prompt it is.
        if prompt["kind"] == "steal":
            return f"your Evil Agent was drawn — you may steal a File from {name(prompt['drawer'])}."
        if prompt["kind"] == "guess":
            return f"your trap was sprung — you may guess {name(prompt['drawer'])}'s identity."
        if prompt["kind"] == "immunity":
            return (
                f"{name(prompt['guesser'])} guesses you are {prompt['guess']} — answer, or play your "
                "Immunity card."
            )
        if prompt["kind"] == "own_guess":
            return "your own trap was sprung — you must guess another spy's identity."
        if prompt["kind"] == "keep":
            return f"you put {name(prompt['eliminated'])} out — choose which identity to keep."
        if prompt["kind"] == "challenge":
            return f"you may challenge {name(prompt['drawer'])}'s identity, or let it go."
        return f"you may swap identities with {name(prompt['eliminated'])}, whom you put out."

    def final_embed(self, table: Table) -> discord.Embed:
        state = _state(table)
        view = state.view(None)
        result = state.result()
        assert result is not None
        winner = view.get("winner")
        reason = {
            "files": "with four Files of their own country",
            "challenge": "by surviving the challenge",
            "last_spy": "as the last spy standing",
            "round_limit": "on Files when the round limit came",
            "no_cards": "on Files when the cards ran out",
        }.get(view.get("end_reason") or "", "")
        title = (
            f"Spy Trap — {table.name(winner)} wins {reason}" if winner is not None else "Spy Trap — game over"
        )
        embed = discord.Embed(title=title[:256], colour=discord.Colour.gold())
        identities = view.get("identities") or []
        out = view["out_order"]
        lines = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            country = identities[p.seat] if p.seat < len(identities) else "?"
            medal = {1: "🏆"}.get(p.place, f"{p.place}.")
            if p.seat in out:
                how = f" · put out {_ordinal(out.index(p.seat) + 1)}"
            elif p.seat == winner:
                how = ""
            else:
                how = f" · {plural(p.points, 'counting File')}"
            spy = f"the {country} spy {FLAGS.get(country, '')}".strip()
            lines.append(f"{medal} **{table.name(p.seat)}** — {spy}{how}")
        embed.description = "\n".join(lines)
        embed.set_footer(text="Every identity is revealed. Results are on /leaderboard. Rematch below.")
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
            title=f"You are the {identity} spy {FLAGS.get(identity, '')}",
            colour=discord.Colour.dark_red(),
        )
        lines = []
        if not view["active"][seat]:
            lines.append("You are out of the game — watch the rest unfold.")
        lines.append("🛡️ You still hold your Immunity card." if view["immunity"][seat] else "Immunity: used.")
        hand = view["hand"]
        lines.append("**Hand:** " + (", ".join(card_label(c) for c in hand) or "empty"))
        piles = [a for a in legal if a.startswith("pile-")]
        if piles:
            lines.append(self._pile_so_far(_picked(hand, piles, nav), len(piles[0].split("-")) - 1))
        if view.get("my_pile"):
            lines.append("**Your pile (top first):** " + ", ".join(card_label(c) for c in view["my_pile"]))
        if view.get("received_id"):
            lines.append(f"You received the **{view['received_id']}** ID card.")
        for fact in view.get("learned") or []:
            lines.append(f"You know {table.name(fact['seat'])} was the {fact['country']} spy.")
        lines.append(f"**Your home area:** {_home_line(view, seat)}")
        hint = view.get("legal_hint")
        if hint:
            lines.append(f"\n👉 {_names(table, hint)}")
        if note:
            lines.append(f"\n⚠️ {_names(table, note)}")
        embed.description = "\n".join(lines)[:4096]
        embed.set_footer(text=f"Round {view['round']} · only you can see this panel")
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
        sketches = [
            Sketch(
                "spytrap-hand.png",
                ("spytrap-hand", tuple(card_name(c) for c in hand), marks),
                partial(
                    spytrap_cards.hand_png, tuple(hand), None if playable is None else frozenset(playable)
                ),
                spytrap_cards.hand_alt(hand, playable),
            ),
            Sketch(
                "spytrap-identity.png",
                ("spytrap-identity", identity, immunity),
                partial(spytrap_cards.identity_png, identity, immunity=immunity),
                spytrap_cards.identity_alt(identity, immunity=immunity),
            ),
        ]
        if chosen:
            alt = spytrap_cards.pile_alt(chosen).replace("Your pile,", "Your new pile so far,", 1)
            sketches.append(_pile_sketch(chosen, alt))
        pile: list[str] = view.get("my_pile") or []
        if pile:
            sketches.append(_pile_sketch(pile, spytrap_cards.pile_alt(pile)))
        home = view["home"][seat]
        if home:
            sketches.append(
                Sketch(
                    "spytrap-files.png",
                    ("spytrap-files", tuple((card_name(f["card"]), f["from"]) for f in home)),
                    partial(spytrap_cards.files_png, tuple(home)),
                    spytrap_cards.files_alt(home).replace("Home area", "Your home area", 1),
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
            options = [discord.SelectOption(label=f"Bid {b}", value=str(b)) for b in bids[:25]]
            items.append(ActionSelect(table.id, v, "bid-", options, placeholder="Your bid", row=0))
        own_guesses = [a for a in legal if re.fullmatch(r"guess-\d+-\w+", a)]
        if own_guesses:
            targets = sorted({int(a.split("-")[1]) for a in own_guesses})
            if nav and nav.startswith("t") and nav[1:].isdigit() and int(nav[1:]) in targets:
                target = int(nav[1:])
                countries = [a.split("-")[2] for a in own_guesses if a.split("-")[1] == str(target)]
                options = [discord.SelectOption(label=c, value=c, emoji=FLAGS.get(c)) for c in countries]
                items.append(
                    ActionSelect(
                        table.id,
                        v,
                        f"guess-{target}-",
                        options,
                        placeholder=f"{table.plain_name(target)} is…",
                        row=0,
                    )
                )
            for i, target in enumerate(targets):
                label = f"Guess {table.plain_name(target)}"[:80]
                items.append(ActionButton(table.id, v, f"nav-t{target}", label=label, row=1 + i // 5))
        free_guesses = [a for a in legal if re.fullmatch(r"(guess|challenge)-[A-Za-z]+", a)]
        if free_guesses:
            prefix = free_guesses[0].split("-")[0] + "-"
            options = [
                discord.SelectOption(
                    label=a.split("-")[1], value=a.split("-")[1], emoji=FLAGS.get(a.split("-")[1])
                )
                for a in free_guesses
            ]
            word = "Challenge: the drawer is…" if prefix == "challenge-" else "Guess: the drawer is…"
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
            items.append(ActionSelect(table.id, v, prefix, options, placeholder="Choose one…", row=2))
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
        items.append(ActionButton(table.id, v, "refresh", label="Refresh", emoji="🔄", row=4))
        return items

    def _describe(self, table: Table, action: str) -> str:
        if action.startswith("steal-"):
            source = _sources(_state(table).view(None)).get(action[6:])
            return f"Steal the {card_label(action[6:])}" + (f" ({STEAL_SOURCE[source]})" if source else "")
        state = _state(table)
        if action.startswith("draw-"):
            # The panel is redrawn in answer to each click, so its counts are always current.
            pile = int(action[5:])
            size = state.view(None)["pile_sizes"][pile]
            return f"Draw from {table.plain_name(pile)}'s pile ({plural(size, 'card')})"
        text = seat_names(table, state.describe(action), plain=True)
        return text[:1].upper() + text[1:]

    @staticmethod
    def _pile_so_far(chosen: list[str], size: int) -> str:
        """The pile being built, in the panel's text: the buttons alone never showed the picks."""
        if not chosen:
            return "**Your new pile:** pick its top card below."
        cards = ", ".join(card_label(c) for c in chosen)
        if len(chosen) < size:
            step = ("top", "middle", "bottom")[len(chosen)] if size == 3 else f"#{len(chosen) + 1}"
            return f"**Your new pile so far (top first):** {cards}. Now pick the {step} card."
        return f"**Your new pile (top first):** {cards}. Press **Build** to lay it face down."

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
            items.append(
                ActionButton(
                    table.id, v, action, label=f"Build: {pile}"[:80], style=discord.ButtonStyle.success, row=0
                )
            )
        else:
            for i, card in enumerate(c for c in hand if c not in chosen):
                step = "_".join([*chosen, card])
                position = ("top", "middle", "bottom")[len(chosen)] if size == 3 else f"#{len(chosen) + 1}"
                items.append(
                    ActionButton(
                        table.id, v, f"nav-{step}", label=f"{position}: {card_label(card)}"[:80], row=i // 5
                    )
                )
        if chosen:
            items.append(ActionButton(table.id, v, "nav-start", label="Start over", row=3))
        # Refresh redraws the same picks (a "nav" step to where the pile is), so it never throws
        # a half-built pile away; Start over does that.
        again = "nav-" + "_".join(chosen) if chosen else "refresh"
        items.append(ActionButton(table.id, v, again, label="Refresh", emoji="🔄", row=4))
        return items

    def signal_rows(self, table: Table) -> list[dict[str, Any]]:
        return []


# Where a File in a home area came from, as a steal offers it: it decides whether the File counted
# toward its holder's win, so two Files of a country differ only in this.
STEAL_SOURCE = {
    "own": "from their own pile",
    "opponent": "counts for them",
    "stolen": "stolen, counts for them",
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


def _pile_sketch(cards: list[str], alt: str) -> Sketch:
    """A pile as its owner's panel shows it: the one being built, or the one laid face down."""
    return Sketch(
        "spytrap-pile.png",
        ("spytrap-pile", tuple(card_name(c) for c in cards)),
        partial(spytrap_cards.pile_png, tuple(cards)),
        alt,
    )


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class SpyTrapCog(commands.Cog):
    spytrap = app_commands.Group(
        name="spytrap", description="Spy Trap: bidding, piles and hidden identities", guild_only=True
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        bot.referee.register(SpyTrapUI())

    @spytrap.command(name="new", description="Open a Spy Trap table in this channel")
    @app_commands.describe(
        seats="How many seats (2–6)",
        speed="Timers: relaxed, fast or off",
        thread="Play in a new thread",
        max_rounds="Stop after this many rounds and rank by Files (default 40)",
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

    @spytrap.command(name="rules", description="How to play Spy Trap, and the house rulings in force")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(SpyTrapCog(bot))
