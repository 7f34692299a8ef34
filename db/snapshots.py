"""A table's state is its latest snapshot plus the actions after it.

Every action writes its own small row (``actions``) and the table row's small fields; the full
engine state (``games.state``, of version ``games.state_version``) is written only when a snapshot
pays (cogs/table/spine.py decides: every ``SNAPSHOT_EVERY`` actions, at a phase or round boundary,
at the end, and on any change that is not an action). Reading a table replays the actions after
its snapshot through the engine: the recorded log is the source of truth, so this is exactly the
state the table reached.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules import get_game

# At most this many actions between snapshots, chosen with ``python -m bench --only wal`` on
# PostgreSQL 15 (README, Running at scale). A snapshot costs about the state's size in WAL
# (1-3.6 KiB), spread over the actions up to the next one. Every 16: 0.79-0.97 KiB per action
# over the five games (median 0.95). Every 10: median 0.95 too, but Spy Trap 1.42 and GiftTRAP
# 1.20 KiB. The price is the replay on loading: 7.5 actions a table on average, about 0.15 s
# for 1,000 Zip Zap tables (bench --only resume).
SNAPSHOT_EVERY = 16


LOG_LINES = 8  # public events kept for the table message ("Latest")


def grow_log(log: list[Any], lines: list[Any], *, fresh: bool) -> list[Any]:
    """The latest public entries (data: cogs/table/latest.py words them) after an action added
    ``lines``; ``fresh`` starts over (a new deal makes old news stale, and a card named in last
    round's news may now sit in someone's hand)."""
    return (([] if fresh else log) + lines)[-LOG_LINES:]


def replay_log(log: list[Any], entries: Iterable[dict[str, Any] | None]) -> list[Any]:
    """The table's Latest lines: those stored with the snapshot, grown by what each action after
    it added (``actions.log``: ``{"lines": [...], "fresh": bool}``, None if it added nothing).
    Each action stores only its own lines, so an action doesn't rewrite all eight."""
    for entry in entries:
        if entry is not None:
            log = grow_log(log, list(entry.get("lines", [])), fresh=bool(entry.get("fresh")))
    return log


class Unreplayable(Exception):
    """The actions after a table's snapshot don't rebuild a state (a gap in the log, or an
    engine that now refuses one of them)."""


def replay(
    game_key: str,
    snapshot: dict[str, Any],
    since: int,
    until: int,
    actions: Iterable[tuple[int, int | None, str]],
) -> dict[str, Any]:
    """The state of version ``until``: ``actions`` (seq, seat, action), which must be exactly
    the versions ``since + 1 … until``, applied to the snapshot of version ``since``."""
    game = get_game(game_key)
    try:
        state = game.from_json(snapshot)
        expected = since
        for seq, seat, action in actions:
            expected += 1
            if seq != expected:
                # text: for the log
                raise Unreplayable(f"the log has no action {expected} (found {seq})")
            state.apply(seat, action)
        if expected != until:
            # text: for the log
            raise Unreplayable(f"the log stops at version {expected}, the table is at {until}")
        data: dict[str, Any] = state.to_json()
    except Unreplayable:
        raise
    except Exception as error:
        # text: for the log
        raise Unreplayable(f"replaying from version {since}: {error!r}") from error
    return data
