"""The offline page's own requests, made from Python: what the browser page sends to SimCord's
preview server (its protocol 3: open a page, read its copy, send an action naming the revision it
was made on). For tests that need the page's timing exactly (a read whose answer is dropped, a
click mid-advance), which a browser cannot be made to hit on purpose. tests/browser drives the
real page."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import aiohttp


@dataclass(frozen=True)
class Control:
    """A button as the page's copy shows it: the key the page clicks it by, and what it says."""

    key: str
    message_id: str
    label: str
    custom_id: str
    disabled: bool


def _controls(components: Any) -> Iterator[dict[str, Any]]:
    for node in components or []:
        if isinstance(node, dict):
            yield node
            yield from _controls(node.get("components"))
            if isinstance(node.get("accessory"), dict):  # a V2 Section's button
                yield from _controls([node["accessory"]])


class PageClient:
    """One browser tab's worth of the page: its context, its sequence, the copy it holds."""

    def __init__(self, http: aiohttp.ClientSession, preview: Any) -> None:
        self.http = http
        self.base = preview.url.split("#")[0].rstrip("/")
        self.capability = preview.capability
        self.context: str | None = None
        self.sequence = 0
        self.copy: dict[str, Any] = {}

    def _headers(self) -> dict[str, str]:
        headers = {"X-Simcord-Capability": self.capability}
        if self.context is not None:
            headers["X-Simcord-Context"] = self.context
        return headers

    @property
    def revision(self) -> int:
        return int(self.copy["publishedRevision"])

    async def open(self, viewer: Any) -> dict[str, Any]:
        async with self.http.post(
            self.base + "/api/pages", headers=self._headers(), json={"viewer_id": str(viewer.id)}
        ) as response:
            assert response.status == 200, await response.text()
            self.copy = await response.json()
        self.context = self.copy["context"]["id"]
        return self.copy

    async def read(self, *, keep: bool = True) -> dict[str, Any]:
        """GET the page's copy. ``keep=False`` is a read the page abandoned (it does so when the
        person clicks while a read is on the wire): the server answered, the page never saw it."""
        async with self.http.get(self.base + "/api/state", headers=self._headers()) as response:
            assert response.status == 200, await response.text()
            copy: dict[str, Any] = await response.json()
        if keep:
            self.copy = copy
        return copy

    async def act(self, kind: str, **fields: Any) -> tuple[int, dict[str, Any]]:
        """Send an action made on the copy the page holds; returns (HTTP status, receipt)."""
        self.sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": secrets.token_hex(8),
            "generation": self.copy["context"]["generation"],
            "bot_generation": self.copy["botGeneration"],
            "published_revision": self.revision,
            "kind": kind,
            **fields,
        }
        async with self.http.post(self.base + "/api/action", headers=self._headers(), json=body) as response:
            receipt: dict[str, Any] = await response.json() if response.status == 200 else {}
            if "expectedSequence" in receipt:
                self.sequence = int(receipt["expectedSequence"])
            return response.status, receipt

    async def click(self, control: Control) -> tuple[int, dict[str, Any]]:
        return await self.act("click", control_key=control.key, target_id=control.message_id)

    def controls(self, *, text: str | None = None) -> list[Control]:
        """Every button in the copy, oldest message first; only messages showing ``text`` if given."""
        found = []
        for message_id in self.copy.get("timeline", []):
            message = self.copy["messages"].get(message_id) or {}
            # What the message shows: its embeds and content, or a V2 layout's texts.
            layout = " ".join(str(n.get("content") or "") for n in _controls(message.get("components")))
            shown = repr(message.get("embeds")) + (message.get("content") or "") + layout
            if text is not None and text not in shown:
                continue
            for node in _controls(message.get("components")):
                if node.get("type") == 2 and node.get("control_key"):
                    found.append(
                        Control(
                            node["control_key"],
                            message_id,
                            str(node.get("label") or ""),
                            str(node.get("custom_id") or ""),
                            bool(node.get("disabled")),
                        )
                    )
        return found

    def button(self, label: str, *, text: str | None = None) -> Control:
        """The newest button with this label (in messages showing ``text``)."""
        matches = [c for c in self.controls(text=text) if c.label == label]
        assert matches, f"no {label!r} button in the page's copy"
        return matches[-1]


def refused(status: int, receipt: dict[str, Any]) -> bool:
    return status != 200 or bool(receipt.get("rejected")) or receipt.get("settlement") != "settled"
