"""Zap or Trap: a team card game of secret signals, a themed Kemps (RULINGS.md §1).

The package, part by part:
- ``cards.py``    the cards: codes, names, the deck's pieces, the set a hand counts; the gestures
- ``options.py``  the table options (deck preset and sizes, lull handling, wrong targets, target)
- ``actions.py``  the action notation ("S3a-7c", "gesture-wink", "ZAP-2", …): read and named
- ``scoring.py``  what a ZAP or TRAP scores and who gets it, the score lines, the final places
- ``state.py``    the rules: one game in progress, its rounds, deals, swaps, calls, view and JSON
- ``views.py``    what a seat may see: ``view(seat)`` as TypedDicts
- ``players.py``  the computer players, deciding from their view only
- ``rules.md``    the rules as players read them; ``rulings.md`` the fixed house rulings
- ``FORMATS.md``  the options, actions and a scenario's fixed ``deal`` as files write them
This module is the game's entry in the registry (``ZapOrTrap``): new games (with a scenario's
deal checked here), loading, computer players, the rules text and the house rulings.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from rules.base import JSON, ComputerPlayer, Game, markdown_items, packaged_text
from rules.words import plural
from rules.zaptrap.actions import parse_action
from rules.zaptrap.cards import (
    GESTURES,
    TABLE_SIZE,
    best_set,
    card_name,
    is_card_code,
    sort_hand,
    species_name,
    species_shown,
)
from rules.zaptrap.options import ZapTrapOptions, options_to_json, parse_options
from rules.zaptrap.players import make_player
from rules.zaptrap.state import KEY, ZapTrapState
from rules.zaptrap.views import ZapTrapView

# What other code imports from ``rules.zaptrap``; each part's own module has the rest.
__all__ = [
    "GESTURES",
    "ZapOrTrap",
    "ZapTrapOptions",
    "ZapTrapState",
    "ZapTrapView",
    "best_set",
    "card_name",
    "is_card_code",
    "parse_action",
    "sort_hand",
    "species_name",
    "species_shown",
]

_PACKAGE = __package__ or "rules.zaptrap"
RULES_TEXT = packaged_text(_PACKAGE, "rules.md")


def _sections(text: str) -> list[list[str]]:
    """The ``- `` items under each ``## `` heading, section by section (the text before the first
    heading is the file's introduction)."""
    return [markdown_items(part) for part in re.split(r"^## .*$", text, flags=re.MULTILINE)[1:]]


# The rulings that hold whatever the options, in four runs; house_rulings() writes the ones that
# depend on the options (and the palette's size) between them. A fifth or missing heading in
# rulings.md fails here, at import.
CARD_RULINGS, CALL_RULINGS, PENALTY_RULINGS, SIGNAL_RULINGS = _sections(packaged_text(_PACKAGE, "rulings.md"))


