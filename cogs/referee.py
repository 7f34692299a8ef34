"""The referee: owns every live table and is the only code that changes one.

Data flows one way: a click or command → the table's lock → the engine applies the action → the
action and the new snapshot are committed in one transaction → only then is the player answered
→ the public table message is re-rendered (coalesced), timers and computer players re-planned.
Game-specific drawing is delegated to a GameUI per game; nothing here knows a game's rules.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol

import discord
from sqlalchemy.exc import SQLAlchemyError

from cogs.common import Refusal, display_name, plain, reply
from cogs.components import TableButton
from cogs.lobby import LobbyMixin
from cogs.panels import OpenPanel, PanelMixin
from cogs.rendering import EditBudget, RenderMixin
from cogs.scheduler import Scheduler
from cogs.table import Table
from db.models import utcnow
from db.store import SeatResult, Store
from rules import get_game
from rules.base import ComputerPlayer, Event, IllegalAction

log = logging.getLogger(__name__)

# How soon a timer whose deadline passed while the bot was down fires after a restart.
RESUME_GRACE_SECONDS = 2.0
REPLACEMENT_LEVEL = "casual"
SPEEDS = ("off", "relaxed", "fast")
# issue 14, the History button: a longer history is sent as a file.
HISTORY_MESSAGE_LIMIT = 1900


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


class Referee(LobbyMixin, RenderMixin, PanelMixin):
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
            log_before, logged_before = list(table.log), table.logged_at
            if events:
                table.logged_at = version
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
            table.log, table.logged_at = log_before, logged_before
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
        # --- issue 14: the public History button (GameUI.history) --------------------------------
        # Anyone in the channel may press it; the answer is private and changes nothing. A long
        # history comes as a .txt, since a message holds at most 2,000 characters.
        if verb == "history":
            history = getattr(self.uis[table.game.key], "history", None)
            if history is None:
                raise Refusal("This game keeps no history to show.")
            text = history(table)
            if len(text) <= HISTORY_MESSAGE_LIMIT:
                await interaction.response.send_message(text, ephemeral=True)
            else:
                data = io.BytesIO(plain(text).replace("\\*", "*").encode())
                await interaction.response.send_message(
                    f"{table.game.title}: the history so far is long, so here it is as a file.",
                    file=discord.File(data, filename=f"{table.game.key}-{table.id}-history.txt"),
                    ephemeral=True,
                )
            return
        # --- end of the History branch -----------------------------------------------------------
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
        # Answer by editing only the clicker's own panel (their ephemeral reply or their DM). A
        # panel button forged onto a public message must never turn that message into a hand.
        own = in_dm or bool(interaction.message is not None and interaction.message.flags.ephemeral)
        if action == "refresh":
            await self._answer_panel(interaction, table, seat, None, edit=own)
            return
        if action.startswith("nav-"):
            if version != table.version:
                note = "The table moved on; here it is now."
                await self._answer_panel(interaction, table, seat, note, edit=own)
            else:
                await self._answer_panel(interaction, table, seat, None, edit=own, nav=action[4:])
            return
        await self._apply_from_click(interaction, table, seat, action, version, panel=own)

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
            # Quote the news only if it is news since that panel (private choices log nothing).
            news = f" ({plain(table.log[-1])})" if table.log and table.logged_at > version else ""
            note = f"Too slow — the table moved on before your click{news}, so it changed nothing."
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

    # --- leaving, stopping -----------------------------------------------------------------

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
                            description=(
                                f"Stopped by {display_name(interaction.user)}. No results were recorded."
                            ),
                        ),
                        view=None,
                    )
                except discord.HTTPException as error:
                    log.warning("could not edit stopped table %s: %s", table.id, error)
        return "The table is stopped."

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
