"""Every message a game draws stays within Discord's limits for Components V2 layouts (issue 23):
at most 40 components (nested ones counted, as Discord counts them), 4,000 characters of text,
alt text of at most 1,024 characters, and only the files a component refers to attached. No
button is ever dropped to fit: each drawing's layout carries exactly the buttons the game drew.

The games are drawn by tests/e2e/test_text_classes.py's harness (the referee's real
``TableDrawing`` and each game's real GameUI over seeded self-play, after every action): the
lobby, the table message, `/table status`, every person's panel and the steps its buttons lead
to, the final table and a stopped table. The largest tables of every title are among them.
SimCord's own validator (the checks it applies to every message the bot sends) judges each one
too. The builder's own choices (what gives way first) are tested on drawings made to overflow.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.table.buttons import ActionButton
from cogs.table.layout import (
    MAX_ALT,
    MAX_COMPONENTS,
    MAX_TEXT,
    Download,
    Drawing,
    LayoutTooLarge,
    Picture,
    walk,
)
from tests.e2e.simhelpers import v2_refusal
from tests.e2e.test_text_classes import GAMES, read_game

# The largest table of every title (most seats, the longest games), besides the harness's own.
LARGEST = [
    ("zipzap", 6, {"rounds": 2}, 8, 3),
    ("zaptrap", 6, {"target": 3}, 9, 4),
    ("spytrap", 6, {}, 13, 3),
    ("gifttrap", 8, {"track_length": 8}, 5, 6),
    ("trap", 2, {"variant": "king", "size": 6, "quick_setup": True}, 7, 6),
]


def problems(where: str, drawing: Drawing) -> list[str]:
    """Everything wrong with one drawing's layout, as Discord would see it."""
    layout = drawing.layout
    found: list[str] = []
    every = walk(layout.components)
    if len(every) > MAX_COMPONENTS:
        found.append(f"{where}: {len(every)} components")
    text = sum(len(c["content"]) for c in every if c.get("type") == 10)
    if text > MAX_TEXT:
        found.append(f"{where}: {text} characters of text")
    alts = [i.get("description") or "" for c in every for i in c.get("items") or []]
    alts += [c.get("description") or "" for c in every if c.get("type") == 11]
    if any(len(alt) > MAX_ALT for alt in alts):
        found.append(f"{where}: alt text over {MAX_ALT}")
    if len(alts) != len(drawing.pictures) or not all(alts):
        found.append(f"{where}: a picture without its alt text")
    referred = sorted(
        str(m["url"]).removeprefix("attachment://")
        for c in every
        for m in [c.get("media"), c.get("file"), *(i["media"] for i in c.get("items") or [])]
        if isinstance(m, dict)
    )
    attached = sorted(a.filename for a in layout.attached)
    if referred != attached:
        found.append(f"{where}: attached {attached}, referred to {referred}")
    buttons = [c.get("custom_id") for c in every if c.get("type") in (2, 3)]
    drawn = [getattr(getattr(i, "item", i), "custom_id", None) for i in drawing.items]
    if sorted(map(str, buttons)) != sorted(map(str, drawn)):
        found.append(f"{where}: buttons {drawn} laid out as {buttons}")
    if (refusal := v2_refusal(layout.components, attached)) is not None:
        found.append(f"{where}: Discord would refuse it: {refusal}")
    return found


@pytest.mark.parametrize(("key", "players", "options", "seed", "every"), GAMES + LARGEST)
def test_every_message_of_a_whole_game_fits_discords_limits(
    key: str, players: int, options: dict[str, Any], seed: int, every: int
) -> None:
    """Seen to fail with a builder that gave each button a row of its own (``_rows``): Trap's
    5 × 5 panel then needed 53 components. Today's largest drawings come to 35 components
    (that panel) and 1,437 characters (GiftTRAP's `/table status` with eight players), so
    what gives way when a drawing overflows is tested on drawings made to overflow, below."""
    reading = read_game(key, players, options, seed, panels_every=every)
    assert len(reading.drawings) > 50
    found = [p for where, drawing in reading.drawings for p in problems(where, drawing)]
    assert found == [], "\n".join(found[:20])
    if key == "trap":  # the board is a picture with its words, on the table and in the status
        assert all(
            d.pictures
            for where, d in reading.drawings
            if where.startswith(("trap table v", "trap /table status"))
        )
        final = [d for where, d in reading.drawings if where.startswith("trap final table")]
        assert [a.filename for a in final[0].downloads] == ["trap-moves.txt"]


