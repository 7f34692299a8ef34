"""The spine: the one mutation path every change of a table takes.

Every change — a lobby join, a seat swap, the start, an action, a timer, a computer's move, a
leave, a stop — takes the same path, under the table's lock:

1. make a draft of the table and change the draft (a refusal or an illegal action stops here);
2. commit the draft with a version check (``Store.write``): a failed commit changes nothing, and a
   conflict (someone else wrote first) reloads the table from the database;
3. adopt the draft into the live table;
4. arm its timer and computer players, refresh open panels, redraw the table message;
5. only then talk to Discord. A refused Discord call never undoes or freezes a committed change:
   the table message is redrawn through the bot token, re-posted if deleted, and a table whose
   channel is gone is abandoned after a grace period (``TableMessages``, ``failures.py``).

The spine owns the live tables and the collaborators a change sets going, each with its own
state: ``Lobby`` (seat changes on a draft), ``TableDrawing`` (every drawing), ``TableMessages``
(the public message and its edit budget), ``Panels`` (open private panels), ``Announcer``
(pings), ``ThreadLines`` and ``ComputerSeats``. Who may ask for a change is decided before it
gets here (``entry.py``, ``lifecycle.py``). Game-specific drawing is a GameUI per game; nothing
here knows a game's rules.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord

from cogs.table import journal
from cogs.table.buttons import TableButton
from cogs.table.computers import ComputerSeats
from cogs.table.drawing import GameUI, TableDrawing
from cogs.table.failures import Failure
from cogs.table.languages import Languages
from cogs.table.lobby import Lobby
from cogs.table.messages import TableMessages
from cogs.table.model import Table, TableMoved
from cogs.table.notes import note
from cogs.table.panels import Panels
from cogs.table.pings import Announcer
from cogs.table.results import add_ratings, watch_again
from cogs.table.scheduler import Scheduler
from cogs.table.thread_line import ThreadLines
from cogs.texts import Texts, speaking
from db import snapshots
from db.languages import LanguageChoices
from db.models import LIVE_STATUSES, utcnow
from db.models import Game as GameRow
from db.store import Conflict, SeatResult, Store
from rules.base import Event, IllegalAction

log = logging.getLogger(__name__)
T = Texts(__name__)

# A table whose channel is gone (or refuses the bot) this long is closed as abandoned, unrated.
UNREACHABLE_GRACE = timedelta(minutes=5)


async def _nobody_to_tell(_table_id: int) -> None:
    """One process: no other owner to tell about a change."""


@dataclass(frozen=True)
class BrokenTable:
    """A live table in the database that could not be loaded (its stored state no longer reads).
    It still holds its channel, so a server manager can clear it with `/table stop`."""

    id: int
    version: int
    guild_id: int
    reason: str
    kept: int = 0  # the actions it had recorded, still in the database

    def notice(self) -> str:
        """What a person is told wherever they reach it: a click on its messages, `/table
        status`, a move typed, `/… new` in its channel."""
        kept = T.ngettext(
            "its seats and the {n} move it recorded are kept",
            "its seats and the {n} moves it recorded are kept",
            self.kept,
        )
        return T.gettext(
            "Table {table} in this channel couldn't be loaded after a restart, so it can't go on "
            "({kept}). A server manager can end it with `/table stop`; then a new table can start here.",
            table=self.id,
            kept=kept,
        )


class Spine:
    def __init__(self, bot: discord.Client, store: Store, scheduler: Scheduler) -> None:
        self.bot = bot
        self.store = store
        self.scheduler = scheduler
        self.uis: dict[str, GameUI] = {}
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self.broken: dict[int, BrokenTable] = {}  # by channel id
        self.lobby = Lobby(self.uis)
        # Each reader's language (cogs/table/languages.py); a referee that only draws (tests'
        # renderers) has no database and knows no one's choice.
        database = getattr(store, "db", None)
        self.languages = Languages(LanguageChoices(database) if database is not None else None)
        self.drawing = TableDrawing(self.uis, self.lobby, self.languages)
        self.messages = TableMessages(
            bot,
            store,
            scheduler,
            lookup=self.tables.get,
            draw=self.drawing.ready,
            prepare=self.drawing.prepare_table,
            unreachable=self._on_unreachable,
            reached=self._on_reached,
        )
        self.panels = Panels(
            scheduler,
            lookup=self.table_or_closed,
            draw=self.drawing.panel,
            prepare=self.drawing.prepare_panel,
            language=self.drawing.seat_language,
        )
        self.announcer = Announcer(self.messages, scheduler, self.drawing.waiting_on)
        self.thread_lines = ThreadLines(bot, store, self.drawing, self.messages.effects, self.table_or_closed)
        self.computers = ComputerSeats(scheduler, lookup=self.tables.get, act=self.act)
        # Set on SIGTERM/SIGINT: new clicks are told to try again; in-flight ones finish.
        self.draining = False
        # Which guilds' tables this process plays (its shards), and how it tells another process
        # that it changed one of that process's tables; the bot sets both (db/ownership.py).
        self.owns: Callable[[int], bool] = lambda _guild_id: True
        self.announce_change: Callable[[int], Awaitable[None]] = _nobody_to_tell
        # Hooks for measurements and tests: called after every accepted change.
        self.on_change: list[Callable[[Table, list[Event]], None]] = []

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

    def broken_table(self, table_id: int) -> BrokenTable | None:
        """The table of this id that could not be loaded, if it is one."""
        return next((b for b in self.broken.values() if b.id == table_id), None)

    async def mark_broken(
        self, table_id: int, channel_id: int, version: int, guild_id: int, error: BaseException
    ) -> None:
        """Hold a table that does not load: its channel stays taken until a server manager
        clears it, and everyone who reaches it is told why (``BrokenTable.notice``)."""
        try:
            kept = len(await self.store.actions(table_id))
        except Exception:  # only the notice's count is lost
            log.warning("could not count the actions of table %s", table_id, exc_info=True)
            kept = 0
        self.broken[channel_id] = BrokenTable(table_id, version, guild_id, repr(error), kept)

    def table_or_closed(self, table_id: int) -> Table | None:
        return self.tables.get(table_id) or self.messages.closed.get(table_id)

    def track(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def forget(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        self.scheduler.cancel_prefix(f"t{table.id}:")

    # --- the one mutation path -------------------------------------------------------------

    def draft(self, table: Table) -> Table:
        assert table.lock.locked(), "a change needs the table lock"
        draft = table.draft()
        draft.version = table.version + 1
        return draft

    async def save(self, table: Table, draft: Table, **write: Any) -> None:
        """Commit ``draft`` with a version check, then adopt it. On any failure the live table
        is exactly as it was; on a conflict it is reloaded from the database (TableMoved)."""
        values: dict[str, Any] = {
            "status": draft.status,
            "host_id": draft.host_id,
            "deadline_at": draft.deadline_at,
            "deadline_action": draft.deadline_action,
        }
        if _snapshot_due(table, draft, write.get("action") is not None):
            values["state"] = draft.state.to_json() if draft.state is not None else None
            values["state_version"] = draft.version
            values["log"] = draft.log  # the Latest lines as of the snapshot; actions add theirs
            draft.snapshot_at = draft.version
        if draft.status not in LIVE_STATUSES:
            values |= {"deadline_at": None, "deadline_action": None, "finished_at": utcnow()}
        try:
            forgotten = await self.store.write(table.id, version=draft.version, values=values, **write)
        except Conflict:
            log.warning(
                "table %s changed elsewhere (not at version %s); reloading it", table.id, table.version
            )
            await self.reload(table)
            raise TableMoved from None
        was = table.status
        table.adopt(draft)
        if table.status != was:
            journal.status_changed(self.bot, table, was)
        # People who asked to be forgotten while this game went on were, as it ended.
        for user_id in forgotten or ():  # (a stand-in store may answer None)
            table.forget_person(user_id)
            self.person_forgotten(table.guild_id, user_id)

    def person_forgotten(self, guild_id: int, user_id: int) -> None:
        """`/stats forget` (or the end of the person's last game) took them off the database:
        the ended tables kept in memory here (History, Rematch, their last drawing) follow."""
        for ended in list(self.messages.closed.values()):
            if ended.guild_id == guild_id:
                ended.forget_person(user_id)  # messages already posted stay as they are
        self.languages.forgotten(user_id)  # their stored language went with the rest

    async def reload(self, table: Table) -> None:
        """Take the table as the database has it now (someone else wrote it).

        The action log is the table: the actions this process has not seen are replayed, in
        order, through the engine, and their events go through the same after-change path as
        our own, so History, move records, pings, round posts, results and Rematch come out
        exactly as if the actions had been taken here. Only when the log can't be replayed (a
        change with no action row, such as a seat taken over, or a state that doesn't match) does
        the table jump to the stored snapshot; that is logged, and the table is redrawn."""
        row = await self.store.get_table(table.id)
        if row is not None and row.version > table.version:
            caught_up = await self._replay(table, row)
            if caught_up is not None:
                fresh, events = caught_up
                table.adopt(fresh)
                table.planned.clear()
                self.after_change(table, events)
                return
            log.warning(
                "table %s: the changes made elsewhere (version %s to %s) can't be replayed; "
                "taking the stored state",
                table.id,
                table.version,
                row.version,
            )
        if row is None or row.status not in LIVE_STATUSES:
            if row is not None:
                table.status = row.status
            self.closed(table)
            return
        try:
            fresh = Table.from_row(row)
        except Exception as error:
            log.exception("table %s no longer loads", table.id)
            self.forget(table)
            await self.mark_broken(table.id, table.channel_id, row.version, table.guild_id, error)
            return
        table.adopt(fresh)
        table.planned.clear()
        self.after_change(table, [])

    async def _replay(self, table: Table, row: GameRow) -> tuple[Table, list[Event]] | None:
        """The table as the database has it, with the events of the actions since our version
        (replayed on a draft), or None if they can't be replayed to exactly that state."""
        if table.state is None or row.state is None or table.status != "playing":
            return None
        actions = await self.store.actions(table.id, after=table.version)
        if [a.seq for a in actions] != list(range(table.version + 1, row.version + 1)):
            return None  # a version with no action (seats, a lobby edit): only the snapshot has it
        try:
            fresh = Table.from_row(row)
        except Exception:
            return None
        draft = table.draft()
        events: list[Event] = []
        actors: list[int] = []
        for action in actions:
            draft.version = action.seq
            try:
                events += self._advance(draft, action.seat, action.action)[0]
            except IllegalAction:
                return None
            if action.actor_id is not None:
                actors.append(action.actor_id)
        assert draft.state is not None and fresh.state is not None
        if draft.state.to_json() != fresh.state.to_json():
            return None
        fresh.logged_at = draft.logged_at
        for actor in actors:  # they are playing right now: no ping for them (cogs/table/pings.py)
            table.active_at[actor] = self.scheduler.now()
        return fresh, events

    def on_table_changed(self, table_id: int) -> None:
        """Another process changed one of our tables (ChangeFeed): reload and redraw it."""
        table = self.tables.get(table_id)
        if table is not None:
            self.messages.spawn(self._catch_up(table))

    async def _catch_up(self, table: Table) -> None:
        async with table.lock:
            row = await self.store.get_table(table.id)
            if row is not None and row.version != table.version:
                await self.reload(table)

    def closed(self, table: Table) -> None:
        """The table ended without results (cancelled, stopped, abandoned): stop everything it
        had running and draw it as ended."""
        self.forget(table)
        for seat in range(len(table.seats)):
            self.panels.forget(table.id, seat)
        if table.foreign:
            return  # its owner draws it
        self.messages.keep_closed(table)
        self.messages.request(table)
        self.thread_lines.request(table)

    async def act(self, table: Table, seat: int | None, action: str, actor_id: int | None) -> list[Event]:
        """Apply one action and commit it; the caller holds ``table.lock``.

        Raises IllegalAction or a database error (nothing changed), or TableMoved (nothing
        changed; the table was reloaded).
        """
        draft = self.draft(table)
        events, results = self._advance(draft, seat, action)
        if seat is not None and actor_id is not None and draft.status == "playing":
            # The click is answered with this seat's panel once the commit lands: its new pictures
            # are drawn (in a worker process) while the database commits, not after.
            self.drawing.foresee_panel(draft, seat)
        await self.save(
            table,
            draft,
            action=(seat, action, actor_id),
            action_log=draft.log_added,
            seats=draft.specs() if results is not None else None,
            results=results,
            guild_id=table.guild_id,
            game=table.game.key,
            signals=self._signal_rows(draft) if results is not None else (),
        )
        if actor_id is not None:
            table.active_at[actor_id] = self.scheduler.now()
            if seat is not None:
                table.timeouts.pop(seat, None)  # they act: no longer away (cogs/table/pings.py)
        self.after_change(table, events)
        return events

    def _advance(
        self, draft: Table, seat: int | None, action: str
    ) -> tuple[list[Event], list[SeatResult] | None]:
        """One action on a draft: the engine, the public log, the next timer, the results."""
        assert draft.state is not None
        events = draft.state.apply(seat, action)
        draft.log_events(events)
        if any(event.kind == "deal" for event in events):
            # The round's cards were made anew for this table: shared with every other table's,
            # so a live table stays as compact as a resumed one (issue 35). Once a round.
            draft.share_strings()
        draft.deadline_at, draft.deadline_action = self.deadline(draft)
        results = None
        if draft.state.is_over():
            result = draft.state.result()
            assert result is not None
            results = [SeatResult(p.seat, p.place, p.points) for p in result.placements]
            draft.status = "finished"
        return events, results

    def _signal_rows(self, table: Table) -> list[dict[str, Any]]:
        """A game with secret signals says which were chosen (GameUI.signal_rows), stored with
        the final action so the record of the game keeps them."""
        rows = getattr(self.uis[table.game.key], "signal_rows", None)
        return list(rows(table)) if rows is not None else []

    def line(self, table: Table, event: Event) -> str:
        return self.uis[table.game.key].event_line(table, event)

    def refusal(self, table: Table, error: IllegalAction) -> str:
        """The sentence a player reads for a move the rules refuse, in their language: the game's
        cog words the engine's code and parameters (GameUI.refusal)."""
        return self.uis[table.game.key].refusal(table, error)

    def deadline(self, table: Table) -> tuple[datetime | None, str | None]:
        assert table.state is not None
        for quiet in table.state.quiet_actions():
            seconds = table.timer_seconds(quiet.timer)
            if seconds is not None:
                return self.scheduler.now() + timedelta(seconds=seconds), quiet.action
        return None, None

    # --- after a commit: what the change sets going (no Discord call is awaited here) -------

    def after_change(self, table: Table, events: list[Event], *, render: bool = True) -> None:
        ui = self.uis[table.game.key]
        self.track_epoch(table)
        for hook in self.on_change:
            hook(table, events)
        # What a game's UI keeps per seat between drawings (Zap or Trap's card picked for a swap)
        # follows the events here, once per change: event_line words an event whenever a Latest
        # line is drawn, so it must not change anything.
        applied = getattr(ui, "events_applied", None)
        if applied is not None:
            applied(table, events)
        if table.foreign:
            return  # its owner times, plays and draws it, once told (announce_change)
        # The channel reads these in the table's language, whoever's click (or timer) made them.
        with speaking(table.language):
            for event in events:
                if event.kind == "round_over":
                    embed = ui.round_embed(table, event)
                    if embed is not None:
                        self.messages.spawn(self.messages.post(table, embed))
            timed = self.announcer.count_timeouts(table, events)
            announce = getattr(ui, "announcements", None)
            if announce is not None and table.status == "playing":
                pinged: set[int] = set()
                for announcement in announce(table, events):
                    people, ping = self.announcer.to_ping(table, announcement, pinged, timed)
                    pinged.update(ping)
                    self.messages.spawn(self.announcer.announce(table, announcement, people, ping))
        if table.status == "finished":
            self.forget(table)
            self.announcer.forget(table.id)
            self.thread_lines.request(table)
            self.messages.keep_closed(table)
            self.panels.refresh(table)
            if render:
                self.messages.request(table)
            self.messages.spawn(self._finish(table))
            return
        if table.status == "playing":
            self.schedule_deadline(table)
            self.computers.plan(table)
            self.panels.refresh(table)
        if render:
            self.messages.request(table)

    async def _finish(self, table: Table) -> None:
        with speaking(table.language):  # the results: the channel reads them
            await self._post_results(table)

    async def _post_results(self, table: Table) -> None:
        ui = self.uis[table.game.key]
        rematch = TableButton(
            table.id,
            "rematch",
            label=T.pgettext("button", "Rematch"),
            emoji="🔁",
            style=discord.ButtonStyle.success,
        )
        embed = ui.final_embed(table)
        await add_ratings(self.store, table, embed)  # "alice 1523 (+18)" for each person
        await self.messages.post(table, embed, [rematch, watch_again(table)])

    def track_epoch(self, table: Table) -> None:
        epoch = getattr(self.uis[table.game.key], "epoch", None)
        value = epoch(table) if epoch is not None and table.state is not None else None
        if value != table.epoch:
            table.epoch, table.epoch_since = value, table.version

    # --- timers ----------------------------------------------------------------------------

    def schedule_deadline(self, table: Table) -> None:
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
            self.schedule_deadline(table)
            self.computers.plan(table)

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
            draft = self.draft(table)
            draft.status = "abandoned"
            draft.closed_note = note("abandoned")
            await self.save(table, draft)  # a failure raises: the scheduler tries again
            log.warning("table %s abandoned: its channel stayed unreachable", table.id)
            self.closed(table)


def _snapshot_due(table: Table, draft: Table, is_action: bool) -> bool:
    """Whether this change writes the full state (db/snapshots.py). An action alone is rebuilt
    from its row on reading; the state is written every SNAPSHOT_EVERY actions, when a new round
    (or, in a game without rounds, a new phase) begins, when the table's status changes (the
    start, the end), and with every change that is not an action (seats, a lobby edit), which
    the log alone can't rebuild."""
    if not is_action or draft.status != table.status or draft.state is None or table.state is None:
        return True
    if draft.version - table.snapshot_at >= snapshots.SNAPSHOT_EVERY:
        return True
    return bool(_stage(draft.state) != _stage(table.state))


def _stage(state: Any) -> Any:
    # The round where the engine counts rounds, else its phase (Trap: setup, play, over). Not the
    # phase of a game with rounds: Spy Trap's turns pass pile -> bid -> draw every ~5 actions and
    # Zap Trap's rounds signals -> play -> between every ~6 (self-play, rules/selfplay.py), so a
    # snapshot at each phase cost those games about 0.3 KiB of WAL per action (bench --only wal).
    round_ = getattr(state, "round", None)
    return round_ if round_ is not None else getattr(state, "phase", None)
