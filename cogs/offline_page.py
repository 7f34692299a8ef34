"""The offline page kept in step with the simulated world, so that a person's clicks are taken, and
only as what they saw.

How SimCord's Preview page works (3.2.1): the page shows a *published copy* of the channel (a
revision) and reads it twice a second; publishing is up to whoever runs the preview. An action
names the revision it was made on, and SimCord refuses an action made on any but the page's newest
revision (``stale-revision``). A click names its button by *position* (``message:<id>:component:
0.2``; legacy components have no ids), and SimCord presses whatever button is at that position in
the live message. SimCord also runs one operation at a time: a click that arrives while the clock is
being advanced is answered with HTTP 400, and the page then shows "Action outcome uncertain" for
good.

Publishing on a timer therefore loses clicks (the page's copy is nearly always older than the newest
revision), and advancing the clock whenever it likes loses more. So here:

- **the page's copy is republished when the page reads it**, and only if something changed since
  its last copy (the bot called Discord, or a countdown it shows passed a second), so the copy it
  reads is the newest revision;
- **page actions and the clock take turns** (one lock): the clock advances between actions, never
  during one;
- **a click is judged against the copy the page holds.** If the button the person pressed, in that
  copy, is the button now at that position, the click is taken: if a newer copy exists that the
  page never received (the page abandons a read that is on the wire when the person clicks, and a
  slash command republishes every open page), that copy is withdrawn first, so SimCord checks the
  click against the copy the person saw. Whether the move still fits the game is then the
  referee's to answer, as on Discord (a panel's buttons carry the table's version). If the message
  changed under the click, pressing that position would press another button, so the click is
  refused as stale and the page shows the new copy: a genuine race, the one refusal left;
- every refused action is counted and logged with its cause (``Refusal``).

This reads and sets SimCord 3.2.1's Preview internals (``_action``, ``_publish``, ``_page_payload``,
``_advance_presentation_time``, ``_action_page``, ``_python``, a page's revision and copy): the
version is pinned in pyproject.toml, and ``attach`` checks that they are there, so an upgrade that
moves them stops the offline mode at start with a sentence instead of losing clicks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

# A Discord relative timestamp (<t:1767225600:R>): the page renders it against the copy's time.
COUNTDOWN = re.compile(r"<t:-?\d+:R>")
# Page actions a person makes (the rest are the page's own reads, queries and navigation).
PERSON_ACTIONS = frozenset({"click", "select", "modal_submit", "run_command", "send_message"})
# Actions that name a control on a message by its position.
CONTROL_ACTIONS = frozenset({"click", "select"})
# Copies kept per page: enough for the few a page can miss while an action is on its way.
KEEP_COPIES = 4
# SimCord keeps every REST call and gateway event for a test's failure report; a session that runs
# for hours keeps only this many before dropping them (they are counted, never read, here).
KEEP_TRANSCRIPT = 5_000
NEEDED = ("_action", "_publish", "_page_payload", "_advance_presentation_time", "_action_page", "_python")

# text: the page's diagnostics are for the log and the operator's terminal
CHANGED = "the message changed since the page's copy of it (a genuine race); the page now shows the new copy"


class PageUnsupported(RuntimeError):
    """The installed SimCord does not have the Preview internals this module keeps in step."""


@dataclass(frozen=True)
class Refusal:
    """One action the page refused: who, what, SimCord's reason code, and what caused it."""

    viewer: str
    kind: str
    code: str
    cause: str

    def line(self) -> str:
        # text: for the log
        return f"the page refused {self.viewer}'s {self.kind.replace('_', ' ')} ({self.code}): {self.cause}"


@dataclass(frozen=True)
class _Copy:
    """One published copy of a page, and what it was made from."""

    revision: int
    snapshot: dict[str, Any]
    published_at: Any
    reason: Any
    catalog: Any
    diagnostics: list[Any]
    mark: int  # the world's change count when it was published
    second: int | None  # the virtual second its countdowns were drawn for, or None if it shows none
    origin: str  # who published it: "read", "own action", "another page's action", "set-up"


def _controls(components: Any) -> Iterator[dict[str, Any]]:
    for node in components or []:
        if isinstance(node, dict):
            yield node
            yield from _controls(node.get("components"))
            for child in ("accessory", "component"):
                if isinstance(node.get(child), dict):
                    yield from _controls([node[child]])


def _meaning(control: dict[str, Any]) -> tuple[Any, ...]:
    """What pressing a control does: its type and custom_id (which names the table, the version and
    the move), whether it can be pressed, and a select's choices."""
    options = tuple(str(o.get("value")) for o in control.get("options") or [] if isinstance(o, dict))
    return control.get("type"), control.get("custom_id"), bool(control.get("disabled")), options


