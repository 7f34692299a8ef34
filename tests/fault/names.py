"""Hostile names for tests/fault/test_hostile_names.py: names people may choose, what a drawing
may make of them, and the model-based check that it makes nothing else.

A name is input. Whatever it holds ("@everyone", "<@someone>", "<@&a role>", "**", back-ticks,
a right-to-left override, 32 characters of markdown), a drawing must show it as inert text:

- in Discord markdown (message text, embed titles, descriptions, field names and values) as
  ``markdown_name``: every markdown character escaped, every mention broken by a zero-width space,
  no character that reorders the line;
- where Discord shows text as it is (button and select labels, placeholders, footers, thread
  names) as ``plain_name``: no reordering characters, mentions broken;
- in a file (History's .txt, Trap's move list) as the name as chosen, minus reordering characters.

``inert_problems`` checks those forms without the bot's help (a small model of what Discord reads
as markdown or a mention). The model-based check renders the same state twice, once with the
hostile names and once with plain names of the same length (``twin_name``), and requires the two
to be identical once each hostile name's form is replaced by its twin: then a name reached the
output only in its inert form, never raw, never half-escaped, never twice-escaped.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import discord

from cogs.drawings.zaptrap_panel import SHORT_NAME
from cogs.gifttrap import NAME_WIDTH
from cogs.table.common import as_text, escape, markdown_name, plain_name
from cogs.table.drawing import TableDrawing
from cogs.table.layout import shorten
from cogs.table.lobby import Clicker, Lobby
from cogs.table.model import SeatInfo, Table
from cogs.table.pings import Announcer
from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from rules import get_game
from rules.base import JSON, Event
from tests.fault.twins import component

ZWSP = "\u200b"
# 32 characters (Discord's longest display name) of nothing but markdown: the longest escape.
LONG = ("*_~|`" * 7)[:30] + "**"
REORDERING = re.compile(
    r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\x00-\x09\x0b-\x1f\x7f-\x9f]"
)  # not \n: drawings have lines
# What Discord reads as a mention or a live token.
LIVE = re.compile(r"<@[!&]?\d|<#\d|</[\w-]|<a?:\w+:\d|<t:-?\d|<id:\w|@everyone|@here")
MARKDOWN = set("*_~|`")


def roster(member_id: int, role_id: int) -> list[str]:
    """Eight names people may choose, each as hostile as Discord allows (at most 32 characters):
    ``member_id`` a real member who is not seated, ``role_id`` a mentionable role."""
    names = [
        "@everyone",
        "@here",
        f"<@{member_id}>",
        f"<@&{role_id}>",
        "**bold** __under__ ~~gone~~",
        "> `tick` ||spoiler||",
        LONG,
        "\u202eevil\u202c twin",
    ]
    assert all(len(name) <= 32 for name in names), "Discord names are at most 32 characters"
    return names


def as_chosen(name: str) -> str:
    """What a name must read as wherever it is shown: as its owner wrote it, minus the invisible
    characters that reorder the line."""
    return REORDERING.sub("", name).strip()


def forms(name: str) -> dict[str, str]:
    """The name as each kind of place must show it (the bot's own helpers)."""
    return {
        "markdown": markdown_name(name),
        "plain": plain_name(name),
        "text": plain_name(name).replace(ZWSP, ""),
    }


def inert_problems(name: str) -> list[str]:
    """Whether each form of ``name`` is inert, by a small model of Discord's reading rather than
    the bot's own code: in markdown, no markdown character unescaped, no line-start markup, no
    masked link; nowhere a live mention or token, or a reordering character; and each form reads
    as the name was chosen."""
    found = []
    shown = forms(name)
    markdown = shown["markdown"]
    unescaped, i = [], 0
    while i < len(markdown):
        if markdown[i] == "\\":
            i += 2
            continue
        if markdown[i] in MARKDOWN:
            unescaped.append(markdown[i])
        i += 1
    if unescaped:
        found.append(f"{name!r}: markdown {markdown!r} leaves {''.join(unescaped)!r} unescaped")
    if re.match(r"\s*[>#-]", markdown) or re.search(r"(?<!\\)\[.*\]\(", markdown):
        found.append(f"{name!r}: markdown {markdown!r} starts a quote, heading, list or link")
    for kind, text in shown.items():
        if kind != "text" and LIVE.search(text):
            found.append(f"{name!r}: {kind} {text!r} holds a live mention or token")
        if REORDERING.search(text):
            found.append(f"{name!r}: {kind} {text!r} holds a reordering or control character")
    reads = {
        "markdown": re.sub(r"\\(.)", r"\1", markdown).replace(ZWSP, ""),
        "plain": shown["plain"].replace(ZWSP, ""),
        "text": shown["text"],
    }
    for kind, text in reads.items():
        if text != as_chosen(name):
            found.append(f"{name!r}: {kind} reads {text!r}, not {as_chosen(name)!r}")
    return found


def twin_name(index: int, name: str) -> str:
    """A plain name as long as ``name``'s plain form, different for each index."""
    return ("P" + chr(ord("a") + index) * 40)[: len(plain_name(name))]


# --- what a drawing shows, by kind of place --------------------------------------------------------

Leaf = tuple[str, str, str]  # (where, kind of place: markdown | plain | text, the text)


def embed_leaves(where: str, embed: discord.Embed) -> Iterator[Leaf]:
    data = embed.to_dict()
    for key in ("title", "description"):
        if data.get(key):
            yield f"{where}.{key}", "markdown", str(data[key])
    for i, field in enumerate(data.get("fields", [])):
        yield f"{where}.fields[{i}].name", "markdown", str(field["name"])
        yield f"{where}.fields[{i}].value", "markdown", str(field["value"])
    if (footer := data.get("footer")) and footer.get("text"):
        yield f"{where}.footer", "plain", str(footer["text"])
    if (author := data.get("author")) and author.get("name"):
        yield f"{where}.author", "plain", str(author["name"])


def item_leaves(where: str, items: list[discord.ui.Item[Any]]) -> Iterator[Leaf]:
    for i, item in enumerate(items):
        data = component(item)
        for key in ("label", "placeholder"):
            if data.get(key):
                yield f"{where}[{i}].{key}", "plain", str(data[key])
        for j, option in enumerate(data.get("options", [])):
            yield f"{where}[{i}].options[{j}].label", "plain", str(option["label"])
            if option.get("description"):
                yield f"{where}[{i}].options[{j}].description", "plain", str(option["description"])


def make_table(key: str, data: JSON | None, names: list[str], status: str = "playing") -> Table:
    game = get_game(key)
    state = game.from_json(data) if data is not None else None
    seats = [SeatInfo(i, 1000 + i, name) for i, name in enumerate(names)]
    if state is not None and state.is_over():
        status = "finished"
    return Table(
        id=7,
        guild_id=1,
        channel_id=2,
        game=game,
        host_id=1000,
        settings={"seats": len(names), "rules": data["options"] if data is not None else {}},
        speed="relaxed",
        seed=0,
        status=status,
        seats=seats,
        state=state,
        version=42,
    )


def _drawing(cls: type, key: str) -> TableDrawing:
    referee = Referee(None, None, Scheduler())  # type: ignore[arg-type]  # never started: draws only
    referee.register(cls())
    return referee.drawing


def render_game(cls: type, key: str, data: JSON, events: list[JSON], names: list[str]) -> list[Leaf]:
    """Everything drawn from this state with these seat names: the table message and its buttons,
    the log lines and the announcements (as posted) for the events that led here, round and final
    posts, `/table status`, History (as a message and as its .txt), the line a thread table keeps
    in its parent channel, and every seat's panel with every page its navigation opens."""
    table = make_table(key, data, names)
    happened = [Event.from_json(e) for e in events]
    ui = cls()
    out: list[Leaf] = list(embed_leaves("table", ui.table_embed(table)))
    out += item_leaves("table.items", ui.table_items(table))
    out += [(f"line[{i}]", "markdown", cls().event_line(table, e)) for i, e in enumerate(happened)]
    if table.status == "playing" and hasattr(ui, "announcements"):
        for i, a in enumerate(cls().announcements(table, happened)):
            line = Announcer.line(a, [1000 + seat for seat in a.seats])
            out.append((f"announcement[{i}]", "markdown", line))
    for i, e in enumerate(happened):
        if e.kind == "round_over" and (embed := cls().round_embed(table, e)) is not None:
            out += embed_leaves(f"round[{i}]", embed)
    if table.status == "finished":
        out += embed_leaves("final", cls().final_embed(table))
    drawing = _drawing(cls, key)
    status = drawing.status_drawing(table)
    out += embed_leaves("status", status.embed)
    out += [("status.waiting", "markdown", line) for line in status.extra]
    out += [(f"status.alt[{i}]", "plain", p.alt) for i, p in enumerate(status.pictures)]
    out.append(("thread line", "markdown", drawing.thread_line(table)))
    if hasattr(ui, "history"):
        history = cls().history(table)
        out += [("history", "markdown", history), ("history.txt", "text", as_text(history))]
    if table.status == "playing":
        for seat in range(len(names)):
            out += _panel_leaves(cls, key, data, names, seat)
    return out


def _panel_leaves(cls: type, key: str, data: JSON, names: list[str], seat: int) -> list[Leaf]:
    ui = cls()
    embed, items = ui.panel(make_table(key, data, names), seat, None)
    out = list(embed_leaves(f"panel {seat}", embed)) + list(item_leaves(f"panel {seat}.items", items))
    for item in items:
        inner = getattr(item, "item", item)
        custom_id = str(getattr(inner, "custom_id", "") or "")
        action = custom_id.split(":", 3)[-1] if custom_id.startswith(("ga:", "gs:")) else ""
        if not action.startswith("nav-"):
            continue
        # A "nav-" select (GiftTRAP's steps) leads to a step per option.
        steps = [action] if custom_id.startswith("ga:") else [action + str(o.value) for o in inner.options]
        for step in steps:
            embed, more = cls().panel(make_table(key, data, names), seat, None, step[4:])
            out += embed_leaves(f"panel {seat} {step}", embed)
            out += item_leaves(f"panel {seat} {step}.items", more)
    return out


def render_lobby(cls: type, key: str, names: list[str]) -> list[Leaf]:
    """A lobby with these names: seated, one more joining (the footer's note), the host leaving
    (the note names the new host), the new host cancelling (the ended table names them)."""
    lobby = Lobby({key: cls()})
    drawing = _drawing(cls, key)
    table = make_table(key, None, names[:-1], status="lobby")
    table.settings["seats"] = len(names)
    out = list(embed_leaves("lobby", lobby.embed(table))) + list(
        item_leaves("lobby.items", lobby.items(table))
    )
    out.append(("lobby thread line", "markdown", drawing.thread_line(table)))
    last = len(names) - 1
    joined = table.draft()
    note = lobby.edit(joined, Clicker(1000 + last, names[last], False), "join", None).note
    out += embed_leaves("lobby after join", lobby.embed(joined, note))
    out += item_leaves("lobby after join.items", lobby.items(joined))
    left = joined.draft()
    note = lobby.edit(left, Clicker(1000, names[0], False), "leave", None).note
    out += embed_leaves("lobby after leave", lobby.embed(left, note))
    cancelled = left.draft()
    heir = cancelled.host_id
    lobby.edit(cancelled, Clicker(heir, names[heir - 1000], False), "cancel", None)
    cancelled.status = "cancelled"
    out += embed_leaves("lobby cancelled", drawing.draw(cancelled).embed)
    return out


def differences(
    hostile: list[Leaf], plain: list[Leaf], names: list[str], where: str, seen: Counter[tuple[str, str]]
) -> list[str]:
    """Where the hostile rendering differs from the plain one by more than the names' forms.
    ``seen`` counts (kind of place, name) for every form met: proof the names were drawn."""
    twins = [twin_name(i, name) for i, name in enumerate(names)]
    swaps: dict[str, list[tuple[str, str, str]]] = {"markdown": [], "plain": [], "text": []}
    for name, twin in zip(names, twins, strict=True):
        shown = forms(name)
        for kind in swaps:
            swaps[kind].append((shown[kind], twin, name))
        # GiftTRAP's track lines cut a long name (the plain form, then escaped).
        swaps["markdown"].append((escape(plain_name(name)[:NAME_WIDTH]), twin[:NAME_WIDTH], name))
        # Zap or Trap's panel shortens a name on its buttons and in its lines (``short_names``:
        # the plain form cut, with an ellipsis; escaped where it is markdown).
        cut = shorten(plain_name(name), SHORT_NAME)
        swaps["plain"].append((cut, shorten(twin, SHORT_NAME), name))
        swaps["markdown"].append((escape(cut), shorten(twin, SHORT_NAME), name))
    for pairs in swaps.values():
        pairs.sort(key=lambda pair: -len(pair[0]))
    found = []
    if [(w, k) for w, k, _ in hostile] != [(w, k) for w, k, _ in plain]:
        return [f"{where}: the hostile and plain renderings have different parts"]
    for (part, kind, text), (_, _, expected) in zip(hostile, plain, strict=True):
        swapped = text
        for form, twin, name in swaps[kind]:
            if form in swapped:
                seen[(kind, name)] += 1
                swapped = swapped.replace(form, twin)
        if swapped != expected:
            found.append(f"{where} {part} ({kind}): {text!r} ≠ plain {expected!r}")
    return found


# --- the wire: every payload the bot sent, and what Discord made of it -----------------------------

MESSAGE_CALLS = [
    ("POST", re.compile(r"/channels/\d+/messages")),
    ("PATCH", re.compile(r"/channels/\d+/messages/\d+")),
    ("POST", re.compile(r"/interactions/\d+/[^/]+/callback")),
    ("PATCH", re.compile(r"/webhooks/\d+/[^/]+/messages/[^/]+")),
    ("POST", re.compile(r"/webhooks/\d+/[^/]+")),
]
THREADS = re.compile(r"/channels/\d+/threads")
MESSAGE_RESPONSES = {4, 7}  # an interaction answered with a message, or by editing one
USER_MENTION = re.compile(r"<@!?(\d+)>")


def payload_leaves(where: str, data: dict[str, Any]) -> Iterator[Leaf]:
    """Every text of a message payload, by kind of place."""
    if data.get("content"):
        yield f"{where}.content", "markdown", str(data["content"])
    for i, embed in enumerate(data.get("embeds") or []):
        yield from embed_leaves(f"{where}.embeds[{i}]", discord.Embed.from_dict(embed))

    def walk(components: Any, at: str) -> Iterator[Leaf]:
        for j, c in enumerate(components or []):
            for key in ("label", "placeholder"):
                if c.get(key):
                    yield f"{at}[{j}].{key}", "plain", str(c[key])
            if c.get("type") == 10:  # a V2 layout's text (cogs/table/layout.py) renders markdown
                yield f"{at}[{j}].content", "markdown", str(c.get("content") or "")
            # Alt text is read out, never rendered: names in it are as their owners chose them.
            for k, item in enumerate(c.get("items") or []):
                if item.get("description"):
                    yield f"{at}[{j}].items[{k}].description", "plain", str(item["description"])
            if c.get("type") == 11 and c.get("description"):
                yield f"{at}[{j}].description", "plain", str(c["description"])
            if isinstance(c.get("accessory"), dict):
                yield from walk([c["accessory"]], f"{at}[{j}].accessory")
            for k, option in enumerate(c.get("options") or []):
                yield f"{at}[{j}].options[{k}].label", "plain", str(option["label"])
                if option.get("description"):
                    yield f"{at}[{j}].options[{k}].description", "plain", str(option["description"])
            yield from walk(c.get("components"), f"{at}[{j}]")

    yield from walk(data.get("components"), f"{where}.components")


def wire_problems(env: Any, names: list[str], seated: set[int]) -> tuple[list[str], int, int]:
    """Every message the bot sent or edited (channel messages, DMs, interaction answers and their
    edits and follow-ups) and every thread it made, checked: the payload names its
    allowed_mentions, which allow no role, no @everyone or @here and no user outside ``seated``;
    no hostile name is shown but in its form for that place; no text holds a reordering
    character, a role mention or a user mention outside ``seated``. Returns (problems, payloads
    checked, payloads that pinged someone)."""
    found: list[str] = []
    checked = pinging = 0
    shown = [forms(name) for name in names]
    cuts = [escape(plain_name(name)[:NAME_WIDTH]) for name in names]
    for n, entry in enumerate(env.http_requests):
        body = entry.json if isinstance(entry.json, dict) else {}
        where = f"request {n} {entry.method} {entry.path}"
        if entry.method == "POST" and THREADS.fullmatch(entry.path):
            leaves: list[Leaf] = [(f"{where}.name", "plain", str(body.get("name", "")))]
        elif any(entry.method == m and p.fullmatch(entry.path) for m, p in MESSAGE_CALLS):
            if entry.path.endswith("/callback"):
                if body.get("type") not in MESSAGE_RESPONSES:
                    continue  # a deferral or a modal: no message
                body = body.get("data") or {}
            checked += 1
            allowed = body.get("allowed_mentions")
            if allowed is None:
                found.append(f"{where}: no allowed_mentions")
            else:
                users = {int(u) for u in allowed.get("users") or []}
                if allowed.get("parse") or allowed.get("roles") or allowed.get("replied_user"):
                    found.append(f"{where}: allowed_mentions {allowed} allow more than named users")
                if users - seated:
                    found.append(f"{where}: allowed_mentions {allowed} name someone not seated")
                pinging += bool(users)
            leaves = list(payload_leaves(where, body))
        else:
            continue
        for part, kind, text in leaves:
            rest = text
            for name, form, cut in zip(names, shown, cuts, strict=True):
                rest = rest.replace(form["markdown" if kind == "markdown" else "plain"], "")
                if kind == "markdown":
                    rest = rest.replace(cut, "")
                if name in rest:
                    found.append(f"{part}: {name!r} shown raw in {text!r}")
            if REORDERING.search(text):
                found.append(f"{part}: a reordering character in {text!r}")
            if "<@&" in rest or "@everyone" in rest or "@here" in rest:
                found.append(f"{part}: a role, @everyone or @here in {text!r}")
            if "\\\\" in rest:  # no roster name holds a backslash: this is an escape escaped again
                found.append(f"{part}: a name escaped twice in {text!r}")
            if {int(u) for u in USER_MENTION.findall(rest)} - seated:
                found.append(f"{part}: a mention of someone not seated in {text!r}")
    return found, checked, pinging


def ping_problems(env: Any, seated: set[int]) -> list[str]:
    """What Discord made of every message in the world (SimCord works out mentions and pings
    from content and allowed_mentions as Discord does): nobody outside ``seated`` mentioned or
    pinged, no role, no @everyone or @here."""
    found = []
    for channel_id, messages in env.backend.messages.items():
        for message in messages.values():
            where = f"message {message.id} in {channel_id} ({(message.content or '')[:60]!r})"
            if set(message.ping_user_ids) - seated or set(message.mention_user_ids) - seated:
                found.append(f"{where}: mentions or pings {message.mention_user_ids} {message.ping_user_ids}")
            if message.ping_role_ids or message.mention_role_ids or message.mention_everyone:
                found.append(f"{where}: mentions a role or everyone")
    return found
