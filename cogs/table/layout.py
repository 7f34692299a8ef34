"""Every drawing laid out as a Components V2 message: the one place a drawing becomes a LayoutView.

A game draws what it always drew, an embed and its buttons (``GameUI``), and may add pictures
(``Picture``: the bytes, a file name and the alt text a screen reader reads) and files to
download (``Download``: Trap's move record). ``Drawing`` carries all of it, with the table's
Latest lines and its clock apart from the game's text; ``Drawing.layout`` turns it into what
Discord is sent:

- one Container, its accent the embed's colour;
- the title (as a heading) and the state (the description) in one TextDisplay, or in a Section
  beside a Thumbnail when the drawing's only picture asks to be small;
- each field its own TextDisplay, except that a run of inline fields (which an embed lays side
  by side: they read as one) shares one;
- each picture in a MediaGallery of its own (shown whole: several in one are cropped to tiles),
  with its alt text as the item's description, and the footer under them as small text (-#),
  since it explains them (Trap's legend);
- the files to download as File components;
- the Latest lines and the Clock, each in its own TextDisplay;
- the buttons in ActionRows, in the rows the game gave them.

Discord's limits are kept here, for every drawing of every game: at most 40 components, counted
as Discord counts them (nested ones too), and 4,000 characters of text. Over the text limit the
Latest lines are shortened first (the oldest go), then the fields, then the state; over the
component limit text blocks are merged. Buttons are never dropped: a drawing whose buttons
alone are too many is the game's bug, and fails loudly (``LayoutTooLarge``) in the tests that
draw whole games (tests/e2e/test_v2_limits.py). Only the files a component refers to are
attached (``attachment://name``), made afresh for each send (discord.py closes them).

An edit need not upload a picture the message holds already: ``Held`` is what one message is
known to hold (per file name, the digest of the bytes sent and the attachment Discord made of
them), and ``Layout.attachments`` keeps every file whose bytes are unchanged by naming its
attachment, uploading only the rest. Who edits a message owns its ``Held`` (``TableMessages``
for table messages, ``Panels`` for panels).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeAlias

import discord

from cogs.table.common import escape

MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_ALT = 1024
ROW_WIDTH = 5  # an ActionRow holds five buttons, or one select
CONTROL_IDS = 1000  # above the ids Discord gives the rest of a message (at most 40 components)
ELLIPSIS = "…"
# Discord refers to an attachment by its file name; keep to characters it never rewrites.
FILENAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")


class LayoutTooLarge(ValueError):
    """A drawing that cannot be laid out within Discord's limits without dropping a button."""


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying so with an ellipsis."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS


@dataclass(frozen=True)
class Picture:
    """An image on a message. ``alt`` says in words everything the picture shows (it is read
    out by screen readers, and is what Discord shows if the image fails to load); it must hold
    only what every viewer of the message may know. ``small`` shows it as a Thumbnail beside the
    title instead of full width. The bytes are made by the game (off the event loop, or served
    from a cache keyed by what the picture shows): laying out never draws anything."""

    filename: str
    data: bytes
    alt: str
    small: bool = False

    def __post_init__(self) -> None:
        if not FILENAME.fullmatch(self.filename):
            raise ValueError(f"picture file name {self.filename!r} is not a plain file name")
        object.__setattr__(self, "alt", shorten(" ".join(self.alt.split()), MAX_ALT))

    @property
    def url(self) -> str:
        return f"attachment://{self.filename}"


@dataclass(frozen=True)
class Download:
    """A file the message carries to download (Trap's whole game as text)."""

    filename: str
    data: bytes

    def __post_init__(self) -> None:
        if not FILENAME.fullmatch(self.filename):
            raise ValueError(f"file name {self.filename!r} is not a plain file name")

    @property
    def url(self) -> str:
        return f"attachment://{self.filename}"


@dataclass
class Drawing:
    """What a message shows: the game's embed and buttons, its pictures and files, and (for a
    table) its Latest lines and clock. Laid out once, on first use (``layout``)."""

    embed: discord.Embed
    items: list[discord.ui.Item[Any]] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)
    downloads: list[Download] = field(default_factory=list)
    latest: list[str] = field(default_factory=list)
    clock: str | None = None
    # Text after everything else (``/table status``'s "Waiting on"), each its own TextDisplay.
    extra: list[str] = field(default_factory=list)

    @cached_property
    def layout(self) -> Layout:
        return lay_out(self)

    def files(self) -> list[discord.File]:
        """The attachments to send with the layout: fresh File objects every time (a File is
        spent once sent), only for what a component refers to."""
        return self.layout.files()

    def fingerprint(self) -> str:
        """What the message shows, as one string: its components and its attachments' bytes."""
        return self.layout.fingerprint


# What an edit's ``attachments=`` holds: an attachment the message keeps, or a file to upload.
Attachment: TypeAlias = discord.Attachment | discord.File


