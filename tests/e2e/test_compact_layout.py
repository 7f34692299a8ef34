"""The shared parts of a message cost a phone as little height as they can (issue 33, "One phone
screen"): the clock is one "⏰ …" line without a "Clock ·" label, a panel has no separator (only a
table's Latest lines, which read as a log, are set apart by one), and a panel's footer and the
clock under it are one text, so Discord puts no gap between them.

Seen failing on the main of 29 Nov 2026: "**⏰ Clock** · If nobody plays…" after a separator, in a
TextDisplay of its own under the footer (tests/browser/test_phone_panels.py measures what this
saves at 360 px: a line and a separator's height on every panel with a running timer)."""

from __future__ import annotations

import discord

from cogs.table.buttons import ActionButton
from cogs.table.layout import Download, Drawing, Picture, walk

SEPARATOR = 14
TEXT = 10
CLOCK = "If nobody plays, the referee calls a stall <t:1893499222:R>"


def kinds(drawing: Drawing) -> list[int]:
    return [c["type"] for c in walk(drawing.layout.components)]


def texts(drawing: Drawing) -> list[str]:
    return [c["content"] for c in walk(drawing.layout.components) if c.get("type") == TEXT]


def panel(**extra: object) -> Drawing:
    embed = discord.Embed(title="Your hand — 5 cards", description="Top card: red 7")
    embed.set_footer(text="Round 1/1 · your score 0 points")
    picture = Picture("hand.png", b"\x89PNG", alt="R1, R3, B6")
    button = ActionButton(1, 2, "R1", label="R1")
    return Drawing(embed, [button], [picture], clock=CLOCK, **extra)  # type: ignore[arg-type]


def test_a_panels_clock_follows_its_footer_in_one_text_without_a_separator() -> None:
    drawing = panel()
    assert SEPARATOR not in kinds(drawing)
    assert f"-# Round 1/1 · your score 0 points\n⏰ {CLOCK}" in texts(drawing)
    assert not any("Clock" in t for t in texts(drawing))


def test_a_tables_latest_lines_keep_their_separator_and_the_clock_its_line() -> None:
    embed = discord.Embed(title="Zip Zap — round 1 of 1", description="Top card: red 7")
    drawing = Drawing(embed, [], latest=["alice played R1."], clock=CLOCK)
    assert kinds(drawing).count(SEPARATOR) == 1
    shown = texts(drawing)
    assert shown.index("**Latest**\nalice played R1.") < shown.index(f"⏰ {CLOCK}")


def test_a_file_between_footer_and_clock_keeps_them_apart() -> None:
    """Trap's move record sits under its legend: the clock does not jump above the file."""
    drawing = panel(downloads=[Download("trap-moves.txt", b"1. c3")])
    shown = texts(drawing)
    assert "-# Round 1/1 · your score 0 points" in shown and f"⏰ {CLOCK}" in shown
