"""What a table looks like: every drawing of it, from committed state, with no Discord calls.

``TableDrawing`` draws the table message for whatever the table is (lobby, game, result, or ended
with a note), the running clock, each seat's panel, `/table status` and the line a thread table
keeps in its parent channel, each a ``Drawing`` that cogs/table/layout.py lays out as the V2
message sent. The game-specific parts come from each game's GameUI. The twin-state
secrecy audit (tests/fault/twins.py) renders through here, so anything added to a drawing is
checked for leaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import discord

from cogs.table import latest
from cogs.table.buttons import TableButton
from cogs.table.languages import Languages
from cogs.table.layout import Download, Drawing, Picture
from cogs.table.lobby import Lobby
from cogs.table.model import Table
from cogs.table.notes import worded
from cogs.table.pictures import Pictures, Sketch
from cogs.table.rendered import Upload
from cogs.texts import LANGUAGES, N_, SOURCE, Texts, join, speaking
from rules.base import Event, IllegalAction

T = Texts(__name__)

# What a running timer will do, by the engine's timer name (a game may say better: clock_text);
# worded when the clock is drawn.
TIMER_TEXT = {
    "stall": N_("if nobody plays, the referee calls a stall"),
    "idle": N_("the leader's time to lead runs out"),
    "next_round": N_("the next round starts"),
    "signals": N_("signal choosing ends"),
    "lull": N_("if nobody swaps, four new cards are dealt"),
    "lull_fallback": N_("four new cards are dealt"),
    "pile": N_("pile building ends (the referee builds the rest)"),
    "bid": N_("the bid's time runs out"),
    "draw": N_("the draw's time runs out"),
    "prompt": N_("the decision's time runs out"),
    "pack": N_("the dealer's time to pick a pack runs out"),
    "choosing": N_("choosing ends (the referee fills in the rest)"),
    "reveal_step": N_("the next gift is unwrapped"),
    "move": N_("the move's time runs out (the referee moves)"),
}

CLOSED_TITLES = {
    "cancelled": N_("cancelled"),
    "stopped": N_("stopped"),
    "abandoned": N_("abandoned"),
    "failed": N_("cleared"),
}


@dataclass(frozen=True)
class Announcement:
    """A public line a game wants in the channel (``GameUI.announcements``), and whom it is for.

    ``text`` is markdown with names escaped as drawings have them (``Table.name``) and no mention
    in it. ``seats`` are the seats it is for: the people in them are named at its start ("<@bea>,
    your turn…") and the ping policy (cogs/table/pings.py) decides which of them to notify. A line
    for seats none of whom is a person (computers need no telling) is not posted; a line for
    nobody (news: "Time is up for Bea") is posted as it is, pinging nobody."""

    text: str
    seats: tuple[int, ...] = ()


class GameUI(Protocol):
    """What a game cog supplies so the shared table can draw it.

    Optional extras, looked up with getattr so simple games need not define them:
    ``table_sketches(table)`` and ``panel_sketches(table, seat, nav) -> list[Sketch]``
    (cogs/table/pictures.py: the cards, Trap's board) say what each picture shows and how to draw
    it; the table draws them off the loop, in the pictures' worker process, once per distinct
    content, before the message is drawn. ``table_pictures(table)`` and ``panel_pictures(table,
    seat) -> list[Picture]`` hand out pictures whose bytes are already made (they are drawn as
    panels are, without awaiting, so nothing slow may happen there), each with its alt text
    (cogs/table/layout.py); ``table_downloads(table) -> list[Download]`` (files on the table
    message, e.g. a finished game's record);
    ``lobby_lines(table) -> list[str]`` (e.g. teams), ``public_cooldown(action) -> float | None``
    (seconds between uses of a public button per player, e.g. gestures), ``hand_label`` (the
    "My hand" button's text), ``announcements(table, events) -> list[Announcement]`` (short
    public lines, and the seats they are for: "your decision…" for Bea's seat), ``signal_rows(table) ->
    list[dict]`` (a finished game's secret signals, stored in the signals table), ``hand_emoji``,
    and ``version_free(action) -> bool``: actions that mean the same whatever changed since the
    panel was drawn (a swap naming both cards), so a stale panel's click goes to the engine,
    which refuses it with its own reason if it no longer fits, instead of "too slow" — bounded by
    ``epoch(table) -> hashable`` (e.g. the round): a click never crosses into a new epoch.
    For `/table status`: ``waiting_on(table) -> list[int] | None`` (the seats the table waits on;
    None: anyone may act) and ``waiting_text(table) -> str | None`` (the whole "Waiting on" answer
    where it is not a list of people, e.g. "nobody: the gifts unwrap by themselves").
    ``final_items(table)``: buttons the finished table message keeps (e.g. History).
    ``events_applied(table, events)``: called once per change with its events (live or caught
    up), for what the UI keeps between drawings; ``event_line`` is pure, since a Latest line is
    worded again each time it is drawn.
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

    def event_line(self, table: Table, event: Event) -> str:
        """An event in words, from its data and the seats' names now; pure (a Latest line is
        worded again each time it is drawn)."""
        ...

    def refusal(self, table: Table, error: IllegalAction) -> str:
        """What the rules refused, in words: the engine's code and parameters."""
        ...

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None: ...

    def final_embed(self, table: Table) -> discord.Embed: ...

    def options_lines(self, table: Table) -> list[str]: ...


class TableDrawing:
    """Every drawing in its reader's language (cogs/table/languages.py): the table message and its
    thread line in the table's, a seat's panel in its person's, and what is drawn for whoever
    asked (`/table status`, a replay's frames: ``status``, ``latest``, ``table_embed``) in the
    language of the moment, which is theirs."""

    def __init__(self, uis: dict[str, GameUI], lobby: Lobby, languages: Languages | None = None) -> None:
        self.uis = uis
        self.lobby = lobby
        self.art = Pictures()  # every game's card art, drawn once per distinct content
        self.languages = languages

    def seat_language(self, table: Table, seat: int) -> str:
        """The language of a seat's panel: its person's, else the table's."""
        return self.languages.seat(table, seat) if self.languages is not None else table.language

    def draw(self, table: Table) -> Drawing:
        """The table message for whatever the table is now: lobby, game, result, or ended."""
        with speaking(table.language):
            return self._draw(table)

    def _draw(self, table: Table) -> Drawing:
        if table.status == "lobby":
            return Drawing(self.lobby.embed(table), self.lobby.items(table))
        if table.status in CLOSED_TITLES or table.state is None:  # ended without results
            word = CLOSED_TITLES.get(table.status)
            if table.status == "cancelled" and table.state is not None:
                word = CLOSED_TITLES["stopped"]  # a game under way is stopped; a lobby is cancelled
            embed = discord.Embed(
                title=T.gettext(
                    "{game} — {ended}", game=table.game.title, ended=T.gettext(word) if word else table.status
                ),
                description=worded(table.closed_note)
                or T.gettext("This table has ended. No results were recorded."),
            )
            return Drawing(embed)
        items = self.table_items(table)
        # Latest lines left out for room (cogs/table/layout.py) are in the game's History, where
        # the table message carries its button (Trap's final table has its move record instead).
        history = any(getattr(item, "verb", None) == "history" for item in items)
        return Drawing(
            self.uis[table.game.key].table_embed(table),
            items,
            self.pictures(table),
            self.downloads(table),
            latest=self.latest(table),
            clock=self.clock(table),
            extra=[*self.away(table), *self.unseen(self._sketches(table)), *self.spoken(table)],
            earlier=T.gettext("the table's 📜 History") if history else None,
        )

    @staticmethod
    def away(table: Table) -> list[str]:
        """Who is away (out of time twice in a row, cogs/table/pings.py), said on the table: the
        others see why the referee plays for them, and that they are not pinged until they play."""
        seats = table.away() if table.status == "playing" else []
        if not seats:
            return []
        names = join([f"**{table.name(seat)}**" for seat in seats])
        return [
            T.ngettext(
                "💤 away: {names} (out of time twice; not pinged again until they play)",
                "💤 away: {names} (out of time twice; not pinged again until they play)",
                len(seats),
                names=names,
            )
        ]

    @staticmethod
    def spoken(table: Table) -> list[str]:
        """The table's language in its own name ("🌐 Español"), small, under a game that is not in
        English: everyone sees which language the table speaks (each person's panel speaks
        theirs). English tables say nothing, as before there were languages."""
        if table.language == SOURCE:
            return []
        return [f"-# 🌐 {LANGUAGES[table.language]}"]

    def unseen(self, sketches: list[Sketch]) -> list[str]:
        """In words, each picture that could not be drawn (cogs/table/pictures.py): the message
        goes out without it, and says what it would have shown."""
        unavailable = self.art.unavailable(sketches)
        return [T.gettext("🖼️ *Picture unavailable:* {alt}", alt=alt) for alt in unavailable]

    def latest(self, table: Table, count: int = 5) -> list[str]:
        """The table's last ``count`` Latest lines, worded now (cogs/table/latest.py)."""
        event_line = self.uis[table.game.key].event_line
        return [latest.line(table, entry, event_line) for entry in table.log[-count:]]

    def table_embed(self, table: Table) -> discord.Embed:
        """The table as an embed, Latest lines and clock as fields (a replay's frames)."""
        embed = self.uis[table.game.key].table_embed(table)
        if lines := self.latest(table):
            embed.add_field(
                name=T.pgettext("table field", "Latest"), value="\n".join(lines)[:1024], inline=False
            )
        if clock := self.clock(table):
            embed.add_field(name=T.pgettext("table field", "⏰ Clock"), value=clock, inline=False)
        return embed

    def clock(self, table: Table) -> str | None:
        """The running timer as a Discord relative timestamp ("in 12 seconds"), which every
        client counts down by itself: no edit is needed to keep it current."""
        if table.status != "playing" or table.deadline_at is None or table.state is None:
            return None
        timer = next(
            (q.timer for q in table.state.quiet_actions() if q.action == table.deadline_action), None
        )
        custom = getattr(self.uis[table.game.key], "clock_text", None)
        text = custom(table, timer) if custom is not None else None
        text = text or T.gettext(TIMER_TEXT.get(timer or "", N_("the referee steps in")))
        return f"{text[0].upper()}{text[1:]} <t:{int(table.deadline_at.timestamp())}:R>"

    async def ready(self, table: Table, *, for_click: bool = False, counted: bool = True) -> Drawing:
        """``draw``, with what takes long to make (the pictures) made first, off the event
        loop. Hold the table's lock while calling it, so both are of committed state.
        ``for_click``: a person waits for it (their pictures go to the workers first); not
        ``counted``: asked for just before (``prepare_table``), see ``Pictures.ready``."""
        with speaking(table.language):
            await self._prepare_table(table, for_click=for_click, counted=counted)
            return self._draw(table)

    async def prepare_table(self, table: Table, *, for_click: bool = False, counted: bool = True) -> None:
        """Make what the table message shows that takes long (its pictures), off the event loop,
        without drawing it."""
        with speaking(table.language):  # words drawn in pictures are the table's too
            await self._prepare_table(table, for_click=for_click, counted=counted)

    async def _prepare_table(self, table: Table, *, for_click: bool = False, counted: bool = True) -> None:
        with_files = table.status != "lobby" and table.status not in CLOSED_TITLES and table.state is not None
        if with_files:
            await self.art.ready(self._sketches(table), for_click=for_click, counted=counted)

    def _sketches(self, table: Table) -> list[Sketch]:
        hook = getattr(self.uis[table.game.key], "table_sketches", None)
        return list(hook(table)) if hook is not None and table.state is not None else []

    def _panel_sketches(self, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        hook = getattr(self.uis[table.game.key], "panel_sketches", None)
        return list(hook(table, seat, nav)) if hook is not None and table.state is not None else []

    async def prepare_panel(
        self,
        table: Table,
        seat: int,
        nav: str | None = None,
        *,
        for_click: bool = False,
        counted: bool = True,
    ) -> None:
        """Draw the seat's panel pictures off the event loop (in worker processes), so that drawing
        the panel (which does not await) finds them made. Hold the table's lock: they are of
        committed state. ``for_click``: the panel answers a click (its pictures go first)."""
        with speaking(self.seat_language(table, seat)):
            sketches = self._panel_sketches(table, seat, nav)
        await self.art.ready(sketches, for_click=for_click, counted=counted)

    def foresee_panel(self, draft: Table, seat: int) -> None:
        """Start drawing the pictures ``seat``'s panel will show once ``draft`` is committed (a
        person's own action: their click is answered with that panel), while the commit is under
        way. Nothing is shown from it: the answer draws from committed state, and a draft that
        fails to commit only leaves a drawing in the content cache."""
        with speaking(self.seat_language(draft, seat)):
            self.art.foresee(self._panel_sketches(draft, seat))

    def shutdown(self) -> None:
        """Stop the pictures' worker processes (the referee is stopping)."""
        self.art.shutdown()

    def pictures(self, table: Table) -> list[Picture]:
        hook = getattr(self.uis[table.game.key], "table_pictures", None)
        found = list(hook(table)) if hook is not None else []
        return found + self.art.pictures(self._sketches(table))

    def downloads(self, table: Table) -> list[Download]:
        hook = getattr(self.uis[table.game.key], "table_downloads", None)
        return list(hook(table)) if hook is not None else []

    def files(self, table: Table) -> list[discord.File]:
        """The table's pictures and downloads as files (a replay's embed frames refer to them)."""
        attached: list[Picture | Download] = [*self.pictures(table), *self.downloads(table)]
        return [Upload(a.data, a.filename) for a in attached]

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        ui = self.uis[table.game.key]
        if table.status == "finished" and (final := getattr(ui, "final_items", None)) is not None:
            return list(final(table))
        if table.status != "playing":
            return []
        # A game's own labels: a text, or worded when drawn (a method given the table).
        hand, dm = getattr(ui, "hand_label", None), getattr(ui, "dm_label", None)
        label = (hand(table) if callable(hand) else hand) or T.pgettext("button", "My hand")
        dm_label = (dm(table) if callable(dm) else dm) or T.pgettext("button", "Hand by DM")
        emoji = getattr(ui, "hand_emoji", "🃏")
        items: list[discord.ui.Item[Any]] = [
            TableButton(table.id, "hand", label=label, emoji=emoji, style=discord.ButtonStyle.primary, row=0),
            TableButton(table.id, "dm", label=dm_label, emoji="✉️", row=0),
        ]
        items.extend(ui.table_items(table))
        return items

    def panel(self, table: Table, seat: int, note: str | None, nav: str | None) -> Drawing:
        """A seat's private panel, in its person's language (``note`` is made by the caller: for
        the same person)."""
        with speaking(self.seat_language(table, seat)):
            return self._panel(table, seat, note, nav)

    def _panel(self, table: Table, seat: int, note: str | None, nav: str | None) -> Drawing:
        ui = self.uis[table.game.key]
        embed, items = ui.panel(table, seat, note, nav)
        hook = getattr(ui, "panel_pictures", None)
        pictures = list(hook(table, seat)) if hook is not None else []
        sketches = self._panel_sketches(table, seat, nav)
        pictures += self.art.pictures(sketches)
        return Drawing(embed, items, pictures, clock=self.clock(table), extra=self.unseen(sketches))

    def waiting_on(self, table: Table) -> list[int] | None:
        """The seats the table waits on, from public information only (None: anyone may act, as
        in the real-time games). A game may say better with ``GameUI.waiting_on``."""
        custom = getattr(self.uis[table.game.key], "waiting_on", None)
        if custom is not None:
            found = custom(table)
            return list(found) if found is not None else None
        if table.state is None:
            return None
        view = table.state.view(None)
        prompt = view.get("prompt")
        if isinstance(prompt, dict) and isinstance(prompt.get("seat"), int):
            return [prompt["seat"]]
        for key in ("to_move", "to_bid", "drawer"):
            if isinstance(view.get(key), int):
                return [view[key]]
        waiting = view.get("waiting")
        if isinstance(waiting, list) and all(isinstance(w, int) for w in waiting):
            return waiting
        return None

    async def status(self, table: Table) -> Drawing:
        """`/table status`, with what takes long to draw (Trap's board) made first, off the event
        loop. Hold the table's lock while calling it."""
        if table.status != "lobby":
            await self._prepare_table(table, for_click=True)  # the person who asked waits for it
        return self.status_drawing(table)

    def status_drawing(self, table: Table) -> Drawing:
        """`/table status`: what a spectator sees (with Trap's board), whom the table waits on,
        and the clock; no buttons (it is a private look, not a second table)."""
        if table.status == "lobby":
            return Drawing(self.lobby.embed(table))
        drawing = self._draw(table)  # in the asker's language: only they see it
        drawing.items = []
        drawing.extra.append(T.gettext("**Waiting on** · {waiting}", waiting=self.waiting_text(table)))
        return drawing

    def waiting_text(self, table: Table) -> str:
        """Whom the table waits on, in words: names, "anyone", or why nobody needs to act."""
        custom = getattr(self.uis[table.game.key], "waiting_text", None)
        if custom is not None and (text := custom(table)):
            return str(text)
        waiting = self.waiting_on(table)
        if waiting is None:
            return T.gettext("anyone: play as soon as you can")
        if waiting:
            return ", ".join(f"**{table.name(s)}**" for s in waiting)
        # Nobody has to act: say what happens instead of a bare "nobody".
        if self.clock(table):
            return T.gettext("nobody: the referee takes the next step (see the ⏰ countdown)")
        return T.gettext("nobody: the referee takes the next step")

    def thread_line(self, table: Table) -> str:
        """The line a thread table keeps in its parent channel."""
        with speaking(table.language):
            return self._thread_line(table)

    def _thread_line(self, table: Table) -> str:
        where = f"<#{table.channel_id}>"
        host = next(
            (s.name for s in table.seats if s.user_id == table.host_id),
            T.pgettext("a host nobody knows", "someone"),
        )
        game = table.game.title
        if table.status == "lobby":
            return T.gettext(
                "🎲 **{host}** opened a **{game}** table in {place}. Press **Join** to sit down.",
                host=host,
                game=game,
                place=where,
            )
        if table.status == "playing":
            return T.gettext(
                "🎲 A **{game}** game is under way in {place}: come and watch.", game=game, place=where
            )
        if table.status == "finished":
            return T.gettext(
                "🏁 The **{game}** game in {place} is over: the results are there.", game=game, place=where
            )
        return T.gettext("The **{game}** table in {place} was closed.", game=game, place=where)
