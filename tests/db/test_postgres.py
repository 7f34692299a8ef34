"""PostgreSQL only (TEST_DATABASE_URL): a connection the server dropped is replaced, not failed."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from db.engine import Database
from tests.conftest import ON_POSTGRES

pytestmark = pytest.mark.skipif(not ON_POSTGRES, reason="needs TEST_DATABASE_URL (PostgreSQL)")


async def test_the_first_query_after_the_server_dropped_connections_succeeds(database_url: str) -> None:
    """Like a database restart: every pooled connection is killed on the server. Seen to fail
    without pool_pre_ping (InterfaceError: connection is closed)."""
    database = Database(database_url)
    try:
        async with database.engine.connect() as conn:
            pid = (await conn.execute(text("SELECT pg_backend_pid()"))).scalar()
        admin = Database(database_url)
        try:
            async with admin.engine.connect() as conn:
                await conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        finally:
            await admin.dispose()
        async with database.engine.connect() as conn:
            assert (await conn.execute(text("SELECT 1"))).scalar() == 1
            assert (await conn.execute(text("SELECT pg_backend_pid()"))).scalar() != pid
    finally:
        await database.dispose()
