"""Zap or Trap on Discord: `/zaptrap new|rules`, the public table and each player's private panel.

Public (the table message, drawn from the spectator view): the four face-up cards, deck size,
dealer, scores, who has chosen a signal (never which), recent gestures and the gesture palette any
player may press. Private (the panel, drawn from the seat's own view and legal actions): the
hand with its best set, the secret signal choice, the signal the seat watches for, one-click swaps
(pick a hand card, then a table card, or the other way round), ZAP, TRAP and the dealer's Deal.

Pictures (cogs/drawings/zaptrap_cards.py, drawn off the event loop by the shared table through
``table_sketches``/``panel_sketches``): the face-up cards on the table, from the spectator view;
on a panel the seat's hand, its swappable cards marked, and the face-up cards beside it. Each
picture's alt text names every card it shows.

Secret signals are written out (emoji and name) only on the panels of the seats the engine's view
allows, and in the final summary once the game is over. Gestures on the public table are emoji.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.drawings import zaptrap_cards
from cogs.help import send_rules
from cogs.table.buttons import ActionButton, ActionSelect, TableButton
from cogs.table.lifecycle import open_table_command
from cogs.table.model import Table
from cogs.table.pictures import Sketch
from cogs.table.words import plural, seat_names
from rules.base import Event
from rules.zaptrap import GESTURES, ZapOrTrap, ZapTrapState, ZapTrapView, card_name, species_name
from rules.zaptrap.views import SetView

GAME = ZapOrTrap()
# One gesture per player every few seconds: enough to signal and bluff, not enough to flood the table.
GESTURE_COOLDOWN = 3.0
SPECIAL_EMOJI = {"XZZ": "⚡", "XBF": "🕊️", "XDM": "💣"}
RECENT_GESTURES = 6
SPEED_HELP = {
    "off": "no quick timers (signals close after 3 min, lull deal after 60 s)",
    "relaxed": "signals 45 s, lull deal after 10 s of quiet",
    "fast": "signals 25 s, lull deal after 6 s of quiet",
}


def signal_text(gesture: str | None) -> str:
    """A secret signal as only its owners (and its watcher) ever see it: emoji and name."""
    if gesture is None:
        return "not chosen yet"
    return f"{GESTURES[gesture]} {gesture}"


def card_label(code: str, view: ZapTrapView) -> str:
    """A card's face on a button or in a list: its name, with an emoji for the special cards."""
    name = card_name(code, view["preset"], int(view["species"]))
    emoji = SPECIAL_EMOJI.get(code[:3])
    return f"{emoji} {name}" if emoji else name


TABLE_FILE = "zaptrap-table.png"
HAND_FILE = "zaptrap-hand.png"
# Whether a side has chosen its signal, in words as well as the mark (a screen reader says
# "check mark button", and the marks differ only a little to a colour-blind eye).
READY_MARK = {True: "✅ chosen", False: "⏳ choosing"}


def table_sketch(view: ZapTrapView) -> Sketch | None:
    """The face-up cards as one picture, from whatever view is given (the spectator's on the
    table): a thumbnail beside the title for a single card, a gallery picture for several."""
    cards = tuple(view["table"])
    if not cards:
        return None
    preset, species = view["preset"], int(view["species"])
    return Sketch(
        TABLE_FILE,
        ("zaptrap-table", preset, species, cards),
        partial(zaptrap_cards.face_up_png, cards, preset, species),
        zaptrap_cards.table_alt(view),
        small=len(cards) == 1,
    )


def hand_sketch(view: ZapTrapView, legal: set[str]) -> Sketch:
    """The seat's hand as one picture, the cards a legal swap can give raised and framed (and
    said so in the alt text); outside play nothing is marked, as nothing can be swapped."""
    cards = tuple(view["hand"])
    playable: tuple[str, ...] | None = None
    if view["phase"] == "play":
        givable = {a[1:].split("-", 1)[0] for a in legal if a.startswith("S")}
        playable = tuple(sorted(c for c in set(cards) if c in givable))
    preset, species = view["preset"], int(view["species"])
    return Sketch(
        HAND_FILE,
        ("zaptrap-hand", preset, species, cards, playable),
        partial(zaptrap_cards.hand_png, cards, playable, preset=preset, species=species),
        zaptrap_cards.hand_alt(cards, playable, preset=preset, species=species),
    )


