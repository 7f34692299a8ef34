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

from rules.base import (
    JSON,
    SOURCE_LANGUAGE,
    ComputerPlayer,
    Game,
    game_document,
    markdown_items,
    packaged_text,
)
from rules.zaptrap.actions import parse_action
from rules.zaptrap.cards import (
    GESTURES,
    TABLE_SIZE,
    best_set,
    is_card_code,
    sort_hand,
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
    "is_card_code",
    "parse_action",
    "sort_hand",
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


def _keyed(text: str) -> dict[str, str]:
    """The paragraph under each ``## key`` heading, by key (line breaks read as spaces)."""
    parts = re.split(r"^## (\w+)$", text, flags=re.MULTILINE)[1:]
    return {key: " ".join(body.split()) for key, body in zip(parts[::2], parts[1::2], strict=True)}


# The rulings that depend on the options, as templates filled in by house_rulings().
OPTION_RULINGS = _keyed(packaged_text(_PACKAGE, "option_rulings.md"))


def _counted(keyed: dict[str, str], count: int | None, none: str, one: str, many: str) -> str:
    """ "no double cards", "1 double card", "2 double cards" (option_rulings.md)."""
    if not count:
        return keyed[none]
    return keyed[one if count == 1 else many].format(count=count)


class ZapOrTrap(Game[ZapTrapState]):
    key: ClassVar[str] = KEY
    title: ClassVar[str] = "Zap or Trap"  # text: the game's name, a proper noun in every language
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

    def rules_text(self, lang: str = SOURCE_LANGUAGE) -> str:
        return game_document(_PACKAGE, "rules.md", lang)

    def house_rulings(self, options: Any, lang: str = SOURCE_LANGUAGE) -> list[str]:
        if options is None:
            options = ZapTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        o: ZapTrapOptions = options
        cards, calls, penalties, signals = _sections(game_document(_PACKAGE, "rulings.md", lang))
        keyed = _keyed(game_document(_PACKAGE, "option_rulings.md", lang))
        total = len(o.deck())
        if o.preset == "kemps":
            doubles = _counted(keyed, o.doubles, "no_doubles", "one_double", "doubles")
            specials = _counted(keyed, o.specials, "no_specials", "one_special", "specials")
            deck = keyed["deck_kemps"].format(
                species=o.species, copies=o.copies, hand_size=o.hand_size, doubles=doubles, specials=specials,
                total=total,
            )  # fmt: skip
        else:
            deck = keyed["deck"].format(
                species=o.species, copies=o.copies, doubles=o.doubles, specials=o.specials, total=total,
                hand_size=o.hand_size,
            )  # fmt: skip
        lull = keyed["lull_auto" if o.lull == "auto" else "lull_dealer"]
        wrong = keyed["wrong_refused" if o.refuse_wrong_targets else "wrong_penalised"]
        return [
            deck,
            *cards,
            lull,
            *calls,
            wrong,
            *penalties,
            keyed["target"].format(target=o.target),
            keyed["palette"].format(gestures=len(GESTURES)),
            *signals,
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
            problems.append(f"missing {', '.join(missing)}")  # text: a scenario's error
        if extra:
            problems.append(f"not in this deck {', '.join(extra)}")  # text: a scenario's error
        if twice:
            problems.append(f"dealt twice {', '.join(twice)}")  # text: a scenario's error
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
