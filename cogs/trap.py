"""Trap on Discord: `/trap new|move|rules`, the public board and each player's move panel.

Only drawing and commands live here; every rule is in rules/trap/ and every table mechanic in
cogs/table/. Everything in Trap is public, so the table draws the spectator view (with a PNG of the
board from cogs/drawings/trap_board.py, its move record from cogs/drawings/trap_record.py) and a
panel draws its seat's view plus the legal actions.

Panels only ever offer legal choices, in small steps that fit Discord's 25 components:
- Piece Drop: a 5 × 5 grid of points (6 × 6: pick a row, then the point).
- Arrow Drop: a point (on 6 × 6 its row first), then one of the free arrows touching it.
- Main play: a pawn that can move, then one of its destinations.
The in-between steps are "nav-…" buttons: panel-only state, never an engine action.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import partial
from typing import Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.drawings.trap_board import render_board
from cogs.drawings.trap_record import (
    MOVE_TEXT,
    Record,
    colour,
    count,
    panel_legend,
    row_of,
    text_board,
    tidy_move,
    turn_of,
    who,
    with_names,
)
from cogs.drawings.trap_words import board_alt
from cogs.help import send_rules
from cogs.table.buttons import ActionButton, TableButton
from cogs.table.common import as_text, reply
from cogs.table.drawing import Announcement
from cogs.table.layout import Download
from cogs.table.lifecycle import open_table_command
from cogs.table.model import Table
from cogs.table.pictures import Sketch
from rules.base import Event
from rules.trap import COLUMNS, Trap, TrapState, TrapView

log = logging.getLogger(__name__)

GAME = Trap()
BOARD_FILE = "board.png"
PAWN_EMOJI = ("🔴", "🔵")
KING_EMOJI = "👑"
SPEED_HELP = {
    "off": "no move clock (the referee still moves for you after 15 minutes)",
    "relaxed": "90 s per move, then the referee moves for you",
    "fast": "30 s per move, then the referee moves for you",
}
PHASE_TASK = {
    "piece_drop": "drop a pawn on an empty point",
    "arrow_drop": "drop an arrow on an empty line",
    "main": "move a pawn along an arrow",
}
REASONS = {
    "eliminated": "capturing the last piece",
    "no_moves": "leaving a player without a move",
    "king": "capturing a King",
    "both_kings": "capturing both Kings at once",
    "repetition": "threefold repetition",
    "quiet_plies": "100 moves without a capture",
}
MOVES_FILE = "trap-moves.txt"
# What the board picture's marks mean, by the kind of the last action (cogs/drawings/trap_board.py draws
# them: HIGHLIGHT, LAST_FROM and FLIPPED).
BOARD_LEGEND = {
    "drop": "🟡 yellow ring: the pawn just dropped",
    "arrow": "🟠 orange arrow: the arrow just dropped",
    "move": (
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


def _board_key(view: TrapView) -> str:
    """What the board picture shows: the whole spectator view (every piece, arrow and line, the
    last move, whose turn, the prompt, the result), as canonical JSON. Two tables in the same
    position share a drawing, and any change of the view is a new one."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


# --- the UI ------------------------------------------------------------------------------------


