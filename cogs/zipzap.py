"""Zip Zap on Discord: `/zipzap new|rules`, the public table and the private hand panel.

Only drawing and commands live here; every rule is in rules/zipzap.py and every table mechanic in
cogs/table/referee.py. Everything drawn comes from engine views: the table from the spectator view,
a panel from that seat's own view. Every word comes from the zipzap catalog (cogs.texts), in the
language being drawn: the engine's events and refusals are data, worded here.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.drawings import zipzap_cards
from cogs.help import send_rules
from cogs.table.buttons import ActionButton, ActionSelect, TableButton
from cogs.table.lifecycle import LANGUAGE_CHOICES, LANGUAGE_OPTION, open_table_command
from cogs.table.model import Table
from cogs.table.options import SPEED_CHOICES, speed_name
from cogs.table.pictures import Sketch
from cogs.texts import N_, Texts, join
from rules.base import Event, IllegalAction
from rules.zipzap import MAX_NUMBER, WILD, ZipZap, ZipZapState, number_of, parse_play, suit_of
from rules.zipzap.cards import is_zap

T = Texts(__name__)
GAME = ZipZap()
SUIT_EMOJI = {"R": "🟥", "G": "🟩", "B": "🟦", "Y": "🟨", "W": "🌈", "Z": "⚡"}
SPEED_HELP = {
    "off": N_("no idle or round timers (stalls still end after a minute)"),
    "relaxed": N_("stall 15 s, idle leader 30 s"),
    "fast": N_("stall 8 s, idle leader 15 s"),
}
card_name = zipzap_cards.card_name
# Leading with more cards than one row of buttons holds, the panel offers them in a select.
LEAD_BUTTONS = 5


def card_label(code: str) -> str:
    """Compact face used on buttons and in lists: '🟥 R4', '🌈 W10', '⚡ ZAP'. The letter is the
    card's meaning (as on its picture): a colour square alone means nothing to a screen reader or
    to a colour-blind player."""
    if is_zap(code):
        # Translators: the word printed on each player's Zap card, shown on its button.
        return "⚡ " + T.pgettext("card", "ZAP")
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
    return table.name(seat) if seat is not None else T.pgettext("seat", "nobody")


def action_name(action: str) -> str:
    """A player-readable name for an action ("play the red 4 and Zap"), in the language being drawn."""
    fixed = {
        "Z": T.pgettext("action", "Zap"),
        "stall": T.pgettext("action", "call a stall"),
        "idle": T.pgettext("action", "play for the idle leader"),
        "deal": T.pgettext("action", "deal the next round"),
    }
    if action in fixed:
        return fixed[action]
    try:
        card, zap = parse_play(action)
    except IllegalAction:
        return action
    assert card is not None
    if zap:
        return T.pgettext("action", "play the {card} and Zap", card=card_name(card))
    return T.pgettext("action", "play the {card}", card=card_name(card))


def refusal_text(code: str, params: dict[str, Any]) -> str:
    """An engine refusal (rules/zipzap/state.py: a code and its card codes) in words."""
    card = card_name(params["card"]) if "card" in params else ""
    top = card_name(params["top"]) if "top" in params else ""
    if code == "does_not_follow":
        return _does_not_follow(params["card"], params["top"])
    texts = {
        "game_over": lambda: T.gettext("The game is over."),
        "round_in_play": lambda: T.gettext("The round is still being played; the next deal comes after it."),
        "round_over": lambda: T.gettext("The round is over: deal the next round first."),
        "referee_only": lambda: T.gettext("Only the referee calls a stall or plays for an idle leader."),
        "no_open_run": lambda: T.gettext("There is no open run to stall: a player has control."),
        "no_idle_leader": lambda: T.gettext("Nobody has control, so nobody is an idle leader."),
        "players_only": lambda: T.gettext("Only a player can play a card."),
        "no_such_seat": lambda: T.gettext("That seat is not at this table."),
        "beaten_to_control": lambda: T.gettext(
            "Another player got the {top} down first and has control now.", top=top
        ),
        "not_in_control": lambda: T.gettext(
            "Another player has control: only the player in control may lead now."
        ),
        "card_not_held": lambda: T.gettext("You don't hold the {card}.", card=card),
        "beaten_to_it": lambda: T.gettext(
            "Another player got the {top} down first, and the {card} doesn't follow it.", top=top, card=card
        ),
        "zap_used": lambda: T.gettext("You have already used your Zap this round."),
        "no_zap": lambda: T.gettext("You don't hold your Zap card."),
        "zap_not_a_lead": lambda: T.gettext(
            "You lead now, but the top card is not a number card of yours: lead a card (with "
            "Play and Zap if you like), or lead your Zap as your last card."
        ),
        "zap_too_late": lambda: T.gettext(
            "You can only Zap right after your own number card, while it is still on top."
        ),
        # Translators: 'Z' and 'R4+Z' are the game's notation for actions; keep them as they are.
        "zap_notation": lambda: T.gettext(
            "Write your Zap as 'Z' (or 'R4+Z' to play a card and Zap at once)."
        ),
        "not_an_action": lambda: T.gettext(
            "'{action}' is not a Zip Zap action: play a card such as 'R4', 'R4+Z' or 'Z'.",
            action=params.get("action", ""),
        ),
    }
    make = texts.get(code)
    return make() if make is not None else code


def _does_not_follow(code: str, top_code: str) -> str:
    """Why a card does not follow the top card, and what would."""
    card, top = card_name(code), card_name(top_code)
    n = number_of(top_code)
    if n >= MAX_NUMBER:
        return T.gettext(
            "The {card} doesn't follow the {top} on top: nothing follows a 10.", card=card, top=top
        )
    if suit_of(top_code) == WILD:
        return T.gettext(
            "The {card} doesn't follow the {top} on top: any {number} follows a {top}.",
            card=card,
            top=top,
            number=n + 1,
        )
    return T.gettext(
        "The {card} doesn't follow the {top} on top: only the {same} or the {wild} follows it.",
        card=card,
        top=top,
        same=card_name(f"{suit_of(top_code)}{n + 1}"),
        wild=card_name(f"{WILD}{n + 1}"),
    )


def _names_and(names: list[str]) -> str:
    """ "alice", "alice and bob", "alice, bob and carol"."""
    if len(names) == 1:
        return names[0]
    # Translators: the last two names of a list of winners ("alice, bob and carol").
    return T.pgettext(
        "names", "{names} and {last}", names=T.pgettext("names", ", ").join(names[:-1]), last=names[-1]
    )


def result_summary(table: Table, winners: list[int], how: str, points: int) -> str:
    """Who won and with how many points, by the game's scoring ("lowest_total" or "most_rounds")."""
    if len(winners) == 1:
        name = table.name(winners[0])
        if how == "most_rounds":
            return T.ngettext(
                "{name} wins with {n} point (most rounds won wins).",
                "{name} wins with {n} points (most rounds won wins).",
                points,
                name=name,
            )
        return T.ngettext(
            "{name} wins with {n} point (lowest total wins).",
            "{name} wins with {n} points (lowest total wins).",
            points,
            name=name,
        )
    names = _names_and([table.name(s) for s in winners])
    if how == "most_rounds":
        return T.ngettext(
            "{names} share the win with {n} point each (most rounds won wins).",
            "{names} share the win with {n} points each (most rounds won wins).",
            points,
            names=names,
        )
    return T.ngettext(
        "{names} share the win with {n} point each (lowest total wins).",
        "{names} share the win with {n} points each (lowest total wins).",
        points,
        names=names,
    )


