"""What a finished game did to each person's rating, under its results: "alice 1523 (+18)"; and
the results' **Watch again** button, which opens the game's replay (cogs/boards/replay.py).

The numbers come from the results rows the game's final commit wrote (``Store.rating_changes``),
so they are exactly what /stats and /history show afterwards. Every name here is one a person
chose, so it is escaped: a nickname like ``**@everyone**`` shows as typed and pings nobody.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.table.common import markdown_name
from cogs.table.model import Table
from cogs.texts import N_, Texts
from db.ratings import PROVISIONAL_GAMES, change_text
from db.store import RatingChange, Store

log = logging.getLogger(__name__)
T = Texts(__name__)

FIELD = N_("Ratings")
# A replay's step button: the game, the step it leads to, and which arrow it is (cogs/boards/replay.py
# registers the DynamicItem that answers it; the format lives here so the table needs no import of
# the boards).
REPLAY_ID = r"rp:(?P<gid>\d{1,18}):(?P<step>\d{1,6}):(?P<dir>[fpnlw])"


def replay_id(game_id: int, step: int, direction: str) -> str:
    return f"rp:{game_id}:{step}:{direction}"


def watch_again(table: Table) -> discord.ui.Button[Any]:
    """Under the results: open this game's replay from its first step, privately."""
    return discord.ui.Button(
        label=T.pgettext("button", "Watch again"),
        emoji="📼",
        style=discord.ButtonStyle.secondary,
        custom_id=replay_id(table.id, 0, "w"),
    )


UNREAD = N_("The new ratings couldn't be read just now: `/stats show` has them.")


def escaped(name: str) -> str:
    """A name a person chose, safe to show in Discord markdown: no formatting, no mention, nothing
    that turns the line around (the one rule for every name: common.markdown_name)."""
    return markdown_name(name)


def rating_line(change: RatingChange) -> str:
    name, after, change_ = escaped(change.name), change.after, change_text(change.before, change.after)
    if change.left:
        return T.gettext(
            "**{name}** {rating} ({change}), left the game", name=name, rating=after, change=change_
        )
    return T.gettext("**{name}** {rating} ({change})", name=name, rating=after, change=change_)


async def add_ratings(store: Store, table: Table, embed: discord.Embed) -> None:
    """Add the ratings field to a finished game's results embed. A game without people has no
    ratings to show; a database that fails to answer leaves a line saying where to look."""
    if all(seat.user_id is None for seat in table.seats):
        return
    try:
        changes = await store.rating_changes(table.id)
    except Exception:
        log.warning("could not read the new ratings of table %s", table.id, exc_info=True)
        embed.add_field(name=T.gettext(FIELD), value=T.gettext(UNREAD), inline=False)
        return
    if changes:
        lines = [rating_line(c) for c in changes]
        if any(c.after.provisional for c in changes):
            # "1513?" says nothing by itself; the same line /stats show has, under the numbers.
            lines.append("*" + provisional_line() + "*")
        embed.add_field(name=T.gettext(FIELD), value="\n".join(lines)[:1024], inline=False)


def provisional_line() -> str:
    """What the "?" of "1513?" means, in one line."""
    return T.ngettext(
        "? = provisional: a rating settles after {n} game, sooner with steady results.",
        "? = provisional: a rating settles after {n} games, sooner with steady results.",
        PROVISIONAL_GAMES,
    )