@dataclass
class PageSync:
    """Publishes the page when it reads, takes page actions and the clock in turns, judges each
    click against the copy the page holds, counts refusals. ``attach()`` it right after entering
    the Preview."""

    env: Any
    preview: Any
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    taken: int = 0  # person actions SimCord took
    queued: int = 0  # actions waiting for their turn (the clock is advancing)
    withdrawn: int = 0  # copies withdrawn because the page never received them
    refusals: list[Refusal] = field(default_factory=list)
    _copies: dict[str, dict[int, _Copy]] = field(default_factory=dict)
    _dropped: int = 0
    _reading: Any = None  # the page being republished by a read, while it is

    def attach(self) -> None:
        lacking = [name for name in NEEDED if not hasattr(self.preview, name)]
        try:
            # How SimCord names a control by its position (to find the one a click would press).
            from simcord.preview._action_plans import _component_key, _component_paths
        except ImportError:
            lacking.append("_action_plans._component_key")
        if lacking:
            raise PageUnsupported(
                # text: for the operator, at start-up
                "This SimCord's preview page lacks " + ", ".join(lacking) + ", which the offline mode "
                'needs. Install the pinned version: .venv/bin/pip install -e ".[offline]"'
            )
        self._key_of, self._paths_of = _component_key, _component_paths
        self._publish_original = self.preview._publish
        self._payload_original = self.preview._page_payload
        # SimCord calls these through the instance (self._publish(...), self.preview._action(...)),
        # so instance attributes put this in its path without changing its code.
        self.preview._action = self._wrap_action(self.preview._action)
        self.preview._publish = self._publish
        self.preview._page_payload = self._read

    # --- the clock ---------------------------------------------------------------------------------

    async def advance(self, seconds: float) -> None:
        """Advance the simulated clock, in turn with page actions (the caller holds ``turn``)."""
        await self.env.advance_time(seconds)
        self._forget_old_transcript()

    def _world_mark(self) -> int:
        """How many things have happened in the simulated world: every REST call the bot made and
        every gateway event. Only compared, never read."""
        return self._dropped + len(self.env.backend.transcript)

    def _forget_old_transcript(self) -> None:
        backend = self.env.backend
        if len(backend.transcript) > KEEP_TRANSCRIPT:
            self._dropped += len(backend.transcript)
            backend.transcript.clear()
            backend.http_requests.clear()

    # --- publishing --------------------------------------------------------------------------------

    def _publish(self, page: Any, **kwargs: Any) -> None:
        preview = self.preview
        if self._reading is page:
            origin = "read"
        elif preview._action_page is page:
            origin = "own action"  # text: for the log
        elif preview._action_page is not None:
            origin = "another page's action"  # text: for the log
        else:
            origin = "set-up"
        mark = self._world_mark()
        self._publish_original(page, **kwargs)
        shows = json.dumps(page.snapshot.get("messages", {}), ensure_ascii=False)
        second = int(self.env.backend.clock.elapsed) if COUNTDOWN.search(shows) else None
        copies = self._copies.setdefault(page.id, {})
        copies[page.revision] = _Copy(
            page.revision,
            page.snapshot,
            page.published_at,
            page.publication_reason,
            page.command_catalog,
            list(page.diagnostics),
            mark,
            second,
            origin,
        )
        for old in sorted(copies)[:-KEEP_COPIES]:
            del copies[old]
        for gone in [pid for pid in self._copies if pid not in preview._pages and pid != page.id]:
            del self._copies[gone]  # a closed or expired page (a reloaded tab is a new page)

    def _changed(self, page: Any) -> bool:
        copy = self._copies.get(page.id, {}).get(page.revision)
        if copy is None:
            return True
        if self._world_mark() != copy.mark:
            return True
        return copy.second is not None and int(self.env.backend.clock.elapsed) != copy.second

    def _read(self, page: Any) -> dict[str, Any]:
        """The page reads its copy (GET /api/state, and its first load): publish it first if the
        world changed since, so the copy it gets is the newest revision."""
        preview = self.preview
        if page is not preview._python and page.pinned_snapshot is None and self._changed(page):
            preview._advance_presentation_time()  # countdowns are drawn against the copy's time
            self._reading = page
            try:
                self._publish(page, reason="refresh")  # text: SimCord's reason code
            finally:
                self._reading = None
        payload: dict[str, Any] = self._payload_original(page)
        return payload

    # --- page actions ------------------------------------------------------------------------------

    def _wrap_action(
        self, original: Callable[[Any, Any], Awaitable[dict[str, Any]]]
    ) -> Callable[[Any, Any], Awaitable[dict[str, Any]]]:
        from simcord import BackendError, SetupError

        async def take_action(context_id: Any, body: Any) -> dict[str, Any]:
            page = self.preview._pages.get(context_id) if isinstance(context_id, str) else None
            kind = str(body.get("kind")) if isinstance(body, dict) else "?"
            self.queued += 1
            try:
                await self.turn.acquire()
            finally:
                self.queued -= 1
            try:
                cause = self._align(page, kind, body) if page is not None and isinstance(body, dict) else None
                # Nothing is awaited between aligning and SimCord's checks: they run before its
                # first await, so the copy it checks against is the one aligned here.
                result = await original(context_id, body)
            except (SetupError, BackendError) as error:
                # The server answers 400 and the page stays on "outcome uncertain".
                self._refused(page, kind, "http-400", str(error))
                raise
            finally:
                self.turn.release()
            self._account(page, kind, body, result, cause)
            return result

        return take_action

    def _align(self, page: Any, kind: str, body: dict[str, Any]) -> str | None:
        """Let SimCord judge the action against the copy the page holds. Returns the cause to
        report if the action is to be refused because the message changed under a click."""
        named = body.get("published_revision")
        held = self._copies.get(page.id, {}).get(named) if isinstance(named, int) else None
        if held is None or body.get("generation") != page.generation:
            return None  # SimCord decides on its own
        if kind in CONTROL_ACTIONS:
            key = body.get("control_key")
            seen = next((c for c in _controls(self._shown(held, key)) if c.get("control_key") == key), None)
            live = self._live_control(page, body)
            if seen is None:
                return None
            if live is None or _meaning(seen) != _meaning(live):
                # Pressing that position now would press another button than the person saw.
                log.debug("a click on %s, which is now %s", _meaning(seen), live and _meaning(live))
                if named == page.revision:
                    self._publish(page, reason="refresh")  # text: SimCord's code; it then refuses it as stale
                return CHANGED
        if named != page.revision:
            self._withdraw(page, held)
        return None

    @staticmethod
    def _shown(copy: _Copy, key: Any) -> list[Any]:
        message_id = key.split(":")[1] if isinstance(key, str) and key.count(":") >= 3 else None
        message = (copy.snapshot.get("messages") or {}).get(message_id) or {}
        return list(message.get("components") or [])

    def _live_control(self, page: Any, body: dict[str, Any]) -> dict[str, Any] | None:
        """The control SimCord would press for this click: the one at that position now."""
        from simcord import BackendError

        key = body.get("control_key")
        try:
            message = self.env.backend.get_message(page.channel_id, int(str(key).split(":")[1]))
        except (BackendError, ValueError, IndexError):
            return None
        for root_index, root in enumerate(message.components):
            for path, component in self._paths_of(root, str(root_index)):
                if self._key_of(component, path, message.id) == key:
                    return dict(component)
        return None

    def _withdraw(self, page: Any, held: _Copy) -> None:
        """The page never received the copies published after ``held`` (its click names ``held``):
        make ``held`` its newest copy again. SimCord publishes a fresh one after the action."""
        for newer in [r for r in self._copies[page.id] if r > held.revision]:
            del self._copies[page.id][newer]
        page.revision = held.revision
        page.snapshot = held.snapshot
        page.published_at = held.published_at
        page.publication_reason = held.reason
        page.command_catalog = held.catalog
        page.diagnostics = list(held.diagnostics)
        self.withdrawn += 1
        log.debug("page %s never received the copies after revision %d: withdrawn", page.id, held.revision)

    def _account(self, page: Any, kind: str, body: Any, result: dict[str, Any], cause: str | None) -> None:
        settled = result.get("settlement") not in ("failed", "timeout", "cancelled")
        if settled and not result.get("rejected"):
            if kind in PERSON_ACTIONS:
                self.taken += 1
            return
        codes = [d.get("code", "?") for d in result.get("diagnostics") or [] if isinstance(d, dict)]
        code = codes[0] if codes else str(result.get("settlement"))
        if code == "busy" and kind not in PERSON_ACTIONS:
            return  # the page's own queries wait and retry on their own
        if cause is None:
            named = body.get("published_revision") if isinstance(body, dict) else None
            cause = (
                # text: for the log
                f"the action named revision {named}; the page is at {getattr(page, 'revision', '?')}"
                if code == "stale-revision"
                else "SimCord's diagnostic code says why"  # text: for the log
            )
        self._refused(page, kind, code, cause)

    def _refused(self, page: Any, kind: str, code: str, cause: str) -> None:
        viewer = getattr(getattr(page, "viewer", None), "name", None) or "someone"
        refusal = Refusal(viewer, kind, code, cause)
        self.refusals.append(refusal)
        log.warning("%s", refusal.line())
