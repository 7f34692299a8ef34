"""Trap: a two-player shifting-maze game (RULINGS.md §5).

The board is a grid of points ("a1".."e5", or "a1".."f6" on the 6 × 6 option): columns a.. left to
right, rows 1.. bottom to top. Every unit line between two neighbouring points (a *line*) holds one
neutral arrow pointing toward one of its two ends. Seat 0 is player A (red pawns), seat 1 is player B
(blue pawns). Everything in Trap is public: every view shows the whole board, and the seat views only
add that seat's legal actions.

Phases: ``piece_drop`` (A, B, A, ... each drops their pawns on empty points), ``arrow_drop`` (B, A, B,
... drop the arrows; skipped with the quick-setup option, which places them at random from the seed),
``main`` (B moves first), then ``over``.

Action notation (no spaces; Discord custom_ids carry them):
- ``c3``: drop a pawn on c3 (Piece Drop).
- ``c3>c4``: in Arrow Drop, drop the arrow on the line c3–c4 pointing to c4; in main play, move your
  pawn from c3 to c4 (the arrow on that line must point to c4).
- ``auto`` (seat ``None`` only): time ran out; the referee acts for the player to move (see
  ``auto_action``).

View keys (spectator, ``view(None)``; every key is also in the seat views):
- ``game`` "trap"; ``seat`` the viewing seat or None; ``players`` 2; ``labels`` ["A", "B"];
  ``colours`` ["red", "blue"] (seat 0, seat 1).
- ``variant`` "basic" or "king"; ``size`` 5 or 6 (points per side); ``quick_setup`` bool;
  ``pawns_per_player`` pawns each player drops.
- ``phase`` "piece_drop", "arrow_drop", "main" or "over"; ``to_move`` the seat whose turn it is
  (None once over); ``prompt`` a sentence saying what the player to move does now.
- ``points`` every point name, row by row from a1; ``lines`` every line as "a1-b1" (lower end first),
  horizontal lines row by row, then vertical lines column by column.
- ``pawns`` list of {"point", "owner" (seat), "king" (bool: that owner's King, king variant only)}
  in point order; ``piece_counts`` [seat 0, seat 1] pawns on the board.
- ``pawns_to_drop`` [seat 0, seat 1] pawns still to drop; ``arrows_to_drop`` arrows still to drop.
- ``arrows`` every arrow on the board as "tail>head" ("c3>c4": on the line c3–c4, pointing to c4),
  in ``lines`` order; lines without an arrow yet are absent.
- ``stuck`` points of pawns whose every arrow points in (they cannot move: safe if they started
  main play that way).
- ``moves`` the player to move's legal moves in main play, grouped per pawn: {"c3": ["c4", "b3"]}
  ({} outside main play).
- ``last`` the last action or None: {"kind": "drop" | "arrow" | "move", "seat", "action", "auto"
  (bool: played by the referee on a timeout), "point" (drop), "from"/"to" (arrow or move), and for a
  move "swap" (owner seat of the swapped pawn or None), "flips" (the flipped arrows as they point now,
  "tail>head") and "captures" (list of {"point", "owner", "king"})}.
- ``captured`` per seat, that seat's own pawns captured so far, oldest first: {"point", "king",
  "ply"} (the main-play ply of the capture, 1-based).
- ``ply`` main-play plies played; ``quiet_plies`` plies since the last capture (or since main play
  began); ``draw_plies`` the limit (100) at which the game is drawn; ``positions`` the repetition
  record: position keys since the last capture, oldest first (``position_key``); ``repetitions`` how
  often the current position has occurred.
- ``result`` None, or {"winners" (seats), "reason" ("eliminated", "no_moves", "king", "both_kings",
  "repetition", "quiet_plies"), "summary"}.

Seat views (``view(seat)``) add:
- ``legal`` that seat's legal actions now (empty when it is not their turn).

Event kinds (all public; ``seat`` is the acting player where there is one):
- ``phase`` (seat None) a phase begins: data {"phase", "to_move"}.
- ``drop`` a pawn is dropped: data {"point", "king", "auto"}.
- ``arrow`` an arrow is dropped: data {"from", "to", "auto"}.
- ``arrows_placed`` (seat None) quick setup: data {"arrows"} ("tail>head" each).
- ``move`` data {"from", "to", "swap" (owner or None), "flips", "auto"}.
- ``capture`` (seat None) one trapped piece removed: data {"point", "owner", "king", "by" (mover)}.
- ``timeout`` (seat None) the referee acts for the player to move: data {"seat"}.
- ``game_over`` (seat None) data {"winners", "reason"}.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from rules.base import (
    JSON,
    Action,
    ComputerPlayer,
    Event,
    Game,
    IllegalAction,
    Placement,
    QuietAction,
    Result,
    State,
)

SIZES = (5, 6)
VARIANTS = ("basic", "king")
PAWNS_PER_PLAYER = {5: 8, 6: 12}  # 6 × 6: two thirds of the points filled, as 16 of 25 on 5 × 5
DRAW_PLIES = 100
REPETITIONS = 3
LABELS = ("A", "B")
COLOURS = ("red", "blue")
PIECE_DROP_FIRST = 0  # A
ARROW_DROP_FIRST = 1  # B
MAIN_FIRST = 1  # B
AUTO = "auto"
COLUMNS = "abcdef"

# Board cells hold a piece code: EMPTY, or owner + 2 when the piece is that owner's King.
EMPTY = -1


def owner_of(code: int) -> int:
    return code & 1


def is_king(code: int) -> bool:
    return code >= 2


# ---------------------------------------------------------------------------------------------
# Geometry: points are ints (row * size + column), lines are ints; an arrow is stored as the
# point its head touches.


@dataclass(frozen=True)
class Geometry:
    size: int
    names: tuple[str, ...]
    index: dict[str, int]
    ends: tuple[tuple[int, int], ...]  # per line, lower point first
    line_of: dict[tuple[int, int], int]  # (lower, higher) -> line
    lines_at: tuple[tuple[int, ...], ...]  # per point, the lines touching it
    neighbours: tuple[tuple[tuple[int, int], ...], ...]  # per point, (line, other end)

    @property
    def points(self) -> int:
        return self.size * self.size

    def line_name(self, line: int) -> str:
        a, b = self.ends[line]
        return f"{self.names[a]}-{self.names[b]}"

    def arrow_name(self, line: int, head: int) -> str:
        a, b = self.ends[line]
        tail = b if head == a else a
        return f"{self.names[tail]}>{self.names[head]}"

    def line_between(self, p: int, q: int) -> int | None:
        return self.line_of.get((min(p, q), max(p, q)))


@cache
def geometry(size: int) -> Geometry:
    names = tuple(f"{COLUMNS[c]}{r + 1}" for r in range(size) for c in range(size))
    ends: list[tuple[int, int]] = []
    for r in range(size):
        for c in range(size - 1):
            ends.append((r * size + c, r * size + c + 1))
    for c in range(size):
        for r in range(size - 1):
            ends.append((r * size + c, (r + 1) * size + c))
    lines_at: list[list[int]] = [[] for _ in range(size * size)]
    neighbours: list[list[tuple[int, int]]] = [[] for _ in range(size * size)]
    for line, (a, b) in enumerate(ends):
        lines_at[a].append(line)
        lines_at[b].append(line)
        neighbours[a].append((line, b))
        neighbours[b].append((line, a))
    return Geometry(
        size,
        names,
        {n: i for i, n in enumerate(names)},
        tuple(ends),
        {e: i for i, e in enumerate(ends)},
        tuple(tuple(x) for x in lines_at),
        tuple(tuple(x) for x in neighbours),
    )


def line_count(size: int) -> int:
    return 2 * size * (size - 1)


# ---------------------------------------------------------------------------------------------
# The move itself, on plain lists so the computer players can search with the same code.


def legal_moves(geo: Geometry, board: list[int], heads: list[int], seat: int) -> list[tuple[int, int]]:
    """Every (from, to) the seat may move: along an arrow at the pawn's point, pointing away from it."""
    moves = []
    for p, code in enumerate(board):
        if code >= 0 and code & 1 == seat:
            for line, q in geo.neighbours[p]:
                if heads[line] == q:
                    moves.append((p, q))
    return moves


