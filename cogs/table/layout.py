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
as Discord counts them (nested ones too), and 4,000 characters of text. What gives way, in turn:

- over the text limit, the oldest Latest lines (the newest always stays, and a note says how many
  went and where they can still be read: the game's 📜 History, if it keeps one); then the
  longest text is cut (``cut``: with an ellipsis, between whole pieces of markdown, so no
  escaped name, mention, timestamp or emoji is split, and a bold it opened is closed); the clock
  and the state last;
- over the component limit (``GIVE_WAY``): the separator, then text blocks are merged, pictures
  share galleries (each keeps its alt text), and last the buttons fill their rows.

Nothing a person acts with is dropped: a drawing whose buttons alone are too many is the game's
bug and raises ``LayoutTooLarge``, saying what it held. cogs/table/failures.py classifies it
(``Failure.TOO_LARGE``): a click is told why in private (what it played still counts), a table
message keeps its last drawing, and the log says what was too large; nothing is retried, since
the same drawing would fail the same way. Only the files a component refers to are attached
(``attachment://name``), made afresh for each send (discord.py closes them).

An edit need not upload a picture the message holds already: ``Held`` is what one message is
known to hold (per file name, the digest of the bytes sent and the attachment Discord made of
them), and ``Layout.attachments`` keeps every file whose bytes are unchanged by naming its
attachment, uploading only the rest. Who edits a message owns its ``Held`` (``TableMessages``
for table messages, ``Panels`` for panels).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeAlias

import discord

import cogs.texts as texts
from cogs.table.common import escape
from cogs.table.rendered import Upload, rendered
from cogs.texts import Texts

T = Texts(__name__)

MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_ALT = 1024
ROW_WIDTH = 5  # an ActionRow holds five buttons, or one select
GALLERY_ITEMS = 10  # a MediaGallery holds ten pictures
CONTROL_IDS = 1000  # above the ids Discord gives the rest of a message (at most 40 components)
FRESH_IDS = 1_000_000  # and above those: a control the panel wants drawn afresh
ELLIPSIS = "…"
# Discord refers to an attachment by its file name; keep to characters it never rewrites.
FILENAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")


class LayoutTooLarge(ValueError):
    """A drawing that cannot be laid out within Discord's limits without dropping a button: its
    message says what it holds (cogs/table/failures.py classifies it, as ``Failure.TOO_LARGE``)."""

    def __init__(self, what: str, *, components: int | None = None) -> None:
        super().__init__(what)
        self.components = components


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
    # Where Latest lines left out for room can still be read ("📜 History"), if anywhere.
    earlier: str | None = None
    # The language it was drawn in: its layout adds words of its own ("Latest", "Clock"), made
    # when it is first used, which may be elsewhere (a send or an edit outside the drawing).
    language: str = field(default_factory=texts.language)

    @cached_property
    def layout(self) -> Layout:
        with texts.speaking(self.language):
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
        return [Upload(a.data, a.filename) for a in self.attached]

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
                out.append(Upload(a.data, a.filename))
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


# --- cutting text safely ---------------------------------------------------------------------------

# The pieces of a drawing's markdown a cut must never split: an escape ("\*" from a name), a
# mention, channel, emoji or timestamp ("<t:1:R>", also with the invisible break that keeps a
# name's "<@…>" plain), a formatting marker, a flag (two regional indicators), and a character
# with what joins it (a ZWJ sequence, a variation selector, a skin tone, a keycap, an accent).
_PIECE = re.compile(
    r"\\.|<[^<>\s]{1,120}>|```|\*\*|__|~~|\|\||`|[\U0001f1e6-\U0001f1ff]{2}"
    r"|.(?:\u200d.|[\ufe0e\ufe0f\u20e3\U0001f3fb-\U0001f3ff\u0300-\u036f])*",
    re.S,
)
# Markers that open a style until they come again; an open one is closed after the ellipsis.
# (Single * and _ are not used for styles in drawings: the games bold, and names are escaped.)
_PAIRED = ("```", "**", "__", "~~", "||", "`")


def cut(text: str, limit: int) -> str:
    """``text`` (a drawing's markdown) in at most ``limit`` characters, ending in an ellipsis.
    It is cut between whole pieces (``_PIECE``), so no escape, mention, timestamp or emoji is
    split, and a bold, code or spoiler the kept part opened is closed again after the ellipsis.
    It prefers to drop whole lines, then whole words, as long as that keeps at least half of
    what fits."""
    if len(text) <= limit:
        return text
    if limit < len(ELLIPSIS):
        return ""
    pieces = _PIECE.findall(text)
    # For every place between pieces: how long the kept text is there and what it leaves open.
    best: dict[str, tuple[int, tuple[str, ...]]] = {"any": (0, ())}
    opened: list[str] = []
    at = 0
    for i, piece in enumerate(pieces):
        if at + len(ELLIPSIS) + sum(map(len, opened)) <= limit:
            best["any"] = (at, tuple(opened))
            after = pieces[i - 1] if i else ""
            if piece == "\n" and at + 2 + sum(map(len, opened)) <= limit:
                best["line"] = (at, tuple(opened))
            elif piece.isspace() or after.isspace():
                best["word"] = (at, tuple(opened))
        if at > limit:
            break
        if piece in _PAIRED:
            # Inside code, only the marker that opened it means anything.
            code = bool(opened) and opened[-1] in ("```", "`")
            if piece == (opened[-1] if opened else None):
                opened.pop()
            elif not code and piece in opened:
                opened.remove(piece)
            elif not code:
                opened.append(piece)
        at += len(piece)
    for kind in ("line", "word", "any"):
        if kind in best and (best[kind][0] * 2 >= limit or kind == "any"):
            end, still_open = best[kind]
            break
    kept = text[:end].rstrip()
    mark = (
        "\n" + ELLIPSIS
        if kind == "line" and kept
        else (" " + ELLIPSIS if kind == "word" and kept else ELLIPSIS)
    )
    if len(kept) + len(mark) + sum(map(len, still_open)) > limit:
        mark = ELLIPSIS
    return kept + mark + "".join(reversed(still_open))


# --- laying out ----------------------------------------------------------------------------------


@dataclass
class _Text:
    """One TextDisplay to be: its text, and what kind of text it is (which gives way first)."""

    kind: str  # "head", "field", "latest", "clock", "footer", "extra"
    text: str


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
            fields.append(_Text("field", "\n".join(run)))
            run = []
        fields.append(_Text("field", text))
    if run:
        fields.append(_Text("field", "\n".join(run)))
    footer = None
    if embed.footer and embed.footer.text:
        # An embed's footer is plain text (a name in it is as its owner wrote it); here it is
        # markdown, so it is escaped to read exactly as it did.
        lines = [f"-# {escape(line)}" for line in embed.footer.text.splitlines() if line]
        footer = _Text("footer", "\n".join(lines))
    tail: list[_Text] = []
    if drawing.latest:
        tail.append(_Text("latest", _latest(drawing.latest, 0, drawing.earlier)))
    if drawing.clock:
        # The alarm clock says what the line is: a "Clock ·" label cost a phone a line.
        tail.append(_Text("clock", T.gettext("⏰ {clock}", clock=drawing.clock)))
    tail.extend(_Text("extra", line) for line in drawing.extra)
    return _Text("head", head or "\u200b"), fields, footer, tail


def _latest(lines: list[str], left_out: int, earlier: str | None) -> str:
    """The Latest block: its newest lines, and what was left out for room and where it is."""
    shown = lines[left_out:]
    title = T.gettext("**Latest**")
    if not left_out:
        return title + "\n" + "\n".join(shown)
    if earlier:
        note = T.ngettext(
            "{n} earlier line left out: {where} has them",
            "{n} earlier lines left out: {where} has them",
            left_out,
            where=earlier,
        )
    else:
        note = T.ngettext(
            "{n} earlier line left out to fit the message",
            "{n} earlier lines left out to fit the message",
            left_out,
        )
    return title + "\n" + f"-# {ELLIPSIS} {note}" + "\n" + "\n".join(shown)


def _fit_text(blocks: list[_Text], drawing: Drawing) -> None:
    """Shorten blocks until all their text fits Discord's 4,000 characters: the oldest Latest
    lines go first (the newest always stays, and a note says how many went and where they can
    be read), then the longest text is cut (``cut``), then the clock and the state."""

    def total() -> int:
        return sum(len(b.text) for b in blocks)

    whole = _latest(drawing.latest, 0, drawing.earlier) if drawing.latest else None
    for block in blocks:
        if whole is not None and block.kind == "latest" and block.text.startswith(whole):
            rest = block.text[len(whole) :]  # the clock and extra lines, if the tail was merged
            left_out = 0
            while total() > MAX_TEXT and left_out < len(drawing.latest) - 1:
                left_out += 1
                block.text = _latest(drawing.latest, left_out, drawing.earlier) + rest
    for kinds in (("latest", "field", "footer", "extra"), ("clock",), ("head",)):
        while total() > MAX_TEXT:
            candidates = [b for b in blocks if b.kind in kinds and len(b.text) > len(ELLIPSIS)]
            if not candidates:
                break
            longest = max(candidates, key=lambda b: len(b.text))
            longest.text = cut(longest.text, max(len(ELLIPSIS), len(longest.text) - (total() - MAX_TEXT)))


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
            raise LayoutTooLarge(f"item would not fit at row {row}")  # text: for the log
        rows.setdefault(row, []).append(item)
        used[row] = used.get(row, 0) + width
    return [rows[r] for r in sorted(rows)]


def _packed(items: list[discord.ui.Item[Any]]) -> list[list[discord.ui.Item[Any]]]:
    """The buttons in their order, as few rows as they fill (a last resort: the game's own rows
    may mean something, a board's ranks say)."""
    rows: list[list[discord.ui.Item[Any]]] = []
    used = ROW_WIDTH
    for item in items:
        if used + item.width > ROW_WIDTH:
            rows.append([])
            used = 0
        rows[-1].append(item)
        used += item.width
    return rows


@dataclass
class _Plan:
    """What the Container will hold, counted as Discord counts components (nested ones too)."""

    head: _Text
    fields: list[_Text]
    footer: _Text | None
    tail: list[_Text]
    separator: bool
    thumb: Picture | None
    galleries: list[list[Picture]]
    downloads: list[Download]
    rows: list[list[discord.ui.Item[Any]]]

    def texts(self) -> list[_Text]:
        return [self.head, *self.fields, *([self.footer] if self.footer else []), *self.tail]

    def count(self) -> int:
        return (
            1  # the Container
            + (3 if self.thumb is not None else 1)  # the head, or a Section with it and a Thumbnail
            + len(self.fields)
            + (1 if self.footer else 0)
            + len(self.tail)
            + (1 if self.separator else 0)
            + len(self.galleries)
            + len(self.downloads)
            + len(self.rows)
            + sum(len(row) for row in self.rows)
        )

    def describe(self) -> str:
        buttons = sum(len(row) for row in self.rows)
        pictures = sum(map(len, self.galleries)) + (1 if self.thumb else 0)
        boxes = len(self.galleries) + (1 if self.thumb else 0)
        return (
            f"{self.count()} components, at most {MAX_COMPONENTS}: {buttons} buttons in "
            f"{len(self.rows)} rows, {len(self.texts())} texts, {pictures} pictures in "
            f"{boxes} components, {len(self.downloads)} files"  # text: for the log
        )


def _no_separator(plan: _Plan) -> None:
    plan.separator = False


def _one_field(plan: _Plan) -> None:
    if len(plan.fields) > 1:
        plan.fields = [_Text("field", "\n\n".join(f.text for f in plan.fields))]


def _one_tail(plan: _Plan) -> None:
    if len(plan.tail) > 1:
        kind = "latest" if any(t.kind == "latest" for t in plan.tail) else "extra"
        plan.tail = [_Text(kind, "\n\n".join(t.text for t in plan.tail))]


def _shared_galleries(plan: _Plan) -> None:
    """Pictures share galleries (a gallery of several shows each as a tile, which a click
    opens whole), the small one too: fewer components, every picture and its words kept."""
    pictures = [*([plan.thumb] if plan.thumb else []), *(p for g in plan.galleries for p in g)]
    plan.thumb = None
    plan.galleries = [pictures[i : i + GALLERY_ITEMS] for i in range(0, len(pictures), GALLERY_ITEMS)]


def _head_and_fields(plan: _Plan) -> None:
    if plan.fields and plan.thumb is None:
        plan.head = _Text("head", "\n\n".join([plan.head.text, *(f.text for f in plan.fields)]))
        plan.fields = []


def _packed_rows(plan: _Plan) -> None:
    plan.rows = _packed([item for row in plan.rows for item in row])


# What gives way, in turn, while a drawing has more components than Discord allows. Nothing is
# dropped: text blocks are merged, pictures share galleries, buttons fill their rows.
GIVE_WAY = (_no_separator, _one_field, _one_tail, _shared_galleries, _head_and_fields, _packed_rows)


def lay_out(drawing: Drawing) -> Layout:
    head, fields, footer, tail = _blocks(drawing)
    pictures = list(drawing.pictures)
    thumb = pictures.pop(0) if len(pictures) == 1 and pictures[0].small else None
    plan = _Plan(
        head=head,
        fields=fields,
        footer=footer,
        tail=tail,
        # A line between the game and the table's Latest lines (they read as a log); a clock
        # or an extra line alone follows the game without one (on a phone it is a line's height).
        separator=any(t.kind == "latest" for t in tail),
        thumb=thumb,
        # One picture a gallery: a gallery of several crops each to a tile (a hand of seven
        # cards would show two), while a gallery of one shows its picture whole.
        galleries=[[p] for p in pictures],
        downloads=list(drawing.downloads),
        rows=_rows(drawing.items),
    )
    for give_way in GIVE_WAY:
        if plan.count() <= MAX_COMPONENTS:
            break
        give_way(plan)
    if plan.count() > MAX_COMPONENTS:
        raise LayoutTooLarge(plan.describe(), components=plan.count())
    _fit_text(plan.texts(), drawing)

    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=drawing.embed.colour)
    if plan.thumb is not None:
        container.add_item(
            discord.ui.Section(
                discord.ui.TextDisplay(plan.head.text),
                accessory=discord.ui.Thumbnail(plan.thumb.url, description=plan.thumb.alt),
            )
        )
    else:
        container.add_item(discord.ui.TextDisplay(plan.head.text))
    for block in plan.fields:
        container.add_item(discord.ui.TextDisplay(block.text))
    for gallery in plan.galleries:
        container.add_item(
            discord.ui.MediaGallery(*(discord.MediaGalleryItem(p.url, description=p.alt) for p in gallery))
        )
    after = [block.text for block in plan.tail]
    if plan.footer is not None:
        # The footer and what follows it directly (a panel's clock) are one text: Discord puts
        # a gap between components, which a phone pays for in height.
        adjacent = not plan.downloads and not plan.separator and after
        container.add_item(
            discord.ui.TextDisplay(
                "\n".join([plan.footer.text, after.pop(0)]) if adjacent else plan.footer.text
            )
        )
    for download in plan.downloads:
        container.add_item(discord.ui.File(download.url))
    if plan.separator:
        container.add_item(discord.ui.Separator())
    for text in after:
        container.add_item(discord.ui.TextDisplay(text))
    for r, row in enumerate(plan.rows):
        action_row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for i, item in enumerate(row):
            # A control's id names its place in the rows, as a classic message's row and column
            # did: unset, Discord numbers every component in order, so a button's id would move
            # whenever a text above it came or went (what the offline page names a click by).
            # An id from FRESH_IDS up was chosen by the panel to have a control drawn afresh
            # (cogs/table/buttons.py, ActionSelect): it stays.
            control = getattr(item, "item", item)
            if control.id is None or control.id < FRESH_IDS:
                control.id = CONTROL_IDS + 10 * r + i
            action_row.add_item(item)
        container.add_item(action_row)
    built = discord.ui.LayoutView(timeout=None)
    built.add_item(container)
    # Not stored or timed by discord.py: clicks arrive through the registered DynamicItems. Sent
    # as its components only, the items taken apart (cogs/table/rendered.py: their cycles were
    # most of the garbage a click left).
    view = rendered(built)
    attached: list[Picture | Download] = [
        *([plan.thumb] if plan.thumb else []),
        *(p for g in plan.galleries for p in g),
        *plan.downloads,
    ]
    return Layout(view, tuple(attached), view.to_components())