@dataclass(frozen=True)
class Held:
    """What one message is known to hold: for each of its file names, the digest of the bytes
    sent under it and the ``discord.Attachment`` Discord made of them. An attachment's bytes never
    change, so its id names those bytes for good; an edit that lists it keeps exactly them.

    Made only from the message Discord returned for a send or edit of a layout (``after``), so
    it never outlives a doubt: whoever edits the message some other way, or fails to, drops it
    and uploads everything next time (after a restart nothing is held)."""

    message_id: int
    files: Mapping[str, tuple[str, discord.Attachment]]

    @classmethod
    def after(cls, message: discord.Message | None, layout: Layout) -> Held | None:
        """What ``message`` holds, if it is what Discord returned for sending ``layout``: its
        attachments must be exactly the layout's files, by name and size; anything else (no
        message returned, a name Discord changed, a file missing) holds nothing for sure."""
        if message is None:
            return None
        attachments = list(message.attachments)
        by_name = {a.filename: a for a in attachments}
        sent = {a.filename: a for a in layout.attached}
        if len(by_name) != len(attachments) or by_name.keys() != sent.keys():
            return None
        if any(a.size != len(sent[name].data) for name, a in by_name.items()):
            return None
        return cls(message.id, {name: (layout.digests[name], a) for name, a in by_name.items()})


