"""Trap's words for what happened: the engine's events, its refusals, how a game ended and the
actions players name, worded from the engine's data (rules/trap's docstring lists the event kinds
and refusal codes) in the language being drawn.

The cog (cogs/trap.py) draws the table and panels and hands these to its ``TrapUI``, whose
``event_line``, ``refusal`` and ``describe`` call the functions here. The board's own words (its
alt text, the picture's labels, ``outcome``) stay with the picture in cogs/drawings/trap_words.py.
"""

from __future__ import annotations

import logging
from typing import Any

from cogs.drawings.trap_record import colour, who
from cogs.drawings.trap_words import outcome
from cogs.table.common import as_text
from cogs.table.model import Table
from cogs.texts import N_, Texts
from rules.base import Event, IllegalAction
from rules.trap import AUTO, COLUMNS, looks_like_action

T = Texts(__name__)

log = logging.getLogger(__name__)

# How a game ended (rules.trap views' Reason), as in "Ended by threefold repetition."
REASONS = {
    "eliminated": N_("capturing the last piece"),
    "no_moves": N_("leaving a player without a move"),
    "king": N_("capturing a King"),
    "both_kings": N_("capturing both Kings at once"),
    "repetition": N_("threefold repetition"),
    "quiet_plies": N_("100 moves without a capture"),
}


def piece_name(king: bool) -> str:
    # Translators: Trap's pieces: a pawn, or (King variant) the King.
    return T.pgettext("piece", "King") if king else T.pgettext("piece", "pawn")


def ending(table: Table, winners: list[int], reason: str) -> str:
    """How the game ended, the winner by name: "**alice** (red, A) wins: blue cannot move."."""
    return outcome(winners, reason, who(table, winners[0]))


def record_heading(table: Table, winners: list[int], reason: str) -> str:
    """The first line of the move list's file: the table and how its game ended, plain text."""
    ending_text = as_text(ending(table, winners, reason))
    return T.gettext("Trap, table {table}: {ending}", table=table.id, ending=ending_text)


def result_title(table: Table, winners: list[int]) -> str:
    """The final embed's title: who won, or a draw."""
    if len(winners) == 1:
        return T.gettext("Trap — {name} wins", name=table.name(winners[0]))
    return T.gettext("Trap — a draw")


def standing(table: Table, seat: int, left: int, lost: int, medal: str, pawn: str) -> str:
    """A seat's line in the final embed, after the winner's medal and the seat's pawn (the cog
    draws those): "🏆 🔴 **alice** (red, A) — 3 pieces left, 1 lost"."""
    return T.ngettext(
        "{medal}{pawn} {player} — {n} piece left, {lost} lost",
        "{medal}{pawn} {player} — {n} pieces left, {lost} lost",
        left,
        medal=medal,
        pawn=pawn,
        player=who(table, seat),
        lost=lost,
    )


def ended_by(how: str) -> str:
    """The final embed's footer: how the game ended, as in "Ended by threefold repetition."."""
    reason = T.gettext(REASONS[how]) if how in REASONS else how
    return T.gettext("Ended by {reason}. Results are on /leaderboard. Rematch below.", reason=reason)


# --- events ------------------------------------------------------------------------------------


def event_line(table: Table, event: Event) -> str:
    """An engine event in words, with the players' names as they are now (rules/trap's
    docstring lists the kinds and their data)."""
    data, kind = event.data, event.kind
    if kind == "move":
        return _move_line(table, event)
    if kind == "capture":
        owner, by = data["owner"], data["by"]
        piece, point = piece_name(data["king"]), data["point"]
        if by == owner:
            return T.gettext(
                "💥 {owner}'s {colour} {piece} on {point} is trapped and captured by their own move.",
                owner=table.name(owner),
                colour=colour(owner),
                piece=piece,
                point=point,
            )
        return T.gettext(
            "💥 {owner}'s {colour} {piece} on {point} is trapped and captured by {mover}'s move.",
            owner=table.name(owner),
            colour=colour(owner),
            piece=piece,
            point=point,
            mover=table.name(by),
        )
    if kind == "timeout":
        return T.gettext(
            "⏰ Time ran out for **{name}**: the referee plays for them.", name=table.name(data["seat"])
        )
    if kind == "game_over":
        return "🏁 " + T.gettext(
            "The game is over. {ending}", ending=ending(table, data["winners"], data["reason"])
        )
    if kind == "phase":
        return _phase_line(table, data)
    if kind == "drop":
        if data.get("king"):
            return T.gettext(
                "**{name}** dropped their King on {point}.",
                name=table.name(event.seat),
                point=data["point"],
            )
        return T.gettext(
            "**{name}** dropped a pawn on {point}.", name=table.name(event.seat), point=data["point"]
        )
    if kind == "arrow":
        return T.gettext(
            "**{name}** dropped an arrow on {tail}–{head} pointing to {head}.",
            name=table.name(event.seat),
            tail=data["from"],
            head=data["to"],
        )
    if kind == "arrows_placed":
        return T.gettext("Quick setup: every line gets an arrow pointing a random way.")
    return kind  # an event kind this cog does not know (a newer engine's): shown as its id


