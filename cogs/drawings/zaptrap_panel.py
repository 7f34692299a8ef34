"""Zap or Trap's private panel: a seat's secret signal (chosen, watched, or last round's), its best
set, the swaps (one select of "Give X · take Y"), ZAP, TRAP, the other calls and the dealer's
Deal, drawn from the seat's own view and legal actions.

It lives apart from the cog (cogs/zaptrap.py, which draws the public table and the pictures)
because it is the largest drawing.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.drawings.zaptrap_words import card_label, set_text
from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.common import escape
from cogs.table.layout import shorten
from cogs.table.model import Table
from cogs.texts import Texts
from cogs.words.zaptrap import between_text, gesture_name, signal_text
from rules.zaptrap import GESTURES, ZapTrapState, ZapTrapView
from rules.zaptrap.views import GestureView

T = Texts(__name__)
# How many of the latest gestures the table and the panel show.
RECENT_GESTURES = 6
# The panel shows fewer (the table has the rest): the latest are the ones to answer.
PANEL_GESTURES = 3
# How many characters a line of the panel's text holds on a 360 px phone (measured in the offline
# page: "Gestures: Maxi…o 2 😏" takes three quarters of it).
LINE = 28
# A select's most options (Discord's limit).
SELECT_OPTIONS = 25
# How long a name may be anywhere on the panel: a 360 px phone fits ZAP and one TRAP on a line,
# and a signal line or two gestures on one line.
SHORT_NAME = 8


def state_of(table: Table) -> ZapTrapState:
    """The table's engine state, typed, so that its views are ``ZapTrapView``s."""
    assert isinstance(table.state, ZapTrapState)
    return table.state