def _state(table: Table) -> ZapTrapState:
    """The table's engine state, typed, so that its views are ``ZapTrapView``s."""
    assert isinstance(table.state, ZapTrapState)
    return table.state


def _names(table: Table, text: str) -> str:
    """Engine texts say "seat 3" and "seats 1 and 3"; people want names."""
    return seat_names(table, text)


def _units(view: ZapTrapView) -> list[list[int]]:
    """The seats of each side (a team of two, or one player)."""
    sides: list[list[int]] = [[] for _ in range(int(view["units"]))]
    for seat, unit in enumerate(view["team_of"]):
        sides[unit].append(seat)
    return sides


def _side_name(table: Table, view: ZapTrapView, unit: int) -> str:
    return " & ".join(table.name(s) for s in _units(view)[unit])


def _set_text(found: SetView | None, view: ZapTrapView) -> str:
    if found is None:
        return "no set"
    count = {4: "four", 5: "five"}.get(int(found["count"]), str(found["count"]))
    return f"a set of {count} {species_name(int(found['species']), view['preset'], plural=True)}"


class ZapTrapUI:
    key = GAME.key
    hand_label = "My hand & signal"

    @staticmethod
    def version_free(action: str) -> bool:
        """A swap names both cards and a call names its target, so a click from a panel drawn
        before someone's gesture still means the same; the engine refuses a card that is gone."""
        return action.startswith(("S", "ZAP-", "TRAP-"))

    @staticmethod
    def epoch(table: Table) -> Any:
        # A new round reshuffles: the same card codes come back, so old clicks must not carry over.
        view = _state(table).view(None)
        return (view["round"], view["phase"])

    def __init__(self) -> None:
        # (table, seat) -> the card picked for a two-step swap. Live panel refreshes redraw
        # without navigation state, and a busy table refreshes every second: remembering the
        # pick here keeps it from vanishing between the two clicks. Memory only: after a
        # restart a pick is simply made again.
        self._picks: dict[tuple[int, int], str] = {}

    # --- lobby and options ----------------------------------------------------------------------

    def options_lines(self, table: Table) -> list[str]:
        options = table.options
        preset = "Zap or Trap (aliens)" if options.preset == "zaptrap" else "classic Kemps (52 cards)"
        lull = table.timer_seconds("lull" if options.lull == "auto" else "lull_fallback")
        lull_text = f"{lull:g} s of quiet" if lull is not None else "a long quiet time"
        wrong = "refused" if options.refuse_wrong_targets else "penalised (+2 to everyone else)"
        return [
            f"Deck: {preset}, hands of {options.hand_size}",
            f"Target: first to {plural(options.target, 'point')}",
            f"Lull: the referee deals four new cards after {lull_text}",
            f"Wrong targets with 3 or 5 players: {wrong}",
            f"Speed: {table.speed} — {SPEED_HELP.get(table.speed, '')}",
        ]

    def lobby_lines(self, table: Table) -> list[str]:
        """How the seats pair up if the game starts with every seat filled."""
        seats = table.max_seats
        names = [s.name for s in table.seats] + ["*open seat*"] * (seats - len(table.seats))
        if seats in (4, 6):
            half = seats // 2
            lines = [f"Team {u + 1}: **{names[u]}** & **{names[u + half]}**" for u in range(half)]
            lines.append("Partners sit opposite; the host can rearrange them with **Arrange seats**.")
            return lines
        ring = " → ".join(names + names[:1])
        return [f"Everyone for themselves; each player signals to the next: {ring}"]

    # --- the public table -----------------------------------------------------------------------

    def table_embed(self, table: Table) -> discord.Embed:
        state = _state(table)
        view = state.view(None)
        phase = view["phase"]
        title = f"Zap or Trap — round {view['round']}" + (" — game over" if phase == "over" else "")
        embed = discord.Embed(
            title=title, colour=discord.Colour.dark_grey() if phase == "over" else discord.Colour.teal()
        )
        dealer = table.name(view["dealer"])
        if phase == "signals":
            ready = [
                f"{READY_MARK[bool(done)]}: {_side_name(table, view, u)}"
                for u, done in enumerate(view["signals_ready"])
            ]
            who = "Each team" if view["team_game"] else "Each player"
            embed.description = (
                f"{who} is choosing a secret signal — press **{self.hand_label}**. "
                f"**{dealer}** deals.\n" + "\n".join(ready)
            )
        elif phase == "play":
            cards = " · ".join(f"**{card_label(c, view)}**" for c in view["table"])
            embed.description = (
                f"On the table: {cards}\n"
                f"Dealer: **{dealer}** · swap from your panel; gestures below are public."
            )
        elif phase == "between":
            embed.description = self._between_text(table, view) + "\nThe next round starts shortly."
        else:
            result = state.result()
            summary = _names(table, result.summary) if result is not None else ""
            embed.description = f"The game is over. {summary}".strip()
        scores = "\n".join(
            f"**{_side_name(table, view, u)}** — {score}" for u, score in enumerate(view["scores"])
        )
        embed.add_field(name=f"Scores (first to {view['target']})", value=scores[:1024], inline=False)
        if view["gestures"]:
            recent = " · ".join(
                f"{table.name(g['seat'])} {view['palette'][g['gesture']]}"
                for g in view["gestures"][-RECENT_GESTURES:]
            )
            embed.add_field(name="Recent gestures", value=recent[:1024], inline=False)
        embed.set_footer(text=f"Deck {view['deck_count']} · discards {view['discard_count']}")
        return embed

    def _between_text(self, table: Table, view: ZapTrapView) -> str:
        call = view["call"]
        if view["void"] or call is None:
            return f"Round {view['round']} was void: nobody scores."
        return (
            f"**{table.name(call['caller'])}** called {call['call']} on **{table.name(call['target'])}** "
            "— the reveal is posted below."
        )

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        phase = _state(table).view(None)["phase"]
        if phase == "play":
            # The palette: anyone seated may gesture at any time; the referee never says which is real.
            return [
                TableButton(table.id, "act", f"gesture-{gid}", emoji=emoji, row=1 + i // 5)
                for i, (gid, emoji) in enumerate(GESTURES.items())
            ]
        if phase == "between":
            return [TableButton(table.id, "act", "next", label="Next round", emoji="▶️", row=1)]
        return []

    def table_sketches(self, table: Table) -> list[Sketch]:
        """The face-up cards, from the spectator view: nothing on the table is anyone's secret."""
        sketch = table_sketch(_state(table).view(None))
        return [sketch] if sketch is not None else []

    def panel_sketches(self, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        """The seat's hand (its own view, its own legal swaps) and, while cards are face up, the
        table beside it, so both halves of a swap are in one glance on the panel."""
        state = _state(table)
        view = state.view(seat)
        if view["phase"] == "over":
            return []
        # Before the deal (signals are chosen first) there is no hand: no empty picture either.
        sketches = [hand_sketch(view, set(state.legal_actions(seat)))] if view["hand"] else []
        if view["phase"] == "play" and (face_up := table_sketch(state.view(None))) is not None:
            sketches.append(face_up)
        return sketches

    def waiting_on(self, table: Table) -> list[int] | None:
        """`/table status`: while signals are chosen, the sides that have not chosen yet;
        otherwise anyone may swap or call."""
        view = _state(table).view(None)
        if view["phase"] != "signals":
            return None
        sides = _units(view)
        return [s for u, done in enumerate(view["signals_ready"]) if not done for s in sides[u]]

    def waiting_text(self, table: Table) -> str | None:
        if _state(table).view(None)["phase"] == "between":
            return "anyone may press **Next round**; otherwise it starts shortly"
        return None

    def public_cooldown(self, action: str) -> float | None:
        return GESTURE_COOLDOWN if action.startswith("gesture-") else None

    # --- the private panel ----------------------------------------------------------------------

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        state = _state(table)
        view = state.view(seat)
        legal = set(state.legal_actions(seat))
        phase = view["phase"]
        nav = self._remembered(table, seat, view, nav)
        if phase == "signals":
            embed = discord.Embed(
                title=f"Round {view['round']} — choose your secret signal", colour=discord.Colour.purple()
            )
        else:
            embed = discord.Embed(title=f"Your hand — round {view['round']}", colour=discord.Colour.green())
        lines = self._signal_lines(table, view)
        if phase == "play":
            lines += self._play_lines(table, view, nav)
        elif phase == "between":
            lines.append(self._between_text(table, view))
        elif phase == "over":
            lines.append("The game is over.")
        if note:
            lines.append(f"\n⚠️ {note}")
        embed.description = "\n".join(lines)[:4096]
        score = view["scores"][view["unit"]]
        embed.set_footer(
            text=f"Your side's score: {score} of {view['target']} · dealer {table.plain_name(view['dealer'])}"
        )
        items: list[discord.ui.Item[Any]] = []
        v = table.version
        if phase == "signals":
            options = [
                discord.SelectOption(label=gid, value=gid, emoji=emoji, default=gid == view["my_signal"])
                for gid, emoji in GESTURES.items()
                if f"signal-{gid}" in legal
            ]
            if options:
                items.append(
                    ActionSelect(
                        table.id, v, "signal-", options, placeholder="Choose your secret signal", row=0
                    )
                )
        elif phase == "play":
            items += self._play_items(table, view, legal, nav)
        items.append(ActionButton(table.id, v, "refresh", label="Refresh", emoji="🔄", row=4))
        return embed, items

    def _signal_lines(self, table: Table, view: ZapTrapView) -> list[str]:
        mine, watched = view["my_signal"], view["watch_signal"]
        if view["team_game"]:
            partner = table.name(view["partner"])
            lines = [f"Your team's secret signal (you and **{partner}**): **{signal_text(mine)}**"]
            if mine is not None:
                lines.append(f"Make it when you hold a set; ZAP **{partner}** when they make it.")
        else:
            to = table.name(view["signal_to"])
            lines = [
                f"Your secret signal: **{signal_text(mine)}** — **{to}** (on your left) watches for it.",
                f"You watch **{table.name(view['watch_seat'])}** (on your right): "
                f"their signal is **{signal_text(watched)}**.",
            ]
        if view["phase"] == "signals" and mine is None and view["last_signal"] is not None:
            lines.append(f"Last round's was {signal_text(view['last_signal'])}; it stays if time runs out.")
        return lines

    def _play_lines(self, table: Table, view: ZapTrapView, nav: str | None) -> list[str]:
        lines = ["On the table: " + " · ".join(f"**{card_label(c, view)}**" for c in view["table"])]
        lines.append("Your hand: " + " · ".join(card_label(c, view) for c in view["hand"]))
        found = view["best_set"]
        if found is None:
            lines.append("No set yet: swap toward four matching cards.")
        else:
            cards = ", ".join(card_label(c, view) for c in found["cards"])
            lines.append(f"✅ You hold {_set_text(found, view)} ({cards}).")
        if view["gestures"]:
            lines.append(
                "Recent gestures: "
                + " · ".join(
                    f"{table.name(g['seat'])} {view['palette'][g['gesture']]}"
                    for g in view["gestures"][-RECENT_GESTURES:]
                )
            )
        picked = self._picked(view, nav)
        if picked is not None:
            where, code = picked
            if where == "g":
                lines.append(f"Giving your **{card_label(code, view)}**: now press the table card to take.")
            else:
                lines.append(f"Taking the **{card_label(code, view)}**: now press the card you give for it.")
        if view["can_deal"]:
            lines.append("You're the dealer: **Deal** clears the table and deals four new cards.")
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
        for i, code in enumerate(view["hand"][:10]):
            row = i // 5
            label = card_label(code, view)[:80]
            if picked and picked[0] == "t":
                action = f"S{code}-{picked[1]}"
                items.append(
                    ActionButton(
                        table.id,
                        v,
                        action,
                        label=f"Give {label}"[:80],
                        style=discord.ButtonStyle.success,
                        disabled=action not in legal,
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
        # "Other calls" borrows the table cards' row.
        for code in view["table"] if nav != "calls" else []:
            label = card_label(code, view)[:70]
            if picked and picked[0] == "g":
                action = f"S{picked[1]}-{code}"
                items.append(
                    ActionButton(
                        table.id,
                        v,
                        action,
                        label=f"Take {label}",
                        style=discord.ButtonStyle.success,
                        disabled=action not in legal,
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
            items.append(ActionButton(table.id, v, "nav-none", label="Cancel swap", emoji="↩️", row=2))
        items += self._call_items(table, view, legal, nav)
        if "deal" in legal:
            items.append(
                ActionButton(
                    table.id, v, "deal", label="Deal", emoji="🃏", style=discord.ButtonStyle.primary, row=4
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
                why = "not whose signal you watch" if call == "ZAP" else "whose signal you watch"
                label = f"{call} {name} ({why})"
                row = 2 + i // 5
            else:
                label = f"{call} {name}"
                row = 3
            style = discord.ButtonStyle.danger if call == "ZAP" else discord.ButtonStyle.primary
            emoji = "⚡" if call == "ZAP" else "🪤"
            items.append(
                ActionButton(table.id, v, action, label=label[:80], emoji=emoji, style=style, row=row)
            )
        if extra and nav != "calls":
            items.append(ActionButton(table.id, v, "nav-calls", label="Other calls…", row=4))
        elif nav == "calls":
            items.append(ActionButton(table.id, v, "nav-none", label="Back", emoji="↩️", row=4))
        return items

    # --- events and summaries -------------------------------------------------------------------

    def events_applied(self, table: Table, events: list[Event]) -> None:
        for event in events:
            if event.kind == "swap" and event.seat is not None:
                self._picks.pop((table.id, event.seat), None)  # that swap used up the pick

    def event_line(self, table: Table, event: Event) -> str:
        if event.kind == "gesture" and event.seat is not None:
            return f"**{table.name(event.seat)}**: {event.data.get('emoji', '')}"
        if event.kind == "call" and event.seat is not None:
            data = event.data
            each = " each" if len(data["scorers"]) > 1 else ""
            view = _state(table).view(None) if table.state is not None else None
            to = ", ".join(_side_name(table, view, u) for u in data["scorers"]) if view else ""
            return (
                f"**{table.name(event.seat)}** called {data['call']} on **{table.name(data['target'])}**: "
                f"{plural(data['value'], 'point')}{each} to {to}."
            )
        text = _names(table, event.text)
        if event.seat is not None:
            return f"**{table.name(event.seat)}** {text}"
        return text

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        view = _state(table).view(None)
        call = view["call"]
        if call is None:
            return None
        caller, target = table.name(call["caller"]), table.name(call["target"])
        number = event.data.get("round", view["round"])
        embed = discord.Embed(
            title=f"Round {number}: {caller} calls {call['call']} on {target}!"[:256],
            colour=discord.Colour.red() if call["call"] == "ZAP" else discord.Colour.blue(),
        )
        hand = " · ".join(card_label(c, view) for c in call["hand"])
        lines = [f"**{target}** shows: {hand}", f"That is {_set_text(call['set'], view)}.", ""]
        lines += [f"• {line}" for line in call["lines"]]
        each = " each" if len(call["scorers"]) > 1 else ""
        to = ", ".join(f"**{_side_name(table, view, u)}**" for u in call["scorers"])
        lines.append(f"= **{plural(call['value'], 'point')}**{each} to {to}")
        embed.description = "\n".join(lines)[:4096]
        scores = "\n".join(
            f"{_side_name(table, view, u)}: +{points} → {view['scores'][u]}"
            for u, points in enumerate(call["points"])
        )
        embed.add_field(name="Scores", value=scores[:1024], inline=False)
        return embed

    def final_embed(self, table: Table) -> discord.Embed:
        state = _state(table)
        view = state.view(None)
        result = state.result()
        assert result is not None
        for key in [k for k in self._picks if k[0] == table.id]:
            del self._picks[key]
        embed = discord.Embed(title="Zap or Trap — final results", colour=discord.Colour.gold())
        lines = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            medal = {1: "🏆", 2: "🥈", 3: "🥉"}.get(p.place, f"{p.place}.")
            lines.append(f"{medal} **{table.name(p.seat)}** — {plural(p.points, 'point')}")
        lines += ["", _names(table, result.summary)]
        embed.description = "\n".join(lines)
        reveal = []
        for entry in view.get("signal_history", []):
            sides = " · ".join(
                f"{_side_name(table, view, u)} {signal_text(g) if g else '—'}"
                for u, g in enumerate(entry["signals"])
            )
            reveal.append(f"Round {entry['round']}: {sides}")
        if reveal:
            text = "\n".join(reveal)
            if len(text) > 1024:
                text = "…\n" + text[-1000:]
            embed.add_field(name="The secret signals, revealed", value=text, inline=False)
        winners = ", ".join(table.plain_name(s) for s in result.winners)
        embed.set_footer(text=f"Winner: {winners}. Results are on /leaderboard. Rematch below.")
        return embed

    def signal_rows(self, table: Table) -> list[dict[str, Any]]:
        """Every round's real signals, stored with the finished game."""
        view = _state(table).view(None)
        rows = []
        for entry in view.get("signal_history", []):
            for unit, gesture in enumerate(entry["signals"]):
                if gesture is None:
                    continue
                team = unit if view["team_game"] else None
                seat = None if view["team_game"] else unit
                rows.append({"round": entry["round"], "team": team, "seat": seat, "gesture": gesture})
        return rows


class ZapTrapCog(commands.Cog):
    zaptrap = app_commands.Group(
        name="zaptrap", description="Zap or Trap: sets, secret signals and calls", guild_only=True
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        bot.referee.register(ZapTrapUI())

    @zaptrap.command(name="new", description="Open a Zap or Trap table in this channel")
    @app_commands.describe(
        seats="How many seats (3–6; with 4 or 6, partners sit opposite)",
        preset="zaptrap: the alien deck; kemps: classic Kemps with 52 cards",
        lull="Seconds of quiet before the referee deals four new cards (default by speed)",
        speed="Timers: off, relaxed or fast",
        thread="Play in a new thread",
        target="Points to win (default 7)",
        wrong_targets="3 or 5 players: penalise wrong ZAP/TRAP targets, or refuse them",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 3, 6] = 4,
        preset: Literal["zaptrap", "kemps"] = "zaptrap",
        lull: app_commands.Range[int, 2, 300] | None = None,
        speed: Literal["relaxed", "fast", "off"] = "relaxed",
        thread: bool = False,
        target: app_commands.Range[int, 1, 50] = 7,
        wrong_targets: Literal["penalise", "refuse"] = "penalise",
    ) -> None:
        await open_table_command(
            interaction,
            GAME.key,
            seats=seats,
            speed=speed,
            rules={"preset": preset, "target": target, "refuse_wrong_targets": wrong_targets == "refuse"},
            thread=thread,
            timers={"lull": float(lull)} if lull is not None else None,
        )

    @zaptrap.command(name="rules", description="How to play Zap or Trap, and the house rulings in force")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(ZapTrapCog(bot))
