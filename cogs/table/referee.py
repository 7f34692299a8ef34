"""The referee: the one object the bot holds (``bot.referee``), assembled from the table's parts.

- ``spine`` (spine.py): the live tables and the one mutation path every change takes;
- ``computers`` (computers.py): computer seats and their thinking pool;
- ``lifecycle`` (lifecycle.py): opening, leaving, stopping, resume after a restart, shutdown;
- ``entry`` (entry.py): every click and keyboard move, checked and routed to the spine.

This module only wires them together and gives the rest of the bot (cogs, bot.py, tests) one
name to call; it holds no state of its own and decides nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from cogs.table.computers import ComputerSeats
from cogs.table.drawing import GameUI, TableDrawing
from cogs.table.entry import Entry
from cogs.table.languages import Languages
from cogs.table.lifecycle import Lifecycle
from cogs.table.messages import TableMessages
from cogs.table.model import SeatInfo, Table
from cogs.table.panels import Panels
from cogs.table.scheduler import Scheduler
from cogs.table.spine import BrokenTable, Spine
from cogs.table.thinking import Thinker
from cogs.texts import SOURCE
from db.store import Store
from rules.base import ComputerPlayer, Event


class Referee:
    def __init__(self, bot: discord.Client, store: Store, scheduler: Scheduler) -> None:
        self.spine = Spine(bot, store, scheduler)
        self.lifecycle = Lifecycle(self.spine)
        self.entry = Entry(self.spine, self.lifecycle)
        # Clicks and keyboard moves being handled now: the collector waits for none (heap.py),
        # and is told (``on_idle``) when the last one ends: a quiet moment between bursts.
        self.handling = 0
        self.on_idle: Callable[[], None] | None = None

    # --- the parts' state, by the names the rest of the bot uses ---------------------------

    @property
    def store(self) -> Store:
        return self.spine.store

    @property
    def scheduler(self) -> Scheduler:
        return self.spine.scheduler

    @property
    def uis(self) -> dict[str, GameUI]:
        return self.spine.uis

    @property
    def tables(self) -> dict[int, Table]:
        return self.spine.tables

    @property
    def by_channel(self) -> dict[int, int]:
        return self.spine.by_channel

    @property
    def finished(self) -> dict[int, Table]:
        return self.spine.finished

    @property
    def languages(self) -> Languages:
        """Whose language each text is in (cogs/table/languages.py)."""
        return self.spine.languages

    @property
    def messages(self) -> TableMessages:
        return self.spine.messages

    @property
    def panels(self) -> Panels:
        return self.spine.panels

    @property
    def drawing(self) -> TableDrawing:
        return self.spine.drawing

    @property
    def on_change(self) -> list[Callable[[Table, list[Event]], None]]:
        return self.spine.on_change

    @property
    def computers(self) -> ComputerSeats:
        return self.spine.computers

    @property
    def thinker(self) -> Thinker:
        return self.spine.computers.thinker

    @property
    def computer_speed(self) -> float:
        return self.spine.computers.speed

    @computer_speed.setter
    def computer_speed(self, value: float) -> None:
        self.spine.computers.speed = value

    @property
    def new_seed(self) -> Callable[[], int]:
        return self.lifecycle.new_seed

    @new_seed.setter
    def new_seed(self, value: Callable[[], int]) -> None:
        self.lifecycle.new_seed = value

    @property
    def draining(self) -> bool:
        return self.spine.draining

    @draining.setter
    def draining(self, value: bool) -> None:
        self.spine.draining = value

    @property
    def owns(self) -> Callable[[int], bool]:
        return self.spine.owns

    @owns.setter
    def owns(self, value: Callable[[int], bool]) -> None:
        self.spine.owns = value

    @property
    def announce_change(self) -> Callable[[int], Awaitable[None]]:
        return self.spine.announce_change

    @announce_change.setter
    def announce_change(self, value: Callable[[int], Awaitable[None]]) -> None:
        self.spine.announce_change = value

    # --- what the bot and the cogs call ----------------------------------------------------

    def register(self, ui: GameUI) -> None:
        self.spine.register(ui)

    def broken_in(self, channel_id: int | None) -> BrokenTable | None:
        """The table in this channel that could not be loaded after a restart, if any."""
        return self.spine.broken.get(channel_id or 0)

    def table_in(self, channel_id: int | None) -> Table | None:
        return self.spine.table_in(channel_id)

    def table_or_closed(self, table_id: int) -> Table | None:
        return self.spine.table_or_closed(table_id)

    def computer(self, game_key: str, level: str, persona: str = "") -> ComputerPlayer[Any]:
        return self.spine.computers.player(game_key, level, persona)

    def stop_thinking(self) -> None:
        self.spine.computers.stop()

    async def act(self, table: Table, seat: int | None, action: str, actor_id: int | None) -> list[Event]:
        return await self.spine.act(table, seat, action, actor_id)

    def on_table_changed(self, table_id: int) -> None:
        self.spine.on_table_changed(table_id)

    def _handled(self) -> None:
        self.handling -= 1
        if not self.handling and self.on_idle is not None:
            self.on_idle()

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str, arg: str | None
    ) -> None:
        self.handling += 1
        try:
            await self.entry.on_table_button(interaction, table_id, verb, arg)
        finally:
            self._handled()

    async def on_action_button(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None:
        self.handling += 1
        try:
            await self.entry.on_action_button(interaction, table_id, version, action)
        finally:
            self._handled()

    async def command_action(self, interaction: discord.Interaction[Any], action: str) -> None:
        self.handling += 1
        try:
            await self.entry.command_action(interaction, action)
        finally:
            self._handled()

    async def open_table(
        self,
        *,
        game_key: str,
        guild_id: int,
        channel: discord.abc.Messageable,
        channel_id: int,
        host: discord.abc.User,
        seats: int,
        speed: str,
        rules: dict[str, Any],
        preseated: list[SeatInfo] | None = None,
        timers: dict[str, float] | None = None,
        permissions: discord.Permissions | None = None,
        language: str = SOURCE,
    ) -> Table:
        return await self.lifecycle.open_table(
            game_key=game_key,
            guild_id=guild_id,
            channel=channel,
            channel_id=channel_id,
            host=host,
            seats=seats,
            speed=speed,
            rules=rules,
            preseated=preseated,
            timers=timers,
            permissions=permissions,
            language=language,
        )

    async def post_thread_line(self, table: Table, parent: discord.abc.Messageable, parent_id: int) -> None:
        await self.spine.thread_lines.post(table, parent, parent_id)

    async def leave(self, interaction: discord.Interaction[Any]) -> str:
        return await self.lifecycle.leave(interaction)

    async def stop(self, interaction: discord.Interaction[Any]) -> str:
        return await self.lifecycle.stop(interaction)

    async def resume(self) -> int:
        return await self.lifecycle.resume()

    async def shutdown(self, timeout: float = 8.0) -> None:
        await self.lifecycle.shutdown(timeout)
