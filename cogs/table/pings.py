"""Announcements that respect the channel: a ping only when it helps, and only whom it is for.

Games say what deserves a public line and for which seats (``GameUI.announcements`` returns
``Announcement``s: "your turn…" for Bea's seat). Whom to ping is decided here from those seats,
never by reading mentions back out of text: a name is input, and a member whose name is
"<@carol>" must not make a line ping Carol. Posted as they come, a two-person Trap game posted 239
of them and the board scrolled away. The rules here:

- a line for seats names the people in them at its start; a person is pinged at most once per
  change, and not at all while they are actively playing (they acted in the last minute: they
  are looking at the table already);
- a line that pings nobody does not get a message of its own: the table's one announcement line
  is edited in place instead (an edit never notifies anyone), within the channel's edit budget;
  a line that pings is a new message (only a new one notifies), and the line before it is deleted;
- a line for nobody (news, e.g. "Time is up for Bea") is posted as it is, pinging nobody;
- one ping per person per round at most (a game's ``epoch``, e.g. Spy Trap's round: a second
  bid turn in it edits the line in place); none for a seat the referee has just acted for (its
  turn came by the referee's move, not someone else's); and none for someone away: out of time
  twice in a row (``Table.away``), until they act again. The table shows them "💤 away". A Trap
  player who had left the table once got 14 pings in one game, a wall of identical lines.

Every message says exactly whom it may notify (``common.only``): the users pinged, never a role,
@everyone or @here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import timedelta
from functools import partial

import discord

from cogs.table.common import NOBODY, only
from cogs.table.drawing import Announcement
from cogs.table.effects import TryLater
from cogs.table.messages import TableMessages
from cogs.table.model import Table
from cogs.table.scheduler import Scheduler
from cogs.texts import Texts, speaking
from rules.base import Event

T = Texts(__name__)

# Someone who acted this recently is playing right now: the table is in front of them.
ACTIVE = timedelta(minutes=1)
# The events by which the referee acts for a seat whose time ran out: Trap's and Spy Trap's
# "timeout" (the seat in the event, or in its data) and GiftTRAP's "filled".
TIMEOUT_KINDS = ("timeout", "filled")


def timed_out(events: list[Event]) -> set[int]:
    """The seats the referee acted for in these events because their time ran out."""
    seats: set[int] = set()
    for event in events:
        if event.kind in TIMEOUT_KINDS:
            seat = event.seat if event.seat is not None else event.data.get("seat")
            if isinstance(seat, int):
                seats.add(seat)
    return seats


class Announcer:
    def __init__(
        self,
        messages: TableMessages,
        scheduler: Scheduler,
        waiting_on: Callable[[Table], list[int] | None] = lambda _table: None,
    ) -> None:
        self.messages = messages
        self.scheduler = scheduler
        self.waiting_on = waiting_on  # the seats a table waits on (None: anyone may act)
        # The table's latest announcement line (message id), edited in place when nobody needs a ping,
        # and the text it should show next (the latest wins while an edit waits on Discord).
        self.lines: dict[int, int] = {}
        self._latest: dict[int, str] = {}
        # Table id -> user id -> the round (the table's epoch) they were last pinged in.
        self._pinged: dict[int, dict[int, object]] = {}

    def forget(self, table_id: int) -> None:
        self.lines.pop(table_id, None)
        self._latest.pop(table_id, None)
        self._pinged.pop(table_id, None)

    def count_timeouts(self, table: Table, events: list[Event]) -> set[int]:
        """Note the seats the referee has just acted for (two in a row: away); returns them."""
        seats = timed_out(events)
        for seat in seats:
            table.timeouts[seat] = table.timeouts.get(seat, 0) + 1
        return seats

    def to_ping(
        self, table: Table, announcement: Announcement, already: set[int], skip: Collection[int] = ()
    ) -> tuple[list[int], list[int]]:
        """(the people the line is for, those to notify): from its seats, people only; not
        someone pinged in this change or this round already, not someone who acted within the
        last minute, not a seat in ``skip`` (the referee just acted for it), nor one away."""
        now = self.scheduler.now()
        people: list[int] = []
        quiet: set[int] = set()
        away = set(table.away())
        for seat in announcement.seats:
            info = table.seats[seat] if 0 <= seat < len(table.seats) else None
            if info is not None and not info.is_computer and info.user_id is not None:
                people.append(info.user_id)
                if seat in skip or seat in away:
                    quiet.add(info.user_id)
        people = list(dict.fromkeys(people))
        pinged = self._pinged.setdefault(table.id, {})
        ping = []
        for user_id in people:
            active = table.active_at.get(user_id)
            if user_id in already or user_id in quiet or (active is not None and now - active < ACTIVE):
                continue
            if table.epoch is not None and user_id in pinged and pinged[user_id] == table.epoch:
                continue  # told this round already: the line is edited in place instead
            ping.append(user_id)
            pinged[user_id] = table.epoch
        return people, ping

    @staticmethod
    def line(announcement: Announcement, people: list[int]) -> str:
        """The line as posted: the people it is for named first, then the game's text."""
        if not people:
            return announcement.text
        mentions = " ".join(f"<@{user_id}>" for user_id in people)
        return T.gettext("{people}, {line}", people=mentions, line=announcement.text)

    async def announce(
        self, table: Table, announcement: Announcement, people: list[int], ping: list[int]
    ) -> None:
        def keep(message: discord.Message) -> None:
            self.lines[table.id] = message.id

        def replace(message: discord.Message) -> None:
            """A new turn line that pings: the one before it is out of date, and goes, so the
            channel keeps one turn line (a slow player's turns once made a wall of them)."""
            previous = self.lines.get(table.id)
            keep(message)
            if previous is not None and previous != message.id:
                delete = partial(self.messages.delete_line, table.id, table.channel_id, previous)
                self.messages.effects.book(f"unline{table.id}:{previous}", delete)

        if announcement.seats and not people:
            return  # for computers only: they need no telling
        with speaking(table.language):  # posted where the channel reads it
            text = self.line(announcement, people)
        if ping or not people:
            due = partial(self.still_due, table.id, tuple(announcement.seats)) if people else None
            await self.messages.say(table, text, only(ping), replace if people else None, due)
            return
        if self.lines.get(table.id) is not None:
            if self.messages.budget.wait(table.channel_id, self.scheduler.now()) > 0:
                return  # the table message shows whose turn it is; this edit can be spared
            self.messages.spent(table)
            self._latest[table.id] = text
            await self.messages.effects.run(f"line{table.id}", partial(self._edit_line, table.id))
            return
        # No line to edit yet: one quiet message that later lines edit.
        await self.messages.say(table, text, NOBODY, keep)

    def still_due(self, table_id: int, seats: tuple[int, ...]) -> bool:
        """Whether a line for ``seats`` ("your turn…") is still true: the game goes on and waits
        on one of them. Asked when the line's turn to be posted comes, which after an outage can
        be minutes later: a ping about a turn already over is dropped (issue 32)."""
        table = self.messages.table(table_id)
        if table is None or table.status != "playing" or table.state is None:
            return False
        waiting = self.waiting_on(table)
        return waiting is None or any(seat in waiting for seat in seats)

    async def _edit_line(self, table_id: int) -> None:
        """Edit the announcement line to the latest text (a retry after Discord's trouble draws
        the newest line, not the one that failed); a deleted line is posted again, quietly."""
        table = self.messages.table(table_id)
        line = self.lines.get(table_id)
        text = self._latest.pop(table_id, None)
        if table is None or line is None or text is None:
            return
        try:
            if await self.messages.edit_line(table, line, text):
                return
        except TryLater:
            self._latest.setdefault(table_id, text)
            raise
        self.lines.pop(table_id, None)

        def keep(message: discord.Message) -> None:
            self.lines[table_id] = message.id

        await self.messages.say(table, text, NOBODY, keep)
