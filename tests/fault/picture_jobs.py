"""Draw functions that tests/fault/test_picture_pool.py sends to the pictures' worker processes.

Kept apart from the test module so that a worker unpickling one imports only this module, not
pytest or SimCord. Each behaves badly only in a worker process (``parent_process()`` is set
there): drawn in the bot's own fallback thread, it returns its bytes like any picture, so a test
never kills or stalls the process it runs in.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time


def _in_worker() -> bool:
    return multiprocessing.parent_process() is not None


def where_drawn() -> bytes:
    """The pid of the process that drew it."""
    return str(os.getpid()).encode()


def die_in_worker(data: bytes) -> bytes:
    """SIGKILLs the worker drawing it, every time: a picture no worker survives."""
    if _in_worker():
        os.kill(os.getpid(), signal.SIGKILL)
    return data


def die_once_in_worker(marker: str, data: bytes) -> bytes:
    """The first worker to draw it (the one that creates ``marker``, writing its pid there) is
    SIGKILLed with the picture in hand, as the OOM killer or ``kill -9`` would leave it; later
    draws return ``data``."""
    if _in_worker():
        try:
            marker_fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return data
        os.write(marker_fd, str(os.getpid()).encode())
        os.close(marker_fd)
        os.kill(os.getpid(), signal.SIGKILL)
    return data


def stuck_in_worker(seconds: float, data: bytes) -> bytes:
    """Holds its worker for ``seconds`` (a worker that hangs) before answering."""
    if _in_worker():
        time.sleep(seconds)
    return data


def broken(data: bytes) -> bytes:
    """A drawing that raises, wherever it is drawn (an error of the drawing itself)."""
    raise ValueError(f"no such card: {data!r}")
