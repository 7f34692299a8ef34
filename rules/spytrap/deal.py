"""A fixed deal: the starting position a scenario or a tutorial gives instead of a shuffle.

Its format is in FORMATS.md (beside this file); ``SpyTrapState`` deals it, this module checks it.
"""

from __future__ import annotations

from rules.base import JSON
from rules.spytrap.cards import ALL_CARDS, COUNTRIES, HAND_SIZE, is_file


def validate_deal(players: int, deal: JSON) -> None:
    """Check a fixed deal (FORMATS.md); ValueError with the problem."""
    try:
        identities = list(deal["identities"])
        hands = [list(h) for h in deal["hands"]]
        deck = list(deal["deck"])
    except (KeyError, TypeError) as exc:
        raise ValueError("A deal needs 'identities', 'hands' (one list per seat) and 'deck'.") from exc
    if len(identities) != players or len(hands) != players:
        raise ValueError(f"The deal needs one identity and one hand for each of the {players} players.")
    for country in identities:
        if country not in COUNTRIES:
            raise ValueError(f"{country!r} is not a country: choose from {', '.join(COUNTRIES)}.")
    if len(set(identities)) != len(identities):
        raise ValueError("Two players cannot share an identity.")
    for hand in hands:
        if len(hand) > HAND_SIZE:
            raise ValueError(f"A hand holds at most {HAND_SIZE} cards.")
    home = deal.get("home", [[]] * players)
    if len(home) != players:
        raise ValueError("'home' needs one list per seat.")
    home_cards: list[str] = []
    for area in home:
        for entry in area:
            if (
                not isinstance(entry, list | tuple)
                or len(entry) != 2
                or entry[1] not in ("opponent", "own", "stolen")
            ):
                raise ValueError("A home entry is [card, from] with from 'opponent', 'own' or 'stolen'.")
            if not is_file(str(entry[0])):
                raise ValueError(f"Only File cards lie in a home area, not {entry[0]!r}.")
            home_cards.append(entry[0])
    immunity = deal.get("immunity", [True] * players)
    if len(immunity) != players:
        raise ValueError("'immunity' needs one true/false per seat.")
    opener = deal.get("opener", 0)
    if isinstance(opener, bool) or not isinstance(opener, int) or not 0 <= opener < players:
        raise ValueError("'opener' must be a seat at the table.")
    cards = [c for h in hands for c in h] + deck + list(deal.get("used", [])) + home_cards
    missing = sorted(ALL_CARDS - set(cards), key=lambda c: c)
    unknown = sorted({c for c in cards if c not in ALL_CARDS})
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if missing or unknown or twice:
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if unknown:
            problems.append(f"not Spy Trap cards {', '.join(unknown)}")  # text: a scenario file's error (CLI)
        if twice:
            problems.append(f"dealt twice {', '.join(twice)}")  # text: a scenario file's error (CLI)
        raise ValueError("The deal must hold every card exactly once: " + "; ".join(problems) + ".")
