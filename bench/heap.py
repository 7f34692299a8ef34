"""What the garbage collector sees of the bot: reference cycles left per action, the live heap per
table, the bot's own objects apart from the harness's (issue 35).

Counted with ``gc``, never timed, so the figures are the same on a busy machine:

- ``cycles(...)``: with the collector off, whatever a stretch of play leaves in reference cycles
  (``gc.DEBUG_SAVEALL`` keeps it for counting), split into the harness's and the bot's: a group of
  garbage objects that refer to each other belongs to the harness if any of them is SimCord's or
  the test helpers' (its wrappers of scheduled callbacks, its records of tasks), else to the bot
  (its own code, discord.py, asyncio, SQLAlchemy under it);
- ``owned(bot)``: the tracked objects reachable from the bot (not through modules, classes or
  SimCord's objects), frozen or not: what the bot itself keeps alive.
"""

from __future__ import annotations

import gc
import sys
import types
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

HARNESS = ("simcord", "tests.", "bench.")


def _module_of(o: Any) -> str:
    if isinstance(o, types.FunctionType):
        return str(getattr(o, "__module__", "") or "")
    if isinstance(o, types.MethodType):
        return _module_of(o.__func__)
    return type(o).__module__ or ""


def harness_owned(o: Any) -> bool:
    return _module_of(o).startswith(HARNESS)


def kind(o: Any) -> str:
    if isinstance(o, types.FunctionType):
        return f"function {o.__module__}.{o.__qualname__}"
    t = type(o)
    return f"{t.__module__}.{t.__qualname__}"


@contextmanager
def saved_garbage() -> Iterator[list[Any]]:
    """With the collector off for the block, then everything the block left in cycles, kept in
    the yielded list (filled when the block ends) for counting, and freed after."""
    found: list[Any] = []
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield found
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found.extend(gc.garbage)
        gc.garbage.clear()
    finally:
        gc.set_debug(0)
        if enabled:
            gc.enable()


def split(garbage: list[Any]) -> dict[str, Any]:
    """Group ``garbage`` into sets of objects joined by references, and count the bot's and the
    harness's (a group with any SimCord or test object in it is the harness's)."""
    index = {id(o): i for i, o in enumerate(garbage)}
    parent = list(range(len(garbage)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, o in enumerate(garbage):
        for r in gc.get_referents(o):
            j = index.get(id(r))
            if j is not None:
                a, b = root(i), root(j)
                if a != b:
                    parent[a] = b
    harness_roots = {root(i) for i, o in enumerate(garbage) if harness_owned(o)}
    bot_kinds: Counter[str] = Counter()
    harness = 0
    for i, o in enumerate(garbage):
        if root(i) in harness_roots:
            harness += 1
        else:
            bot_kinds[kind(o)] += 1
    return {
        "objects": len(garbage),
        "harness": harness,
        "bot": len(garbage) - harness,
        "bot_kinds": dict(bot_kinds.most_common(12)),
    }


def _reachable(root: Any) -> Iterator[Any]:
    """Objects reachable from ``root``, not through modules, classes, module globals or the
    harness's objects (those live as long as the process, or are SimCord's world)."""
    stop = {id(m.__dict__) for m in list(sys.modules.values()) if m is not None}
    seen: set[int] = set()
    todo = [root]
    while todo:
        o = todo.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        if isinstance(o, type | types.ModuleType) or id(o) in stop or harness_owned(o):
            continue
        yield o
        todo.extend(gc.get_referents(o))


def owned(root: Any) -> int:
    """Tracked objects reachable from ``root`` (``_reachable``), frozen or not: what the bot
    itself keeps alive."""
    return sum(1 for o in _reachable(root) if gc.is_tracked(o))


def walked(root: Any) -> dict[str, int]:
    """What the next collection would walk (the tracked objects not frozen), split into those
    reachable from ``root`` the way ``owned`` counts them (the bot's) and the rest (SimCord's
    world: the messages it stores, its log, its records of timers; and the bench's own), with the
    references each side holds, since a collection's work is visiting them. Counted, not timed."""
    young = gc.get_objects()
    ids = {id(o) for o in young}
    mine = {id(o) for o in _reachable(root) if id(o) in ids}
    out = {"objects": len(young), "bot": 0, "harness": 0, "bot_refs": 0, "harness_refs": 0}
    for o in young:
        side = "bot" if id(o) in mine else "harness"
        out[side] += 1
        out[f"{side}_refs"] += len(gc.get_referents(o))
    return out


class Freed:
    """Objects the collector freed from reference cycles while watched (every generation)."""

    def __init__(self) -> None:
        self.objects = 0
        self.collections = 0

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            self.objects += int(info.get("collected", 0))
            self.collections += 1

    def watch(self) -> Callable[[], None]:
        """Start counting; returns what stops it."""
        gc.callbacks.append(self._on_gc)
        return lambda: gc.callbacks.remove(self._on_gc)


def heap_now() -> dict[str, int]:
    """Tracked objects the collector walks (not frozen), and those frozen."""
    return {"walked": len(gc.get_objects()), "frozen": gc.get_freeze_count()}
