"""Private panels: each person's hand, answered to their clicks and kept live while open.

``Panels`` owns the open panels (an ephemeral reply edited through the interaction that last
touched it, or a DM message edited directly) and keeps each one following the table, at most once
a second, drawing only committed state. A panel that can no longer be edited (dismissed, token
expired, DMs closed) is simply forgotten: the next click or "My hand" opens a fresh one.

No wasted call: a refresh that would send exactly what the panel already shows (the same V2
layout and pictures as the click answer or edit that drew it last) is not sent. DM panels are edited
with the bot's own token, so each DM channel has an edit budget like a table's channel (5 per
5 s, shared by every table that person follows by DM).

No wasted upload: each open panel keeps what its message holds (``Held``, from the message
Discord returned for the answer or edit that drew it), so an edit uploads only the pictures that
changed (a hand that did not change between two refreshes is kept, not sent again). A click on
that same message carries it over to the panel it answers with; anything else (another message,
a failed edit, a restart) holds nothing, and everything is uploaded once.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol

import discord

from cogs.table.common import NOBODY, edit_answer, private_answer
from cogs.table.effects import Effects, TryLater
from cogs.table.failures import Failure, classify
from cogs.table.layout import Attachment, Drawing, Held, LayoutTooLarge
from cogs.table.messages import EditBudget, keeping, message_of
from cogs.table.model import Table
from cogs.table.scheduler import Scheduler
from cogs.texts import Texts, speaking

log = logging.getLogger(__name__)
T = Texts(__name__)

# An open hand panel follows the table live, but at most once a second per player.
PANEL_REFRESH = timedelta(seconds=1)
# Interaction tokens die after 15 minutes; stop editing a panel a little before that.
PANEL_TOKEN_LIFETIME = timedelta(minutes=14)


class Prepare(Protocol):
    """Draws a seat's panel pictures before the panel is drawn (TableDrawing.prepare_panel)."""

    def __call__(
        self, table: Table, seat: int, nav: str | None, *, for_click: bool = False, counted: bool = True
    ) -> Awaitable[None]: ...


@dataclass
class OpenPanel:
    """The latest hand panel a person has open."""

    interaction: discord.Interaction[Any] | None
    message: discord.Message | None
    opened: datetime
    stamp: int  # the version its buttons carry: the state it was drawn from
    edited: datetime | None = None
    nav: str | None = None  # panel-only steps (a picked card) survive the live refresh
    shown: str | None = None  # what it shows now (``shown``), to never send the same again
    # The latest version it is known to still show rightly: the stamp, or a later version whose
    # drawing for this seat came out the same (then it is left alone, and its clicks still count).
    current: int = -1
    # What its message holds (None: not known, upload everything), so an edit keeps unchanged
    # pictures. Its ``message_id`` is the message the panel's edits reach.
    held: Held | None = None
    # The message it is (an ephemeral answer or a DM), when known: a newer panel on another
    # message retires this one (``Panels.retire``).
    message_id: int | None = None

    def __post_init__(self) -> None:
        self.current = max(self.current, self.stamp)


@dataclass
class TypedLine:
    """The private line that answered a seat's last keyboard move (`/trap move`)."""

    interaction: discord.Interaction[Any]
    at: datetime


# The version in a panel button's custom_id ("ga:<table>:<version>:<action>", and "gs:" for
# selects) is not something its owner sees: two drawings that differ only there show the same.
STAMP = re.compile(r'"(g[as]:\d+:)\d+:')


def shown(drawing: Drawing | None) -> str:
    """What a panel shows its owner: its V2 components and pictures (cogs/table/layout.py), with
    the version stamped in the custom_ids left out. A seat's panel is redrawn only when this
    changes, that is when the seat's own view or its options changed, not whenever anyone acted."""
    drawing = drawing or over_drawing()
    return STAMP.sub(r'"\1*:', drawing.fingerprint())