def has_move(geo: Geometry, board: list[int], heads: list[int], seat: int) -> bool:
    for p, code in enumerate(board):
        if code >= 0 and code & 1 == seat:
            for line, q in geo.neighbours[p]:
                if heads[line] == q:
                    return True
    return False


def make_move(geo: Geometry, board: list[int], heads: list[int], frm: int, to: int) -> list[tuple[int, int]]:
    """Move (swapping with any piece on ``to``), flip every arrow at ``to``, remove trapped pieces.

    Returns the captured (point, code) pairs; ``unmake_move`` with them restores everything.
    Only the far ends of the flipped lines can be trapped: the flips change no other point's arrows.
    The mover on ``to`` is never among them, and a flipped line can only trap its far end when it
    now points there."""
    board[to], board[frm] = board[frm], board[to]
    for line in geo.lines_at[to]:
        a, b = geo.ends[line]
        heads[line] = a + b - heads[line]
    captured = []
    for line, r in geo.neighbours[to]:
        if heads[line] == r and board[r] >= 0:
            for other in geo.lines_at[r]:
                if heads[other] != r:
                    break
            else:
                captured.append((r, board[r]))
    for r, _ in captured:
        board[r] = EMPTY
    return captured


def unmake_move(
    geo: Geometry, board: list[int], heads: list[int], frm: int, to: int, captured: list[tuple[int, int]]
) -> None:
    for r, code in captured:
        board[r] = code
    for line in geo.lines_at[to]:
        a, b = geo.ends[line]
        heads[line] = a + b - heads[line]
    board[to], board[frm] = board[frm], board[to]


PIECE_CHARS = {EMPTY: ".", 0: "a", 1: "b", 2: "A", 3: "B"}


