"""Trap: a two-player shifting-maze game (RULINGS.md §5).

The parts, one file each:
- board.py    points, lines, arrows and pieces; the move itself on plain lists
- options.py  the table options (variant, board size, quick setup)
- state.py    the rules: a game in progress, from the Piece Drop to the end
- deal.py     a scenario's set position
- views.py    what a seat sees (typed views)
- players.py  the computer players
- rules.md the rules text players read; rulings.md the fixed house rulings, option_rulings.md
  those that depend on the options; FORMATS.md Trap's recorded games and scenario files
This module is the game's entry point (``Trap``, registered in rules/__init__.py) and re-exports
the names other code imports from ``rules.trap``.

Action notation (no spaces; Discord custom_ids carry them):
- ``c3``: drop a pawn on c3 (Piece Drop).
- ``c3>c4``: in Arrow Drop, drop the arrow on the line c3–c4 pointing to c4; in main play, move your
  pawn from c3 to c4 (the arrow on that line must point to c4).
- ``auto`` (seat ``None`` only): time ran out; the referee acts for the player to move (see
  ``TrapState.auto_action``).

Event kinds (all public; ``seat`` is the acting player where there is one). Events are data only:
the table (cogs/trap.py) words them, with the players' names as they are when shown.
- ``phase`` (seat None) a phase begins: data {"phase", "to_move"}; "phase" is "piece_drop",
  "arrow_drop", "main" (data adds "stuck": the points of pieces that begin main play trapped, safe
  until an arrow next to them flips) or "setup" (a scenario's set position, just before "main").
- ``drop`` a pawn is dropped: data {"point", "king", "auto"}.
- ``arrow`` an arrow is dropped: data {"from", "to", "auto"}.
- ``arrows_placed`` (seat None) quick setup: data {"arrows"} ("tail>head" each).
- ``move`` data {"from", "to", "swap" (owner or None), "flips", "auto"}, and with a swap
  "swap_king" (the swapped piece is a King).
- ``capture`` (seat None) one trapped piece removed: data {"point", "owner", "king", "by" (mover)}.
- ``timeout`` (seat None) the referee acts for the player to move: data {"seat"}.
- ``game_over`` (seat None) data {"winners", "reason"} (views.py ``Reason``).

Refusals (``IllegalAction`` codes, parameters in brackets): ``game_over``, ``referee_only`` (only the
referee sends ``auto``), ``player_only`` (the referee sends no drop or move), ``no_such_seat``
(seat), ``not_an_action`` (action), ``not_your_turn``, ``pawns_first``, ``point_taken`` (point),
``arrows_now``, ``line_has_arrow`` (line, "a1-b1"), ``moves_now``, ``no_pawn`` (point),
``against_arrow`` (from, to), ``no_such_point`` (point, size), ``not_neighbours`` (from, to).
The game's ``Result`` says how it ended as ``how`` (a ``Reason``) with ``details`` {"winners"}.
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
from rules.trap.board import (
    COLUMNS,
    EMPTY,
    PIECE_CHARS,
    Geometry,
    geometry,
    has_move,
    is_king,
    legal_moves,
    line_count,
    looks_like_action,
    make_move,
    owner_of,
    parse_pair,
    parse_point,
    position_key,
    unmake_move,
)
from rules.trap.deal import apply_deal
from rules.trap.options import PAWNS_PER_PLAYER, SIZES, VARIANTS, TrapOptions, options_to_json, parse_options
from rules.trap.players import make_player
from rules.trap.state import (
    ARROW_DROP_FIRST,
    AUTO,
    COLOURS,
    DRAW_PLIES,
    LABELS,
    MAIN_FIRST,
    PIECE_DROP_FIRST,
    REPETITIONS,
    TrapState,
    perft,
)
from rules.trap.views import TrapView

__all__ = [
    "ARROW_DROP_FIRST",
    "AUTO",
    "COLOURS",
    "COLUMNS",
    "DRAW_PLIES",
    "EMPTY",
    "LABELS",
    "MAIN_FIRST",
    "PAWNS_PER_PLAYER",
    "PIECE_CHARS",
    "PIECE_DROP_FIRST",
    "REPETITIONS",
    "RULES_TEXT",
    "RULINGS",
    "SIZES",
    "VARIANTS",
    "Geometry",
    "Trap",
    "TrapOptions",
    "TrapState",
    "TrapView",
    "apply_deal",
    "geometry",
    "has_move",
    "is_king",
    "legal_moves",
    "line_count",
    "looks_like_action",
    "make_move",
    "owner_of",
    "parse_pair",
    "parse_point",
    "perft",
    "position_key",
    "unmake_move",
]

# Read once, at import: the rules as players read them, and the rulings that hold at every table.
RULES_TEXT = packaged_text(__package__ or "rules.trap", "rules.md")
_PACKAGE = __package__ or "rules.trap"


def _rulings(lang: str) -> tuple[list[str], dict[str, str]]:
    """The fixed rulings, and those that depend on the options by key, in ``lang``."""
    fixed = markdown_items(game_document(_PACKAGE, "rulings.md", lang))
    keyed = dict(
        item.split(": ", 1) for item in markdown_items(game_document(_PACKAGE, "option_rulings.md", lang))
    )
    return fixed, keyed


# The rulings that depend on the options, by key ("board_6: The board is …"), numbers in braces.
RULINGS, OPTION_RULINGS = _rulings(SOURCE_LANGUAGE)


class Trap(Game[TrapState]):
    key: ClassVar[str] = "trap"
    title: ClassVar[str] = "Trap"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    # One timer: the player to move's thinking time, for drops and moves alike.
    timers: ClassVar[dict[str, dict[str, float | None]]] = {
        "off": {"move": 900.0},
        "relaxed": {"move": 90.0},
        "fast": {"move": 30.0},
    }
    computer_levels: ClassVar[tuple[str, ...]] = ("easy", "medium", "hard")

    def parse_options(self, data: JSON) -> TrapOptions:
        return parse_options(data)

    def options_to_json(self, options: Any) -> JSON:
        return options_to_json(options)

    def new_game(
        self, players: int = 2, options: Any = None, seed: int = 0, deal: JSON | None = None
    ) -> TrapState:
        if players != 2:
            raise ValueError(f"Trap is for 2 players, not {players}.")
        if options is None:
            options = TrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        state = TrapState(options, seed)
        events: list[Event] = []
        if deal is None:
            events.append(Event("phase", data={"phase": "piece_drop", "to_move": PIECE_DROP_FIRST}))
        else:
            apply_deal(state, deal, events)
        state.opening_events = events
        return state

    def from_json(self, data: JSON) -> TrapState:
        return TrapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer[TrapView]:
        return make_player(level, **settings)

    def rules_text(self, lang: str = SOURCE_LANGUAGE) -> str:
        return game_document(_PACKAGE, "rules.md", lang)

    def house_rulings(self, options: Any, lang: str = SOURCE_LANGUAGE) -> list[str]:
        if options is None:
            options = TrapOptions()
        fixed, keyed = _rulings(lang)
        n = options.size
        six = "_6" if n == 6 else ""
        numbers = {"n": n, "last": f"{COLUMNS[n - 1]}{n}", "lines": line_count(n), "pawns": options.pawns}
        rulings = [
            keyed["board" + six].format(**numbers),
            keyed["pawns" + six].format(**numbers),
            *fixed,
        ]
        if options.quick_setup:
            rulings.append(keyed["quick_setup"])
        if options.variant == "king":
            rulings += [keyed["king"], keyed["king_draw"]]
        return rulings
