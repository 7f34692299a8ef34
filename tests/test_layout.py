"""The shape of the code: no import circles, and no file or class grown past what one person holds
in their head (the limits of issue "The house").

Every import counts, the ones inside functions and under ``TYPE_CHECKING`` included: a circle
hidden in a function still means neither module can be read without the other. An import names
the module it loads (``from cogs.table import model`` names ``cogs.table.model``); the package
``__init__`` a submodule import passes through is the package mechanism, not a dependency.

Seen to fail: with ``from cogs.table.entry import Entry`` added inside a function of
``cogs/table/spine.py`` (entry imports spine), ``test_no_import_circles`` names the circle
spine → entry → spine; with a 60-line method pasted twice into ``Spine``, the size test names it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot.py", "cogs", "rules", "db", "migrations")

# (folder, most lines in a file, most lines in a class): issue 18's "about 700 / 500 / 1,000".
LIMITS = [("cogs", 700, 500), ("db", 700, 500), ("rules", 1000, 1000)]


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for entry in PACKAGES:
        path = ROOT / entry
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            parts = list(file.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = file
    return found


def _imports(name: str, file: Path, modules: dict[str, Path]) -> set[str]:
    package = name if file.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(file.read_text(), str(file))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in modules else base)
    return {t for t in targets if t in modules and t != name}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_circles() -> None:
    modules = _modules()
    graph = {name: _imports(name, file, modules) for name, file in modules.items()}
    assert len(graph) > 40, "the scan found too few modules to mean anything"
    cycle = _cycle(graph)
    assert cycle is None, "import circle: " + " → ".join(cycle or [])


def test_files_and_classes_stay_readable() -> None:
    too_big: list[str] = []
    for folder, file_limit, class_limit in LIMITS:
        for file in sorted((ROOT / folder).rglob("*.py")):
            text = file.read_text()
            where = file.relative_to(ROOT)
            if (lines := len(text.splitlines())) > file_limit:
                too_big.append(f"{where}: {lines} lines (limit {file_limit})")
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ClassDef):
                    size = (node.end_lineno or node.lineno) - node.lineno + 1
                    if size > class_limit:
                        too_big.append(f"{where}: class {node.name} is {size} lines (limit {class_limit})")
    assert not too_big, "\n".join(too_big)
