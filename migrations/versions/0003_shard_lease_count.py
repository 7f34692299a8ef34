"""shard leases record the shard count they were claimed under

A guild's shard is (guild_id >> 22) % SHARD_COUNT, so processes that disagree on the count can
each own the same guild under different shard numbers. The count beside each lease lets a process
with another count be refused. Leases written before this revision have none (NULL): nothing is
known about them, and they run out on their own.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("shard_leases") as batch:
        batch.add_column(sa.Column("shard_count", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("shard_leases") as batch:
        batch.drop_column("shard_count")
