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

from dataclasses import replace
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.table.buttons import ActionButton
from cogs.table.common import escape
from cogs.table.failures import Failure, classify
from cogs.table.layout import (
    ELLIPSIS,
    MAX_ALT,
    MAX_COMPONENTS,
    MAX_TEXT,
    Download,
    Drawing,
    LayoutTooLarge,
    Picture,
    cut,
    walk,
)
from cogs.table.model import SeatInfo
from tests.e2e.simhelpers import v2_refusal
from tests.e2e.test_text_classes import GAMES, USER_BASE, Reader, read_game

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


def longest_names(players: int) -> list[str]:
    """Discord's longest names: a display name or a nickname has at most 32 characters. These
    are as long as such a name can be drawn, since each "_" and "*" is shown escaped, as two."""
    return [f"{seat + 1}{'_*' * 15}_" for seat in range(players)]


def given_text(drawing: Drawing) -> str:
    """All the text a drawing was given, before any of it gave way."""
    embed = drawing.embed
    fields = [f"{f.name}\n{f.value}" for f in embed.fields]
    given = [embed.title or "", embed.description or "", *fields, embed.footer.text or ""]
    return "\n".join([*given, *drawing.latest, drawing.clock or "", *drawing.extra])


@pytest.mark.parametrize(("key", "players", "options", "seed", "every"), LARGEST)
def test_the_largest_tables_fit_whole_with_the_longest_names(
    key: str, players: int, options: dict[str, Any], seed: int, every: int
) -> None:
    """The largest table of every title, every seat a person with one of Discord's longest
    names, played to the end: every message fits Discord's limits (as above), and nothing had
    to give way for it: each name is drawn whole on the table, and every drawing shows all its
    Latest lines with no text cut (the most text is Spy Trap's `/table status`, 2,841 of 4,000
    characters; the most components 28, Zap or Trap's panel). Seen to fail with names four
    times as long as Discord allows (128 characters): the tables or `/table status` of every
    title but Trap then had to leave Latest lines out or cut text (and still fitted)."""
    reader = Reader(key, players, options, seed, every)
    names = longest_names(players)
    reader.table.seats = [SeatInfo(seat, USER_BASE + seat, name) for seat, name in enumerate(names)]
    reading = reader.play()
    found = [p for where, drawing in reading.drawings for p in problems(where, drawing)]
    assert found == [], "\n".join(found[:20])
    tables = [d.layout.text for where, d in reading.drawings if where.startswith(f"{key} table v")]
    assert all(escape(name) in "\n".join(tables) for name in names)
    cut_short = [
        where
        for where, drawing in reading.drawings
        if "earlier line" in drawing.layout.text
        or not all(line in drawing.layout.text for line in drawing.latest)
        or drawing.layout.text.count(ELLIPSIS) != given_text(drawing).count(ELLIPSIS)
    ]
    assert cut_short == [], cut_short[:10]


# --- what gives way first ------------------------------------------------------------------------


