"""Scenario helpers for the Trap tests, and an independent brute-force model of the rules.

Positions are written with ``arrows_with``: every arrow points to the higher end of its line (right on
a row, up on a column) unless overridden, so on the default field a1 has every arrow pointing out and
the top-right corner has every arrow pointing in.
"""

from __future__ import annotations

import json
from typing import Any

from rules.base import IllegalAction
from rules.trap import Trap, TrapState

GAME = Trap()
COLUMNS = "abcdef"


def point(column: int, row: int) -> str:
    return f"{COLUMNS[column]}{row + 1}"


def all_lines(size: int = 5) -> list[tuple[str, str]]:
    lines = []
    for row in range(size):
        for column in range(size - 1):
            lines.append((point(column, row), point(column + 1, row)))
    for column in range(size):
        for row in range(size - 1):
            lines.append((point(column, row), point(column, row + 1)))
    return lines


def arrows_with(*overrides: str, size: int = 5) -> list[str]:
    """One arrow per line, pointing to the higher end unless an override "tail>head" says otherwise."""
    wanted = {frozenset(o.split(">")): o for o in overrides}
    assert len(wanted) == len(overrides), "two overrides for one line"
    arrows = []
    for low, high in all_lines(size):
        arrows.append(wanted.pop(frozenset((low, high)), f"{low}>{high}"))
    assert not wanted, f"not lines: {sorted(wanted.values())}"
    return arrows


def position(
    a: list[str], b: list[str], *overrides: str, to_move: int = 1, quiet_plies: int = 0, **options: Any
) -> TrapState:
    """Main play from a set position: seat 0's pawns ``a``, seat 1's ``b`` (first = King in the King
    variant), the default arrows with ``overrides``."""
    size = options.get("size", 5)
    deal = {
        "pawns": [a, b],
        "arrows": arrows_with(*overrides, size=size),
        "to_move": to_move,
        "quiet_plies": quiet_plies,
    }
    return GAME.new_game(2, GAME.parse_options(options), 7, deal)


def snapshot(state: TrapState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def refused(state: TrapState, seat: int | None, action: str) -> tuple[str, dict[str, Any]]:
    """Apply an action that must be illegal; check nothing changed and return the refusal's code
    and parameters (the table words them: cogs/trap.py ``refusal``)."""
    before = snapshot(state)
    try:
        state.apply(seat, action)
    except IllegalAction as exc:
        assert snapshot(state) == before, "an illegal action changed the state"
        return exc.code, exc.params
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def pawn_map(state: TrapState) -> dict[str, tuple[int, bool]]:
    return {p["point"]: (p["owner"], p["king"]) for p in state.view(None)["pawns"]}


def arrow_set(state: TrapState) -> set[str]:
    return set(state.view(None)["arrows"])


# ---------------------------------------------------------------------------------------------
# Brute force: the rules again, written as plainly as possible on dicts of (column, row) points.

Point = tuple[int, int]
Pieces = dict[Point, tuple[int, bool]]
Arrows = dict[frozenset[Point], Point]


def to_xy(name: str) -> Point:
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def brute_from_state(state: TrapState) -> tuple[Pieces, Arrows, int, int, bool]:
    view = state.view(None)
    pieces = {to_xy(p["point"]): (p["owner"], p["king"]) for p in view["pawns"]}
    arrows: Arrows = {}
    for arrow in view["arrows"]:
        tail, head = (to_xy(p) for p in arrow.split(">"))
        arrows[frozenset((tail, head))] = head
    return pieces, arrows, view["to_move"], view["size"], view["variant"] == "king"


def neighbours(p: Point, size: int) -> list[Point]:
    x, y = p
    return [
        (a, b) for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)) if 0 <= a < size and 0 <= b < size
    ]


def brute_moves(pieces: Pieces, arrows: Arrows, seat: int, size: int) -> list[tuple[Point, Point]]:
    return [
        (p, q)
        for p, (owner, _) in pieces.items()
        if owner == seat
        for q in neighbours(p, size)
        if arrows[frozenset((p, q))] == q
    ]


def brute_apply(
    pieces: Pieces, arrows: Arrows, move: tuple[Point, Point], size: int
) -> tuple[Pieces, Arrows, list[Point]]:
    p, q = move
    pieces, arrows = dict(pieces), dict(arrows)
    mover, other = pieces.pop(p), pieces.pop(q, None)
    pieces[q] = mover
    if other is not None:
        pieces[p] = other
    for r in neighbours(q, size):
        line = frozenset((q, r))
        arrows[line] = r if arrows[line] == q else q
    trapped = [
        r
        for r in neighbours(q, size)
        if r in pieces
        and arrows[frozenset((q, r))] == r
        and all(arrows[frozenset((r, s))] == r for s in neighbours(r, size))
    ]
    for r in trapped:
        del pieces[r]
    return pieces, arrows, trapped


def brute_perft(pieces: Pieces, arrows: Arrows, seat: int, size: int, king: bool, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in brute_moves(pieces, arrows, seat, size):
        after, new_arrows, _ = brute_apply(pieces, arrows, move, size)
        kings_left = {owner for owner, is_king in after.values() if is_king}
        over = (king and len(kings_left) < 2) or not any(o == 1 - seat for o, _ in after.values())
        over = over or not brute_moves(after, new_arrows, 1 - seat, size)
        if over:
            total += 1 if depth == 1 else 0
        else:
            total += brute_perft(after, new_arrows, 1 - seat, size, king, depth - 1)
    return total
