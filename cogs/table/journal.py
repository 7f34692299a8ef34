"""One log line per table event worth a person's attention: a table opened, a game started, a game
finished (and how everyone placed), a table that ended without results (cancelled, stopped,
abandoned). `make offline` shows exactly these lines below the page's address; a real bot's log
has them among its other lines. They go to the ``referee.tables`` logger at INFO.
"""

from __future__ import annotations

import logging
from typing import Any

from cogs.table.common import as_text
from cogs.table.model import Table
from cogs.table.notes import worded
from cogs.texts import SOURCE, speaking

TABLE_EVENTS = "referee.tables"
log = logging.getLogger(TABLE_EVENTS)

PLACES = {1: "1st", 2: "2nd", 3: "3rd"}


def _plain(text: str) -> str:
    """Names are chosen by people: keep control and direction marks out of the operator's terminal."""
    return "".join(c if c.isprintable() else "?" for c in text)


def _where(bot: Any, table: Table) -> str:
    channel = bot.get_channel(table.channel_id) if bot is not None else None
    name = getattr(channel, "name", None)
    place = f"#{_plain(name)}" if name else f"channel {table.channel_id}"
    return f"{place} (table {table.id})"


def _names(names: list[str]) -> str:
    names = [_plain(n) for n in names]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def opened(bot: Any, table: Table, host: str) -> None:
    log.info(
        "%s: %s opened a %s table for %d players",
        _where(bot, table),
        _plain(host),
        table.game.title,
        table.settings.get("seats", len(table.seats)),
    )


def status_changed(bot: Any, table: Table, was: str) -> None:
    """The table's status changed (the spine calls this after adopting a committed change)."""
    where, title = _where(bot, table), table.game.title
    if table.status == "playing" and was == "lobby":
        log.info("%s: %s started with %s", where, title, _names([s.chosen_name for s in table.seats]))
    elif table.status == "finished":
        result = table.state.result() if table.state is not None else None
        if result is None:
            log.info("%s: %s finished", where, title)
            return
        places = sorted(result.placements, key=lambda p: (p.place, p.seat))
        standing = ", ".join(
            f"{PLACES.get(p.place, f'{p.place}th')} {_plain(table.seats[p.seat].chosen_name)}" for p in places
        )
        log.info("%s: %s finished: %s", where, title, standing)
    elif table.status in ("cancelled", "abandoned"):
        state = "game" if was == "playing" else "lobby"
        if table.closed_note:  # who stopped it, or why it ended ("Stopped by Bea. No results…")
            with speaking(SOURCE):  # the operator's log is in English
                said = worded(table.closed_note)
            log.info("%s: the %s %s ended. %s", where, title, state, _plain(as_text(said)))
        else:
            log.info("%s: the %s %s was %s.", where, title, state, table.status)
