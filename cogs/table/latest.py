"""The table's Latest lines: kept and stored as data, worded when they are drawn.

A Latest entry is an engine event's data (``Event.to_json()``: kind, seat, parameters) or a line
of the table's own (a kind starting ``table.``: the game begins, someone left, a new host); it
holds seat numbers, never a name or a sentence. ``line`` words it in the language being drawn
(cogs.texts) with the seats' names as they are now, so a game recorded today reads the same in
any language later, and a renamed or forgotten person is shown as they are then.

Rows written before the catalogs stored the finished sentence: such an entry is a ``str`` and is
shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from cogs.texts import Texts
from rules.base import Event

T = Texts(__name__)

Entry = dict[str, Any] | str


class Seated(Protocol):
    """What wording an entry needs of a table (cogs.table.model.Table, which imports this
    module): its seats' names as shown now."""

    def name(self, seat: int | None) -> str: ...


TableT = TypeVar("TableT", bound=Seated)


def begins(players: int) -> Entry:
    return {"kind": "table.begins", "seat": None, "data": {"players": players}}


def left(seat: int, level: str) -> Entry:
    """The seat's person left and a computer of ``level`` plays it now."""
    return {"kind": "table.left", "seat": seat, "data": {"level": level}}


def new_host(seat: int) -> Entry:
    return {"kind": "table.host", "seat": seat, "data": {}}


def line(table: TableT, entry: Entry, event_line: Callable[[TableT, Event], str]) -> str:
    """One Latest line in words; ``event_line`` is the game's (GameUI.event_line)."""
    if isinstance(entry, str):
        return entry  # stored as a sentence before the catalogs
    kind, seat, data = entry["kind"], entry.get("seat"), entry.get("data") or {}
    if kind == "table.begins":
        players = data["players"]
        return T.ngettext("The game begins with {n} player.", "The game begins with {n} players.", players)
    if kind == "table.left":
        return T.gettext(
            "**{name}** left; a {level} computer player takes over their seat.",
            name=table.name(seat),
            level=data["level"],
        )
    if kind == "table.host":
        return T.gettext("**{name}** is the host now.", name=table.name(seat))
    return event_line(table, Event.from_json(entry))