def over_drawing(text: str | None = None) -> Drawing:
    """A panel once the game is over: no buttons, the table has the results."""
    if text is None:
        text = T.gettext("See the table for the results.")
    return Drawing(discord.Embed(title=T.gettext("Game over"), description=text))


def moved_drawing() -> Drawing:
    """An older panel once its person has opened a newer one: no buttons, so that at most one
    panel per person per table offers moves (issue 33: 46 live panels in one Trap game)."""
    return Drawing(discord.Embed(description=T.gettext("This hand moved to a newer panel.")))


def panel_message(drawing: Drawing, attachments: list[Attachment] | None = None) -> dict[str, Any]:
    """The keywords that make a panel (an ephemeral answer or a DM) show ``drawing``. A panel
    opened before the upgrade to V2 layouts holds an embed: the edit clears it. ``attachments``
    keeps what the message holds already (``Layout.attachments``); without it all is uploaded."""
    return {
        "content": None,
        "embed": None,
        "view": drawing.layout.view,
        "attachments": drawing.files() if attachments is None else attachments,
    }


class Panels:
    def __init__(
        self,
        scheduler: Scheduler,
        *,
        lookup: Callable[[int], Table | None],
        draw: Callable[[Table, int, str | None, str | None], Drawing],
        prepare: Prepare,
        language: Callable[[Table, int], str] | None = None,
    ) -> None:
        self.scheduler = scheduler
        self._lookup = lookup
        self._draw = draw
        # A seat's person's language, for what is drawn here rather than by ``draw`` (the
        # game-over panel); ``draw`` and ``prepare`` speak it themselves.
        self._language = language or (lambda table, _seat: table.language)
        # Draws the seat's pictures off the event loop before ``draw`` (which does not await);
        # ``for_click``: the panel answers a click, so its pictures are drawn before others.
        self.prepare = prepare
        # table id → seat → its open panel: a change looks only at its own table's panels.
        self.open: dict[int, dict[int, OpenPanel]] = {}
        self.dm_budget = EditBudget()  # per DM channel
        self.effects = Effects(scheduler)
        # (table id, seat) → the answer to that seat's last keyboard move, deleted by the next one.
        self.typed: dict[tuple[int, int], TypedLine] = {}

    def get(self, table_id: int, seat: int) -> OpenPanel | None:
        return self.open.get(table_id, {}).get(seat)

    def _keep(self, table_id: int, seat: int, panel: OpenPanel) -> None:
        self.open.setdefault(table_id, {})[seat] = panel

    def forget(self, table_id: int, seat: int) -> None:
        seats = self.open.get(table_id)
        if seats is not None:
            seats.pop(seat, None)
            if not seats:
                del self.open[table_id]

    def nav(self, table_id: int, seat: int) -> str | None:
        panel = self.get(table_id, seat)
        return panel.nav if panel is not None else None

    # --- following the table ---------------------------------------------------------------

    def refresh(self, table: Table) -> None:
        """Bring every open panel of this table up to date, each at most once a second."""
        now = self.scheduler.now()
        tid = table.id
        for seat, panel in list(self.open.get(tid, {}).items()):
            if panel.current == table.version:
                continue
            key = f"panel{tid}:{seat}"  # not under the table's prefix: the game-over edit must survive
            if self.scheduler.when(key) is not None:
                continue
            due = max((panel.edited or now) + PANEL_REFRESH, now + self._dm_wait(panel, now))
            self.effects.book(key, partial(self._refresh, tid, seat), (due - now).total_seconds())

    def _dm_wait(self, panel: OpenPanel, now: datetime) -> timedelta:
        if panel.message is None:
            return timedelta(0)
        return timedelta(seconds=self.dm_budget.wait(panel.message.channel.id, now))

    async def _refresh(self, table_id: int, seat: int) -> None:
        panel = self.get(table_id, seat)
        table = self._lookup(table_id)
        if panel is None or table is None or table.state is None:
            return
        now = self.scheduler.now()
        person = table.seats[seat] if seat < len(table.seats) else None
        if person is None or person.is_computer or now - panel.opened > PANEL_TOKEN_LIFETIME:
            self.forget(table_id, seat)
            return
        asked = table.status == "playing" and panel.current != table.version
        if asked:
            # Its pictures first, without the lock (as TableMessages._render does): a refresh
            # waits behind clicks' drawings, and must not hold the table's clicks up meanwhile.
            await self.prepare(table, seat, panel.nav)
        async with table.lock:  # only committed state is drawn
            if panel.current == table.version:
                return  # a click's own answer already drew this version, or it looks the same
            if table.status == "playing":
                await self.prepare(table, seat, panel.nav, counted=not asked)
                drawing = self._draw(table, seat, None, panel.nav)
            else:
                with speaking(self._language(table, seat)):
                    drawing = over_drawing()
            try:
                showing = shown(drawing)
            except LayoutTooLarge as error:
                # Failure.TOO_LARGE: drawing it again would fail the same way. The panel keeps
                # what it shows; its next click answers with the reason (cogs/table/entry.py).
                log.warning("table %s: seat %s's panel is too large for Discord: %s", table_id, seat, error)
                self.forget(table_id, seat)
                return
            if showing == panel.shown:
                panel.current = table.version
                return  # exactly what it shows already: nothing to send, and its buttons still count
            # Check and spend the DM channel's budget with no await in between: several tables
            # refresh panels in the same DM, and each must see the others' edits.
            now = self.scheduler.now()
            wait = self._dm_wait(panel, now)
            if wait > timedelta(0):
                # This person's DM channel has spent its edits: draw whatever is latest then.
                key = f"panel{table_id}:{seat}"
                self.effects.book(key, partial(self._refresh, table_id, seat), wait.total_seconds())
                return
            if panel.message is not None:
                self.dm_budget.spend(panel.message.channel.id, now)
            if table.status != "playing":
                self.forget(table_id, seat)
            panel.stamp = panel.current = table.version
            panel.shown, panel.edited = showing, now
            held = panel.held
        # The message this panel's edits reach: its DM, or its interaction's original response,
        # which is the message its ``held`` was made from.
        message = panel.message
        message_id = message.id if message is not None else (held.message_id if held is not None else None)
        interaction = panel.interaction

        async def edit(attachments: list[Attachment]) -> discord.Message | None:
            if message is not None:
                return await message.edit(**panel_message(drawing, attachments), allowed_mentions=NOBODY)
            if interaction is not None:
                return await interaction.edit_original_response(
                    **panel_message(drawing, attachments), allowed_mentions=NOBODY
                )
            return None

        try:
            edited = await keeping(edit, drawing.layout, held, message_id)
            panel.held = Held.after(edited, drawing.layout)
        except (discord.HTTPException, OSError) as error:
            panel.held = None  # not known what it holds now: upload everything next time
            if classify(error) is not Failure.TRANSIENT:
                self.forget(table_id, seat)  # dismissed, expired or DMs closed: stop trying
                return
            # Not known what it shows now: draw it in full again soon (Effects' backoff), with
            # whatever is latest then, unless the person opened a newer panel meanwhile.
            now_open = self.get(table_id, seat)
            if now_open is panel or (now_open is None and table.status != "playing"):
                panel.current, panel.shown = -1, None
                self._keep(table_id, seat, panel)  # a game-over edit must still land too
                raise TryLater(error) from error

    async def still_shown(self, table: Table, seat: int, stamp: int) -> bool:
        """Whether a click from a panel drawn at version ``stamp`` still means what it meant: it
        comes from the seat's open panel, and drawing that panel now shows its owner exactly the
        same (same cards, same options, same text). Then nothing the person could see changed,
        and a refusal as "too slow" would only punish them for someone else's unrelated move.
        Called under the table's lock, on committed state."""
        panel = self.get(table.id, seat)
        if panel is None or panel.stamp != stamp or table.status != "playing" or table.state is None:
            return False
        if panel.current != table.version:
            await self.prepare(table, seat, panel.nav, for_click=True)  # a click waits on it
            if shown(self._draw(table, seat, None, panel.nav)) != panel.shown:
                return False
            panel.current = table.version
        return True

    # --- answering a click -----------------------------------------------------------------

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        note: str | None,
        *,
        edit: bool,
        nav: str | None = None,
    ) -> bool:
        """Answer with the seat's panel. False if Discord refused the answer (the caller decides
        whether anything else must be said another way); the change behind it stands."""
        await self.prepare(table, seat, nav, for_click=True)
        drawing = self._draw(table, seat, note, nav)
        clicked = interaction.message.id if edit and interaction.message is not None else None
        previous = self.get(table.id, seat)
        # A click on the panel's own message edits what that panel holds: keep its pictures.
        held = previous.held if previous is not None else None

        async def edit_clicked(attachments: list[Attachment]) -> Any:
            return await edit_answer(
                interaction, **panel_message(drawing, attachments), allowed_mentions=NOBODY
            )

        try:
            if edit:
                result = await keeping(edit_clicked, drawing.layout, held, clicked)
            else:
                result = await private_answer(
                    interaction, view=drawing.layout.view, files=drawing.files(), allowed_mentions=NOBODY
                )
        except (discord.HTTPException, OSError) as error:
            log.info("could not answer a panel click at table %s: %s", table.id, error)
            if previous is not None and held is not None and held.message_id == clicked:
                previous.held = None  # the clicked message may have changed: hold nothing for sure
            return False
        now = self.scheduler.now()
        answered = message_of(result)
        panel = OpenPanel(interaction, None, now, table.version, now, nav, shown(drawing))
        panel.held = Held.after(answered, drawing.layout)
        panel.message_id = clicked if edit else (answered.id if answered is not None else None)
        self._keep(table.id, seat, panel)
        if previous is not None and (
            not edit or (clicked is not None and previous.message_id not in (None, clicked))
        ):
            self.retire(table.id, seat, previous)
        return True

    def retire(self, table_id: int, seat: int, panel: OpenPanel) -> None:
        """Show ``panel`` (no longer the seat's open one) as moved, with no buttons: through its
        interaction while its token lives, or its DM message. One past its token stays as it
        is; a click on it is answered with the current panel, which then moves there."""
        now = self.scheduler.now()
        if panel.message is None and (panel.interaction is None or now - panel.opened > PANEL_TOKEN_LIFETIME):
            return
        table = self._lookup(table_id)
        language = self._language(table, seat) if table is not None else None
        with speaking(language):  # the person's own words, as their panel was
            drawing = moved_drawing()
        key = f"retire{table_id}:{seat}:{panel.message_id or id(panel)}"
        self.effects.book(key, partial(self._retire, panel, drawing))

    async def _retire(self, panel: OpenPanel, drawing: Drawing) -> None:
        try:
            if panel.message is not None:
                self.dm_budget.spend(panel.message.channel.id, self.scheduler.now())
                await panel.message.edit(**panel_message(drawing), allowed_mentions=NOBODY)
            elif panel.interaction is not None:
                await panel.interaction.edit_original_response(
                    **panel_message(drawing), allowed_mentions=NOBODY
                )
        except (discord.HTTPException, OSError) as error:
            if classify(error) is Failure.TRANSIENT:
                raise TryLater(error) from error
            log.info("an older panel could not be retired (dismissed or expired): %s", error)

    async def answer_typed(
        self, interaction: discord.Interaction[Any], table: Table, seat: int, text: str
    ) -> None:
        """A keyboard move's answer: one short private line, and the seat's line before it is
        deleted, so a game typed move by move leaves one line on screen, not one per move (a
        keyboard player once counted 122 "Only you can see this" messages in one game). Their
        panel, if open, follows the table as ever.

        If Discord refuses the answer, the move stands (the table shows it) and the old line
        stays, to go with the next one. A deletion that Discord refuses for now is tried again
        (Effects); one already gone (dismissed, or its token expired) needs nothing more."""
        try:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        except (discord.HTTPException, OSError) as error:
            log.info("could not answer a keyboard move at table %s: %s", table.id, error)
            return
        now = self.scheduler.now()
        previous = self.typed.get((table.id, seat))
        self.typed[(table.id, seat)] = TypedLine(interaction, now)
        if previous is not None and now - previous.at < PANEL_TOKEN_LIFETIME:
            key = f"typed{table.id}:{seat}:{previous.interaction.id}"
            self.effects.book(key, partial(self._delete_typed, previous.interaction))
        for stale in [k for k, line in self.typed.items() if now - line.at >= PANEL_TOKEN_LIFETIME]:
            del self.typed[stale]  # its token is dead: it can no longer be deleted anyway

    async def _delete_typed(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.delete_original_response()
        except (discord.HTTPException, OSError) as error:
            if classify(error) is Failure.TRANSIENT:
                raise TryLater(error) from error
            log.info("a keyboard move's old answer was already gone: %s", error)

    async def answer_over(self, interaction: discord.Interaction[Any], *, edit: bool) -> None:
        drawing = over_drawing(T.gettext("That was the last play. See the table for the results."))
        try:
            if edit:
                await edit_answer(interaction, **panel_message(drawing), allowed_mentions=NOBODY)
            else:
                await interaction.response.send_message(
                    view=drawing.layout.view, ephemeral=True, allowed_mentions=NOBODY
                )
        except (discord.HTTPException, OSError) as error:
            log.info("could not answer the last click: %s", error)

    async def send_dm(self, interaction: discord.Interaction[Any], table: Table, seat: int) -> bool:
        """The seat's panel by DM. Returns False (after answering with the panel here) when the
        person's DMs are closed. Called without the table's lock, with the click answered first
        (deferred): opening a DM and sending to it are bot-token routes with limits of their
        own, which no other click at the table may wait on. Drawn under the lock (committed
        state only), sent outside it."""
        async with table.lock:
            await self.prepare(table, seat, None, for_click=True)
            drawing = self._draw(table, seat, None, None)
            version = table.version
        try:
            message = await interaction.user.send(
                view=drawing.layout.view, files=drawing.files(), allowed_mentions=NOBODY
            )
        except (discord.HTTPException, OSError) as error:
            if classify(error) is Failure.TRANSIENT:
                # Not the person's settings: Discord's trouble. Nothing to retry behind their
                # back (a DM they didn't see arrive would surprise them): say so, hand it here.
                note = T.gettext(
                    "Discord didn't deliver the DM just now, so here is your hand here. "
                    "Press **Hand by DM** again in a moment to move it to your DMs."
                )
            else:
                note = T.gettext(
                    "I couldn't DM you (your DMs may be closed), so here is your hand here instead."
                )
            async with table.lock:
                await self.answer(interaction, table, seat, note, edit=False)
            return False
        now = self.scheduler.now()
        self.dm_budget.spend(message.channel.id, now)
        previous = self.get(table.id, seat)
        # Stamped with the version it shows, so its buttons mean what it shows.
        panel = OpenPanel(None, message, now, version, now, None, shown(drawing))
        panel.held = Held.after(message, drawing.layout)
        panel.message_id = message.id
        async with table.lock:
            self._keep(table.id, seat, panel)
            if previous is not None:
                self.retire(table.id, seat, previous)
            if table.version != version:
                self.refresh(table)  # it moved on while the DM went out
        text = T.gettext("I sent your hand to your DMs. Its buttons work from there.")
        try:
            await private_answer(interaction, content=text, allowed_mentions=NOBODY)
        except (discord.HTTPException, OSError) as error:
            log.info("could not answer Hand by DM: %s", error)
        return True
