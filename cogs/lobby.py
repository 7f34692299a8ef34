"""The lobby part of the referee: opening a table, seats, the host's controls, start, rematch."""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.common import Refusal, display_name, is_manager, reply
from cogs.components import LobbySelect, TableButton, view_of
from cogs.scheduler import Scheduler
from cogs.table import SeatInfo, Table
from db.store import ChannelBusy, Store
from rules import get_game
from rules.base import Event

log = logging.getLogger(__name__)
SPEEDS = ("off", "relaxed", "fast")


class LobbyMixin:
    # Set by Referee.__init__; declared here for readers of this part alone.
    bot: discord.Client
    store: Store
    scheduler: Scheduler
    uis: dict[str, Any]
    tables: dict[int, Table]
    finished: dict[int, Table]

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
    ) -> Table:
        """Create a lobby in ``channel`` and post its message. Refusal if the channel is busy."""
        game = get_game(game_key)
        if self.table_in(channel_id) is not None:
            raise Refusal(
                "This channel already has a table. Finish or stop it first, or start one in a thread."
            )
        if not game.min_players <= seats <= game.max_players:
            raise Refusal(f"{game.title} seats {game.min_players}–{game.max_players} players.")
        if speed not in SPEEDS:
            raise Refusal(f"Speed must be one of: {', '.join(SPEEDS)}.")
        try:
            game.parse_options(rules)
        except ValueError as error:
            raise Refusal(str(error)) from error
        seat_list = preseated or [SeatInfo(0, host.id, display_name(host))]
        seed = self.new_seed()
        settings: dict[str, Any] = {"seats": seats, "rules": rules}
        if timers:
            settings["timers"] = {name: float(seconds) for name, seconds in timers.items()}
        try:
            tid = await self.store.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_key,
                host_id=host.id,
                options=settings,
                speed=speed,
                seed=seed,
                seats=[s.spec() for s in seat_list],
            )
        except ChannelBusy as error:
            raise Refusal("This channel already has a table. Finish or stop it first.") from error
        table = Table(
            id=tid,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            host_id=host.id,
            settings=settings,
            speed=speed,
            seed=seed,
            seats=seat_list,
        )
        self._track(table)
        message = await channel.send(embed=self.lobby_embed(table), view=view_of(self.lobby_items(table)))
        table.table_message_id = message.id
        await self.store.set_table_message(tid, message.id)
        return table

    def lobby_embed(self, table: Table, note: str | None = None) -> discord.Embed:
        ui = self.uis[table.game.key]
        embed = discord.Embed(
            title=f"{table.game.title} — table open",
            description="Press **Join** to take a seat. The host presses **Start** when everyone is in.",
            colour=discord.Colour.blurple(),
        )
        lines = []
        for s in table.seats:
            tag = f"computer ({s.computer_level})" if s.is_computer else f"<@{s.user_id}>"
            host = " — host" if s.user_id == table.host_id and not s.is_computer else ""
            lines.append(f"{s.seat + 1}. **{s.name}** · {tag}{host}")
        for i in range(len(table.seats), table.max_seats):
            lines.append(f"{i + 1}. *open seat*")
        embed.add_field(
            name=f"Seats ({len(table.seats)}/{table.max_seats})", value="\n".join(lines), inline=False
        )
        extra = getattr(ui, "lobby_lines", None)
        if extra is not None and (seating := extra(table)):
            embed.add_field(name="Seating", value="\n".join(seating), inline=False)
        embed.add_field(name="Options", value="\n".join(ui.options_lines(table)) or "—", inline=False)
        if note:
            embed.set_footer(text=note)
        return embed

    def lobby_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        full = len(table.seats) >= table.max_seats
        items: list[discord.ui.Item[Any]] = [
            TableButton(
                table.id, "join", label="Join", style=discord.ButtonStyle.success, disabled=full, row=0
            ),
            TableButton(table.id, "leave", label="Leave", row=0),
            TableButton(
                table.id,
                "start",
                label="Start",
                style=discord.ButtonStyle.primary,
                disabled=len(table.seats) < table.game.min_players,
                row=0,
            ),
            TableButton(table.id, "cancel", label="Cancel", style=discord.ButtonStyle.danger, row=0),
        ]
        for level in table.game.computer_levels:
            items.append(
                TableButton(
                    table.id, "cpu", level, label=f"Add computer: {level}", emoji="🤖", disabled=full, row=1
                )
            )
        if len(table.seats) >= 2:
            # Seat order matters (partners sit opposite, signals go left): the host may swap
            # neighbours; adjacent swaps reach every arrangement.
            names = [s.name for s in table.seats]
            options = [
                discord.SelectOption(
                    label=f"Swap seats {i + 1} and {i + 2}",
                    value=f"{i}",
                    description=f"{names[i]} ↔ {names[i + 1]}"[:100],
                )
                for i in range(len(names) - 1)
            ]
            items.append(LobbySelect(table.id, "swap", options, placeholder="Arrange seats (host)", row=2))
        return items

    async def _lobby_change(
        self, interaction: discord.Interaction[Any], table: Table, verb: str, arg: str | None
    ) -> None:
        user = interaction.user
        note: str | None = None
        if verb == "join":
            if table.seat_of(user.id) is not None:
                raise Refusal("You're already seated at this table.")
            if len(table.seats) >= table.max_seats:
                raise Refusal("This table is full.")
            table.seats.append(SeatInfo(len(table.seats), user.id, display_name(user)))
            note = f"{display_name(user)} joined."
        elif verb == "leave":
            seat = table.seat_of(user.id)
            if seat is None:
                raise Refusal("You're not seated at this table.")
            del table.seats[seat]
            table.renumbered()
            note = f"{display_name(user)} left."
            if user.id == table.host_id:
                humans = table.humans()
                if not humans:
                    await self._close(table, "cancelled")
                    await interaction.response.edit_message(
                        embed=discord.Embed(
                            title=f"{table.game.title} — cancelled", description="The host left."
                        ),
                        view=None,
                    )
                    return
                table.host_id = humans[0].user_id or table.host_id
                note += f" {humans[0].name} is the host now."
        elif verb == "cpu":
            self._require_host(interaction, table, "add computer players")
            if arg not in table.game.computer_levels:
                raise Refusal("There's no computer player of that level.")
            if len(table.seats) >= table.max_seats:
                raise Refusal("This table is full.")
            number = sum(1 for s in table.seats if s.is_computer) + 1
            table.seats.append(SeatInfo(len(table.seats), None, f"Robo {number} ({arg})", computer_level=arg))
            note = f"A {arg} computer player sat down."
        elif verb == "swap":
            self._require_host(interaction, table, "arrange the seats")
            if arg is None or not arg.isdigit() or int(arg) + 1 >= len(table.seats):
                raise Refusal("Those seats can't be swapped.")
            i = int(arg)
            table.seats[i], table.seats[i + 1] = table.seats[i + 1], table.seats[i]
            table.renumbered()
            note = f"Seats {i + 1} and {i + 2} swapped."
        elif verb == "cancel":
            self._require_host(interaction, table, "cancel the table")
            await self._close(table, "cancelled")
            await interaction.response.edit_message(
                embed=discord.Embed(
                    title=f"{table.game.title} — cancelled", description=f"Cancelled by {display_name(user)}."
                ),
                view=None,
            )
            return
        elif verb == "start":
            self._require_host(interaction, table, "start the game")
            await self._start(interaction, table)
            return
        else:
            raise Refusal("That button doesn't belong to a lobby.")
        table.version += 1
        await self.store.save_lobby(table.id, table.version, table.specs())
        await interaction.response.edit_message(
            embed=self.lobby_embed(table, note), view=view_of(self.lobby_items(table))
        )

    def _require_host(self, interaction: discord.Interaction[Any], table: Table, what: str) -> None:
        if interaction.user.id != table.host_id and not is_manager(interaction.user):
            raise Refusal(f"Only the host (or a server manager) can {what}.")

    async def _start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        n = len(table.seats)
        if n < table.game.min_players:
            raise Refusal(f"{table.game.title} needs at least {table.game.min_players} players.")
        state = table.game.new_game(n, table.options, table.seed)
        # The deal and opening flip the engine did on its own at the start are public news.
        events: list[Event] = list(getattr(state, "opening_events", None) or [])
        table.state = state
        table.status = "playing"
        table.version += 1
        table.log = []
        table.add_log([f"The game begins with {n} players."] + [self._line(table, e) for e in events])
        table.deadline_at, table.deadline_action = self._deadline(table)
        await self.store.start_game(
            table.id,
            version=table.version,
            seats=table.specs(),
            state=state.to_json(),
            log=table.log,
            deadline_at=table.deadline_at,
            deadline_action=table.deadline_action,
        )
        await interaction.response.edit_message(
            embed=self.table_embed(table),
            view=view_of(self.table_items(table)),
            attachments=self._files(table),
        )
        self._budget_spent(table)
        self._after_change(table, events, render=False)

    async def _close(self, table: Table, status: str) -> None:
        table.status = status
        table.version += 1
        await self.store.end_table(table.id, status, table.version)
        self._forget(table)

    async def _edit_lobby(self, table: Table) -> None:
        if table.table_message_id is None:
            return
        message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
            table.table_message_id
        )
        try:
            await message.edit(embed=self.lobby_embed(table), view=view_of(self.lobby_items(table)))
        except discord.HTTPException as error:
            log.warning("could not edit lobby %s: %s", table.id, error)

    async def _rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        old = self.finished.get(table_id)
        if old is None:
            row = await self.store.get_table(table_id)
            if row is None or row.status != "finished":
                raise Refusal("That game can't be rematched.")
            old = Table.from_row(row)
        if interaction.channel_id != old.channel_id:
            raise Refusal("That button belongs to a table in another channel.")
        if not any(s.user_id == interaction.user.id for s in old.seats):
            raise Refusal("Only the players of that game can call a rematch.")
        seats = []
        for s in old.seats:
            if s.left_at is not None:
                continue  # people who left don't get dragged back in
            seats.append(SeatInfo(len(seats), s.user_id, s.name, s.computer_level))
        # The person who asked for the rematch hosts it and sits first.
        seats.sort(key=lambda s: s.user_id != interaction.user.id)
        seats = [SeatInfo(i, s.user_id, s.name, s.computer_level) for i, s in enumerate(seats)]
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        await self.open_table(
            game_key=old.game.key,
            guild_id=old.guild_id,
            channel=channel,
            channel_id=old.channel_id,
            host=interaction.user,
            seats=max(old.max_seats, len(seats)),
            speed=old.speed,
            rules=old.settings.get("rules", {}),
            preseated=seats,
            timers=old.settings.get("timers"),
        )
        await reply(
            interaction,
            "Rematch lobby is open — same seats. You're the host: press Start when ready.",
        )
