"""Zip Zap: a real-time shedding game with no turns (RULINGS.md §2).

The parts, in the game's own words:

- ``cards.py``   the cards, hands and deals, and the action notation ("R4", "R4+Z", "Z")
- ``options.py`` the table options (scoring, rounds) and their JSON form
- ``state.py``   the rules: a game in progress, its runs, control, Zaps, rounds and scores
- ``views.py``   what a seat sees, typed
- ``players.py`` the computer players, which decide from a view only
- ``rules.md``   the rules as players read them; ``rulings.md`` the fixed house rulings

This module is the registry's entry point (``rules.zipzap:ZipZap``) and re-exports what other code
imports from ``rules.zipzap``.
"""

from __future__ import annotations

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
from rules.zipzap.cards import (
    CARD_POINTS,
    MAX_NUMBER,
    SOLID_SUITS,
    SUITS,
    WILD,
    ZAP,
    ZAP_CARDS,
    all_number_cards,
    card_points,
    card_sort_key,
    follows,
    hand_size,
    idle_card,
    is_card_code,
    is_zap,
    number_of,
    number_of_zap,
    parse_play,
    sort_hand,
    suit_of,
    validate_deal,
)
from rules.zipzap.options import SCORINGS, ZipZapOptions, options_to_json, parse_options
from rules.zipzap.players import make_player
from rules.zipzap.state import KEY, ZipZapState
from rules.zipzap.views import ZipZapView

__all__ = [
    "CARD_POINTS",
    "MAX_NUMBER",
    "RULES_TEXT",
    "SCORINGS",
    "SOLID_SUITS",
    "SUITS",
    "WILD",
    "ZAP",
    "ZAP_CARDS",
    "ZipZap",
    "ZipZapOptions",
    "ZipZapState",
    "ZipZapView",
    "all_number_cards",
    "card_points",
    "card_sort_key",
    "follows",
    "hand_size",
    "idle_card",
    "is_card_code",
    "is_zap",
    "number_of",
    "number_of_zap",
    "parse_play",
    "sort_hand",
    "suit_of",
    "validate_deal",
]

_PACKAGE = __package__ or "rules.zipzap"
RULES_TEXT = packaged_text(_PACKAGE, "rules.md")


# The rulings that hold whatever the options; house_rulings() adds the two that depend on them.
def _rulings(lang: str) -> tuple[list[str], dict[str, str]]:
    """The fixed rulings, and those that depend on the options by key, in ``lang``."""
    fixed = markdown_items(game_document(_PACKAGE, "rulings.md", lang))
    keyed = dict(
        item.split(": ", 1) for item in markdown_items(game_document(_PACKAGE, "option_rulings.md", lang))
    )
    return fixed, keyed


FIXED_RULINGS, OPTION_RULINGS = _rulings(SOURCE_LANGUAGE)
# (OPTION_RULINGS: the two that depend on the options, by key: "rounds.default", "scoring.cards", ...)


class ZipZap(Game[ZipZapState]):
    key: ClassVar[str] = KEY
    title: ClassVar[str] = "Zip Zap"  # text: the game's name, a proper name, the same in every language
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    timers: ClassVar[dict[str, dict[str, float | None]]] = {
        "off": {"stall": 60.0, "idle": None, "next_round": None},
        "relaxed": {"stall": 15.0, "idle": 30.0, "next_round": 8.0},
        "fast": {"stall": 8.0, "idle": 15.0, "next_round": 5.0},
    }
    computer_levels: ClassVar[tuple[str, ...]] = ("casual", "sharp")

    def parse_options(self, data: JSON) -> ZipZapOptions:
        return parse_options(data)

    def options_to_json(self, options: Any) -> JSON:
        return options_to_json(options)

    def new_game(
        self, players: int, options: Any = None, seed: int = 0, deal: JSON | None = None
    ) -> ZipZapState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"Zip Zap is for {self.min_players} to {self.max_players} players, not {players}."
            )
        if options is None:
            options = ZipZapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        state = ZipZapState(players, options, seed)
        if deal is not None:
            state.out_of_game = validate_deal(players, deal)
        else:
            state._choose_out_of_game()
        state.opening_events = state._deal(deal)
        return state

    def from_json(self, data: JSON) -> ZipZapState:
        return ZipZapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer[ZipZapView]:
        return make_player(level, **settings)

    def rules_text(self, lang: str = SOURCE_LANGUAGE) -> str:
        return game_document(_PACKAGE, "rules.md", lang)

    def house_rulings(self, options: Any, lang: str = SOURCE_LANGUAGE) -> list[str]:
        if options is None:
            options = ZipZapOptions()
        fixed, keyed = _rulings(lang)
        if options.rounds is None:
            rounds = keyed["rounds.default"]
        else:
            key = "rounds.one" if options.rounds == 1 else "rounds.other"
            rounds = keyed[key].replace("{rounds}", str(options.rounds))
        return [*fixed, rounds, keyed[f"scoring.{options.scoring}"]]