def position_key(geo: Geometry, board: list[int], heads: list[int | None], to_move: int) -> str:
    """The repetition key: pieces (a/b pawn, A/B King, . empty) point by point, then per line 0 or 1
    (the arrow points to the line's lower or higher end, - none), then the seat to move."""
    pieces = "".join(PIECE_CHARS[c] for c in board)
    arrows = "".join("-" if h is None else ("0" if h == geo.ends[i][0] else "1") for i, h in enumerate(heads))
    return f"{pieces}/{arrows}/{to_move}"


def parse_point(geo: Geometry, text: str) -> int:
    if text in geo.index:
        return geo.index[text]
    raise IllegalAction(
        f"There is no point {text} on this {geo.size} × {geo.size} board: "
        f"points run from a1 to {COLUMNS[geo.size - 1]}{geo.size}."
    )


def parse_pair(geo: Geometry, action: Action) -> tuple[int, int, int]:
    """'c3>c4' -> (c3, c4, line c3–c4); IllegalAction if the points are not neighbours."""
    left, _, right = action.partition(">")
    p, q = parse_point(geo, left), parse_point(geo, right)
    line = geo.line_between(p, q)
    if line is None:
        raise IllegalAction(
            f"{left} and {right} are not neighbours: an arrow lies along one line between two "
            "neighbouring points, and a pawn moves one line at a time."
        )
    return p, q, line


def looks_like_action(action: Action) -> bool:
    parts = action.split(">")
    if len(parts) > 2 or len(action) > 48:
        return False
    return all(len(p) >= 2 and p[0] in COLUMNS and p[1:].isdigit() for p in parts)


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class TrapOptions:
    variant: str = "basic"
    size: int = 5
    quick_setup: bool = False

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"The variant must be one of {', '.join(VARIANTS)}, not {self.variant!r}.")
        if isinstance(self.size, bool) or self.size not in SIZES:
            raise ValueError(f"The board size must be 5 or 6 (points per side), not {self.size!r}.")
        if not isinstance(self.quick_setup, bool):
            raise ValueError("Quick setup is true or false.")

    @property
    def pawns(self) -> int:
        return PAWNS_PER_PLAYER[self.size]


# ---------------------------------------------------------------------------------------------
# State


