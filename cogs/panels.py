"""The private-panel part of the referee: hand panels, their live refresh, DMs."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord

from cogs.common import reply
from cogs.components import view_of
from cogs.scheduler import Scheduler
from cogs.table import Table
from db.store import Store

log = logging.getLogger(__name__)

# An open hand panel follows the table live, but at most once a second per player.
PANEL_REFRESH = timedelta(seconds=1)
# Interaction tokens die after 15 minutes; stop editing a panel a little before that.
PANEL_TOKEN_LIFETIME = timedelta(minutes=14)


@dataclass
class OpenPanel:
    """The latest hand panel a person has open: an ephemeral reply (edited through the
    interaction that last touched it) or a DM message (edited directly)."""

    interaction: discord.Interaction[Any] | None
    message: discord.Message | None
    opened: datetime
    version: int
    edited: datetime | None = None
    nav: str | None = None  # panel-only steps (a picked card) survive the live refresh


class PanelMixin:
    # Set by Referee.__init__; declared here for readers of this part alone.
    bot: discord.Client
    store: Store
    scheduler: Scheduler
    uis: dict[str, Any]
    tables: dict[int, Table]
    finished: dict[int, Table]
    panels: dict[tuple[int, int], OpenPanel]

    def refresh_panels(self, table: Table) -> None:
        """Bring every open panel of this table up to date, each at most once a second."""
        now = self.scheduler.now()
        for (tid, seat), panel in list(self.panels.items()):
            if tid != table.id or panel.version == table.version:
                continue
            key = f"panel{tid}:{seat}"  # not under the table's prefix: the game-over edit must survive
            if self.scheduler.when(key) is not None:
                continue
            due = (panel.edited or now) + PANEL_REFRESH
            self.scheduler.at(key, max(due, now), partial(self._refresh_panel, tid, seat))

    async def _refresh_panel(self, table_id: int, seat: int) -> None:
        panel = self.panels.get((table_id, seat))
        table = self.tables.get(table_id) or self.finished.get(table_id)
        if panel is None or table is None or table.state is None:
            return
        now = self.scheduler.now()
        person = table.seats[seat] if seat < len(table.seats) else None
        if person is None or person.is_computer or now - panel.opened > PANEL_TOKEN_LIFETIME:
            del self.panels[(table_id, seat)]
            return
        async with table.lock:  # only committed state is drawn (see _render)
            if table.status == "playing":
                embed, items = self.uis[table.game.key].panel(table, seat, None, panel.nav)
                view: discord.ui.View | None = view_of(items)
            else:
                embed = discord.Embed(title="Game over", description="See the table for the results.")
                view = None
                self.panels.pop((table_id, seat), None)
            panel.version, panel.edited = table.version, now
        try:
            if panel.message is not None:
                await panel.message.edit(embed=embed, view=view)
            elif panel.interaction is not None:
                await panel.interaction.edit_original_response(embed=embed, view=view)
        except discord.HTTPException:
            self.panels.pop((table_id, seat), None)  # dismissed, expired or DMs closed: stop trying

    async def _answer_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        note: str | None,
        *,
        edit: bool,
        nav: str | None = None,
    ) -> None:
        embed, items = self.uis[table.game.key].panel(table, seat, note, nav)
        if edit:
            await interaction.response.edit_message(embed=embed, view=view_of(items))
        else:
            await interaction.response.send_message(embed=embed, view=view_of(items), ephemeral=True)
        now = self.scheduler.now()
        self.panels[(table.id, seat)] = OpenPanel(interaction, None, now, table.version, now, nav)

    async def _answer_panel_over(self, interaction: discord.Interaction[Any], *, edit: bool) -> None:
        embed = discord.Embed(
            title="Game over", description="That was the last play. See the table for the results."
        )
        if edit:
            await interaction.response.edit_message(embed=embed, view=None)
        else:
            await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _send_panel(
        self, interaction: discord.Interaction[Any], table: Table, seat: int, note: str | None
    ) -> None:
        await self._answer_panel(interaction, table, seat, note, edit=False)

    async def _send_dm_panel(self, interaction: discord.Interaction[Any], table: Table, seat: int) -> None:
        embed, items = self.uis[table.game.key].panel(table, seat, None)
        try:
            message = await interaction.user.send(embed=embed, view=view_of(items))
        except discord.HTTPException:
            note = "I couldn't DM you (your DMs may be closed), so here is your hand here instead."
            await self._send_panel(interaction, table, seat, note)
            return
        table.seats[seat].prefers_dm = True
        now = self.scheduler.now()
        self.panels[(table.id, seat)] = OpenPanel(None, message, now, table.version, now)
        await reply(interaction, "I sent your hand to your DMs. Its buttons work from there.")
