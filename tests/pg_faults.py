"""PostgreSQL faults for tests: what a server restart or an operator does to the bot's connections.

Each helper opens a connection of its own with asyncpg (never one of the bot's) and closes it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import make_url

# The query a server restart amounts to, for the connections to this test's database. The
# second argument makes the server wait (up to 5 s) until each backend has really exited, so
# its advisory locks are free when this returns.
TERMINATE_EVERY_CONNECTION = (
    "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
    "WHERE pid <> pg_backend_pid() AND datname = current_database()"
)


async def _connect(url: str, database: str | None = None) -> Any:
    import asyncpg

    parts = make_url(url)
    return await asyncpg.connect(
        host=parts.host or "127.0.0.1",
        port=parts.port or 5432,
        user=parts.username,
        password=parts.password,
        database=database or parts.database,
    )


async def terminate_every_connection(url: str) -> int:
    """Every connection to the database of ``url`` is ended by the server; returns how many."""
    conn = await _connect(url)
    try:
        return len(await conn.fetch(TERMINATE_EVERY_CONNECTION))
    finally:
        await conn.close()


async def terminate_application(url: str, application_name: str) -> int:
    """End the connections one process opened to the database of ``url`` (they carry its
    application_name). Works from the server's own ``postgres`` database, so also while the
    test's database refuses new connections."""
    conn = await _connect(url, database="postgres")
    try:
        rows = await conn.fetch(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
            "WHERE datname = $1 AND application_name = $2",
            make_url(url).database,
            application_name,
        )
        return len(rows)
    finally:
        await conn.close()


async def allow_connections(url: str, allowed: bool) -> None:
    """Let the database of ``url`` accept new connections, or refuse them all (as a server that
    is still starting up does), from the server's own ``postgres`` database."""
    name = make_url(url).database
    conn = await _connect(url, database="postgres")
    try:
        await conn.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS {str(allowed).lower()}')
    finally:
        await conn.close()
