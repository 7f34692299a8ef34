"""Replays: any finished game of this server, watched again as a spectator saw it.

The game is rebuilt by its engine from what the action log recorded (options, seed, and every
action with its seat), exactly as a reload rebuilds a live table, and each step is drawn by the
game's own UI through ``TableDrawing``: the public table message and its "Latest" lines as they
stood after that action. Only the spectator's drawing is used, so a replay shows what spectators
saw during the game and what the game itself revealed at its end, nothing more; the twin-state
secrecy audit renders replays too (tests/fault/test_replay_secrecy.py).

The answer is a private message with ◀ ▶ (one action), ⏮ ⏭ (to the start of the previous or
next round or phase; to the first or last step where a game has neither), and **Download**: the
recorded game as the JSON file ``python -m rules replay`` reads. Every button carries the game
id and the step it leads to, so nothing is kept per replay; each press rebuilds the game (a few
milliseconds even for long games) in a worker thread, off the event loop, as Trap's board
picture is drawn.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord

from cogs.boards.common import answer, game_title, is_ephemeral, say
from cogs.table.buttons import view_of
from cogs.table.drawing import GameUI, TableDrawing
from cogs.table.languages import Spoken
from cogs.table.lobby import Lobby
from cogs.table.model import SeatInfo, Table
from cogs.table.rendered import Upload
from cogs.table.results import REPLAY_ID, replay_id
from cogs.texts import N_, Texts
from db.standings import RecordedGame, RecordedSeat
from rules import get_game
from rules.base import JSON, Event, IllegalAction

log = logging.getLogger(__name__)
T = Texts(__name__)

STEP_ID = re.compile(REPLAY_ID)
DOWNLOAD_ID = re.compile(r"rd:(?P<gid>\d{1,18})")
NOT_FOUND = N_("There's no finished game #{id} in this server to replay.")
# Game numbers are the games table's integer ids (32-bit on PostgreSQL).
LARGEST_GAME_ID = 2**31 - 1


class Unplayable(Exception):
    """The recorded actions no longer replay with this version of the game's rules."""


@dataclass
class Frame:
    """A replay at one step: the table as spectators saw it after ``step`` actions."""

    record: RecordedGame
    step: int
    steps: int
    marks: list[int]  # the steps where a round or phase began
    table: Table

    def target(self, direction: str) -> int:
        """Where ⏮ ◀ ▶ ⏭ lead from here."""
        if direction == "p":
            return max(self.step - 1, 0)
        if direction == "n":
            return min(self.step + 1, self.steps)
        if direction == "f":
            return max((m for m in self.marks if m < self.step), default=0)
        return min((m for m in self.marks if m > self.step), default=self.steps)


def _moment(state: Any) -> tuple[Any, Any]:
    view = state.view(None)
    return view.get("round"), view.get("phase")


def _seat_at(record: RecordedGame, seat: RecordedSeat, step: int) -> SeatInfo:
    """The seat as the table showed it after ``step`` actions: a person who left later was still
    playing then; after they left, the computer that took over."""
    left = record.left_after(seat)
    if left is not None and left > step:
        return SeatInfo(seat.seat, seat.user_id, seat.name)
    return SeatInfo(seat.seat, seat.user_id, seat.name, seat.computer_level, left_at=seat.left_at)


def rebuild(record: RecordedGame, ui: GameUI, step: int) -> Frame:
    """Replay the whole game (for the round and phase marks) and keep the table at ``step``.
    The log grows as the live table's did (Table.log_start, Table.log_events)."""
    players = len(record.seats)
    try:
        game = get_game(record.game)
        options = game.parse_options(record.settings.get("rules", {}))
        state = game.new_game(players, options, record.seed)
    except (KeyError, ValueError) as error:  # a game or an option this version no longer has
        raise Unplayable(f"its options: {error}") from error  # text: a diagnostic, as the log has it
    table = Table(
        id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        game=game,
        host_id=0,
        settings=record.settings,
        speed="relaxed",
        seed=record.seed,
        status="playing",
        seats=[_seat_at(record, s, step) for s in record.seats],
        state=state,
    )
    step = min(max(step, 0), len(record.actions))
    opening: list[Event] = list(getattr(state, "opening_events", None) or [])
    table.log_start(opening)
    kept: tuple[JSON, list[Any]] | None = (state.to_json(), list(table.log)) if step == 0 else None
    marks: list[int] = []
    moment = _moment(state)
    for index, (seat, action) in enumerate(record.actions, 1):
        try:
            events = state.apply(seat, action)
        except IllegalAction as error:
            # text: a diagnostic, as the log has it (the engine's code and parameters)
            raise Unplayable(f"action {index} ({action}): {error.code} {error.params}") from error
        table.log_events(events)
        now = _moment(state)
        if now != moment:
            marks.append(index)
            moment = now
        if index == step:
            kept = (state.to_json(), list(table.log))
    assert kept is not None
    table.state = game.from_json(kept[0])
    table.log = kept[1]
    table.version = step
    table.status = "finished" if table.state.is_over() else "playing"
    return Frame(record, step, len(record.actions), marks, table)


def header(frame: Frame) -> str:
    record = frame.record
    when = ""
    if record.finished_at:
        moment = f"<t:{int(record.finished_at.timestamp())}:f>"
        when = " " + T.gettext("(played {when})", when=moment)
    if frame.step == frame.steps:
        where = T.ngettext("the end ({n} action)", "the end ({n} actions)", frame.steps)
    elif frame.step == 0:
        where = T.gettext("the deal")
    else:
        where = T.gettext("step {step} of {steps}", step=frame.step, steps=frame.steps)
    assert frame.table.state is not None
    round_, _ = _moment(frame.table.state)
    round_text = " · " + T.gettext("round {round}", round=round_) if isinstance(round_, int) else ""
    title = T.gettext("📼 Replay of **{game} #{id}**", game=game_title(record.game), id=record.id)
    return f"{title}{when} · {where}{round_text}"