def _deal_line(data: dict[str, Any], rounds: int) -> str:
    # The hands' sizes without the Zap card (a fixed deal may give different sizes).
    sizes = sorted({count - 1 for count in data["hand_counts"]})
    if len(sizes) == 1:
        return T.ngettext(
            "Round {round} of {rounds} is dealt: {n} card and a Zap card each.",
            "Round {round} of {rounds} is dealt: {n} cards and a Zap card each.",
            sizes[0],
            round=data["round"],
            rounds=rounds,
        )
    shown = str(sizes[0])
    for size in sizes[1:]:
        # Translators: hand sizes that differ, "11 or 12" (cards each).
        shown = T.pgettext("sizes", "{sizes} or {size}", sizes=shown, size=size)
    return T.gettext(
        "Round {round} of {rounds} is dealt: {sizes} cards and a Zap card each.",
        round=data["round"],
        rounds=rounds,
        sizes=shown,
    )


def _control_line(table: Table, seat: int | None, data: dict[str, Any]) -> str:
    name = table.name(seat)
    reason, card = data.get("reason"), data.get("card")
    if reason == "first_player":
        if data.get("flipped", True):
            return T.gettext(
                "**{name}** leads: the deck is empty and nobody could follow the flipped cards.", name=name
            )
        return T.gettext("**{name}** leads: there is no deck to flip from.", name=name)
    if reason == "ten":
        return T.gettext("**{name}** has control after the 10 and leads any card.", name=name)
    if reason == "zap":
        return T.gettext("**{name}** has control after the Zap and leads any card.", name=name)
    if reason == "stall" and card is not None:
        return T.gettext(
            "**{name}** has control after the stall: their {card} is on top.", name=name, card=card_name(card)
        )
    if reason == "blocked" and card is not None:
        return T.gettext(
            "**{name}** has control: nobody can follow the {card}, so they lead any card.",
            name=name,
            card=card_name(card),
        )
    # Stored before events held their card.
    return T.gettext("**{name}** has control and leads any card.", name=name)


