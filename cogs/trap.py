"""Trap on Discord: `/trap new|move|rules`, the public board and each player's move panel.

Only drawing and commands live here; every rule is in rules/trap/ and every table mechanic in
cogs/table/. Everything in Trap is public, so the table draws the spectator view (with a PNG of the
board from cogs/drawings/trap_board.py, its move record from cogs/drawings/trap_record.py) and a
panel draws its seat's view plus the legal actions (their buttons from cogs/drawings/trap_panel.py).
The words of what happened (events, refusals, how the game ended) are in cogs/words/trap.py.

A panel shows the board once, as a picture marking what may be picked, and the choice in one
select, last (issue 33: a panel fits one phone screen); its controls are cogs/drawings/trap_panel.py:
- Piece Drop: the free points.
- Arrow Drop: the free arrows once they fit one select; before that a point, then its arrows.
- Main play: every legal move.
Past 25 options a select is paged. The in-between steps are "nav-…" options and buttons:
panel-only state, never an engine action.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import partial
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.drawings.trap_board import render_board, render_panel_board
from cogs.drawings.trap_panel import (
    PAWN_EMOJI,
    Controls,
    arrow_controls,
    drop_controls,
    move_controls,
    refresh_button,
)
from cogs.drawings.trap_record import MOVE_TEXT, Record, colour, tidy_move, turn_of, who
from cogs.drawings.trap_words import board_alt, board_words, marks_alt
from cogs.help import send_rules
from cogs.table.buttons import TableButton
from cogs.table.common import reply
from cogs.table.drawing import Announcement
from cogs.table.layout import Download
from cogs.table.lifecycle import LANGUAGE_CHOICES, LANGUAGE_OPTION, open_table_command
from cogs.table.model import Table
from cogs.table.options import SPEED_CHOICES, speed_name
from cogs.table.pictures import Sketch
from cogs.texts import N_, Texts
from cogs.words import trap as words
from rules.base import Event, IllegalAction
from rules.trap import COLUMNS, LABELS, Trap, TrapState, TrapView

T = Texts(__name__)

log = logging.getLogger(__name__)

GAME = Trap()
BOARD_FILE = "board.png"
PANEL_BOARD_FILE = "your-board.png"
SPEED_HELP = {
    "off": N_("no move clock (the referee still moves for you after 15 minutes)"),
    "relaxed": N_("90 s per move, then the referee moves for you"),
    "fast": N_("30 s per move, then the referee moves for you"),
}
# What the player to move does in each phase, as in "alice to drop a pawn on an empty point".
PHASE_TASK = {
    "piece_drop": N_("drop a pawn on an empty point"),
    "arrow_drop": N_("drop an arrow on an empty line"),
    "main": N_("move a pawn along an arrow"),
}
MOVES_FILE = "trap-moves.txt"
# What the board picture's marks mean, by the kind of the last action (cogs/drawings/trap_board.py draws
# them: HIGHLIGHT, LAST_FROM and FLIPPED).
BOARD_LEGEND = {
    "drop": N_("🟡 yellow ring: the pawn just dropped"),
    "arrow": N_("🟠 orange arrow: the arrow just dropped"),
    "move": N_(
        "🟡 yellow ring: where the last move ended · 🔵 blue ring: where it started · "
        "🟠 orange arrows: just flipped · orange ✗: a piece just captured"
    ),
}


# --- small helpers ------------------------------------------------------------------------------


def _state(table: Table) -> TrapState:
    """A Trap table's engine state, so that its views are typed (``TrapView``)."""
    state = table.state
    assert isinstance(state, TrapState), f"table {table.id} holds {type(state).__name__}, not a Trap game"
    return state


def _task(phase: str) -> str:
    """What the player to move does in ``phase``: "drop a pawn on an empty point"."""
    return T.gettext(PHASE_TASK[phase]) if phase in PHASE_TASK else T.pgettext("task", "play")


