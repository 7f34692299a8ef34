"""Spy Trap: secret identities, bidding and face-down piles (RULINGS.md §3).

The engine's parts, each named in the game's own words:

- ``cards.py``    the cards and identities: codes, countries, names, order; the numbers of the game
- ``options.py``  the table options (the round limit)
- ``deal.py``     checking a fixed deal, the starting position a scenario gives instead of a shuffle
- ``table.py``    what lies on the table, the end of the game, each seat's view and the stored JSON
- ``drawing.py``  the draw: what each card drawn does, the prompts it raises, spies put out
- ``state.py``    ``SpyTrapState``: set-up, piles, bidding, legal actions, refusals, timers' defaults
- ``views.py``    the typed views: what a seat, or a spectator, sees (``SpyTrapView``)
- ``players.py``  the computer players (casual, sharp), who see only their view
- ``rules.md``    the rules as players read them; ``rulings.md`` the house rulings at every table;
  ``FORMATS.md`` the action notation, options and ``deal`` of recorded games and scenarios

This module is the game's entry for the referee (``SpyTrap``, registered in rules/__init__.py) and
re-exports the names other code uses.
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
from rules.spytrap.cards import (
    AGENTS,
    ALL_CARDS,
    CODE_OF,
    COUNTRIES,
    COUNTRY_CODES,
    FILES_PER_COUNTRY,
    FILES_TO_WIN,
    HAND_SIZE,
    PILE_SIZE,
    TRAPS,
    all_cards,
    card_sort_key,
    card_type,
    country_of,
    is_file,
    parse_country,
    sort_cards,
)
from rules.spytrap.deal import validate_deal
from rules.spytrap.options import ROUND_LIMIT, SpyTrapOptions, options_to_json, parse_options
from rules.spytrap.players import make_player
from rules.spytrap.state import SpyTrapState
from rules.spytrap.table import GAME_KEY
from rules.spytrap.views import PROMPT_KINDS, SpyTrapPrompt, SpyTrapView

__all__ = [
    "AGENTS",
    "ALL_CARDS",
    "CODE_OF",
    "COUNTRIES",
    "COUNTRY_CODES",
    "FILES_PER_COUNTRY",
    "FILES_TO_WIN",
    "HAND_SIZE",
    "PILE_SIZE",
    "PROMPT_KINDS",
    "ROUND_LIMIT",
    "RULES_TEXT",
    "TRAPS",
    "SpyTrap",
    "SpyTrapOptions",
    "SpyTrapPrompt",
    "SpyTrapState",
    "SpyTrapView",
    "all_cards",
    "card_sort_key",
    "card_type",
    "country_of",
    "is_file",
    "parse_country",
    "sort_cards",
    "validate_deal",
]

_PACKAGE = __package__ or "rules.spytrap"
RULES_TEXT = packaged_text(_PACKAGE, "rules.md")
# The one ruling that depends on a table option says {round_limit} where its number of rounds goes.
_RULINGS = markdown_items(packaged_text(_PACKAGE, "rulings.md"))


class SpyTrap(Game[SpyTrapState]):
    key: ClassVar[str] = GAME_KEY
    title: ClassVar[str] = "Spy Trap"  # text: the game's name, a proper noun
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    # Every wait in Spy Trap blocks the whole table, so even at speed "off" each one ends eventually.
    timers: ClassVar[dict[str, dict[str, float | None]]] = {
        "off": {"pile": 900.0, "bid": 600.0, "draw": 600.0, "prompt": 600.0},
        "relaxed": {"pile": 90.0, "bid": 45.0, "draw": 45.0, "prompt": 45.0},
        "fast": {"pile": 45.0, "bid": 20.0, "draw": 20.0, "prompt": 20.0},
    }
    computer_levels: ClassVar[tuple[str, ...]] = ("casual", "sharp")

    def parse_options(self, data: JSON) -> SpyTrapOptions:
        return parse_options(data)

    def options_to_json(self, options: Any) -> JSON:
        return options_to_json(options)

    def new_game(
        self, players: int, options: Any = None, seed: int = 0, deal: JSON | None = None
    ) -> SpyTrapState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"Spy Trap is for {self.min_players} to {self.max_players} players, not {players}."
            )
        if options is None:
            options = SpyTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        if deal is not None:
            validate_deal(players, deal)
        state = SpyTrapState(players, options, seed)
        state.opening_events = state._setup(deal)
        return state

    def from_json(self, data: JSON) -> SpyTrapState:
        return SpyTrapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer[SpyTrapView]:
        return make_player(level, **settings)

    def rules_text(self, lang: str = SOURCE_LANGUAGE) -> str:
        return game_document(_PACKAGE, "rules.md", lang)

    def house_rulings(self, options: Any, lang: str = SOURCE_LANGUAGE) -> list[str]:
        if options is None:
            options = SpyTrapOptions()
        rulings = markdown_items(game_document(_PACKAGE, "rulings.md", lang))
        return [ruling.replace("{round_limit}", str(options.round_limit)) for ruling in rulings]
