"""The line a table opened in a thread keeps in its parent channel.

People who never open the thread still see that a game is forming, can sit down with its Join
button, and see when it starts and ends. The line is posted once when the table opens and edited
in place after that (the latest drawing wins, and Discord's "try later" is retried: Effects); a
failure to post or edit it never touches the table.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import discord
from sqlalchemy.exc import SQLAlchemyError

from cogs.table.buttons import TableButton, view_of
from cogs.table.common import NOBODY
from cogs.table.drawing import TableDrawing
from cogs.table.effects import Effects, TryLater
from cogs.table.failures import Failure, classify
from cogs.table.model import Table
from cogs.texts import Texts, speaking
from db.store import Store

log = logging.getLogger(__name__)
T = Texts(__name__)


def on_thread_line(interaction: discord.Interaction[Any], table: Table, verb: str) -> bool:
    """A Join pressed on the line a thread table posts in its parent channel."""
    line = table.settings.get("line")
    return verb == "join" and isinstance(line, list) and interaction.channel_id == line[0]


class ThreadLines:
    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        drawing: TableDrawing,
        effects: Effects,
        lookup: Callable[[int], Table | None],
    ) -> None:
        self.bot = bot
        self.store = store
        self.drawing = drawing
        self.effects = effects
        self._lookup = lookup

    async def post(self, table: Table, parent: discord.abc.Messageable, parent_id: int) -> None:
        """Post the line (once Discord takes it, if it says "try later" now)."""
        del parent  # posted through the bot's own channel handle, which a retry can use too
        await self.effects.run(f"tline{table.id}", partial(self._post, table.id, parent_id))

    async def _post(self, table_id: int, parent_id: int) -> None:
        table = self._lookup(table_id)
        if table is None or isinstance(table.settings.get("line"), list):
            return  # the table is gone, or its line stands already
        with speaking(table.language):  # the parent channel reads it
            join = TableButton(
                table.id, "join", label=T.pgettext("button", "Join"), style=discord.ButtonStyle.success
            )
        items: list[discord.ui.Item[Any]] = [join] if table.status == "lobby" else []
        try:
            message = await self.bot.get_partial_messageable(parent_id).send(
                self.drawing.thread_line(table),
                view=view_of(items),
                allowed_mentions=NOBODY,
            )
        except (discord.HTTPException, OSError) as error:
            if classify(error) is Failure.TRANSIENT:
                raise TryLater(error) from error
            log.info("could not post table %s's line in the parent channel: %s", table.id, error)
            return
        table.settings["line"] = [parent_id, message.id]
        try:
            await self.store.set_options(table.id, table.settings)
        except SQLAlchemyError:
            log.exception("could not store table %s's parent line", table.id)

    def request(self, table: Table) -> None:
        """Show the table's latest state on its parent line soon."""
        if isinstance(table.settings.get("line"), list):
            self.effects.book(f"tline{table.id}", partial(self._update, table.id))

    async def _update(self, table_id: int) -> None:
        table = self._lookup(table_id)
        if table is None:
            return
        line = table.settings.get("line")
        if not isinstance(line, list):
            return
        items: list[discord.ui.Item[Any]] = []
        if table.status == "lobby":
            with speaking(table.language):  # the parent channel reads it
                items = [
                    TableButton(
                        table.id,
                        "join",
                        label=T.pgettext("button", "Join"),
                        style=discord.ButtonStyle.success,
                    )
                ]
        try:
            message = self.bot.get_partial_messageable(line[0]).get_partial_message(line[1])
            await message.edit(
                content=self.drawing.thread_line(table),
                view=view_of(items),
                allowed_mentions=NOBODY,
            )
        except (discord.HTTPException, OSError) as error:
            if classify(error) is Failure.TRANSIENT:
                raise TryLater(error) from error
            log.info("could not update table %s's parent line: %s", table.id, error)
