"""Entry points: every click and keyboard move reaches a table through here.

Routing (which table, which seat), the checks that come before any change (is this person seated
here, is the click from this table's channel or their own DM panel, are they still a member of
the table's server who can see its channel, is the referee restarting), and the answer the
person gets. The change itself goes through the spine (``spine.py``); refusals and failures
become one clear private answer (``_guarded``), and nothing a refusal touches is changed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Sequence
from datetime import datetime
from typing import Any

import discord
from sqlalchemy.exc import SQLAlchemyError

from cogs.table.buttons import payload
from cogs.table.common import (
    MOVED,
    NOBODY,
    NOT_SAVED,
    RESTARTING,
    TOO_LARGE,
    Refusal,
    as_text,
    display_name,
    escape,
    is_manager,
    plain,
    reply,
)
from cogs.table.layout import LayoutTooLarge
from cogs.table.lifecycle import Lifecycle
from cogs.table.lobby import Clicker
from cogs.table.membership import Membership
from cogs.table.model import SeatInfo, Table, TableMoved
from cogs.table.notes import Note, worded
from cogs.table.rendered import Upload
from cogs.table.spine import Spine
from cogs.table.thread_line import on_thread_line
from cogs.texts import Texts, speaking
from rules.base import Event, IllegalAction

log = logging.getLogger(__name__)
T = Texts(__name__)

# A longer history than a message holds (2,000 characters) is sent as a file.
HISTORY_MESSAGE_LIMIT = 1900


class Entry:
    def __init__(self, spine: Spine, lifecycle: Lifecycle) -> None:
        self.spine = spine
        self.lifecycle = lifecycle
        # Whether the person behind a DM click is still in the table's server (membership.py).
        self.members = Membership(spine)
        # When each (table, seat, public button) was last used, for rate-limited public buttons.
        self._public_uses: dict[tuple[int, int, str], datetime] = {}

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str, arg: str | None
    ) -> None:
        if self.spine.draining:
            await reply(interaction, T.gettext(RESTARTING))
            return
        if verb == "rematch":
            await self._guarded(interaction, self._rematch(interaction, table_id))
            return
        table = self.spine.tables.get(table_id)
        if table is None and verb == "history":
            await self._guarded(interaction, self._finished_history(interaction, table_id))
            return
        if table is None:
            broken = self.spine.broken_table(table_id)
            await reply(
                interaction,
                broken.notice()
                if broken is not None
                else T.gettext("That table has ended, so its buttons no longer do anything."),
            )
            return
        if verb == "dm" and table.status != "lobby":
            await self._guarded(interaction, self._hand_by_dm(interaction, table), table)
            return
        async with table.lock:
            await self._guarded(interaction, self._table_button(interaction, table, verb, arg), table)

    async def _hand_by_dm(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """ "Hand by DM": checked under the table's lock, then answered (deferred) at once; the DM
        is opened and sent outside the lock (``Panels.send_dm``), as those routes have rate
        limits of their own that neither this click nor the table's others may wait on."""
        async with table.lock:
            if interaction.channel_id != table.channel_id and not on_thread_line(interaction, table, "dm"):
                raise Refusal(T.gettext("That button belongs to a table in another channel."))
            if table.status != "playing" or table.state is None:
                raise Refusal(T.gettext("This game is over."))
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise Refusal(T.gettext("You're not playing at this table, so you have no hand here."))
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except (discord.HTTPException, OSError) as error:
            log.info("could not defer Hand by DM: %s", error)
        if await self.spine.panels.send_dm(interaction, table, seat):
            async with table.lock:
                if seat < len(table.seats) and table.seat_of(interaction.user.id) == seat:
                    table.seats[seat].prefers_dm = True

    async def _table_button(
        self, interaction: discord.Interaction[Any], table: Table, verb: str, arg: str | None
    ) -> None:
        if interaction.channel_id != table.channel_id and not on_thread_line(interaction, table, verb):
            raise Refusal(T.gettext("That button belongs to a table in another channel."))
        if table.status == "lobby":
            await self._lobby_click(interaction, table, verb, arg)
            return
        if table.status != "playing" or table.state is None:
            raise Refusal(T.gettext("This game is over."))
        seat = table.seat_of(interaction.user.id)
        if verb == "history":
            await self._send_history(interaction, table)
            return
        if verb == "hand":
            if seat is None:
                raise Refusal(T.gettext("You're not playing at this table, so you have no hand here."))
            await self.spine.panels.answer(interaction, table, seat, None, edit=False)
        elif verb == "act" and arg:
            # Public buttons any player may press (Next round, a gesture, a bid): they act on the
            # current state, because the table message is redrawn at most once a second.
            if seat is None:
                raise Refusal(T.gettext("Only the players at this table can do that."))
            await self._apply_public(interaction, table, seat, arg)
        else:
            raise Refusal(T.gettext("That button doesn't do anything any more."))

    async def _finished_history(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """History on a finished table's message (GameUI.final_items): the game as it ended,
        kept in memory for a while, else read from the database (after a restart, say)."""
        table = self.spine.finished.get(table_id)
        if table is None:
            try:
                row = await self.spine.store.get_table(table_id)
                table = Table.from_row(row) if row is not None and row.status == "finished" else None
            except Exception:  # a read that fails changes nothing: say so, let them press again
                log.warning("could not load finished table %s for its history", table_id, exc_info=True)
                raise Refusal(
                    T.gettext("I couldn't read that game's history just now. Please press again.")
                ) from None
        if table is None or table.status != "finished" or table.state is None:
            raise Refusal(T.gettext("That table has ended, so its buttons no longer do anything."))
        if interaction.channel_id != table.channel_id:
            raise Refusal(T.gettext("That button belongs to a table in another channel."))
        await self._send_history(interaction, table)

    async def _send_history(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """The public History button (GameUI.history): anyone in the channel may press it; the
        answer is private and changes nothing. A long history comes as a .txt file. If Discord
        refuses the answer, nothing changed and the person can press again."""
        history = getattr(self.spine.uis[table.game.key], "history", None)
        if history is None:
            raise Refusal(T.gettext("This game keeps no history to show."))
        text = history(table)
        try:
            if len(text) <= HISTORY_MESSAGE_LIMIT:
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NOBODY)
                return
            data = as_text(text).encode()  # a file is plain text: names as chosen
            if table.status == "finished":
                long = T.gettext(
                    "{game}: the history of the whole game is long, so here it is as a file.",
                    game=table.game.title,
                )
            else:
                long = T.gettext(
                    "{game}: the history so far is long, so here it is as a file.", game=table.game.title
                )
            await interaction.response.send_message(
                long,
                file=Upload(data, f"{table.game.key}-{table.id}-history.txt"),
                ephemeral=True,
                allowed_mentions=NOBODY,
            )
        except (discord.HTTPException, OSError) as error:
            log.info("could not show table %s's history: %s", table.id, error)

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
        draft = self.spine.draft(table)
        edit = self.spine.lobby.edit(draft, who, verb, arg)
        if edit.start:
            await self._start(interaction, table)
            return
        if edit.cancel:
            draft.status = "cancelled"
        await self.spine.save(table, draft, seats=draft.specs())
        if not table.live:
            self.spine.closed(table)
            await self._answer_table(interaction, table, T.gettext("The table is cancelled."))
            return
        # The notes are worded for the clicker here, and again for the lobby's footer when drawn.
        text = escape(worded(edit.note)) if edit.note else T.gettext("Done.")  # plain text (the footer's)
        if on_thread_line(interaction, table, verb):
            place = f"<#{table.channel_id}>"
            text = T.gettext("You're seated at the table in {place}.", place=place)
        await self._answer_table(interaction, table, text, note=edit.note)

    async def _answer_table(
        self, interaction: discord.Interaction[Any], table: Table, text: str, *, note: Sequence[Note] = ()
    ) -> None:
        """Answer a click on the table message by redrawing it in place; from anywhere else (or
        if Discord refuses the answer) say ``text`` privately and redraw through the bot token."""
        if self._on_table_message(interaction, table):
            drawing = await self.spine.drawing.ready(table, for_click=True)
            if note and table.status == "lobby":
                with speaking(table.language):  # the lobby's footer: the channel reads it
                    drawing.embed = self.spine.lobby.embed(table, note)
            try:
                assert interaction.message is not None  # checked by _on_table_message
                await self.spine.messages.answer_click(interaction, table, interaction.message.id, drawing)
                if table.status != "lobby":
                    # The game's first drawing counts against the channel's edits, so the next
                    # redraws pace themselves from it; lobby answers are rare and never race.
                    self.spine.messages.spent(table)
                return
            except (discord.HTTPException, OSError) as error:
                log.info("could not answer a click on table %s: %s", table.id, error)
        else:
            await reply(interaction, text)
        self.spine.messages.request(table)

    async def _start(self, interaction: discord.Interaction[Any], table: Table) -> None:
        draft = self.spine.draft(table)
        n = len(draft.seats)
        state = draft.game.new_game(n, draft.options, draft.seed)
        # The deal and opening flip the engine did on its own at the start are public news.
        events: list[Event] = list(getattr(state, "opening_events", None) or [])
        draft.state = state
        draft.status = "playing"
        draft.log_start(events)
        draft.deadline_at, draft.deadline_action = self.spine.deadline(draft)
        await self.spine.save(table, draft, seats=draft.specs())
        # Timers and computers run whatever Discord says next.
        self.spine.after_change(table, events, render=False)
        self.spine.thread_lines.request(table)
        await self._answer_table(interaction, table, T.gettext("The game has started."))

    async def on_action_button(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None:
        if self.spine.draining:
            await reply(interaction, T.gettext(RESTARTING))
            return
        table = self.spine.tables.get(table_id)
        if table is None and (broken := self.spine.broken_table(table_id)) is not None:
            await reply(interaction, broken.notice())
            return
        if table is None and interaction.guild_id is None:
            # Discord delivers every DM click to shard 0, whichever process owns the table.
            await self._foreign_click(interaction, table_id, version, action)
            return
        if table is None:
            await reply(
                interaction, T.gettext("That table has ended, so this panel no longer does anything.")
            )
            return
        if interaction.guild_id is None and not await self.members.first(interaction, table):
            return
        async with table.lock:
            await self._guarded(interaction, self._action_button(interaction, table, version, action), table)

    async def _foreign_click(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None:
        """A DM panel click for a table another process owns: apply it here through the same
        checks and the same version-checked write (so it counts once, whoever else sees it), then
        tell the owner, which reloads the table and redraws it."""
        try:
            row = await self.spine.store.get_table(table_id)
            if row is None or row.status != "playing" or self.spine.owns(row.guild_id):
                await reply(
                    interaction, T.gettext("That table has ended, so this panel no longer does anything.")
                )
                return
            table = Table.from_row(row)
        except Exception:
            log.exception("could not load table %s for a DM click", table_id)
            await reply(interaction, T.gettext(NOT_SAVED))
            return
        table.foreign = True
        self.spine.track_epoch(table)
        before = table.version
        if not await self.members.first(interaction, table):
            return
        async with table.lock:
            await self._guarded(interaction, self._action_button(interaction, table, version, action), table)
        if table.version != before:
            try:
                await self.spine.announce_change(table.id)
            except Exception:  # the owner also reloads on its next write's conflict
                log.warning("could not tell table %s's owner about a DM click", table.id, exc_info=True)

    async def _action_button(
        self, interaction: discord.Interaction[Any], table: Table, version: int, action: str
    ) -> None:
        in_dm = interaction.guild_id is None
        if not in_dm and interaction.channel_id != table.channel_id:
            raise Refusal(T.gettext("That button belongs to a table in another channel."))
        if table.status != "playing" or table.state is None:
            raise Refusal(T.gettext("This game is over."))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal(T.gettext("You're not playing at this table."))
        if in_dm:
            await self.members.require(table, interaction.user)
        # Answer by editing only the clicker's own panel (their ephemeral reply or their DM). A
        # panel button forged onto a public message must never turn that message into a hand.
        own = in_dm or bool(interaction.message is not None and interaction.message.flags.ephemeral)
        if action == "refresh":
            await self.spine.panels.answer(interaction, table, seat, None, edit=own)
            return
        if action.startswith("nav-"):
            # A panel-only step (a card picked for a pile, a tab) survives other players'
            # actions: the game's panel checks the step against the state it draws now. Only a
            # new epoch (a new round, where the same codes mean new cards) starts it over.
            if version < table.epoch_since:
                note = T.gettext("The table moved on; here it is now.")
                await self.spine.panels.answer(interaction, table, seat, note, edit=own)
            else:
                await self.spine.panels.answer(interaction, table, seat, None, edit=own, nav=action[4:])
            return
        await self._apply_from_click(interaction, table, seat, action, version, panel=own)

    async def _apply_public(
        self, interaction: discord.Interaction[Any], table: Table, seat: int, action: str
    ) -> None:
        cooldown = getattr(self.spine.uis[table.game.key], "public_cooldown", None)
        seconds = cooldown(action) if cooldown is not None else None
        now = self.spine.scheduler.now()
        key = (table.id, seat, action.split("-")[0])
        if seconds:
            last = self._public_uses.get(key)
            if last is not None and (now - last).total_seconds() < seconds:
                shown = f"{seconds:g}"
                # The plural form follows the whole seconds (a fraction of one reads as "seconds").
                count = int(seconds) if float(seconds).is_integer() else max(2, int(seconds))
                raise Refusal(
                    T.ngettext(
                        "Easy there — once every {seconds} second.",
                        "Easy there — once every {seconds} seconds.",
                        count,
                        seconds=shown,
                    )
                )
        # IllegalAction → the game's wording (Spine.refusal), via _guarded, which has the table.
        await self.spine.act(table, seat, action, interaction.user.id)
        if seconds:
            self._public_uses[key] = now
        # The table shows what happened. A click on the table message itself is answered by
        # redrawing it: at once, and through the interaction, not the bot's own edit budget (the
        # edit booked by the change then finds it drawn already and sends nothing).
        try:
            if self._on_table_message(interaction, table) and table.table_message_id is not None:
                drawing = await self.spine.drawing.ready(table, for_click=True)
                await self.spine.messages.answer_click(interaction, table, table.table_message_id, drawing)
            else:
                await interaction.response.defer()  # a silent acknowledgement keeps the channel quiet
        except (discord.HTTPException, OSError) as error:
            log.info("could not acknowledge a public click: %s", error)

    async def command_action(self, interaction: discord.Interaction[Any], action: str) -> None:
        """A keyboard move (e.g. `/trap move c3>c4`): the same checks as a click, on the current state."""
        if self.spine.draining:
            await reply(interaction, T.gettext(RESTARTING))
            return
        table = self.spine.table_in(interaction.channel_id)
        if table is None:
            broken = self.spine.broken.get(interaction.channel_id or 0)
            await reply(
                interaction,
                broken.notice() if broken is not None else T.gettext("There's no table in this channel."),
            )
            return
        async with table.lock:
            await self._guarded(interaction, self._command_action(interaction, table, action), table)

    async def _command_action(self, interaction: discord.Interaction[Any], table: Table, action: str) -> None:
        """Typed, so always on the current state. Answered with one short line (what the move
        did, or why it was refused) that replaces the seat's previous one: a whole panel per
        typed move piled up dozens of private messages in one game."""
        if table.status != "playing" or table.state is None:
            raise Refusal(T.gettext("There's no game running at this table."))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal(T.gettext("You're not playing at this table."))
        typed = action.replace("`", "")[:40]  # the game's cog checked it; a back-tick would break the line
        try:
            events = await self.spine.act(table, seat, action, interaction.user.id)
        except IllegalAction as error:
            await self.spine.panels.answer_typed(
                interaction, table, seat, f"⚠️ `{typed}`: {self.spine.refusal(table, error)}"
            )
            return
        done = " · ".join(self.spine.line(table, e) for e in events) or T.gettext("Done.")
        if table.status != "playing":
            done += "\n" + T.gettext("That ended the game: the results are on the table.")
        await self.spine.panels.answer_typed(interaction, table, seat, f"✅ `{typed}`: {done}"[:2000])

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
        if version != table.version and not await self._still_meant(table, seat, version, action):
            # Quote the news only if it is news since that panel (private choices log nothing). One
            # short line: it sits above a panel that must fit a phone screen (issue 33), and the
            # panel under it already shows the new state.
            fresh = table.log and table.logged_at > version
            if fresh:
                # Translators: {news} is the table's latest line, a whole sentence ("Robo 1 played a 7.").
                note = T.gettext(
                    "Too slow, nothing changed: {news}", news=plain(self.spine.drawing.latest(table, 1)[0])
                )
            else:
                note = T.gettext("Too slow, nothing changed: the table had moved on.")
            await self.spine.panels.answer(interaction, table, seat, note, edit=panel)
            return
        try:
            await self.spine.act(table, seat, action, interaction.user.id)
        except IllegalAction as error:
            reason = self.spine.refusal(table, error)
            await self.spine.panels.answer(interaction, table, seat, reason, edit=panel)
            return
        if table.status == "playing":
            await self.spine.panels.answer(interaction, table, seat, None, edit=panel)
        else:
            await self.spine.panels.answer_over(interaction, edit=panel)

    async def _still_meant(self, table: Table, seat: int, version: int, action: str) -> bool:
        """Whether a click from an older panel may go to the engine anyway, as long as nothing
        that changes what it means (a new round, say: the same card codes come back) happened
        since (the epoch): either the game says the action means the same whatever changed
        (version_free), or the seat's panel would be drawn now exactly as it was then (another
        seat's move that this person can't see, or that changes nothing of theirs)."""
        if version < table.epoch_since:
            return False
        version_free = getattr(self.spine.uis[table.game.key], "version_free", None)
        if version_free is not None and version_free(action):
            return True
        return await self.spine.panels.still_shown(table, seat, version)

    async def _guarded(
        self, interaction: discord.Interaction[Any], work: Awaitable[None], table: Table | None = None
    ) -> None:
        """One place that turns refusals and failures into a clear ephemeral answer (an engine's
        refusal worded by its game, Spine.refusal, when the table is known)."""
        try:
            await work
        except Refusal as refusal:
            await reply(interaction, str(refusal))
        except IllegalAction as error:
            if table is None:  # no game to word it (none of the table-less clicks reaches an engine today)
                await reply(interaction, T.gettext("The rules don't allow that now, so nothing changed."))
            else:
                await reply(interaction, self.spine.refusal(table, error))
        except TableMoved:
            await reply(interaction, T.gettext(MOVED))
        except SQLAlchemyError:
            log.exception("database error while handling a click")
            await reply(interaction, T.gettext(NOT_SAVED))
        except LayoutTooLarge as error:
            # What the click committed stands (the table message shows it); only the answer's
            # drawing could not be sent. Failure.TOO_LARGE: not retried, the log says what it held.
            what = payload(interaction).get("custom_id") or "a command"
            log.warning(
                "could not answer %s for user %s: the drawing was too large: %s",
                what,
                interaction.user.id,
                error,
            )
            await reply(interaction, T.gettext(TOO_LARGE))

    async def _rematch(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        old = self.spine.messages.closed.get(table_id)
        if old is None:
            row = await self.spine.store.get_table(table_id)
            if row is None or row.status != "finished":
                raise Refusal(T.gettext("That game can't be rematched."))
            old = Table.from_row(row)
        if interaction.channel_id != old.channel_id:
            raise Refusal(T.gettext("That button belongs to a table in another channel."))
        if not any(s.user_id == interaction.user.id for s in old.seats):
            raise Refusal(T.gettext("Only the players of that game can call a rematch."))
        seats: list[SeatInfo] = []
        for s in old.seats:
            if s.left_at is not None:
                continue  # people who left don't get dragged back in
            if s.user_id is None and s.computer_level is None:
                continue  # a forgotten person's seat: it stays open for whoever joins
            seats.append(SeatInfo(len(seats), s.user_id, s.chosen_name, s.computer_level))
        # The person who asked for the rematch hosts it and sits first.
        seats.sort(key=lambda s: s.user_id != interaction.user.id)
        seats = [SeatInfo(i, s.user_id, s.chosen_name, s.computer_level) for i, s in enumerate(seats)]
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        await self.lifecycle.open_table(
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
            language=old.language,  # the same people at the same table: the same language
        )
        await reply(
            interaction,
            T.gettext("Rematch lobby is open — same seats. You're the host: press Start when ready."),
        )
