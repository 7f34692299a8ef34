"""The referee: owns every live table and is the only code that changes one.

Data flows one way: a click or command → the table's lock → the engine applies the action → the
action and the new snapshot are committed in one transaction → only then is the player answered
→ the public table message is re-rendered (coalesced), timers and computer players re-planned.
Game-specific drawing is delegated to a GameUI per game; nothing here knows a game's rules.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol

import discord
from sqlalchemy.exc import SQLAlchemyError

from cogs.components import LobbySelect, TableButton, view_of
from cogs.scheduler import Scheduler
from cogs.table import SeatInfo, Table
from db.models import utcnow
from db.store import ChannelBusy, SeatResult, Store
from rules import get_game
from rules.base import ComputerPlayer, Event, IllegalAction

log = logging.getLogger(__name__)

# Discord allows a handful of edits per channel every few seconds; stay inside 5 per 5 s.
EDITS_PER_WINDOW = 5
EDIT_WINDOW = timedelta(seconds=5)
# How soon a timer whose deadline passed while the bot was down fires after a restart.
RESUME_GRACE_SECONDS = 2.0
REPLACEMENT_LEVEL = "casual"
# An open hand panel follows the table live, but at most once a second per player.
PANEL_REFRESH = timedelta(seconds=1)
# Interaction tokens die after 15 minutes; stop editing a panel a little before that.
PANEL_TOKEN_LIFETIME = timedelta(minutes=14)
SPEEDS = ("off", "relaxed", "fast")


class GameUI(Protocol):
    """What a game cog supplies so the shared table can draw it.

    Optional extras, looked up with getattr so simple games need not define them:
    ``table_files(table) -> list[discord.File]`` (images on the table message, e.g. a board),
    ``lobby_lines(table) -> list[str]`` (e.g. teams), ``public_cooldown(action) -> float | None``
    (seconds between uses of a public button per player, e.g. gestures), ``hand_label`` (the
    "My hand" button's text), ``announcements(table, events) -> list[str]`` (short public
    messages that should ping someone, e.g. "@Bea, your decision"), ``signal_rows(table) ->
    list[dict]`` (a finished game's secret signals, stored in the signals table), ``hand_emoji``,
    and ``version_free(action) -> bool``: actions that mean the same whatever changed since the
    panel was drawn (a swap naming both cards), so a stale panel's click goes to the engine,
    which refuses it with its own reason if it no longer fits, instead of "too slow" — bounded by
    ``epoch(table) -> hashable`` (e.g. the round): a click never crosses into a new epoch.
    """

    key: str

    def table_embed(self, table: Table) -> discord.Embed: ...

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]: ...

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        """The seat's private panel; ``nav`` is panel-only state from a "nav-…" button (e.g. the
        pawn picked before choosing where it goes), never an engine action."""
        ...

    def event_line(self, table: Table, event: Event) -> str: ...

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None: ...

    def final_embed(self, table: Table) -> discord.Embed: ...

    def options_lines(self, table: Table) -> list[str]: ...


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


class Refusal(Exception):
    """A request we turn down with a reason for the person who made it."""


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


class Referee:
    def __init__(self, bot: discord.Client, store: Store, scheduler: Scheduler) -> None:
        self.bot = bot
        self.store = store
        self.scheduler = scheduler
        self.uis: dict[str, GameUI] = {}
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.budget = EditBudget()
        self._rendering: set[int] = set()
        self._dirty: set[int] = set()
        self._computers: dict[tuple[str, str, str], ComputerPlayer] = {}
        self._background: set[asyncio.Task[Any]] = set()
        # Hooks for measurements and tests: called after every accepted change.
        self.on_change: list[Callable[[Table, list[Event]], None]] = []
        self.computer_speed = 1.0
        # Each table's shuffle seed; tests pin it to get a known deal.
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(2**53)
        # Finished tables stay at hand for their Rematch button; after a restart the button
        # reloads the seats from the database instead.
        self.finished: dict[int, Table] = {}
        self.panels: dict[tuple[int, int], OpenPanel] = {}
        self._public_uses: dict[tuple[int, int, str], datetime] = {}

    def register(self, ui: GameUI) -> None:
        self.uis[ui.key] = ui

    # --- lookups ---------------------------------------------------------------------------

    def table_in(self, channel_id: int | None) -> Table | None:
        tid = self.by_channel.get(channel_id or 0)
        return self.tables.get(tid) if tid is not None else None

    def _track(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def _forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        self.scheduler.cancel_prefix(f"t{table.id}:")

    # --- lobby -----------------------------------------------------------------------------

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
        seat_list = preseated or [SeatInfo(0, host.id, _name(host))]
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
            table.seats.append(SeatInfo(len(table.seats), user.id, _name(user)))
            note = f"{_name(user)} joined."
        elif verb == "leave":
            seat = table.seat_of(user.id)
            if seat is None:
                raise Refusal("You're not seated at this table.")
            del table.seats[seat]
            table.renumbered()
            note = f"{_name(user)} left."
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
                    title=f"{table.game.title} — cancelled", description=f"Cancelled by {_name(user)}."
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
        if interaction.user.id != table.host_id and not _is_manager(interaction.user):
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

    # --- the table message -----------------------------------------------------------------

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
            TableButton(table.id, "dm", label="Hand by DM", emoji="✉️", row=0),
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

    # --- playing ---------------------------------------------------------------------------

    async def act(self, table: Table, seat: int | None, action: str, actor_id: int | None) -> list[Event]:
        """Apply one action and commit it; the caller holds ``table.lock``.

        Raises IllegalAction (nothing changed) or a database error (nothing changed: the
        in-memory state is restored from its snapshot, so memory never runs ahead of disk).
        """
        assert table.lock.locked(), "act() needs the table lock"
        assert table.state is not None
        before = table.state.to_json()
        events = table.state.apply(seat, action)
        try:
            version = table.version + 1
            log_before = list(table.log)
            deal = next((i for i, e in enumerate(events) if e.kind == "deal"), None)
            if deal is None:
                table.add_log([self._line(table, e) for e in events])
            else:
                table.add_log([self._line(table, e) for e in events[deal:]], fresh=True)
            deadline_at, deadline_action = self._deadline(table)
            over = table.state.is_over()
            results = None
            if over:
                result = table.state.result()
                assert result is not None
                results = [SeatResult(p.seat, p.place, p.points) for p in result.placements]
            await self.store.commit_action(
                table.id,
                seq=version,
                seat=seat,
                action=action,
                actor_id=actor_id,
                state=table.state.to_json(),
                version=version,
                log=table.log,
                deadline_at=deadline_at,
                deadline_action=deadline_action,
                seats=table.specs() if over else None,
                results=results,
                guild_id=table.guild_id,
                game=table.game.key,
                signals=self._signal_rows(table) if over else (),
            )
        except BaseException:
            table.state = table.game.from_json(before)
            table.log = log_before
            raise
        table.version = version
        table.deadline_at, table.deadline_action = deadline_at, deadline_action
        if over:
            table.status = "finished"
        self._after_change(table, events)
        return events

    def _signal_rows(self, table: Table) -> list[dict[str, Any]]:
        """A game with secret signals says which were chosen (GameUI.signal_rows), stored with
        the final action so the record of the game keeps them."""
        rows = getattr(self.uis[table.game.key], "signal_rows", None)
        return list(rows(table)) if rows is not None else []

    def _line(self, table: Table, event: Event) -> str:
        return self.uis[table.game.key].event_line(table, event)

    def _deadline(self, table: Table) -> tuple[datetime | None, str | None]:
        assert table.state is not None
        for quiet in table.state.quiet_actions():
            seconds = table.timer_seconds(quiet.timer)
            if seconds is not None:
                return self.scheduler.now() + timedelta(seconds=seconds), quiet.action
        return None, None

    def _after_change(self, table: Table, events: list[Event], *, render: bool = True) -> None:
        ui = self.uis[table.game.key]
        self._track_epoch(table)
        for hook in self.on_change:
            hook(table, events)
        for event in events:
            if event.kind == "round_over":
                embed = ui.round_embed(table, event)
                if embed is not None:
                    self._spawn(self._post(table, embed))
        announce = getattr(ui, "announcements", None)
        if announce is not None and table.status == "playing":
            for text in announce(table, events):
                self._spawn(self._say(table, text))
        if table.status == "finished":
            self.scheduler.cancel_prefix(f"t{table.id}:")
            self.refresh_panels(table)
            if render:
                self.request_render(table)
            self._spawn(self._finish(table))
            return
        self._schedule_deadline(table)
        self.plan_computers(table)
        self.refresh_panels(table)
        if render:
            self.request_render(table)

    async def _finish(self, table: Table) -> None:
        ui = self.uis[table.game.key]
        await self._post(
            table,
            ui.final_embed(table),
            [
                TableButton(
                    table.id, "rematch", label="Rematch", emoji="🔁", style=discord.ButtonStyle.success
                )
            ],
        )
        self._forget(table)
        self.finished[table.id] = table

    def _schedule_deadline(self, table: Table) -> None:
        key = f"t{table.id}:deadline"
        if table.deadline_at is None or table.deadline_action is None:
            self.scheduler.cancel(key)
            return
        self.scheduler.at(key, table.deadline_at, partial(self._on_deadline, table.id, table.version))

    async def _on_deadline(self, table_id: int, version: int) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.version != version or table.status != "playing" or table.deadline_action is None:
                return  # something happened since; that change booked its own timer
            try:
                await self.act(table, None, table.deadline_action, None)
            except IllegalAction as error:
                log.warning("timer action %s refused at table %s: %s", table.deadline_action, table.id, error)

    # --- live hand panels --------------------------------------------------------------------

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

    # --- computer players ------------------------------------------------------------------

    def computer(self, game_key: str, level: str, persona: str = "") -> ComputerPlayer:
        """Computer players are stateless deciders, shared per (game, level[, persona]).

        Games whose computers have a taste (``computer_persona = True`` on the Game) get one
        per seat name, so the same computer keeps the same taste from game to game."""
        game = get_game(game_key)
        personal = bool(getattr(game, "computer_persona", False))
        key = (game_key, level, persona if personal else "")
        if key not in self._computers:
            settings: dict[str, Any] = {"speed": self.computer_speed}
            if personal:
                settings["persona"] = persona
            self._computers[key] = game.computer_player(level, **settings)
        return self._computers[key]

    def plan_computers(self, table: Table) -> None:
        """Each computer seat looks at its own view and decides what to reach for, and when."""
        if table.status != "playing" or table.state is None:
            return
        for seat in table.seats:
            key = f"t{table.id}:cpu{seat.seat}"
            if not seat.is_computer:
                table.planned.pop(seat.seat, None)
                self.scheduler.cancel(key)
                continue
            legal = table.state.legal_actions(seat.seat)
            choice = None
            player = self.computer(table.game.key, seat.computer_level or REPLACEMENT_LEVEL, seat.name)
            rng = random.Random(f"{table.seed}:{table.version}:{seat.seat}")
            view = table.state.view(seat.seat)
            if legal:
                choice = player.choose(view, legal, rng)
            if choice is None:
                table.planned.pop(seat.seat, None)
                self.scheduler.cancel(key)
                continue
            if table.planned.get(seat.seat) == choice and self.scheduler.when(key) is not None:
                continue  # still reaching for the same card: keep its original timing
            table.planned[seat.seat] = choice
            delay = player.reaction_time(view, choice, rng)
            self.scheduler.after(key, delay, partial(self._on_computer, table.id, seat.seat, choice))

    async def _on_computer(self, table_id: int, seat: int, action: str) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            table.planned.pop(seat, None)
            if table.status != "playing" or table.state is None or not table.seats[seat].is_computer:
                return
            if action not in table.state.legal_actions(seat):
                self.plan_computers(table)
                return
            try:
                await self.act(table, seat, action, None)
            except (IllegalAction, SQLAlchemyError) as error:
                log.warning("computer action %s at table %s failed: %s", action, table.id, error)
                self.plan_computers(table)

    # --- Discord entry points --------------------------------------------------------------

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str, arg: str | None
    ) -> None:
        if verb == "rematch":
            await self._guarded(interaction, self._rematch(interaction, table_id))
            return
        table = self.tables.get(table_id)
        if table is None:
            await reply(interaction, "That table has ended, so its buttons no longer do anything.")
            return
        async with table.lock:
            await self._guarded(interaction, self._table_button(interaction, table, verb, arg))

    async def _table_button(
        self, interaction: discord.Interaction[Any], table: Table, verb: str, arg: str | None
    ) -> None:
        if interaction.channel_id != table.channel_id:
            raise Refusal("That button belongs to a table in another channel.")
        if table.status == "lobby":
            await self._lobby_change(interaction, table, verb, arg)
            return
        if table.status != "playing" or table.state is None:
            raise Refusal("This game is over.")
        seat = table.seat_of(interaction.user.id)
        if verb == "hand":
            if seat is None:
                raise Refusal("You're not playing at this table, so you have no hand here.")
            await self._send_panel(interaction, table, seat, None)
        elif verb == "dm":
            if seat is None:
                raise Refusal("You're not playing at this table, so you have no hand here.")
            await self._send_dm_panel(interaction, table, seat)
        elif verb == "act" and arg:
            # Public buttons any player may press (Next round, a gesture, a bid): they act on the
            # current state, because the table message is redrawn at most once a second.
            if seat is None:
                raise Refusal("Only the players at this table can do that.")
            await self._apply_public(interaction, table, seat, arg)
        else:
            raise Refusal("That button doesn't do anything any more.")

    async def on_action_button(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None:
        table = self.tables.get(table_id)
        if table is None:
            await reply(interaction, "That table has ended, so this panel no longer does anything.")
            return
        async with table.lock:
            await self._guarded(interaction, self._action_button(interaction, table, version, action))

    async def _action_button(
        self, interaction: discord.Interaction[Any], table: Table, version: int, action: str
    ) -> None:
        in_dm = interaction.guild_id is None
        if not in_dm and interaction.channel_id != table.channel_id:
            raise Refusal("That button belongs to a table in another channel.")
        if table.status != "playing" or table.state is None:
            raise Refusal("This game is over.")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("You're not playing at this table.")
        if action == "refresh":
            await self._answer_panel(interaction, table, seat, None, edit=True)
            return
        if action.startswith("nav-"):
            if version != table.version:
                note = "The table moved on; here it is now."
                await self._answer_panel(interaction, table, seat, note, edit=True)
            else:
                await self._answer_panel(interaction, table, seat, None, edit=True, nav=action[4:])
            return
        await self._apply_from_click(interaction, table, seat, action, version, panel=True)

    async def _apply_public(
        self, interaction: discord.Interaction[Any], table: Table, seat: int, action: str
    ) -> None:
        cooldown = getattr(self.uis[table.game.key], "public_cooldown", None)
        seconds = cooldown(action) if cooldown is not None else None
        now = self.scheduler.now()
        key = (table.id, seat, action.split("-")[0])
        if seconds:
            last = self._public_uses.get(key)
            if last is not None and (now - last).total_seconds() < seconds:
                raise Refusal(f"Easy there — once every {seconds:g} seconds.")
        await self.act(table, seat, action, interaction.user.id)  # IllegalAction → a reason, via _guarded
        if seconds:
            self._public_uses[key] = now
        # The table shows what happened; a silent acknowledgement keeps the channel quiet.
        await interaction.response.defer()

    async def command_action(self, interaction: discord.Interaction[Any], action: str) -> None:
        """A keyboard move (e.g. `/trap move c3>c4`): the same checks as a click, on the current state."""
        table = self.table_in(interaction.channel_id)
        if table is None:
            await reply(interaction, "There's no table in this channel.")
            return
        async with table.lock:
            await self._guarded(interaction, self._command_action(interaction, table, action))

    async def _command_action(self, interaction: discord.Interaction[Any], table: Table, action: str) -> None:
        if table.status != "playing" or table.state is None:
            raise Refusal("There's no game running at this table.")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("You're not playing at this table.")
        await self._apply_from_click(interaction, table, seat, action, table.version, panel=False)

    async def _apply_from_click(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        action: str,
        version: int,
        *,
        panel: bool,
    ) -> None:
        if version != table.version and not self._still_meant(table, version, action):
            latest = table.log[-1] if table.log else "the table changed"
            note = (
                f"Too slow — the table moved on before your click ({_plain(latest)}), so it changed nothing."
            )
            await self._answer_panel(interaction, table, seat, note, edit=panel)
            return
        try:
            await self.act(table, seat, action, interaction.user.id)
        except IllegalAction as error:
            await self._answer_panel(interaction, table, seat, error.reason, edit=panel)
            return
        if table.status == "playing":
            await self._answer_panel(interaction, table, seat, None, edit=panel)
        else:
            await self._answer_panel_over(interaction, edit=panel)

    def _still_meant(self, table: Table, version: int, action: str) -> bool:
        """Whether a click from an older panel may go to the engine anyway: the game says the
        action means the same whatever changed (version_free), and nothing that changes what it
        means (a new round, say: the same card codes come back) happened since (the epoch)."""
        ui = self.uis[table.game.key]
        version_free = getattr(ui, "version_free", None)
        if version_free is None or not version_free(action):
            return False
        return version >= table.epoch_since

    def _track_epoch(self, table: Table) -> None:
        epoch = getattr(self.uis[table.game.key], "epoch", None)
        value = epoch(table) if epoch is not None and table.state is not None else None
        if value != table.epoch:
            table.epoch, table.epoch_since = value, table.version

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

    async def _guarded(self, interaction: discord.Interaction[Any], work: Any) -> None:
        """One place that turns refusals and failures into a clear ephemeral answer."""
        try:
            await work
        except Refusal as refusal:
            await reply(interaction, str(refusal))
        except IllegalAction as error:
            await reply(interaction, error.reason)
        except SQLAlchemyError:
            log.exception("database error while handling a click")
            await reply(interaction, "I couldn't save that, so nothing changed. Please try again.")

    # --- leaving, stopping, rematch ----------------------------------------------------------

    async def leave(self, interaction: discord.Interaction[Any]) -> str:
        table = self.table_in(interaction.channel_id)
        if table is None:
            raise Refusal("There's no table in this channel.")
        async with table.lock:
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal("You're not playing at this table.")
            if table.status == "lobby":
                del table.seats[seat]
                table.renumbered()
                if not table.humans():
                    await self._close(table, "cancelled")
                    self.request_render(table)
                    return "You left, and with nobody left the table is cancelled."
                if interaction.user.id == table.host_id:
                    table.host_id = table.humans()[0].user_id or table.host_id
                table.version += 1
                await self.store.save_lobby(table.id, table.version, table.specs())
                await self._edit_lobby(table)
                return "You left the table."
            info = table.seats[seat]
            self.panels.pop((table.id, seat), None)
            info.computer_level = REPLACEMENT_LEVEL
            info.left_at = utcnow()
            info.prefers_dm = False
            if not table.humans():
                await self._close(table, "cancelled")
                await self._post(
                    table,
                    discord.Embed(
                        title="Table closed", description="Everyone left, so the game was stopped."
                    ),
                )
                return "You left. Nobody is left at the table, so the game was stopped."
            table.version += 1
            table.add_log(
                [f"**{info.name}** left; a {REPLACEMENT_LEVEL} computer player takes over their seat."]
            )
            await self.store.update_seats(table.id, table.version, table.specs())
            self._after_change(table, [])
            return "You left the game. A computer player has taken your seat."

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

    async def stop(self, interaction: discord.Interaction[Any]) -> str:
        table = self.table_in(interaction.channel_id)
        if table is None:
            raise Refusal("There's no table in this channel.")
        async with table.lock:
            self._require_host(interaction, table, "stop the table")
            await self._close(table, "cancelled")
            if table.table_message_id is not None:
                message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(
                    table.table_message_id
                )
                try:
                    await message.edit(
                        embed=discord.Embed(
                            title=f"{table.game.title} — stopped",
                            description=f"Stopped by {_name(interaction.user)}. No results were recorded.",
                        ),
                        view=None,
                    )
                except discord.HTTPException as error:
                    log.warning("could not edit stopped table %s: %s", table.id, error)
        return "The table is stopped."

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

    # --- restart ---------------------------------------------------------------------------

    async def resume(self) -> int:
        """Reload every live table: state, timers and computer players. Returns how many."""
        rows = await self.store.live_tables()
        now = self.scheduler.now()
        for row in rows:
            try:
                table = Table.from_row(row)
            except Exception:
                log.exception("could not resume table %s; leaving it in the database", row.id)
                continue
            self._track(table)
            if table.status != "playing":
                continue
            self._track_epoch(table)  # panels from before the restart stay strict
            if table.deadline_at is not None and table.deadline_at < now:
                # The timer ran out while we were away; give people a moment to see the table first.
                table.deadline_at = now + timedelta(seconds=RESUME_GRACE_SECONDS)
            self._schedule_deadline(table)
            self.plan_computers(table)
        return len(rows)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)


async def reply(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already answered."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:
        log.info("could not answer interaction: %s", error)


def _name(user: discord.abc.User) -> str:
    return user.display_name[:100]


def _plain(line: str) -> str:
    return line.replace("**", "")


def _is_manager(user: discord.abc.User) -> bool:
    perms = getattr(user, "guild_permissions", None)
    return bool(perms and (perms.manage_guild or perms.manage_channels))
