"""The lobby: who sits where before a game starts, and how it is drawn.

``Lobby`` changes only a draft of the table (the referee commits it, then adopts it) and draws the
lobby message. It makes no Discord calls and never touches the database, so a Join whose save fails
seats nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from cogs.table.buttons import LobbySelect, TableButton
from cogs.table.common import Refusal
from cogs.table.model import SeatInfo, Table
from cogs.table.notes import Note, level_name, note, worded
from cogs.texts import LANGUAGES, SOURCE, Texts
from db.ratings import computer_rating

T = Texts(__name__)

SPEEDS = ("off", "relaxed", "fast")


@dataclass(frozen=True)
class Clicker:
    """Who pressed a lobby button, as the lobby needs to know them (``name`` as they chose it)."""

    user_id: int
    name: str
    manager: bool


@dataclass(frozen=True)
class LobbyEdit:
    """What a lobby button did to the draft: notes for the lobby's footer (data, worded when
    shown: ``notes.worded``), or the table is to be started or cancelled (which the referee does
    through its own path)."""

    note: tuple[Note, ...] = ()
    start: bool = False
    cancel: bool = False


class Lobby:
    def __init__(self, uis: dict[str, Any]) -> None:
        self.uis = uis

    # --- changes (on a draft) --------------------------------------------------------------

    def edit(self, draft: Table, who: Clicker, verb: str, arg: str | None) -> LobbyEdit:
        if verb == "join":
            if draft.seat_of(who.user_id) is not None:
                raise Refusal(T.gettext("You're already seated at this table."))
            if len(draft.seats) >= draft.max_seats:
                raise Refusal(T.gettext("This table is full."))
            draft.seats.append(SeatInfo(len(draft.seats), who.user_id, who.name))
            return LobbyEdit((note("joined", name=who.name),))
        if verb == "leave":
            return LobbyEdit(self.leave(draft, who))
        if verb == "cpu":
            require_host(draft, who, T.gettext("add computer players"))
            if arg not in draft.game.computer_levels:
                raise Refusal(T.gettext("There's no computer player of that level."))
            if len(draft.seats) >= draft.max_seats:
                raise Refusal(T.gettext("This table is full."))
            number = sum(1 for s in draft.seats if s.is_computer) + 1
            # Stored in the source's words and worded when shown (model.computer_name).
            robo = f"Robo {number} ({arg})"  # text: data, worded by SeatInfo.plain_name
            draft.seats.append(SeatInfo(len(draft.seats), None, robo, computer_level=arg))
            return LobbyEdit((note("computer_sat", level=arg),))
        if verb == "swap":
            require_host(draft, who, T.gettext("arrange the seats"))
            if arg is None or not arg.isdigit() or int(arg) + 1 >= len(draft.seats):
                raise Refusal(T.gettext("Those seats can't be swapped."))
            i = int(arg)
            draft.seats[i], draft.seats[i + 1] = draft.seats[i + 1], draft.seats[i]
            draft.renumbered()
            return LobbyEdit((note("swapped", first=i + 1, second=i + 2),))
        if verb == "cancel":
            require_host(draft, who, T.gettext("cancel the table"))
            draft.closed_note = note("cancelled_by", name=who.name)
            return LobbyEdit(cancel=True)
        if verb == "start":
            require_host(draft, who, T.gettext("start the game"))
            if len(draft.seats) < draft.game.min_players:
                raise Refusal(
                    T.ngettext(
                        "{game} needs at least {n} player.",
                        "{game} needs at least {n} players.",
                        draft.game.min_players,
                        game=draft.game.title,
                    )
                )
            return LobbyEdit(start=True)
        raise Refusal(T.gettext("That button doesn't belong to a lobby."))

    def leave(self, draft: Table, who: Clicker) -> tuple[Note, ...]:
        """Someone leaves the lobby; the host's powers pass on. Cancels it if nobody is left."""
        seat = draft.seat_of(who.user_id)
        if seat is None:
            raise Refusal(T.gettext("You're not seated at this table."))
        del draft.seats[seat]
        draft.renumbered()
        said = note("left", name=who.name)
        if not draft.humans():
            draft.status = "cancelled"
            draft.closed_note = note("lobby_emptied")
            return (said,)
        if (heir := draft.pass_host()) is not None:
            return said, note("new_host", name=heir.chosen_name, seat=heir.seat)
        return (said,)

    # --- drawing ---------------------------------------------------------------------------

    def embed(self, table: Table, notes: Sequence[Note] = ()) -> discord.Embed:
        ui = self.uis[table.game.key]
        embed = discord.Embed(
            title=T.gettext("{game} — table open", game=table.game.title),
            description=T.gettext(
                "Press **Join** to take a seat. The host presses **Start** when everyone is in."
            ),
            colour=discord.Colour.blurple(),
        )
        lines = []
        for s in table.seats:
            # The name once: a mention beside it reads "alice · @alice" in Discord. A computer's
            # name already says its level ("Robo 1 (casual)").
            tag = "🤖 " if s.is_computer else ""
            host = T.gettext(" — host") if s.user_id == table.host_id and not s.is_computer else ""
            lines.append(f"{s.seat + 1}. {tag}**{s.name}**{host}")
        for i in range(len(table.seats), table.max_seats):
            lines.append(T.gettext("{number}. *open seat*", number=i + 1))
        # A computer's rating never moves (db/ratings.py): said once per level seated, so a
        # person knows before the game what beating (or losing to) it is worth.
        levels = [s.computer_level for s in table.seats if s.is_computer and s.computer_level]
        for level in dict.fromkeys(levels):
            lines.append(
                "-# "
                + T.gettext(
                    "🤖 {level} computers play at a fixed rating of {rating}",
                    level=level_name(level),
                    rating=str(computer_rating(level)),
                )
            )
        embed.add_field(
            name=T.gettext("Seats ({taken}/{seats})", taken=len(table.seats), seats=table.max_seats),
            value="\n".join(lines),
            inline=False,
        )
        extra = getattr(ui, "lobby_lines", None)
        if extra is not None and (seating := extra(table)):
            embed.add_field(name=T.pgettext("lobby field", "Seating"), value="\n".join(seating), inline=False)
        options = list(ui.options_lines(table))
        if table.language != SOURCE:
            # The language everyone at the table reads, in its own name ("🌐 Español"). English
            # tables say nothing, as before there were languages.
            options.append(f"🌐 {LANGUAGES[table.language]}")
        embed.add_field(
            name=T.pgettext("lobby field", "Options"),
            value="\n".join(options) or "—",
            inline=False,
        )
        if notes:
            embed.set_footer(text=worded(notes))
        return embed

    def items(self, table: Table) -> list[discord.ui.Item[Any]]:
        full = len(table.seats) >= table.max_seats
        items: list[discord.ui.Item[Any]] = [
            TableButton(
                table.id,
                "join",
                label=T.pgettext("button", "Join"),
                style=discord.ButtonStyle.success,
                disabled=full,
                row=0,
            ),
            TableButton(table.id, "leave", label=T.pgettext("button", "Leave"), row=0),
            TableButton(
                table.id,
                "start",
                label=T.pgettext("button", "Start"),
                style=discord.ButtonStyle.primary,
                disabled=len(table.seats) < table.game.min_players,
                row=0,
            ),
            TableButton(
                table.id,
                "cancel",
                label=T.pgettext("button", "Cancel"),
                style=discord.ButtonStyle.danger,
                row=0,
            ),
        ]
        for level in table.game.computer_levels:
            items.append(
                TableButton(
                    table.id,
                    "cpu",
                    level,
                    label=T.pgettext("button", "Add computer: {level}", level=level_name(level)),
                    emoji="🤖",
                    disabled=full,
                    row=1,
                )
            )
        if len(table.seats) >= 2:
            # Seat order matters (partners sit opposite, signals go left): the host may swap
            # neighbours; adjacent swaps reach every arrangement.
            names = [s.plain_name for s in table.seats]
            options = [
                discord.SelectOption(
                    label=T.pgettext("select", "Swap seats {first} and {second}", first=i + 1, second=i + 2),
                    value=f"{i}",
                    description=f"{names[i]} ↔ {names[i + 1]}"[:100],
                )
                for i in range(len(names) - 1)
            ]
            items.append(
                LobbySelect(
                    table.id, "swap", options, placeholder=T.pgettext("select", "Arrange seats (host)"), row=2
                )
            )
        return items


def require_host(table: Table, who: Clicker, what: str) -> None:
    """The host, or a server manager. A host who left the table has passed their powers on."""
    if who.manager:
        return
    if who.user_id != table.host_id or table.seat_of(who.user_id) is None:
        raise Refusal(T.gettext("Only the host (or a server manager) can {what}.", what=what))
