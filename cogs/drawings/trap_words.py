"""Trap's board in words: the alt text of the board picture (cogs/table/layout.py ``Picture``).

A screen reader gets what the picture shows, in Trap's own notation (rules/trap/FORMATS.md):
each colour's pawns by point (the King marked), every arrow as "tail>head", the last action, and
whose turn it is. Only the spectator view goes in, so the words hold nothing a spectator could
not see. Names are written plain: alt text is read out, never rendered as markdown.
"""

from __future__ import annotations

from rules.trap import TrapView

COLOURS = ("red (A)", "blue (B)")
PHASES = {
    "piece_drop": "to drop a pawn",
    "arrow_drop": "to drop an arrow",
    "main": "to move",
}


def board_alt(view: TrapView, names: list[str]) -> str:
    """The board position in Trap's notation and whose turn it is, for a screen reader."""
    size = view["size"]
    parts = [f"Trap board, {size} by {size}."]
    for seat in (0, 1):
        pawns = [p["point"] + (" King" if p["king"] else "") for p in view["pawns"] if p["owner"] == seat]
        listed = ", ".join(pawns) if pawns else "none"
        parts.append(f"{names[seat]}, {COLOURS[seat]}: {listed}.")
    if view["arrows"]:
        parts.append(f"Arrows: {' '.join(view['arrows'])}.")
    else:
        parts.append("No arrows yet.")
    last = view["last"]
    if last is not None:
        parts.append(f"Last: {COLOURS[last['seat']].split()[0]} {last['action']}.")
    if view["phase"] == "over":
        parts.append("Game over.")
    elif view["to_move"] is not None:
        seat = view["to_move"]
        parts.append(f"{names[seat]}, {COLOURS[seat]}, {PHASES.get(view['phase'], 'to play')}.")
    return " ".join(parts)
