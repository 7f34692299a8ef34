"""Computer players for Trap. They rebuild the board from their own view (everything in Trap is public)
and decide from it, the legal actions and their RNG only.

- ``easy``: random drops and moves, but it grabs a capture it can see half the time.
- ``medium``: sensible drops; in main play one ply with safety: the move whose captures, minus the
  best capture the reply could make, are worth most.
- ``hard``: sensible drops, a small look-ahead over the last arrows; in main play an alpha-beta
  search with iterative deepening, capture-first ordering, killer moves and a capture-only
  quiescence search, bounded by a node budget so it is deterministic and takes about a second at most.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.base import Action
from rules.trap.board import EMPTY, Geometry, geometry, legal_moves, make_move, position_key, unmake_move
from rules.trap.state import DRAW_PLIES, MAIN_FIRST, REPETITIONS
from rules.trap.views import TrapView

WIN = 1_000_000
PIECE = 100
HARD_NODE_BUDGET = 25000  # measured: at most about a second per move on a 2-core machine


@dataclass
class Position:
    """The board as plain lists, rebuilt from a view."""

    geo: Geometry
    board: list[int]
    heads: list[int | None]
    to_move: int
    king_variant: bool
    quiet_plies: int
    positions: list[str]

    @classmethod
    def from_view(cls, view: TrapView) -> Position:
        geo = geometry(view["size"])
        board = [EMPTY] * geo.points
        for pawn in view["pawns"]:
            board[geo.index[pawn["point"]]] = pawn["owner"] + (2 if pawn["king"] else 0)
        heads: list[int | None] = [None] * len(geo.ends)
        for arrow in view["arrows"]:
            tail, head = (geo.index[p] for p in arrow.split(">"))
            line = geo.line_between(tail, head)
            assert line is not None
            heads[line] = head
        to_move = view["to_move"] if view["to_move"] is not None else 0
        return cls(
            geo,
            board,
            heads,
            to_move,
            view["variant"] == "king",
            view.get("quiet_plies", 0),
            list(view.get("positions", [])),
        )

    def full_heads(self) -> list[int]:
        return [h for h in self.heads if h is not None]


def parse_move(geo: Geometry, action: Action) -> tuple[int, int]:
    left, _, right = action.partition(">")
    return geo.index[left], geo.index[right]


def predicted_captures(geo: Geometry, board: list[int], heads: list[int], frm: int, to: int) -> list[int]:
    """The codes of the pieces the move (frm, to) would capture, without making it: a far end of a
    line at ``to`` is trapped when that line points to ``to`` now (it flips toward the far end) and
    every other line there already points in."""
    codes = []
    for line, r in geo.neighbours[to]:
        if heads[line] != to:
            continue
        code = board[to] if r == frm else board[r]
        if code < 0:
            continue
        for other in geo.lines_at[r]:
            if other != line and heads[other] != r:
                break
        else:
            codes.append(code)
    return codes


def capture_value(codes: list[int], me: int, king_variant: bool) -> int:
    """Worth of a set of captured pieces to ``me``; a King decides the game."""
    value = 0
    kings = [c & 1 for c in codes if c >= 2] if king_variant else []
    if kings:
        if len(kings) == 2:
            return 0
        return WIN // 2 if kings[0] != me else -WIN // 2
    for code in codes:
        value += PIECE if code & 1 != me else -PIECE
    return value


# ---------------------------------------------------------------------------------------------
# Main-play search


class SearchBudgetSpent(Exception):
    pass


class Searcher:
    """Negamax alpha-beta over a Position, counting nodes against a budget."""

    def __init__(self, pos: Position, budget: int) -> None:
        self.pos = pos
        self.geo = pos.geo
        self.board = list(pos.board)
        self.heads = pos.full_heads()
        self.budget = budget
        self.nodes = 0
        self.counts = [0, 0]
        for code in self.board:
            if code >= 0:
                self.counts[code & 1] += 1
        self.killers: dict[int, tuple[int, int]] = {}
        self.history: dict[tuple[int, int], int] = {}

    # -- evaluation ---------------------------------------------------------------------------

    def evaluate(self, side: int) -> int:
        """Material, plus mobility: a pawn with one way out is one flip from being trapped."""
        geo, board, heads = self.geo, self.board, self.heads
        score = [0, 0]
        for p, code in enumerate(board):
            if code < 0:
                continue
            outs = 0
            for line in geo.lines_at[p]:
                if heads[line] != p:
                    outs += 1
            value = PIECE + 6 * min(outs, 3)
            if outs == 1:
                value -= 14
            elif outs == 0:
                value -= 8  # safe for now but immobile
            if code >= 2 and self.pos.king_variant:
                value += 40 * min(outs, 2) - 60
            score[code & 1] += value
        return score[side] - score[1 - side]

    # -- search -------------------------------------------------------------------------------

    def ordered(
        self, side: int, ply: int, first: tuple[int, int] | None = None
    ) -> list[tuple[int, int, int]]:
        """(gain, from, to) with the most promising moves first."""
        geo, board, heads = self.geo, self.board, self.heads
        killer = self.killers.get(ply)
        scored = []
        for frm, to in legal_moves(geo, board, heads, side):
            codes = predicted_captures(geo, board, heads, frm, to)
            gain = capture_value(codes, side, self.pos.king_variant)
            key = gain * 1000 + self.history.get((frm, to), 0)
            if (frm, to) == first:
                key += 10**9
            elif (frm, to) == killer:
                key += 500
            scored.append((key, gain, frm, to))
        scored.sort(key=lambda item: -item[0])
        return [(gain, frm, to) for _, gain, frm, to in scored]

    def play(self, frm: int, to: int) -> list[tuple[int, int]]:
        captured = make_move(self.geo, self.board, self.heads, frm, to)
        for _, code in captured:
            self.counts[code & 1] -= 1
        return captured

    def undo(self, frm: int, to: int, captured: list[tuple[int, int]]) -> None:
        for _, code in captured:
            self.counts[code & 1] += 1
        unmake_move(self.geo, self.board, self.heads, frm, to, captured)

    def terminal(self, side: int, captured: list[tuple[int, int]], ply: int) -> int | None:
        """Score for ``side`` (who just moved) if the move ended the game, else None."""
        if self.pos.king_variant:
            kings = {code & 1 for _, code in captured if code >= 2}
            if len(kings) == 2:
                return 0
            if kings:
                return WIN - ply if side not in kings else -WIN + ply
        if self.counts[1 - side] == 0:
            return WIN - ply
        return None

    def negamax(self, side: int, depth: int, alpha: int, beta: int, ply: int, quiet: int) -> int:
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchBudgetSpent
        moves = self.ordered(side, ply)
        if not moves:
            return -WIN + ply
        if quiet + ply >= DRAW_PLIES:
            return 0
        if depth <= 0:
            return self.quiesce(side, alpha, beta, ply, moves, 3)
        best = -WIN * 2
        for _, frm, to in moves:
            captured = self.play(frm, to)
            score = self.terminal(side, captured, ply + 1)
            if score is None:
                score = -self.negamax(1 - side, depth - 1, -beta, -alpha, ply + 1, 0 if captured else quiet)
            self.undo(frm, to, captured)
            if score > best:
                best = score
            if score > alpha:
                alpha = score
            if alpha >= beta:
                self.killers[ply] = (frm, to)
                self.history[(frm, to)] = self.history.get((frm, to), 0) + depth * depth
                break
        return best

    def quiesce(
        self, side: int, alpha: int, beta: int, ply: int, moves: list[tuple[int, int, int]], left: int
    ) -> int:
        stand = self.evaluate(side)
        if stand >= beta or left == 0:
            return stand
        alpha = max(alpha, stand)
        for gain, frm, to in moves:
            if gain <= 0:
                break  # ordered: the gains come first
            captured = self.play(frm, to)
            score = self.terminal(side, captured, ply + 1)
            if score is None:
                self.nodes += 1
                if self.nodes > self.budget:
                    self.undo(frm, to, captured)
                    raise SearchBudgetSpent
                replies = self.ordered(1 - side, ply + 1)
                if not replies:
                    score = WIN - ply - 1
                else:
                    score = -self.quiesce(1 - side, -beta, -alpha, ply + 1, replies, left - 1)
            self.undo(frm, to, captured)
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha

    def root_scores(self, side: int, moves: list[tuple[int, int]], depth: int) -> list[tuple[int, int, int]]:
        """Each root move's score at ``depth`` (alpha-beta: only the best is exact)."""
        alpha = -WIN * 2
        results = []
        for frm, to in moves:
            captured = self.play(frm, to)
            try:
                score = self.terminal(side, captured, 1)
                if score is None:
                    if self.repeats_too_often(frm, to, side):
                        score = 0
                    else:
                        quiet = 0 if captured else self.pos.quiet_plies + 1
                        score = -self.negamax(1 - side, depth - 1, -WIN * 2, -alpha, 1, quiet)
            finally:
                self.undo(frm, to, captured)
            results.append((score, frm, to))
            alpha = max(alpha, score)
        return results

    def repeats_too_often(self, frm: int, to: int, side: int) -> bool:
        key = position_key(self.geo, self.board, list(self.heads), 1 - side)
        return self.pos.positions.count(key) + 1 >= REPETITIONS

    def best_move(self, side: int, rng: random.Random, max_depth: int = 12) -> tuple[int, int]:
        moves = legal_moves(self.geo, self.board, self.heads, side)
        rng.shuffle(moves)
        best = moves[0]
        for depth in range(1, max_depth + 1):
            try:
                scores = self.root_scores(side, moves, depth)
            except SearchBudgetSpent:
                break
            # A stable sort keeps the shuffled order among equals, so ties go the RNG's way.
            scores.sort(key=lambda item: -item[0])
            best = (scores[0][1], scores[0][2])
            moves = [(frm, to) for _, frm, to in scores]
            if abs(scores[0][0]) >= WIN - 100:
                break  # a forced result is found: deeper search changes nothing
        return best


