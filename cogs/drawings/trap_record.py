"""Trap in words: the move notation a keyboard player types, the text board a panel shows, and
the game's move record (History, the results and the .txt at the end).

Pure helpers over Trap's typed view and events; the cog (cogs/trap.py) draws with them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cogs.table.model import Table
from rules.base import Event
from rules.trap import COLUMNS, TrapView

# What `/trap move` accepts once tidied: a point (a drop) or two points (an arrow or a move).
MOVE_TEXT = re.compile(r"[a-f][1-9](>[a-f][1-9])?")
# How engine texts name a player: by colour ("Red (A)") or seat ("seat 2"). One pass over the text,
# so a name put in (a name is input: someone may call themselves "Blue (B)") is never read again.
PLAYER_WORD = re.compile(r"\b(?:(Red) \(A\)|(Blue) \(B\)|[Ss]eat (\d+)\b)")
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


def count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def row_of(point: str) -> int:
    return int(point[1:])


def colour(seat: int) -> str:
    return ("red", "blue")[seat]


def who(table: Table, seat: int) -> str:
    """'**alice** (red, A)': names first, because people know each other by name."""
    return f"**{table.name(seat)}** ({colour(seat)}, {'AB'[seat]})"


def with_names(table: Table, text: str) -> str:
    """Engine texts say "Red (A)" (and, in general, "seat N"); people want names."""

    def name(match: re.Match[str]) -> str:
        if match.group(1) or match.group(2):
            return who(table, 0 if match.group(1) else 1)
        seat = int(match.group(3)) - 1
        return table.name(seat) if 0 <= seat < len(table.seats) else match.group(0)

    return PLAYER_WORD.sub(name, text)


def turn_of(view: TrapView) -> tuple[Any, ...]:
    """Which turn a view shows: changes with every accepted action."""
    return (view["phase"], view["to_move"], tuple(view["pawns_to_drop"]), view["arrows_to_drop"], view["ply"])


def text_board(view: TrapView) -> str:
    """The whole position as monospace text for the panel (an ephemeral panel carries no image):
    r/R red pawn/King, b/B blue pawn/King, · empty; arrows →←↑↓ between points."""
    size = int(view["size"])
    pieces = {
        p["point"]: ("rb"[p["owner"]].upper() if p["king"] else "rb"[p["owner"]]) for p in view["pawns"]
    }
    heads: dict[frozenset[str], str] = {}
    for arrow in view["arrows"]:
        tail, tip = arrow.split(">")
        heads[frozenset((tail, tip))] = tip
    rows = ["   " + "   ".join(COLUMNS[:size])]
    for r in range(size, 0, -1):
        line = f"{r}  "
        for c in range(size):
            point = f"{COLUMNS[c]}{r}"
            line += pieces.get(point, "·")
            if c + 1 < size:
                right = f"{COLUMNS[c + 1]}{r}"
                head = heads.get(frozenset((point, right)))
                line += " " + ("-" if head is None else "→" if head == right else "←") + " "
        rows.append(line.rstrip())
        if r > 1:
            under = "   "
            for c in range(size):
                point, below = f"{COLUMNS[c]}{r}", f"{COLUMNS[c]}{r - 1}"
                head = heads.get(frozenset((point, below)))
                under += ("|" if head is None else "↓" if head == below else "↑") + "   "
            rows.append(under.rstrip())
    return "\n".join(rows)


def panel_legend(variant: str) -> str:
    """The key under the panel's text board; Kings only where the game has them."""
    if variant == "king":
        return "r/R red pawn/King · b/B blue pawn/King · arrows point the way a pawn may go"
    return "r red pawn · b blue pawn · arrows point the way a pawn may go"


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
        """'1. c3 d4 2. a1 b2 …': two entries per number, since the players alternate; from the
        entry ``start`` on (an even one, so each number keeps its pair)."""
        parts = []
        for i, entry in enumerate(entries):
            if i >= start:
                parts.append(f"{i // 2 + 1}. {entry}" if i % 2 == 0 else entry)
        return " ".join(parts)

    def text(self, *, markdown: bool = True) -> str:
        """The whole game in the notation: for History (Discord markdown) and for the .txt at
        the end (``markdown=False``)."""

        def listed(entries: list[str]) -> str:
            text = self.numbered(entries)
            return text.replace("*", "\\*") if markdown else text  # a referee's move, not italics

        bold = "**" if markdown else ""
        pawns = listed(self.drops) or "—"
        if self.quick_arrows:
            arrows = "quick setup: every line got a random arrow"
        else:
            arrows = listed(self.arrows) or "—"
        moves = listed(self.moves) or "no moves"
        lines = [
            f"{bold}Piece Drop{bold} (A first): {pawns}",
            f"{bold}Arrow Drop{bold} (B first): {arrows}",
            f"{bold}Main play{bold} (B first): {moves}",
            NOTATION_KEY if markdown else "×: captured · *: played by the referee when time ran out",
        ]
        if not self.complete:
            missed = "(the start of this game was not recorded)"
            lines.insert(0, f"*{missed}*" if markdown else missed)
        return "\n".join(lines)

    def summary(self) -> str:
        """A few lines for the results: how long each phase was and the last moves."""
        arrows = "quick setup" if self.quick_arrows else count(len(self.arrows), "arrow")
        lines = [
            f"Piece Drop: {count(len(self.drops), 'pawn')} · Arrow Drop: {arrows} · "
            f"Main play: {count(len(self.moves), 'move')}"
        ]
        if self.moves:
            first = max(0, len(self.moves) - RESULT_MOVES)
            first -= first % 2
            tail = self.numbered(self.moves, first).replace("*", "\\*")
            lines.append(("The last moves: … " if first else "The moves: ") + tail)
        if not self.complete:
            lines.append("*(the start of this game was not recorded)*")
        return "\n".join(lines)


NOTATION_KEY = "*×: captured · \\*: played by the referee when time ran out*"
