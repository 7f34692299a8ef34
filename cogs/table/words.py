"""Engine texts name seats ("seat 3", "seats 1 and 3"); people want names. One substitution for
every game cog, beside the plural and article helpers the engines share (rules/words.py)."""

from __future__ import annotations

import re

from cogs.table.model import Table
from rules.words import article, plural, signed, with_article

__all__ = ["article", "plural", "seat_names", "signed", "with_article"]

# "seats 1 and 3" (a team) or "seat 2", in one pass: a name put in is never read again (a name is
# input, and someone may call themselves "seat 2").
SEAT_WORDS = re.compile(r"\b[Ss]eats (\d+)(?: and | & )(\d+)\b|\b[Ss]eat (\d+)\b")


def seat_names(table: Table, text: str, *, plain: bool = False) -> str:
    """ "Seat 2 wins" -> "bob wins"; "seats 1 and 3" (a team) -> "alice & carol". Names as in
    markdown (escaped), or ``plain`` for labels and footers (see SeatInfo.name)."""
    name = table.plain_name if plain else table.name

    def one(number: str) -> str:
        seat = int(number) - 1
        return name(seat) if 0 <= seat < len(table.seats) else f"seat {number}"

    def sub(m: re.Match[str]) -> str:
        return one(m.group(3)) if m.group(3) else f"{one(m.group(1))} & {one(m.group(2))}"

    return SEAT_WORDS.sub(sub, text)
