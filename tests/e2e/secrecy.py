"""Wire-level secrecy audit: every REST call the bot made, with who could see it, checked against
what was hidden from them at that moment.

Hidden facts are recorded through the referee's ``on_change`` hook after every accepted change,
together with how many REST calls had been made by then, so each call is judged against the
state it was drawn from. Audience: a guild channel message is public; a DM is its recipient's; an
interaction reply or edit is the clicker's alone when the message is ephemeral, else public.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cogs.drawings.zipzap_cards import card_name
from cogs.table.model import Table
from cogs.zipzap import card_label

EPHEMERAL = 64


def card_patterns(card: str) -> list[re.Pattern[str]]:
    """A card as any message could show it: its face label or its name, never a prefix of another."""
    return [re.compile(re.escape(text) + r"(?!\d)") for text in (card_label(card), card_name(card))]


@dataclass
class Snapshot:
    request_index: int
    hidden: dict[int, set[str]]  # seat -> its hand; -1 -> the deck


@dataclass
class Audit:
    env: Any
    seat_users: dict[int, int | None] = field(default_factory=dict)
    snapshots: list[Snapshot] = field(default_factory=list)

    def hook(self, table: Table, _events: Any) -> None:
        state = table.state
        assert state is not None
        self.seat_users = {s.seat: (None if s.is_computer else s.user_id) for s in table.seats}
        hidden = {seat: {c for c in hand if not c.startswith("Z")} for seat, hand in enumerate(state.hands)}
        hidden[-1] = set(state.deck)
        self.snapshots.append(Snapshot(len(self.env.http_requests), hidden))

    def attach(self, bot: Any) -> None:
        bot.referee.on_change.append(self.hook)

    def _hidden_at(self, index: int) -> dict[int, set[str]] | None:
        chosen = None
        for snap in self.snapshots:
            if snap.request_index <= index:
                chosen = snap
            else:
                break
        if chosen is None and self.snapshots:
            chosen = self.snapshots[0]
        return chosen.hidden if chosen else None

    def audience(self, entry: Any) -> int | None:
        """The one user who could see this request, or None when it is public."""
        backend = self.env.backend
        path: str = entry.path
        data = entry.json if isinstance(entry.json, dict) else {}
        m = re.match(r"/channels/(\d+)/messages", path)
        if m:
            channel = backend.get_channel(int(m.group(1)))
            recipients = getattr(channel, "recipient_ids", None) or getattr(channel, "recipients", None)
            if recipients:
                ids = [int(getattr(r, "id", r)) for r in recipients]
                bot_id = int(self.env.bot.user.id)
                people = [i for i in ids if i != bot_id]
                return people[0] if people else None
            return None
        m = re.match(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", path)
        if m:
            record = backend.interactions[backend.interaction_tokens[m.group(1)]]
            if record.guild_id is None:
                return int(record.user_id)  # a click in a DM is answered in that DM
            inner = data.get("data") if isinstance(data.get("data"), dict) else data
            flags = int((inner or {}).get("flags") or 0)
            if flags & EPHEMERAL:
                return int(record.user_id)
            if "/messages/" in path:  # a later edit of the interaction's reply (or a follow-up)
                target = path.rsplit("/", 1)[1]
                message_id = record.message_id if target == "@original" else int(target)
                if message_id is not None:
                    message = backend.get_message(record.channel_id, message_id)
                    return int(record.user_id) if int(message.flags or 0) & EPHEMERAL else None
            if int(data.get("type") or 0) == 4:
                return None  # a new, public reply
            source = getattr(record, "source_message_id", None)
            if source is not None:
                message = backend.get_message(record.channel_id, source)
                if int(getattr(message, "flags", 0) or 0) & EPHEMERAL:
                    return int(record.user_id)
            return None
        return None

    def leaks(self) -> list[str]:
        found = []
        for index, entry in enumerate(self.env.http_requests):
            if entry.method not in ("POST", "PATCH") or entry.json is None:
                continue
            hidden = self._hidden_at(index)
            if hidden is None:
                continue
            viewer = self.audience(entry)
            text = _flatten(entry.json)
            actions = set(re.findall(r"ga:\d+:\d+:([A-Z0-9]+)", str(entry.json)))
            for seat, cards in hidden.items():
                if seat >= 0 and viewer is not None and self.seat_users.get(seat) == viewer:
                    continue  # your own hand is yours to see
                for card in cards:
                    if card in actions or any(p.search(text) for p in card_patterns(card)):
                        who = "public" if viewer is None else f"user {viewer}"
                        found.append(
                            f"request {index} {entry.method} {entry.path} ({who}) shows {card} of seat {seat}"
                        )
        return found


def _flatten(data: Any) -> str:
    if isinstance(data, dict):
        return "\n".join(_flatten(v) for k, v in data.items() if k not in ("custom_id",))
    if isinstance(data, list):
        return "\n".join(_flatten(v) for v in data)
    return str(data) if data is not None else ""
