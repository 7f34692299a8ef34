"""What a seat sees of a Trap game: ``TrapState.view(seat)`` as typed dicts.

Everything in Trap is public: every view shows the whole board, and a seat's view only adds that
seat's legal actions. At run time a view is a plain JSON-able dict; these types say which keys it
has, so a misspelt key is a type error. (No ``from __future__ import annotations`` here: the
TypedDicts are built at run time, so ``__required_keys__`` sees ``NotRequired``.)
"""

from typing import Literal, NotRequired, TypedDict

from rules.trap.options import Variant

Phase = Literal["piece_drop", "arrow_drop", "main", "over"]
Reason = Literal["eliminated", "no_moves", "king", "both_kings", "repetition", "quiet_plies"]


class PawnView(TypedDict):
    """A piece on the board (or one a move just captured)."""

    point: str
    owner: int  # seat
    king: bool  # that owner's King (King variant only)


class LostPiece(TypedDict):
    """One of a seat's own pieces, captured."""

    point: str
    king: bool
    ply: int  # the main-play ply of the capture, 1-based


class DropLast(TypedDict):
    kind: Literal["drop"]
    seat: int
    action: str
    auto: bool  # played by the referee on a timeout
    point: str


# "from" is a Python keyword, hence the functional form.
ArrowLast = TypedDict(
    "ArrowLast",
    {
        "kind": Literal["arrow"],
        "seat": int,
        "action": str,
        "auto": bool,
        "from": str,  # the tail: the arrow lies on the line from-to and points to "to"
        "to": str,
    },
)

MoveLast = TypedDict(
    "MoveLast",
    {
        "kind": Literal["move"],
        "seat": int,
        "action": str,
        "auto": bool,
        "from": str,
        "to": str,
        "swap": int | None,  # owner seat of the swapped piece, or None
        "flips": list[str],  # the flipped arrows as they point now, "tail>head"
        "captures": list[PawnView],
    },
)

LastAction = DropLast | ArrowLast | MoveLast


class Outcome(TypedDict):
    winners: list[int]  # seats; both for a draw
    reason: Reason  # how it ended; the table words it


class TrapView(TypedDict):
    """The spectator's view (``view(None)``); a seat's view adds ``legal``."""

    game: Literal["trap"]
    seat: int | None  # the viewing seat, None for the spectator
    players: int  # always 2
    labels: list[str]  # ["A", "B"], seat 0 then seat 1
    colours: list[str]  # ["red", "blue"]
    variant: Variant
    size: int  # points per side: 5 or 6
    quick_setup: bool
    pawns_per_player: int  # pawns each player drops
    phase: Phase
    to_move: int | None  # the seat whose turn it is; None once over
    points: list[str]  # every point name, row by row from a1
    # Every line as "a1-b1" (lower end first): horizontal lines row by row, then vertical lines
    # column by column.
    lines: list[str]
    pawns: list[PawnView]  # in point order
    piece_counts: list[int]  # [seat 0, seat 1] pieces on the board
    pawns_to_drop: list[int]  # [seat 0, seat 1] pawns still to drop
    arrows_to_drop: int
    # Every arrow on the board as "tail>head" ("c3>c4": on the line c3–c4, pointing to c4), in
    # ``lines`` order; lines without an arrow yet are absent.
    arrows: list[str]
    # Points of pieces whose every arrow points in: they cannot move (and are safe if they began
    # main play that way).
    stuck: list[str]
    # The player to move's legal moves in main play per pawn ({"c3": ["c4", "b3"]}); {} outside it.
    moves: dict[str, list[str]]
    last: LastAction | None  # the last action
    captured: list[list[LostPiece]]  # per seat, that seat's own pieces captured, oldest first
    ply: int  # main-play plies played
    quiet_plies: int  # plies since the last capture (or since main play began)
    draw_plies: int  # the limit (100) at which the game is drawn
    # The repetition record: position keys (board.position_key) since the last capture, oldest first.
    positions: list[str]
    repetitions: int  # how often the current position has occurred
    result: Outcome | None
    legal: NotRequired[list[str]]  # a seat's view only: its legal actions now (empty off turn)
