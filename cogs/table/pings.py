"""Announcements that respect the channel: a ping only when it helps.

Games say what deserves a public line (``GameUI.announcements``: "@Bea, your turn…"). Posted
as they come, a two-person Trap game posted 239 of them and the board scrolled away. The rules here:

- a person is pinged at most once per change, and not at all while they are actively playing
  (they acted in the last minute: they are looking at the table already);
- a line that pings nobody does not get a message of its own: the table's one announcement line
  is edited in place instead (an edit never notifies anyone), within the channel's edit budget;
- a line that mentions nobody (news, e.g. "Time is up for Bea") is posted as it is.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import partial

import discord

from cogs.table.effects import TryLater
from cogs.table.messages import TableMessages
from cogs.table.model import Table
from cogs.table.scheduler import Scheduler

# Someone who acted this recently is playing right now: the table is in front of them.
ACTIVE = timedelta(minutes=1)
MENTION = re.compile(r"<@!?(\d{1,20})>")


class Announcer:
    def __init__(self, messages: TableMessages, scheduler: Scheduler) -> None:
        self.messages = messages
        self.scheduler = scheduler
        # The table's latest announcement line (message id), edited in place when nobody needs a ping,
        # and the text it should show next (the latest wins while an edit waits on Discord).
        self.lines: dict[int, int] = {}
        self._latest: dict[int, str] = {}

    def forget(self, table_id: int) -> None:
        self.lines.pop(table_id, None)
        self._latest.pop(table_id, None)

    def to_ping(self, table: Table, text: str, already: set[int]) -> tuple[list[int], list[int]]:
        """(everyone mentioned, those to notify): not someone pinged in this change already, not
        someone who acted within the last minute."""
        now = self.scheduler.now()
        mentioned = [int(found) for found in MENTION.findall(text)]
        ping = []
        for user_id in mentioned:
            active = table.active_at.get(user_id)
            if user_id in already or (active is not None and now - active < ACTIVE):
                continue
            ping.append(user_id)
        return mentioned, ping

    async def announce(self, table: Table, text: str, ping: list[int], mentioned: list[int]) -> None:
        def keep(message: discord.Message) -> None:
            self.lines[table.id] = message.id

        if ping or not mentioned:
            allowed = discord.AllowedMentions(
                users=[discord.Object(id=u) for u in ping], roles=False, everyone=False
            )
            await self.messages.say(table, text, allowed, keep if mentioned else None)
            return
        if self.lines.get(table.id) is not None:
            if self.messages.budget.wait(table.channel_id, self.scheduler.now()) > 0:
                return  # the table message shows whose turn it is; this edit can be spared
            self.messages.spent(table)
            self._latest[table.id] = text
            await self.messages.effects.run(f"line{table.id}", partial(self._edit_line, table.id))
            return
        # No line to edit yet: one quiet message that later lines edit.
        await self.messages.say(table, text, discord.AllowedMentions.none(), keep)

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

        await self.messages.say(table, text, discord.AllowedMentions.none(), keep)
