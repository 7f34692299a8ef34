"""GiftTRAP: a party game of secret giving and getting (RULINGS.md §4).

The package's parts, in the game's own words:
- gifts.py (and gifts.json): the gifts and the four price packs they come in;
- tokens.py: the four tokens (GREAT, GOOD, OK, NO WAY) and NO MATCH, and what they score;
- options.py: the table options (the track's length, the strategy cards);
- actions.py: the actions in the game's notation, parsed;
- checks.py: what a seat may do now, and the reason anything else is refused;
- state.py: the rules in play: a round's set-up, the secret choices, the reveal, each seat's view;
- views.py: what a seat (or a spectator) sees, typed: the view the cog and the computer players read;
- players.py: the computer players;
- rules.md: the rules as players read them; rulings.md: the house rulings that hold at every table;
- FORMATS.md: the actions and the scenario ``deal`` for recorded games and scenarios.
This module is the registry's entry point (``rules.gifttrap:GiftTrap``): new games, loading, the
computer players and the rules text; it re-exports the names other code imports from
``rules.gifttrap``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.base import (
    JSON,
    SOURCE_LANGUAGE,
    ComputerPlayer,
    Event,
    Game,
    game_document,
    markdown_items,
    packaged_text,
)
from rules.gifttrap.actions import Move, parse_action
from rules.gifttrap.gifts import GIFTS, GIFTS_FILE, PACK_GIFTS, PACKS, PRICES, Gift, load_gifts
from rules.gifttrap.options import (
    DEFAULT_TRACK_LENGTH,
    GO,
    GiftTrapOptions,
    options_to_json,
    parse_options,
)
from rules.gifttrap.players import make_player
from rules.gifttrap.state import GAME_KEY, GiftTrapState
from rules.gifttrap.tokens import NO_MATCH, TOKEN_POINTS, TOKENS, Token
from rules.gifttrap.views import (
    GiftTrapView,
    LaidOutGift,
    MyChoices,
    PastGift,
    PastRound,
    Phase,
    RevealedGift,
    TokenPlaces,
    TrappedGift,
    Why,
)

# The rules as players read them, and the house rulings, in Markdown beside this file (rules.md,
# rulings.md) so they read and review as text. rulings.md has a section per case: the track's length
# (with its {track_length}), the rulings at every table, and those with or without the strategy cards.
RULES_TEXT = packaged_text(__package__ or "rules.gifttrap", "rules.md")
_PACKAGE = __package__ or "rules.gifttrap"


def _sections(lang: str) -> list[tuple[str, list[str]]]:
    return [
        (heading.strip(), markdown_items(body))
        for heading, _, body in (
            part.partition("\n") for part in game_document(_PACKAGE, "rulings.md", lang).split("\n## ")[1:]
        )
    ]


RULINGS: dict[str, list[str]] = dict(_sections(SOURCE_LANGUAGE))


def _rulings(lang: str) -> dict[str, list[str]]:
    """The rulings' sections in ``lang``, by their English headings: a translation's sections
    are in the English order, under headings in its own language."""
    if lang == SOURCE_LANGUAGE:
        return RULINGS
    return {english: items for english, (_, items) in zip(RULINGS, _sections(lang), strict=True)}


TRACK_RULINGS = RULINGS["The track"]
FIXED_RULINGS = RULINGS["At every table"]
STRATEGY_RULINGS = RULINGS["With the strategy cards"]
NO_STRATEGY_RULINGS = RULINGS["Without the strategy cards"]

__all__ = [
    "DEFAULT_TRACK_LENGTH",
    "GIFTS",
    "GIFTS_FILE",
    "GO",
    "NO_MATCH",
    "PACKS",
    "PACK_GIFTS",
    "PRICES",
    "RULES_TEXT",
    "TOKENS",
    "TOKEN_POINTS",
    "Gift",
    "GiftTrap",
    "GiftTrapOptions",
    "GiftTrapState",
    "GiftTrapView",
    "LaidOutGift",
    "Move",
    "MyChoices",
    "PastGift",
    "PastRound",
    "Phase",
    "RevealedGift",
    "Token",
    "TokenPlaces",
    "TrappedGift",
    "Why",
    "load_gifts",
    "parse_action",
    "validate_deal",
]


class GiftTrap(Game[GiftTrapState]):
    key: ClassVar[str] = GAME_KEY
    title: ClassVar[str] = "GiftTRAP"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8
    timers: ClassVar[dict[str, dict[str, float | None]]] = {
        "off": {"pack": 300.0, "choosing": 900.0, "reveal_step": 5.0, "next_round": 180.0},
        "relaxed": {"pack": 60.0, "choosing": 180.0, "reveal_step": 4.0, "next_round": 30.0},
        "fast": {"pack": 20.0, "choosing": 90.0, "reveal_step": 2.5, "next_round": 12.0},
    }
    computer_levels: ClassVar[tuple[str, ...]] = ("casual", "thoughtful")
    # Each computer seat's taste comes from its name, so people can learn it game after game.
    computer_persona: ClassVar[bool] = True

    def parse_options(self, data: JSON) -> GiftTrapOptions:
        return parse_options(data)

    def options_to_json(self, options: Any) -> JSON:
        return options_to_json(options)

    def new_game(
        self, players: int, options: Any = None, seed: int = 0, deal: JSON | None = None
    ) -> GiftTrapState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"GiftTRAP is for {self.min_players} to {self.max_players} players, not {players}."
            )
        if options is None:
            options = GiftTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        state = GiftTrapState(players, options, seed)
        events: list[Event] = []
        if deal is None:
            state._start_round(events)
        else:
            pack, layout = validate_deal(players, options, deal)
            state.dealer = deal.get("dealer", 0)
            state.give_track = list(deal.get("give", state.give_track))
            state.get_track = list(deal.get("get", state.get_track))
            state._start_round(events)
            state._lay_out(pack, layout, False, events)
        state.opening_events = events
        return state

    def from_json(self, data: JSON) -> GiftTrapState:
        return GiftTrapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer[GiftTrapView]:
        return make_player(level, **settings)

    def rules_text(self, lang: str = SOURCE_LANGUAGE) -> str:
        return game_document(_PACKAGE, "rules.md", lang)

    def house_rulings(self, options: Any, lang: str = SOURCE_LANGUAGE) -> list[str]:
        if options is None:
            options = GiftTrapOptions()
        sections = _rulings(lang)
        rulings = [r.format(track_length=options.track_length) for r in sections["The track"]]
        rulings += sections["At every table"]
        rulings += sections[
            "With the strategy cards" if options.strategy_cards else "Without the strategy cards"
        ]
        return rulings


def validate_deal(players: int, options: GiftTrapOptions, deal: JSON) -> tuple[int, list[str]]:
    """Check a scenario's first round: its gifts (one pack, players + 1 distinct ids), dealer and
    starting markers. Returns the pack and the layout."""
    if not isinstance(deal, dict) or "layout" not in deal:
        raise ValueError("A GiftTRAP deal needs 'layout': the gift ids laid out on spaces 1, 2, ….")
    unknown = set(deal) - {"layout", "dealer", "give", "get"}
    if unknown:
        raise ValueError(f"Unknown deal key(s): {', '.join(sorted(unknown))}.")
    layout = deal["layout"]
    if not isinstance(layout, list) or len(layout) != players + 1:
        raise ValueError(f"The layout must list {players + 1} gift ids for {players} players.")
    missing = [g for g in layout if g not in GIFTS]
    if missing:
        raise ValueError(f"Unknown gift id(s): {', '.join(map(str, missing))}.")
    if len(set(layout)) != len(layout):
        raise ValueError("A gift appears twice in the layout.")
    packs = {GIFTS[g].pack for g in layout}
    if len(packs) != 1:
        raise ValueError("All gifts of a layout must come from one pack.")
    dealer = deal.get("dealer", 0)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise ValueError(f"The dealer must be a seat from 0 to {players - 1}.")
    for track in ("give", "get"):
        if track in deal:
            values = deal[track]
            if (
                not isinstance(values, list)
                or len(values) != players
                or any(isinstance(v, bool) or not isinstance(v, int) for v in values)
                or any(not GO <= v <= options.track_length for v in values)
            ):
                raise ValueError(
                    f"'{track}' must list one marker position per seat, from 0 to {options.track_length}."
                )
    return packs.pop(), list(layout)
