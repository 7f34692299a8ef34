"""Trap in words: the move notation a keyboard player types and the game's move record (History,
the results and the .txt at the end).

Pure helpers over Trap's typed view and events; the cog (cogs/trap.py) draws with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cogs.table.model import Table
from cogs.texts import Texts
from rules.base import Event
from rules.trap import LABELS, TrapView

T = Texts(__name__)

# What `/trap move` accepts once tidied: a point (a drop) or two points (an arrow or a move).
MOVE_TEXT = re.compile(r"[a-f][1-9](>[a-f][1-9])?")
# The results name only the last main-play moves; the whole list is a .txt on the final table
# message (and behind History while playing), so the results stay readable on a phone.
RESULT_MOVES = 12


def tidy_move(text: str) -> str:
    """'C3 - c4', 'c3→c4', 'c3 c4' → 'c3>c4'; anything else comes back tidied but unchanged."""
    move = text.strip().lower()
    for arrow in ("->", "→", "—", "–", "-", ">"):
        move = move.replace(arrow, ">")
    move = re.sub(r"\s*>\s*", ">", move)
    return re.sub(r"\s+", ">", move)


def row_of(point: str) -> int:
    return int(point[1:])


def colour(seat: int) -> str:
    """A seat's colour in words: seat 0 plays red (player A), seat 1 blue (player B)."""
    # Translators: the colour of player A's pawns (Trap), as in "you play red (A)".
    return T.pgettext("colour", "red") if seat == 0 else T.pgettext("colour", "blue")


def who(table: Table, seat: int) -> str:
    """'**alice** (red, A)': names first, because people know each other by name."""
    # Translators: a player, by name, then their colour and letter (A or B): "**alice** (red, A)".
    return T.gettext(
        "**{name}** ({colour}, {label})", name=table.name(seat), colour=colour(seat), label=LABELS[seat]
    )


def turn_of(view: TrapView) -> tuple[Any, ...]:
    """Which turn a view shows: changes with every accepted action."""
    return (view["phase"], view["to_move"], tuple(view["pawns_to_drop"]), view["arrows_to_drop"], view["ply"])


# --- the move list -----------------------------------------------------------------------------


@dataclass
class Record:
    """A game's moves in the notation, kept from the events because the engine's view holds only
    the last one. ``complete`` is False if the start was missed (then the list says so)."""

    drops: list[str] = field(default_factory=list)
    arrows: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    quick_arrows: bool = False
    complete: bool = True

    def add(self, events: list[Event]) -> None:
        for event in events:
            data = event.data
            star = "*" if data.get("auto") else ""
            if event.kind == "drop":
                self.drops.append(f"{data['point']}{'(K)' if data.get('king') else ''}{star}")
            elif event.kind == "arrow":
                self.arrows.append(f"{data['from']}>{data['to']}{star}")
            elif event.kind == "arrows_placed":
                self.quick_arrows = True
            elif event.kind == "move":
                self.moves.append(f"{data['from']}>{data['to']}{star}")
            elif event.kind == "capture" and self.moves:
                self.moves[-1] += f"×{data['point']}"

    @staticmethod
    def numbered(entries: list[str], start: int = 0) -> str:
        """'1. c3 2. d4 3. a1 …': each entry its own number, from the entry ``start`` on. One
        count for the game: "Main play: 175 moves" ends with "175.", where numbering pairs of
        moves ended it with "88." (issue 33)."""
        return " ".join(f"{i + 1}. {entry}" for i, entry in enumerate(entries) if i >= start)

    def text(self, *, markdown: bool = True) -> str:
        """The whole game in the notation: for History (Discord markdown) and for the .txt at
        the end (``markdown=False``)."""

        def listed(entries: list[str]) -> str:
            text = self.numbered(entries)
            return text.replace("*", "\\*") if markdown else text  # a referee's move, not italics

        bold = "**" if markdown else ""
        pawns = listed(self.drops) or "—"
        if self.quick_arrows:
            arrows = T.gettext("quick setup: every line got a random arrow")
        else:
            arrows = listed(self.arrows) or "—"
        moves = listed(self.moves) or T.gettext("no moves")
        lines = [
            # Translators: the {b} around a phase's name make it bold ("**Piece Drop**"), or are empty.
            T.gettext("{b}Piece Drop{b} (A first): {pawns}", b=bold, pawns=pawns),
            T.gettext("{b}Arrow Drop{b} (B first): {arrows}", b=bold, arrows=arrows),
            T.gettext("{b}Main play{b} (B first): {moves}", b=bold, moves=moves),
            notation_key()
            if markdown
            else T.gettext("×: captured · *: played by the referee when time ran out"),
        ]
        if not self.complete:
            missed = T.gettext("(the start of this game was not recorded)")
            lines.insert(0, f"*{missed}*" if markdown else missed)
        return "\n".join(lines)

    def summary(self) -> str:
        """A few lines for the results: how long each phase was and the last moves."""
        if self.quick_arrows:
            arrows = T.gettext("quick setup")
        else:
            arrows = T.ngettext("{n} arrow", "{n} arrows", len(self.arrows))
        lines = [
            T.gettext(
                "Piece Drop: {pawns} · Arrow Drop: {arrows} · Main play: {moves}",
                pawns=T.ngettext("{n} pawn", "{n} pawns", len(self.drops)),
                arrows=arrows,
                moves=T.ngettext("{n} move", "{n} moves", len(self.moves)),
            )
        ]
        if self.moves:
            first = max(0, len(self.moves) - RESULT_MOVES)
            tail = self.numbered(self.moves, first).replace("*", "\\*")
            if first:
                lines.append(T.gettext("The last moves: … {moves}", moves=tail))
            else:
                lines.append(T.gettext("The moves: {moves}", moves=tail))
        if not self.complete:
            lines.append("*" + T.gettext("(the start of this game was not recorded)") + "*")
        return "\n".join(lines)


def notation_key() -> str:
    """The key under the move list (Discord markdown: the referee's star escaped)."""
    return "*" + T.gettext("×: captured · \\*: played by the referee when time ran out") + "*"
