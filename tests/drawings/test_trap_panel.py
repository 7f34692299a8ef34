"""Trap's private panel fits one phone screen (issue 33): the board once, as a picture marking what
may be picked, one short status line and hint, and the choice in one select, placed last.

Drawn by the real ``TrapUI`` from real engine states (no Discord needed: a panel is an embed and its
controls). On main before issue 33 the panel showed the board as a text board in a code block,
with a legend, and offered 25 point buttons in 5 rows (the 6 × 6 board: a row of row buttons
first); these tests fail there.
"""

from __future__ import annotations

import io
import random
from typing import Any

import discord
import pytest
from PIL import Image

from cogs.drawings.trap_board import panel_image_size
from cogs.drawings.trap_panel import OPTIONS, pages
from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.model import SeatInfo, Table
from cogs.trap import PANEL_BOARD_FILE, TrapUI
from rules.trap import Trap, TrapOptions, TrapState

GAME = Trap()


def table_of(state: TrapState, options: TrapOptions) -> Table:
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        game=GAME,
        host_id=10,
        settings={"seats": 2, "rules": {"variant": options.variant, "size": options.size}},
        speed="relaxed",
        seed=1,
        status="playing",
        seats=[SeatInfo(0, 10, "alice"), SeatInfo(1, 11, "Bartholomew the Unhurried")],
        state=state,
        version=3,
    )


