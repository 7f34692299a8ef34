"""Zip Zap on Discord: `/zipzap new|rules`, the public table and the private hand panel.

Only drawing and commands live here; every rule is in rules/zipzap.py and every table mechanic in
cogs/table/referee.py. Everything drawn comes from engine views: the table from the spectator view,
a panel from that seat's own view.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.drawings import zipzap_cards
from cogs.help import send_rules
from cogs.table.buttons import ActionButton, TableButton
from cogs.table.lifecycle import open_table_command
from cogs.table.model import Table
from cogs.table.pictures import Sketch
from cogs.table.words import plural, seat_names
from rules.base import Event
from rules.zipzap import ZipZap, ZipZapState, card_name
from rules.zipzap.cards import is_zap

GAME = ZipZap()
SUIT_EMOJI = {"R": "🟥", "G": "🟩", "B": "🟦", "Y": "🟨", "W": "🌈", "Z": "⚡"}
SPEED_HELP = {
    "off": "no idle or round timers (stalls still end after a minute)",
    "relaxed": "stall 15 s, idle leader 30 s",
    "fast": "stall 8 s, idle leader 15 s",
}


def card_label(code: str) -> str:
    """Compact face used on buttons and in lists: '🟥 R4', '🌈 W10', '⚡ ZAP'. The letter is the
    card's meaning (as on its picture): a colour square alone means nothing to a screen reader or
    to a colour-blind player."""
    if is_zap(code):
        return "⚡ ZAP"
    return f"{SUIT_EMOJI[code[0]]} {code}"


def card_text(code: str) -> str:
    """A card in running text: '🟥 red 4', '🌈 wild 10', '⚡ Zap card'."""
    return f"{SUIT_EMOJI['Z' if is_zap(code) else code[0]]} {card_name(code)}"


def playable_cards(hand: list[str], legal: set[str]) -> tuple[str, ...]:
    """The cards of ``hand`` that some legal action plays now, in hand order: the ones the hand's
    picture marks. Legal actions write the Zap card as "Z" (alone or in "R4+Z")."""
    names = {a.split("+")[0] for a in legal} | ({"Z"} if any(a.endswith("+Z") for a in legal) else set())
    return tuple(c for c in hand if c in names or (is_zap(c) and "Z" in names))


def _state(table: Table) -> ZipZapState:
    """The table's engine state, typed, so its views are ZipZapViews (a started Zip Zap table holds one)."""
    state = table.state
    assert isinstance(state, ZipZapState)
    return state


def _seat_name(table: Table, seat: int | None) -> str:
    return table.name(seat) if seat is not None else "nobody"


