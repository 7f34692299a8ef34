"""Zip Zap's cards, hands and deals, and the action notation built on card codes.

Card codes: a suit letter and a number, "R1".."R10" for the solid suits red, green, blue and yellow,
"W1".."W10" for the wild suit, and "Z0".."Z5" for the Zap cards (seat s owns "Z{s}"). In actions the
Zap card is written "Z", and play-and-Zap is one action: "R4+Z".
"""

from __future__ import annotations

from functools import cache

from rules.base import JSON, Action, IllegalAction

SOLID_SUITS = ("R", "G", "B", "Y")
WILD = "W"
SUITS = (*SOLID_SUITS, WILD)
ZAP = "Z"
MAX_NUMBER = 10
ZAP_CARDS = 6
CARD_POINTS = {"solid": 1, "wild": 3, "zap": 5}


# ---------------------------------------------------------------------------------------------
# Cards


def is_zap(code: str) -> bool:
    return code.startswith(ZAP)


def suit_of(code: str) -> str:
    return code[0]


def number_of(code: str) -> int:
    """The card's number; a Zap card has none and counts as 0 so it never follows anything."""
    return 0 if is_zap(code) else int(code[1:])


def card_sort_key(code: str) -> tuple[int, int]:
    """Colour first (red, green, blue, yellow, wild), then number; Zap cards last."""
    if is_zap(code):
        return (len(SUITS), number_of_zap(code))
    return (SUITS.index(suit_of(code)), number_of(code))


def number_of_zap(code: str) -> int:
    return int(code[1:]) if len(code) > 1 else 0


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=card_sort_key)


def card_points(code: str) -> int:
    if is_zap(code):
        return CARD_POINTS["zap"]
    return CARD_POINTS["wild"] if suit_of(code) == WILD else CARD_POINTS["solid"]


def follows(card: str, top: str | None) -> bool:
    """Whether ``card`` may be played on ``top`` during a run."""
    if top is None or is_zap(card) or is_zap(top):
        return False
    n = number_of(top)
    if number_of(card) != n + 1:
        return False
    return suit_of(top) == WILD or suit_of(card) in (suit_of(top), WILD)


@cache
def followers(top: str | None) -> frozenset[str]:
    """Every card code that ``follows`` ``top``: at most five, so whether anyone can follow is
    a set test per hand rather than ``follows`` on every card held. That test runs after every
    card played, also when a table is rebuilt by replaying its log on loading (db/snapshots.py),
    where calling ``follows`` card by card was most of the replay's cost."""
    if top is None or is_zap(top) or number_of(top) >= MAX_NUMBER:
        return frozenset()
    n = number_of(top) + 1
    suits = SUITS if suit_of(top) == WILD else (suit_of(top), WILD)
    return frozenset(f"{s}{n}" for s in suits)


def idle_card(hand: list[str]) -> str:
    """The card the referee plays for an idle leader: lowest solid, else lowest wild, else the Zap."""
    solids = [c for c in hand if not is_zap(c) and suit_of(c) != WILD]
    if solids:
        return min(solids, key=lambda c: (number_of(c), card_sort_key(c)))
    wilds = [c for c in hand if not is_zap(c)]
    if wilds:
        return min(wilds, key=number_of)
    return hand[0]


def is_card_code(code: str) -> bool:
    if len(code) < 2 or code[0] not in SUITS or not code[1:].isdigit():
        return False
    return 1 <= int(code[1:]) <= MAX_NUMBER and str(int(code[1:])) == code[1:]


# ---------------------------------------------------------------------------------------------
# The deal


def all_number_cards(out_of_game: list[str]) -> list[str]:
    return [f"{s}{n}" for s in SUITS if s not in out_of_game for n in range(1, MAX_NUMBER + 1)]


def hand_size(players: int) -> int:
    if players <= 4:
        return 12
    return 9 if players == 5 else 8


def validate_deal(players: int, deal: JSON) -> list[str]:
    """Check a fixed deal holds every in-play card exactly once; returns the suits out of the game."""
    try:
        hands = deal["hands"]
        deck = deal["deck"]
    except (KeyError, TypeError) as exc:
        raise ValueError("A deal needs 'hands' (one list of card codes per seat) and 'deck'.") from exc
    out = list(deal.get("out_of_game", []))
    if len(hands) != players:
        raise ValueError(f"The deal has {len(hands)} hands for {players} players.")
    for suit in out:
        if suit not in SOLID_SUITS:
            raise ValueError(f"Only solid suits can be out of the game, not {suit!r}.")
    if len(set(out)) != len(out):
        raise ValueError("A suit is listed twice in out_of_game.")
    cards = [c for h in hands for c in h] + list(deck)
    for code in cards:
        if not is_card_code(code):
            raise ValueError(f"{code!r} is not a number card code (Zap cards are added automatically).")
    expected = all_number_cards(out)
    missing = sorted(set(expected) - set(cards), key=card_sort_key)
    extra = sorted(set(cards) - set(expected), key=card_sort_key)
    twice = sorted({c for c in cards if cards.count(c) > 1}, key=card_sort_key)
    if missing or extra or twice:
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if extra:
            problems.append(f"out of the game but dealt {', '.join(extra)}")  # text: a bad deal, for the CLI
        if twice:
            problems.append(f"dealt twice {', '.join(twice)}")  # text: a bad deal, for the CLI
        raise ValueError("The deal must hold every in-play card exactly once: " + "; ".join(problems) + ".")
    return [s for s in SOLID_SUITS if s in out]


# ---------------------------------------------------------------------------------------------
# Actions


def parse_play(action: Action) -> tuple[str | None, bool]:
    """ "R4" -> ("R4", False); "R4+Z" -> ("R4", True); "Z" -> (None, True)."""
    if action == "Z":
        return None, True
    card, plus, rest = action.partition("+")
    if is_card_code(card) and (not plus or rest == "Z"):
        return card, bool(plus)
    if is_zap(action):
        raise IllegalAction("zap_notation")  # a Zap card's own code ("Z3"): the Zap is written "Z"
    raise IllegalAction("not_an_action", action=action)