def draw(frame: Frame, ui: GameUI) -> tuple[str, discord.Embed, list[discord.File]]:
    """The step as a spectator saw it: the game's own table drawing with its Latest lines (no
    clock: nothing is running). Pure; runs in a worker thread."""
    drawing = TableDrawing({ui.key: ui}, Lobby({ui.key: ui}))
    embed = drawing.table_embed(frame.table)
    embed.set_author(name=T.gettext("Replay: what spectators saw"))
    return header(frame), embed, drawing.files(frame.table)


def frame_items(frame: Frame) -> list[discord.ui.Item[Any]]:
    at_start, at_end = frame.step == 0, frame.step == frame.steps
    gid = frame.record.id
    return [
        ReplayStep(gid, frame.target("f"), "f", disabled=at_start),
        ReplayStep(gid, frame.target("p"), "p", disabled=at_start),
        ReplayStep(gid, frame.target("n"), "n", disabled=at_end),
        ReplayStep(gid, frame.target("l"), "l", disabled=at_end),
        ReplayDownload(gid),
    ]


def _render(
    record: RecordedGame, ui_class: type, step: int
) -> tuple[Frame, tuple[str, discord.Embed, list[discord.File]]]:
    ui = ui_class()  # a fresh UI: a game's caches (Trap's move records) are per table, and this is no table
    frame = rebuild(record, ui, step)
    return frame, draw(frame, ui)


async def _recorded(interaction: discord.Interaction[Any], game_id: int) -> RecordedGame | str:
    """The finished game of this server with that number, or what to say instead."""
    if not 0 < game_id <= LARGEST_GAME_ID:
        # A number no game can have (PostgreSQL would refuse it as out of range for the column,
        # which is not a database failure the person should be told to retry).
        return T.gettext(NOT_FOUND, id=game_id)
    try:
        record: RecordedGame | None = await interaction.client.standings.recorded_game(game_id)
    except Exception:
        log.exception("could not read game %s", game_id)
        return T.gettext("I couldn't read that game just now. Please try again.")
    if record is None or record.guild_id != interaction.guild_id or record.status != "finished":
        return T.gettext(NOT_FOUND, id=game_id)
    return record


async def show(interaction: discord.Interaction[Any], game_id: int, step: int, *, edit: bool) -> None:
    """Answer with the replay of game ``game_id`` at ``step``: in place on the person's own
    replay, else as a new private message."""
    found = await _recorded(interaction, game_id)
    if isinstance(found, str):
        await say(interaction, found, edit=edit)
        return
    ui = interaction.client.referee.uis.get(found.game)
    if ui is None:
        text = T.gettext("{game} isn't available on this bot right now.", game=game_title(found.game))
        await say(interaction, text, edit=edit)
        return
    try:
        frame, (content, embed, files) = await asyncio.to_thread(_render, found, type(ui), step)
    except Unplayable as error:
        log.warning("game %s no longer replays: %s", game_id, error)
        text = T.gettext(
            "Game #{id} can't be replayed with this version of its rules ({why}).", id=game_id, why=error
        )
        await say(interaction, text, edit=edit)
        return
    await answer(
        interaction, edit=edit, content=content, embed=embed, view=view_of(frame_items(frame)), files=files
    )


def recorded_json(record: RecordedGame) -> JSON:
    """The recorded-game format of rules/FORMATS.md: what ``python -m rules replay`` reads."""
    return {
        "game": record.game,
        "players": len(record.seats),
        "options": record.settings.get("rules", {}),
        "seed": record.seed,
        "levels": [s.computer_level for s in record.seats],
        "actions": [{"seat": seat, "action": action} for seat, action in record.actions],
    }


async def download(interaction: discord.Interaction[Any], game_id: int) -> None:
    found = await _recorded(interaction, game_id)
    if isinstance(found, str):
        await say(interaction, found)
        return
    name = f"{found.game}-{found.id}.json"
    data = json.dumps(recorded_json(found), indent=1).encode()
    text = T.gettext(
        "Game #{id} ({game}) as recorded. Replay it with `python -m rules replay {file}`. "
        "It holds the shuffle's seed, so it shows every hand as it was.",
        id=found.id,
        game=game_title(found.game),
        file=name,
    )
    await answer(interaction, edit=False, content=text, file=Upload(data, name))


ARROWS = {"f": "⏮️", "p": "◀️", "n": "▶️", "l": "⏭️", "w": "📼"}


class ReplayStep(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=STEP_ID.pattern):
    """⏮ ◀ ▶ ⏭ under a replay: the game and the step it leads to."""

    def __init__(self, game_id: int, step: int, direction: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                emoji=ARROWS[direction],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=replay_id(game_id, step, direction),
            )
        )
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayStep:
        return cls(int(match["gid"]), int(match["step"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await show(interaction, self.game_id, self.step, edit=is_ephemeral(interaction))


class ReplayDownload(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=DOWNLOAD_ID.pattern):
    """**Download**: the recorded game as JSON, privately."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=T.pgettext("button", "Download"),
                emoji="📥",
                style=discord.ButtonStyle.secondary,
                custom_id=f"rd:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayDownload:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await download(interaction, self.game_id)