def played(options: TrapOptions, seed: int, plies: int, until: str | None = None) -> TrapState:
    """A game played at random: ``plies`` actions, or until the phase ``until`` begins."""
    state = GAME.new_game(2, options, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over() or (until is not None and state.view(None)["phase"] == until):
            break
        seat = mover(state)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def mover(state: TrapState) -> int:
    seat = state.to_move
    assert seat is not None, "the game is under way"
    return seat


def choices(items: list[discord.ui.Item[Any]]) -> list[str]:
    """What the controls do, as the actions they send: each button's, each select option's."""
    found = []
    for item in items:
        if isinstance(item, ActionButton):
            found.append(item.action)
        elif isinstance(item, ActionSelect):
            found += [item.prefix + o.value for o in item.item.options]
    return found


def every_page(ui: TrapUI, table: Table, seat: int) -> list[str]:
    """The actions of every page of the seat's select, in order."""
    _, items = ui.panel(table, seat, None)
    first = choices(items)
    found = [a for a in first if not a.startswith("nav-")]
    for step in (a for a in first if a.startswith("nav-g")):
        _, more = ui.panel(table, seat, None, step[4:])
        found += [a for a in choices(more) if not a.startswith("nav-")]
    return found


# Common states: (options, seed, plies, the phase to stop at, a step already taken).
STATES = {
    "5 × 5 first drop": (TrapOptions(), 1, 0, None),
    "5 × 5 drop": (TrapOptions(), 1, 5, None),
    "6 × 6 King drop": (TrapOptions(size=6, variant="king"), 2, 0, None),
    "arrow drop": (TrapOptions(), 3, 100, "arrow_drop"),
    "late arrow drop": (TrapOptions(), 3, 16 + 30, None),
    "5 × 5 main play": (TrapOptions(quick_setup=True), 4, 20, None),
    "6 × 6 main play, 31 moves": (TrapOptions(size=6, quick_setup=True), 136, 27, None),
}


@pytest.mark.parametrize("name", list(STATES))
def test_the_choice_is_one_select_of_legal_actions_placed_last(name: str) -> None:
    options, seed, plies, until = STATES[name]
    state = played(options, seed, plies, until)
    table = table_of(state, options)
    ui = TrapUI()
    seat = mover(state)
    embed, items = ui.panel(table, seat, None)
    # One row: a select, with nothing else (main had 25 point buttons in 5 rows).
    assert len(items) == 1 and isinstance(items[0], ActionSelect), [type(i).__name__ for i in items]
    select = items[0].item
    assert len(select.options) <= OPTIONS and select.placeholder and len(select.placeholder) <= 30
    legal = set(state.legal_actions(seat))
    offered = choices(items)
    assert all(a in legal or a.startswith("nav-") for a in offered), offered
    if state.view(None)["phase"] != "arrow_drop" or len(legal) <= OPTIONS:
        # Every legal action once, over the select's pages: nothing hidden, nothing twice.
        assert sorted(every_page(ui, table, seat)) == sorted(legal)
    # One status line and a short hint: no text board, no legend, no title.
    assert embed.title is None and "```" not in (embed.description or "")
    assert (embed.description or "").count("\n") == 0 and "**Your turn**" in (embed.description or "")
    assert embed.footer.text is not None and len(embed.footer.text) <= 30


def test_a_main_play_past_25_moves_is_paged_honestly() -> None:
    options, seed, plies, _ = STATES["6 × 6 main play, 31 moves"]
    state = played(options, seed, plies)
    legal = state.legal_actions(mover(state))
    assert len(legal) == 31
    assert pages(31) == [(0, 24), (24, 31)]
    table, ui = table_of(state, options), TrapUI()
    _, items = ui.panel(table, mover(state), None)
    first = choices(items)
    # 24 moves and the way to the other 7, named by their first and last move.
    assert len(first) == 25 and first[-1] == "nav-g1"
    assert isinstance(items[0], ActionSelect)
    more = items[0].item.options[-1].label
    assert more.startswith("More: ") and "…" in more
    _, second = ui.panel(table, mover(state), None, "g1")
    assert len(choices(second)) == 8 and choices(second)[-1] == "nav-g0"


def test_an_arrow_drop_picks_a_point_then_its_arrows_in_one_row() -> None:
    options = TrapOptions()
    state = played(options, 3, 100, "arrow_drop")
    seat = mover(state)
    table, ui = table_of(state, options), TrapUI()
    _, items = ui.panel(table, seat, None)
    point = next(a for a in choices(items) if a.startswith("nav-p"))[5:]
    _, at_point = ui.panel(table, seat, None, f"p{point}")
    assert len(at_point) == 1  # the arrows and the way back share one select
    arrows = [a for a in choices(at_point) if not a.startswith("nav-")]
    legal = set(state.legal_actions(seat))
    assert arrows and set(arrows) == {a for a in legal if point in a.split(">")}
    assert choices(at_point)[-1] == "nav-back"
    # The picture rings the point and dots the other ends of its empty lines.
    (sketch,) = ui.panel_sketches(table, seat, f"p{point}")
    assert f"Picked: {point}" in sketch.alt


def test_the_board_is_drawn_once_as_a_picture_that_marks_the_pawns_that_can_move() -> None:
    options = TrapOptions(quick_setup=True)
    state = played(options, 4, 20)
    seat = mover(state)
    table, ui = table_of(state, options), TrapUI()
    embed, _ = ui.panel(table, seat, None)
    (sketch,) = ui.panel_sketches(table, seat)
    assert sketch.filename == PANEL_BOARD_FILE
    movable = sorted(state.view(seat)["moves"])
    assert "Ringed in green, your pawns that can move: " in sketch.alt
    assert all(p in sketch.alt for p in movable)
    image = Image.open(io.BytesIO(sketch.draw()))
    # Square, so a phone's full-width picture is as tall as it is wide: the board, nothing else.
    assert image.size == panel_image_size(5) and image.size[0] == image.size[1]
    # The pawns are not listed in the panel's text: the picture shows them (its alt text lists them).
    assert not any(p in (embed.description or "") for p in movable)


def test_waiting_shows_the_board_and_refresh_only() -> None:
    options = TrapOptions()
    state = played(options, 1, 3)
    table, ui = table_of(state, options), TrapUI()
    waiting = 1 - mover(state)
    embed, items = ui.panel(table, waiting, None)
    assert [getattr(i, "action", None) for i in items] == ["refresh"]
    assert "waiting for **" in (embed.description or "") and embed.footer.text is None
    assert len(ui.panel_sketches(table, waiting)) == 1