class TrapState(State):
    def __init__(self, options: TrapOptions, seed: int) -> None:
        self.players = 2
        self.options = options
        self.seed = seed
        self.geo = geometry(options.size)
        self.phase = "piece_drop"
        self.to_move: int | None = PIECE_DROP_FIRST
        self.board: list[int] = [EMPTY] * self.geo.points
        self.heads: list[int | None] = [None] * line_count(options.size)
        self.pawns_to_drop = [options.pawns, options.pawns]
        self.captured: list[list[JSON]] = [[], []]
        self.last: JSON | None = None
        self.ply = 0
        self.quiet_plies = 0
        self.positions: list[str] = []
        self.actions_applied = 0
        self.outcome: JSON | None = None  # {"winners", "reason", "summary"} once over
        self.fixed_arrows: list[int | None] | None = None  # a scenario's quick-setup arrows
        self.opening_events: list[Event] = []

    # -- queries ------------------------------------------------------------------------------

    def _full_heads(self) -> list[int]:
        assert all(h is not None for h in self.heads)
        return [h for h in self.heads if h is not None]

    def pieces(self, seat: int) -> int:
        return sum(1 for c in self.board if c >= 0 and c & 1 == seat)

    def main_moves(self, seat: int) -> list[tuple[int, int]]:
        return legal_moves(self.geo, self.board, self._full_heads(), seat)

    def _key(self) -> str:
        assert self.to_move is not None
        return position_key(self.geo, self.board, self.heads, self.to_move)

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        if seat is None:
            return [AUTO]
        if seat != self.to_move:
            return []
        names = self.geo.names
        if self.phase == "piece_drop":
            return [names[p] for p, c in enumerate(self.board) if c == EMPTY]
        if self.phase == "arrow_drop":
            actions = []
            for line, head in enumerate(self.heads):
                if head is None:
                    a, b = self.geo.ends[line]
                    actions += [f"{names[a]}>{names[b]}", f"{names[b]}>{names[a]}"]
            return actions
        return [f"{names[p]}>{names[q]}" for p, q in self.main_moves(seat)]

    # -- actions ------------------------------------------------------------------------------

    def _check(self, seat: int | None, action: Action) -> None:
        """Raise IllegalAction with a reason if ``action`` is not allowed now; changes nothing."""
        if self.phase == "over":
            raise IllegalAction("The game is over.")
        if action == AUTO:
            if seat is not None:
                raise IllegalAction("Only the referee moves for a player whose time has run out.")
            return
        if seat is None:
            raise IllegalAction("Only a player can drop or move a piece.")
        if seat not in (0, 1):
            raise IllegalAction("That seat is not at this table.")
        if not looks_like_action(action):
            raise IllegalAction(
                f"'{action}' is not a Trap action: name a point such as 'c3', "
                "or an arrow or move such as 'c3>c4'."
            )
        if seat != self.to_move:
            raise IllegalAction("It is not your turn: wait for the other player.")
        if self.phase == "piece_drop":
            self._check_drop(action)
        elif self.phase == "arrow_drop":
            self._check_arrow(action)
        else:
            self._check_move(seat, action)

    def _check_drop(self, action: Action) -> None:
        if ">" in action:
            raise IllegalAction("Pawns come first: drop a pawn on an empty point, such as 'c3'.")
        point = parse_point(self.geo, action)
        if self.board[point] != EMPTY:
            raise IllegalAction(f"{action} is taken: drop your pawn on an empty point.")

    def _check_arrow(self, action: Action) -> None:
        if ">" not in action:
            raise IllegalAction(
                "All pawns are down: now drop an arrow along a line, such as 'c3>c4' (pointing to c4)."
            )
        _, _, line = parse_pair(self.geo, action)
        if self.heads[line] is not None:
            raise IllegalAction(
                f"The line {self.geo.line_name(line).replace('-', '–')} already has its arrow."
            )

    def _check_move(self, seat: int, action: Action) -> None:
        if ">" not in action:
            raise IllegalAction("Main play has begun: move a pawn along an arrow, such as 'c3>c4'.")
        frm, to, line = parse_pair(self.geo, action)
        names = self.geo.names
        code = self.board[frm]
        if code == EMPTY or owner_of(code) != seat:
            raise IllegalAction(f"You have no pawn on {names[frm]}.")
        if self.heads[line] != to:
            raise IllegalAction(
                f"The arrow between {names[frm]} and {names[to]} points to {names[frm]}: "
                "you can never move against an arrow."
            )

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        self._check(seat, action)
        events: list[Event] = []
        auto = action == AUTO
        if auto:
            assert self.to_move is not None
            events.append(
                Event(
                    "timeout",
                    "Time ran out: the referee acts for the player to move.",
                    None,
                    {"seat": self.to_move},
                )
            )
            action = self.auto_action()
        mover = self.to_move
        assert mover is not None
        self.actions_applied += 1
        if self.phase == "piece_drop":
            self._drop(mover, action, auto, events)
        elif self.phase == "arrow_drop":
            self._drop_arrow(mover, action, auto, events)
        else:
            self._move(mover, action, auto, events)
        return events

    def auto_action(self) -> Action:
        """The referee's choice for a player out of time: a seeded random drop, or a seeded random
        move among those that lose none of the player's own pawns (any move if every one does)."""
        rng = random.Random(f"trap:{self.seed}:auto:{self.actions_applied}")
        assert self.to_move is not None
        if self.phase != "main":
            return rng.choice(self.legal_actions(self.to_move))
        heads = self._full_heads()
        board = list(self.board)
        moves = legal_moves(self.geo, board, heads, self.to_move)
        safe = []
        for frm, to in moves:
            captured = make_move(self.geo, board, heads, frm, to)
            if not any(owner_of(code) == self.to_move for _, code in captured):
                safe.append((frm, to))
            unmake_move(self.geo, board, heads, frm, to, captured)
        frm, to = rng.choice(safe or moves)
        return f"{self.geo.names[frm]}>{self.geo.names[to]}"

    def _drop(self, seat: int, action: Action, auto: bool, events: list[Event]) -> None:
        point = self.geo.index[action]
        king = self.options.variant == "king" and self.pawns_to_drop[seat] == self.options.pawns
        self.board[point] = seat + (2 if king else 0)
        self.pawns_to_drop[seat] -= 1
        self.last = {"kind": "drop", "seat": seat, "action": action, "auto": auto, "point": action}
        what = "their King" if king else "a pawn"
        events.append(
            Event("drop", f"dropped {what} on {action}.", seat, {"point": action, "king": king, "auto": auto})
        )
        other = 1 - seat
        if self.pawns_to_drop[other] > 0:
            self.to_move = other
        elif self.pawns_to_drop[seat] > 0:
            self.to_move = seat
        else:
            self._after_piece_drop(events)

    def _after_piece_drop(self, events: list[Event]) -> None:
        if self.options.quick_setup:
            if self.fixed_arrows is not None:
                self.heads = list(self.fixed_arrows)
            else:
                rng = random.Random(f"trap:{self.seed}:arrows")
                self.heads = [rng.choice(ends) for ends in self.geo.ends]
            arrows = self.arrow_names()
            events.append(
                Event(
                    "arrows_placed",
                    "Quick setup: every line gets an arrow pointing a random way.",
                    None,
                    {"arrows": arrows},
                )
            )
            self._begin_main(MAIN_FIRST, events)
            return
        self.phase = "arrow_drop"
        self.to_move = ARROW_DROP_FIRST
        events.append(
            Event(
                "phase",
                f"Arrow Drop begins: {COLOURS[ARROW_DROP_FIRST].capitalize()} (B) drops the first arrow.",
                None,
                {"phase": "arrow_drop", "to_move": ARROW_DROP_FIRST},
            )
        )

    def _drop_arrow(self, seat: int, action: Action, auto: bool, events: list[Event]) -> None:
        tail, head, line = parse_pair(self.geo, action)
        self.heads[line] = head
        names = self.geo.names
        self.last = {
            "kind": "arrow",
            "seat": seat,
            "action": action,
            "auto": auto,
            "from": names[tail],
            "to": names[head],
        }
        events.append(
            Event(
                "arrow",
                f"dropped an arrow on {names[tail]}–{names[head]} pointing to {names[head]}.",
                seat,
                {"from": names[tail], "to": names[head], "auto": auto},
            )
        )
        if any(h is None for h in self.heads):
            self.to_move = 1 - seat
        else:
            self._begin_main(MAIN_FIRST, events)

    def _begin_main(self, first: int, events: list[Event]) -> None:
        self.phase = "main"
        self.to_move = first
        self.positions = [self._key()]
        stuck = [self.geo.names[p] for p, c in enumerate(self.board) if c >= 0 and self._stuck(p)]
        text = f"Main play begins: {COLOURS[first].capitalize()} ({LABELS[first]}) moves first."
        if stuck:
            text += (
                " Pawns with every arrow pointing in are safe until an arrow next to them flips: "
                + ", ".join(stuck)
                + "."
            )
        events.append(Event("phase", text, None, {"phase": "main", "to_move": first}))
        if not has_move(self.geo, self.board, self._full_heads(), first):
            self._finish([1 - first], "no_moves", events)

    def _stuck(self, point: int) -> bool:
        lines = self.geo.lines_at[point]
        return all(self.heads[line] == point for line in lines)

    def _move(self, seat: int, action: Action, auto: bool, events: list[Event]) -> None:
        frm, to, _ = parse_pair(self.geo, action)
        names = self.geo.names
        swapped = self.board[to]
        heads = self._full_heads()
        captured = make_move(self.geo, self.board, heads, frm, to)
        self.heads = list(heads)
        self.ply += 1
        flips = [self.geo.arrow_name(line, heads[line]) for line in self.geo.lines_at[to]]
        capture_data = [{"point": names[p], "owner": owner_of(c), "king": is_king(c)} for p, c in captured]
        swap = None if swapped == EMPTY else owner_of(swapped)
        self.last = {
            "kind": "move",
            "seat": seat,
            "action": action,
            "auto": auto,
            "from": names[frm],
            "to": names[to],
            "swap": swap,
            "flips": flips,
            "captures": capture_data,
        }
        if swap is None:
            text = f"moved {names[frm]}>{names[to]}."
        else:
            whose = "their own" if swap == seat else "a " + COLOURS[swap]
            text = f"moved {names[frm]}>{names[to]}, swapping with {whose} {self._piece_word(swapped)}."
        events.append(
            Event(
                "move",
                text,
                seat,
                {"from": names[frm], "to": names[to], "swap": swap, "flips": flips, "auto": auto},
            )
        )
        for item, (_, code) in zip(capture_data, captured, strict=True):
            self.captured[item["owner"]].append(
                {"point": item["point"], "king": item["king"], "ply": self.ply}
            )
            events.append(
                Event(
                    "capture",
                    f"The {COLOURS[item['owner']]} {self._piece_word(code)} on {item['point']} is trapped "
                    "and captured.",
                    None,
                    {**item, "by": seat},
                )
            )
        other = 1 - seat
        self.to_move = other
        if captured:
            self.quiet_plies = 0
            self.positions = []
        else:
            self.quiet_plies += 1
        key = self._key()
        self.positions.append(key)
        self._judge(seat, captured, events)

    def _piece_word(self, code: int) -> str:
        return "King" if is_king(code) else "pawn"

    def _judge(self, seat: int, captured: list[tuple[int, int]], events: list[Event]) -> None:
        other = 1 - seat
        kings_lost = {owner_of(c) for _, c in captured if is_king(c)}
        if len(kings_lost) == 2:
            self._finish([0, 1], "both_kings", events)
        elif kings_lost:
            self._finish([1 - kings_lost.pop()], "king", events)
        elif self.pieces(other) == 0:
            self._finish([seat], "eliminated", events)
        elif not has_move(self.geo, self.board, self._full_heads(), other):
            self._finish([seat], "no_moves", events)
        elif self.positions.count(self.positions[-1]) >= REPETITIONS:
            self._finish([0, 1], "repetition", events)
        elif self.quiet_plies >= DRAW_PLIES:
            self._finish([0, 1], "quiet_plies", events)

    def _finish(self, winners: list[int], reason: str, events: list[Event]) -> None:
        self.phase = "over"
        self.to_move = None
        summary = outcome_summary(winners, reason)
        self.outcome = {"winners": list(winners), "reason": reason, "summary": summary}
        events.append(
            Event("game_over", f"The game is over. {summary}", None, {"winners": winners, "reason": reason})
        )

    # -- what players see ---------------------------------------------------------------------

    def arrow_names(self) -> list[str]:
        return [self.geo.arrow_name(line, h) for line, h in enumerate(self.heads) if h is not None]

    def prompt(self) -> str:
        if self.phase == "over":
            assert self.outcome is not None
            return str(self.outcome["summary"])
        assert self.to_move is not None
        who = f"{COLOURS[self.to_move].capitalize()} ({LABELS[self.to_move]})"
        if self.phase == "piece_drop":
            king = self.options.variant == "king" and self.pawns_to_drop[self.to_move] == self.options.pawns
            return f"{who} drops {'their King' if king else 'a pawn'} on an empty point."
        if self.phase == "arrow_drop":
            return f"{who} drops an arrow on an empty line."
        return f"{who} moves a pawn along an arrow."

    def view(self, seat: int | None) -> JSON:
        names = self.geo.names
        moves: dict[str, list[str]] = {}
        if self.phase == "main" and self.to_move is not None:
            for frm, to in self.main_moves(self.to_move):
                moves.setdefault(names[frm], []).append(names[to])
        data: JSON = {
            "game": Trap.key,
            "seat": seat,
            "players": 2,
            "labels": list(LABELS),
            "colours": list(COLOURS),
            "variant": self.options.variant,
            "size": self.options.size,
            "quick_setup": self.options.quick_setup,
            "pawns_per_player": self.options.pawns,
            "phase": self.phase,
            "to_move": self.to_move,
            "prompt": self.prompt(),
            "points": list(names),
            "lines": [self.geo.line_name(line) for line in range(len(self.heads))],
            "pawns": [
                {"point": names[p], "owner": owner_of(c), "king": is_king(c)}
                for p, c in enumerate(self.board)
                if c >= 0
            ],
            "piece_counts": [self.pieces(0), self.pieces(1)],
            "pawns_to_drop": list(self.pawns_to_drop),
            "arrows_to_drop": sum(1 for h in self.heads if h is None),
            "arrows": self.arrow_names(),
            "stuck": [names[p] for p, c in enumerate(self.board) if c >= 0 and self._stuck(p)],
            "moves": moves,
            "last": None if self.last is None else _copy(self.last),
            "captured": [[dict(c) for c in side] for side in self.captured],
            "ply": self.ply,
            "quiet_plies": self.quiet_plies,
            "draw_plies": DRAW_PLIES,
            "positions": list(self.positions),
            "repetitions": self.positions.count(self.positions[-1]) if self.positions else 0,
            "result": None if self.outcome is None else dict(self.outcome),
        }
        if seat is not None:
            data["legal"] = self.legal_actions(seat)
        return data

    def quiet_actions(self) -> list[QuietAction]:
        if self.phase == "over":
            return []
        return [QuietAction("move", AUTO)]

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.outcome is None:
            return None
        winners = self.outcome["winners"]
        placements = tuple(
            Placement(s, 1 if s in winners else 2, self.pieces(s)) for s in range(self.players)
        )
        return Result(placements, self.outcome["summary"])

    def describe(self, action: Action) -> str:
        if action == AUTO:
            return "let the referee act for the player out of time"
        if not looks_like_action(action):
            return action
        if ">" not in action:
            return f"drop a pawn on {action}"
        left, _, right = action.partition(">")
        if self.phase == "arrow_drop":
            return f"drop an arrow on {left}–{right} pointing to {right}"
        return f"move {left} to {right}"

    # -- persistence --------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": Trap.key,
            "version": 1,
            "players": 2,
            "options": Trap().options_to_json(self.options),
            "seed": self.seed,
            "phase": self.phase,
            "to_move": self.to_move,
            "board": list(self.board),
            "heads": list(self.heads),
            "pawns_to_drop": list(self.pawns_to_drop),
            "captured": [[dict(c) for c in side] for side in self.captured],
            "last": None if self.last is None else _copy(self.last),
            "ply": self.ply,
            "quiet_plies": self.quiet_plies,
            "positions": list(self.positions),
            "actions_applied": self.actions_applied,
            "outcome": None if self.outcome is None else _copy(self.outcome),
            "fixed_arrows": None if self.fixed_arrows is None else list(self.fixed_arrows),
            "opening_events": [e.to_json() for e in self.opening_events],
        }

    @classmethod
    def from_json(cls, data: JSON) -> TrapState:
        if data.get("game") != Trap.key:
            raise ValueError(f"Not a Trap state: game is {data.get('game')!r}.")
        state = cls(Trap().parse_options(data["options"]), data["seed"])
        state.phase = data["phase"]
        state.to_move = data["to_move"]
        state.board = list(data["board"])
        state.heads = list(data["heads"])
        state.pawns_to_drop = list(data["pawns_to_drop"])
        state.captured = [[dict(c) for c in side] for side in data["captured"]]
        state.last = None if data["last"] is None else _copy(data["last"])
        state.ply = data["ply"]
        state.quiet_plies = data["quiet_plies"]
        state.positions = list(data["positions"])
        state.actions_applied = data["actions_applied"]
        state.outcome = None if data["outcome"] is None else _copy(data["outcome"])
        fixed = data.get("fixed_arrows")
        state.fixed_arrows = None if fixed is None else list(fixed)
        state.opening_events = [Event.from_json(e) for e in data.get("opening_events", [])]
        return state


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def outcome_summary(winners: list[int], reason: str) -> str:
    if len(winners) == 2:
        return {
            "both_kings": "Both Kings were captured by the same move: a draw.",
            "repetition": "The same position came up a third time: a draw.",
            "quiet_plies": f"{DRAW_PLIES} plies passed without a capture: a draw.",
        }[reason]
    winner = winners[0]
    name, loser = COLOURS[winner].capitalize(), COLOURS[1 - winner]
    return {
        "eliminated": f"{name} ({LABELS[winner]}) wins: {loser} has no pieces left.",
        "no_moves": f"{name} ({LABELS[winner]}) wins: {loser} cannot move.",
        "king": f"{name} ({LABELS[winner]}) wins: the {loser} King is captured.",
    }[reason]


