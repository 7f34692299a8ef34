"""The rendering part of the referee: the public table message, coalesced edits, posts."""

from __future__ import annotations

import logging
from collections import deque
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord

from cogs.components import TableButton, view_of
from cogs.scheduler import Scheduler
from cogs.table import Table
from db.store import Store

log = logging.getLogger(__name__)

# Discord allows a handful of edits per channel every few seconds; stay inside 5 per 5 s.
EDITS_PER_WINDOW = 5
EDIT_WINDOW = timedelta(seconds=5)


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
        if len(recent) < EDITS_PER_WINDOW:
            return 0.0
        return (recent[0] + EDIT_WINDOW - now).total_seconds() + 0.01

    def spend(self, channel_id: int, now: datetime) -> None:
        self._edits.setdefault(channel_id, deque()).append(now)


class RenderMixin:
    # Set by Referee.__init__; declared here for readers of this part alone.
    bot: discord.Client
    store: Store
    scheduler: Scheduler
    uis: dict[str, Any]
    tables: dict[int, Table]
    finished: dict[int, Table]
    budget: EditBudget
    _rendering: set[int]
    _dirty: set[int]

    def table_embed(self, table: Table) -> discord.Embed:
        embed = self.uis[table.game.key].table_embed(table)
        if table.log:
            embed.add_field(name="Latest", value="\n".join(table.log[-5:])[:1024], inline=False)
        return embed

    def _files(self, table: Table) -> list[discord.File]:
        files = getattr(self.uis[table.game.key], "table_files", None)
        return list(files(table)) if files is not None else []

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        if table.status != "playing":
            return []
        ui = self.uis[table.game.key]
        label = getattr(ui, "hand_label", "My hand")
        emoji = getattr(ui, "hand_emoji", "🃏")
        items: list[discord.ui.Item[Any]] = [
            TableButton(table.id, "hand", label=label, emoji=emoji, style=discord.ButtonStyle.primary, row=0),
            TableButton(table.id, "dm", label=getattr(ui, "dm_label", "Hand by DM"), emoji="✉️", row=0),
        ]
        items.extend(self.uis[table.game.key].table_items(table))
        return items

    def request_render(self, table: Table) -> None:
        """Show the latest state soon, never exceeding the channel's edit budget."""
        if table.table_message_id is None:
            return
        if table.id in self._rendering:
            self._dirty.add(table.id)
            return
        key = f"render{table.id}"
        if self.scheduler.when(key) is not None:
            return  # an edit is already booked; it will draw whatever is latest then
        wait = self.budget.wait(table.channel_id, self.scheduler.now())
        if wait <= 0:
            self._spawn(self._render(table.id))
        else:
            self.scheduler.after(key, wait, partial(self._render, table.id))

    def _budget_spent(self, table: Table) -> None:
        self.budget.spend(table.channel_id, self.scheduler.now())

    async def _render(self, table_id: int) -> None:
        # A finished table still gets its last edit: the final state is always shown. (Its key is
        # outside the table's timer prefix, which is cancelled when the table is forgotten.)
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if table is None or table.table_message_id is None:
            return
        wait = self.budget.wait(table.channel_id, self.scheduler.now())
        if wait > 0:
            self.scheduler.after(f"render{table.id}", wait, partial(self._render, table.id))
            return
        self._rendering.add(table.id)
        self._budget_spent(table)
        try:
            # Draw under the lock: between an engine apply and its commit the state is ahead of
            # the database and may yet be rolled back; send outside it, so clicks never wait on HTTP.
            async with table.lock:
                embed, items, files = self.table_embed(table), self.table_items(table), self._files(table)
            message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
                table.table_message_id
            )
            await message.edit(embed=embed, view=view_of(items), attachments=files)
        except discord.HTTPException as error:
            log.warning("could not edit table %s message: %s", table.id, error)
        finally:
            self._rendering.discard(table.id)
        if table.id in self._dirty:
            self._dirty.discard(table.id)
            self.request_render(table)

    async def _say(self, table: Table, text: str) -> None:
        """A short public line that pings the people it mentions (e.g. whose decision it is)."""
        try:
            channel = self.bot.get_partial_messageable(table.channel_id)
            await channel.send(
                text, allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False)
            )
        except discord.HTTPException as error:
            log.warning("could not post to table %s: %s", table.id, error)

    async def _post(
        self, table: Table, embed: discord.Embed, items: list[discord.ui.Item[Any]] | None = None
    ) -> None:
        try:
            channel = self.bot.get_partial_messageable(table.channel_id)
            if items:
                await channel.send(embed=embed, view=view_of(items))
            else:
                await channel.send(embed=embed)
        except discord.HTTPException as error:
            log.warning("could not post to table %s: %s", table.id, error)
