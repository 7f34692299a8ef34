"""A table's life outside play: opening it, leaving, stopping, and the process's own start and end.

``open_table`` checks everything a new lobby needs before anything exists (the channel is free and
reachable, the options are valid) and posts the lobby; ``leave`` and ``stop`` are the `/table`
commands; ``resume`` reloads every live table this process owns after a restart, and ``shutdown``
drains in-flight changes before the process exits. Each change goes through the spine.
``open_table_command`` is what every game's `/… new` calls.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from sqlalchemy.exc import SQLAlchemyError

from cogs.table import journal, latest
from cogs.table.common import (
    MOVED,
    NOBODY,
    NOT_SAVED,
    RESTARTING,
    Refusal,
    display_name,
    is_manager,
    plain_name,
    reply,
)
from cogs.table.computers import replacement_level
from cogs.table.failures import NEEDED, NEEDED_FOR_FILES, NEEDED_FOR_THREADS, Failure, classify, missing
from cogs.table.lobby import SPEEDS, Clicker, require_host
from cogs.table.model import SeatInfo, Table, TableMoved
from cogs.table.notes import note
from cogs.table.options import option_refusal, speed_name
from cogs.table.spine import Spine
from cogs.texts import LANGUAGES, SOURCE, Texts, speaking
from db.models import LIVE_STATUSES, utcnow
from db.store import ChannelBusy, Conflict
from rules import get_game
from rules.base import OptionError

log = logging.getLogger(__name__)
T = Texts(__name__)

# The `language` option of every `/… new`: each language by its own name ("Español"), which its
# speakers find in any list, so the names are not translated (plain strings, not locale_str).
LANGUAGE_CHOICES = [app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]
LANGUAGE_OPTION = locale_str("The language the table speaks (default: the server's)")

# How soon a timer whose deadline passed while the bot was down fires after a restart.
RESUME_GRACE_SECONDS = 2.0
# Resumed tables are redrawn at this pace (each channel's edit budget applies as well).
RESUME_REDRAWS_PER_SECOND = 10.0


class Lifecycle:
    def __init__(self, spine: Spine) -> None:
        self.spine = spine
        # Each table's shuffle seed; tests pin it to get a known deal.
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(2**53)

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
        """Create a lobby in ``channel`` and post its message. Refusal if the channel is busy, the
        bot may not post there, or the message could not be posted (then no lobby exists).
        ``language``: what the channel will read at this table (cogs/table/languages.py)."""
        game = get_game(game_key)
        if self.spine.draining:
            raise Refusal(T.gettext(RESTARTING))
        if channel_id in self.spine.broken:
            raise Refusal(self.spine.broken[channel_id].notice())
        if self.spine.table_in(channel_id) is not None:
            raise Refusal(
                T.gettext(
                    "This channel already has a table. Finish or stop it first, or start one in a thread."
                )
            )
        if not game.min_players <= seats <= game.max_players:
            raise Refusal(
                T.ngettext(
                    "{game} seats {least}–{n} player.",
                    "{game} seats {least}–{n} players.",
                    game.max_players,
                    game=game.title,
                    least=game.min_players,
                )
            )
        if speed not in SPEEDS:
            speeds = ", ".join(speed_name(s) for s in SPEEDS)
            raise Refusal(T.gettext("Speed must be one of: {speeds}.", speeds=speeds))
        try:
            game.parse_options(rules)
        except OptionError as error:
            raise Refusal(option_refusal(game.title, error)) from error
        needed = dict(NEEDED)
        ui = self.spine.uis.get(game_key)
        hooks = ("table_pictures", "table_sketches", "table_downloads")
        if any(getattr(ui, hook, None) is not None for hook in hooks):
            needed |= NEEDED_FOR_FILES  # the table message carries files (a board, the cards)
        if lacking := missing(permissions, needed):
            raise Refusal(
                T.gettext(
                    "I can't run a table in this channel: I'm missing {permissions}. "
                    "Ask a server manager to allow that here, or use another channel.",
                    permissions=", ".join(lacking),
                )
            )
        seat_list = preseated or [SeatInfo(0, host.id, display_name(host))]
        seed = self.new_seed()
        settings: dict[str, Any] = {"seats": seats, "rules": rules}
        if timers:
            settings["timers"] = {name: float(seconds) for name, seconds in timers.items()}
        try:
            tid = await self.spine.store.create_table(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_key,
                host_id=host.id,
                options=settings,
                speed=speed,
                seed=seed,
                seats=[s.spec() for s in seat_list],
                language=language,
            )
        except ChannelBusy as error:
            raise Refusal(T.gettext("This channel already has a table. Finish or stop it first.")) from error
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
            language=language,
        )
        try:
            lobby = self.spine.drawing.draw(table)
            message = await channel.send(view=lobby.layout.view, allowed_mentions=NOBODY)
        except (discord.HTTPException, OSError) as error:
            # Nobody saw this lobby: it must not hold the channel.
            await self.spine.store.discard_table(tid)
            failure = classify(error)
            if failure in (Failure.NO_PERMISSION, Failure.CHANNEL_GONE):
                raise Refusal(
                    T.gettext(
                        "I couldn't post the table here: I'm not allowed to send messages with embeds in "
                        "this channel. Ask a server manager to allow Send Messages and Embed Links."
                    )
                ) from error
            raise Refusal(
                T.gettext("Discord didn't take the table's message, so no table was opened. Try again.")
            ) from error
        table.table_message_id = message.id
        self.spine.track(table)
        try:
            await self.spine.store.set_table_message(tid, message.id)
        except SQLAlchemyError:
            # The lobby works in this process; after a restart it would be drawn nowhere until a
            # change re-posts it, which the next render does.
            log.exception("could not store the lobby message of table %s", tid)
        journal.opened(self.spine.bot, table, display_name(host))
        return table

    async def leave(self, interaction: discord.Interaction[Any]) -> str:
        """`/table leave`. In a lobby the seat is freed; in a game a computer player takes it."""
        if self.spine.draining:
            raise Refusal(T.gettext(RESTARTING))
        table = self.spine.table_in(interaction.channel_id)
        if table is None:
            if (broken := self.spine.broken.get(interaction.channel_id or 0)) is not None:
                raise Refusal(broken.notice())
            raise Refusal(T.gettext("There's no table in this channel."))
        async with table.lock:
            try:
                return await self._leave(interaction, table)
            except TableMoved:
                raise Refusal(T.gettext(MOVED)) from None
            except SQLAlchemyError:
                log.exception("database error while leaving table %s", table.id)
                raise Refusal(T.gettext(NOT_SAVED)) from None

    async def _leave(self, interaction: discord.Interaction[Any], table: Table) -> str:
        user = interaction.user
        who = Clicker(user.id, display_name(user), is_manager(user))
        draft = self.spine.draft(table)
        if table.status == "lobby":
            self.spine.lobby.leave(draft, who)
            await self.spine.save(table, draft, seats=draft.specs())
            if not table.live:
                self.spine.closed(table)
                return T.gettext("You left, and with nobody left the table is cancelled.")
            self.spine.messages.request(table)
            return T.gettext("You left the table.")
        seat = draft.seat_of(user.id)
        if seat is None:
            raise Refusal(T.gettext("You're not playing at this table."))
        info = draft.seats[seat]
        level = replacement_level(table.game.key)
        info.computer_level = level
        info.left_at = utcnow()
        info.prefers_dm = False
        if not draft.humans():
            draft.status = "cancelled"
            draft.closed_note = note("game_emptied")
            await self.spine.save(table, draft, seats=draft.specs())
            self.spine.closed(table)
            return T.gettext("You left. Nobody is left at the table, so the game was stopped.")
        entries = [latest.left(seat, level)]
        if (heir := draft.pass_host()) is not None:
            entries.append(latest.new_host(heir.seat))
        draft.add_log(entries)
        await self.spine.save(table, draft, seats=draft.specs())
        self.spine.panels.forget(table.id, seat)
        self.spine.after_change(table, [])
        return T.gettext("You left the game. A computer player has taken your seat.")

    async def stop(self, interaction: discord.Interaction[Any]) -> str:
        """`/table stop`: the host (while seated) or a server manager ends the table unrated. A
        manager can also clear a table that could not be loaded."""
        if self.spine.draining:
            raise Refusal(T.gettext(RESTARTING))
        user = interaction.user
        who = Clicker(user.id, display_name(user), is_manager(user))
        channel_id = interaction.channel_id or 0
        table = self.spine.table_in(channel_id)
        if table is None:
            if channel_id in self.spine.broken:
                return await self._clear_broken(who, channel_id)
            raise Refusal(T.gettext("There's no table in this channel."))
        async with table.lock:
            require_host(table, who, T.gettext("stop the table"))
            draft = self.spine.draft(table)
            draft.status = "cancelled"
            draft.closed_note = note("stopped_by", name=who.name)
            try:
                await self.spine.save(table, draft)
            except TableMoved:
                raise Refusal(T.gettext(MOVED)) from None
            except SQLAlchemyError:
                log.exception("database error while stopping table %s", table.id)
                raise Refusal(T.gettext(NOT_SAVED)) from None
            self.spine.closed(table)
        return T.gettext("The table is stopped.")

    async def _clear_broken(self, who: Clicker, channel_id: int) -> str:
        broken = self.spine.broken[channel_id]
        if not who.manager:
            raise Refusal(
                T.gettext(
                    "This channel holds a table I couldn't load (table {table}). "
                    "Only a server manager can clear it.",
                    table=broken.id,
                )
            )
        try:
            await self.spine.store.end_table(broken.id, "failed", broken.version + 1)
        except Conflict:
            pass  # it was ended or changed elsewhere; either way it no longer blocks us here
        except SQLAlchemyError:
            log.exception("database error while clearing table %s", broken.id)
            raise Refusal(T.gettext(NOT_SAVED)) from None
        log.warning("table %s cleared by %s; it could not be loaded: %s", broken.id, who.name, broken.reason)
        del self.spine.broken[channel_id]
        return T.gettext(
            "Cleared table {table}, which could not be loaded. The channel is free again.", table=broken.id
        )

    async def resume(self) -> int:
        """Reload every live table: state, timers and computer players. Returns how many."""
        # Loading a thousand tables allocates hundreds of thousands of objects that all live on,
        # so the collector's passes over them find nothing; with several bots' leftovers in the
        # heap they were a third of resume() (bench --only resume). The collector runs again as
        # soon as the tables are in, whatever happened.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return await self._resume()
        finally:
            if collecting:
                gc.enable()

    async def _resume(self) -> int:
        rows = [row for row in await self.spine.store.live_tables() if self.spine.owns(row.guild_id)]
        now = self.spine.scheduler.now()
        redrawn = 0
        for row in rows:
            try:
                table = Table.from_row(row)
            except Exception as error:
                log.exception(
                    "could not resume table %s; a server manager can clear it with /table stop", row.id
                )
                await self.spine.mark_broken(row.id, row.channel_id, row.version, row.guild_id, error)
                continue
            self.spine.track(table)
            # What the message shows is not known after a restart (a redraw may have been lost
            # with the process: a Start whose answer Discord refused, say), so every resumed table
            # is drawn once more, paced so a thousand tables don't hit Discord in one burst.
            self.spine.messages.redraw_later(table, redrawn / RESUME_REDRAWS_PER_SECOND)
            redrawn += 1
            if table.status != "playing":
                continue
            self.spine.track_epoch(table)  # panels from before the restart stay strict
            if table.deadline_at is not None and table.deadline_at < now:
                # The timer ran out while we were away; give people a moment to see the table first.
                table.deadline_at = now + timedelta(seconds=RESUME_GRACE_SECONDS)
            self.spine.schedule_deadline(table)
            self.spine.computers.plan(table)
        return len(rows)

    async def shutdown(self, timeout: float = 8.0) -> None:
        """Stop taking clicks, let in-flight changes commit, draw every pending edit. Within
        ``timeout`` seconds whatever happens: a host stopping the service will not wait longer."""
        self.spine.draining = True
        self.spine.scheduler.pause()

        async def settle() -> None:
            running = self.spine.scheduler.running()
            if running:
                await asyncio.wait(running)
            for table in list(self.spine.tables.values()):
                async with table.lock:
                    pass  # a change under way holds the lock until it has committed
            await self.spine.messages.flush()
            await self.snapshot_behind()

        try:
            await asyncio.wait_for(settle(), timeout)
        except TimeoutError:
            log.warning("shutdown: gave up waiting after %.0f s", timeout)
        self.spine.scheduler.stop()
        self.spine.computers.stop()
        self.spine.drawing.shutdown()  # after the flush above: pending edits had their pictures

    async def snapshot_behind(self) -> None:
        """Write the full state of every live table whose snapshot is older than the table, so a
        clean restart loads each one as it stands and replays nothing (a crash still replays the
        actions after the last snapshot). Called once no change can start any more. If the write
        fails nobody is told, as nothing changed: the next start replays those actions instead."""
        behind = [
            (t, t.state.to_json())
            for t in self.spine.tables.values()
            if t.status in LIVE_STATUSES and t.state is not None and t.snapshot_at < t.version
        ]
        if not behind:
            return
        try:
            await self.spine.store.save_snapshots(
                [(t.id, t.version, state, list(t.log)) for t, state in behind]
            )
        except SQLAlchemyError:
            log.warning(
                "shutdown: the snapshots of %d tables were not written; the next start replays"
                " their latest actions",
                len(behind),
                exc_info=True,
            )
            return
        for table, _ in behind:
            table.snapshot_at = table.version


async def open_table_command(
    interaction: discord.Interaction[Any],
    game_key: str,
    *,
    seats: int,
    speed: str,
    rules: dict[str, Any],
    thread: bool,
    timers: dict[str, float] | None = None,
    language: str | None = None,
) -> None:
    """Shared by every game's `/… new`: open a lobby here or in a fresh thread. ``language``: the
    option given (the table's language; else the server's, cogs/table/languages.py)."""
    referee = interaction.client.referee  # the bot holds it (bot.py)
    spoken = referee.languages.new_table(interaction, language)
    channel = interaction.channel
    if referee.draining:
        await reply(interaction, T.gettext(RESTARTING))  # before the thread: nothing may be made now
        return
    if interaction.guild_id is None or channel is None:
        await reply(interaction, T.gettext("Tables can only be opened in a server channel."))
        return
    title = get_game(game_key).title
    try:
        if thread:
            if not isinstance(channel, discord.TextChannel):
                raise Refusal(
                    T.gettext("Threads can only be made from a text channel; try again without `thread`.")
                )
            if lacking := missing(interaction.app_permissions, NEEDED_FOR_THREADS):
                raise Refusal(
                    T.gettext(
                        "I can't open a thread here: I'm missing {permissions}. Ask a server "
                        "manager to allow that, or try again without `thread`.",
                        permissions=", ".join(lacking),
                    )
                )
            with speaking(spoken):  # everyone in the channel reads the thread's name
                name = T.gettext(
                    "{game} — {name}", game=title, name=plain_name(interaction.user.display_name)
                )
            try:
                place: Any = await channel.create_thread(
                    name=name[:100], type=discord.ChannelType.public_thread
                )
            except discord.HTTPException as error:
                if classify(error) in (Failure.NO_PERMISSION, Failure.CHANNEL_GONE):
                    raise Refusal(
                        T.gettext(
                            "Discord didn't let me create a thread here (Create Public Threads and Send "
                            "Messages in Threads are needed). Try again without `thread`."
                        )
                    ) from error
                raise Refusal(
                    T.gettext("Discord didn't create the thread, so no table was opened.")
                ) from error
        else:
            place = channel
        table = await referee.open_table(
            game_key=game_key,
            guild_id=interaction.guild_id,
            channel=place,
            channel_id=place.id,
            host=interaction.user,
            seats=seats,
            speed=speed,
            rules=rules,
            timers=timers,
            permissions=interaction.app_permissions,
            language=spoken,
        )
    except Refusal as refusal:
        await reply(interaction, str(refusal))
        return
    if thread and isinstance(channel, discord.abc.Messageable):
        await referee.post_thread_line(table, channel, channel.id)
    if thread:
        opened = T.gettext(
            "Your {game} table is open in {place} (table {table}). Press **Start** when everyone is seated.",
            game=title,
            place=place.mention,
            table=table.id,
        )
    else:
        opened = T.gettext(
            "Your {game} table is open (table {table}). Press **Start** when everyone is seated.",
            game=title,
            table=table.id,
        )
    await interaction.response.send_message(
        opened,
        ephemeral=True,
        allowed_mentions=NOBODY,
    )
