"""Trap's board: points, lines, arrows and pieces, and the move itself.

Points are ints (row * size + column) named "a1".."e5" (or "a1".."f6"): columns a.. left to right,
rows 1.. bottom to top. Every unit line between two neighbouring points (a *line*) holds one arrow;
an arrow is stored as the point its head touches. A board cell holds a piece code: EMPTY, or the
owner's seat, plus 2 when the piece is that owner's King.

The move works on plain lists, so the rules (state.py) and the computer players' search
(players.py) run the same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules.base import Action, IllegalAction

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
    raise IllegalAction("no_such_point", point=text, size=geo.size)


def parse_pair(geo: Geometry, action: Action) -> tuple[int, int, int]:
    """'c3>c4' -> (c3, c4, line c3–c4); IllegalAction if the points are not neighbours."""
    left, _, right = action.partition(">")
    p, q = parse_point(geo, left), parse_point(geo, right)
    line = geo.line_between(p, q)
    if line is None:
        raise IllegalAction("not_neighbours", **{"from": left, "to": right})
    return p, q, line


def looks_like_action(action: Action) -> bool:
    parts = action.split(">")
    if len(parts) > 2 or len(action) > 48:
        return False
    return all(len(p) >= 2 and p[0] in COLUMNS and p[1:].isdigit() for p in parts)
