"""What the marks on the cards and panels mean, one line each, for the quick start's "What you see"
(``cogs/help.py``): Zip Zap's hatched cards, Zap or Trap's corner numbers, doubles and special
cards, Spy Trap's counting Files, GiftTRAP's tokens and strategy cards. A newcomer met these with
no word of explanation (issue 33); the full rules explain them too, but three screens away from
the card.

Each game's lines are written beside its other words (so they are in its catalog, in its terms)
and follow the table's options, so a table without special cards lists none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.drawings import zipzap_cards
from cogs.words import gifttrap as gifttrap_words
from cogs.words import spytrap as spytrap_words
from cogs.words import zaptrap as zaptrap_words

# The most a game's lines may take, on top of the quick start's own limit (cogs/help.py): with
# them a quick start still reads in about a minute on a phone. Zap or Trap's five lines: 420.
SYMBOLS_LIMIT = 450

SYMBOLS: dict[str, Callable[[Any], list[str]]] = {
    "zipzap": zipzap_cards.symbol_lines,
    "zaptrap": zaptrap_words.symbol_lines,
    "spytrap": spytrap_words.symbol_lines,
    "gifttrap": gifttrap_words.symbol_lines,
}


def symbol_lines(game: Any, options: Any) -> list[str]:
    """One line per mark this game's table (with these options) shows; none for a game whose
    pictures explain themselves (Trap's board has its own legend)."""
    write = SYMBOLS.get(game.key)
    return write(options) if write is not None else []


__all__ = ["SYMBOLS", "SYMBOLS_LIMIT", "symbol_lines"]
