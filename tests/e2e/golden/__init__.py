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
    """Which case, step and surface a golden line is (the start of its diff)."""
    try:
        record = json.loads(line)
    except ValueError:
        return line[:120]
    what = [
        f"{key}={record[key]!r}" for key in ("case", "step", "surface", "method", "path") if key in record
    ]
    return " ".join(what)


def _shown(expected: list[str], actual: list[str]) -> list[str]:
    """The unified diff of two runs of golden lines (each line a record), record by record."""
    old = [x for line in expected for x in ["", f"# {_where(line)}", *readable(json.loads(line))]]
    new = [x for line in actual for x in ["", f"# {_where(line)}", *readable(json.loads(line))]]
    return list(difflib.unified_diff(old, new, "golden", "now", n=CONTEXT, lineterm=""))


def differences(
    name: str, expected: list[str], actual: list[str], limit: int = SHOWN_DIFFERENCES
) -> str | None:
    """None if ``actual`` is ``expected`` byte for byte; otherwise a report: how many records
    differ, and a readable diff of the first few (which case, step and surface each is)."""
    if expected == actual:
        return None
    if not expected:
        return f"{name}: no golden data (write it: python -m tests.e2e.golden --write)"
    matcher = difflib.SequenceMatcher(None, expected, actual, autojunk=False)
    changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    differing = sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in changes)
    report = [
        f"{name}: {differing} of {len(expected)} golden records differ "
        f"({len(changes)} places; now {len(actual)} records). The first {min(limit, len(changes))}:"
    ]
    for tag, i1, i2, j1, j2 in changes[:limit]:
        # A record changed in place is diffed with its old self; more lines than that are shown
        # whole (a record that came or went), up to a few.
        old, new = expected[i1 : min(i2, i1 + limit)], actual[j1 : min(j2, j1 + limit)]
        report.append(f"\n=== {tag}: golden records {i1 + 1}–{i2}, now {j1 + 1}–{j2}")
        report.extend(_shown(old, new))
    return "\n".join(report)