@dataclass(frozen=True)
class Layout:
    view: discord.ui.LayoutView
    attached: tuple[Picture | Download, ...]
    components: list[dict[str, Any]]

    def files(self) -> list[discord.File]:
        """Every file uploaded afresh (a new message, or an edit that knows nothing it holds)."""
        return [discord.File(io.BytesIO(a.data), filename=a.filename) for a in self.attached]

    def attachments(self, held: Held | None, message_id: int | None) -> list[Attachment]:
        """The ``attachments=`` of an edit of message ``message_id``: each file that message
        holds already with the same bytes is kept by its attachment, the others uploaded. A
        ``Held`` of another message keeps nothing."""
        kept = held.files if held is not None and held.message_id == message_id else {}
        out: list[Attachment] = []
        for a in self.attached:
            holds = kept.get(a.filename)
            if holds is not None and holds[0] == self.digests[a.filename]:
                out.append(holds[1])
            else:
                out.append(discord.File(io.BytesIO(a.data), filename=a.filename))
        return out

    @cached_property
    def digests(self) -> dict[str, str]:
        """Each attached file's bytes, as a digest, by file name."""
        return {a.filename: hashlib.sha1(a.data).hexdigest() for a in self.attached}

    @cached_property
    def fingerprint(self) -> str:
        attached = [(a.filename, self.digests[a.filename]) for a in self.attached]
        return json.dumps([self.components, attached], default=str)

    @property
    def text(self) -> str:
        """Every TextDisplay's content, in order."""
        return "\n".join(c["content"] for c in walk(self.components) if c.get("type") == 10)


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones too (a Section's accessory, a Container's children), as
    Discord counts them."""
    found: list[dict[str, Any]] = []
    for c in components:
        found.append(c)
        found.extend(walk(c.get("components") or []))
        if isinstance(c.get("accessory"), dict):
            found.extend(walk([c["accessory"]]))
    return found


# --- laying out ----------------------------------------------------------------------------------


@dataclass
class _Text:
    """One TextDisplay to be: its text, and how it may be shortened (lower ``give`` first)."""

    kind: str  # "head", "field", "latest", "clock", "footer", "extra"
    text: str
    give: int  # order in which blocks give up characters: Latest first, the title last


def _blocks(drawing: Drawing) -> tuple[_Text, list[_Text], _Text | None, list[_Text]]:
    """The drawing's text: head (title and state), fields, footer, and the tail (Latest, clock,
    extra lines)."""
    embed = drawing.embed
    head = "\n".join(
        part for part in (f"## {embed.title}" if embed.title else "", embed.description or "") if part
    )
    fields: list[_Text] = []
    run: list[str] = []
    for f in embed.fields:
        text = f"**{f.name}**\n{f.value}" if f.name and f.name.strip() != "\u200b" else str(f.value)
        if f.inline:
            run.append(text)
            continue
        if run:
            fields.append(_Text("field", "\n".join(run), 2))
            run = []
        fields.append(_Text("field", text, 2))
    if run:
        fields.append(_Text("field", "\n".join(run), 2))
    footer = None
    if embed.footer and embed.footer.text:
        # An embed's footer is plain text (a name in it is as its owner wrote it); here it is
        # markdown, so it is escaped to read exactly as it did.
        lines = [f"-# {escape(line)}" for line in embed.footer.text.splitlines() if line]
        footer = _Text("footer", "\n".join(lines), 3)
    tail: list[_Text] = []
    if drawing.latest:
        tail.append(_Text("latest", "**Latest**\n" + "\n".join(drawing.latest), 1))
    if drawing.clock:
        tail.append(_Text("clock", f"**⏰ Clock** · {drawing.clock}", 4))
    tail.extend(_Text("extra", line, 4) for line in drawing.extra)
    return _Text("head", head or "\u200b", 5), fields, footer, tail


def _fit_text(blocks: list[_Text], latest_lines: list[str]) -> None:
    """Shorten blocks until all their text fits Discord's 4,000 characters: the oldest Latest
    lines go first, then the longest field, then the state."""

    def total() -> int:
        return sum(len(b.text) for b in blocks)

    for block in blocks:
        if block.kind == "latest":
            lines = list(latest_lines)
            while total() > MAX_TEXT and len(lines) > 1:
                lines.pop(0)
                block.text = "**Latest**\n" + "\n".join(lines)
    for kind in ("latest", "field", "footer", "extra", "clock", "head"):
        while total() > MAX_TEXT:
            candidates = [b for b in blocks if b.kind == kind and len(b.text) > 1]
            if not candidates:
                break
            longest = max(candidates, key=lambda b: len(b.text))
            longest.text = shorten(longest.text, max(1, len(longest.text) - (total() - MAX_TEXT)))


def _rows(items: list[discord.ui.Item[Any]]) -> list[list[discord.ui.Item[Any]]]:
    """The buttons in the rows the game gave them, as a classic View places them: an item with a
    row goes there, one without goes into the first row with room."""
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    used: dict[int, int] = {}
    for item in items:
        width = item.width
        row = item.row
        if row is None:
            row = 0
            while used.get(row, 0) + width > ROW_WIDTH:
                row += 1
        elif used.get(row, 0) + width > ROW_WIDTH:
            raise LayoutTooLarge(f"item would not fit at row {row}")
        rows.setdefault(row, []).append(item)
        used[row] = used.get(row, 0) + width
    return [rows[r] for r in sorted(rows)]


def lay_out(drawing: Drawing) -> Layout:
    head, fields, footer, tail = _blocks(drawing)
    rows = _rows(drawing.items)
    pictures = list(drawing.pictures)
    thumb = pictures.pop(0) if len(pictures) == 1 and pictures[0].small else None
    # One picture a gallery: a gallery of several crops each to a tile (a hand of seven cards
    # would show two), while a gallery of one shows its picture whole, at its own proportions.
    galleries = [[p] for p in pictures]

    # Count the components as Discord does: container, texts, a section and its accessory,
    # galleries, files, a separator, rows and what is in them.
    fixed = 1 + len(galleries) + len(drawing.downloads) + len(rows) + len(drawing.items)
    fixed += 2 if thumb is not None else 0  # the Section and its Thumbnail (beside the head)
    texts = [head, *fields, *([footer] if footer else []), *tail]
    separator = bool(tail)

    def count() -> int:
        return fixed + len(texts) + (1 if separator else 0)

    if count() > MAX_COMPONENTS:
        separator = False
    if count() > MAX_COMPONENTS and len(fields) > 1:
        merged = _Text("field", "\n\n".join(f.text for f in fields), 2)
        texts = [t for t in texts if t.kind != "field"]
        texts.insert(1, merged)
        fields = [merged]
    if count() > MAX_COMPONENTS and len(tail) > 1:
        merged = _Text(
            "latest" if any(t.kind == "latest" for t in tail) else "extra",
            "\n\n".join(t.text for t in tail),
            1,
        )
        texts = [t for t in texts if t not in tail] + [merged]
        tail = [merged]
    if count() > MAX_COMPONENTS:
        raise LayoutTooLarge(f"{count()} components, at most {MAX_COMPONENTS}: too many buttons to draw")
    _fit_text(texts, drawing.latest)

    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=drawing.embed.colour)
    if thumb is not None:
        container.add_item(
            discord.ui.Section(
                discord.ui.TextDisplay(head.text),
                accessory=discord.ui.Thumbnail(thumb.url, description=thumb.alt),
            )
        )
    else:
        container.add_item(discord.ui.TextDisplay(head.text))
    for block in fields:
        container.add_item(discord.ui.TextDisplay(block.text))
    for gallery in galleries:
        container.add_item(
            discord.ui.MediaGallery(*(discord.MediaGalleryItem(p.url, description=p.alt) for p in gallery))
        )
    if footer is not None:
        container.add_item(discord.ui.TextDisplay(footer.text))
    for download in drawing.downloads:
        container.add_item(discord.ui.File(download.url))
    if separator:
        container.add_item(discord.ui.Separator())
    for block in tail:
        container.add_item(discord.ui.TextDisplay(block.text))
    for r, row in enumerate(rows):
        action_row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for i, item in enumerate(row):
            # A control's id names its place in the rows, as a classic message's row and column
            # did: unset, Discord numbers every component in order, so a button's id would move
            # whenever a text above it came or went (what the offline page names a click by).
            getattr(item, "item", item).id = CONTROL_IDS + 10 * r + i
            action_row.add_item(item)
        container.add_item(action_row)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    # Not stored or timed by discord.py: clicks arrive through the registered DynamicItems.
    view.stop()
    attached: list[Picture | Download] = [*([thumb] if thumb else []), *pictures, *drawing.downloads]
    components: list[dict[str, Any]] = view.to_components()  # type: ignore[no-untyped-call]
    return Layout(view, tuple(attached), components)
