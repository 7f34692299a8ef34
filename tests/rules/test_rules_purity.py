"""The engines stay pure Python: nothing in rules/ may reach Discord, asyncio or the database."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = {"discord", "sqlalchemy", "aiosqlite", "asyncio", "alembic", "db", "cogs"}
RULES = Path(__file__).resolve().parents[2] / "rules"


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_rules_import_nothing_forbidden() -> None:
    # Each game is a package (rules/<game>/), so the scan goes into every folder.
    files = sorted(RULES.rglob("*.py"))
    assert len(files) >= 5
    for path in files:
        bad = imported_roots(path) & FORBIDDEN
        assert not bad, f"{path.relative_to(RULES)} imports {', '.join(sorted(bad))}"


def test_the_scan_would_catch_a_forbidden_import(tmp_path: Path) -> None:
    leaky = tmp_path / "leaky.py"
    leaky.write_text("import asyncio\nfrom discord.ext import commands\n", encoding="utf-8")
    assert imported_roots(leaky) == {"asyncio", "discord"}
