"""Every `python -m bench …` command the READMEs give still works as documented.

Each command line quoted in README.md and bench/README.md is parsed by the bench's real argument
parser and run through its real ``main`` with every part's ``run`` and ``tables`` replaced by a
recorder (the parts themselves take minutes; they are measured, not tested). What must hold: the
parts run are exactly the ones the command names (or the default ones), in the documented order,
and the keywords each part is given fit its ``run``'s signature, so the table of parts in
bench/__main__.py can't hand a part an option it doesn't take or miss one it needs.

Seen to fail on broken versions: with the "cards" entry's ``repeat=`` misspelt ``repeats=``
(``TypeError`` from the signature check), and with "wal" marked as a default part (the plain
`python -m bench` then ran it).
"""

from __future__ import annotations

import importlib
import inspect
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

import bench.__main__ as bench_main

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"```(\w*)\n.*?```", re.S)
SPAN = re.compile(r"`([^`]+)`")
COMMAND = re.compile(r"python -m bench(?![.\w])([^#\n]*)")


def documented() -> list[str]:
    """The arguments of every `python -m bench` command the READMEs quote: in shell code blocks (a
    line each, up to its comment) and in inline code (which may wrap onto the next line)."""
    found: list[str] = []
    for doc in (ROOT / "README.md", ROOT / "bench" / "README.md"):
        text = doc.read_text()
        quoted = [m.group(0) for m in FENCE.finditer(text) if m.group(1) in ("sh", "bash")]
        quoted += [" ".join(m.group(1).split()) for m in SPAN.finditer(FENCE.sub("", text))]
        for code in quoted:
            for match in COMMAND.finditer(code):
                args = " ".join(match.group(1).split())
                if args not in found:
                    found.append(args)
    return found


COMMANDS = documented()


def test_the_readmes_quote_commands() -> None:
    assert len(
        COMMANDS
    ) >= 12 and "--only wal --pg-url postgresql+asyncpg://postgres@127.0.0.1:PORT/postgres" in (COMMANDS)


@pytest.mark.parametrize("args", COMMANDS)
def test_each_documented_command_runs_the_parts_it_names(
    args: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    argv = shlex.split(args)
    if "--help" in argv:
        with pytest.raises(SystemExit) as done:
            bench_main.parse_args(argv)
        assert done.value.code == 0
        return
    ran: list[tuple[str, dict[str, Any]]] = []
    for name, part in bench_main.ALL_PARTS.items():
        module = importlib.import_module(f"bench.{part.module}")
        signature = inspect.signature(module.run)

        def run(
            _name: str = name, _signature: inspect.Signature = signature, **kwargs: Any
        ) -> dict[str, Any]:
            _signature.bind(**kwargs)  # a keyword the part doesn't take, or one missing, fails here
            ran.append((_name, kwargs))
            return {}

        monkeypatch.setattr(module, "run", run)
        monkeypatch.setattr(module, "tables", lambda result: [])
    compare = importlib.import_module("bench.compare")
    monkeypatch.setattr(compare, "previous_engines", lambda rev, engine_args, progress: {"rev": rev})
    monkeypatch.setattr(compare, "ratios", lambda now, before: {})
    if "--json" not in argv:
        argv += ["--json", str(tmp_path / "latest.json")]
    assert bench_main.main(argv) == 0
    named = [x for i, a in enumerate(argv) if a == "--only" for x in argv[i + 1].split(",")]
    expected = named or list(bench_main.PARTS)
    if "--compare" in argv and "engines" not in expected:
        expected = ["engines", *expected]
    order = list(bench_main.ALL_PARTS)
    assert [name for name, _ in ran] == sorted(expected, key=order.index)
    assert "wal" not in bench_main.PARTS and "shards2" not in bench_main.PARTS  # they need PostgreSQL
