"""Shared pieces of the bench: percentiles, run metadata, temp SQLite files, the printed table."""

from __future__ import annotations

import contextlib
import os
import platform
import resource
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100); None for no samples, so an empty run is visible."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def fmt_spread(entry: dict[str, float] | None, digits: int = 1) -> str:
    """A figure over several runs as "median [min–max]" ("—" if it was not measured)."""
    if not entry:
        return "—"
    if entry["runs"] == 1:
        return f"{entry['median']:.{digits}f}"
    return f"{entry['median']:.{digits}f} [{entry['min']:.{digits}f}–{entry['max']:.{digits}f}]"


def summary_ms(seconds: Sequence[float], digits: int = 3) -> dict[str, Any]:
    """p50/p99/max in milliseconds plus the sample count, the shape every latency figure uses."""
    p50, p99 = percentile(seconds, 50), percentile(seconds, 99)
    return {
        "n": len(seconds),
        "p50_ms": None if p50 is None else round(p50 * 1000, digits),
        "p99_ms": None if p99 is None else round(p99 * 1000, digits),
        "max_ms": round(max(seconds) * 1000, digits) if seconds else None,
    }


def git_commit(root: Path = ROOT) -> str:
    """HEAD, with "+dirty" when the work tree has changes: numbers from a dirty tree are not HEAD's."""
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_model": _cpu_model(),
        "cpus": os.cpu_count(),
        # Other work on the machine skews wall-clock figures; the load average says how much.
        "loadavg_at_start": [round(x, 2) for x in load] if load else None,
    }


def python_info() -> str:
    return f"{platform.python_implementation()} {sys.version.split()[0]}"


def _cpu_model() -> str | None:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return None


def rss_bytes() -> int | None:
    """Current resident set size (Linux); ru_maxrss is a peak, useless for deltas."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * resource.getpagesize()
    return None


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def sqlite_files_size(path: Path) -> int:
    """The database as it sits on disk: main file plus any -wal and -shm next to it."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists())


def checkpoint(path: Path) -> None:
    """Fold the WAL into the main file and truncate it, so the size measured is the data's."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def table_sizes(path: Path) -> dict[str, int] | None:
    """Bytes per table and index (SQLite's dbstat), or None where SQLite was built without it."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return {name: int(size) for name, size in rows}


@contextlib.contextmanager
def workdir(keep: bool = False) -> Iterator[Path]:
    """A temp folder for this run's databases (kept with --keep for a post-mortem)."""
    path = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        yield path
    finally:
        if not keep:
            import shutil

            shutil.rmtree(path, ignore_errors=True)


@dataclass
class Table:
    """A plain-text table for the terminal."""

    title: str
    headers: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, *cells: Any) -> None:
        self.rows.append([fmt(c) for c in cells])

    def render(self) -> str:
        widths = [len(h) for h in self.headers]
        for row in self.rows:
            for i, cell in enumerate(row):
                widths[i] = max(widths[i], len(cell))
        line = "  ".join(h.ljust(w) for h, w in zip(self.headers, widths, strict=True))
        out = [f"== {self.title}", line, "  ".join("-" * w for w in widths)]
        for row in self.rows:
            out.append(
                "  ".join(
                    c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
                )
            )
        out.extend(f"   {n}" for n in self.notes)
        return "\n".join(out)


def fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        if value >= 100:
            return f"{value:,.0f}"
        if value >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}" if value >= 0.1 else f"{value:.3f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
