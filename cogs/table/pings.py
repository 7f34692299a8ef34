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
- a line for nobody (news, e.g. "Time is up for Bea") is posted as it is, pinging nobody.

Every message says exactly whom it may notify (``common.only``): the users pinged, never a role,
@everyone or @here.
"""

from __future__ import annotations

from collections.abc import Callable
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

T = Texts(__name__)

# Someone who acted this recently is playing right now: the table is in front of them.
ACTIVE = timedelta(minutes=1)


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

    def forget(self, table_id: int) -> None:
        self.lines.pop(table_id, None)
        self._latest.pop(table_id, None)

    def to_ping(
        self, table: Table, announcement: Announcement, already: set[int]
    ) -> tuple[list[int], list[int]]:
        """(the people the line is for, those to notify): from its seats, people only; not
        someone pinged in this change already, not someone who acted within the last minute."""
        now = self.scheduler.now()
        people: list[int] = []
        for seat in announcement.seats:
            info = table.seats[seat] if 0 <= seat < len(table.seats) else None
            if info is not None and not info.is_computer and info.user_id is not None:
                people.append(info.user_id)
        people = list(dict.fromkeys(people))
        ping = []
        for user_id in people:
            active = table.active_at.get(user_id)
            if user_id in already or (active is not None and now - active < ACTIVE):
                continue
            ping.append(user_id)
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

        if announcement.seats and not people:
            return  # for computers only: they need no telling
        with speaking(table.language):  # posted where the channel reads it
            text = self.line(announcement, people)
        if ping or not people:
            due = partial(self.still_due, table.id, tuple(announcement.seats)) if people else None
            await self.messages.say(table, text, only(ping), keep if people else None, due)
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