def buttons(n: int) -> list[discord.ui.Item[Any]]:
    """``n`` buttons, five to a row (past a classic View's five rows, in the first row with room)."""
    return [ActionButton(1, 2, f"b{i}", label=f"B{i}", row=i // 5 if i < 25 else None) for i in range(n)]


def test_the_latest_lines_give_way_first_and_the_newest_stays() -> None:
    """Latest lines too long for 4,000 characters lose their oldest lines; the state and fields
    stay whole, and a note says how many went and where they are. Seen to fail with
    ``_fit_text``'s first pass removed (the Latest text was then cut at its end, losing the
    newest line)."""
    embed = discord.Embed(title="Table", description="The state.")
    embed.add_field(name="Hands", value="x" * 1000, inline=False)
    latest = [f"{i}: " + "y" * 900 for i in range(5)]
    drawing = Drawing(
        embed, buttons(3), latest=latest, clock="Soon <t:1:R>", earlier="the table's 📜 History"
    )
    text = drawing.layout.text
    assert text_size(drawing) <= MAX_TEXT
    assert "x" * 1000 in text and "The state." in text and "Soon <t:1:R>" in text
    assert latest[-1] in text and latest[0] not in text
    left_out = sum(line not in text for line in latest)
    assert f"… {left_out} earlier lines left out: the table's 📜 History has them" in text


def text_size(drawing: Drawing) -> int:
    return sum(len(c["content"]) for c in walk(drawing.layout.components) if c.get("type") == 10)


def test_two_hundred_latest_lines_keep_the_newest_and_say_how_many_went() -> None:
    """200 Latest lines of names and news (cannot happen today: a table shows its last five, so
    this is what a future drawing would meet) on a table with every button row full, twelve
    fields and six pictures, so the fields and the Latest lines with the clock are merged too:
    within 4,000 characters and 40 components, every button and picture kept, the newest line
    whole, the clock kept, and a note for the lines left out. Seen to fail with the note left
    out of ``_latest`` (the lines went silently), and with ``_fit_text`` rebuilding the merged
    Latest block from its lines alone (the clock went)."""
    embed = discord.Embed(title="Table", description="The state.")
    for i in range(12):
        embed.add_field(name=f"F{i}", value=f"v{i}", inline=False)
    latest = [f"**{'n' * 32}** played the red {i} and said something long about it, " * 2 for i in range(200)]
    pictures = [Picture(f"p{i}.png", bytes([i]), f"Card {i}.") for i in range(6)]
    drawing = Drawing(embed, buttons(25), pictures, latest=latest, clock="Soon <t:1:R>")
    text = drawing.layout.text
    every = walk(drawing.layout.components)
    assert text_size(drawing) <= MAX_TEXT and len(every) <= MAX_COMPONENTS
    assert latest[-1] in text and latest[0] not in text and "Soon <t:1:R>" in text
    kept = sum(line in text for line in latest)
    assert kept > 10 and f"… {200 - kept} earlier lines left out to fit the message" in text
    assert len([c for c in every if c.get("type") == 2]) == 25
    assert len([i for c in every for i in c.get("items") or []]) == 6


def test_lines_left_out_point_to_history_where_the_table_message_has_it() -> None:
    """The note for Latest lines left out names the game's 📜 History where the table message
    carries that button (Trap's and GiftTRAP's tables, `/table status` of them, GiftTRAP's
    final table), and nothing where it doesn't (Trap's final table, which has its move record
    instead). Drawn by the referee's real TableDrawing from whole self-played games,
    the Latest lines then made too long to fit. Seen to fail with ``earlier`` left unset in
    ``TableDrawing.draw`` (every note said only "to fit the message")."""
    long = [f"{i}: " + "y" * 900 for i in range(5)]
    notes: dict[str, set[str]] = {}
    for key, players, options in (("trap", 2, {"quick_setup": True}), ("gifttrap", 3, {"track_length": 5})):
        for where, drawing in read_game(key, players, options, 3, panels_every=50).drawings:
            kind = where.split(" v")[0]
            if kind.endswith(("table", "status")) and not kind.endswith("stopped table"):
                text = replace(drawing, latest=long).layout.text
                notes.setdefault(kind, set()).add(text.split("left out", 1)[1].split("\n", 1)[0])
    history, plain = ": the table's 📜 History has them", " to fit the message"
    assert notes == {
        "trap table": {history},
        "trap /table status": {history},
        "trap final table": {plain},
        "gifttrap table": {history},
        "gifttrap /table status": {history},
        "gifttrap final table": {history},
    }


HOSTILE = "\\*\\*bold?\\*\\* \\_x\\_ <@\u200b123456789012345678> <t:1700000000:R> 👍🏽 🇫🇷"


def test_a_five_thousand_character_field_is_cut_on_a_safe_boundary() -> None:
    """A field of 5,000 characters of escaped names, neutralised mentions, timestamps and
    emoji, in bold (cannot happen today: the longest field is a few hundred characters, but a
    game could draw one): cut to fit with an ellipsis, never inside an escape, a mention, a
    timestamp or an emoji, its bold closed again; the buttons and the newest Latest line stay.
    Seen to fail with ``cut`` replaced by the plain ``shorten`` (it cut "<t:1700000000:R>" in
    half and left the bold open)."""
    embed = discord.Embed(title="Table", description="The state.")
    body = " ".join([HOSTILE] * 200)
    assert len(body) > 5000
    embed.add_field(name="Hands", value=f"**{body}**", inline=False)
    drawing = Drawing(embed, buttons(25), latest=["old news", "the newest line"], clock="Soon <t:1:R>")
    text = drawing.layout.text
    assert text_size(drawing) <= MAX_TEXT
    (field,) = [
        c["content"] for c in walk(drawing.layout.components) if c.get("content", "").startswith("**Hands")
    ]
    assert "…" in field and field.count("**") % 2 == 0
    kept = field[len("**Hands**\n") :].rstrip("*").removesuffix("…").rstrip()
    assert f"**{body}**".startswith(kept) and len(kept) > 3000
    assert safe_end(kept), kept[-40:]
    assert "the newest line" in text and "The state." in text
    assert len([c for c in walk(drawing.layout.components) if c.get("type") == 2]) == 25


def safe_end(kept: str) -> bool:
    """Whether a cut text ends between whole pieces: no escape, mention, timestamp or emoji split."""
    trailing = len(kept) - len(kept.rstrip("\\"))
    return (
        trailing % 2 == 0
        and kept.rfind("<") <= kept.rfind(">")
        and not kept.endswith(("\u200d", "\U0001f44d", "\U0001f1eb"))
    )


@given(
    st.lists(st.sampled_from([*HOSTILE.split(" "), "**", "\n", " ", "word", "`c3>c4`"]), max_size=60),
    st.integers(1, 300),
)
@settings(max_examples=300, deadline=None)
def test_cut_never_splits_a_piece(pieces: list[str], limit: int) -> None:
    """``cut`` over any mix of the pieces drawings hold: within the limit, a prefix of the text
    ending between whole pieces, every bold and code it opened closed. Seen to fail with the
    escape alternative taken out of ``_PIECE`` (a cut between "\\" and "*")."""
    text = "".join(pieces)
    out = cut(text, limit)
    assert len(out) <= limit
    if len(text) <= limit:
        assert out == text
        return
    assert out.endswith(tuple("…*`")) or out == ""
    kept = out.rstrip("*`").removesuffix("…").rstrip()
    assert text.startswith(kept) and safe_end(kept)
    assert out.count("**") % 2 == 0 or text[: len(kept)].count("`") % 2 == 1


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
    """A drawing whose buttons alone exceed the limit (50 buttons need 60 components; cannot
    happen today: the most is Trap's 5 × 5 panel) is refused, never sent without some of them,
    and the refusal says what it held (cogs/table/failures.py: Failure.TOO_LARGE; the person and
    the log are told: tests/fault/test_too_large.py). Seen to fail with the last check in
    ``lay_out`` removed (the LayoutView itself then raised a ValueError, not the builder's
    reason)."""
    with pytest.raises(LayoutTooLarge) as refused:
        _ = Drawing(discord.Embed(title="T"), buttons(50)).layout
    assert "50 buttons in 10 rows" in str(refused.value) and "at most 40" in str(refused.value)
    assert classify(refused.value) is Failure.TOO_LARGE


def test_pictures_share_galleries_rather_than_a_button_dropped() -> None:
    """30 pictures (each alone in a gallery, as they show whole) beside 24 buttons need 62
    components: the pictures share galleries of ten, each with its alt text, and every button
    stays (cannot happen today: the most pictures on a message is a Spy Trap panel's few).
    Seen to fail with ``_shared_galleries`` taken out of ``GIVE_WAY`` (LayoutTooLarge)."""
    pictures = [Picture(f"p{i}.png", bytes([i]), f"Card {i}.") for i in range(30)]
    items = buttons(24)
    drawing = Drawing(discord.Embed(title="T"), items, pictures, latest=["news"], clock="c")
    every = walk(drawing.layout.components)
    assert len(every) <= MAX_COMPONENTS
    assert sorted(alt for c in every for alt in (i["description"] for i in c.get("items") or [])) == sorted(
        p.alt for p in pictures
    )
    assert len([c for c in every if c.get("type") == 2]) == 24
    assert [a.filename for a in drawing.layout.attached] == [p.filename for p in pictures]
    assert v2_refusal(drawing.layout.components, [p.filename for p in pictures]) is None


def test_button_rows_are_packed_last_rather_than_a_button_dropped() -> None:
    """Five buttons the game put on five rows of their own, beside 31 files to download (cannot
    happen today: Trap's final table has one), need 43 components: once nothing else can give
    way, the buttons fill one row, in their order, every one kept. Seen to fail with
    ``_packed_rows`` taken out of ``GIVE_WAY`` (LayoutTooLarge)."""
    items = [ActionButton(1, 2, f"b{i}", label=f"B{i}", row=i) for i in range(5)]
    files = [Download(f"f{i}.txt", b"x") for i in range(31)]
    drawing = Drawing(discord.Embed(title="T"), items, downloads=files)
    every = walk(drawing.layout.components)
    assert len(every) <= MAX_COMPONENTS
    (row,) = [c for c in every if c.get("type") == 1]
    assert [b["custom_id"] for b in row["components"]] == [f"ga:1:2:b{i}" for i in range(5)]
    assert len([c for c in every if c.get("type") == 13]) == 31


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