# ---------------------------------------------------------------------------------------------
# Drops


def drop_pawn_score(pos: Position, point: int, me: int, king: bool) -> float:
    """Points with more lines give more ways out and need more arrows to trap."""
    geo = pos.geo
    lines = len(geo.lines_at[point])
    score = 2.0 * lines
    if king:
        score += 4.0 * lines
    own_neighbours = sum(1 for _, q in geo.neighbours[point] if pos.board[q] >= 0 and pos.board[q] & 1 == me)
    return score - 0.5 * own_neighbours


def drop_arrow_score(pos: Position, me: int) -> float:
    """How good the arrows so far look for ``me``: ways out for own pawns, pressure on the others'."""
    geo, board, heads = pos.geo, pos.board, pos.heads
    total = 0.0
    for p, code in enumerate(board):
        if code < 0:
            continue
        outs = ins = free = 0
        for line in geo.lines_at[p]:
            head = heads[line]
            if head is None:
                free += 1
            elif head == p:
                ins += 1
            else:
                outs += 1
        value = 3.0 * min(outs, 2) - 1.0 * ins
        if outs == 1 and free == 0:
            value -= 6.0  # one flip from trapped
        if outs == 0 and free == 0:
            value -= 4.0  # immobile until freed
        if outs == 0 and free == 1:
            value -= 3.0
        if code >= 2 and pos.king_variant:
            value *= 3.0
        total += value if code & 1 == me else -value
    return total


