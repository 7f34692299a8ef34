"""A Trap scenario's set position (the ``deal`` of a scenario file, FORMATS.md): the pawns, the
arrows or both, instead of playing the setup phases."""

from __future__ import annotations

from rules.base import JSON, Event, IllegalAction
from rules.trap.board import looks_like_action, parse_pair
from rules.trap.state import DRAW_PLIES, MAIN_FIRST, PIECE_DROP_FIRST, TrapState


def apply_deal(state: TrapState, deal: JSON, events: list[Event]) -> None:
    """Set up a scenario position (format in FORMATS.md beside this file); ValueError if it is not valid."""
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
                raise ValueError(f"{text!r} is not an arrow on this board ({exc.code}).") from None
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
        events.append(Event("phase", data={"phase": "piece_drop", "to_move": PIECE_DROP_FIRST}))
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
    events.append(Event("phase", data={"phase": "setup", "to_move": to_move}))
    state._begin_main(to_move, events)
