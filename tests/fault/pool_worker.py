"""Run inside the thinking pool's worker processes by tests/fault/test_thinking_pool.py.

Kept apart from the test module so that a worker unpickling this function imports only it and
the engine, not pytest or SimCord.
"""

from __future__ import annotations

import os
import signal
from typing import Any

from cogs.table.thinking import Decision, decide


def decide_then_die_once(marker: str, *args: Any) -> Decision:
    """The worker's own ``decide``, except that the first call of all (the one that creates
    ``marker``) SIGKILLs its own worker once it has thought, before it can answer: a worker
    that dies with a decision in hand, as the kernel's OOM killer or an operator's ``kill -9``
    would leave it. Later calls (in a fresh worker) decide normally. The marker holds the pid of
    the worker that died."""
    try:
        marker_fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return decide(*args)
    decide(*args)
    os.write(marker_fd, str(os.getpid()).encode())
    os.close(marker_fd)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("SIGKILL cannot be caught")


def die(*args: Any) -> Decision:
    """A job that SIGKILLs its own worker every time: a decision no worker survives."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("SIGKILL cannot be caught")
