"""A throwaway PostgreSQL server for the bench, started the way .ci/run starts CI's.

A cluster of its own in a temporary folder, listening on 127.0.0.1 only, on a free port, with
trust authentication (only local processes can reach it, and it is deleted on the way out) and
fsync off, because its data is thrown away. A server already running on the machine (Debian's
"main" cluster on 5432, another engineer's) is left alone. As root, the server runs as the
``postgres`` user, since initdb refuses root.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


class NoPostgres(RuntimeError):
    """PostgreSQL's server programs are not installed here."""


def _bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise NoPostgres("PostgreSQL is not installed (apt-get install postgresql), or pass --database-url")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextlib.contextmanager
def server() -> Iterator[tuple[str, Path]]:
    """Start a server; yield its URL (the ``postgres`` database, as the ``postgres`` user) and
    its data folder; stop it and delete everything at exit, however the run ends."""
    pg_bin = _bin()
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-pg."))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = _free_port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "check": True}
    try:
        subprocess.run(
            _as_postgres(
                [str(pg_bin / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                 "--locale=C.UTF-8"]
            ),
            **quiet,
        )  # fmt: skip
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off -c max_connections=200"
        subprocess.run(
            _as_postgres(
                [str(pg_bin / "pg_ctl"), "-D", str(data), "-l", str(folder / "server.log"), "-w", "-t", "60",
                 "-o", options, "start"]
            ),
            **quiet,
        )  # fmt: skip
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres", data
    finally:
        subprocess.run(
            _as_postgres([str(pg_bin / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"]),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)


def version(url: str) -> str:
    """The server's version, e.g. "15.14"."""
    import asyncio

    import asyncpg

    async def ask() -> str:
        conn = await asyncpg.connect(_plain(url))
        try:
            return str(await conn.fetchval("SHOW server_version")).split()[0]
        finally:
            await conn.close()

    return asyncio.run(ask())


def _plain(url: str) -> str:
    """The asyncpg form of a SQLAlchemy URL."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def fresh_database(url: str, name: str) -> str:
    """Create the empty database ``name`` on the server of ``url`` (dropping one left by an
    earlier run) and return its URL."""
    import asyncio

    import asyncpg
    from sqlalchemy.engine import make_url

    async def create() -> None:
        conn = await asyncpg.connect(_plain(url))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(create())
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str, name: str) -> None:
    import asyncio

    import asyncpg

    async def drop() -> None:
        conn = await asyncpg.connect(_plain(url))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    asyncio.run(drop())


def server_pids(data: Path | None) -> list[int]:
    """The server's processes (the postmaster and its backends), to count their CPU."""
    if data is None:
        return []
    try:
        master = int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    pids = [master]
    for stat in glob.glob("/proc/[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == master:
                pids.append(int(stat.split("/")[2]))
    return pids
