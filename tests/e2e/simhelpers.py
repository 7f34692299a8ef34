"""Helpers for driving the real bot through SimCord. The only module that touches SimCord
internals (raw interaction payloads for in-flight races and forged custom_ids)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord
from simcord import interactions as _interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult


def buttons(message: Any) -> list[dict[str, Any]]:
    """Every button on a message, flattened, as component dicts (label, custom_id, disabled…)."""
    found: list[dict[str, Any]] = []

    def walk(components: Any) -> None:
        for c in components or []:
            if isinstance(c, dict):
                if c.get("type") == 2:
                    found.append(c)
                walk(c.get("components"))
                walk([c["accessory"]] if isinstance(c.get("accessory"), dict) else None)
            else:  # a discord.py component object
                if isinstance(c, discord.components.Button):
                    found.append(
                        {"label": c.label, "custom_id": c.custom_id, "disabled": c.disabled, "emoji": c.emoji}
                    )
                walk(getattr(c, "children", None))
                accessory = getattr(c, "accessory", None)
                walk([accessory] if accessory is not None else None)

    walk(message.components)
    return found


def button_text(button: dict[str, Any]) -> str:
    emoji = button.get("emoji")
    name = emoji.get("name") if isinstance(emoji, dict) else (str(emoji) if emoji else "")
    return f"{name or ''}{button.get('label') or ''}"


ACTION = re.compile(r"ga:(\d+):(\d+):(.+)")


def playable(message: Any) -> list[dict[str, Any]]:
    """Enabled game-action buttons of a panel (not Refresh)."""
    out = []
    for b in buttons(message):
        m = ACTION.fullmatch(b.get("custom_id") or "")
        if m and not b.get("disabled") and m.group(3) != "refresh":
            out.append(b)
    return out


def action_of(button: dict[str, Any]) -> str:
    m = ACTION.fullmatch(button["custom_id"])
    assert m
    return m.group(3)


def texts(message: Any) -> list[str]:
    """The text of a V2 layout (cogs/table/layout.py): every TextDisplay's content, in order."""
    found: list[str] = []

    def walk(components: Any) -> None:
        for c in components or []:
            if isinstance(c, dict):
                if c.get("type") == 10:
                    found.append(str(c.get("content") or ""))
                walk(c.get("components"))
                walk([c["accessory"]] if isinstance(c.get("accessory"), dict) else None)
            else:
                if isinstance(c, discord.components.TextDisplay):
                    found.append(c.content)
                walk(getattr(c, "children", None))

    walk(message.get("components") if isinstance(message, dict) else getattr(message, "components", None))
    return found


def alt_texts(message: Any) -> list[str]:
    """Every picture's alt text on a V2 layout (MediaGallery items, Thumbnails)."""
    found: list[str] = []

    def walk(components: Any) -> None:
        for c in components or []:
            if isinstance(c, dict):
                for item in c.get("items") or []:
                    found.append(str(item.get("description") or ""))
                if c.get("type") == 11:
                    found.append(str(c.get("description") or ""))
                walk(c.get("components"))
                walk([c["accessory"]] if isinstance(c.get("accessory"), dict) else None)
            else:
                if isinstance(c, discord.components.MediaGalleryComponent):
                    found.extend(item.description or "" for item in c.items)
                if isinstance(c, discord.components.ThumbnailComponent):
                    found.append(c.description or "")
                walk(getattr(c, "children", None))
                accessory = getattr(c, "accessory", None)
                walk([accessory] if accessory is not None else None)

    walk(getattr(message, "components", None))
    return found


def title(message: Any) -> str:
    """A message's title: its embed's, or a V2 layout's heading (its first line, "## …")."""
    embeds = getattr(message, "embeds", None) or []
    if embeds:
        return embeds[0].title or ""
    for text in texts(message):
        first = text.split("\n", 1)[0]
        return first[3:] if first.startswith("## ") else ""
    return ""


def message_text(message: Any) -> str:
    """Everything a person sees on a message: content, embeds, a layout's texts, component labels."""
    parts = [getattr(message, "content", "") or ""]
    for embed in getattr(message, "embeds", []) or []:
        data = embed.to_dict() if hasattr(embed, "to_dict") else embed
        parts.append(_flatten(data))
    parts.extend(texts(message))
    for b in buttons(message):
        parts.append(button_text(b))
    return "\n".join(parts)


