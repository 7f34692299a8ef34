"""Zap or Trap's cards: the codes, their names, the deck's pieces and the set a hand counts.

Card codes (every copy has its own code, so the referee always knows which card moved):
- a single alien card is its species number and a copy letter: "3a" is the first species-3 card,
  "10d" the fourth species-10 card;
- a double card is "D" and the lower species of its ring pair: "D3" shows species 3 and 4, "D10"
  species 10 and 1 (with more than one copy per pair a copy letter follows: "D3a", "D3b");
- the special cards are "XZZ" (Zip Zap, Don't Come Back), "XBF" (Be Free!! Be Free!!) and "XDM"
  (Dangerous Mission), with a copy letter when the table plays more than one copy ("XDMa").
The "kemps" preset uses the same codes for 13 ranks (1 = ace … 13 = king) in four suits (a–d).
``best_set(hand)`` gives the set a hand counts. Cards have no names here: the game's cog names them
in the reader's language (cogs/drawings/zaptrap_words.py).
The secret-signal gestures (``GESTURES``) live here too: they are the game's other pieces.
"""

from __future__ import annotations

import re

from rules.zaptrap.views import SetView

TABLE_SIZE = 4
SET_SIZE = 4
FIVE_SET = 5

ZIP_ZAP = "XZZ"
BE_FREE = "XBF"
DANGEROUS_MISSION = "XDM"
SPECIALS = (ZIP_ZAP, BE_FREE, DANGEROUS_MISSION)
COPY_LETTERS = "abcdefgh"

GESTURES: dict[str, str] = {
    "think": "🤔",
    "wink": "😉",
    "yawn": "🥱",
    "shush": "🤫",
    "smirk": "😏",
    "cool": "😎",
    "eyeroll": "🙄",
    "sneeze": "🤧",
}

SINGLE_RE = re.compile(r"^(\d{1,2})([a-h])$")
DOUBLE_RE = re.compile(r"^D(\d{1,2})([a-h]?)$")
SPECIAL_RE = re.compile(r"^(XZZ|XBF|XDM)([a-h]?)$")


def special_kind(code: str) -> str | None:
    """ "XZZ", "XBF" or "XDM" for a special card (any copy), else None."""
    match = SPECIAL_RE.match(code)
    return match.group(1) if match else None


def species_shown(code: str, species_count: int) -> tuple[int, ...]:
    """The species a card shows: one for a single card, two for a double, none for a special."""
    if match := SINGLE_RE.match(code):
        return (int(match.group(1)),)
    if match := DOUBLE_RE.match(code):
        low = int(match.group(1))
        return (low, low % species_count + 1)
    return ()


def card_sort_key(code: str) -> tuple[int, int, str]:
    if match := SINGLE_RE.match(code):
        return (0, int(match.group(1)), code)
    if match := DOUBLE_RE.match(code):
        return (1, int(match.group(1)), code)
    return (2, SPECIALS.index(special_kind(code) or ZIP_ZAP), code)


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=card_sort_key)


def copy_codes(base: str, copies: int) -> list[str]:
    """One copy keeps the bare code ("D3", "XDM"); several get copy letters ("D3a", "D3b")."""
    if copies == 1:
        return [base]
    return [f"{base}{COPY_LETTERS[i]}" for i in range(copies)]


def best_set(hand: list[str], species_count: int) -> SetView | None:
    """The set this hand counts: the species shown by most of its cards (a double counts toward
    either of its species, once), if at least 4. A hand of up to 7 cards can hold only one set, so
    the best assignment is simply the best species; ties go to the lower species number."""
    showing: dict[int, list[str]] = {}
    for card in hand:
        for species in species_shown(card, species_count):
            showing.setdefault(species, []).append(card)
    if not showing:
        return None
    species = min(showing, key=lambda s: (-len(showing[s]), s))
    cards = showing[species]
    if len(cards) < SET_SIZE:
        return None
    return {"species": species, "count": len(cards), "cards": sort_hand(cards)}


def is_card_code(code: str) -> bool:
    return bool(SINGLE_RE.match(code) or DOUBLE_RE.match(code) or SPECIAL_RE.match(code))
