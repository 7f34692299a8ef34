"""The public table message: coalesced edits within the channel's budget, posts, and recovery.

``TableMessages`` owns everything about the message a table is drawn on: the per-channel edit
budget, the pace of each table's edits (at most one every 1.5 s; what the message shows now, so
an edit that would change nothing is never sent), which tables have an edit in flight or
pending, and what to do when Discord refuses (a deleted message is posted again; a channel that
is gone or refuses the bot makes the table unreachable, which the referee turns into an abandoned
game after a grace period). It only ever draws what the referee has committed: the referee calls
``request`` after a change, and the drawing itself is the referee's ``draw`` (so a stopped table
draws as stopped, and a pending redraw can never bring back a live-looking table).

It also owns the table's other posts (round results, the final results, turn lines): they queue
per table and go out in order, each tried until it lands. Edits and posts follow ``Effects``'
policy when Discord says "try later" (cogs/table/effects.py).

An edit uploads only the pictures that changed: what the message holds (``Held``: each file's
digest and the attachment Discord made of it) is kept beside what it shows, from the message
Discord returns for each edit, and dropped with it on any doubt (a failed edit, a redraw whatever
it shows, an edit made elsewhere that returned no message), so the next edit uploads everything.
``keeping`` sends such an edit, and sends it once more with everything uploaded if Discord
refuses the attachments kept (the message changed meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any, NamedTuple, Protocol, TypeVar

import discord

from cogs.table.budget import Priority
from cogs.table.buttons import view_of
from cogs.table.common import NOBODY
from cogs.table.effects import Effects, TryLater
from cogs.table.failures import Failure, classify
from cogs.table.layout import Attachment, Drawing, Held, Layout, LayoutTooLarge
from cogs.table.model import Table
from cogs.table.scheduler import Scheduler
from db.store import Store

log = logging.getLogger(__name__)

# Discord allows a handful of edits per channel every few seconds; stay inside 5 per 5 s.
EDITS_PER_WINDOW = 5
EDIT_WINDOW = timedelta(seconds=5)
# During play, one table's message is edited at most every 1.5 s. Changes that come faster are drawn
# together a moment later (the "Latest" lines list each of them), so a quick exchange costs one
# edit instead of several, and a busy table can't spend its whole channel's budget in a burst
# while other tables in the channel wait.
TABLE_EDIT_SPACING = timedelta(seconds=1.5)
# Tables that ended keep their last drawing here until it is on Discord (and a little after, for
# their Rematch button); the oldest are dropped first.
CLOSED_KEPT = 256


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
        if not recent:
            del self._edits[channel_id]
            return 0.0
        if len(recent) < EDITS_PER_WINDOW:
            return 0.0
        return (recent[0] + EDIT_WINDOW - now).total_seconds() + 0.01

    def spend(self, channel_id: int, now: datetime) -> None:
        self._edits.setdefault(channel_id, deque()).append(now)


def fingerprint(drawing: Drawing) -> str:
    """What a table message shows: its V2 components and its attachments' bytes
    (cogs/table/layout.py)."""
    return drawing.fingerprint()


def table_message(drawing: Drawing, attachments: list[Attachment] | None = None) -> dict[str, Any]:
    """The keywords that make a message show ``drawing`` as a V2 layout, for an edit of the
    table message (by the bot, or as a click's answer). A message posted before the upgrade to
    V2 layouts holds an embed (and maybe content): an edit that turns it into a layout must
    clear both, as Discord refuses a V2 message with either, and its attachments are replaced by
    exactly the files the layout refers to: ``attachments`` (``Layout.attachments``: those it
    holds already kept, the rest uploaded), or all of them uploaded."""
    return {
        "content": None,
        "embed": None,
        "view": drawing.layout.view,
        "attachments": drawing.files() if attachments is None else attachments,
    }


Sent = TypeVar("Sent")


async def keeping(
    edit: Callable[[list[Attachment]], Awaitable[Sent]],
    layout: Layout,
    held: Held | None,
    message_id: int | None,
) -> Sent:
    """Send an edit of message ``message_id`` to show ``layout``, keeping the attachments
    ``held`` says it holds with the right bytes and uploading the rest. If Discord refuses the
    edit over the attachments kept (the message was changed elsewhere meanwhile, so an id is no
    longer its own), it is sent once more with every file uploaded, which is right whatever the
    message holds. Any other failure is the caller's, as before."""
    attachments = layout.attachments(held, message_id)
    try:
        return await edit(attachments)
    except discord.HTTPException as error:
        kept = any(isinstance(a, discord.Attachment) for a in attachments)
        if not kept or classify(error) is not Failure.ATTACHMENTS_REFUSED:
            raise
        log.info("an edit keeping message %s's pictures was refused (%s); uploading all", message_id, error)
        return await edit(list(layout.files()))


def message_of(result: object) -> discord.Message | None:
    """The message an edit or answer returned: itself (a message or webhook edit), or the
    resource of an interaction callback (discord.py asks for it with every callback); None if
    Discord gave none back (then what it holds is not known)."""
    if isinstance(result, discord.Message):
        return result
    resource = getattr(result, "resource", None)
    return resource if isinstance(resource, discord.Message) else None


class Shown(NamedTuple):
    """What a table message shows (``fingerprint``) and holds (``Held``), as last drawn."""

    message_id: int
    fingerprint: str
    held: Held | None


@dataclass
class Post:
    """A message a table still has to post, in its turn."""

    kwargs: dict[str, Any]
    landed: Callable[[discord.Message], None] | None = None
    # Whom it may notify: nobody, unless it is a line that names exactly whom it pings (pings.py).
    allowed: discord.AllowedMentions = NOBODY
    # Whether it is still worth sending, asked each time it is about to be sent: a line about a
    # turn that is over by the time Discord takes posts again (after an outage) is dropped, not
    # posted late. None: history (results, a round's end), always sent, in order.
    due: Callable[[], bool] | None = None
    message: discord.Message | None = field(default=None, init=False)


class Ready(Protocol):
    """Draws a table message with its pictures made first (TableDrawing.ready); not ``counted``:
    they were asked for just before, by the same redraw."""

    def __call__(self, table: Table, *, counted: bool = True) -> Awaitable[Drawing]: ...


class TableMessages:
    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        scheduler: Scheduler,
        *,
        lookup: Callable[[int], Table | None],
        draw: Ready,
        unreachable: Callable[[Table, Failure], None],
        reached: Callable[[Table], None],
        prepare: Callable[[Table], Awaitable[None]],
    ) -> None:
        self.bot = bot
        self.store = store
        self.scheduler = scheduler
        self.budget = EditBudget()
        self.effects = Effects(scheduler)
        self._lookup = lookup
        self._draw = draw
        self._prepare = prepare
        self._unreachable = unreachable
        self._reached = reached
        # What each table message shows now, so an edit that would send exactly that again (a
        # private choice that logs nothing public) is never sent, and which pictures it holds, so
        # an edit uploads only those that changed. Forgotten together: on any doubt, both go.
        self._shown: dict[int, Shown] = {}
        self._edited: dict[int, datetime] = {}  # when each table message was last drawn
        self._rendering: set[int] = set()
        self._dirty: set[int] = set()
        self._too_large: set[int] = set()  # tables whose latest drawing was too large (logged once)
        self.closed: OrderedDict[int, Table] = OrderedDict()
        self._tasks: set[asyncio.Task[Any]] = set()
        # Posts still to go out, per table, in order; and the tables whose queue is being sent.
        self._posts: dict[int, deque[Post]] = {}
        self._posting: set[int] = set()

    def keep_closed(self, table: Table) -> None:
        """A table that ended still gets its last drawing (and its Rematch button a table)."""
        self.closed[table.id] = table
        self.closed.move_to_end(table.id)
        while len(self.closed) > CLOSED_KEPT:
            gone, _ = self.closed.popitem(last=False)
            self._shown.pop(gone, None)
            self._edited.pop(gone, None)

    def table(self, table_id: int) -> Table | None:
        return self._lookup(table_id) or self.closed.get(table_id)

    # --- the table message -----------------------------------------------------------------

    def request(self, table: Table) -> None:
        """Show the latest committed state soon, never exceeding the channel's edit budget."""
        if table.table_message_id is None:
            return
        if table.id in self._rendering:
            self._dirty.add(table.id)
            return
        key = f"render{table.id}"  # outside the table's timer prefix: the final edit must survive
        if self.scheduler.when(key) is not None:
            return  # an edit is already booked; it will draw whatever is latest then
        wait = self._wait(table)
        if wait <= 0:
            self.spawn(self.effects.run(key, partial(self._render, table.id)))
        else:
            self.effects.book(key, partial(self._render, table.id), wait)

    def redraw_later(self, table: Table, delay: float) -> None:
        """Draw the table in ``delay`` seconds whatever its message is believed to show."""
        if table.table_message_id is not None:
            self._shown.pop(table.id, None)
            self.effects.book(f"render{table.id}", partial(self._render, table.id), delay)

    def spent(self, table: Table) -> None:
        """An edit of the table message made some other way (an interaction's own answer)."""
        self.budget.spend(table.channel_id, self.scheduler.now())

    def drawn(
        self, table: Table, message_id: int, drawing: Drawing, message: discord.Message | None = None
    ) -> None:
        """The table message now shows ``drawing`` (drawn here, or by a click's own answer);
        ``message`` is what Discord returned for it (without it, nothing is known to be held)."""
        held = Held.after(message, drawing.layout) if message and message.id == message_id else None
        self._shown[table.id] = Shown(message_id, fingerprint(drawing), held)
        self._edited[table.id] = self.scheduler.now()

    def held(self, table: Table) -> Held | None:
        """What the table's message is known to hold, if anything."""
        shows = self._shown.get(table.id)
        return shows.held if shows is not None else None

    async def answer_click(
        self, interaction: discord.Interaction[Any], table: Table, message_id: int, drawing: Drawing
    ) -> None:
        """Answer a click on the table message by redrawing it in place, through the
        interaction, uploading only the pictures that changed. Raises what Discord raised; then
        the message is not known to show or hold anything, and the next edit draws it whole."""

        async def edit(attachments: list[Attachment]) -> Any:
            return await interaction.response.edit_message(
                **table_message(drawing, attachments), allowed_mentions=NOBODY
            )

        try:
            result = await keeping(edit, drawing.layout, self.held(table), message_id)
        except (discord.HTTPException, OSError):
            self._shown.pop(table.id, None)
            raise
        self.drawn(table, message_id, drawing, message_of(result))

    def _wait(self, table: Table) -> float:
        """Seconds until this table's message may be edited: its channel's budget, and during
        play at most one edit every TABLE_EDIT_SPACING for the table itself (a lobby's seats and
        a table's end are drawn as soon as the channel allows)."""
        now = self.scheduler.now()
        wait = self.budget.wait(table.channel_id, now)
        edited = self._edited.get(table.id)
        if edited is not None and table.status == "playing":
            wait = max(wait, (edited + self._spacing(now) - now).total_seconds())
        return wait

    def _spacing(self, now: datetime) -> timedelta:
        """TABLE_EDIT_SPACING, four times that while the bot sheds optional work
        (cogs/table/budget.py). When many tables change, their turns at the global budget space
        them further (``_render``)."""
        budget = getattr(self.bot, "global_budget", None)
        if budget is None:
            return TABLE_EDIT_SPACING
        return timedelta(seconds=budget.redraw_spacing(TABLE_EDIT_SPACING.total_seconds()))

    async def flush(self) -> None:
        """Draw every table whose edit is still booked, now, budget or not (shutting down)."""
        for key in self.scheduler.booked("render"):
            self.scheduler.cancel(key)
            table = self.table(int(key.removeprefix("render")))
            if table is not None:
                await self.redraw_now(table)
        for table_id in list(self._dirty):
            self._dirty.discard(table_id)
            table = self.table(table_id)
            if table is not None:
                await self.redraw_now(table)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)

    async def redraw_now(self, table: Table) -> None:
        """Try the table message once more now (is the channel back? are we shutting down?); a
        transient failure books the usual retry."""
        key = f"render{table.id}"
        await self.effects.run(key, partial(self._render, table.id, force=True))

    async def _render(self, table_id: int, *, force: bool = False) -> None:
        table = self.table(table_id)
        if table is None or table.table_message_id is None:
            return
        wait = self._wait(table)
        if wait > 0 and not force:
            self.effects.book(f"render{table.id}", partial(self._render, table.id), wait)
            return
        # From here until it is on Discord, a change only marks the table dirty: two renders of
        # one table never overlap (the lock below is awaited, and a change may come meanwhile).
        self._rendering.add(table.id)
        budget = getattr(self.bot, "global_budget", None)
        retry: BaseException | None = None
        try:
            # The pictures first, without the lock: waiting behind the drawings clicks wait for
            # (cogs/table/pictures.py Turns), they must not hold this table's clicks up. What the
            # table shows without the lock is committed (a change adopts its draft in one step);
            # under it, the drawing finds them made, or makes what changed meanwhile.
            await self._prepare(table)
            # Then this redraw's turn at the bot's global budget, before drawing: the drawing
            # is of the moment it may go out, with whatever changed while it waited.
            if budget is not None:
                await budget.take_ahead(Priority.REDRAW)
            # Draw under the lock, so a change half-way through its commit is never drawn; send
            # outside it, so clicks never wait on Discord. (What takes long to draw, an image, is
            # made off the loop: the referee's ``draw`` awaits it.)
            async with table.lock:
                self._dirty.discard(table.id)  # every change committed so far is in this drawing
                drawing = await self._draw(table, counted=False)  # asked for just above
                message_id = table.table_message_id
            shows = self._shown.get(table.id)
            if shows is None or (shows.message_id, shows.fingerprint) != (message_id, fingerprint(drawing)):
                # Otherwise the message shows exactly this already: a call saved, the token back.
                self.spent(table)
                message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(message_id)

                async def edit(attachments: list[Attachment]) -> discord.Message:
                    return await message.edit(**table_message(drawing, attachments), allowed_mentions=NOBODY)

                held = shows.held if shows is not None else None
                edited = await keeping(edit, drawing.layout, held, message_id)
                self.drawn(table, message_id, drawing, edited)
            if table.unreachable_since is not None:
                self._reached(table)
            self._too_large.discard(table.id)
        except (discord.HTTPException, OSError, LayoutTooLarge) as error:
            self._shown.pop(table.id, None)  # not known what it shows now: draw in full next time
            failure = classify(error)
            if failure is Failure.TOO_LARGE:
                self._drawing_too_large(table, error)
            elif failure is Failure.MESSAGE_GONE:
                await self._repost(table)
            elif failure.unreachable:
                self._unreachable(table, failure)
            elif failure is Failure.TRANSIENT:
                retry = error
            else:
                log.warning("could not edit table %s message: %s", table.id, error)
        except TryLater as error:  # the re-post met Discord's trouble
            retry = error
        finally:
            self._rendering.discard(table.id)
            if budget is not None:
                budget.refund()  # a token taken ahead and not spent (nothing sent, or a failure first)
        if retry is not None:
            self._dirty.discard(table.id)  # the retry draws whatever is latest then
            raise retry if isinstance(retry, TryLater) else TryLater(retry)
        if table.id in self._dirty:
            self._dirty.discard(table.id)
            self.request(table)

    def _drawing_too_large(self, table: Table, error: BaseException) -> None:
        """Failure.TOO_LARGE: the message keeps its last drawing (sending this one again would
        fail the same way, so it is not retried); the next change draws afresh. Logged once
        while it lasts, saying what the drawing held."""
        if table.id not in self._too_large:
            self._too_large.add(table.id)
            log.warning(
                "table %s (%s, version %s): its message keeps its last drawing, as the new one is "
                "too large for Discord: %s",
                table.id, table.game.key, table.version, error,
            )  # fmt: skip

    async def _repost(self, table: Table) -> None:
        """Someone deleted the table message: post the table again (its buttons live there)."""
        async with table.lock:
            drawing = await self._draw(table)
        try:
            channel = self.bot.get_partial_messageable(table.channel_id)
            message = await channel.send(
                view=drawing.layout.view, files=drawing.files(), allowed_mentions=NOBODY
            )
        except (discord.HTTPException, OSError, LayoutTooLarge) as error:
            failure = classify(error)
            if failure is Failure.TOO_LARGE:
                self._drawing_too_large(table, error)  # posted again by the next change that fits
            elif failure.unreachable:
                self._unreachable(table, failure)
            elif failure is Failure.TRANSIENT:
                raise TryLater(error) from error  # the render is tried again, and re-posts then
            else:
                log.warning("could not post table %s again: %s", table.id, error)
            return
        log.info("table %s message was deleted; posted it again as %s", table.id, message.id)
        table.table_message_id = message.id
        self.drawn(table, message.id, drawing, message)
        if table.unreachable_since is not None:
            self._reached(table)
        try:
            await self.store.set_table_message(table.id, message.id)
        except Exception:  # the message stands; after a restart the old id re-posts once more
            log.exception("could not store table %s's new message", table.id)

    # --- other posts -----------------------------------------------------------------------

    async def say(
        self,
        table: Table,
        text: str,
        allowed: discord.AllowedMentions,
        landed: Callable[[discord.Message], None] | None = None,
        due: Callable[[], bool] | None = None,
    ) -> discord.Message | None:
        """A short public line; ``allowed`` says exactly whom it may notify (cogs/table/pings.py);
        ``due``: whether it is still true when its turn to be sent comes (see ``Post``)."""
        return await self._queue(table, Post({"content": text}, landed, allowed, due))

    async def post(
        self,
        table: Table,
        embed: discord.Embed,
        items: list[discord.ui.Item[Any]] | None = None,
        files: list[discord.File] | None = None,
    ) -> discord.Message | None:
        """Post ``embed`` (results, a round's end) after the table's earlier posts. Returns the
        message if it went out now; otherwise it goes out once Discord takes it again."""
        kwargs: dict[str, Any] = {"embed": embed}
        if items:
            kwargs["view"] = view_of(items)
        if files:
            kwargs["files"] = files
        return await self._queue(table, Post(kwargs))

    async def edit_line(self, table: Table, message_id: int, text: str) -> bool:
        """Edit a short line posted earlier (e.g. a turn reminder kept in place). False if it is
        gone; TryLater if Discord said so."""
        try:
            message = self.bot.get_partial_messageable(table.channel_id).get_partial_message(message_id)
            await message.edit(content=text, allowed_mentions=NOBODY)  # an edit never notifies
            return True
        except (discord.HTTPException, OSError) as error:
            if classify(error) is Failure.TRANSIENT:
                raise TryLater(error) from error
            log.info("could not edit line at table %s: %s", table.id, error)
            return False

    async def delete_line(self, table_id: int, channel_id: int, message_id: int) -> None:
        """Delete a short line posted earlier (a turn line a newer one replaced). One already
        gone needs nothing more; TryLater if Discord said so."""
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
        except (discord.HTTPException, OSError) as error:
            if classify(error) is Failure.TRANSIENT:
                raise TryLater(error) from error
            log.info("could not delete a line at table %s: %s", table_id, error)

    async def _queue(self, table: Table, post: Post) -> discord.Message | None:
        self._posts.setdefault(table.id, deque()).append(post)
        await self.effects.run(f"posts{table.id}", partial(self._send_posts, table.id))
        return post.message

    async def _send_posts(self, table_id: int) -> None:
        """Send the table's queued posts in order. A transient failure stops at that post (the
        retry starts there, so nothing overtakes it); a post Discord refuses for good is dropped,
        and a channel that is gone drops them all (the table is held, then abandoned)."""
        if table_id in self._posting:
            return  # the one sending now takes the new post along
        table = self.table(table_id)
        queue = self._posts.get(table_id)
        if table is None or not queue:
            self._posts.pop(table_id, None)
            return
        self._posting.add(table_id)
        try:
            channel = self.bot.get_partial_messageable(table.channel_id)
            while queue:
                post = queue[0]
                if post.due is not None and not post.due():
                    queue.popleft()  # its moment passed while Discord was away: said no more
                    continue
                try:
                    message = await channel.send(allowed_mentions=post.allowed, **post.kwargs)
                except (discord.HTTPException, OSError) as error:
                    failure = classify(error)
                    if failure is Failure.TRANSIENT:
                        raise TryLater(error) from error
                    if failure.unreachable:
                        queue.clear()
                        self._unreachable(table, failure)
                    else:
                        queue.popleft()
                        log.warning("could not post to table %s: %s", table.id, error)
                    continue
                queue.popleft()
                post.message = message
                if post.landed is not None:
                    post.landed(message)
            self._posts.pop(table_id, None)
        finally:
            self._posting.discard(table_id)

    def forget_posts(self, table_id: int) -> None:
        self._posts.pop(table_id, None)
        self.effects.forget(f"posts{table_id}")

    def spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