def _flatten(data: Any) -> str:
    if isinstance(data, dict):
        return "\n".join(_flatten(v) for v in data.values())
    if isinstance(data, list):
        return "\n".join(_flatten(v) for v in data)
    return str(data) if data is not None else ""


@dataclass
class InFlight:
    """A click emitted without waiting for the bot, so several can be in flight at once."""

    env: Any
    record: Any

    @property
    def result(self) -> InteractionResult:
        return InteractionResult(self.env, self.record)


def emit_click(
    actor: Any,
    message: Any,
    custom_id: str,
    *,
    channel_id: int | None = None,
    values: list[str] | None = None,
) -> InFlight:
    """Queue a component interaction as ``actor`` without settling (the real client allows a
    person to click while the bot is still busy; SimCord's own verbs settle after each one).
    ``custom_id`` need not exist on the message: this is also how a forged button is sent.
    With ``values``, it is a pick from a string select instead of a click."""
    env = actor._env
    backend = env.backend
    channel = getattr(message, "channel_id", None) or message.channel.id
    stored = backend.get_message(channel, message.id)
    guild = getattr(actor, "guild", None)
    record, payload = _interactions.base_payload(
        backend,
        type=InteractionType.MESSAGE_COMPONENT,
        channel_id=channel_id or stored.channel_id,
        guild_id=guild.id if guild is not None else None,
        user_id=actor.id,
        data=(
            {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
            if values is None
            else {"custom_id": custom_id, "component_type": ComponentType.STRING_SELECT, "values": values}
        ),
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return InFlight(env, record)


def answer_text(env: Any, flight: InFlight) -> str:
    """What the bot answered to this very click (the callback body), even if the same ephemeral
    message was edited again by a later click."""
    token = flight.record.token
    parts = [
        _flatten(entry.json) for entry in env.http_requests if token in entry.path and entry.json is not None
    ]
    return "\n".join(parts)


def reply_text(result: InteractionResult) -> str:
    """What the clicker was told: the (ephemeral) response and any follow-ups."""
    parts = []
    if result.response is not None:
        parts.append(message_text(result.response))
    for f in result.followups:
        parts.append(message_text(f))
    return "\n".join(parts)


def v2_refusal(components: list[dict[str, Any]], filenames: list[str]) -> str | None:
    """Why Discord would refuse this V2 layout with these attachments (SimCord's own checks of
    component kinds, nesting, the 40 components and 4,000 characters, alt text lengths, and
    every attachment://name having its file), or None if it would take it."""
    from simcord.components import (
        COMPONENTS_V2_FLAG,
        ComponentValidationError,
        resolve_attachment_references,
        validate_message_state,
    )

    try:
        checked = validate_message_state(components, flags=COMPONENTS_V2_FLAG, content=None, embeds=[])
        uploaded = [
            {"id": i, "filename": n, "url": f"https://cdn/{n}", "proxy_url": f"https://cdn/{n}", "size": 1}
            for i, n in enumerate(filenames)
        ]
        resolve_attachment_references(checked, uploaded)
    except ComponentValidationError as error:
        return str(error)
    return None


def all_components(message: Any) -> list[Any]:
    """Every component of a message as discord.py reads it back, nested ones too (a Container's
    children, a Section's accessory), in order."""
    found: list[Any] = []

    def walk(components: Any) -> None:
        for c in components or []:
            found.append(c)
            walk(getattr(c, "children", None))
            accessory = getattr(c, "accessory", None)
            walk([accessory] if accessory is not None else None)

    walk(getattr(message, "components", None))
    return found


def action_rows(message: Any) -> list[Any]:
    """A message's ActionRows, wherever they are (top level on a classic message, inside the
    Container of a V2 layout), as dicts or discord.py components as the message holds them."""
    found: list[Any] = []

    def walk(components: Any) -> None:
        for c in components or []:
            kind = c.get("type") if isinstance(c, dict) else getattr(c, "type", None)
            if kind in (1, discord.ComponentType.action_row):
                found.append(c)
                continue
            walk(c.get("components") if isinstance(c, dict) else getattr(c, "children", None))

    walk(message.get("components") if isinstance(message, dict) else getattr(message, "components", None))
    return found


def selects(message: Any) -> list[dict[str, Any]]:
    """Every select menu on a message (in its ActionRows, wherever they are), as component dicts."""
    found = []
    for row in action_rows(message):
        children = row.get("components", []) if isinstance(row, dict) else getattr(row, "children", [])
        for c in children:
            data = c if isinstance(c, dict) else c.to_dict()
            if data.get("type") == 3:
                found.append(data)
    return found


# --- what each REST call uploaded, and what the message held before and after ----------------

CALLBACK_PATH = re.compile(r"^/interactions/(\d+)/([^/]+)/callback$")
ORIGINAL_PATH = re.compile(r"^/webhooks/\d+/([^/]+)/messages/@original$")
MESSAGE_PATH = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
UPDATE_MESSAGE = 7  # the interaction callback that edits the clicked message


@dataclass
class Upload:
    """One REST call that sent or edited a message: the files it uploaded (name → bytes) and
    the message's attachments (name → (attachment id, bytes), from SimCord's store) before and
    after it. ``edit`` is False for a new message; ``failed`` when Discord refused the call."""

    method: str
    path: str
    message_id: int | None
    edit: bool
    files: dict[str, bytes]
    before: dict[str, tuple[int, bytes]]
    after: dict[str, tuple[int, bytes]]
    failed: bool

    @property
    def kept(self) -> set[str]:
        """Names whose attachment the message still holds (the same id: not uploaded again)."""
        return {n for n, (i, _) in self.after.items() if n in self.before and self.before[n][0] == i}

    @property
    def wasted(self) -> set[str]:
        """Names uploaded again with exactly the bytes the message held under them already."""
        return {n for n in self.files if n in self.before and self.before[n][1] == self.files[n]}

    @property
    def changed(self) -> set[str]:
        """Names whose bytes the edit changed, or that were new to the message."""
        return {n for n, (_, data) in self.after.items() if n not in self.before or self.before[n][1] != data}


def _file_bytes(file: Any) -> bytes:
    fp = file.fp
    where = fp.tell()
    data = fp.read()
    fp.seek(where)
    return bytes(data)


def held_pictures(backend: Any, channel_id: int, message_id: int) -> dict[str, tuple[int, bytes]]:
    """A message's attachments as SimCord holds them: name → (attachment id, the stored bytes)."""
    message = backend.get_message(channel_id, message_id)
    return {
        str(a["filename"]): (int(a["id"]), backend.cdn.get(a["url"]) or b"")
        for a in message.attachments or []
    }


def watch_uploads(env: Any) -> tuple[list[Upload], Any]:
    """Record every call that sends or edits a message (a channel or DM message, a click's
    answer, an interaction's original response), with what it uploaded and what the message
    held before and after (SimCord's stored attachments). Returns the list and an undo."""
    from simcord.http import router

    backend = env.backend
    original = router.dispatch
    uploads: list[Upload] = []

    def target(method: str, path: str, json: Any) -> tuple[int, int] | None:
        """(channel id, message id) of the message this call edits, if it edits one."""
        if method == "PATCH" and (m := MESSAGE_PATH.match(path)) and m.group(2):
            return int(m.group(1)), int(m.group(2))
        if method == "POST" and (m := CALLBACK_PATH.match(path)):
            record = backend.interactions.get(int(m.group(1)))
            if record is not None and isinstance(json, dict) and json.get("type") == UPDATE_MESSAGE:
                return record.channel_id, record.source_message_id
        if method == "PATCH" and (m := ORIGINAL_PATH.match(path)):
            record = backend.interaction_by_token(m.group(1))
            if record.message_id is not None:
                return record.channel_id, record.message_id
        return None

    def dispatch(backend_: Any, method: str, path: str, **kwargs: Any) -> Any:
        json = kwargs.get("json")
        files = {f.filename: _file_bytes(f) for f in kwargs.get("files") or []}
        where = target(method, path, json)
        before = held_pictures(backend, *where) if where is not None else {}
        failed = False
        try:
            result = original(backend_, method, path, **kwargs)
        except Exception:
            failed = True
            raise
        finally:
            after: dict[str, tuple[int, bytes]] = {}
            message_id = where[1] if where is not None else None
            if where is not None and not failed:
                after = held_pictures(backend, *where)
            elif not failed and isinstance(result, dict):
                # A new message: the answer carries it (a send, or a callback's resource).
                made = result.get("resource", {}).get("message") if "resource" in result else result
                if isinstance(made, dict) and "id" in made and "channel_id" in made:
                    message_id = int(made["id"])
                    after = held_pictures(backend, int(made["channel_id"]), message_id)
            if where is not None or files:
                uploads.append(
                    Upload(method, path, message_id, where is not None, files, before, after, failed)
                )
        return result

    router.dispatch = dispatch

    def undo() -> None:
        router.dispatch = original

    return uploads, undo