# --- what gives way first ------------------------------------------------------------------------


def buttons(n: int) -> list[discord.ui.Item[Any]]:
    """``n`` buttons, five to a row (past a classic View's five rows, in the first row with room)."""
    return [ActionButton(1, 2, f"b{i}", label=f"B{i}", row=i // 5 if i < 25 else None) for i in range(n)]


def test_the_latest_lines_give_way_first_and_the_newest_stays() -> None:
    """Latest lines too long for 4,000 characters lose their oldest lines; the state and fields
    stay whole. Seen to fail with ``_fit_text``'s first pass removed (the Latest text was then
    cut at its end, losing the newest line)."""
    embed = discord.Embed(title="Table", description="The state.")
    embed.add_field(name="Hands", value="x" * 1000, inline=False)
    latest = [f"{i}: " + "y" * 900 for i in range(5)]
    drawing = Drawing(embed, buttons(3), latest=latest, clock="Soon <t:1:R>")
    text = drawing.layout.text
    assert sum(len(c["content"]) for c in walk(drawing.layout.components) if c.get("type") == 10) <= MAX_TEXT
    assert "x" * 1000 in text and "The state." in text and "Soon <t:1:R>" in text
    assert latest[-1] in text and latest[0] not in text


def test_many_fields_are_merged_rather_than_a_button_dropped() -> None:
    """25 buttons and 12 fields need 54 components apart: the fields are merged into one text,
    every button stays. Seen to fail with the merging removed (LayoutTooLarge)."""
    embed = discord.Embed(title="Table")
    for i in range(12):
        embed.add_field(name=f"F{i}", value=f"v{i}", inline=False)
    drawing = Drawing(embed, buttons(25), latest=["a", "b"], clock="c")
    every = walk(drawing.layout.components)
    assert len(every) <= MAX_COMPONENTS
    assert len([c for c in every if c.get("type") == 2]) == 25
    assert all(f"**F{i}**\nv{i}" in drawing.layout.text for i in range(12))
    assert v2_refusal(drawing.layout.components, []) is None


def test_too_many_buttons_fail_loudly() -> None:
    """A drawing whose buttons alone exceed the limit is refused, never sent without some of
    them. Seen to fail with the last check in ``lay_out`` removed (the LayoutView itself then
    raised a ValueError, not the builder's reason)."""
    with pytest.raises(LayoutTooLarge):
        _ = Drawing(discord.Embed(title="T"), buttons(40)).layout


def test_pictures_carry_alt_text_and_only_referred_files_are_attached() -> None:
    """A small picture sits beside the title as a Thumbnail, larger ones in a MediaGallery; alt
    text longer than 1,024 characters is shortened; a download is a File component; nothing
    else is attached. Seen to fail with the alt text passed through unshortened (SimCord
    refuses it)."""
    small = Drawing(discord.Embed(title="T"), pictures=[Picture("card.png", b"1", "A red 9.", small=True)])
    (section,) = [c for c in walk(small.layout.components) if c.get("type") == 9]
    assert section["accessory"]["description"] == "A red 9."
    big = Drawing(
        discord.Embed(title="T"),
        pictures=[Picture("board.png", b"2", "word " * 400)],
        downloads=[Download("moves.txt", b"c3>c4")],
    )
    (gallery,) = [c for c in walk(big.layout.components) if c.get("type") == 12]
    assert len(gallery["items"][0]["description"]) == MAX_ALT
    assert [f.filename for f in big.files()] == ["board.png", "moves.txt"]
    assert v2_refusal(big.layout.components, ["board.png", "moves.txt"]) is None
    assert v2_refusal(big.layout.components, ["board.png"]) is not None  # the reference is checked