class ZipZapUI:
    key = GAME.key

    def options_lines(self, table: Table) -> list[str]:
        options = table.options
        if options.scoring == "cards":
            scoring = T.pgettext("scoring", "cards left (lowest wins)")
        else:
            scoring = T.pgettext("scoring", "first out (most wins)")
        rounds = options.rounds or T.pgettext("rounds", "one per player (two with 2–3 players)")
        speed_help = SPEED_HELP.get(table.speed)
        return [
            T.gettext("Scoring: {scoring}", scoring=scoring),
            T.gettext("Rounds: {rounds}", rounds=rounds),
            T.gettext(
                "Speed: {speed} — {help}",
                speed=speed_name(table.speed),
                help=T.gettext(speed_help) if speed_help else "",
            ),
        ]

    def refusal(self, table: Table, error: IllegalAction) -> str:
        """An engine refusal in the words of the language being drawn."""
        return refusal_text(error.code, error.params)

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
        # The word under the top card is made here, in the table's language (the drawing runs elsewhere).
        top_word = zipzap_cards.top_word()
        draw = partial(zipzap_cards.table_png, view, top_word)
        key = ("zipzap-pile", tuple(pile), top_word)
        return [Sketch("zipzap-pile.png", key, draw, zipzap_cards.table_alt(view))]

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
        if over:
            title = T.gettext(
                "Zip Zap — round {round} of {rounds} — game over", round=view["round"], rounds=view["rounds"]
            )
        else:
            title = T.gettext(
                "Zip Zap — round {round} of {rounds}", round=view["round"], rounds=view["rounds"]
            )
        embed = discord.Embed(
            title=title, colour=discord.Colour.gold() if not over else discord.Colour.dark_grey()
        )
        top = view["top"]
        if over:
            # The result itself is the Latest's last line ("The game is over. alice wins…", the
            # game_over event): said here too, a finished table read it twice (issue 33). Here
            # only what that line does not say: who went out, and when.
            last = view["went_out"]
            if last is not None:
                embed.description = T.gettext(
                    "**{name}** went out in the final round.", name=table.name(last)
                )
        elif view["phase"] == "between_rounds":
            embed.description = T.gettext(
                "Round over. The next round is dealt shortly (or press **Next round**)."
            )
        elif top is None:
            embed.description = T.gettext("Waiting for the first card.")
        else:
            if view["top_seat"] is not None:
                description = T.gettext(
                    "Top card: **{card}** (from {name})",
                    card=card_text(top),
                    name=table.name(view["top_seat"]),
                )
            else:
                description = T.gettext("Top card: **{card}** (from the deck)", card=card_text(top))
            if view["control"] is not None:
                leads = T.gettext(
                    "**{name}** has control and leads any card.", name=table.name(view["control"])
                )
            else:
                leads = T.gettext("First valid card wins — open your hand with **My hand**.")
            embed.description = f"{description}\n{leads}"
        lines = []
        for seat in table.seats:
            i = seat.seat
            # Each emoji with its words: alone, 🎯 or ⚡ tells a screen reader nothing of control or the Zap.
            marker = "🎯 " + T.pgettext("players", "control") + " · " if view["control"] == i else ""
            who = seat.name + (" 🤖 " + T.pgettext("players", "(computer)") if seat.is_computer else "")
            # A finished game has no Zap left to use: "Zap ready" there read as a loose end.
            zap = "" if over or view["zap_used"][i] else " · ⚡ " + T.pgettext("players", "Zap ready")
            cards = T.ngettext("{n} card", "{n} cards", view["hand_counts"][i])
            points = T.ngettext("{n} point", "{n} points", view["scores"][i])
            lines.append(f"{marker}**{who}** — {cards} · {points}{zap}")
        embed.add_field(name=T.gettext("Players (cards left · score)"), value="\n".join(lines), inline=False)
        out = join([zipzap_cards.suit_name(s) for s in view["out_of_game"]], style="unit") or T.pgettext(
            "suits", "none"
        )
        embed.set_footer(
            text=T.gettext("Deck: {deck} · suits out of the game: {out}", deck=view["deck_count"], out=out)
        )
        return embed

    def waiting_on(self, table: Table) -> list[int] | None:
        """`/table status`: whoever has control leads; otherwise anyone may play."""
        control = _state(table).view(None)["control"]
        return [control] if control is not None else None

    def waiting_text(self, table: Table) -> str | None:
        if _state(table).view(None)["phase"] == "between_rounds":
            return T.gettext("anyone may press **Next round**; otherwise it is dealt shortly")
        return None

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        if _state(table).view(None)["phase"] == "between_rounds":
            label = T.pgettext("button", "Next round")
            return [TableButton(table.id, "act", "deal", label=label, emoji="▶️", row=1)]
        return []

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        """The seat's hand, shown once: the picture (``panel_sketches``, the playable cards
        marked, the hand in words in its alt text), one status line, and controls only for what
        can be done now (issue 33: one phone screen)."""
        state = _state(table)
        view = state.view(seat)
        legal = set(state.legal_actions(seat))
        hand: list[str] = view["hand"]
        title = T.ngettext("Your hand — {n} card", "Your hand — {n} cards", len(hand))
        embed = discord.Embed(title=title, colour=discord.Colour.green())
        top = view["top"]
        lines = []
        if view["phase"] == "between_rounds":
            lines.append(T.gettext("The round is over; the next one is dealt shortly."))
        elif view["control"] == seat:
            lines.append(T.gettext("**You have control: lead any card.**"))
        elif top is not None:
            status = T.gettext("Top card: **{card}**", card=card_text(top))
            if view["control"] is not None:
                status += " · " + T.gettext("{name} has control.", name=table.name(view["control"]))
            lines.append(status)
        if note:
            lines.append(f"⚠️ {note}")
        embed.description = "\n".join(lines) or None
        footer = T.ngettext(
            "Round {round}/{rounds} · your score {n} point",
            "Round {round}/{rounds} · your score {n} points",
            view["scores"][seat],
            round=view["round"],
            rounds=view["rounds"],
        )
        embed.set_footer(text=footer)
        items = self._moves(table, hand, legal, leading=view["control"] == seat)
        refresh = T.pgettext("button", "Refresh")
        items.append(ActionButton(table.id, table.version, "refresh", label=refresh, emoji="🔄"))
        return embed, items

    def _moves(
        self, table: Table, hand: list[str], legal: set[str], *, leading: bool
    ) -> list[discord.ui.Item[Any]]:
        """A control for each move open now, in as few rows as they fill (none for an unplayable
        card: the picture shows it hatched). Following is a race, so every playable card is one
        tap away, its Play-and-Zap beside it and a lone ZAP first. Leading is not (nobody else
        may play until the leader has): a hand of more leads than one row of buttons holds is
        one select, which keeps the panel within a phone's screen."""
        v = table.version
        items: list[discord.ui.Item[Any]] = []
        cards = [c for c in hand if not is_zap(c) and c in legal]
        select = leading and len(cards) > LEAD_BUTTONS
        if select:
            options = [
                discord.SelectOption(label=card_name(c), value=c, emoji=SUIT_EMOJI[c[0]]) for c in cards
            ]
            # Translators: the placeholder of the list of cards to lead, when the player has control.
            placeholder = T.pgettext("select", "Lead a card…")
            # First: the move to make; a ZAP and Refresh under it.
            items.append(ActionSelect(table.id, v, "", options, placeholder=placeholder, row=0))
        if "Z" in legal:
            zap = next((c for c in hand if is_zap(c)), "Z")
            style = discord.ButtonStyle.danger
            items.append(
                ActionButton(table.id, v, "Z", label=card_label(zap), style=style, row=1 if select else None)
            )
        if select:
            return items
        for card in cards:
            style = discord.ButtonStyle.success
            items.append(ActionButton(table.id, v, card, label=card_label(card), style=style))
            if not leading and f"{card}+Z" in legal:
                items.append(
                    ActionButton(
                        table.id,
                        v,
                        f"{card}+Z",
                        # Translators: a button that plays the card and the player's Zap card at once.
                        label=T.pgettext("button", "{card} + ZAP!", card=card_label(card)),
                        style=discord.ButtonStyle.danger,
                    )
                )
        return items

    def event_line(self, table: Table, event: Event) -> str:
        """An engine event (rules/zipzap/state.py: its kind, seat and card codes) in words, with the
        seats' names as they are now."""
        data, seat = event.data, event.seat
        kind = event.kind
        if kind == "play":
            card = card_name(data["card"])
            if data.get("lead"):
                return T.gettext("**{name}** led the {card}.", name=table.name(seat), card=card)
            return T.gettext("**{name}** played the {card}.", name=table.name(seat), card=card)
        if kind == "control":
            return _control_line(table, seat, data)
        if kind == "zap":
            # Translators: ZAP! is what a player calls out when playing their Zap card.
            return T.gettext("**{name}** played their Zap card: ZAP!", name=table.name(seat))
        if kind == "flip":
            return T.gettext("The {card} is flipped from the deck.", card=card_name(data["card"]))
        if kind == "stall":
            if data.get("flipped"):
                return T.gettext("Nobody played on the flipped card: the next card is flipped.")
            return T.gettext("The run stalled: nobody played in time.")
        if kind == "idle_play":
            return T.gettext(
                "**{name}** was idle in control, so the referee plays their lowest card: the {card}.",
                name=table.name(seat),
                card=card_name(data["card"]),
            )
        if kind == "deal":
            return _deal_line(data, data.get("rounds") or _state(table).total_rounds)
        if kind == "round_over":
            # Translators: "Zip Zap!" is what a player calls out when their last card goes down.
            return T.gettext(
                "**{name}** played their last card: Zip Zap! Round {round} of {rounds} is over.",
                name=table.name(seat),
                round=data["round"],
                rounds=data.get("rounds") or _state(table).total_rounds,
            )
        if kind == "game_over":
            scores, winners = data["scores"], data["winners"]
            how = data.get("how") or ("lowest_total" if table.options.scoring == "cards" else "most_rounds")
            points = data.get("points", scores[winners[0]])
            summary = result_summary(table, winners, how, points)
            return T.gettext("The game is over. {summary}", summary=summary)
        return kind

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        view = _state(table).view(None)
        points = view["last_round_points"] or [0] * len(table.seats)
        went_out = view["went_out"]
        embed = discord.Embed(
            title=T.gettext("Round {round} over", round=event.data.get("round", view["round"])),
            description=T.gettext("**{name}** went out — Zip Zap!", name=_seat_name(table, went_out)),
            colour=discord.Colour.orange(),
        )
        embed.add_field(
            name=T.gettext("This round · total"),
            value="\n".join(f"{s.name}: +{points[s.seat]} · {view['scores'][s.seat]}" for s in table.seats),
        )
        return embed

    def final_embed(self, table: Table) -> discord.Embed:
        assert table.state is not None
        result = table.state.result()
        assert result is not None
        embed = discord.Embed(title=T.gettext("Zip Zap — final results"), colour=discord.Colour.gold())
        lines = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            medal = {1: "🏆", 2: "🥈", 3: "🥉"}.get(p.place, f"{p.place}.")
            points = T.ngettext("{n} point", "{n} points", p.points)
            lines.append(f"{medal} **{table.name(p.seat)}** — {points}")
        embed.description = "\n".join(lines)
        winners = join([table.plain_name(s) for s in result.winners], style="unit")
        footer = T.ngettext(
            "Winner: {winners}. Results are on /leaderboard. Rematch below.",
            "Winner: {winners}. Results are on /leaderboard. Rematch below.",
            len(result.winners),
            winners=winners,
        )
        embed.set_footer(text=footer)
        return embed