def main_play_score(pos: Position, heads: list[int], me: int, budget: int) -> int:
    """A short search from main play's first position, scored for ``me``."""
    first = pos.to_move
    start = Position(pos.geo, list(pos.board), list(heads), first, pos.king_variant, 0, [])
    searcher = Searcher(start, budget)
    moves = legal_moves(start.geo, start.board, heads, first)
    if not moves:
        return -WIN if first == me else WIN
    score = -WIN * 2
    try:
        for depth in (1, 2):
            results = searcher.root_scores(first, moves, depth)
            score = max(s for s, _, _ in results)
    except SearchBudgetSpent:
        pass
    return score if first == me else -score


# ---------------------------------------------------------------------------------------------
# Players


class TrapPlayer:
    """Shared timing and phase dispatch; subclasses decide."""

    level = "base"
    reaction = (1.5, 3.0)  # seconds for a move; drops are quicker
    # A player whose decision can take long enough to hold up other tables (a search); the bot
    # runs its decisions off the event loop.
    thinks_long = False

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("A computer player's speed multiplier must be positive.")
        self.speed = speed

    def choose(self, view: TrapView, legal: list[Action], rng: random.Random) -> Action | None:
        me = view.get("seat")
        if not legal or me is None or view.get("to_move") != me:
            return None
        pos = Position.from_view(view)
        if view["phase"] == "piece_drop":
            return self.drop_pawn(pos, me, legal, view, rng)
        if view["phase"] == "arrow_drop":
            return self.drop_arrow(pos, me, legal, rng)
        return self.move(pos, me, legal, rng)

    def drop_pawn(
        self, pos: Position, me: int, legal: list[Action], view: TrapView, rng: random.Random
    ) -> Action:
        king = pos.king_variant and view["pawns_to_drop"][me] == view["pawns_per_player"]
        return max(legal, key=lambda a: drop_pawn_score(pos, pos.geo.index[a], me, king) + rng.random() * 2.0)

    def drop_arrow(self, pos: Position, me: int, legal: list[Action], rng: random.Random) -> Action:
        def score(action: Action) -> float:
            tail, head = parse_move(pos.geo, action)
            line = pos.geo.line_between(tail, head)
            assert line is not None
            pos.heads[line] = head
            value = drop_arrow_score(pos, me)
            pos.heads[line] = None
            return value + rng.random() * 0.5

        return max(legal, key=score)

    def move(self, pos: Position, me: int, legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)

    def reaction_time(self, view: TrapView, action: Action, rng: random.Random) -> float:
        low, high = self.reaction
        seconds = rng.uniform(low, high)
        if view.get("phase") != "main":
            seconds *= 0.6
        return seconds * self.speed


