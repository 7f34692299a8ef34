"""Golden English: what people read, recorded once, so that a change that should leave English
alone (moving every text to gettext catalogs) can be shown to change nothing. The test is
tests/e2e/test_golden_english.py; its docstring says what is covered and when the data may be
written again. This package makes the data:

- ``render.py``: whole recorded games of the five titles replayed through the referee's real code,
  without Discord (the bulk: every table message, panel, post and refusal at sampled moments);
- ``sessions.py``: a few short SimCord sessions with the real bot (slash commands, lobby, a game,
  the boards), their REST calls normalised;
- ``payloads.py``: the keywords the bot sends with, as the JSON body discord.py would send;
- ``__main__.py``: the generator, ``python -m tests.e2e.golden [--write] [--new-games]``.

The data lives in ``render/`` and ``discord/`` beside this file, one JSON Lines file per case (a
record per line, keys sorted, UTF-8), so that a review of a rewrite shows exactly which texts moved.
This module reads, writes and compares those files.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
RENDER = HERE / "render"
DISCORD = HERE / "discord"
SHOWN_DIFFERENCES = 3  # records shown when a comparison fails
CONTEXT = 3  # lines of context around each change in a shown record


def dumps(record: dict[str, Any]) -> str:
    """One record as its line in a golden file."""
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def read(path: Path) -> list[str]:
    if not path.exists():
        return []
    return path.read_text(encoding="utf-8").splitlines()


def write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def readable(value: Any, at: str = "") -> list[str]:
    """A record as lines to diff: one per leaf (its path, then its value), and a text that holds
    several lines shown one line each, so that a changed word shows as a changed line."""
    if isinstance(value, dict):
        if not value:
            return [f"{at}: {{}}"]
        return [line for key in sorted(value) for line in readable(value[key], f"{at}.{key}" if at else key)]
    if isinstance(value, list):
        if not value:
            return [f"{at}: []"]
        return [line for i, item in enumerate(value) for line in readable(item, f"{at}[{i}]")]
    if isinstance(value, str) and "\n" in value:
        return [f"{at}:", *(f"  | {line}" for line in value.split("\n"))]
    return [f"{at}: {json.dumps(value, ensure_ascii=False)}"]


def _where(line: str) -> str:
    """Which case, step and surface (or REST call) a golden line is."""
    try:
        record = json.loads(line)
    except ValueError:
        return line[:120]
    keys = ("case", "step", "surface", "method", "path")
    return " ".join(f"{key}={record[key]!r}" for key in keys if key in record)


def _lines(line: str | None) -> list[str]:
    return readable(json.loads(line)) if line is not None else []


def differences(
    name: str, expected: list[str], actual: list[str], limit: int = SHOWN_DIFFERENCES
) -> str | None:
    """None if ``actual`` is ``expected`` byte for byte; otherwise a report: how many records
    differ, and for the first few a readable diff, each headed by which record it is (case,
    step, surface) in the golden file and now."""
    if expected == actual:
        return None
    if not expected:
        return f"{name}: no golden data (write it: python -m tests.e2e.golden --write)"
    matcher = difflib.SequenceMatcher(None, expected, actual, autojunk=False)
    changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    differing = sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in changes)
    report = [
        f"{name}: {differing} records differ, in {len(changes)} places ({len(expected)} golden "
        f"records, {len(actual)} now). The first {limit}:"
    ]
    shown = 0
    for _, i1, i2, j1, j2 in changes:
        # A record changed in place is diffed with its old self; one that came or went, whole.
        for k in range(max(i2 - i1, j2 - j1)):
            if shown == limit:
                return "\n".join(report)
            shown += 1
            old = expected[i1 + k] if i1 + k < i2 else None
            new = actual[j1 + k] if j1 + k < j2 else None
            where = f"golden record {i1 + k + 1}" if old is not None else "(not in the golden data)"
            now = f"now record {j1 + k + 1}" if new is not None else "(gone now)"
            report.append(f"\n=== {_where(old or new or '')}\n    {where}, {now}")
            diff = difflib.unified_diff(_lines(old), _lines(new), "golden", "now", n=CONTEXT, lineterm="")
            report.extend(list(diff)[2:])  # the ---/+++ header says nothing more
    return "\n".join(report)
