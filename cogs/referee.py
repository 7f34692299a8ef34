"""The referee: owns every live table and is the only code that changes one.

Every change — a lobby join, a seat swap, the start, an action, a timer, a computer's move, a
leave, a stop — takes the same path, under the table's lock:

1. make a draft of the table and change the draft (a refusal or an illegal action stops here);
2. commit the draft with a version check (``Store.write``): a failed commit changes nothing, and a
   conflict (someone else wrote first) reloads the table from the database;
3. adopt the draft into the live table;
4. arm its timer and computer players, refresh open panels, redraw the table message;
5. only then talk to Discord. A refused Discord call never undoes or freezes a committed change:
   the table message is redrawn through the bot token, re-posted if deleted, and a table whose
   channel is gone is abandoned after a grace period (``TableMessages``, ``cogs/failures.py``).

The parts are collaborators with their own state, called after a commit: ``Lobby`` (seat changes
on a draft, the lobby drawing), ``TableMessages`` (the public message and its edit budget),
``Panels`` (open private panels). Game-specific drawing is a GameUI per game; nothing here knows a
game's rules.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord
from sqlalchemy.exc import SQLAlchemyError

from cogs.common import Refusal, display_name, is_manager, plain, reply
from cogs.components import TableButton, view_of
from cogs.drawing import GameUI, TableDrawing
from cogs.failures import NEEDED, NEEDED_FOR_FILES, Failure, classify, missing
from cogs.lobby import SPEEDS, Clicker, Lobby, require_host
from cogs.panels import Panels
from cogs.pings import Announcer
from cogs.rendering import TableMessages
from cogs.scheduler import Scheduler
from cogs.table import SeatInfo, Table
from cogs.thinking import Thinker, thinks_long
from db.models import LIVE_STATUSES, utcnow
from db.store import ChannelBusy, Conflict, SeatResult, Store
from rules import get_game
from rules.base import ComputerPlayer, Event, IllegalAction

log = logging.getLogger(__name__)

# How soon a timer whose deadline passed while the bot was down fires after a restart.
RESUME_GRACE_SECONDS = 2.0
REPLACEMENT_LEVEL = "casual"
# A table whose channel is gone (or refuses the bot) this long is closed as abandoned, unrated.
UNREACHABLE_GRACE = timedelta(minutes=5)
# A server membership seen this recently is trusted for a DM click without asking Discord again.
MEMBER_CHECK_TTL = timedelta(minutes=5)
RESTARTING = "The referee is restarting. Try again in a moment; nothing changed."
MOVED = "Someone changed this table at the same moment, so nothing changed. Here it is now; try again."
NOT_SAVED = "I couldn't save that, so nothing changed. Please try again."


async def _nobody_to_tell(_table_id: int) -> None:
    """One process: no other owner to tell about a change."""


class TableMoved(Exception):
    """A change lost a race with another writer: the table was reloaded and nothing was applied."""


@dataclass(frozen=True)
class BrokenTable:
    """A live table in the database that could not be loaded (its stored state no longer reads).
    It still holds its channel, so a server manager can clear it with `/table stop`."""

    id: int
    version: int
    guild_id: int
    reason: str


# A longer history than a message holds (2,000 characters) is sent as a file.
HISTORY_MESSAGE_LIMIT = 1900


class Referee:
    def __init__(self, bot: discord.Client, store: Store, scheduler: Scheduler) -> None:
        self.bot = bot
        self.store = store
        self.scheduler = scheduler
        self.uis: dict[str, GameUI] = {}
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.broken: dict[int, BrokenTable] = {}  # by channel id
        self.lobby = Lobby(self.uis)
        self.drawing = TableDrawing(self.uis, self.lobby)
        self.messages = TableMessages(
            bot,
            store,
            scheduler,
            lookup=self.tables.get,
            draw=self.drawing.ready,
            unreachable=self._on_unreachable,
            reached=self._on_reached,
        )
        self.panels = Panels(scheduler, lookup=self.table_or_closed, draw=self.drawing.panel)
        self.announcer = Announcer(self.messages, scheduler)
        self._computers: dict[tuple[str, str, str], ComputerPlayer] = {}
        # Slow computers think in worker processes (cogs/thinking.py); per (table, seat), the
        # version their current thought or booked move is for, and the thought under way.
        self.thinker = Thinker()
        self._thought_for: dict[tuple[int, int], int] = {}
        self._thinking: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._members: dict[tuple[int, int], datetime] = {}
        self._public_uses: dict[tuple[int, int, str], datetime] = {}
        # Set on SIGTERM/SIGINT: new clicks are told to try again; in-flight ones finish.
        self.draining = False
        # Which guilds' tables this process plays (its shards), and how it tells another process
        # that it changed one of that process's tables; the bot sets both (db/ownership.py).
        self.owns: Callable[[int], bool] = lambda _guild_id: True
        self.announce_change: Callable[[int], Awaitable[None]] = _nobody_to_tell
        # Hooks for measurements and tests: called after every accepted change.
        self.on_change: list[Callable[[Table, list[Event]], None]] = []
        self.computer_speed = 1.0
        # Each table's shuffle seed; tests pin it to get a known deal.
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(2**53)

    def register(self, ui: GameUI) -> None:
        self.uis[ui.key] = ui

    # --- lookups ---------------------------------------------------------------------------

    @property
    def finished(self) -> dict[int, Table]:
        """Tables that ended recently (their last drawing, their Rematch button)."""
        return self.messages.closed

    def table_in(self, channel_id: int | None) -> Table | None:
        tid = self.by_channel.get(channel_id or 0)
        return self.tables.get(tid) if tid is not None else None

    def table_or_closed(self, table_id: int) -> Table | None:
        return self.tables.get(table_id) or self.messages.closed.get(table_id)

    def _track(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def _forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        self.scheduler.cancel_prefix(f"t{table.id}:")

    # --- the one mutation path -------------------------------------------------------------

    def _draft(self, table: Table) -> Table:
        assert table.lock.locked(), "a change needs the table lock"
        draft = table.draft()
        draft.version = table.version + 1
        return draft

    async def _save(self, table: Table, draft: Table, **write: Any) -> None:
        """Commit ``draft`` with a version check, then adopt it. On any failure the live table
        is exactly as it was; on a conflict it is reloaded from the database (TableMoved)."""
        values: dict[str, Any] = {
            "status": draft.status,
            "host_id": draft.host_id,
            "state": draft.state.to_json() if draft.state is not None else None,
            "log": draft.log,
            "deadline_at": draft.deadline_at,
            "deadline_action": draft.deadline_action,
        }
        if draft.status not in LIVE_STATUSES:
            values |= {"deadline_at": None, "deadline_action": None, "finished_at": utcnow()}
        try:
            await self.store.write(table.id, version=draft.version, values=values, **write)
        except Conflict:
            log.warning(
                "table %s changed elsewhere (not at version %s); reloading it", table.id, table.version
            )
            await self._reload(table)
            raise TableMoved from None
        table.adopt(draft)

    async def _reload(self, table: Table) -> None:
        """Take the table as the database has it now (someone else wrote it)."""
        row = await self.store.get_table(table.id)
        if row is None or row.status not in LIVE_STATUSES:
            if row is not None:
                table.status = row.status
            self._closed(table)
            return
        try:
            fresh = Table.from_row(row)
        except Exception as error:
            log.exception("table %s no longer loads", table.id)
            self._forget(table)
            self.broken[table.channel_id] = BrokenTable(table.id, row.version, table.guild_id, repr(error))
            return
        table.adopt(fresh)
        table.planned.clear()
        self._after_change(table, [])

    def _closed(self, table: Table) -> None:
        """The table ended without results (cancelled, stopped, abandoned): stop everything it
        had running and draw it as ended."""
        self._forget(table)
        for seat in range(len(table.seats)):
            self.panels.forget(table.id, seat)
        if table.foreign:
            return  # its owner draws it
        self.messages.keep_closed(table)
        self.messages.request(table)
        self.messages.spawn(self._update_thread_line(table))

    # --- playing ---------------------------------------------------------------------------

    async def act(self, table: Table, seat: int | None, action: str, actor_id: int | None) -> list[Event]:
        """Apply one action and commit it; the caller holds ``table.lock``.

        Raises IllegalAction or a database error (nothing changed), or TableMoved (nothing
        changed; the table was reloaded).
        """
        draft = self._draft(table)
        assert draft.state is not None
        events = draft.state.apply(seat, action)
        if events:
            draft.logged_at = draft.version
        deal = next((i for i, e in enumerate(events) if e.kind == "deal"), None)
        if deal is None:
            draft.add_log([self._line(draft, e) for e in events])
        else:
            draft.add_log([self._line(draft, e) for e in events[deal:]], fresh=True)
        draft.deadline_at, draft.deadline_action = self._deadline(draft)
        results = None
        if draft.state.is_over():
            result = draft.state.result()
            assert result is not None
            results = [SeatResult(p.seat, p.place, p.points) for p in result.placements]
            draft.status = "finished"
        await self._save(
            table,
            draft,
            action=(seat, action, actor_id),
            seats=draft.specs() if results is not None else None,
            results=results,
            guild_id=table.guild_id,
            game=table.game.key,
            signals=self._signal_rows(draft) if results is not None else (),
        )
        if actor_id is not None:
            table.active_at[actor_id] = self.scheduler.now()
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
        """Everything a committed change sets going; no Discord call is awaited here."""
        ui = self.uis[table.game.key]
        self._track_epoch(table)
        for hook in self.on_change:
            hook(table, events)
        if table.foreign:
            return  # its owner times, plays and draws it, once told (announce_change)
        for event in events:
            if event.kind == "round_over":
                embed = ui.round_embed(table, event)
                if embed is not None:
                    self.messages.spawn(self.messages.post(table, embed))
        announce = getattr(ui, "announcements", None)
        if announce is not None and table.status == "playing":
            pinged: set[int] = set()
            for text in announce(table, events):
                mentioned, ping = self.announcer.to_ping(table, text, pinged)
                pinged.update(ping)
                self.messages.spawn(self.announcer.announce(table, text, ping, mentioned))
        if table.status == "finished":
            self._forget(table)
            self.announcer.forget(table.id)
            self.messages.spawn(self._update_thread_line(table))
            self.messages.keep_closed(table)
            self.panels.refresh(table)
            if render:
                self.messages.request(table)
            self.messages.spawn(self._finish(table))
            return
        if table.status == "playing":
            self._schedule_deadline(table)
            self.plan_computers(table)
            self.panels.refresh(table)
        if render:
            self.messages.request(table)

    async def _finish(self, table: Table) -> None:
        ui = self.uis[table.game.key]
        rematch = TableButton(
            table.id, "rematch", label="Rematch", emoji="🔁", style=discord.ButtonStyle.success
        )
        await self.messages.post(table, ui.final_embed(table), [rematch])

    def _schedule_deadline(self, table: Table) -> None:
        key = f"t{table.id}:deadline"
        if table.deadline_at is None or table.deadline_action is None:
            self.scheduler.cancel(key)
            return
        self.scheduler.at(key, table.deadline_at, partial(self._on_deadline, table.id, table.version))

    async def _on_deadline(self, table_id: int, version: int) -> None:
        """A timer ran out. A database failure raises, and the scheduler tries again with
        backoff: the same version check makes a retry apply the timer once."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.version != version or table.status != "playing" or table.deadline_action is None:
                return  # something happened since; that change booked its own timer
            if table.unreachable_since is not None:
                return  # held while nobody can see the table; re-armed when it is reached again
            try:
                await self.act(table, None, table.deadline_action, None)
            except IllegalAction as error:
                log.warning("timer action %s refused at table %s: %s", table.deadline_action, table.id, error)
            except TableMoved:
                return

    # --- computer players ------------------------------------------------------------------

    def _computer_settings(self, game_key: str, persona: str) -> dict[str, Any]:
        settings: dict[str, Any] = {"speed": self.computer_speed}
        if getattr(get_game(game_key), "computer_persona", False):
            settings["persona"] = persona
        return settings

    def computer(self, game_key: str, level: str, persona: str = "") -> ComputerPlayer:
        """Computer players are stateless deciders, shared per (game, level[, persona]).

        Games whose computers have a taste (``computer_persona = True`` on the Game) get one
        per seat name, so the same computer keeps the same taste from game to game."""
        settings = self._computer_settings(game_key, persona)
        key = (game_key, level, settings.get("persona", ""))
        if key not in self._computers:
            self._computers[key] = get_game(game_key).computer_player(level, **settings)
        return self._computers[key]

    def plan_computers(self, table: Table) -> None:
        """Each computer seat looks at its own view and decides what to reach for, and when.

        A quick player decides here, on the loop. A player that ``thinks_long`` (a search) only
        starts a thought in a worker process here (``_think``); nothing here waits for it."""
        if table.status != "playing" or table.state is None:
            return
        for seat in table.seats:
            key = f"t{table.id}:cpu{seat.seat}"
            if not seat.is_computer:
                self._stop_thinking(table.id, seat.seat)
                table.planned.pop(seat.seat, None)
                self.scheduler.cancel(key)
                continue
            legal = table.state.legal_actions(seat.seat)
            choice = None
            level = seat.computer_level or REPLACEMENT_LEVEL
            player = self.computer(table.game.key, level, seat.name)
            if legal and thinks_long(player):
                self._think(table, seat.seat, level, seat.name, legal)
                continue
            self._stop_thinking(table.id, seat.seat)
            rng = random.Random(self._seed(table, seat.seat))
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

    @staticmethod
    def _seed(table: Table, seat: int) -> str:
        # One generator per (table, version, seat): the same state always gets the same decision,
        # on the loop or in a worker, before or after a restart.
        return f"{table.seed}:{table.version}:{seat}"

    def _think(self, table: Table, seat: int, level: str, persona: str, legal: list[str]) -> None:
        """Start a slow computer's thought about the table as it is now, unless one about this
        very version is already under way or has already booked its move."""
        slot = (table.id, seat)
        key = f"t{table.id}:cpu{seat}"
        if self.thinker.closed:
            return  # shutting down: no new thoughts
        if self._thought_for.get(slot) == table.version and (
            slot in self._thinking or self.scheduler.when(key) is not None
        ):
            return
        # The table moved on: whatever was thought or booked for an older version is dropped.
        self._stop_thinking(table.id, seat)
        table.planned.pop(seat, None)
        self.scheduler.cancel(key)
        assert table.state is not None
        self._thought_for[slot] = table.version
        thought = self._thought(
            table.id,
            seat,
            table.version,
            table.game.key,
            level,
            self._computer_settings(table.game.key, persona),
            table.state.view(seat),
            legal,
            self._seed(table, seat),
        )
        task = asyncio.get_running_loop().create_task(thought, name=f"think:{key}")
        self._thinking[slot] = task
        task.add_done_callback(partial(self._thought_done, slot))

    def _thought_done(self, slot: tuple[int, int], task: asyncio.Task[None]) -> None:
        if self._thinking.get(slot) is task:
            del self._thinking[slot]
        if not task.cancelled() and task.exception() is not None:
            log.error("a computer's thought failed at table %s", slot[0], exc_info=task.exception())

    def _stop_thinking(self, table_id: int, seat: int) -> None:
        slot = (table_id, seat)
        self._thought_for.pop(slot, None)
        task = self._thinking.pop(slot, None)
        if task is not None:
            task.cancel()

    async def _thought(
        self,
        table_id: int,
        seat: int,
        version: int,
        game_key: str,
        level: str,
        settings: dict[str, Any],
        view: Any,
        legal: list[str],
        seed: str,
    ) -> None:
        """Think in a worker, then book the move through the scheduler like any computer's —
        but only if the table is still at ``version``, the one the thought was about. Any change
        in between (a timer's move, a seat taken over, a reload) has already started a new
        thought for the new version and cancelled this one; the check catches a result that
        arrives in the same instant."""
        choice, delay = await self.thinker.decide(game_key, level, settings, view, legal, seed)
        table = self.tables.get(table_id)
        if table is None:
            self._thought_for.pop((table_id, seat), None)
            return  # the table ended meanwhile
        if table.version != version or self._thought_for.get((table_id, seat)) != version:
            return  # stale: thought about a table that has moved on
        if choice is None:
            return
        table.planned[seat] = choice
        self.scheduler.after(
            f"t{table_id}:cpu{seat}", delay, partial(self._on_computer, table_id, seat, choice, version)
        )

    def stop_thinking(self) -> None:
        """Drop every thought under way and stop the worker processes (shutting down)."""
        for task in self._thinking.values():
            task.cancel()
        self._thinking.clear()
        self._thought_for.clear()
        self.thinker.shutdown()

    async def _on_computer(self, table_id: int, seat: int, action: str, version: int | None = None) -> None:
        """A computer's move. A database failure raises, and the scheduler tries the same move
        again with backoff (it is checked for legality again then).

        A quick computer's move is played if it is still legal (it re-plans on every change, so a
        move still booked is still its choice). A slow computer's move carries the ``version`` it
        was thought out for and is played only at exactly that version; otherwise it re-plans."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if version is not None and version != table.version:
                # Thought out for a table that has moved on. The change that moved it started a
                # new thought, which this leaves alone (plan_computers keeps a current one).
                self.plan_computers(table)
                return
            table.planned.pop(seat, None)
            if table.status != "playing" or table.state is None or not table.seats[seat].is_computer:
                return
            if table.unreachable_since is not None:
                return  # held while nobody can see the table; re-planned when it is reached again
            if action not in table.state.legal_actions(seat):
                self.plan_computers(table)
                return
            try:
                await self.act(table, seat, action, None)
            except IllegalAction as error:
                log.warning("computer action %s at table %s refused: %s", action, table.id, error)
                self.plan_computers(table)
            except TableMoved:
                return

    # --- the channel going away ------------------------------------------------------------

    def _on_unreachable(self, table: Table, failure: Failure) -> None:
        if table.unreachable_since is not None or not table.live:
            return
        log.warning("table %s: its channel refuses the bot (%s); holding the game", table.id, failure.value)
        table.unreachable_since = self.scheduler.now()
        self.scheduler.after(
            f"t{table.id}:unreachable",
            UNREACHABLE_GRACE.total_seconds(),
            partial(self._check_reachable, table.id),
        )

    def _on_reached(self, table: Table) -> None:
        """The channel works again: the game picks up where it was held."""
        log.info("table %s: its channel works again", table.id)
        table.unreachable_since = None
        self.scheduler.cancel(f"t{table.id}:unreachable")
        if table.status == "playing":
            self._schedule_deadline(table)
            self.plan_computers(table)

    async def _check_reachable(self, table_id: int) -> None:
        table = self.tables.get(table_id)
        if table is None or table.unreachable_since is None:
            return
        await self.messages.redraw_now(table)
        if table.unreachable_since is None:
            return
        async with table.lock:
            if not table.live:
                return
            draft = self._draft(table)
            draft.status = "abandoned"
            draft.closed_note = (
                "This table's channel was deleted or the bot lost access to it, so the game was "
                "abandoned. No results were recorded."
            )
            await self._save(table, draft)  # a failure raises: the scheduler tries again
            log.warning("table %s abandoned: its channel stayed unreachable", table.id)
            self._closed(table)

    # --- Discord entry points --------------------------------------------------------------

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str, arg: str | None
    ) -> None:
        if self.draining:
            await reply(interaction, RESTARTING)
            return
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
        if interaction.channel_id != table.channel_id and not self._on_thread_line(interaction, table, verb):
            raise Refusal("That button belongs to a table in another channel.")
        if table.status == "lobby":
            await self._lobby_click(interaction, table, verb, arg)
            return
        if table.status != "playing" or table.state is None:
            raise Refusal("This game is over.")
        seat = table.seat_of(interaction.user.id)
        if verb == "history":
            await self._send_history(interaction, table)
            return
        if verb == "hand":
            if seat is None:
                raise Refusal("You're not playing at this table, so you have no hand here.")
            await self.panels.answer(interaction, table, seat, None, edit=False)
        elif verb == "dm":
            if seat is None:
                raise Refusal("You're not playing at this table, so you have no hand here.")
            if await self.panels.send_dm(interaction, table, seat):
                table.seats[seat].prefers_dm = True
        elif verb == "act" and arg:
            # Public buttons any player may press (Next round, a gesture, a bid): they act on the
            # current state, because the table message is redrawn at most once a second.
            if seat is None:
                raise Refusal("Only the players at this table can do that.")
            await self._apply_public(interaction, table, seat, arg)
        else:
            raise Refusal("That button doesn't do anything any more.")

    async def _send_history(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The public History button (GameUI.history): anyone in the channel may press it; the
        answer is private and changes nothing. A long history comes as a .txt file."""
        history = getattr(self.uis[table.game.key], "history", None)
        if history is None:
            raise Refusal("This game keeps no history to show.")
        text = history(table)
        if len(text) <= HISTORY_MESSAGE_LIMIT:
            await interaction.response.send_message(text, ephemeral=True)
            return
        data = io.BytesIO(plain(text).replace("\\*", "*").encode())
        await interaction.response.send_message(
            f"{table.game.title}: the history so far is long, so here it is as a file.",
            file=discord.File(data, filename=f"{table.game.key}-{table.id}-history.txt"),
            ephemeral=True,
        )

    def _on_thread_line(self, interaction: discord.Interaction[Any], table: Table, verb: str) -> bool:
        """A Join pressed on the line a thread table posts in its parent channel."""
        line = table.settings.get("line")
        return verb == "join" and isinstance(line, list) and interaction.channel_id == line[0]

    async def post_thread_line(self, table: Table, parent: discord.abc.Messageable, parent_id: int) -> None:
        """A table in a thread shows itself in the parent channel, with a Join button there, so
        people who never open the thread can still sit down."""
        text = self.drawing.thread_line(table)
        join = TableButton(table.id, "join", label="Join", style=discord.ButtonStyle.success)
        try:
            message = await parent.send(text, view=view_of([join]))
        except (discord.HTTPException, OSError) as error:
            log.info("could not post table %s's line in the parent channel: %s", table.id, error)
            return
        table.settings["line"] = [parent_id, message.id]
        try:
            await self.store.set_options(table.id, table.settings)
        except SQLAlchemyError:
            log.exception("could not store table %s's parent line", table.id)

    async def _update_thread_line(self, table: Table) -> None:
        line = table.settings.get("line")
        if not isinstance(line, list):
            return
        items: list[discord.ui.Item[Any]] = []
        if table.status == "lobby":
            items = [TableButton(table.id, "join", label="Join", style=discord.ButtonStyle.success)]
        try:
            message = self.bot.get_partial_messageable(line[0]).get_partial_message(line[1])
            await message.edit(
                content=self.drawing.thread_line(table),
                view=view_of(items),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except (discord.HTTPException, OSError) as error:
            log.info("could not update table %s's parent line: %s", table.id, error)

    def _on_table_message(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """Whether the click came from the table's own message. Only then may the answer edit the
        message clicked: a button forged onto another message (last game's results, say) must
        never turn that message into this table."""
        message = interaction.message
        return message is not None and message.id == table.table_message_id and not message.flags.ephemeral

    async def _lobby_click(
        self, interaction: discord.Interaction[Any], table: Table, verb: str, arg: str | None
    ) -> None:
        user = interaction.user
        who = Clicker(user.id, display_name(user), is_manager(user))
        draft = self._draft(table)
        edit = self.lobby.edit(draft, who, verb, arg)
        if edit.start:
            await self._start(interaction, table)
            return
        if edit.cancel:
            draft.status = "cancelled"
        await self._save(table, draft, seats=draft.specs())
        if not table.live:
            self._closed(table)
            await self._answer_table(interaction, table, "The table is cancelled.")
            return
        text = edit.note or "Done."
        if self._on_thread_line(interaction, table, verb):
            text = f"You're seated at the table in <#{table.channel_id}>."
        await self._answer_table(interaction, table, text, note=edit.note)

    async def _answer_table(
        self, interaction: discord.Interaction[Any], table: Table, text: str, *, note: str | None = None
    ) -> None:
        """Answer a click on the table message by redrawing it in place; from anywhere else (or
        if Discord refuses the answer) say ``text`` privately and redraw through the bot token."""
        if self._on_table_message(interaction, table):
            embed, items, files = await self.drawing.ready(table)
            if note and table.status == "lobby":
                embed = self.lobby.embed(table, note)
            try:
                await interaction.response.edit_message(embed=embed, view=view_of(items), attachments=files)
                if table.table_message_id is not None:
                    self.messages.drawn(table, table.table_message_id, (embed, items, files))
                if table.status != "lobby":
                    # The game's first drawing counts against the channel's edits, so the next
                    # redraws pace themselves from it; lobby answers are rare and never race.
                    self.messages.spent(table)
                return
            except (discord.HTTPException, OSError) as error:
                log.info("could not answer a click on table %s: %s", table.id, error)
        else:
            await reply(interaction, text)
        self.messages.request(table)

    async def _start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        draft = self._draft(table)
        n = len(draft.seats)
        state = draft.game.new_game(n, draft.options, draft.seed)
        # The deal and opening flip the engine did on its own at the start are public news.
        events: list[Event] = list(getattr(state, "opening_events", None) or [])
        draft.state = state
        draft.status = "playing"
        draft.log = []
        draft.add_log([f"The game begins with {n} players."] + [self._line(draft, e) for e in events])
        draft.deadline_at, draft.deadline_action = self._deadline(draft)
        await self._save(table, draft, seats=draft.specs())
        # Timers and computers run whatever Discord says next.
        self._after_change(table, events, render=False)
        self.messages.spawn(self._update_thread_line(table))
        await self._answer_table(interaction, table, "The game has started.")

    async def on_action_button(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None:
        if self.draining:
            await reply(interaction, RESTARTING)
            return
        table = self.tables.get(table_id)
        if table is None and interaction.guild_id is None:
            # Discord delivers every DM click to shard 0, whichever process owns the table.
            await self._foreign_click(interaction, table_id, version, action)
            return
        if table is None:
            await reply(interaction, "That table has ended, so this panel no longer does anything.")
            return
        async with table.lock:
            await self._guarded(interaction, self._action_button(interaction, table, version, action))

    async def _foreign_click(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None:
        """A DM panel click for a table another process owns: apply it here through the same
        checks and the same version-checked write (so it counts once, whoever else sees it), then
        tell the owner, which reloads the table and redraws it."""
        try:
            row = await self.store.get_table(table_id)
            if row is None or row.status != "playing" or self.owns(row.guild_id):
                await reply(interaction, "That table has ended, so this panel no longer does anything.")
                return
            table = Table.from_row(row)
        except Exception:
            log.exception("could not load table %s for a DM click", table_id)
            await reply(interaction, NOT_SAVED)
            return
        table.foreign = True
        self._track_epoch(table)
        before = table.version
        async with table.lock:
            await self._guarded(interaction, self._action_button(interaction, table, version, action))
        if table.version != before:
            try:
                await self.announce_change(table.id)
            except Exception:  # the owner also reloads on its next write's conflict
                log.warning("could not tell table %s's owner about a DM click", table.id, exc_info=True)

    def on_table_changed(self, table_id: int) -> None:
        """Another process changed one of our tables (ChangeFeed): reload and redraw it."""
        table = self.tables.get(table_id)
        if table is not None:
            self.messages.spawn(self._catch_up(table))

    async def _catch_up(self, table: Table) -> None:
        async with table.lock:
            row = await self.store.get_table(table.id)
            if row is not None and row.version != table.version:
                await self._reload(table)

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
        if in_dm:
            await self._require_member(table, interaction.user)
        # Answer by editing only the clicker's own panel (their ephemeral reply or their DM). A
        # panel button forged onto a public message must never turn that message into a hand.
        own = in_dm or bool(interaction.message is not None and interaction.message.flags.ephemeral)
        if action == "refresh":
            await self.panels.answer(interaction, table, seat, None, edit=own)
            return
        if action.startswith("nav-"):
            # A panel-only step (a card picked for a pile, a tab) survives other players'
            # actions: the game's panel checks the step against the state it draws now. Only a
            # new epoch (a new round, where the same codes mean new cards) starts it over.
            if version < table.epoch_since:
                note = "The table moved on; here it is now."
                await self.panels.answer(interaction, table, seat, note, edit=own)
            else:
                await self.panels.answer(interaction, table, seat, None, edit=own, nav=action[4:])
            return
        await self._apply_from_click(interaction, table, seat, action, version, panel=own)

    async def _require_member(self, table: Table, user: discord.abc.User) -> None:
        """A DM click carries no server membership: ask Discord (at most every few minutes)
        whether the person is still in the table's server. Only members who hold a seat play."""
        key = (table.guild_id, user.id)
        now = self.scheduler.now()
        seen = self._members.get(key)
        if seen is not None and now - seen < MEMBER_CHECK_TTL:
            return
        guild = self.bot.get_guild(table.guild_id)
        try:
            if guild is not None:
                await guild.fetch_member(user.id)
            else:
                await self.bot.http.get_member(table.guild_id, user.id)
        except (discord.HTTPException, OSError) as error:
            failure = classify(error)
            if failure in (Failure.MEMBER_GONE, Failure.MESSAGE_GONE, Failure.CHANNEL_GONE):
                self._members.pop(key, None)
                raise Refusal(
                    "You're no longer a member of that server, so you can't play at its table."
                ) from None
            log.info("could not check membership for a DM click: %s", error)  # don't block play on a hiccup
            return
        self._members[key] = now

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
        # The table shows what happened. A click on the table message itself is answered by
        # redrawing it: at once, and through the interaction, not the bot's own edit budget (the
        # edit booked by the change then finds it drawn already and sends nothing).
        try:
            if self._on_table_message(interaction, table) and table.table_message_id is not None:
                drawing = await self.drawing.ready(table)
                embed, items, files = drawing
                await interaction.response.edit_message(embed=embed, view=view_of(items), attachments=files)
                self.messages.drawn(table, table.table_message_id, drawing)
            else:
                await interaction.response.defer()  # a silent acknowledgement keeps the channel quiet
        except (discord.HTTPException, OSError) as error:
            log.info("could not acknowledge a public click: %s", error)

    async def command_action(self, interaction: discord.Interaction[Any], action: str) -> None:
        """A keyboard move (e.g. `/trap move c3>c4`): the same checks as a click, on the current state."""
        if self.draining:
            await reply(interaction, RESTARTING)
            return
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
        if version != table.version and not self._still_meant(table, seat, version, action):
            # Quote the news only if it is news since that panel (private choices log nothing).
            news = f" ({plain(table.log[-1])})" if table.log and table.logged_at > version else ""
            note = f"Too slow — the table moved on before your click{news}, so it changed nothing."
            await self.panels.answer(interaction, table, seat, note, edit=panel)
            return
        try:
            await self.act(table, seat, action, interaction.user.id)
        except IllegalAction as error:
            await self.panels.answer(interaction, table, seat, error.reason, edit=panel)
            return
        if table.status == "playing":
            await self.panels.answer(interaction, table, seat, None, edit=panel)
        else:
            await self.panels.answer_over(interaction, edit=panel)

    def _still_meant(self, table: Table, seat: int, version: int, action: str) -> bool:
        """Whether a click from an older panel may go to the engine anyway, as long as nothing
        that changes what it means (a new round, say: the same card codes come back) happened
        since (the epoch): either the game says the action means the same whatever changed
        (version_free), or the seat's panel would be drawn now exactly as it was then (another
        seat's move that this person can't see, or that changes nothing of theirs)."""
        if version < table.epoch_since:
            return False
        version_free = getattr(self.uis[table.game.key], "version_free", None)
        if version_free is not None and version_free(action):
            return True
        return self.panels.still_shown(table, seat, version)

    def _track_epoch(self, table: Table) -> None:
        epoch = getattr(self.uis[table.game.key], "epoch", None)
        value = epoch(table) if epoch is not None and table.state is not None else None
        if value != table.epoch:
            table.epoch, table.epoch_since = value, table.version

    async def _guarded(self, interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
        """One place that turns refusals and failures into a clear ephemeral answer."""
        try:
            await work
        except Refusal as refusal:
            await reply(interaction, str(refusal))
        except IllegalAction as error:
            await reply(interaction, error.reason)
        except TableMoved:
            await reply(interaction, MOVED)
        except SQLAlchemyError:
            log.exception("database error while handling a click")
            await reply(interaction, NOT_SAVED)

    # --- opening, leaving, stopping --------------------------------------------------------

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
    ) -> Table:
        """Create a lobby in ``channel`` and post its message. Refusal if the channel is busy, the
        bot may not post there, or the message could not be posted (then no lobby exists)."""
        game = get_game(game_key)
        if self.draining:
            raise Refusal(RESTARTING)
        if channel_id in self.broken:
            broken = self.broken[channel_id]
            raise Refusal(
                f"This channel holds a table I couldn't load (table {broken.id}). A server manager "
                "can clear it with `/table stop`."
            )
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
        needed = dict(NEEDED)
        if getattr(self.uis.get(game_key), "table_files", None) is not None:
            needed |= NEEDED_FOR_FILES
        if lacking := missing(permissions, needed):
            raise Refusal(
                f"I can't run a table in this channel: I'm missing {', '.join(lacking)}. "
                "Ask a server manager to allow that here, or use another channel."
            )
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
        try:
            message = await channel.send(embed=self.lobby.embed(table), view=view_of(self.lobby.items(table)))
        except (discord.HTTPException, OSError) as error:
            # Nobody saw this lobby: it must not hold the channel.
            await self.store.discard_table(tid)
            failure = classify(error)
            if failure in (Failure.NO_PERMISSION, Failure.CHANNEL_GONE):
                raise Refusal(
                    "I couldn't post the table here: I'm not allowed to send messages with embeds in "
                    "this channel. Ask a server manager to allow Send Messages and Embed Links."
                ) from error
            raise Refusal(
                "Discord didn't take the table's message, so no table was opened. Try again."
            ) from error
        table.table_message_id = message.id
        self._track(table)
        try:
            await self.store.set_table_message(tid, message.id)
        except SQLAlchemyError:
            # The lobby works in this process; after a restart it would be drawn nowhere until a
            # change re-posts it, which the next render does.
            log.exception("could not store the lobby message of table %s", tid)
        return table

    async def leave(self, interaction: discord.Interaction[Any]) -> str:
        """`/table leave`. In a lobby the seat is freed; in a game a computer player takes it."""
        if self.draining:
            raise Refusal(RESTARTING)
        table = self.table_in(interaction.channel_id)
        if table is None:
            raise Refusal("There's no table in this channel.")
        async with table.lock:
            try:
                return await self._leave(interaction, table)
            except TableMoved:
                raise Refusal(MOVED) from None
            except SQLAlchemyError:
                log.exception("database error while leaving table %s", table.id)
                raise Refusal(NOT_SAVED) from None

    async def _leave(self, interaction: discord.Interaction[Any], table: Table) -> str:
        user = interaction.user
        who = Clicker(user.id, display_name(user), is_manager(user))
        draft = self._draft(table)
        if table.status == "lobby":
            self.lobby.leave(draft, who)
            await self._save(table, draft, seats=draft.specs())
            if not table.live:
                self._closed(table)
                return "You left, and with nobody left the table is cancelled."
            self.messages.request(table)
            return "You left the table."
        seat = draft.seat_of(user.id)
        if seat is None:
            raise Refusal("You're not playing at this table.")
        info = draft.seats[seat]
        info.computer_level = REPLACEMENT_LEVEL
        info.left_at = utcnow()
        info.prefers_dm = False
        if not draft.humans():
            draft.status = "cancelled"
            draft.closed_note = "Everyone left, so the game was stopped. No results were recorded."
            await self._save(table, draft, seats=draft.specs())
            self._closed(table)
            return "You left. Nobody is left at the table, so the game was stopped."
        lines = [f"**{info.name}** left; a {REPLACEMENT_LEVEL} computer player takes over their seat."]
        if (heir := draft.pass_host()) is not None:
            lines.append(f"**{heir}** is the host now.")
        draft.add_log(lines)
        await self._save(table, draft, seats=draft.specs())
        self.panels.forget(table.id, seat)
        self._after_change(table, [])
        return "You left the game. A computer player has taken your seat."

    async def stop(self, interaction: discord.Interaction[Any]) -> str:
        """`/table stop`: the host (while seated) or a server manager ends the table unrated. A
        manager can also clear a table that could not be loaded."""
        user = interaction.user
        who = Clicker(user.id, display_name(user), is_manager(user))
        channel_id = interaction.channel_id or 0
        table = self.table_in(channel_id)
        if table is None:
            if channel_id in self.broken:
                return await self._clear_broken(who, channel_id)
            raise Refusal("There's no table in this channel.")
        async with table.lock:
            require_host(table, who, "stop the table")
            draft = self._draft(table)
            draft.status = "cancelled"
            draft.closed_note = f"Stopped by {who.name}. No results were recorded."
            try:
                await self._save(table, draft)
            except TableMoved:
                raise Refusal(MOVED) from None
            except SQLAlchemyError:
                log.exception("database error while stopping table %s", table.id)
                raise Refusal(NOT_SAVED) from None
            self._closed(table)
        return "The table is stopped."

    async def _clear_broken(self, who: Clicker, channel_id: int) -> str:
        broken = self.broken[channel_id]
        if not who.manager:
            raise Refusal(
                f"This channel holds a table I couldn't load (table {broken.id}). "
                "Only a server manager can clear it."
            )
        try:
            await self.store.end_table(broken.id, "failed", broken.version + 1)
        except Conflict:
            pass  # it was ended or changed elsewhere; either way it no longer blocks us here
        except SQLAlchemyError:
            log.exception("database error while clearing table %s", broken.id)
            raise Refusal(NOT_SAVED) from None
        log.warning("table %s cleared by %s; it could not be loaded: %s", broken.id, who.name, broken.reason)
        del self.broken[channel_id]
        return f"Cleared table {broken.id}, which could not be loaded. The channel is free again."

    async def _rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        old = self.messages.closed.get(table_id)
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
            permissions=interaction.app_permissions,
        )
        await reply(
            interaction,
            "Rematch lobby is open — same seats. You're the host: press Start when ready.",
        )

    # --- restart and shutdown --------------------------------------------------------------

    async def resume(self) -> int:
        """Reload every live table: state, timers and computer players. Returns how many."""
        rows = [row for row in await self.store.live_tables() if self.owns(row.guild_id)]
        now = self.scheduler.now()
        for row in rows:
            try:
                table = Table.from_row(row)
            except Exception as error:
                log.exception(
                    "could not resume table %s; a server manager can clear it with /table stop", row.id
                )
                self.broken[row.channel_id] = BrokenTable(row.id, row.version, row.guild_id, repr(error))
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

    async def shutdown(self, timeout: float = 8.0) -> None:
        """Stop taking clicks, let in-flight changes commit, draw every pending edit. Within
        ``timeout`` seconds whatever happens: a host stopping the service will not wait longer."""
        self.draining = True
        self.scheduler.pause()

        async def settle() -> None:
            running = self.scheduler.running()
            if running:
                await asyncio.wait(running)
            for table in list(self.tables.values()):
                async with table.lock:
                    pass  # a change under way holds the lock until it has committed
            await self.messages.flush()

        try:
            await asyncio.wait_for(settle(), timeout)
        except TimeoutError:
            log.warning("shutdown: gave up waiting after %.0f s", timeout)
        self.scheduler.stop()
        self.stop_thinking()
