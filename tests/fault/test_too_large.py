"""A drawing too large for one Discord message (``LayoutTooLarge``, ``Failure.TOO_LARGE``), met by
the real bot through SimCord.

No game draws one today: the layout builder gives way first (cogs/table/layout.py: Latest lines,
then long texts, then merged texts, shared picture galleries, packed button rows), and only more
buttons than 40 components can hold are left, the largest drawing being Trap's 5 × 5 panel with 35
components (tests/e2e/test_v2_limits.py). So a game with that bug is made here: its UI's panel
or table buttons get 50 more. What must hold, as for any failure of a Discord call:

- a click whose answer can't be drawn tells the clicker why, privately, and what they played
  still counts (committed before the answer was drawn);
- a table message that can't be drawn keeps its last drawing, is not tried again and again
  (the same drawing would fail the same way), is logged once saying what it held, and is drawn
  again by the next change that fits;
- nothing raises unhandled (SimCord fails a test on any unread bot error).
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from cogs.table.buttons import ActionButton, TableButton
from cogs.table.common import TOO_LARGE
from tests.e2e.simhelpers import message_text, playable, reply_text
from tests.e2e.zipzap_driver import open_lobby


def fifty_more(table: Any, make: Any) -> list[Any]:
    return [make(table, i) for i in range(50)]


def break_panels(bot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Zip Zap UI's panel draws 50 buttons more than a message can hold."""
    ui = bot.referee.uis["zipzap"]
    real = ui.panel

    def panel(table: Any, seat: int, note: str | None, nav: str | None = None) -> Any:
        embed, items = real(table, seat, note, nav)
        extra = fifty_more(table, lambda t, i: ActionButton(t.id, t.version, f"x{i}", label=f"X{i}"))
        return embed, [*items, *extra]

    monkeypatch.setattr(ui, "panel", panel)


@pytest.mark.simcord(settle_timeout=20)
async def test_a_panel_too_large_says_why_and_the_card_played_counts(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice opens her hand, then her game's panel grows past Discord's limits: her card still
    counts, and she is told why she sees no panel; her open panel stops following the table
    (its redraw is too large too); "My hand" tells her the same and changes nothing. Seen to
    fail on the code before ``Failure.TOO_LARGE``: the click's LayoutTooLarge escaped the entry
    point unanswered (SimCord: the interaction was never acknowledged, and the bot error failed
    the test); and with Panels._refresh as before (the live redraw raised to the scheduler,
    which retries it with backoff for ever, and nothing said the panel was too large)."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=2, speed="off", cpu=None, people=("alice", "bob"))
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.table_in(t["channel"].id)
    alice = t["host"]
    hand = (await alice.click(t["lobby"], label="My hand")).response
    seat = table.seat_of(alice.user.id)
    cards = playable(hand)
    if not cards:  # not alice's card to play: bob's hand then
        alice = t["actors"][1]
        hand = (await alice.click(t["lobby"], label="My hand")).response
        seat = table.seat_of(alice.user.id)
        cards = playable(hand)
    assert cards, "someone has a card to play"
    break_panels(bot, monkeypatch)
    version = table.version
    caplog.set_level(logging.WARNING, logger="cogs.table.entry")
    result = await alice.click(hand, custom_id=cards[0]["custom_id"])
    assert result.acknowledged and TOO_LARGE in reply_text(result)
    assert table.version == version + 1, "the card played counts"
    logged = next(r.getMessage() for r in caplog.records if "too large" in r.getMessage())
    assert "components, at most 40" in logged and "buttons in" in logged, logged
    # Her panel from before the play follows the table: its redraw is too large too, so it stops
    # following (logged), and nothing is retried.
    caplog.set_level(logging.WARNING, logger="cogs.table.panels")
    await env.advance_time(3)
    assert any("panel is too large" in r.getMessage() for r in caplog.records)
    assert bot.referee.panels.get(table.id, seat) is None
    again = await alice.click(t["lobby"], label="My hand")
    assert again.ephemeral and TOO_LARGE in reply_text(again)
    assert table.version == version + 1, "opening a hand changes nothing"
    assert table.seat_of(alice.user.id) == seat


@pytest.mark.simcord(settle_timeout=20)
async def test_a_table_message_too_large_keeps_its_drawing_and_is_not_retried(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The table's buttons grow past Discord's limits while a computer plays: the message keeps
    its last drawing, the failure is logged once with what the drawing held, no redraw of it is
    booked again and again, and once the drawing fits again the next change draws the table.
    Seen to fail on the code before ``Failure.TOO_LARGE``: each redraw's LayoutTooLarge escaped
    its task unhandled (SimCord counted 7 bot errors in the 40 s, one per change; a redraw booked
    for later went to the scheduler instead, which retries a failed job with backoff for ever),
    and nothing said what was too large."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=3, speed="relaxed", cpu="casual", people=("alice", "bob"))
    await t["host"].click(t["lobby"], label="Start")
    table = bot.referee.table_in(t["channel"].id)
    await env.advance_time(3)
    message_id = table.table_message_id

    def shown() -> str:
        return message_text(next(m for m in t["channel"].history() if m.id == message_id))

    before = shown()
    ui = bot.referee.uis["zipzap"]
    real = ui.table_items
    monkeypatch.setattr(
        ui,
        "table_items",
        lambda tb: [
            *real(tb),
            *fifty_more(tb, lambda t_, i: TableButton(t_.id, "act", f"x{i}", label=f"X{i}")),
        ],
    )
    caplog.set_level(logging.INFO)
    version = table.version
    await env.advance_time(40)  # the computer moves, again and again
    assert table.version > version + 1, "the game went on"
    assert shown() == before, "the message kept its last drawing"
    retried = [r.getMessage() for r in caplog.records if "scheduled job render" in r.getMessage()]
    assert retried == [] and not bot.referee.messages.effects.retrying(f"render{table.id}"), retried
    warnings = [r.getMessage() for r in caplog.records if "too large for Discord" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert f"table {table.id}" in warnings[0] and "components, at most 40" in warnings[0]
    monkeypatch.setattr(ui, "table_items", real)
    version = table.version
    await env.advance_time(40)
    assert table.version > version, "the game went on"
    assert shown() != before, "the next change that fits is drawn"
    assert "X49" not in shown() and "My hand" in shown()
