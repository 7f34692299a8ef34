"""Phone-friendly tables: every table embed of whole self-played games stays under ~1,500 characters.

The engines are driven directly by computer players (rules.selfplay); around each state a
cogs.table.Table is drawn by the game's real UI and the referee's own table_embed, with its Latest
and Clock fields: exactly what the table message would carry. Names are what the lobby gives:
two people and "Robo N (level)" computers at the longest level name.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import cogs.gifttrap
import cogs.spytrap
import cogs.trap
import cogs.zaptrap
import cogs.zipzap
from cogs.table.model import SeatInfo, Table
from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from rules import get_game
from rules.base import Event, State
from rules.selfplay import play_game
from tests.e2e.trap_driver import section

# Title, description, field names and values, footer: what a phone shows without scrolling far.
TABLE_LIMIT = 1500
UIS: dict[str, Any] = {
    "zipzap": cogs.zipzap.ZipZapUI,
    "zaptrap": cogs.zaptrap.ZapTrapUI,
    "spytrap": cogs.spytrap.SpyTrapUI,
    "gifttrap": cogs.gifttrap.GiftTrapUI,
    "trap": cogs.trap.TrapUI,
}


class Drawn:
    """A table around a self-played game; ``sizes`` holds each table embed's size, biggest kept."""

    def __init__(self, key: str, players: int, options: dict[str, Any], seed: int) -> None:
        self.game = get_game(key)
        self.ui = UIS[key]()
        # A real referee, never started: its table_embed adds the Latest and Clock fields.
        self.referee = Referee(None, None, Scheduler())  # type: ignore[arg-type]
        self.referee.register(self.ui)
        level = max(self.game.computer_levels, key=len)
        seats = [SeatInfo(0, 100, "alice"), SeatInfo(1, 101, "bob")]
        seats += [SeatInfo(i, None, f"Robo {i - 1} ({level})", level) for i in range(2, players)]
        self.table = Table(
            id=1,
            guild_id=1,
            channel_id=1,
            game=self.game,
            host_id=100,
            settings={"seats": players, "rules": options},
            speed="relaxed",
            seed=seed,
            status="playing",
            seats=seats[:players],
        )
        self.biggest = 0
        self.biggest_embed: dict[str, Any] = {}
        self.seed, self.options, self.players, self.level = seed, options, players, level

    def play(self) -> None:
        state = self.game.new_game(self.players, self.game.parse_options(self.options), self.seed)
        self.table.state = state
        self._changed(list(getattr(state, "opening_events", [])))
        self._draw()
        play_game(
            self.game,
            self.players,
            self.options,
            self.seed,
            [self.level],
            on_action=self._on_action,
        )

    def _on_action(self, state: State, seat: int | None, action: str, events: list[Event]) -> None:
        self.table.state = state
        self.table.version += 1
        self._changed(events)
        if state.is_over():
            self.table.status = "finished"
        self._draw()

    def _changed(self, events: list[Event]) -> None:
        on_change = getattr(self.ui, "on_change", None)
        if on_change is not None:
            on_change(self.table, events)
        # As Referee.act keeps the log: a new deal starts it over.
        lines = [self.ui.event_line(self.table, e) for e in events]
        deal = next((i for i, e in enumerate(events) if e.kind == "deal"), None)
        if deal is None:
            self.table.add_log(lines)
        else:
            self.table.add_log(lines[deal:], fresh=True)

    def _draw(self) -> None:
        # A running timer, as the referee would have armed it, so the Clock field is measured too.
        quiet = self.table.state.quiet_actions() if self.table.state is not None else []
        self.table.deadline_at = datetime.now(UTC) + timedelta(seconds=90) if quiet else None
        self.table.deadline_action = quiet[0].action if quiet else None
        embed = self.referee.drawing.table_embed(self.table)
        if len(embed) > self.biggest:
            self.biggest, self.biggest_embed = len(embed), embed.to_dict()


GAMES = [
    # (game, players, options, seed): the most seats each title allows, where tables grow longest.
    ("gifttrap", 8, {}, 1),
    ("gifttrap", 8, {"track_length": 30}, 2),
    ("gifttrap", 5, {"strategy_cards": False}, 3),
    ("trap", 2, {}, 4),
    ("trap", 2, {"variant": "king", "size": 6}, 5),
    ("trap", 2, {"quick_setup": True}, 6),
    ("zipzap", 6, {}, 7),
    ("zaptrap", 6, {}, 8),
    ("zaptrap", 5, {}, 9),
    ("spytrap", 6, {}, 10),
]


@pytest.mark.parametrize(("key", "players", "options", "seed"), GAMES)
def test_every_table_embed_of_a_whole_game_fits_a_phone(
    key: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """Seen to fail on GiftTRAP's table before it was shortened: 4,100 characters with eight
    players (an "Unwrapped this round" field repeating the Latest lines, and tokens turned up)."""
    drawn = Drawn(key, players, options, seed)
    drawn.play()
    assert drawn.table.state is not None and drawn.table.state.is_over(), "the game did not finish"
    assert drawn.biggest <= TABLE_LIMIT, (drawn.biggest, drawn.biggest_embed)
    final = drawn.ui.final_embed(drawn.table)
    assert len(final) <= TABLE_LIMIT, (len(final), final.to_dict())


def test_trap_results_are_short_and_history_has_every_move() -> None:
    """Seen to fail before: the results held the whole move list (2,000+ characters)."""
    drawn = Drawn("trap", 2, {}, 11)
    drawn.play()
    view = drawn.table.state.view(None)  # type: ignore[union-attr]
    ui: cogs.trap.TrapUI = drawn.ui
    history = ui.history(drawn.table)
    assert len(section(history, "Piece Drop")) == 16
    assert len(section(history, "Arrow Drop")) == 40
    assert len(section(history, "Main play")) == view["ply"]
    final = ui.final_embed(drawn.table)
    assert len(final) <= TABLE_LIMIT and "trap-moves.txt" in (final.description or "")
    assert f"Main play: {view['ply']} move" in (final.description or "")
    # The final table message carries the whole list as a file, even after the results post.
    files = {f.filename: f for f in ui.table_downloads(drawn.table)}
    listing = files["trap-moves.txt"].data.decode()
    assert len(section(listing, "Main play")) == view["ply"]
    assert "**" not in listing and "\\*" not in listing


def test_gifttrap_history_holds_every_rounds_unwraps_and_tokens() -> None:
    """History covers the whole game, round by round (issue 21; it held the last round only)."""
    drawn = Drawn("gifttrap", 4, {}, 12)
    drawn.play()
    view = drawn.table.state.view(None)  # type: ignore[union-attr]
    history = drawn.ui.history(drawn.table)
    rounds = view["history"]
    assert len(rounds) == view["round"] >= 2
    assert history.count(" unwraps ") == sum(len(past["revealed"]) for past in rounds)
    assert history.count("Tokens turned up") == len(rounds)
    for past in rounds:
        assert f"**Round {past['round']}**" in history
    lines = history.splitlines()
    for seat in range(4):
        tokens = [line for line in lines if line.startswith(f"**{drawn.table.name(seat)}**: GREAT +3")]
        assert len(tokens) == len(rounds)
