"""Trap's board in words: the alt text of the board picture (cogs/table/layout.py ``Picture``), the
words drawn in the picture itself, and how a game ended.

A screen reader gets what the picture shows, in Trap's own notation (rules/trap/FORMATS.md):
each colour's pawns by point (the King marked), every arrow as "tail>head", the last action, and
whose turn it is. Only the spectator view goes in, so the words hold nothing a spectator could
not see. Names are written plain: alt text is read out, never rendered as markdown.

Every text is made here, in the language being drawn (cogs.texts): the picture is drawn in a worker
process, so its words (``board_words``) are made before it is sent there.
"""

from __future__ import annotations

from typing import TypedDict

from cogs.drawings.trap_record import colour
from cogs.texts import Texts
from rules.trap import DRAW_PLIES, LABELS, TrapView

T = Texts(__name__)


class BoardWords(TypedDict):
    """The words drawn in the board picture (cogs/drawings/trap_board.py)."""

    prompt: str  # under the board: what the player to move does now, or how the game ended
    players: list[str]  # per seat, the side panel's heading: "A red"
    on_board: list[str]  # per seat: "on board: 7"
    lost: list[str]  # per seat: "lost: 1"
    over: str  # "Game over"


def player(seat: int) -> str:
    """A player as the board picture and the ending name them, by colour and letter: "Red (A)"."""
    if seat == 0:
        # Translators: player A of Trap, by the colour of their pawns and their letter.
        return T.pgettext("player", "Red (A)")
    # Translators: player B of Trap, by the colour of their pawns and their letter.
    return T.pgettext("player", "Blue (B)")


def outcome(winners: list[int], reason: str, winner: str) -> str:
    """How the game ended, one sentence; ``winner`` names the winner (a name, or ``player``)."""
    if len(winners) == 2:
        if reason == "both_kings":
            return T.gettext("Both Kings were captured by the same move: a draw.")
        if reason == "repetition":
            return T.gettext("The same position came up a third time: a draw.")
        return T.ngettext(
            "{n} move in a row without a capture: a draw.",
            "{n} moves in a row without a capture: a draw.",
            DRAW_PLIES,
        )
    loser = colour(1 - winners[0])
    if reason == "eliminated":
        return T.gettext("{winner} wins: {loser} has no pieces left.", winner=winner, loser=loser)
    if reason == "no_moves":
        return T.gettext("{winner} wins: {loser} cannot move.", winner=winner, loser=loser)
    # Translators: "King" is Trap's own piece (King variant), as in the rules.
    return T.gettext("{winner} wins: the {loser} King is captured.", winner=winner, loser=loser)


def prompt(view: TrapView) -> str:
    """What the player to move does now, or how the game ended: the line under the board picture."""
    if view["phase"] == "over":
        result = view["result"]
        assert result is not None  # a game over has its result
        winners = result["winners"]
        return outcome(winners, result["reason"], player(winners[0]))
    seat = view["to_move"]
    assert seat is not None  # someone is to move until the game is over
    who = player(seat)
    if view["phase"] == "piece_drop":
        if view["variant"] == "king" and view["pawns_to_drop"][seat] == view["pawns_per_player"]:
            return T.gettext("{player} drops their King on an empty point.", player=who)
        return T.gettext("{player} drops a pawn on an empty point.", player=who)
    if view["phase"] == "arrow_drop":
        return T.gettext("{player} drops an arrow on an empty line.", player=who)
    return T.gettext("{player} moves a pawn along an arrow.", player=who)


def board_words(view: TrapView) -> BoardWords:
    """The words the board picture draws, in the language being drawn."""
    seats = (0, 1)
    return {
        "prompt": prompt(view),
        # Translators: the heading of a player's panel beside the board picture: "A red".
        "players": [T.gettext("{label} {colour}", label=LABELS[s], colour=colour(s)) for s in seats],
        "on_board": [T.gettext("on board: {n}", n=view["piece_counts"][s]) for s in seats],
        # Translators: how many of this player's pieces were captured.
        "lost": [T.gettext("lost: {n}", n=len(view["captured"][s])) for s in seats],
        "over": T.gettext("Game over"),
    }


def board_alt(view: TrapView, names: list[str]) -> str:
    """The board position in Trap's notation and whose turn it is, for a screen reader."""
    size = view["size"]
    parts = [T.gettext("Trap board, {size} by {size}.", size=size)]
    for seat in (0, 1):
        pawns = [
            T.gettext("{point} King", point=p["point"]) if p["king"] else p["point"]
            for p in view["pawns"]
            if p["owner"] == seat
        ]
        listed = ", ".join(pawns) if pawns else T.gettext("none")
        parts.append(T.gettext("{name}, {side}: {pawns}.", name=names[seat], side=side(seat), pawns=listed))
    if view["arrows"]:
        parts.append(T.gettext("Arrows: {arrows}.", arrows=" ".join(view["arrows"])))
    else:
        parts.append(T.gettext("No arrows yet."))
    last = view["last"]
    if last is not None:
        parts.append(
            T.gettext("Last: {colour} {action}.", colour=colour(last["seat"]), action=last["action"])
        )
    if view["phase"] == "over":
        parts.append(T.gettext("Game over."))
    elif view["to_move"] is not None:
        seat = view["to_move"]
        phase = view["phase"]
        if phase == "piece_drop":
            task = T.gettext("to drop a pawn")
        elif phase == "arrow_drop":
            task = T.gettext("to drop an arrow")
        else:
            task = T.gettext("to move")
        parts.append(T.gettext("{name}, {side}, {task}.", name=names[seat], side=side(seat), task=task))
    return " ".join(parts)


def side(seat: int) -> str:
    """A seat's colour and letter, lower case: "red (A)"."""
    # Translators: a player's colour and letter (A or B), as in "alice, red (A)".
    return T.gettext("{colour} ({label})", colour=colour(seat), label=LABELS[seat])


def marks_alt(pick: list[str], chosen: str | None, targets: list[str]) -> str:
    """What a panel's board picture marks (trap_board's ``render_panel_board``), for a screen
    reader: the pawns ringed because they can move, or the point picked and where it leads."""
    if chosen is not None:
        return T.gettext(
            "Picked: {point}, ringed; green dots at {points}.", point=chosen, points=", ".join(targets)
        )
    if pick:
        return T.gettext("Ringed in green, your pawns that can move: {points}.", points=", ".join(pick))
    return ""