def _board_key(view: TrapView) -> str:
    """What the board picture shows: the whole spectator view (every piece, arrow and line, the
    last move, whose turn, the prompt, the result), as canonical JSON. Two tables in the same
    position share a drawing, and any change of the view is a new one."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


# --- the UI ------------------------------------------------------------------------------------


class TrapUI:
    key = GAME.key

    def __init__(self, live: Callable[[int], bool] = lambda table_id: True) -> None:
        # Whether a table id is still live: what we keep per table is dropped once it is not
        # (a stopped table never says goodbye).
        self._live = live
        self.records: dict[int, Record] = {}
        # Table id -> the turn we last pinged about, so each turn is announced at most once.
        self._announced: dict[int, tuple[Any, ...]] = {}
        # Table id -> the turn of the last committed change (see panel: a change mid-commit).
        self._committed: dict[int, tuple[Any, ...]] = {}

    @property
    def hand_label(self) -> str:
        """The table's "My hand" button: a player's own move panel."""
        return T.pgettext("button", "My moves")

    # --- lobby and table ---------------------------------------------------------------------

    def options_lines(self, table: Table) -> list[str]:
        options = table.options
        n = options.size
        last = f"{COLUMNS[n - 1]}{n}"
        if options.variant == "king":
            variant = T.gettext("King (capture the opposing King)")
        else:
            variant = T.gettext("basic (capture everything)")
        if options.quick_setup:
            setup = T.gettext("quick (random arrows)")
        else:
            setup = T.gettext("full (players drop the arrows)")
        speed_help = T.gettext(SPEED_HELP[table.speed]) if table.speed in SPEED_HELP else ""
        return [
            T.gettext("Variant: {variant}", variant=variant),
            T.ngettext(
                "Board: {size} × {size} (a1–{last}), {n} pawn each",
                "Board: {size} × {size} (a1–{last}), {n} pawns each",
                options.pawns,
                size=n,
                last=last,
            ),
            T.gettext("Setup: {setup}", setup=setup),
            T.gettext("Speed: {speed} — {help}", speed=speed_name(table.speed), help=speed_help),
            T.gettext("Seat 1 plays red (A, drops first); seat 2 plays blue (B, moves first)."),
        ]

    def table_sketches(self, table: Table) -> list[Sketch]:
        """The board from the spectator's view, drawn like every game's pictures: once per
        position (the content cache), in the pictures' worker process (Pillow takes about 10 ms a
        board, most of it encoding the PNG), before the table message is drawn."""
        view = _state(table).view(None)
        names = [table.plain_name(seat) for seat in (0, 1)]
        # The words are made here, in the table's language: the worker process has none.
        words = board_words(view)
        draw = partial(render_board, cast("dict[str, Any]", view), dict(words))  # text: a type
        key = ("trap-board", _board_key(view), json.dumps(words, sort_keys=True))
        return [Sketch(BOARD_FILE, key, draw, board_alt(view, names))]

    def table_downloads(self, table: Table) -> list[Download]:
        view, record = _state(table).view(None), self.records.get(table.id)
        if view["phase"] != "over" or record is None or view["result"] is None:
            return []
        # The final table message keeps the whole game; the results show only its end.
        text = words.record_heading(table, view["result"]["winners"], view["result"]["reason"]) + "\n"
        return [Download(MOVES_FILE, (text + record.text(markdown=False) + "\n").encode())]

    def table_embed(self, table: Table) -> discord.Embed:
        view = _state(table).view(None)
        n = view["size"]
        over = view["phase"] == "over"
        variant = (
            T.pgettext("variant", "King variant")
            if view["variant"] == "king"
            else T.pgettext("variant", "basic")
        )
        if over:
            title = T.gettext("Trap — {size} × {size}, {variant} — game over", size=n, variant=variant)
        else:
            title = T.gettext("Trap — {size} × {size}, {variant}", size=n, variant=variant)
        embed = discord.Embed(
            title=title,
            colour=discord.Colour.dark_grey()
            if over
            else (discord.Colour.red() if view["to_move"] == 0 else discord.Colour.blue()),
        )
        lines = [
            T.gettext(
                "{pawn_a} {player_a} vs {pawn_b} {player_b}",
                pawn_a=PAWN_EMOJI[0],
                player_a=who(table, 0),
                pawn_b=PAWN_EMOJI[1],
                player_b=who(table, 1),
            )
        ]
        if over:
            assert view["result"] is not None  # a game over has its result
            lines.append("🏁 " + words.ending(table, view["result"]["winners"], view["result"]["reason"]))
        else:
            seat = view["to_move"]
            assert seat is not None  # someone is to move until the game is over
            lines.append(
                T.gettext("▶️ {player} to {task}.", player=who(table, seat), task=_task(view["phase"]))
            )
            lines.append(
                T.gettext(
                    "Press **{button}**, or type `/trap move` (e.g. `c3` or `c3>c4`).", button=self.hand_label
                )
            )
        embed.description = "\n".join(lines)
        for seat in (0, 1):
            parts = [T.gettext("on the board: {n}", n=view["piece_counts"][seat])]
            if view["pawns_to_drop"][seat]:
                parts.append(T.gettext("to drop: {n}", n=view["pawns_to_drop"][seat]))
            lost = view["captured"][seat]
            if lost and any(c["king"] for c in lost):
                parts.append(T.gettext("lost: {n} (incl. the King)", n=len(lost)))
            elif lost:
                parts.append(T.gettext("lost: {n}", n=len(lost)))
            value = " · ".join(parts)
            embed.add_field(name=f"{PAWN_EMOJI[seat]} {table.name(seat)}"[:256], value=value, inline=True)
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        # The legend first: a phone shows the footer right under the picture it explains.
        footer = []
        kind = None if view["last"] is None else view["last"]["kind"]
        legend = T.gettext(BOARD_LEGEND[kind]) if kind in BOARD_LEGEND else ""
        if view["phase"] == "arrow_drop":
            footer.append(T.gettext("Arrows to drop: {n}", n=view["arrows_to_drop"]))
        if view["phase"] in ("main", "over") and view["ply"]:
            # "Ply" is chess jargon: a move is what a player makes on their turn. The draw count
            # shows once it is under way (right after a capture it would read "0 moves").
            footer.append(T.gettext("Move {n}", n=view["ply"]))
            if view["quiet_plies"]:
                footer.append(
                    T.ngettext(
                        "{n} move without a capture (a draw at {limit})",
                        "{n} moves without a capture (a draw at {limit})",
                        view["quiet_plies"],
                        limit=view["draw_plies"],
                    )
                )
            if view["repetitions"] > 1:
                footer.append(T.gettext("this position seen {n}×", n=view["repetitions"]))
        if view["stuck"] and not over:
            footer.append(
                T.gettext(
                    "trapped from the start (safe until an arrow next to them flips): {points}",
                    points=", ".join(view["stuck"]),
                )
            )
        text = "\n".join(line for line in (legend, " · ".join(footer)) if line)
        if text:
            embed.set_footer(text=text[:2048])
        return embed

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        return [TableButton(table.id, "history", label=T.pgettext("button", "History"), emoji="📜", row=0)]

    def history(self, table: Table) -> str:
        """The History button: every drop, arrow and move so far, in the notation."""
        record = self.records.get(table.id)
        if record is None:
            return T.gettext("The moves of this game were not recorded.")
        return T.gettext("Trap — the moves so far") + "\n" + record.text()

    # --- events, pings and the end -------------------------------------------------------------
    # The words of what happened are Trap's (cogs/words/trap.py); the UI only hands them on.

    def event_line(self, table: Table, event: Event) -> str:
        return words.event_line(table, event)

    def refusal(self, table: Table, error: IllegalAction) -> str:
        return words.refusal(table, error)

    def describe(self, table: Table, action: str) -> str:
        return words.describe(_state(table).phase, action)

    def announcements(self, table: Table, events: list[Event]) -> list[Announcement]:
        """Ping the person to move when the turn passes to them (a computer needs no ping, and
        someone dropping several pawns in a row was just told)."""
        if not events:
            return []  # a seat changed hands (someone left): nobody's turn changed
        view = _state(table).view(None)
        seat = view["to_move"]
        if seat is None or view["phase"] == "over":
            return []
        actors = [e.seat for e in events if e.seat is not None]
        actors += [e.data["seat"] for e in events if e.kind == "timeout"]
        if actors and actors[-1] == seat:
            return []
        turn = turn_of(view)
        if self._announced.get(table.id) == turn:
            return []
        self._announced[table.id] = turn
        text = T.gettext(
            "your turn at Trap ({colour}, {label}): {task}. Press **{button}** or type `/trap move`.",
            colour=colour(seat),
            label=LABELS[seat],
            task=_task(view["phase"]),
            button=self.hand_label,
        )
        return [Announcement(text, (seat,))]  # a computer's seat is not told (pings.py)

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        return None  # Trap has no rounds

    def final_embed(self, table: Table) -> discord.Embed:
        view = _state(table).view(None)
        result = view["result"]
        assert result is not None  # the final embed is drawn for a game over
        winners = result["winners"]
        embed = discord.Embed(title=words.result_title(table, winners)[:256], colour=discord.Colour.gold())
        lines = ["🏁 " + words.ending(table, result["winners"], result["reason"])]
        for seat in (0, 1):
            medal = "🏆 " if seat in winners and len(winners) == 1 else ""
            left, lost = view["piece_counts"][seat], len(view["captured"][seat])
            lines.append(words.standing(table, seat, left, lost, medal, PAWN_EMOJI[seat]))
        # The record stays until the table is no longer live (see on_change): the table's last
        # redraw, which may come after this post, attaches it as a file.
        record = self.records.get(table.id)
        self._announced.pop(table.id, None)
        self._committed.pop(table.id, None)
        lines.append("")
        if record is None:
            lines.append(T.gettext("*(the move list of this game was not recorded)*"))
        else:
            lines.append(record.summary())
            lines.append(
                T.gettext("📜 The whole move list: `{file}` on the table message above.", file=MOVES_FILE)
            )
        embed.description = "\n".join(lines)[:4096]
        embed.set_footer(text=words.ended_by(result["reason"]))
        return embed

    def committed(self, table_id: int, view: TrapView) -> None:
        """Remember the turn the table's saved state is at (see _changing_panel)."""
        self._committed[table_id] = turn_of(view)

    def on_change(self, table: Table, events: list[Event]) -> None:
        """Referee hook after every accepted change: keep the move list (see Record)."""
        if table.game.key != self.key:
            return
        self.committed(table.id, _state(table).view(None))
        record = self.records.get(table.id)
        if record is None:
            # A new game starts with its opening phase event; anything else means we missed the start.
            starting = any(e.kind == "phase" and e.data.get("phase") == "piece_drop" for e in events)
            record = self.records[table.id] = Record(complete=starting)
        record.add(events)
        for kept in (self.records, self._announced, self._committed):
            for gone in [tid for tid in kept if tid != table.id and not self._live(tid)]:
                del kept[gone]

    # --- the private panel ---------------------------------------------------------------------

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        """The seat's panel: one status line, the board picture (``panel_sketches``), the keyboard
        hint, and the choice last (issue 33: one phone screen; nothing said twice)."""
        view = _state(table).view(seat)
        if table.lock.locked() and self._committed.get(table.id, turn_of(view)) != turn_of(view):
            return self._changing_panel(table, seat)
        phase = view["phase"]
        # No title: one status line says whose turn and colour (issue 33: a phone screen
        # holds the board, the choice and little else); the accent bar is the seat's colour.
        embed = discord.Embed(colour=discord.Colour.red() if seat == 0 else discord.Colour.blue())
        pawn, side, label = PAWN_EMOJI[seat], colour(seat), LABELS[seat]
        lines = []
        if view["legal"]:
            # One line on a phone (about 28 characters): what to do is the select's placeholder.
            lines.append(
                T.gettext("{pawn} **Your turn** ({colour}, {label})", pawn=pawn, colour=side, label=label)
            )
            example = "c3" if phase == "piece_drop" else "c3>c4"
            # Translators: /trap move is the command, by its name in your language; {example} is c3 or c3>c4.
            embed.set_footer(text=T.gettext("Or type /trap move {example}", example=example))
        elif phase != "over":
            other = view["to_move"]
            assert other is not None  # someone is to move until the game is over
            # The opponent by name only (their colour is the other one) and no task: the board
            # shows the phase, and a long name must not push the panel past a phone's screen.
            lines.append(
                T.gettext(
                    "{pawn} You play {colour} ({label}); waiting for **{player}**.",
                    pawn=pawn,
                    colour=side,
                    label=label,
                    player=table.name(other),
                )
            )
        else:
            lines.append(T.gettext("Trap — you play {colour} ({label})", colour=side, label=label))
        if note:
            lines.append(f"⚠️ {note}")
        embed.description = "\n".join(lines)[:4096]
        return embed, self._controls(table, seat, view, nav).items

    def _controls(self, table: Table, seat: int, view: TrapView, nav: str | None) -> Controls:
        """The seat's choice now, and what the board picture marks for it."""
        legal = view["legal"]
        if not legal:
            return Controls([refresh_button(table)])
        if view["phase"] == "piece_drop":
            return drop_controls(table, view, legal, nav)
        if view["phase"] == "arrow_drop":
            return arrow_controls(table, view, legal, nav)
        return move_controls(table, seat, view, nav)

    def panel_sketches(self, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        """The panel's board, drawn for a phone (``render_panel_board``), marking what the seat
        may pick now. Everything in Trap is public: the picture is the spectator's board, and
        its marks are the seat's legal choices, which anyone could work out."""
        state = _state(table)
        view = state.view(None)
        controls = self._controls(table, seat, state.view(seat), nav)
        pick, chosen, targets = controls.pick, controls.chosen, controls.targets
        draw = partial(
            render_panel_board,
            cast("dict[str, Any]", view),  # text: a type
            pick=pick,
            chosen=chosen,
            targets=targets,
        )
        key = ("trap-panel", _board_key(view), json.dumps([pick, chosen, targets]))
        names = [table.plain_name(s) for s in (0, 1)]
        alt = " ".join(part for part in (board_alt(view, names), marks_alt(pick, chosen, targets)) if part)
        return [Sketch(PANEL_BOARD_FILE, key, draw, alt)]

    def _changing_panel(self, table: Table, seat: int) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        """A live panel refresh can land while a move is being saved (the engine has moved, the
        table's version not yet): buttons drawn now would carry the old version and answer "too
        slow", so offer only Refresh; the refresh booked after the change redraws it."""
        embed = discord.Embed(
            title=T.gettext("Trap — you play {colour} ({label})", colour=colour(seat), label=LABELS[seat]),
            description=T.gettext("A move is being made right now; the board follows in a moment."),
            colour=discord.Colour.red() if seat == 0 else discord.Colour.blue(),
        )
        return embed, [refresh_button(table)]


# --- the cog -----------------------------------------------------------------------------------


class TrapCog(commands.Cog):
    # Command names and descriptions are locale_str: cogs.texts.commands translates them for Discord.
    trap = app_commands.Group(
        name=locale_str("trap"),
        description=locale_str("Trap: the two-player shifting maze"),
        guild_only=True,
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        # A finished table still counts: its last redraw attaches the move list (table_downloads).
        self.ui = TrapUI(
            live=lambda table_id: table_id in bot.referee.tables or table_id in bot.referee.finished
        )
        bot.referee.register(self.ui)
        bot.referee.on_change.append(self.ui.on_change)

    async def cog_load(self) -> None:
        """After a restart, rebuild the move list of every live game from its stored actions
        (the engine keeps only the last move, and the final embed must list them all)."""
        try:
            rows = await self.bot.store.live_tables()
            for row in rows:
                if row.game != GAME.key or row.status != "playing" or row.state is None:
                    continue
                await self._rebuild(row)
        except Exception:
            # A missing move list must never stop the bot from starting; the end says it's partial.
            log.exception("could not rebuild Trap move lists")

    async def _rebuild(self, row: Any) -> None:
        options = GAME.parse_options(dict(row.options).get("rules", {}))
        state = GAME.new_game(2, options, row.seed)
        record = Record()
        record.add(list(state.opening_events))
        for action in await self.bot.store.actions(row.id):
            record.add(state.apply(action.seat, action.action))
        if state.to_json() != row.state:
            log.warning("Trap table %s: replay differs from the stored state; move list not rebuilt", row.id)
            return
        self.ui.records[row.id] = record
        self.ui.committed(row.id, state.view(None))

    async def cog_unload(self) -> None:
        if self.ui.on_change in self.bot.referee.on_change:
            self.bot.referee.on_change.remove(self.ui.on_change)

    @trap.command(
        name=locale_str("new"), description=locale_str("Open a Trap table (two players) in this channel")
    )
    # Translators: a slash command option's name: lowercase letters, digits, - or _, no spaces.
    @app_commands.rename(
        variant=locale_str("variant"),
        size=locale_str("size"),
        quick_setup=locale_str("quick_setup"),
        speed=locale_str("speed"),
        thread=locale_str("thread"),
    )
    @app_commands.describe(
        # Translators: basic and king are the choices' names: write them as translated there.
        variant=locale_str("basic: capture everything; king: capture the opposing King"),
        size=locale_str("Points per side: 5 (a1–e5) or 6 (a1–f6)"),
        quick_setup=locale_str("Skip the Arrow Drop: every line gets a random arrow"),
        speed=locale_str("Move clock: relaxed (90 s), fast (30 s) or off"),
        thread=locale_str("Play in a new thread"),
        language=LANGUAGE_OPTION,
    )
    @app_commands.choices(
        variant=[
            # Translators: a choice of /trap new's variant: win by capturing every piece.
            app_commands.Choice(name=locale_str("basic", context="variant"), value="basic"),
            # Translators: a choice of /trap new's variant: win by capturing the opposing King.
            app_commands.Choice(name=locale_str("king", context="variant"), value="king"),
        ],
        speed=SPEED_CHOICES,
        language=LANGUAGE_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        variant: str = "basic",
        size: Literal[5, 6] = 5,
        quick_setup: bool = False,
        speed: str = "relaxed",
        thread: bool = False,
        language: str | None = None,
    ) -> None:
        await open_table_command(
            interaction,
            GAME.key,
            seats=2,
            speed=speed,
            rules={"variant": variant, "size": int(size), "quick_setup": quick_setup},
            thread=thread,
            language=language,
        )

    @trap.command(
        name=locale_str("move"),
        description=locale_str(
            N_("Drop or move from the keyboard: c3 (a pawn) or c3>c4 (an arrow or a move)")
        ),
    )
    # Translators: a slash command option's name: lowercase letters, digits, - or _, no spaces.
    @app_commands.rename(move=locale_str("move"))
    @app_commands.describe(
        move=locale_str("A point such as c3 (Piece Drop), or c3>c4 (an arrow, or a move from c3 to c4)")
    )
    async def move(self, interaction: discord.Interaction[Any], move: str) -> None:
        action = tidy_move(move)
        table = self.bot.referee.table_in(interaction.channel_id)
        if not MOVE_TEXT.fullmatch(action):
            shown = move.strip().replace("`", "")[:40] or T.gettext("(nothing)")
            text = T.gettext(
                "`{typed}` isn't a Trap move. Type a point such as `c3` to drop a pawn, or two "
                "neighbouring points such as `c3>c4` to drop an arrow (pointing to c4) or move your pawn "
                "from c3 to c4.",
                typed=shown,
            )
            seat = (
                table.seat_of(interaction.user.id)
                if table is not None and table.game.key == GAME.key
                else None
            )
            if table is not None and seat is not None and table.status == "playing":
                # A player's typo is one more typed answer: it replaces their last line, as the
                # README says every typed move's answer does (issue 33: both stayed).
                await self.bot.referee.panels.answer_typed(interaction, table, seat, f"⚠️ {text}")
                return
            await reply(interaction, text)
            return
        if table is not None and table.game.key != GAME.key:
            await reply(
                interaction,
                T.gettext("The table in this channel is {game}, not Trap.", game=table.game.title),
            )
            return
        await self.bot.referee.command_action(interaction, action)

    @move.autocomplete("move")
    async def move_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Your legal actions now, filtered by what you've typed (everything in Trap is public)."""
        table = self.bot.referee.table_in(interaction.channel_id)
        if table is None or table.game.key != GAME.key or table.state is None or table.status != "playing":
            return []
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return []
        typed = tidy_move(current)
        legal = [a for a in table.state.legal_actions(seat) if a.startswith(typed)]
        return [app_commands.Choice(name=a, value=a) for a in legal[:25]]

    @trap.command(
        name=locale_str("rules"),
        description=locale_str("How to play Trap, and the house rulings in force"),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(TrapCog(bot))
