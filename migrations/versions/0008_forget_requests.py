"""forget requests: a person forgotten when the game they are playing ends

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29

- forget_requests: a person who asked `/stats forget` while seated at a game in progress. The game
  rates them as they stood, then its ending transaction forgets them and deletes the row.

Down: the table goes; a pending request is lost (the person is then kept, as before this
revision, until they ask again). Every other row stays.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "forget_requests",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_forget_requests")),
    )


def downgrade() -> None:
    op.drop_table("forget_requests")