class ZipZapUI:
    key = GAME.key

    def options_lines(self, table: Table) -> list[str]:
        options = table.options
        scoring = "cards left (lowest wins)" if options.scoring == "cards" else "first out (most wins)"
        rounds = options.rounds or "one per player (two with 2–3 players)"
        return [
            f"Scoring: {scoring}",
            f"Rounds: {rounds}",
            f"Speed: {table.speed} — {SPEED_HELP.get(table.speed, '')}",
        ]

    def table_sketches(self, table: Table) -> list[Sketch]:
        """The pile from the spectator's view: a lone card as a Thumbnail beside the title, a run
        as one picture of its top cards. Nothing before the first card of a round."""
        view = _state(table).view(None)
        pile = view["played"][-zipzap_cards.PILE_SHOWN :]
        if not pile:
            return []
        if len(pile) == 1 and view["top"] == pile[0]:
            top = pile[0]
            draw = partial(zipzap_cards.top_png, view)
            return [
                Sketch("zipzap-top.png", ("zipzap-top", top), draw, zipzap_cards.top_alt(view), small=True)
            ]
        draw = partial(zipzap_cards.table_png, view)
        return [Sketch("zipzap-pile.png", ("zipzap-pile", tuple(pile)), draw, zipzap_cards.table_alt(view))]

    def panel_sketches(self, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        """The seat's hand as one picture from its own view, the playable cards marked while a
        round is on (between rounds, unmarked: nothing can be played)."""
        state = _state(table)
        view = state.view(seat)
        hand = list(view["hand"])
        if not hand:
            return []
        marked = playable_cards(hand, set(state.legal_actions(seat))) if view["phase"] == "play" else None
        key = ("zipzap-hand", tuple(hand), marked)
        draw = partial(zipzap_cards.hand_png, hand, marked)
        return [Sketch("zipzap-hand.png", key, draw, zipzap_cards.hand_alt(hand, marked))]

    def table_embed(self, table: Table) -> discord.Embed:
        state = _state(table)
        view = state.view(None)
        over = view["phase"] == "over"
        embed = discord.Embed(
            title=f"Zip Zap — round {view['round']} of {view['rounds']}" + (" — game over" if over else ""),
            colour=discord.Colour.gold() if not over else discord.Colour.dark_grey(),
        )
        top = view["top"]
        if over:
            result = state.result()
            assert result is not None
            # "went out last round" read as the round before the last one: say which round it was.
            last = view["went_out"]
            went_out = "" if last is None else f"**{table.name(last)}** went out in the final round. "
            embed.description = f"{went_out}The game is over. {seat_names(table, result.summary)}"
        elif view["phase"] == "between_rounds":
            embed.description = "Round over. The next round is dealt shortly (or press **Next round**)."
        elif top is None:
            embed.description = "Waiting for the first card."
        else:
            by = _seat_name(table, view["top_seat"]) if view["top_seat"] is not None else "the deck"
            embed.description = f"Top card: **{card_text(top)}** (from {by})"
            if view["control"] is not None:
                embed.description += f"\n**{table.name(view['control'])}** has control and leads any card."
            else:
                embed.description += "\nFirst valid card wins — open your hand with **My hand**."
        lines = []
        for seat in table.seats:
            i = seat.seat
            # Each emoji with its words: alone, 🎯 or ⚡ tells a screen reader nothing of control or the Zap.
            marker = "🎯 control · " if view["control"] == i else ""
            who = f"{seat.name}" + (" 🤖 (computer)" if seat.is_computer else "")
            zap = "" if view["zap_used"][i] else " · ⚡ Zap ready"
            cards = plural(view["hand_counts"][i], "card")
            lines.append(f"{marker}**{who}** — {cards} · {plural(view['scores'][i], 'point')}{zap}")
        embed.add_field(name="Players (cards left · score)", value="\n".join(lines), inline=False)
        out = ", ".join(card_name(s + "1").split()[0] for s in view["out_of_game"]) or "none"
        embed.set_footer(text=f"Deck: {view['deck_count']} · suits out of the game: {out}")
        return embed

    def waiting_on(self, table: Table) -> list[int] | None:
        """`/table status`: whoever has control leads; otherwise anyone may play."""
        control = _state(table).view(None)["control"]
        return [control] if control is not None else None

    def waiting_text(self, table: Table) -> str | None:
        if _state(table).view(None)["phase"] == "between_rounds":
            return "anyone may press **Next round**; otherwise it is dealt shortly"
        return None

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        if _state(table).view(None)["phase"] == "between_rounds":
            return [TableButton(table.id, "act", "deal", label="Next round", emoji="▶️", row=1)]
        return []

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        state = _state(table)
        view = state.view(seat)
        legal = set(state.legal_actions(seat))
        hand: list[str] = view["hand"]
        embed = discord.Embed(title=f"Your hand — {plural(len(hand), 'card')}", colour=discord.Colour.green())
        top = view["top"]
        lines = []
        if view["phase"] == "between_rounds":
            lines.append("The round is over; the next one is dealt shortly.")
        elif view["control"] == seat:
            lines.append("**You have control: lead any card.**")
        elif top is not None:
            lines.append(f"Top card: **{card_text(top)}**")
            if view["control"] is not None:
                lines.append(f"{table.name(view['control'])} has control.")
        # The picture above shows the hand (its alt text in words); this line is for the cards
        # past the fifteen buttons and for clients that show no images.
        lines.append(" · ".join(card_label(c) for c in hand) or "(no cards)")
        if note:
            lines.append(f"\n⚠️ {note}")
        embed.description = "\n".join(lines)
        score = plural(view["scores"][seat], "point")
        embed.set_footer(text=f"Round {view['round']}/{view['rounds']} · your score {score}")
        items: list[discord.ui.Item[Any]] = []
        v = table.version
        for i, card in enumerate(hand[:15]):
            action = "Z" if card.startswith("Z") else card
            playable = action in legal
            items.append(
                ActionButton(
                    table.id,
                    v,
                    action,
                    label=card_label(card),
                    style=discord.ButtonStyle.success if playable else discord.ButtonStyle.secondary,
                    disabled=not playable,
                    row=i // 5,
                )
            )
        # Play-and-Zap for the cards that can follow right now (not while leading: any card is free then).
        if view["control"] != seat:
            combos = [a for a in sorted(legal) if a.endswith("+Z")][:4]
            for action in combos:
                items.append(
                    ActionButton(
                        table.id,
                        v,
                        action,
                        label=f"{card_label(action[:-2])} + ZAP!",
                        style=discord.ButtonStyle.danger,
                        row=3,
                    )
                )
        items.append(ActionButton(table.id, v, "refresh", label="Refresh", emoji="🔄", row=4))
        return embed, items

    def event_line(self, table: Table, event: Event) -> str:
        # Seated texts read on from the player's name: "**bob** played their last card: Zip Zap!".
        if event.seat is not None and event.kind not in ("flip", "deal", "game_over"):
            return f"**{table.name(event.seat)}** {event.text}"
        return seat_names(table, event.text)

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        view = _state(table).view(None)
        points = view["last_round_points"] or [0] * len(table.seats)
        went_out = view["went_out"]
        embed = discord.Embed(
            title=f"Round {event.data.get('round', view['round'])} over",
            description=f"**{_seat_name(table, went_out)}** went out — Zip Zap!",
            colour=discord.Colour.orange(),
        )
        embed.add_field(
            name="This round · total",
            value="\n".join(f"{s.name}: +{points[s.seat]} · {view['scores'][s.seat]}" for s in table.seats),
        )
        return embed

    def final_embed(self, table: Table) -> discord.Embed:
        assert table.state is not None
        result = table.state.result()
        assert result is not None
        embed = discord.Embed(title="Zip Zap — final results", colour=discord.Colour.gold())
        lines = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            medal = {1: "🏆", 2: "🥈", 3: "🥉"}.get(p.place, f"{p.place}.")
            lines.append(f"{medal} **{table.name(p.seat)}** — {plural(p.points, 'point')}")
        embed.description = "\n".join(lines)
        winners = ", ".join(table.plain_name(s) for s in result.winners)
        embed.set_footer(text=f"Winner: {winners}. Results are on /leaderboard. Rematch below.")
        return embed


class ZipZapCog(commands.Cog):
    zipzap = app_commands.Group(
        name="zipzap", description="Zip Zap: the real-time shedding card game", guild_only=True
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        bot.referee.register(ZipZapUI())

    @zipzap.command(name="new", description="Open a Zip Zap table in this channel")
    @app_commands.describe(
        seats="How many seats (2–6)",
        scoring="cards: fewest points wins; first_out: a point for going out first",
        speed="Timers: off, relaxed or fast",
        thread="Play in a new thread",
        rounds="How many rounds (default: one per player, doubled with 2 or 3 players)",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 6] = 4,
        scoring: Literal["cards", "first_out"] = "cards",
        speed: Literal["relaxed", "fast", "off"] = "relaxed",
        thread: bool = False,
        rounds: app_commands.Range[int, 1, 20] | None = None,
    ) -> None:
        await open_table_command(
            interaction,
            GAME.key,
            seats=seats,
            speed=speed,
            rules={"scoring": scoring, "rounds": rounds},
            thread=thread,
        )

    @zipzap.command(name="rules", description="How to play Zip Zap, and the house rulings in force")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(ZipZapCog(bot))
