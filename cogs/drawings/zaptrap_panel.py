"""Zap or Trap's private panel: a seat's secret signal (chosen, watched, or last round's), its hand
and best set, the two-step swap (pick a hand card, then a table card, or the other way round), ZAP,
TRAP, the other calls and the dealer's Deal, drawn from the seat's own view and legal actions.

It lives apart from the cog (cogs/zaptrap.py, which draws the public table) because it is the
largest drawing and the only one that remembers anything between draws: the card each seat has
picked for a swap. The cog hands each seat's panel here and says when a pick is used up.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.drawings.zaptrap_words import card_label, set_text
from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.model import Table
from cogs.texts import Texts
from cogs.words.zaptrap import between_text, gesture_name, signal_text
from rules.zaptrap import GESTURES, ZapTrapState, ZapTrapView

T = Texts(__name__)
# How many of the latest gestures the table and the panel show.
RECENT_GESTURES = 6
# The panel shows fewer (the table has the rest): the latest are the ones to answer.
PANEL_GESTURES = 3


def state_of(table: Table) -> ZapTrapState:
    """The table's engine state, typed, so that its views are ``ZapTrapView``s."""
    assert isinstance(table.state, ZapTrapState)
    return table.state


class ZapTrapPanel:
    """Each seat's private panel, and the card it has picked for a two-step swap."""

    def __init__(self) -> None:
        # (table, seat) -> the card picked for a two-step swap. Live panel refreshes redraw
        # without navigation state, and a busy table refreshes every second: remembering the
        # pick here keeps it from vanishing between the two clicks. Memory only: after a
        # restart a pick is simply made again.
        self._picks: dict[tuple[int, int], str] = {}

    def forget_pick(self, table_id: int, seat: int) -> None:
        """A swap used up the seat's pick."""
        self._picks.pop((table_id, seat), None)

    def forget_table(self, table_id: int) -> None:
        """The game is over: no pick at this table matters any more."""
        for key in [k for k in self._picks if k[0] == table_id]:
            del self._picks[key]

    def draw(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        state = state_of(table)
        view = state.view(seat)
        legal = set(state.legal_actions(seat))
        phase = view["phase"]
        nav = self._remembered(table, seat, view, nav)
        if phase == "signals":
            embed = discord.Embed(
                title=T.gettext("Round {round} — choose your secret signal", round=view["round"]),
                colour=discord.Colour.purple(),
            )
        else:
            embed = discord.Embed(
                title=T.gettext("Your hand — round {round}", round=view["round"]),
                colour=discord.Colour.green(),
            )
        lines = self._signal_lines(table, view)
        if phase == "play":
            lines += self._play_lines(table, view, nav)
        elif phase == "between":
            lines.append(between_text(table, view))
        elif phase == "over":
            lines.append(T.gettext("The game is over."))
        if note:
            lines.append(f"⚠️ {note}")
        embed.description = "\n".join(lines)[:4096]
        score = view["scores"][view["unit"]]
        embed.set_footer(
            text=T.gettext(
                "Your side's score: {score} of {target} · dealer {dealer}",
                score=score,
                target=view["target"],
                dealer=table.plain_name(view["dealer"]),
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
        elif phase == "play":
            items += self._play_items(table, view, legal, nav)
        items.append(
            ActionButton(table.id, v, "refresh", label=T.pgettext("button", "Refresh"), emoji="🔄", row=4)
        )
        return embed, items

    def _signal_lines(self, table: Table, view: ZapTrapView) -> list[str]:
        """The signals: in full while they are chosen; in play and after, one line (a phone
        shows the panel's buttons without scrolling only if its text is short: issue 33)."""
        mine, watched = view["my_signal"], view["watch_signal"]
        choosing = view["phase"] == "signals"
        if view["team_game"]:
            partner = table.name(view["partner"])
            lines = [
                T.gettext(
                    "Your team's secret signal (you and **{partner}**): **{signal}**",
                    partner=partner,
                    signal=signal_text(mine),
                )
            ]
            if mine is not None and choosing:
                lines.append(
                    T.gettext(
                        "Make it when you hold a set; ZAP **{partner}** when they make it.", partner=partner
                    )
                )
        elif not choosing:
            lines = [
                T.gettext(
                    "You signal **{signal}** to **{left}** · **{right}** signals **{watched}** to you.",
                    signal=signal_text(mine),
                    left=table.name(view["signal_to"]),
                    right=table.name(view["watch_seat"]),
                    watched=signal_text(watched),
                )
            ]
        else:
            to = table.name(view["signal_to"])
            lines = [
                T.gettext(
                    "Your secret signal: **{signal}** — **{name}** (on your left) watches for it.",
                    signal=signal_text(mine),
                    name=to,
                ),
                T.gettext(
                    "You watch **{name}** (on your right): their signal is **{signal}**.",
                    name=table.name(view["watch_seat"]),
                    signal=signal_text(watched),
                ),
            ]
        if choosing and mine is None and view["last_signal"] is not None:
            lines.append(
                T.gettext(
                    "Last round's was {signal}; it stays if time runs out.",
                    signal=signal_text(view["last_signal"]),
                )
            )
        return lines

    def _play_lines(self, table: Table, view: ZapTrapView, nav: str | None) -> list[str]:
        # The hand and the face-up cards are the pictures above (their alt texts say them in
        # words), and the hand's buttons: no list of them here as well.
        lines = []
        # A set, once held, in one line (its cards are the hand's green buttons); none held says
        # nothing: what a set is and how to swap toward one is the rules', not every panel's.
        found = view["best_set"]
        if found is not None:
            lines.append(T.gettext("✅ You hold {set}.", set=set_text(found, view["preset"])))
        if view["gestures"]:
            recent = " · ".join(
                f"{table.name(g['seat'])} {view['palette'][g['gesture']]}"
                for g in view["gestures"][-PANEL_GESTURES:]
            )
            lines.append(T.gettext("Recent gestures: {gestures}", gestures=recent))
        picked = self._picked(view, nav)
        if picked is not None:
            where, code = picked
            if where == "g":
                lines.append(
                    T.gettext(
                        "Giving your **{card}**: now press the table card to take.",
                        card=card_label(code, view),
                    )
                )
            else:
                lines.append(
                    T.gettext(
                        "Taking the **{card}**: now press the card you give for it.",
                        card=card_label(code, view),
                    )
                )
        # The dealer's Deal is its own button (and the footer names the dealer): no line for it.
        return lines

    def _remembered(self, table: Table, seat: int, view: ZapTrapView, nav: str | None) -> str | None:
        key = (table.id, seat)
        if nav is not None and nav[:1] in ("g", "t"):
            self._picks[key] = nav
        elif nav == "none":
            self._picks.pop(key, None)
            return None
        elif nav is None:
            nav = self._picks.get(key)
        if nav is not None and nav[:1] in ("g", "t") and self._picked(view, nav) is None:
            self._picks.pop(key, None)  # the card moved: the pick is void
            return None
        return nav

    @staticmethod
    def _picked(view: ZapTrapView, nav: str | None) -> tuple[str, str] | None:
        """The card picked for a two-step swap: ("g", a hand card) or ("t", a table card)."""
        if not nav or nav[0] not in "gt":
            return None
        code = nav[1:]
        if (nav[0] == "g" and code in view["hand"]) or (nav[0] == "t" and code in view["table"]):
            return nav[0], code
        return None

    def _play_items(
        self, table: Table, view: ZapTrapView, legal: set[str], nav: str | None
    ) -> list[discord.ui.Item[Any]]:
        v = table.version
        items: list[discord.ui.Item[Any]] = []
        picked = self._picked(view, nav)
        found = view["best_set"]
        in_set = set(found["cards"]) if found else set()
        # Only the cards a swap can give (the ones the hand's picture raises): no disabled button
        # for the others, the picture shows them.
        givable = {a[1:].split("-", 1)[0] for a in legal if a.startswith("S")}
        for i, code in enumerate([c for c in view["hand"] if c in givable][:10]):
            row = i // 5
            label = card_label(code, view)[:80]
            if picked and picked[0] == "t":
                action = f"S{code}-{picked[1]}"
                if action in legal:
                    items.append(
                        ActionButton(
                            table.id,
                            v,
                            action,
                            label=T.pgettext("button", "Give {card}", card=label)[:80],
                            style=discord.ButtonStyle.success,
                            row=row,
                        )
                    )
                continue
            chosen = picked is not None and picked[1] == code
            style = (
                discord.ButtonStyle.primary
                if chosen
                else discord.ButtonStyle.success
                if code in in_set
                else discord.ButtonStyle.secondary
            )
            items.append(ActionButton(table.id, v, f"nav-g{code}", label=label, style=style, row=row))
        # The face-up cards are buttons once a hand card is picked (to take one for it): before
        # that the picture shows them, and a row of buttons for them would push the calls off a
        # phone's screen (issue 33). "Other calls" borrows their row.
        taking = picked is not None and nav != "calls"
        for code in view["table"] if taking else []:
            label = card_label(code, view)[:70]
            if picked and picked[0] == "g":
                action = f"S{picked[1]}-{code}"
                if action in legal:
                    items.append(
                        ActionButton(
                            table.id,
                            v,
                            action,
                            label=T.pgettext("button", "Take {card}", card=label),
                            style=discord.ButtonStyle.success,
                            row=2,
                        )
                    )
            else:
                chosen = picked is not None and picked[1] == code
                style = discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary
                items.append(
                    ActionButton(table.id, v, f"nav-t{code}", label=f"🂠 {label}", style=style, row=2)
                )
        if picked is not None:
            items.append(
                ActionButton(
                    table.id, v, "nav-none", label=T.pgettext("button", "Cancel swap"), emoji="↩️", row=2
                )
            )
        items += self._call_items(table, view, legal, nav)
        if "deal" in legal:
            items.append(
                ActionButton(
                    table.id,
                    v,
                    "deal",
                    label=T.pgettext("button", "Deal"),
                    emoji="🃏",
                    style=discord.ButtonStyle.primary,
                    row=4,
                )
            )
        return items

    def _call_items(
        self, table: Table, view: ZapTrapView, legal: set[str], nav: str | None
    ) -> list[discord.ui.Item[Any]]:
        """ZAP on the seat you watch and TRAP on the others on one row; any other call the
        engine allows (wrong targets at a penalising table) behind "Other calls"."""
        v = table.version
        watched = view["watch_seat"]
        main: list[str] = []
        if f"ZAP-{watched}" in legal:
            main.append(f"ZAP-{watched}")
        main += sorted(a for a in legal if a.startswith("TRAP-") and a != f"TRAP-{watched}")
        main = main[:5]
        extra = sorted(a for a in legal if a.startswith(("ZAP-", "TRAP-")) and a not in main)
        items: list[discord.ui.Item[Any]] = []
        shown = extra if nav == "calls" else main
        for i, action in enumerate(shown[:10]):
            call, target = action.split("-")
            name = table.plain_name(int(target))
            if nav == "calls":
                if call == "ZAP":
                    # Translators: ZAP and TRAP are the game's two calls (its own terms).
                    label = T.pgettext("button", "ZAP {name} (not whose signal you watch)", name=name)
                else:
                    # Translators: ZAP and TRAP are the game's two calls (its own terms).
                    label = T.pgettext("button", "TRAP {name} (whose signal you watch)", name=name)
                row = 2 + i // 5
            else:
                if call == "ZAP":
                    # Translators: ZAP and TRAP are the game's two calls (its own terms).
                    label = T.pgettext("button", "ZAP {name}", name=name)
                else:
                    # Translators: ZAP and TRAP are the game's two calls (its own terms).
                    label = T.pgettext("button", "TRAP {name}", name=name)
                row = 3
            style = discord.ButtonStyle.danger if call == "ZAP" else discord.ButtonStyle.primary
            emoji = "⚡" if call == "ZAP" else "🪤"
            items.append(
                ActionButton(table.id, v, action, label=label[:80], emoji=emoji, style=style, row=row)
            )
        if extra and nav != "calls":
            items.append(
                ActionButton(table.id, v, "nav-calls", label=T.pgettext("button", "Other calls…"), row=4)
            )
        elif nav == "calls":
            items.append(
                ActionButton(table.id, v, "nav-none", label=T.pgettext("button", "Back"), emoji="↩️", row=4)
            )
        return items