def perft(state: TrapState, depth: int) -> int:
    """How many legal main-play move sequences of exactly ``depth`` plies start here (a finished
    game has none). Runs on copies, so ``state`` is untouched."""
    if depth == 0:
        return 1
    if state.phase == "over":
        return 0
    assert state.phase == "main", "perft counts main-play moves"
    total = 0
    snapshot = state.to_json()
    for action in state.legal_actions(state.to_move):
        child = TrapState.from_json(snapshot)
        child.apply(state.to_move, action)
        total += perft(child, depth - 1)
    return total


# ---------------------------------------------------------------------------------------------
# The game


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
        unknown = set(data) - {"variant", "size", "quick_setup"}
        if unknown:
            raise ValueError(f"Unknown Trap option(s): {', '.join(sorted(unknown))}.")
        return TrapOptions(
            variant=data.get("variant", "basic"),
            size=data.get("size", 5),
            quick_setup=data.get("quick_setup", False),
        )

    def options_to_json(self, options: Any) -> JSON:
        return {"variant": options.variant, "size": options.size, "quick_setup": options.quick_setup}

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
            events.append(
                Event(
                    "phase",
                    f"Piece Drop begins: {COLOURS[PIECE_DROP_FIRST].capitalize()} (A) drops first.",
                    None,
                    {"phase": "piece_drop", "to_move": PIECE_DROP_FIRST},
                )
            )
        else:
            apply_deal(state, deal, events)
        state.opening_events = events
        return state

    def from_json(self, data: JSON) -> TrapState:
        return TrapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer:
        # Imported here because the players module builds on this one's board helpers.
        from rules.trap_players import make_player

        return make_player(level, **settings)

    def rules_text(self) -> str:
        return RULES_TEXT

    def house_rulings(self, options: Any) -> list[str]:
        if options is None:
            options = TrapOptions()
        n = options.size
        last = f"{COLUMNS[n - 1]}{n}"
        rulings = [
            f"The board is {n} × {n} points (a1 to {last}) with one arrow on each of its "
            f"{line_count(n)} lines" + (" (table option)." if n == 6 else "."),
            f"Each player drops {options.pawns} pawns"
            + (
                " on the 6 × 6 board, so about two thirds of the points are filled as on 5 × 5."
                if n == 6
                else "."
            ),
            "Player A (red) drops the first pawn; player B (blue) drops the first arrow and makes the "
            "first move.",
            "A piece is trapped only when it has at least one arrow and every one of its arrows points in.",
            "Captures happen only on the far ends of the flipped arrows, so a piece that was already trapped "
            "when main play began stays safe until an arrow next to it flips or it is swapped away.",
            "A player who cannot move at the start of their turn loses, even with pawns left.",
            "Threefold repetition of the same position (pieces, arrows and player to move) is a draw.",
            f"{DRAW_PLIES} plies in a row without a capture is a draw.",
            "A win by capture or by leaving the other player without a move counts before a draw by "
            "repetition or by the ply limit on the same move.",
            "If the player to move runs out of time, the referee plays for them: a random drop, or a random "
            "move among those that lose none of their own pawns; with table timers off this still happens "
            "after 15 minutes so a table never hangs.",
            "A player's score is the number of their pieces left on the board at the end.",
        ]
        if options.quick_setup:
            rulings.append(
                "Quick setup (table option): after the Piece Drop every line gets an arrow pointing a random "
                "way, drawn from the game's seed, instead of the Arrow Drop."
            )
        if options.variant == "king":
            rulings += [
                "King variant (table option): each player's first dropped pawn is their King, marked for "
                "everyone to see; capturing it wins, even your own capture of it loses you the game.",
                "If one move captures both Kings, the game is a draw.",
            ]
        return rulings


