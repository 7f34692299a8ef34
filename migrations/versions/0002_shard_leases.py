"""shard leases: which process owns which Discord shard's tables

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shard_leases",
        sa.Column("shard_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("owner", sa.String(length=200), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("shard_id", name=op.f("pk_shard_leases")),
    )


def downgrade() -> None:
    op.drop_table("shard_leases")