def _phase_line(table: Table, data: dict[str, Any]) -> str:
    phase = data.get("phase")
    if phase == "setup":
        return T.gettext("The game starts from a set position.")
    player = who(table, data["to_move"])
    if phase == "piece_drop":
        # Translators: "Piece Drop" is the name of Trap's first phase, as in the rules.
        return T.gettext("Piece Drop begins: {player} drops first.", player=player)
    if phase == "arrow_drop":
        # Translators: "Arrow Drop" is the name of Trap's second phase, as in the rules.
        return T.gettext("Arrow Drop begins: {player} drops the first arrow.", player=player)
    stuck = data.get("stuck") or []
    if stuck:
        return T.gettext(
            "Main play begins: {player} moves first. Pawns with every arrow pointing in are safe "
            "until an arrow next to them flips: {points}.",
            player=player,
            points=", ".join(stuck),
        )
    return T.gettext("Main play begins: {player} moves first.", player=player)


def _move_line(table: Table, event: Event) -> str:
    data = event.data
    params: dict[str, Any] = {"name": table.name(event.seat), "move": f"{data['from']}>{data['to']}"}
    swap, flips = data.get("swap"), data.get("flips")
    if flips:
        params["flips"] = ", ".join(flips)
    if swap is not None:
        params["piece"] = piece_name(bool(data.get("swap_king")))
    if swap is None:
        if flips:
            return T.gettext("**{name}** moved {move}; arrows flipped: {flips}.", **params)
        return T.gettext("**{name}** moved {move}.", **params)
    if swap == event.seat:
        if flips:
            return T.gettext(
                "**{name}** moved {move}, swapping with their own {piece}; arrows flipped: {flips}.",
                **params,
            )
        return T.gettext("**{name}** moved {move}, swapping with their own {piece}.", **params)
    params["colour"] = colour(swap)
    if flips:
        return T.gettext(
            "**{name}** moved {move}, swapping with a {colour} {piece}; arrows flipped: {flips}.",
            **params,
        )
    return T.gettext("**{name}** moved {move}, swapping with a {colour} {piece}.", **params)


# --- refusals and actions ----------------------------------------------------------------------


def refusal(table: Table, error: IllegalAction) -> str:
    """An action the rules refused (rules/trap's docstring lists the codes), in words."""
    code, params = error.code, error.params
    if code == "game_over":
        return T.gettext("The game is over.")
    if code == "referee_only":
        return T.gettext("Only the referee moves for a player whose time has run out.")
    if code == "player_only":
        return T.gettext("Only a player can drop or move a piece.")
    if code == "no_such_seat":
        return T.gettext("That seat is not at this table.")
    if code == "not_an_action":
        return T.gettext(
            "'{action}' is not a Trap action: name a point such as 'c3', "
            "or an arrow or move such as 'c3>c4'.",
            action=params["action"],
        )
    if code == "not_your_turn":
        return T.gettext("It is not your turn: wait for the other player.")
    if code == "pawns_first":
        return T.gettext("Pawns come first: drop a pawn on an empty point, such as 'c3'.")
    if code == "point_taken":
        return T.gettext("{point} is taken: drop your pawn on an empty point.", point=params["point"])
    if code == "arrows_now":
        return T.gettext(
            "All pawns are down: now drop an arrow along a line, such as 'c3>c4' (pointing to c4)."
        )
    if code == "line_has_arrow":
        return T.gettext("The line {line} already has its arrow.", line=str(params["line"]).replace("-", "–"))
    if code == "moves_now":
        return T.gettext("Main play has begun: move a pawn along an arrow, such as 'c3>c4'.")
    if code == "no_pawn":
        return T.gettext("You have no pawn on {point}.", point=params["point"])
    if code == "against_arrow":
        return T.gettext(
            "The arrow between {tail} and {head} points to {tail}: you can never move against an arrow.",
            tail=params["from"],
            head=params["to"],
        )
    if code == "no_such_point":
        size = params["size"]
        last = f"{COLUMNS[size - 1]}{size}"
        return T.gettext(
            "There is no point {point} on this {size} × {size} board: points run from a1 to {last}.",
            point=params["point"],
            size=size,
            last=last,
        )
    if code == "not_neighbours":
        return T.gettext(
            "{tail} and {head} are not neighbours: an arrow lies along one line between two neighbouring "
            "points, and a pawn moves one line at a time.",
            tail=params["from"],
            head=params["to"],
        )
    log.warning("Trap refusal without words: %s %s", code, params)
    return T.gettext("That is not allowed now.")


def describe(phase: str, action: str) -> str:
    """An action in words, as a player would say it ("drop a pawn on c3"); ``phase`` tells an
    arrow ("c3>c4" in the Arrow Drop) from a move."""
    if action == AUTO:
        return T.gettext("let the referee act for the player out of time")
    if not looks_like_action(action):
        return action
    if ">" not in action:
        return T.gettext("drop a pawn on {point}", point=action)
    left, _, right = action.partition(">")
    if phase == "arrow_drop":
        return T.gettext("drop an arrow on {tail}–{head} pointing to {head}", tail=left, head=right)
    return T.gettext("move {tail} to {head}", tail=left, head=right)