def apply_deal(state: TrapState, deal: JSON, events: list[Event]) -> None:
    """Set up a scenario position (format in rules/FORMATS_trap.md); ValueError if it is not valid."""
    if not isinstance(deal, dict):
        raise ValueError("A Trap deal is an object with 'pawns' and/or 'arrows'.")
    unknown = set(deal) - {"pawns", "arrows", "to_move", "quiet_plies"}
    if unknown:
        raise ValueError(f"Unknown Trap deal key(s): {', '.join(sorted(unknown))}.")
    geo = state.geo
    pawns, arrows = deal.get("pawns"), deal.get("arrows")
    if pawns is None and arrows is None:
        raise ValueError("A Trap deal needs 'pawns', 'arrows' or both.")
    if ("to_move" in deal or "quiet_plies" in deal) and (pawns is None or arrows is None):
        raise ValueError("'to_move' and 'quiet_plies' need a full position: give both 'pawns' and 'arrows'.")
    heads: list[int | None] | None = None
    if arrows is not None:
        if not isinstance(arrows, list):
            raise ValueError("'arrows' is a list of arrows such as 'c3>c4'.")
        heads = [None] * len(state.heads)
        for text in arrows:
            if not isinstance(text, str) or not looks_like_action(text) or ">" not in text:
                raise ValueError(f"{text!r} is not an arrow such as 'c3>c4'.")
            try:
                _, head, line = parse_pair(geo, text)
            except IllegalAction as exc:
                raise ValueError(exc.reason) from None
            if heads[line] is not None:
                raise ValueError(f"The line {geo.line_name(line)} has two arrows in the deal.")
            heads[line] = head
        missing = [geo.line_name(line) for line, h in enumerate(heads) if h is None]
        if missing:
            raise ValueError(f"The deal's arrows must cover every line; missing: {', '.join(missing)}.")
        if pawns is None and not state.options.quick_setup:
            raise ValueError("Arrows without pawns fix the quick setup's random arrows: turn quick_setup on.")
    if pawns is not None:
        if not isinstance(pawns, list) or len(pawns) != 2:
            raise ValueError("'pawns' holds two lists of points, one per seat, in drop order.")
        seen: set[int] = set()
        for seat, points in enumerate(pawns):
            if not isinstance(points, list) or not 1 <= len(points) <= state.options.pawns:
                raise ValueError(f"Each seat needs 1 to {state.options.pawns} pawns in the deal.")
            for order, name in enumerate(points):
                if not isinstance(name, str) or name not in geo.index:
                    raise ValueError(f"{name!r} is not a point on this board.")
                point = geo.index[name]
                if point in seen:
                    raise ValueError(f"Two pawns are dealt on {name}.")
                seen.add(point)
                king = state.options.variant == "king" and order == 0
                state.board[point] = seat + (2 if king else 0)
            state.pawns_to_drop[seat] = 0
    if pawns is None:
        # Quick setup with fixed arrows: the Piece Drop is played, then these arrows go down.
        state.fixed_arrows = heads
        events.append(
            Event(
                "phase",
                f"Piece Drop begins: {COLOURS[PIECE_DROP_FIRST].capitalize()} (A) drops first.",
                None,
                {"phase": "piece_drop", "to_move": PIECE_DROP_FIRST},
            )
        )
        return
    if heads is None:
        state._after_piece_drop(events)
        return
    state.heads = heads
    to_move = deal.get("to_move", MAIN_FIRST)
    if to_move not in (0, 1):
        raise ValueError("'to_move' is seat 0 or 1.")
    quiet = deal.get("quiet_plies", 0)
    if isinstance(quiet, bool) or not isinstance(quiet, int) or not 0 <= quiet < DRAW_PLIES:
        raise ValueError(f"'quiet_plies' is a whole number from 0 to {DRAW_PLIES - 1}.")
    state.quiet_plies = quiet
    events.append(
        Event("phase", "The game starts from a set position.", None, {"phase": "setup", "to_move": to_move})
    )
    state._begin_main(to_move, events)


