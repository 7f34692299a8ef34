"""Start-up and the health check: ``python bot.py --check`` and a database that cannot be used.

The start-up failures call ``bot.main`` in this process (the same code path as the command line)
and require a non-zero exit, one paragraph naming the database, and no traceback.
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import bot
import db.engine
from cogs.table import heap
from db.engine import downgrade, head_revision

ROOT = Path(__file__).resolve().parents[2]


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], url: str, *argv: str):
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")  # never used: these runs stop before login
    code = bot.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_passes_on_a_migrated_database(database_url: str) -> None:
    """The real command line, as a container HEALTHCHECK or systemd ExecStartPre runs it."""
    env = dict(os.environ, DATABASE_URL=database_url, DISCORD_TOKEN="not-a-real-token")
    done = subprocess.run(
        [sys.executable, "bot.py", "--check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1 and done.stdout.startswith("ok:")
    assert f"at head ({head_revision(database_url)})" in done.stdout
    assert done.stderr == ""


def test_check_names_an_unreachable_database(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """Seen to fail before --check existed (exit 2, "Unknown arguments")."""
    with socket.socket() as s:  # a port nothing listens on: the connection is refused at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql+asyncpg://referee:secret@127.0.0.1:{port}/referee"
    code, out, err = run_main(monkeypatch, capsys, url, "--check")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and f"127.0.0.1:{port}" in err and "Could not connect" in err
    assert "secret" not in err


def test_check_refuses_a_schema_behind_head(
    fresh_database_url: str, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Migrated, then downgraded to empty: reachable, but not at head. Seen to fail before
    --check existed."""
    db.engine.migrate(fresh_database_url)
    downgrade(fresh_database_url, "base")
    code, out, err = run_main(monkeypatch, capsys, fresh_database_url, "--check")
    assert code == 1 and out == ""
    assert (
        err.count("\n") == 1
        and f"at revision base but this version of the bot needs {head_revision(fresh_database_url)}" in err
    )


def test_check_wants_a_token(database_url: str, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert bot.main(["--check"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "DISCORD_TOKEN is not set" in err


@pytest.mark.sqlite_only("corrupts a SQLite file")
def test_a_corrupt_database_file_is_named_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Seen to fail before: main raised sqlalchemy.exc.DatabaseError ("file is not a database")
    out of Alembic, a 197-line traceback that never named the file."""
    path = tmp_path / "referee.sqlite3"
    garbage = bytes(range(256)) * 64
    path.write_bytes(garbage)
    code, out, err = run_main(monkeypatch, capsys, f"sqlite+aiosqlite:///{path}")
    assert code == 1
    assert str(path) in err and "not a SQLite database" in err and "backup" in err
    assert "Traceback" not in err + out
    assert path.read_bytes() == garbage  # left as it was, for recovery


@pytest.mark.sqlite_only("a SQLite file path")
def test_a_database_path_under_a_file_is_named_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """The folder cannot be created because a file is in the way (this fails even as root, where
    permission bits would not). Seen to fail before: FileExistsError from mkdir, a traceback."""
    (tmp_path / "data").write_text("a file where the data folder should be")
    path = tmp_path / "data" / "referee.sqlite3"
    code, out, err = run_main(monkeypatch, capsys, f"sqlite+aiosqlite:///{path}")
    assert code == 1
    assert str(path) in err and "writable" in err
    assert "Traceback" not in err + out


@pytest.mark.sqlite_only("holds a SQLite lock")
def test_a_locked_database_file_is_named_without_a_traceback(
    database_url: str, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Another program holds the write lock (BEGIN EXCLUSIVE) on a migrated file. Seen to fail with
    the write probe removed from db.engine.prepare (exit 0): Alembic only reads the schema version,
    so start-up went on as if all was well and the first click would fail with "database is
    locked"."""
    monkeypatch.setattr(db.engine, "SQLITE_BUSY_TIMEOUT_MS", 200)  # wait 0.2 s for the lock, not 5 s
    path = db.engine.sqlite_path(database_url)
    assert path is not None
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        code, out, err = run_main(monkeypatch, capsys, database_url, "--migrate")
    finally:
        holder.close()
    assert code == 1
    assert str(path) in err and "lock" in err and "fuser" in err
    assert "Traceback" not in err + out


def test_the_service_files_run_what_is_tested() -> None:
    """The Dockerfile, compose.yaml and systemd unit cannot be built or started here, so they stay a
    thin mirror of what is: the Python CI uses, the same install command, and only the bot.py
    commands tested above. Fails when one of them drifts (e.g. a renamed flag)."""
    docker = (ROOT / "Dockerfile").read_text()
    unit = (ROOT / "deploy" / "referee.service").read_text()
    compose = (ROOT / "compose.yaml").read_text()
    assert f"FROM python:{sys.version_info.major}.{sys.version_info.minor}-slim" in docker
    assert 'RUN pip install ".[postgres]"' in docker
    assert "HEALTHCHECK" in docker and '["python", "bot.py", "--check"]' in docker
    assert "\nUSER referee\n" in docker and "VOLUME /data" in docker
    assert "DATABASE_URL: postgresql+asyncpg://" in compose and "image: postgres:15" in compose
    for line in ("Type=simple", "Restart=on-failure", "KillSignal=SIGTERM", "TimeoutStopSec=15"):
        assert f"\n{line}\n" in unit
    assert "ExecStartPre=/opt/referee/.venv/bin/python bot.py --check" in unit
    # Every bot.py flag they use is one of the commands these tests run.
    flags = set(re.findall(r'bot\.py"?,? +"?(--[a-z]+)', docker + unit))
    assert flags == {"--check", "--migrate"}, flags


COLLECTOR_PROBE = """
import asyncio, gc, sys
import simcord
from bot import Settings, create_bot

async def start(url):
    bot = create_bot(Settings(token=None, database_url=url, instance="collector-probe"))
    try:
        async with simcord.run(bot, check_errors=False):
            print(*gc.get_threshold(), gc.get_freeze_count() > 0, flush=True)
    finally:
        await bot.database.dispose()

gc.set_threshold(700, 10, 10)
asyncio.run(start(sys.argv[1]))
gc.set_threshold(700, 10, 10)  # as if someone had put it back: a later bot leaves it alone
asyncio.run(start(sys.argv[1]))
"""


def test_the_first_start_tunes_the_collector_once(database_url: str) -> None:
    """The first bot a process starts freezes what start-up loaded and raises the youngest
    generation's threshold to ``heap.YOUNG_COLLECTION`` and the oldest's to ``OLD_COLLECTION``
    (a click's reference cycles then die young instead of in full collections that stop every
    click: bench/README.md part 2); a later bot in the same process (the tests, the bench)
    changes neither. In a fresh interpreter, since this one's first start was some other
    test's. Seen to fail with the set_threshold line removed (700 after the first start) and
    moved out of the first start's branch (the second bot set it again)."""
    done = subprocess.run(
        [sys.executable, "-c", COLLECTOR_PROBE, database_url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.split("\n")[:2]
    assert first.split() == [str(heap.YOUNG_COLLECTION), "10", str(heap.OLD_COLLECTION), "True"]
    assert second.split() == ["700", "10", "10", "True"]
