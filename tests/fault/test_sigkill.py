"""A process killed (SIGKILL) in the middle of a burst of actions: after restart, the database is
consistent and holds every action that had been acknowledged.

The bot runs in a child process (tests/fault/sigkill_child.py: the real bot on SimCord, a SQLite
file, a Zip Zap table of three people and a computer clicking as fast as it can) that prints a
line for every acknowledged click and for every commit about to start. This process reads those
lines and sends SIGKILL at a chosen point; then it opens the database the way a restarted bot
would.
"""

from __future__ import annotations

import os
import selectors
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot import Settings, create_bot
from cogs.table.model import Table
from tests.fault.fault_helpers import replay

# The child writes its own SQLite file and the check reads it with sqlite3, whatever TEST_DATABASE_URL.
pytestmark = pytest.mark.sqlite_only("kills a child process writing its own SQLite file")

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("sigkill_child.py")
SEED = 3
WAIT_SECONDS = 90.0


@dataclass
class Killed:
    path: Path
    table_id: int
    acknowledged: list[tuple[int, int, str]] = field(default_factory=list)  # (seq, user id, action)
    begun: list[int] = field(default_factory=list)


def run_and_kill(path: Path, on: str, count: int, stderr: Path) -> Killed:
    """Start the child; SIGKILL it as soon as it has printed ``count`` lines of kind ``on``."""
    url = f"sqlite+aiosqlite:///{path}"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    with stderr.open("w") as errors:
        child = subprocess.Popen(
            [sys.executable, str(CHILD), url, str(SEED)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
    assert child.stdout is not None
    killed: Killed | None = None
    acknowledged: list[tuple[int, int, str]] = []
    begun: list[int] = []
    table_id = None
    deadline = time.monotonic() + WAIT_SECONDS
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    try:
        while killed is None:
            remaining = deadline - time.monotonic()
            assert remaining > 0, "the child never got that far"
            if not selector.select(remaining):
                continue
            line = child.stdout.readline()
            if not line:
                raise AssertionError(f"the child ended first:\n{stderr.read_text()[-3000:]}")
            kind, *rest = line.split()
            if kind == "TABLE":
                table_id = int(rest[0])
            elif kind == "ACK":
                acknowledged.append((int(rest[0]), int(rest[1]), rest[2]))
            elif kind == "BEGIN":
                begun.append(int(rest[0]))
            elif kind == "OVER":
                raise AssertionError("the game ended before the kill")
            seen = len(acknowledged) if kind == "ACK" else len(begun)
            if kind == on and seen == count:
                os.kill(child.pid, signal.SIGKILL)
                assert table_id is not None
                killed = Killed(path, table_id, acknowledged, begun)
    finally:
        selector.close()
        if child.poll() is None and killed is None:
            child.kill()
        child.wait(timeout=30)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    return killed


def check_database(killed: Killed) -> list[tuple[int, int | None, str, int | None]]:
    """Integrity, acknowledged actions present, version = last seq, no gaps. Returns the actions."""
    with sqlite3.connect(killed.path) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = db.execute(
            "SELECT seq, seat, action, actor_id FROM actions WHERE game_id = ? ORDER BY seq",
            (killed.table_id,),
        ).fetchall()
        (status, version) = db.execute(
            "SELECT status, version FROM games WHERE id = ?", (killed.table_id,)
        ).fetchone()
    by_seq = {seq: (actor, action) for seq, _seat, action, actor in rows}
    for seq, user, action in killed.acknowledged:
        assert by_seq.get(seq) == (user, action), f"acknowledged action {seq} ({action}) is lost"
    seqs = [r[0] for r in rows]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"gaps in the action log: {seqs}"
    assert status == "playing"
    assert version == seqs[-1], f"games.version {version} but the last action is {seqs[-1]}"
    # Nothing committed that was never begun, and at most the one commit in flight is missing.
    assert set(seqs) <= set(killed.begun)
    assert len(set(killed.begun) - set(seqs)) <= 1
    return rows


async def resume_and_compare(env: Any, built_bots: list[Any], killed: Killed, rows: list[Any]) -> None:
    """A fresh bot on the killed database resumes the table with the engine replay's state."""
    bot = create_bot(Settings(token=None, database_url=f"sqlite+aiosqlite:///{killed.path}"))
    built_bots.append(bot)
    await env.restart_bot(bot)
    table: Table = bot.referee.tables[killed.table_id]
    assert table.status == "playing"
    assert table.version == rows[-1][0]
    actions = [(seat, action) for _seq, seat, action, _actor in rows]
    expected = replay("zipzap", len(table.seats), table.options, table.seed, actions)
    assert table.state is not None and table.state.to_json() == expected.to_json()
    assert table.seed == SEED


@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize(("on", "count"), [("ACK", 5), ("BEGIN", 14)], ids=["after-ack", "mid-commit"])
async def test_killed_mid_burst_loses_nothing_acknowledged(
    simcord_env: Any, built_bots: list[Any], tmp_path: Path, on: str, count: int
) -> None:
    """Killed right after the 5th acknowledged click (the burst goes on: the kill lands wherever
    the child is), or right as the 14th commit begins (inside or just around a transaction).

    Seen failing (a throwaway run of the child) with Store.commit_action turned into "answer
    now, commit in a background task half a second later": the killed database lacked an
    acknowledged action ("acknowledged action 12 (R7) is lost")."""
    killed = run_and_kill(tmp_path / "killed.sqlite3", on, count, tmp_path / "child.err")
    assert killed.acknowledged, "nothing was acknowledged before the kill"
    rows = check_database(killed)
    await resume_and_compare(simcord_env, built_bots, killed, rows)
    assert simcord_env.errors == []


@pytest.mark.soak
@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize("count", [2, 9, 17, 26, 40])
@pytest.mark.parametrize("on", ["ACK", "BEGIN"])
async def test_killed_at_many_points(
    simcord_env: Any, built_bots: list[Any], tmp_path: Path, on: str, count: int
) -> None:
    killed = run_and_kill(tmp_path / "killed.sqlite3", on, count, tmp_path / "child.err")
    if not killed.acknowledged:
        pytest.skip("killed before anything was acknowledged")
    rows = check_database(killed)
    await resume_and_compare(simcord_env, built_bots, killed, rows)