class ZipZapCog(commands.Cog):
    zipzap = app_commands.Group(
        # Translators: a slash command's name: lowercase letters, no spaces.
        name=locale_str("zipzap"),
        description=locale_str("Zip Zap: the real-time shedding card game"),
        guild_only=True,
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        bot.referee.register(ZipZapUI())

    @zipzap.command(
        # Translators: a slash command's name: lowercase letters, no spaces.
        name=locale_str("new"),
        description=locale_str("Open a Zip Zap table in this channel"),
    )
    # Translators: a slash command option's name: lowercase letters, digits, - or _, no spaces.
    @app_commands.rename(
        seats=locale_str("seats"),
        scoring=locale_str("scoring"),
        speed=locale_str("speed"),
        thread=locale_str("thread"),
        rounds=locale_str("rounds"),
    )
    @app_commands.describe(
        seats=locale_str("How many seats (2–6)"),
        # Translators: cards and first_out are the choices' names: write them as translated there.
        scoring=locale_str("cards: fewest points wins; first_out: a point for going out first"),
        # Translators: off, relaxed and fast are the choices' names: write them as translated there.
        speed=locale_str("Timers: off, relaxed or fast"),
        thread=locale_str("Play in a new thread"),
        rounds=locale_str("How many rounds (default: one per player, doubled with 2 or 3 players)"),
        language=LANGUAGE_OPTION,
    )
    @app_commands.choices(
        scoring=[
            # Translators: a choice of /zipzap new's scoring: fewest points wins.
            app_commands.Choice(name=locale_str("cards", context="scoring"), value="cards"),
            # Translators: a choice of /zipzap new's scoring: a point for going out first.
            app_commands.Choice(name=locale_str("first_out", context="scoring"), value="first_out"),
        ],
        speed=SPEED_CHOICES,
        language=LANGUAGE_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 6] = 4,
        scoring: str = "cards",
        speed: str = "relaxed",
        thread: bool = False,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        language: str | None = None,
    ) -> None:
        await open_table_command(
            interaction,
            GAME.key,
            seats=seats,
            speed=speed,
            rules={"scoring": scoring, "rounds": rounds},
            thread=thread,
            language=language,
        )

    @zipzap.command(
        # Translators: a slash command's name: lowercase letters, no spaces.
        name=locale_str("rules"),
        description=locale_str("How to play Zip Zap, and the house rulings in force"),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(ZipZapCog(bot))
