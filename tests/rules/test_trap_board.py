"""Trap's board picture: a valid PNG of a fixed size per board size, in every phase."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image
from trap_helpers import GAME, position

from cogs.drawings.trap_board import image_size, render_board
from cogs.drawings.trap_words import board_words
from rules.trap import TrapOptions, TrapState


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def played(options: TrapOptions, seed: int, actions: int) -> TrapState:
    state = GAME.new_game(2, options, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over():
            break
        state.apply(state.to_move, rng.choice(state.legal_actions(state.to_move)))
    return state


@pytest.mark.parametrize(
    ("options", "actions", "phase"),
    [
        (TrapOptions(), 0, "piece_drop"),
        (TrapOptions(variant="king"), 5, "piece_drop"),
        (TrapOptions(), 30, "arrow_drop"),
        (TrapOptions(variant="king"), 70, "main"),
        (TrapOptions(size=6), 40, "arrow_drop"),
        (TrapOptions(size=6, variant="king", quick_setup=True), 40, "main"),
    ],
)
def test_every_phase_draws_at_the_fixed_size(options: TrapOptions, actions: int, phase: str) -> None:
    state = played(options, 3, actions)
    assert state.phase == phase
    for seat in (None, 0, 1):
        image = opened(render_board(state.view(seat), board_words(state.view(seat))))
        assert image.size == image_size(options.size)


def test_a_finished_game_with_captures_draws() -> None:
    state = position(["a1", "e1"], ["c1"], "a2>a1", "c1>b1", variant="king")
    state.apply(1, "c1>b1")
    assert state.is_over()
    image = opened(render_board(state.view(None), board_words(state.view(None)), highlight=["b1", "c2"]))
    assert image.size == image_size(5)


def test_a_random_game_draws_after_every_move() -> None:
    state = played(TrapOptions(quick_setup=True), 8, 16)
    sizes = set()
    while not state.is_over() and state.ply < 12:
        state.apply(None, "auto")
        sizes.add(opened(render_board(state.view(None), board_words(state.view(None)))).size)
    sizes.add(opened(render_board(state.view(None), board_words(state.view(None)))).size)
    assert sizes == {image_size(5)}


def test_sizes_differ_by_board_and_the_picture_changes_with_the_position() -> None:
    assert image_size(5) != image_size(6)
    first = played(TrapOptions(quick_setup=True), 4, 16)
    before = render_board(first.view(None), board_words(first.view(None)))
    first.apply(first.to_move, first.legal_actions(first.to_move)[0])
    assert render_board(first.view(None), board_words(first.view(None))) != before