class ZapOrTrap(Game[ZapTrapState]):
    key: ClassVar[str] = KEY
    title: ClassVar[str] = "Zap or Trap"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    timers: ClassVar[dict[str, dict[str, float | None]]] = {
        "off": {"signals": 180.0, "lull": 60.0, "lull_fallback": 120.0, "next_round": 60.0},
        "relaxed": {"signals": 45.0, "lull": 10.0, "lull_fallback": 60.0, "next_round": 10.0},
        "fast": {"signals": 25.0, "lull": 6.0, "lull_fallback": 40.0, "next_round": 6.0},
    }
    computer_levels: ClassVar[tuple[str, ...]] = ("casual", "sharp")

    def parse_options(self, data: JSON) -> ZapTrapOptions:
        return parse_options(data)

    def options_to_json(self, options: Any) -> JSON:
        if options is None:
            options = ZapTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        return options_to_json(options)

    def new_game(
        self, players: int, options: Any = None, seed: int = 0, deal: JSON | None = None
    ) -> ZapTrapState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"Zap or Trap is for {self.min_players} to {self.max_players} players, not {players}."
            )
        if options is None:
            options = ZapTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        deck_size = len(options.deck())
        needed = players * int(options.hand_size) + TABLE_SIZE
        if deck_size < needed:
            raise ValueError(
                f"The deck has {deck_size} cards but {players} hands of {options.hand_size} and the "
                f"table need {needed}."
            )
        state = ZapTrapState(players, options, seed)
        signals = validate_deal(state, deal) if deal is not None else None
        state.open_game(deal, signals)
        return state

    def from_json(self, data: JSON) -> ZapTrapState:
        return ZapTrapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer[ZapTrapView]:
        return make_player(level, **settings)

    def rules_text(self) -> str:
        return RULES_TEXT

    def house_rulings(self, options: Any) -> list[str]:
        if options is None:
            options = ZapTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        o: ZapTrapOptions = options
        total = len(o.deck())
        if o.preset == "kemps":
            deck = (
                f"Classic Kemps preset: {o.species} ranks × {o.copies} suits, hands of {o.hand_size}, "
                f"{'no double cards' if not o.doubles else plural(o.doubles, 'double card')} and "
                f"{'no special cards' if not o.specials else plural(o.specials, 'special card')} "
                f"({total} cards)."
            )
        else:
            deck = (
                f"The deck: {o.species} alien species × {o.copies} single cards, {o.doubles} double card(s) "
                f"for each neighbouring pair in a ring (1+2 … {o.species}+1) and {o.specials} of each of "
                f"the three special cards: {total} cards; hands of {o.hand_size}."
            )
        if o.lull == "auto":
            lull = (
                "Lull: the dealer may clear the four table cards and deal four more at any time, and the "
                "referee does it after the lull timer (10 s at relaxed speed) passes with no action at the "
                "table (a gesture also restarts the count)."
            )
        else:
            lull = (
                "Lull: only the dealer clears the four table cards and deals four more; the referee steps "
                "in only after a long quiet time, so an absent dealer cannot hang the table."
            )
        wrong = (
            "Individual game: wrong targets (ZAP on anyone but the player on your right, TRAP on the "
            "player on your right) are refused (table option)."
            if o.refuse_wrong_targets
            else "Individual game: wrong targets (ZAP on anyone but the player on your right, TRAP on "
            "the player on your right) are allowed and penalised: every other player gets 2."
        )
        return [
            deck,
            *CARD_RULINGS,
            lull,
            *CALL_RULINGS,
            wrong,
            *PENALTY_RULINGS,
            f"The game is played to {o.target} points (table option).",
            f"Secret signals: a palette of {len(GESTURES)} gestures; before each round every team (or "
            "player) privately picks its real signal, and may change it every round.",
            *SIGNAL_RULINGS,
        ]


def validate_deal(state: ZapTrapState, deal: JSON) -> list[str] | None:
    """Check a fixed first deal; returns its signals (one gesture id per unit) if it gives them."""
    try:
        hands = deal["hands"]
        table = deal["table"]
        deck = deal["deck"]
    except (KeyError, TypeError) as exc:
        raise ValueError("A deal needs 'hands' (one list per seat), 'table' (4 cards) and 'deck'.") from exc
    size = state.options.hand_size
    if len(hands) != state.players:
        raise ValueError(f"The deal has {len(hands)} hands for {state.players} players.")
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise ValueError(f"Hand {seat} has {len(hand)} cards; this table deals {size}.")
    if len(table) != TABLE_SIZE:
        raise ValueError(f"The table needs exactly {TABLE_SIZE} cards, not {len(table)}.")
    cards = [c for h in hands for c in h] + list(table) + list(deck)
    expected = state.options.deck()
    missing = [c for c in expected if c not in cards]
    extra = [c for c in cards if c not in expected]
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if missing or extra or twice:
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if extra:
            problems.append(f"not in this deck {', '.join(extra)}")
        if twice:
            problems.append(f"dealt twice {', '.join(twice)}")
        raise ValueError("The deal must hold every card exactly once: " + "; ".join(problems) + ".")
    if "dealer" in deal:
        dealer = deal["dealer"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < state.players:
            raise ValueError(f"The dealer must be a seat from 0 to {state.players - 1}.")
    signals = deal.get("signals")
    if signals is None:
        return None
    if len(signals) != state.units or any(s not in GESTURES for s in signals):
        raise ValueError(
            f"'signals' needs one gesture id per {'team' if state.team_game else 'player'} "
            f"({state.units}), from: {', '.join(GESTURES)}."
        )
    return list(signals)
