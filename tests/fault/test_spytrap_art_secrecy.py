"""Spy Trap's card art keeps its secrets: the twin-state audit (tests/fault/twins.py), which
compares the attached bytes and alt text of twin states through the V2 layouts, reports a
picture drawn from a hand it may not show.

The real pictures pass the audit in tests/fault/test_twin_secrecy.py (both Spy Trap cases, with
the hand, identity, pile and Files pictures in every panel and the drawn cards on the table).
These tests put a leak into the real SpyTrapUI and check that the same audit then fails, so a
pass there means something.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from cogs.drawings import spytrap_cards
from cogs.table.model import Table
from cogs.table.pictures import Sketch
from tests.fault.twins import audit_game, ui_class

CASE = (4, {"round_limit": 10}, 31)


def _hand_of(table: Table, seat: int) -> list[str]:
    hands = getattr(table.state, "hands", None)
    assert hands is not None  # SpyTrapState keeps every hand
    return list(hands[seat])


@pytest.mark.parametrize("leaks_in", ["bytes", "alt"])
def test_the_audit_reports_seat_0s_hand_drawn_on_the_table(
    monkeypatch: pytest.MonkeyPatch, leaks_in: str
) -> None:
    """The table's sketches also draw seat 0's hand (its bytes, or only its words in the alt
    text): the audit reports the table message and `/table status`, which show the table's
    pictures, and nothing else."""
    cls = ui_class("spytrap")
    real = cls.table_sketches

    def table_sketches(self: Any, table: Table) -> list[Sketch]:
        hand = _hand_of(table, 0)
        if leaks_in == "bytes":
            leak = Sketch(
                "leak.png", ("leak", tuple(hand)), partial(spytrap_cards.hand_png, tuple(hand)), "A hand."
            )
        else:
            leak = Sketch(
                "leak.png", ("leak",), partial(spytrap_cards.hand_png, ()), spytrap_cards.hand_alt(hand)
            )
        return [*real(self, table), leak]

    monkeypatch.setattr(cls, "table_sketches", table_sketches)
    players, options, seed = CASE
    report = audit_game("spytrap", players, options, seed, per_phase=1, every=40)
    assert any(" table_message." in d for d in report.differences), report.differences[:3]
    elsewhere = [d for d in report.differences if " table_message." not in d and " table_status." not in d]
    assert not elsewhere, elsewhere[:3]


def test_the_audit_reports_a_panel_picture_of_the_next_seats_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """A panel's hand picture drawn from the next seat's hand instead of the owner's: the audit
    reports the panels (the owner may not know that hand), not the table."""
    cls = ui_class("spytrap")
    real = cls.panel_sketches

    def panel_sketches(self: Any, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        sketches = real(self, table, seat, nav)
        hand = tuple(_hand_of(table, (seat + 1) % len(table.seats)))
        sketches[0] = Sketch(
            "spytrap-hand.png", ("leak", hand), partial(spytrap_cards.hand_png, hand), "A hand."
        )
        return sketches

    monkeypatch.setattr(cls, "panel_sketches", panel_sketches)
    players, options, seed = CASE
    report = audit_game("spytrap", players, options, seed, per_phase=1, every=40)
    assert report.differences, "the panel leak went unnoticed"
    assert not any(" table_message." in d for d in report.differences), report.differences[:3]
