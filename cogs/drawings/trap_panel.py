"""Trap's move panel controls: the buttons a seat picks its drop, arrow or move with, in the small
steps that fit Discord's 25 components (see cogs/trap.py's docstring), each with the line that says
what to pick.

They live here, apart from the cog's ``TrapUI``, because they only turn a seat's view and its legal
actions into buttons: the UI decides when a panel is drawn (its turn, a change being saved) and
hands the controls to these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from cogs.drawings.trap_record import colour, row_of
from cogs.table.buttons import ActionButton
from cogs.table.model import Table
from cogs.texts import Texts
from cogs.words.trap import piece_name
from rules.trap import TrapView

T = Texts(__name__)

# Each colour's pawn and the King, as the buttons show them (the cog's embeds use them too).
PAWN_EMOJI = ("🔴", "🔵")
KING_EMOJI = "👑"


def refresh_button(table: Table, back: str | None = None, row: int | None = None) -> ActionButton:
    """Refresh, or with a label ``back`` the way back a step ("Other row"): "refresh" redraws the
    panel with no nav state, which is also the way back."""
    return ActionButton(
        table.id,
        table.version,
        "refresh",
        label=T.pgettext("button", "Refresh") if back is None else back,
        emoji="🔄" if back is None else "↩️",
        row=row,
    )


def point_button(
    table: Table, view: TrapView, point: str, action: str, enabled: bool, row: int
) -> ActionButton:
    """A point of the board as a button; an occupied point shows whose pawn is there."""
    pawn = next((p for p in view["pawns"] if p["point"] == point), None)
    emoji = None if pawn is None else (KING_EMOJI if pawn["king"] else PAWN_EMOJI[pawn["owner"]])
    return ActionButton(
        table.id,
        table.version,
        action,
        label=point,
        emoji=emoji,
        style=discord.ButtonStyle.success if enabled else discord.ButtonStyle.secondary,
        disabled=not enabled,
        row=row,
    )


def grid(
    table: Table,
    view: TrapView,
    points: list[str],
    action_of: Callable[[str], str],
    allowed: set[str],
) -> list[discord.ui.Item[Any]]:
    """Points laid out as on the board (top row first), five to a Discord row."""
    ordered = sorted(points, key=lambda p: (-row_of(p), p[0]))
    return [
        point_button(table, view, point, action_of(point), point in allowed, i // 5)
        for i, point in enumerate(ordered)
    ]


def row_picker(table: Table, size: int, rows_allowed: set[int]) -> list[discord.ui.Item[Any]]:
    items: list[discord.ui.Item[Any]] = []
    for i, r in enumerate(range(size, 0, -1)):
        items.append(
            ActionButton(
                table.id,
                table.version,
                f"nav-r{r}",
                label=T.pgettext("button", "Row {row}", row=r),
                style=discord.ButtonStyle.primary if r in rows_allowed else discord.ButtonStyle.secondary,
                disabled=r not in rows_allowed,
                row=i // 5,
            )
        )
    items.append(refresh_button(table, row=2))
    return items


def chosen_row(nav: str | None, size: int) -> int | None:
    if nav and nav.startswith("r") and nav[1:].isdigit() and 1 <= int(nav[1:]) <= size:
        return int(nav[1:])
    return None


def drop_controls(
    table: Table, view: TrapView, legal: list[str], nav: str | None
) -> tuple[str, list[discord.ui.Item[Any]]]:
    size = view["size"]
    free = set(legal)
    seat = view["seat"]
    assert seat is not None  # a panel draws a seat's view
    king = view["variant"] == "king" and view["pawns_to_drop"][seat] == view["pawns_per_player"]
    if size == 5:
        # 25 points fill the panel exactly: no room for Refresh, and none is needed (it follows live).
        if king:
            step = T.gettext("Pick the point for your **King**.")
        else:
            step = T.gettext("Pick the point for a pawn.")
        return step, grid(table, view, view["points"], lambda p: p, free)
    row = chosen_row(nav, size)
    rows_free = {row_of(p) for p in free}
    if row is None or row not in rows_free:
        if king:
            step = T.gettext("Pick the row for your **King**, then the point.")
        else:
            step = T.gettext("Pick the row for a pawn, then the point.")
        return step, row_picker(table, size, rows_free)
    points = [p for p in view["points"] if row_of(p) == row]
    items = grid(table, view, points, lambda p: p, free)
    items.append(refresh_button(table, T.pgettext("button", "Other row"), row=2))
    if king:
        return T.gettext("Row {row}: pick the point for your **King**.", row=row), items
    return T.gettext("Row {row}: pick the point for a pawn.", row=row), items


def arrow_controls(
    table: Table, view: TrapView, legal: list[str], nav: str | None
) -> tuple[str, list[discord.ui.Item[Any]]]:
    size = view["size"]
    touching: dict[str, list[str]] = {}
    for arrow in legal:
        tail, head = arrow.split(">")
        touching.setdefault(tail, []).append(arrow)
        touching.setdefault(head, []).append(arrow)
    point = nav[1:] if nav and nav.startswith("p") and nav[1:] in touching else None
    if point is not None:
        items: list[discord.ui.Item[Any]] = []
        arrows = sorted(touching[point], key=lambda a: (a.split(">")[0] != point, a))
        for i, arrow in enumerate(arrows):
            tail, head = arrow.split(">")
            items.append(
                ActionButton(
                    table.id,
                    table.version,
                    arrow,
                    label=f"{tail} → {head}",
                    style=discord.ButtonStyle.success,
                    row=i // 4,
                )
            )
        back = f"nav-r{row_of(point)}" if size == 6 else "refresh"
        other = T.pgettext("button", "Other point")
        items.append(ActionButton(table.id, table.version, back, label=other, emoji="↩️", row=2))
        return (
            T.gettext(
                "Arrows touching {point} on lines still empty: pick one (it points to the second point).",
                point=point,
            ),
            items,
        )
    if size == 5:
        return (
            T.gettext("Pick a point next to an empty line, then the arrow."),
            grid(table, view, view["points"], lambda p: f"nav-p{p}", set(touching)),
        )
    row = chosen_row(nav, size)
    rows_open = {row_of(p) for p in touching}
    if row is None or row not in rows_open:
        step = T.gettext("Pick a row, then a point next to an empty line, then the arrow.")
        return step, row_picker(table, size, rows_open)
    points = [p for p in view["points"] if row_of(p) == row]
    items = grid(table, view, points, lambda p: f"nav-p{p}", set(touching))
    items.append(refresh_button(table, T.pgettext("button", "Other row"), row=2))
    return T.gettext("Row {row}: pick a point next to an empty line.", row=row), items


def move_controls(
    table: Table, seat: int, view: TrapView, nav: str | None
) -> tuple[str, list[discord.ui.Item[Any]]]:
    moves: dict[str, list[str]] = view["moves"]
    kings = {p["point"] for p in view["pawns"] if p["king"]}
    chosen = nav[1:] if nav and nav.startswith("p") and nav[1:] in moves else None
    items: list[discord.ui.Item[Any]] = []
    for i, point in enumerate(sorted(moves, key=lambda p: (-row_of(p), p[0]))[:15]):
        items.append(
            ActionButton(
                table.id,
                table.version,
                f"nav-p{point}",
                label=point,
                emoji=KING_EMOJI if point in kings else PAWN_EMOJI[seat],
                style=discord.ButtonStyle.primary if point == chosen else discord.ButtonStyle.secondary,
                row=i // 5,
            )
        )
    if chosen is None:
        items.append(refresh_button(table, row=4))
        return T.gettext("Pick the pawn to move (only pawns with a move are shown)."), items
    occupant = {p["point"]: p for p in view["pawns"]}
    for target in moves[chosen][:5]:
        label = f"{chosen} → {target}"
        other = occupant.get(target)
        if other is not None and other["owner"] == seat:
            label = T.gettext("{move} (swap with your {piece})", move=label, piece=piece_name(other["king"]))
        elif other is not None:
            label = T.gettext(
                "{move} (swap with {colour} {piece})",
                move=label,
                colour=colour(other["owner"]),
                piece=piece_name(other["king"]),
            )
        items.append(
            ActionButton(
                table.id,
                table.version,
                f"{chosen}>{target}",
                label=label[:80],
                style=discord.ButtonStyle.success,
                row=3,
            )
        )
    items.append(refresh_button(table, T.pgettext("button", "Other pawn"), row=4))
    return T.gettext("Move the pawn on **{point}** to:", point=chosen), items