class TrapUI:
    key = GAME.key
    hand_label = "My moves"

    def __init__(self, live: Callable[[int], bool] = lambda table_id: True) -> None:
        # Whether a table id is still live: what we keep per table is dropped once it is not
        # (a stopped table never says goodbye).
        self._live = live
        self.records: dict[int, Record] = {}
        # Table id -> the turn we last pinged about, so each turn is announced at most once.
        self._announced: dict[int, tuple[Any, ...]] = {}
        # Table id -> the turn of the last committed change (see panel: a change mid-commit).
        self._committed: dict[int, tuple[Any, ...]] = {}

    # --- lobby and table ---------------------------------------------------------------------

    def options_lines(self, table: Table) -> list[str]:
        options = table.options
        n = options.size
        variant = (
            "King (capture the opposing King)" if options.variant == "king" else "basic (capture everything)"
        )
        setup = "quick (random arrows)" if options.quick_setup else "full (players drop the arrows)"
        return [
            f"Variant: {variant}",
            f"Board: {n} × {n} (a1–{COLUMNS[n - 1]}{n}), {options.pawns} pawns each",
            f"Setup: {setup}",
            f"Speed: {table.speed} — {SPEED_HELP.get(table.speed, '')}",
            "Seat 1 plays red (A, drops first); seat 2 plays blue (B, moves first).",
        ]

    def table_sketches(self, table: Table) -> list[Sketch]:
        """The board from the spectator's view, drawn like every game's pictures: once per
        position (the content cache), in the pictures' worker process (Pillow takes about 10 ms a
        board, most of it encoding the PNG), before the table message is drawn."""
        view = _state(table).view(None)
        names = [table.plain_name(seat) for seat in (0, 1)]
        draw = partial(render_board, cast("dict[str, Any]", view))
        return [Sketch(BOARD_FILE, ("trap-board", _board_key(view)), draw, board_alt(view, names))]

    def table_downloads(self, table: Table) -> list[Download]:
        view, record = _state(table).view(None), self.records.get(table.id)
        if view["phase"] != "over" or record is None or view["result"] is None:
            return []
        # The final table message keeps the whole game; the results show only its end.
        text = f"Trap, table {table.id}: {as_text(with_names(table, view['result']['summary']))}\n"
        return [Download(MOVES_FILE, (text + record.text(markdown=False) + "\n").encode())]

    def table_embed(self, table: Table) -> discord.Embed:
        view = _state(table).view(None)
        n = view["size"]
        over = view["phase"] == "over"
        variant = "King variant" if view["variant"] == "king" else "basic"
        embed = discord.Embed(
            title=f"Trap — {n} × {n}, {variant}" + (" — game over" if over else ""),
            colour=discord.Colour.dark_grey()
            if over
            else (discord.Colour.red() if view["to_move"] == 0 else discord.Colour.blue()),
        )
        lines = [f"{PAWN_EMOJI[0]} {who(table, 0)} vs {PAWN_EMOJI[1]} {who(table, 1)}"]
        if over:
            assert view["result"] is not None  # a game over has its result
            lines.append(f"🏁 {with_names(table, view['result']['summary'])}")
        else:
            seat = view["to_move"]
            assert seat is not None  # someone is to move until the game is over
            lines.append(f"▶️ {who(table, seat)} to {PHASE_TASK[view['phase']]}.")
            lines.append(f"Press **{self.hand_label}**, or type `/trap move` (e.g. `c3` or `c3>c4`).")
        embed.description = "\n".join(lines)
        for seat in (0, 1):
            value = f"on the board: {view['piece_counts'][seat]}"
            if view["pawns_to_drop"][seat]:
                value += f" · to drop: {view['pawns_to_drop'][seat]}"
            lost = view["captured"][seat]
            if lost:
                kings = " (incl. the King)" if any(c["king"] for c in lost) else ""
                value += f" · lost: {len(lost)}{kings}"
            embed.add_field(name=f"{PAWN_EMOJI[seat]} {table.name(seat)}"[:256], value=value, inline=True)
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        # The legend first: a phone shows the footer right under the picture it explains.
        footer = []
        legend = "" if view["last"] is None else BOARD_LEGEND.get(view["last"]["kind"], "")
        if view["phase"] == "arrow_drop":
            footer.append(f"Arrows to drop: {view['arrows_to_drop']}")
        if view["phase"] in ("main", "over") and view["ply"]:
            # "Ply" is chess jargon: a move is what a player makes on their turn. The draw count
            # shows once it is under way (right after a capture it would read "0 moves").
            footer.append(f"Move {view['ply']}")
            if view["quiet_plies"]:
                quiet = count(view["quiet_plies"], "move")
                footer.append(f"{quiet} without a capture (a draw at {view['draw_plies']})")
            if view["repetitions"] > 1:
                footer.append(f"this position seen {view['repetitions']}×")
        if view["stuck"] and not over:
            footer.append(
                "trapped from the start (safe until an arrow next to them flips): " + ", ".join(view["stuck"])
            )
        text = "\n".join(line for line in (legend, " · ".join(footer)) if line)
        if text:
            embed.set_footer(text=text[:2048])
        return embed

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        return [TableButton(table.id, "history", label="History", emoji="📜", row=0)]

    def history(self, table: Table) -> str:
        """The History button: every drop, arrow and move so far, in the notation."""
        record = self.records.get(table.id)
        if record is None:
            return "The moves of this game were not recorded."
        return f"Trap — the moves so far\n{record.text()}"

    # --- events, pings and the end -------------------------------------------------------------

    def event_line(self, table: Table, event: Event) -> str:
        data = event.data
        if event.kind == "move":
            text = f"**{table.name(event.seat)}** {with_names(table, event.text)}"
            if data.get("flips"):
                text = text.rstrip(".") + f"; arrows flipped: {', '.join(data['flips'])}."
            return text
        if event.kind == "capture":
            owner = data["owner"]
            piece = "King" if data["king"] else "pawn"
            by = "their own move" if data["by"] == owner else f"{table.name(data['by'])}'s move"
            return (
                f"💥 {table.name(owner)}'s {colour(owner)} {piece} on {data['point']} is trapped and "
                f"captured by {by}."
            )
        if event.kind == "timeout":
            return f"⏰ Time ran out for **{table.name(data['seat'])}**: the referee plays for them."
        if event.kind == "game_over":
            return f"🏁 {with_names(table, event.text)}"
        text = with_names(table, event.text)
        if event.seat is not None:
            return f"**{table.name(event.seat)}** {text}"
        return text

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
        text = (
            f"your turn at Trap ({colour(seat)}, {'AB'[seat]}): {PHASE_TASK[view['phase']]}. "
            f"Press **{self.hand_label}** or type `/trap move`."
        )
        return [Announcement(text, (seat,))]  # a computer's seat is not told (pings.py)

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        return None  # Trap has no rounds

    def final_embed(self, table: Table) -> discord.Embed:
        view = _state(table).view(None)
        result = view["result"]
        assert result is not None  # the final embed is drawn for a game over
        winners = result["winners"]
        title = f"Trap — {table.name(winners[0])} wins" if len(winners) == 1 else "Trap — a draw"
        embed = discord.Embed(title=title[:256], colour=discord.Colour.gold())
        lines = [f"🏁 {with_names(table, result['summary'])}"]
        for seat in (0, 1):
            medal = "🏆 " if seat in winners and len(winners) == 1 else ""
            left = count(view["piece_counts"][seat], "piece")
            lost = len(view["captured"][seat])
            lines.append(f"{medal}{PAWN_EMOJI[seat]} {who(table, seat)} — {left} left, {lost} lost")
        # The record stays until the table is no longer live (see on_change): the table's last
        # redraw, which may come after this post, attaches it as a file.
        record = self.records.get(table.id)
        self._announced.pop(table.id, None)
        self._committed.pop(table.id, None)
        lines.append("")
        if record is None:
            lines.append("*(the move list of this game was not recorded)*")
        else:
            lines.append(record.summary())
            lines.append(f"📜 The whole move list: `{MOVES_FILE}` on the table message above.")
        embed.description = "\n".join(lines)[:4096]
        reason = REASONS.get(result["reason"], result["reason"])
        embed.set_footer(text=f"Ended by {reason}. Results are on /leaderboard. Rematch below.")
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
        view = _state(table).view(seat)
        if table.lock.locked() and self._committed.get(table.id, turn_of(view)) != turn_of(view):
            return self._changing_panel(table, seat)
        legal: list[str] = view["legal"]
        phase = view["phase"]
        embed = discord.Embed(
            title=f"Trap — you play {colour(seat)} ({'AB'[seat]})",
            colour=discord.Colour.red() if seat == 0 else discord.Colour.blue(),
        )
        lines = []
        if legal:
            lines.append(f"**Your turn:** {PHASE_TASK.get(phase, '')}.")
        elif phase != "over":
            other = view["to_move"]
            assert other is not None  # someone is to move until the game is over
            lines.append(f"Waiting for {who(table, other)} to {PHASE_TASK.get(phase, 'play')}.")
        if note:
            lines.append(f"⚠️ {note}")
        items: list[discord.ui.Item[Any]]
        if not legal:
            items = [self._refresh(table, "Refresh")]
        elif phase == "piece_drop":
            step, items = self._drop_controls(table, view, legal, nav)
            lines.append(step)
        elif phase == "arrow_drop":
            step, items = self._arrow_controls(table, view, legal, nav)
            lines.append(step)
        else:
            step, items = self._move_controls(table, seat, view, nav)
            lines.append(step)
        lines.append(f"```\n{text_board(view)}\n```")
        lines.append(panel_legend(view["variant"]))
        embed.description = "\n".join(lines)[:4096]
        counts = view["piece_counts"]
        embed.set_footer(
            text=f"On the board: red {counts[0]} · blue {counts[1]}. Keyboard: /trap move c3 or c3>c4"
        )
        return embed, items

    def _changing_panel(self, table: Table, seat: int) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        """A live panel refresh can land while a move is being saved (the engine has moved, the
        table's version not yet): buttons drawn now would carry the old version and answer "too
        slow", so offer only Refresh; the refresh booked after the change redraws it."""
        embed = discord.Embed(
            title=f"Trap — you play {colour(seat)} ({'AB'[seat]})",
            description="A move is being made right now; the board follows in a moment.",
            colour=discord.Colour.red() if seat == 0 else discord.Colour.blue(),
        )
        return embed, [self._refresh(table, "Refresh")]

    def _refresh(self, table: Table, label: str, row: int | None = None) -> ActionButton:
        # "refresh" redraws the panel with no nav state, which is also the way back a step.
        return ActionButton(
            table.id,
            table.version,
            "refresh",
            label=label,
            emoji="🔄" if label == "Refresh" else "↩️",
            row=row,
        )

    def _point_button(
        self, table: Table, view: TrapView, point: str, action: str, enabled: bool, row: int
    ) -> ActionButton:
        """A point of the board as a button; an occupied point shows whose pawn is there."""
        pawn = next((p for p in view["pawns"] if p["point"] == point), None)
        emoji = None if pawn is None else (KING_EMOJI if pawn["king"] else PAWN_EMOJI[pawn["owner"]])
        return ActionButton(
            table.id,
            table.version,
            action,
            label=point,
            emoji=emoji,
            style=discord.ButtonStyle.success if enabled else discord.ButtonStyle.secondary,
            disabled=not enabled,
            row=row,
        )

    def _grid(
        self,
        table: Table,
        view: TrapView,
        points: list[str],
        action_of: Callable[[str], str],
        allowed: set[str],
    ) -> list[discord.ui.Item[Any]]:
        """Points laid out as on the board (top row first), five to a Discord row."""
        ordered = sorted(points, key=lambda p: (-row_of(p), p[0]))
        return [
            self._point_button(table, view, point, action_of(point), point in allowed, i // 5)
            for i, point in enumerate(ordered)
        ]

    def _row_picker(self, table: Table, size: int, rows_allowed: set[int]) -> list[discord.ui.Item[Any]]:
        items: list[discord.ui.Item[Any]] = []
        for i, r in enumerate(range(size, 0, -1)):
            items.append(
                ActionButton(
                    table.id,
                    table.version,
                    f"nav-r{r}",
                    label=f"Row {r}",
                    style=discord.ButtonStyle.primary if r in rows_allowed else discord.ButtonStyle.secondary,
                    disabled=r not in rows_allowed,
                    row=i // 5,
                )
            )
        items.append(self._refresh(table, "Refresh", row=2))
        return items

    def _chosen_row(self, nav: str | None, size: int) -> int | None:
        if nav and nav.startswith("r") and nav[1:].isdigit() and 1 <= int(nav[1:]) <= size:
            return int(nav[1:])
        return None

    def _drop_controls(
        self, table: Table, view: TrapView, legal: list[str], nav: str | None
    ) -> tuple[str, list[discord.ui.Item[Any]]]:
        size = view["size"]
        free = set(legal)
        seat = view["seat"]
        assert seat is not None  # a panel draws a seat's view
        king = view["variant"] == "king" and view["pawns_to_drop"][seat] == view["pawns_per_player"]
        what = "your **King**" if king else "a pawn"
        if size == 5:
            # 25 points fill the panel exactly: no room for Refresh, and none is needed (it follows live).
            return f"Pick the point for {what}.", self._grid(table, view, view["points"], lambda p: p, free)
        row = self._chosen_row(nav, size)
        rows_free = {row_of(p) for p in free}
        if row is None or row not in rows_free:
            return f"Pick the row for {what}, then the point.", self._row_picker(table, size, rows_free)
        points = [p for p in view["points"] if row_of(p) == row]
        items = self._grid(table, view, points, lambda p: p, free)
        items.append(self._refresh(table, "Other row", row=2))
        return f"Row {row}: pick the point for {what}.", items

    def _arrow_controls(
        self, table: Table, view: TrapView, legal: list[str], nav: str | None
    ) -> tuple[str, list[discord.ui.Item[Any]]]:
        size = view["size"]
        touching: dict[str, list[str]] = {}
        for arrow in legal:
            tail, head = arrow.split(">")
            touching.setdefault(tail, []).append(arrow)
            touching.setdefault(head, []).append(arrow)
        point = nav[1:] if nav and nav.startswith("p") and nav[1:] in touching else None
        if point is not None:
            items: list[discord.ui.Item[Any]] = []
            arrows = sorted(touching[point], key=lambda a: (a.split(">")[0] != point, a))
            for i, arrow in enumerate(arrows):
                tail, head = arrow.split(">")
                items.append(
                    ActionButton(
                        table.id,
                        table.version,
                        arrow,
                        label=f"{tail} → {head}",
                        style=discord.ButtonStyle.success,
                        row=i // 4,
                    )
                )
            back = f"nav-r{row_of(point)}" if size == 6 else "refresh"
            items.append(ActionButton(table.id, table.version, back, label="Other point", emoji="↩️", row=2))
            return (
                f"Arrows touching {point} on lines still empty: pick one (it points to the second point).",
                items,
            )
        if size == 5:
            return (
                "Pick a point next to an empty line, then the arrow.",
                self._grid(table, view, view["points"], lambda p: f"nav-p{p}", set(touching)),
            )
        row = self._chosen_row(nav, size)
        rows_open = {row_of(p) for p in touching}
        if row is None or row not in rows_open:
            return "Pick a row, then a point next to an empty line, then the arrow.", self._row_picker(
                table, size, rows_open
            )
        points = [p for p in view["points"] if row_of(p) == row]
        items = self._grid(table, view, points, lambda p: f"nav-p{p}", set(touching))
        items.append(self._refresh(table, "Other row", row=2))
        return f"Row {row}: pick a point next to an empty line.", items

    def _move_controls(
        self, table: Table, seat: int, view: TrapView, nav: str | None
    ) -> tuple[str, list[discord.ui.Item[Any]]]:
        moves: dict[str, list[str]] = view["moves"]
        kings = {p["point"] for p in view["pawns"] if p["king"]}
        chosen = nav[1:] if nav and nav.startswith("p") and nav[1:] in moves else None
        items: list[discord.ui.Item[Any]] = []
        for i, point in enumerate(sorted(moves, key=lambda p: (-row_of(p), p[0]))[:15]):
            items.append(
                ActionButton(
                    table.id,
                    table.version,
                    f"nav-p{point}",
                    label=point,
                    emoji=KING_EMOJI if point in kings else PAWN_EMOJI[seat],
                    style=discord.ButtonStyle.primary if point == chosen else discord.ButtonStyle.secondary,
                    row=i // 5,
                )
            )
        if chosen is None:
            items.append(self._refresh(table, "Refresh", row=4))
            return "Pick the pawn to move (only pawns with a move are shown).", items
        occupant = {p["point"]: p for p in view["pawns"]}
        for target in moves[chosen][:5]:
            label = f"{chosen} → {target}"
            other = occupant.get(target)
            if other is not None:
                whose = "your" if other["owner"] == seat else colour(other["owner"])
                label += f" (swap with {whose} {'King' if other['king'] else 'pawn'})"
            items.append(
                ActionButton(
                    table.id,
                    table.version,
                    f"{chosen}>{target}",
                    label=label[:80],
                    style=discord.ButtonStyle.success,
                    row=3,
                )
            )
        items.append(self._refresh(table, "Other pawn", row=4))
        return f"Move the pawn on **{chosen}** to:", items


# --- the cog -----------------------------------------------------------------------------------


class TrapCog(commands.Cog):
    trap = app_commands.Group(name="trap", description="Trap: the two-player shifting maze", guild_only=True)

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

    @trap.command(name="new", description="Open a Trap table (two players) in this channel")
    @app_commands.describe(
        variant="basic: capture everything; king: capture the opposing King",
        size="Points per side: 5 (a1–e5) or 6 (a1–f6)",
        quick_setup="Skip the Arrow Drop: every line gets a random arrow",
        speed="Move clock: relaxed (90 s), fast (30 s) or off",
        thread="Play in a new thread",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        variant: Literal["basic", "king"] = "basic",
        size: Literal[5, 6] = 5,
        quick_setup: bool = False,
        speed: Literal["relaxed", "fast", "off"] = "relaxed",
        thread: bool = False,
    ) -> None:
        await open_table_command(
            interaction,
            GAME.key,
            seats=2,
            speed=speed,
            rules={"variant": variant, "size": int(size), "quick_setup": quick_setup},
            thread=thread,
        )

    @trap.command(
        name="move", description="Drop or move from the keyboard: c3 (a pawn) or c3>c4 (an arrow or a move)"
    )
    @app_commands.describe(
        move="A point such as c3 (Piece Drop), or c3>c4 (an arrow, or a move from c3 to c4)"
    )
    async def move(self, interaction: discord.Interaction[Any], move: str) -> None:
        action = tidy_move(move)
        if not MOVE_TEXT.fullmatch(action):
            shown = move.strip().replace("`", "")[:40] or "(nothing)"
            await reply(
                interaction,
                f"`{shown}` isn't a Trap move. Type a point such as `c3` to drop a pawn, or two neighbouring "
                "points such as `c3>c4` to drop an arrow (pointing to c4) or move your pawn from c3 to c4.",
            )
            return
        table = self.bot.referee.table_in(interaction.channel_id)
        if table is not None and table.game.key != GAME.key:
            await reply(interaction, f"The table in this channel is {table.game.title}, not Trap.")
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

    @trap.command(name="rules", description="How to play Trap, and the house rulings in force")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(TrapCog(bot))
