"""The files whose texts are read: by the catalogs' extraction (catalogs.py) and by the scan for
unmarked texts (unmarked.py)."""

from __future__ import annotations

from pathlib import Path

from cogs.texts import LOCALES

ROOT = LOCALES.parent
# Where texts are looked for: the Discord layer, the engines (which must hold none), the bot.
SOURCES = ("bot.py", "cogs", "rules", "db")


def source_files() -> list[Path]:
    files: list[Path] = []
    for name in SOURCES:
        path = ROOT / name
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return files


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
