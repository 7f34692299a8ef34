"""Trap's rules: a game in progress (``TrapState``), from the Piece Drop to the end.

Phases: ``piece_drop`` (A, B, A, ... each drops their pawns on empty points), ``arrow_drop`` (B, A, B,
... drop the arrows; skipped with the quick-setup option, which places them at random from the seed),
``main`` (B moves first), then ``over``. Seat 0 is player A (red pawns), seat 1 is player B (blue
pawns). The action notation and the events are described in the package's docstring (__init__.py),
the views in views.py.
"""

from __future__ import annotations

import random
from typing import Any, Final

from rules.base import JSON, Action, Event, IllegalAction, Placement, QuietAction, Result, State
from rules.trap.board import (
    EMPTY,
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
from rules.trap.options import TrapOptions, options_to_json, parse_options
from rules.trap.views import LastAction, LostPiece, Outcome, PawnView, Phase, Reason, TrapView

GAME_KEY: Final = "trap"
DRAW_PLIES = 100
REPETITIONS = 3
LABELS = ("A", "B")
COLOURS = ("red", "blue")
PIECE_DROP_FIRST = 0  # A
ARROW_DROP_FIRST = 1  # B
MAIN_FIRST = 1  # B
AUTO = "auto"


class TrapState(State[TrapView]):
    def __init__(self, options: TrapOptions, seed: int) -> None:
        self.players = 2
        self.options = options
        self.seed = seed
        self.geo = geometry(options.size)
        self.phase: Phase = "piece_drop"
        self.to_move: int | None = PIECE_DROP_FIRST
        self.board: list[int] = [EMPTY] * self.geo.points
        self.heads: list[int | None] = [None] * line_count(options.size)
        self.pawns_to_drop = [options.pawns, options.pawns]
        self.captured: list[list[LostPiece]] = [[], []]
        self.last: LastAction | None = None
        self.ply = 0
        self.quiet_plies = 0
        self.positions: list[str] = []
        self.actions_applied = 0
        self.outcome: Outcome | None = None  # {"winners", "reason"} once over
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
            raise IllegalAction("game_over")
        if action == AUTO:
            if seat is not None:
                raise IllegalAction("referee_only")
            return
        if seat is None:
            raise IllegalAction("player_only")
        if seat not in (0, 1):
            raise IllegalAction("no_such_seat", seat=seat)
        if not looks_like_action(action):
            raise IllegalAction("not_an_action", action=action)
        if seat != self.to_move:
            raise IllegalAction("not_your_turn")
        if self.phase == "piece_drop":
            self._check_drop(action)
        elif self.phase == "arrow_drop":
            self._check_arrow(action)
        else:
            self._check_move(seat, action)

    def _check_drop(self, action: Action) -> None:
        if ">" in action:
            raise IllegalAction("pawns_first")
        point = parse_point(self.geo, action)
        if self.board[point] != EMPTY:
            raise IllegalAction("point_taken", point=action)

    def _check_arrow(self, action: Action) -> None:
        if ">" not in action:
            raise IllegalAction("arrows_now")
        _, _, line = parse_pair(self.geo, action)
        if self.heads[line] is not None:
            raise IllegalAction("line_has_arrow", line=self.geo.line_name(line))

    def _check_move(self, seat: int, action: Action) -> None:
        if ">" not in action:
            raise IllegalAction("moves_now")
        frm, to, line = parse_pair(self.geo, action)
        names = self.geo.names
        code = self.board[frm]
        if code == EMPTY or owner_of(code) != seat:
            raise IllegalAction("no_pawn", point=names[frm])
        if self.heads[line] != to:
            raise IllegalAction("against_arrow", **{"from": names[frm], "to": names[to]})

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        self._check(seat, action)
        events: list[Event] = []
        auto = action == AUTO
        if auto:
            assert self.to_move is not None
            events.append(Event("timeout", data={"seat": self.to_move}))
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
        events.append(Event("drop", seat=seat, data={"point": action, "king": king, "auto": auto}))
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
            events.append(Event("arrows_placed", data={"arrows": arrows}))
            self._begin_main(MAIN_FIRST, events)
            return
        self.phase = "arrow_drop"
        self.to_move = ARROW_DROP_FIRST
        events.append(Event("phase", data={"phase": "arrow_drop", "to_move": ARROW_DROP_FIRST}))

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
        events.append(Event("arrow", seat=seat, data={"from": names[tail], "to": names[head], "auto": auto}))
        if any(h is None for h in self.heads):
            self.to_move = 1 - seat
        else:
            self._begin_main(MAIN_FIRST, events)

    def _begin_main(self, first: int, events: list[Event]) -> None:
        self.phase = "main"
        self.to_move = first
        self.positions = [self._key()]
        # The pieces that begin trapped (safe until an arrow next to them flips), by point.
        stuck = [self.geo.names[p] for p, c in enumerate(self.board) if c >= 0 and self._stuck(p)]
        events.append(Event("phase", data={"phase": "main", "to_move": first, "stuck": stuck}))
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
        capture_data: list[PawnView] = [
            {"point": names[p], "owner": owner_of(c), "king": is_king(c)} for p, c in captured
        ]
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
        data: JSON = {"from": names[frm], "to": names[to], "swap": swap, "flips": flips, "auto": auto}
        if swap is not None:
            data["swap_king"] = is_king(swapped)
        events.append(Event("move", seat=seat, data=data))
        for item in capture_data:
            self.captured[item["owner"]].append(
                {"point": item["point"], "king": item["king"], "ply": self.ply}
            )
            events.append(Event("capture", data={**item, "by": seat}))
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

    def _finish(self, winners: list[int], reason: Reason, events: list[Event]) -> None:
        self.phase = "over"
        self.to_move = None
        self.outcome = {"winners": list(winners), "reason": reason}
        events.append(Event("game_over", data={"winners": winners, "reason": reason}))

    # -- what players see ---------------------------------------------------------------------

    def arrow_names(self) -> list[str]:
        return [self.geo.arrow_name(line, h) for line, h in enumerate(self.heads) if h is not None]

    def view(self, seat: int | None) -> TrapView:
        names = self.geo.names
        moves: dict[str, list[str]] = {}
        if self.phase == "main" and self.to_move is not None:
            for frm, to in self.main_moves(self.to_move):
                moves.setdefault(names[frm], []).append(names[to])
        data: TrapView = {
            "game": GAME_KEY,
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
            "captured": [[c.copy() for c in side] for side in self.captured],
            "ply": self.ply,
            "quiet_plies": self.quiet_plies,
            "draw_plies": DRAW_PLIES,
            "positions": list(self.positions),
            "repetitions": self.positions.count(self.positions[-1]) if self.positions else 0,
            "result": None if self.outcome is None else self.outcome.copy(),
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
        return Result(placements, how=self.outcome["reason"], details={"winners": list(winners)})

    # -- persistence --------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": GAME_KEY,
            "version": 1,
            "players": 2,
            "options": options_to_json(self.options),
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
        if data.get("game") != GAME_KEY:
            raise ValueError(f"Not a Trap state: game is {data.get('game')!r}.")
        state = cls(parse_options(data["options"]), data["seed"])
        state.phase = data["phase"]
        state.to_move = data["to_move"]
        state.board = list(data["board"])
        state.heads = list(data["heads"])
        state.pawns_to_drop = list(data["pawns_to_drop"])
        state.captured = _copy(data["captured"])
        state.last = None if data["last"] is None else _copy(data["last"])
        state.ply = data["ply"]
        state.quiet_plies = data["quiet_plies"]
        state.positions = list(data["positions"])
        state.actions_applied = data["actions_applied"]
        # Snapshots stored before the texts moved to the cog hold the English summary: dropped.
        state.outcome = None if data["outcome"] is None else _outcome(data["outcome"])
        fixed = data.get("fixed_arrows")
        state.fixed_arrows = None if fixed is None else list(fixed)
        # Older snapshots' events carry their English sentence ("text"): only the data is kept.
        state.opening_events = [
            Event(e["kind"], seat=e.get("seat"), data=dict(e.get("data") or {}))
            for e in data.get("opening_events", [])
        ]
        return state


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _outcome(data: JSON) -> Outcome:
    return {"winners": list(data["winners"]), "reason": data["reason"]}


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
