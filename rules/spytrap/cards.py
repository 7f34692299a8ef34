"""Spy Trap's cards and identities: their codes, names and order, and the numbers of the game.

Cards have unique codes. File cards: "F" + a country code + a number from 1 to 12 ("FAM3" is American
File number 3; country codes AM American, FR French, GE German, IT Italian, RU Russian, SP Spanish).
Evil Agent cards "EA1".."EA13", Trap Is Sprung cards "TR1".."TR13". Identities are written as the
country's name ("French"); seats are 0-based. The cards' names in words are the cog's
(cogs/drawings/spytrap_cards.py), in the reader's language.
"""

from __future__ import annotations

from typing import Literal

COUNTRIES = ("American", "French", "German", "Italian", "Russian", "Spanish")
COUNTRY_CODES = {
    "AM": "American",
    "FR": "French",
    "GE": "German",
    "IT": "Italian",
    "RU": "Russian",
    "SP": "Spanish",
}
CODE_OF = {name: code for code, name in COUNTRY_CODES.items()}
FILES_PER_COUNTRY = 12
AGENTS = 13
TRAPS = 13
HAND_SIZE = 6
PILE_SIZE = 3
FILES_TO_WIN = 4

CardType = Literal["file", "agent", "trap"]


def all_cards() -> list[str]:
    files = [f"F{code}{n}" for code in COUNTRY_CODES for n in range(1, FILES_PER_COUNTRY + 1)]
    return files + [f"EA{n}" for n in range(1, AGENTS + 1)] + [f"TR{n}" for n in range(1, TRAPS + 1)]


ALL_CARDS = frozenset(all_cards())
_COUNTRY_OF = {card: COUNTRY_CODES[card[1:3]] for card in ALL_CARDS if card.startswith("F")}


def is_file(card: str) -> bool:
    return card.startswith("F")


def card_type(card: str) -> CardType:
    if is_file(card):
        return "file"
    return "agent" if card.startswith("EA") else "trap"


def country_of(card: str) -> str | None:
    return _COUNTRY_OF.get(card)


def file_country(card: str) -> str:
    """The country of a card known to be a File (one in a home area)."""
    return _COUNTRY_OF[card]


def card_sort_key(card: str) -> tuple[int, str, int]:
    kind = card_type(card)
    order = {"file": 0, "agent": 1, "trap": 2}[kind]
    prefix = card[:3] if kind == "file" else card[:2]
    return (order, prefix, int(card[len(prefix) :]))


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=card_sort_key)


def parse_country(text: str) -> str | None:
    for name in COUNTRIES:
        if text.lower() == name.lower():
            return name
    return None
