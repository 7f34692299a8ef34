"""languages: the table's, the server's and each person's

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29

- games.language: what the channel reads at a table (its message, posts, pings, results) is in
  this language; NULL on the tables from before, which spoke English and still do.
- guild_settings.language: the default for new tables in a server (`/settings language`).
- person_settings: a person's own language for what only they see (`/settings my-language`),
  overriding their Discord client's; one row per person who chose one.

Down: the columns and the table go (everyone reads English again, as before this revision);
every other row stays.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("language", sa.String(16), nullable=True))
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("language", sa.String(16), nullable=True))
    op.create_table(
        "person_settings",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(16), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_person_settings")),
    )


def downgrade() -> None:
    op.drop_table("person_settings")
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("language")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("language")