class ZapTrapPanel:
    """Each seat's private panel."""

    def draw(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        state = state_of(table)
        view = state.view(seat)
        legal = set(state.legal_actions(seat))
        phase = view["phase"]
        names = _short(table)
        if phase == "signals":
            # Short, so that it stays one line on a phone (issue 33): the lines under it say how.
            embed = discord.Embed(
                title=T.gettext("Round {round}: your signal", round=view["round"]),
                colour=discord.Colour.purple(),
            )
        elif phase == "play":
            # No title in play: the signal lines say what matters, the table says the round, and a
            # phone has no line to spare (issue 33).
            embed = discord.Embed(colour=discord.Colour.green())
        else:
            embed = discord.Embed(
                title=T.gettext("Your hand — round {round}", round=view["round"]),
                colour=discord.Colour.green(),
            )
        lines = self._signal_lines(view, names)
        if phase == "play":
            lines += self._play_lines(view, names)
        elif phase == "between":
            lines.append(between_text(table, view, lambda seat: escape(names[seat])))
        elif phase == "over":
            lines.append(T.gettext("The game is over."))
        if note:
            lines.append(f"⚠️ {note}")
        embed.description = "\n".join(lines)[:4096]
        if phase != "play":
            # In play the table shows the scores and the dealer, and a phone has no line to spare
            # (issue 33): the panel keeps what you act on.
            embed.set_footer(
                text=T.gettext(
                    "Your side's score: {score} of {target} · dealer {dealer}",
                    score=view["scores"][view["unit"]],
                    target=view["target"],
                    dealer=names[view["dealer"]],
                )
            )
        items: list[discord.ui.Item[Any]] = []
        v = table.version
        if phase == "signals":
            options = [
                discord.SelectOption(
                    label=gesture_name(gid), value=gid, emoji=emoji, default=gid == view["my_signal"]
                )
                for gid, emoji in GESTURES.items()
                if f"signal-{gid}" in legal
            ]
            if options:
                items.append(
                    ActionSelect(
                        table.id,
                        v,
                        "signal-",
                        options,
                        placeholder=T.gettext("Choose your secret signal"),
                        row=0,
                    )
                )
        if phase == "play":
            items += self._play_items(table, view, legal, nav, names)
        if not items or phase != "play":  # in play the calls redraw it (see _call_items)
            items.append(
                ActionButton(table.id, v, "refresh", label=T.pgettext("button", "Refresh"), emoji="🔄", row=4)
            )
        return embed, items

    @staticmethod
    def _signal_lines(view: ZapTrapView, names: dict[int, str]) -> list[str]:
        """The signals, the seats by their short names (a long name wraps a line or three on a
        phone: issue 33): with how they work while they are chosen; one line each after."""
        mine, watched = view["my_signal"], view["watch_signal"]
        choosing = view["phase"] == "signals"
        if view["team_game"]:
            partner = escape(names[view["watch_seat"]])  # in the team game, the partner
            if not choosing:
                # Translators: the team's secret signal, shared with the partner ("You & Robo 2: 😎
                # cool"); short, to fit a phone's line.
                return [
                    T.gettext("You & **{partner}**: **{signal}**", partner=partner, signal=signal_text(mine))
                ]
            lines = [
                T.gettext(
                    "Your team's secret signal (you and **{partner}**): **{signal}**",
                    partner=partner,
                    signal=signal_text(mine),
                )
            ]
            if mine is not None:
                lines.append(
                    T.gettext(
                        "Make it when you hold a set; ZAP **{partner}** when they make it.", partner=partner
                    )
                )
        elif not choosing:
            # Two short lines rather than one sentence: each fits a phone's width.
            return [
                # Translators: the secret signal you make to the player on your left
                # ("You → Robo 1: 😎 cool").
                T.gettext(
                    "You → **{left}**: **{signal}**",
                    left=escape(names[view["signal_to"]]),
                    signal=signal_text(mine),
                ),
                # Translators: the secret signal the player on your right makes to you
                # ("Robo 2 → you: 🥱 yawn").
                T.gettext(
                    "**{right}** → you: **{signal}**",
                    right=escape(names[view["watch_seat"]]),
                    signal=signal_text(watched),
                ),
            ]
        else:
            lines = [
                T.gettext(
                    "Your secret signal: **{signal}** — **{name}** (on your left) watches for it.",
                    signal=signal_text(mine),
                    name=escape(names[view["signal_to"]]),
                ),
                T.gettext(
                    "You watch **{name}** (on your right): their signal is **{signal}**.",
                    name=escape(names[view["watch_seat"]]),
                    signal=signal_text(watched),
                ),
            ]
        if mine is None and view["last_signal"] is not None:
            lines.append(
                T.gettext(
                    "Last round's was {signal}; it stays if time runs out.",
                    signal=signal_text(view["last_signal"]),
                )
            )
        return lines

    @staticmethod
    def _play_lines(view: ZapTrapView, names: dict[int, str]) -> list[str]:
        # The hand and the face-up cards are the pictures above (their alt texts say them in
        # words), and the swap select: no list of them here as well.
        lines = []
        # A set, once held, in one line; none held says nothing: what a set is and how to swap
        # toward one is the rules', not every panel's.
        found = view["best_set"]
        if found is not None:
            # "✅ A set of four Glorps": the picture above shows whose hand (a phone's line).
            held = set_text(found, view["preset"])
            lines.append(f"✅ {held[:1].upper()}{held[1:]}")
        if view["gestures"]:
            lines.append(_gestures_line(view, names))
        # The dealer's Deal is its own button (and the table names the dealer): no line for it.
        return lines

    def _play_items(
        self, table: Table, view: ZapTrapView, legal: set[str], nav: str | None, names: dict[int, str]
    ) -> list[discord.ui.Item[Any]]:
        """The swaps in one select (a row, however many cards: issue 33's phone screen; the
        pictures above show both halves), then the calls in buttons (one tap: a call is a race)."""
        items = self._swap_selects(table, view, legal)
        return items + self._call_items(table, view, legal, nav, names, row=len(items))

    @staticmethod
    def _swap_selects(table: Table, view: ZapTrapView, legal: set[str]) -> list[discord.ui.Item[Any]]:
        """Every legal swap as "Give X · take Y", one option per pair of faces (two copies of a
        card swap alike), the cards of the held set last (giving one breaks the set). A select
        holds 25 options: a seven-card hand can offer 28, so whole groups of one given card go
        to a second select (its prefix names the card, its options only the card to take)."""
        found = view["best_set"]
        in_set = set(found["cards"]) if found else set()
        groups: dict[str, list[tuple[str, str]]] = {}
        seen: set[tuple[str, str]] = set()
        hand = sorted(view["hand"], key=lambda c: c in in_set)  # stable: the hand's order otherwise
        for give in hand:
            for take in view["table"]:
                faces = (card_label(give, view), card_label(take, view))
                if f"S{give}-{take}" in legal and faces not in seen:
                    seen.add(faces)
                    groups.setdefault(give, []).append(
                        (
                            take,
                            T.pgettext("select", "Give {give} · take {take}", give=faces[0], take=faces[1]),
                        )
                    )
        selects: list[tuple[str, list[discord.SelectOption]]] = []
        first: list[discord.SelectOption] = []
        for give, options in groups.items():
            if len(first) + len(options) <= SELECT_OPTIONS and len(selects) == 0:
                first += [
                    discord.SelectOption(label=label[:100], value=f"{give}-{take}") for take, label in options
                ]
            else:
                rest = [discord.SelectOption(label=label[:100], value=take) for take, label in options]
                selects.append((f"S{give}-", rest))
        if first:
            selects.insert(0, ("S", first))
        return [
            ActionSelect(
                table.id,
                table.version,
                prefix,
                options,
                placeholder=T.gettext("🔁 Swap: give a card, take one from the table…"),
                row=row,
            )
            for row, (prefix, options) in enumerate(selects[:3])
        ]

    def _call_items(
        self,
        table: Table,
        view: ZapTrapView,
        legal: set[str],
        nav: str | None,
        names: dict[int, str],
        *,
        row: int,
    ) -> list[discord.ui.Item[Any]]:
        """ZAP on the seat you watch and TRAP on the others in short buttons (names shortened,
        still told apart: ``short_names``); any other call the engine allows (wrong targets at a
        penalising table) behind "Other calls". No Refresh in play: the panel follows the table
        by itself, every click redraws it, and its row is a phone's line (issue 33)."""
        v = table.version
        watched = view["watch_seat"]
        main: list[str] = []
        if f"ZAP-{watched}" in legal:
            main.append(f"ZAP-{watched}")
        main += sorted(a for a in legal if a.startswith("TRAP-") and a != f"TRAP-{watched}")
        main = main[:5]  # an ActionRow's width
        extra = sorted(a for a in legal if a.startswith(("ZAP-", "TRAP-")) and a not in main)
        calls = nav == "calls" and bool(extra)  # "Other calls…" was pressed (and they are still there)
        shown = extra if calls else main
        targets = [int(a.split("-")[1]) for a in shown]
        buttons: list[tuple[str, str, str | None, discord.ButtonStyle]] = []
        for i, action in enumerate(shown[:10]):
            call = action.split("-")[0]
            if calls:
                name = table.plain_name(targets[i])
                if call == "ZAP":
                    # Translators: ZAP and TRAP are the game's two calls (its own terms).
                    label = T.pgettext("button", "ZAP {name} (not whose signal you watch)", name=name)
                else:
                    # Translators: ZAP and TRAP are the game's two calls (its own terms).
                    label = T.pgettext("button", "TRAP {name} (whose signal you watch)", name=name)
            elif call == "ZAP":
                # The one ZAP target is the seat you watch (your partner, or your right-hand
                # neighbour, as the signal line says): the word alone, so the row fits a phone.
                # Translators: ZAP is one of the game's two calls (its own term), on a button.
                label = T.pgettext("button", "ZAP")
            else:
                # Translators: ZAP and TRAP are the game's two calls (its own terms).
                label = T.pgettext("button", "TRAP {name}", name=names[targets[i]])
            style = discord.ButtonStyle.danger if call == "ZAP" else discord.ButtonStyle.primary
            # No emoji on the calls in the row: the colour and the word say it, in less width.
            buttons.append((action, label, ("⚡" if call == "ZAP" else "🪤") if calls else None, style))
        grey = discord.ButtonStyle.secondary
        if "deal" in legal:  # the dealer's: clear the table and deal four new cards
            buttons.append(("deal", T.pgettext("button", "Deal"), "🃏", discord.ButtonStyle.primary))
        if extra and not calls:
            buttons.append(("nav-calls", T.pgettext("button", "Other calls…"), None, grey))
        elif calls:
            buttons.append(("nav-none", T.pgettext("button", "Back"), "↩️", grey))
        # Packed five to a row (an ActionRow's width).
        return [
            ActionButton(
                table.id, v, action, label=label[:80], emoji=emoji, style=style, row=min(row + i // 5, 4)
            )
            for i, (action, label, emoji, style) in enumerate(buttons)
        ]


def _gestures_line(view: ZapTrapView, names: dict[int, str]) -> str:
    """The latest gestures, newest last, by short names: as many of the latest ``PANEL_GESTURES``
    as keep the line within ``LINE`` characters on a phone (the newest always), so that it stays
    one line there (issue 33); the table shows the rest."""

    def line(gestures: list[GestureView]) -> str:
        said = " · ".join(f"{escape(names[g['seat']])} {view['palette'][g['gesture']]}" for g in gestures)
        return T.gettext("Gestures: {gestures}", gestures=said)

    latest = view["gestures"][-PANEL_GESTURES:]
    while len(latest) > 1 and _width(line(latest)) > LINE:
        latest = latest[1:]
    return line(latest)


def _width(text: str) -> int:
    """A line's width in characters as a phone draws it: an emoji about two."""
    return sum(2 if ord(c) > 0x2000 else 1 for c in text if not 0xFE00 <= ord(c) <= 0xFE0F)


def _short(table: Table) -> dict[int, str]:
    """Every seat's name as the panel shows it (plain: escape it for markdown): short, told
    apart (``short_names``), the same in its lines and on its buttons."""
    seats = range(len(table.seats))
    return dict(zip(seats, short_names([table.plain_name(s) for s in seats]), strict=True))


def short_names(names: list[str], limit: int = SHORT_NAME) -> list[str]:
    """Names for a row of buttons on a phone: each at most ``limit`` characters, still told
    apart: without a trailing "(…)" (a computer's level) if that leaves them apart; the start
    while the starts differ ("Robo 1"), else the start and the end ("Maxi…u 1"), else in full."""
    # A computer's level, "Robo 1 (casual)", is noise on a button when the names differ without it.
    bare = [re.sub(r"\s*\([^()]*\)$", "", n) or n for n in names]
    names = bare if len(set(bare)) == len(names) else names
    cut = [shorten(n, limit) for n in names]
    if len(set(cut)) == len(names):
        return cut
    head, tail = limit // 2, limit - limit // 2 - 1
    cut = [n if len(n) <= limit else f"{n[:head].rstrip()}…{n[-tail:].lstrip()}" for n in names]
    return cut if len(set(cut)) == len(names) else names
