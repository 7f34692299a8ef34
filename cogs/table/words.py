"""Engine texts name seats ("seat 3", "seats 1 and 3"); people want names. One substitution for
every game cog, beside the plural and article helpers the engines share (rules/words.py)."""

from __future__ import annotations

import re

from cogs.table.model import Table
from rules.words import article, plural, signed, with_article

__all__ = ["article", "plural", "seat_names", "signed", "with_article"]

SEAT_PAIR = re.compile(r"\b[Ss]eats (\d+)(?: and | & )(\d+)\b")
SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")


def seat_names(table: Table, text: str) -> str:
    """ "Seat 2 wins" -> "bob wins"; "seats 1 and 3" (a team) -> "alice & carol"."""

    def one(number: str) -> str:
        seat = int(number) - 1
        return table.name(seat) if 0 <= seat < len(table.seats) else f"seat {number}"

    text = SEAT_PAIR.sub(lambda m: f"{one(m.group(1))} & {one(m.group(2))}", text)
    return SEAT_WORD.sub(lambda m: one(m.group(1)), text)