RULES_TEXT = """\
# Trap

**Goal:** capture every opposing piece (King variant: capture the opposing King). Pieces are
captured by *trapping* them: a piece is trapped when every arrow at its point points in at it.

## The board
A 5 × 5 grid of points, a1 to e5 (a 6 × 6 board is a table option). Each line between two
neighbouring points holds one arrow, pointing to one end of the line.

## Setting up
1. **Piece Drop.** Player A (red) and player B (blue) take turns dropping their 8 pawns (12 on
   6 × 6) on empty points, A first. In the King variant your first pawn is your **King**, marked
   for everyone to see.
2. **Arrow Drop.** Taking turns, B first, the players drop the neutral arrows on the empty lines,
   each pointing whichever way they like. No captures happen while setting up. *Quick setup* (table
   option) places every arrow at random instead.

## Main play
B moves first, then turns alternate. On your turn move one of your pawns one step along an arrow
at its point, in the arrow's direction, never against it. If the point you move to is occupied, the
two pieces **swap** places (this works with your own pawns too).

Then **every arrow on a line touching the point you moved to flips** to point the other way (not the
arrows at the point you left, and not those at the swapped piece's new point).

Any piece, yours or your opponent's, that is now trapped because of those flips is **captured**. You
can capture your own pieces this way! The pawn you moved can never be trapped by its own move, since
the arrow it travelled along now points back out.

A piece that is already trapped when main play begins is safe (but cannot move) until an arrow next
to it flips or it is swapped away.

## Winning
- **Basic:** the last player with pieces on the board wins. If you cannot move at the start of your
  turn, you lose.
- **King variant:** capture the opposing King to win. If one move captures both Kings, it is a draw.
- **Draws:** the same position a third time, or 100 plies without a capture.

## Notation
Points are written `c3`. A pawn drop is `c3`; an arrow drop `c3>c4` puts the arrow on the line c3–c4
pointing to c4; a move `c3>c4` takes your pawn from c3 to c4.
"""
