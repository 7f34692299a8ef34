"""GiftTRAP's sketches (cogs/gifttrap.py): a sketch's key names everything its picture shows, so
the shared cache (cogs/table/pictures.py) never hands one picture out for another, and a redraw of
what did not change draws nothing.

Over the states of a seeded self-played game, every table and panel sketch is drawn: two sketches
with one key must have the same bytes and alt text, and two with different bytes different keys.
Seen to fail with the tokens left out of the gifts key (a panel with its tokens and the table
without share a key but not their bytes), and with the names left out of the reveal's key (the
same reveal at a table of other people).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace

from cogs.gifttrap import GiftTrapUI
from cogs.table.pictures import Sketch
from tests.fault.twins import make_table, sample_states


def sketches_of_a_game(players: int, seed: int) -> list[Sketch]:
    ui = GiftTrapUI()
    found: list[Sketch] = []
    for sample in sample_states("gifttrap", players, {"track_length": 6}, seed, per_phase=6, every=4):
        renamed = make_table("gifttrap", sample.state)
        # The same game at a table of other people: the reveal names them.
        renamed.seats = [replace(s, chosen_name=f"Guest {s.seat + 1}") for s in renamed.seats]
        for table in (make_table("gifttrap", sample.state), renamed):
            found += ui.table_sketches(table)
            for seat in range(players):
                found += ui.panel_sketches(table, seat)
    return found


def test_one_key_one_picture_and_one_picture_one_key() -> None:
    by_key: dict[Hashable, tuple[bytes, str]] = {}
    by_bytes: dict[bytes, Hashable] = {}
    for sketch in sketches_of_a_game(4, 3):
        data = sketch.draw()
        if sketch.key in by_key:
            assert by_key[sketch.key] == (data, sketch.alt), sketch.key
        by_key[sketch.key] = (data, sketch.alt)
        assert by_bytes.setdefault(data, sketch.key) == sketch.key, "one picture under two keys"
    kinds = {key[0] for key in by_key if isinstance(key, tuple)}
    assert kinds == {"gifttrap-gifts", "gifttrap-reveal"}, kinds
    assert len(by_key) > 10, "the game showed many different pictures"