class EasyPlayer(TrapPlayer):
    level = "easy"
    reaction = (2.0, 4.0)

    def drop_pawn(
        self, pos: Position, me: int, legal: list[Action], view: TrapView, rng: random.Random
    ) -> Action:
        return rng.choice(legal)

    def drop_arrow(self, pos: Position, me: int, legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)

    def move(self, pos: Position, me: int, legal: list[Action], rng: random.Random) -> Action:
        heads = pos.full_heads()
        grabs = [
            a
            for a in legal
            if capture_value(
                predicted_captures(pos.geo, pos.board, heads, *parse_move(pos.geo, a)), me, False
            )
            > 0
        ]
        if grabs and rng.random() < 0.5:
            return rng.choice(grabs)
        return rng.choice(legal)


class MediumPlayer(TrapPlayer):
    level = "medium"
    reaction = (1.5, 3.5)

    def move(self, pos: Position, me: int, legal: list[Action], rng: random.Random) -> Action:
        geo, board, heads = pos.geo, pos.board, pos.full_heads()

        def score(action: Action) -> float:
            frm, to = parse_move(geo, action)
            captured = make_move(geo, board, heads, frm, to)
            value = capture_value([c for _, c in captured], me, pos.king_variant)
            if abs(value) < WIN // 2 and not any(c & 1 != me for c in board if c >= 0):
                value = WIN
            elif abs(value) < WIN // 2:
                replies = legal_moves(geo, board, heads, 1 - me)
                if not replies:
                    value = WIN
                else:
                    worst = max(
                        capture_value(predicted_captures(geo, board, heads, f, t), 1 - me, pos.king_variant)
                        for f, t in replies
                    )
                    value -= max(worst, 0)
            unmake_move(geo, board, heads, frm, to, captured)
            return value + rng.random()

        return max(legal, key=score)


class HardPlayer(TrapPlayer):
    level = "hard"
    reaction = (1.0, 3.0)
    thinks_long = True

    def __init__(self, speed: float = 1.0, node_budget: int = HARD_NODE_BUDGET) -> None:
        super().__init__(speed)
        if node_budget < 1:
            raise ValueError("The node budget must be at least 1.")
        self.node_budget = node_budget

    def drop_arrow(self, pos: Position, me: int, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) > 2:
            return super().drop_arrow(pos, me, legal, rng)
        # The last arrow decides how main play opens: look at the first moves of each way.
        budget = max(self.node_budget // len(legal), 1)

        def score(action: Action) -> float:
            tail, head = parse_move(pos.geo, action)
            line = pos.geo.line_between(tail, head)
            assert line is not None
            heads = list(pos.heads)
            heads[line] = head
            first = Position(pos.geo, pos.board, heads, MAIN_FIRST, pos.king_variant, 0, [])
            return main_play_score(first, [h for h in heads if h is not None], me, budget) + rng.random()

        return max(legal, key=score)

    def move(self, pos: Position, me: int, legal: list[Action], rng: random.Random) -> Action:
        frm, to = Searcher(pos, self.node_budget).best_move(me, rng)
        action = f"{pos.geo.names[frm]}>{pos.geo.names[to]}"
        return action if action in legal else rng.choice(legal)


LEVELS: dict[str, type[TrapPlayer]] = {"easy": EasyPlayer, "medium": MediumPlayer, "hard": HardPlayer}


def make_player(level: str, **settings: Any) -> TrapPlayer:
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"Unknown Trap computer level {level!r}: choose from {', '.join(LEVELS)}.") from None
    return cls(**settings)
