"""Trap's move panel controls: one select of what the player may do now (a point, an arrow or a
move), placed last, and what the panel's board picture marks for it.

Issue 33 ("one phone screen"): the board is shown once, as a picture, and the choice takes one
row (two while an arrow's point is picked: the arrows there and the way back). A select holds 25
options; where more choices are legal (a 6 × 6 board's free points at the start, or a big main
play), they are paged: each page holds what fits and one option per other page ("More: …"), a
panel-only "nav-g…" step. Every option is a legal action or such a step, never a dead one.

They live here, apart from the cog's ``TrapUI``, because they only turn a seat's view and its legal
actions into controls: the UI decides when a panel is drawn and hands the controls to these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.drawings.trap_record import colour, row_of
from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.model import Table
from cogs.texts import Texts
from cogs.words.trap import piece_name
from rules.trap import TrapView

T = Texts(__name__)

# Each colour's pawn and the King, as the table and the selects show them.
PAWN_EMOJI = ("🔴", "🔵")
KING_EMOJI = "👑"
OPTIONS = 25  # Discord's most options in one select


@dataclass
class Controls:
    """A panel's controls and what its board picture marks for them (trap_board's
    ``render_panel_board``): ``pick`` ringed, ``chosen`` ringed thick, ``targets`` dotted."""

    items: list[discord.ui.Item[Any]]
    pick: list[str] = field(default_factory=list)
    chosen: str | None = None
    targets: list[str] = field(default_factory=list)


def refresh_button(table: Table, back: str | None = None, row: int | None = None) -> ActionButton:
    """Refresh, or with a label ``back`` the way back a step ("Other point"): "refresh" redraws
    the panel with no nav state, which is also the way back."""
    return ActionButton(
        table.id,
        table.version,
        "refresh",
        label=T.pgettext("button", "Refresh") if back is None else back,
        emoji="🔄" if back is None else "↩️",
        row=row,
    )


def top_first(points: list[str]) -> list[str]:
    """Points as a board reads: the top row first, each row from a."""
    return sorted(points, key=lambda p: (-row_of(p), p[0]))


def pages(count: int) -> list[tuple[int, int]]:
    """The [start, end) of each page of ``count`` choices: one page if they fit a select, else
    as few pages as leave room on each for one option per other page."""
    if count <= OPTIONS:
        return [(0, count)]
    k = 2
    while k * (OPTIONS - (k - 1)) < count:
        k += 1
    size = OPTIONS - (k - 1)
    return [(i * size, min(count, (i + 1) * size)) for i in range(k)]


def page_of(nav: str | None, count: int) -> int:
    """The page the panel's "nav-g…" step shows (0 without one, or if the choices shrank)."""
    if nav and nav.startswith("g") and nav[1:].isdigit() and int(nav[1:]) < len(pages(count)):
        return int(nav[1:])
    return 0


def paged_select(
    table: Table, choices: list[discord.SelectOption], nav: str | None, placeholder: str
) -> ActionSelect:
    """One select of the choices (each option's value is its whole action), the page ``nav``
    names if they need more than one, with an option to reach each other page."""
    spans = pages(len(choices))
    page = page_of(nav, len(choices))
    start, end = spans[page]
    options = choices[start:end]
    for other, (first, last) in enumerate(spans):
        if other != page:
            # Named by their first and last choice, without a move's swap note.
            label = T.gettext(
                "More: {first} … {last}",
                first=choices[first].label.split(" (")[0],
                last=choices[last - 1].label.split(" (")[0],
            )
            step = f"nav-g{other}"  # text: a panel step
            options.append(discord.SelectOption(label=label[:100], value=step, emoji="➡️"))
    return ActionSelect(table.id, table.version, "", options, placeholder=placeholder[:150], row=0)


def drop_controls(table: Table, view: TrapView, legal: list[str], nav: str | None) -> Controls:
    """Piece Drop: the free points, in one select."""
    seat = view["seat"]
    assert seat is not None  # a panel draws a seat's view
    king = view["variant"] == "king" and view["pawns_to_drop"][seat] == view["pawns_per_player"]
    pawn = T.gettext("Pick your King's point") if king else T.gettext("Pick a point for a pawn")
    choices = [discord.SelectOption(label=p, value=p) for p in top_first(legal)]
    return Controls([paged_select(table, choices, nav, pawn)])


def arrow_label(arrow: str) -> str:
    tail, head = arrow.split(">")
    return f"{tail} → {head}"


def arrow_controls(table: Table, view: TrapView, legal: list[str], nav: str | None) -> Controls:
    """Arrow Drop: every free arrow in one select once they fit; before that, a point next to an
    empty line, then the arrows touching it (and the way back)."""
    if len(legal) <= OPTIONS:
        choices = [discord.SelectOption(label=arrow_label(a), value=a) for a in sorted(legal)]
        # Short: a phone shows about 24 characters of a placeholder.
        placeholder = T.gettext("Pick an arrow")
        return Controls([paged_select(table, choices, None, placeholder)])
    touching: dict[str, list[str]] = {}
    for arrow in legal:
        tail, head = arrow.split(">")
        touching.setdefault(tail, []).append(arrow)
        touching.setdefault(head, []).append(arrow)
    point = nav[1:] if nav and nav.startswith("p") and nav[1:] in touching else None
    if point is None:
        steps = {p: f"nav-p{p}" for p in touching}  # text: panel steps
        choices = [discord.SelectOption(label=p, value=steps[p]) for p in top_first(list(touching))]
        placeholder = T.gettext("Pick an arrow's point")
        return Controls([paged_select(table, choices, nav, placeholder)])
    # Arrows leaving the point first: "c3 → c4" reads as "from here".
    arrows = sorted(touching[point], key=lambda a: (a.split(">")[0] != point, a))
    choices = [discord.SelectOption(label=arrow_label(a), value=a) for a in arrows]
    # The way back is the select's last option, not a button: one row, as every other step.
    back = "nav-back"  # text: a panel step (no point: the points again)
    choices.append(discord.SelectOption(label=T.pgettext("button", "Other point"), value=back, emoji="↩️"))
    placeholder = T.gettext("Pick an arrow at {point}", point=point)
    ends = sorted({end for a in arrows for end in a.split(">") if end != point})
    return Controls([paged_select(table, choices, None, placeholder)], chosen=point, targets=ends)


def move_controls(table: Table, seat: int, view: TrapView, nav: str | None) -> Controls:
    """Main play: every legal move in one select (paged past 25), the pawns that can move
    ringed on the board."""
    moves: dict[str, list[str]] = view["moves"]
    occupant = {p["point"]: p for p in view["pawns"]}
    choices = []
    for point in top_first(list(moves)):
        emoji = KING_EMOJI if occupant[point]["king"] else PAWN_EMOJI[seat]
        for target in moves[point]:
            label = f"{point} → {target}"
            other = occupant.get(target)
            if other is not None and other["owner"] == seat:
                label = T.gettext(
                    "{move} (swap with your {piece})", move=label, piece=piece_name(other["king"])
                )
            elif other is not None:
                label = T.gettext(
                    "{move} (swap with {colour} {piece})",
                    move=label,
                    colour=colour(other["owner"]),
                    piece=piece_name(other["king"]),
                )
            choices.append(discord.SelectOption(label=label[:100], value=f"{point}>{target}", emoji=emoji))
    placeholder = T.gettext("Move a ringed pawn")
    return Controls([paged_select(table, choices, nav, placeholder)], pick=top_first(list(moves)))
