"""SIGTERM (how systemd, Docker and every host stop a service) in the middle of a burst of clicks.

The child (tests/fault/sigkill_child.py --graceful) runs the real bot on SimCord under
``bot.run_until_stopped``, exactly as `python bot.py` runs it, with three people and a computer
clicking as fast as they can. After some acknowledged clicks this test sends SIGTERM and expects:
exit code 0 within 10 s, no traceback, every acknowledged action in the database, every commit
that had begun finished (none cut off), and the table message showing the last committed state.

Seen to fail with discord.py's own ``bot.run`` in the child (SIGTERM killed it at once: exit
-15, the commit under way cut off) and with ``RefereeBot.close`` not calling
``Referee.shutdown`` (a booked table edit was never drawn: "CLOSED different").
"""

from __future__ import annotations

import os
import selectors
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from db.engine import migrate

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("sigkill_child.py")
SEED = 5
STOP_WITHIN = 10.0


def test_sigterm_finishes_what_is_under_way_and_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    migrate(url)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    stderr = tmp_path / "stderr.txt"
    with stderr.open("w") as errors:
        child = subprocess.Popen(
            [sys.executable, str(CHILD), url, str(SEED), "--graceful"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
    assert child.stdout is not None
    acknowledged: list[tuple[int, int, str]] = []
    begun: list[int] = []
    closed: str | None = None
    table_id: int | None = None
    sent_at: float | None = None
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + 120
    try:
        while True:
            assert time.monotonic() < deadline, "the child never got that far"
            if sent_at is not None:
                assert time.monotonic() - sent_at < STOP_WITHIN + 5, "the child did not stop"
            if not selector.select(1.0):
                continue
            line = child.stdout.readline()
            if not line:
                break
            kind, *rest = line.split()
            if kind == "TABLE":
                table_id = int(rest[0])
            elif kind == "BEGIN":
                begun.append(int(rest[0]))
            elif kind == "ACK":
                acknowledged.append((int(rest[0]), int(rest[1]), rest[2]))
                if len(acknowledged) == 12 and sent_at is None:
                    child.send_signal(signal.SIGTERM)
                    sent_at = time.monotonic()
            elif kind == "CLOSED":
                closed = rest[0]
            elif kind == "OVER":
                raise AssertionError("the game ended before SIGTERM")
        child.wait(timeout=STOP_WITHIN)
    finally:
        selector.close()
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
    assert sent_at is not None and table_id is not None
    took = time.monotonic() - sent_at
    log = stderr.read_text()
    assert child.returncode == 0, f"exit {child.returncode}:\n{log[-3000:]}"
    assert took < STOP_WITHIN, f"took {took:.1f} s to stop"
    assert "Traceback" not in log, log[-3000:]
    assert closed == "same", "the table message shows the last committed state"
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = db.execute(
            "SELECT seq, action, actor_id FROM actions WHERE game_id = ? ORDER BY seq", (table_id,)
        ).fetchall()
    by_seq = {seq: (actor, action) for seq, action, actor in rows}
    for seq, user, action in acknowledged:
        assert by_seq.get(seq) == (user, action), f"acknowledged action {seq} ({action}) is lost"
    assert set(begun) <= set(by_seq), "a commit that had begun was cut off"
