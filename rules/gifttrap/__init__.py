"""GiftTRAP: a party game of secret giving and getting (RULINGS.md §4).

The package's parts, in the game's own words:
- gifts.py (and gifts.json): the gifts and the four price packs they come in;
- tokens.py: the four tokens (GREAT, GOOD, OK, NO WAY) and NO MATCH, and what they score;
- options.py: the table options (the track's length, the strategy cards);
- actions.py: the actions in the game's notation, parsed;
- state.py: the rules: a round's set-up, the secret choices, the reveal, and each seat's view;
- players.py: the computer players;
- FORMATS.md: the actions and the scenario ``deal`` for recorded games and scenarios.
This module is the registry's entry point (``rules.gifttrap:GiftTrap``): new games, loading, the
computer players and the rules text; it re-exports the names other code imports from
``rules.gifttrap``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.base import JSON, ComputerPlayer, Event, Game
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
from rules.gifttrap.state import GAME_KEY, HISTORY_KEYS, GiftTrapState, seat_name
from rules.gifttrap.tokens import NO_MATCH, NO_MATCH_LABEL, TOKEN_LABELS, TOKEN_POINTS, TOKENS

__all__ = [
    "DEFAULT_TRACK_LENGTH",
    "GIFTS",
    "GIFTS_FILE",
    "GO",
    "HISTORY_KEYS",
    "NO_MATCH",
    "NO_MATCH_LABEL",
    "PACKS",
    "PACK_GIFTS",
    "PRICES",
    "RULES_TEXT",
    "TOKENS",
    "TOKEN_LABELS",
    "TOKEN_POINTS",
    "Gift",
    "GiftTrap",
    "GiftTrapOptions",
    "GiftTrapState",
    "Move",
    "load_gifts",
    "parse_action",
    "seat_name",
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

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer:
        return make_player(level, **settings)

    def rules_text(self) -> str:
        return RULES_TEXT

    def house_rulings(self, options: Any) -> list[str]:
        if options is None:
            options = GiftTrapOptions()
        rulings = [
            f"The track runs from GO (0) to GIFTED ({options.track_length}) (table option; 20 by default).",
            "When several players have both markers on GIFTED at the end of the same round, "
            "they share the win.",
            "Each price pack holds at least 30 gifts written for this project; a round lays out gifts nobody "
            "has seen yet this game while the pack still has enough.",
            "If the dealer does not pick a pack in time, the referee picks one at random.",
            "You may change your choices as often as you like until you press Ready; then they are locked.",
            "Ready needs a gift for every other player and all four tokens on four different gifts.",
            "If the choosing timer runs out, the referee completes the choices of everyone not ready "
            "(keeping what they already chose, the rest at random) and the table is told only who.",
            "With the timers off, a dealer who does not pick still gets a pack after 5 quiet minutes and "
            "the choosing phase still ends after 15, so a table never hangs.",
            "The reveal paces itself, one received gift every few seconds; each receiver's four tokens are "
            "turned up with their first gift, so the table can react before the rest are unwrapped.",
            "Receivers are revealed from the dealer clockwise; each receiver's gifts come from the next seat "
            "clockwise round to the seat before them.",
            "Markers move one gift at a time and stop at GO and GIFTED; a marker on GIFTED moves back on a "
            "negative score.",
            "The next round starts when any player presses Next or the between-rounds timer runs out "
            "(3 minutes with the timers off); the dealer passes to the left.",
            "The placing of players who did not win follows their two markers added together.",
        ]
        if options.strategy_cards:
            rulings += [
                "Give More is optional: it goes with one of your gifts each round and doubles only your own "
                "(the giver's) move for that gift.",
                "Get More is optional: it goes under one giver's gift each round, chosen before anything is "
                "revealed, and doubles only your own (the receiver's) move for that gift; both cards may "
                "double the same gift.",
                "Doubling applies to losses too: a doubled NO WAY moves that marker back 8.",
                "GiftTRAP may be played from the moment the gifts are laid out until the last gift is "
                "revealed, even after you are ready; the button stays open all round.",
                "A gift under a GiftTRAP card scores nothing for anyone from then on this round, NO MATCH "
                "included; points already scored from it stand.",
                "Only one GiftTRAP card can be on a gift.",
            ]
        else:
            rulings.append("Strategy cards (Give More, Get More and GiftTRAP) are out of play at this table.")
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


RULES_TEXT = """\
# GiftTRAP

**Goal:** be the first to get both of your markers, GIVE and GET, to the GIFTED space by giving
gifts the others love and saying honestly which gifts you would love yourself.

## A round
1. **The pack.** The dealer picks a price pack: $, $$, $$$ or $$$$. One more gift than there are
   players is laid out on numbered spaces.
2. **Giving, in secret.** Give each other player one gift by its number. You can give each gift only
   once, but several people may give the same gift to one player.
3. **Getting, in secret.** Put your four tokens on four different gifts: **GREAT +3** on the gift you
   want most, **GOOD +2** and **OK +1** on the next two, and **NO WAY −4** on the one you want least.
4. **Ready.** Change your mind as often as you like; pressing *Ready* locks your choices. The table
   sees who is ready, never what they chose.
5. **The reveal.** The gifts are unwrapped one at a time, starting with the dealer's, then clockwise.
   Each receiver's tokens are turned up with their first gift. For every gift received, the receiver's
   token on that gift (or **NO MATCH −1** if they put no token on it) moves the receiver's GET marker
   and the giver's GIVE marker by the same amount.

Markers never go below GO or past GIFTED, but a marker on GIFTED falls back on a negative score.

## Winning
If at the end of a round both of your markers are on GIFTED, you win; if several players make it in
the same round, they share the win. Otherwise the dealer passes to the left and a new round begins.

## Strategy cards
- **Give More** (each round): put it with one of your gifts. It doubles *your* GIVE move for that gift.
- **Get More** (each round): put it under one player's gift to you before the reveal. It doubles *your*
  GET move for that gift. Doubling works both ways: a doubled NO WAY is −8.
- **GiftTRAP** (once a game): at any moment of a round, even in the middle of the reveal, put it on a
  gift on the table. From then on nobody scores from that gift this round; points already scored stand.
"""
