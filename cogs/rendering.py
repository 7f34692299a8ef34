"""The public table message: coalesced edits within the channel's budget, posts, and recovery.

``TableMessages`` owns everything about the message a table is drawn on: the per-channel edit
budget, which tables have an edit in flight or pending, and what to do when Discord refuses (a
deleted message is posted again; a channel that is gone or refuses the bot makes the table
unreachable, which the referee turns into an abandoned game after a grace period). It only ever
draws what the referee has committed: the referee calls ``request`` after a change, and the
drawing itself is the referee's ``draw`` (so a stopped table draws as stopped, and a pending redraw
can never bring back a live-looking table).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord

from cogs.components import view_of
from cogs.drawing import Drawing
from cogs.failures import Failure, classify
from cogs.scheduler import Scheduler
from cogs.table import Table
from db.store import Store

log = logging.getLogger(__name__)

# Discord allows a handful of edits per channel every few seconds; stay inside 5 per 5 s.
EDITS_PER_WINDOW = 5
EDIT_WINDOW = timedelta(seconds=5)
# A passing failure (429, 5xx) of an edit: draw again this much later.
RETRY_SECONDS = 3.0
# Tables that ended keep their last drawing here until it is on Discord (and a little after, for
# their Rematch button); the oldest are dropped first.
CLOSED_KEPT = 256


class EditBudget:
    """Sliding window of message edits per channel."""

    def __init__(self) -> None:
        self._edits: dict[int, deque[datetime]] = {}

    def wait(self, channel_id: int, now: datetime) -> float:
        recent = self._edits.get(channel_id)
        if recent is None:
            return 0.0
        # Strictly older than the window: then even a closed 5-second interval holds at most 5.
        while recent and now - recent[0] > EDIT_WINDOW:
            recent.popleft()
        if not recent:
            del self._edits[channel_id]
            return 0.0
        if len(recent) < EDITS_PER_WINDOW:
            return 0.0
        return (recent[0] + EDIT_WINDOW - now).total_seconds() + 0.01

    def spend(self, channel_id: int, now: datetime) -> None:
        self._edits.setdefault(channel_id, deque()).append(now)


class TableMessages:
    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        scheduler: Scheduler,
        *,
        lookup: Callable[[int], Table | None],
        draw: Callable[[Table], Drawing],
        unreachable: Callable[[Table, Failure], None],
        reached: Callable[[Table], None],
    ) -> None:
        self.bot = bot
        self.store = store
        self.scheduler = scheduler
        self.budget = EditBudget()
        self._lookup = lookup
        self._draw = draw
        self._unreachable = unreachable
        self._reached = reached
        self._rendering: set[int] = set()
        self._dirty: set[int] = set()
        self.closed: OrderedDict[int, Table] = OrderedDict()
        self._tasks: set[asyncio.Task[Any]] = set()

    def keep_closed(self, table: Table) -> None:
        """A table that ended still gets its last drawing (and its Rematch button a table)."""
        self.closed[table.id] = table
        self.closed.move_to_end(table.id)
        while len(self.closed) > CLOSED_KEPT:
            self.closed.popitem(last=False)

    def table(self, table_id: int) -> Table | None:
        return self._lookup(table_id) or self.closed.get(table_id)

    # --- the table message -----------------------------------------------------------------

    def request(self, table: Table) -> None:
        """Show the latest committed state soon, never exceeding the channel's edit budget."""
        if table.table_message_id is None:
            return
        if table.id in self._rendering:
            self._dirty.add(table.id)
            return
        key = f"render{table.id}"  # outside the table's timer prefix: the final edit must survive
        if self.scheduler.when(key) is not None:
            return  # an edit is already booked; it will draw whatever is latest then
        wait = self.budget.wait(table.channel_id, self.scheduler.now())
        if wait <= 0:
            self.spawn(self._render(table.id))
        else:
            self.scheduler.after(key, wait, partial(self._render, table.id))

    def spent(self, table: Table) -> None:
        """An edit of the table message made some other way (an interaction's own answer)."""
        self.budget.spend(table.channel_id, self.scheduler.now())

    async def flush(self) -> None:
        """Draw every table whose edit is still booked, now, budget or not (shutting down)."""
        for key in self.scheduler.booked("render"):
            self.scheduler.cancel(key)
            table = self.table(int(key.removeprefix("render")))
            if table is not None:
                await self._render(table.id, force=True)
        for table_id in list(self._dirty):
            self._dirty.discard(table_id)
            await self._render(table_id, force=True)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)

    async def redraw_now(self, table: Table) -> None:
        """Try the table message once more now (is the channel back?)."""
        await self._render(table.id, force=True)

    async def _render(self, table_id: int, *, force: bool = False) -> None:
        table = self.table(table_id)
        if table is None or table.table_message_id is None:
            return
        wait = self.budget.wait(table.channel_id, self.scheduler.now())
        if wait > 0 and not force:
            self.scheduler.after(f"render{table.id}", wait, partial(self._render, table.id))
            return
        self._rendering.add(table.id)
        self.spent(table)
        retry = False
        try:
            # Draw under the lock, so a change half-way through its commit is never drawn; send
            # outside it, so clicks never wait on Discord.
            async with table.lock:
                embed, items, files = self._draw(table)
                message_id = table.table_message_id
            message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(message_id)
            await message.edit(embed=embed, view=view_of(items), attachments=files)
            if table.unreachable_since is not None:
                self._reached(table)
        except (discord.HTTPException, OSError) as error:
            failure = classify(error)
            if failure is Failure.MESSAGE_GONE:
                await self._repost(table)
            elif failure.unreachable:
                self._unreachable(table, failure)
            else:
                log.warning("could not edit table %s message: %s", table.id, error)
                retry = failure is Failure.TRANSIENT
        finally:
            self._rendering.discard(table.id)
        if retry:
            self.scheduler.after(f"render{table.id}", RETRY_SECONDS, partial(self._render, table.id))
        elif table.id in self._dirty:
            self._dirty.discard(table.id)
            self.request(table)

    async def _repost(self, table: Table) -> None:
        """Someone deleted the table message: post the table again (its buttons live there)."""
        async with table.lock:
            embed, items, files = self._draw(table)
        try:
            channel = self.bot.get_partial_messageable(table.channel_id)
            message = await channel.send(embed=embed, view=view_of(items), files=files)
        except (discord.HTTPException, OSError) as error:
            failure = classify(error)
            if failure.unreachable:
                self._unreachable(table, failure)
            else:
                log.warning("could not post table %s again: %s", table.id, error)
            return
        log.info("table %s message was deleted; posted it again as %s", table.id, message.id)
        table.table_message_id = message.id
        if table.unreachable_since is not None:
            self._reached(table)
        try:
            await self.store.set_table_message(table.id, message.id)
        except Exception:  # the message stands; after a restart the old id re-posts once more
            log.exception("could not store table %s's new message", table.id)

    # --- other posts -----------------------------------------------------------------------

    async def say(
        self, table: Table, text: str, allowed: discord.AllowedMentions | None = None
    ) -> discord.Message | None:
        """A short public line; ``allowed`` says whom it may notify (see cogs/pings.py)."""
        if allowed is None:
            allowed = discord.AllowedMentions(users=True, roles=False, everyone=False)
        return await self._send(table, content=text, allowed_mentions=allowed)

    async def post(
        self,
        table: Table,
        embed: discord.Embed,
        items: list[discord.ui.Item[Any]] | None = None,
        files: list[discord.File] | None = None,
    ) -> discord.Message | None:
        kwargs: dict[str, Any] = {"embed": embed}
        if items:
            kwargs["view"] = view_of(items)
        if files:
            kwargs["files"] = files
        return await self._send(table, **kwargs)

    async def edit_line(self, table: Table, message_id: int, text: str) -> bool:
        """Edit a short line posted earlier (e.g. a turn reminder kept in place). False if gone."""
        try:
            message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(message_id)
            await message.edit(content=text, allowed_mentions=discord.AllowedMentions.none())
            return True
        except (discord.HTTPException, OSError) as error:
            log.info("could not edit line at table %s: %s", table.id, error)
            return False

    async def _send(self, table: Table, **kwargs: Any) -> discord.Message | None:
        try:
            channel = self.bot.get_partial_messageable(table.channel_id)
            return await channel.send(**kwargs)
        except (discord.HTTPException, OSError) as error:
            failure = classify(error)
            if failure.unreachable:
                self._unreachable(table, failure)
            else:
                log.warning("could not post to table %s: %s", table.id, error)
            return None

    def spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
