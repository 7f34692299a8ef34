"""snapshots when they pay: the state is written every few actions, not with every action

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25

- games.state_version: the version ``games.state`` is of. The actions after it rebuild the
  current state (db/snapshots.py). Rows from before (NULL) hold the state of their own version,
  so they load as they are.
- actions.log: the public lines each action added to the table's Latest. games.log is written
  with each snapshot only, and these lines bring it up to date on reading, so an action no longer
  rewrites all eight lines.
- On PostgreSQL, ``state`` is kept out of line (TOAST, uncompressed, for any row over 128 bytes):
  an update that leaves the state alone then copies an 18-byte pointer instead of the whole state
  into the new row version and the WAL (a state under about 2 KB stays in the row: PostgreSQL
  only moves values out of rows over that). Pages are half filled (fillfactor 50), so an update
  finds room on its own page: a "HOT" update, which logs only the changed middle of the row and
  adds no index entries. SQLite has no such settings (it writes whole pages).

Down: every row whose snapshot is older than its version gets its current state and Latest lines
back (replayed through the engine, and grown by the actions' lines), since the code before this
revision reads ``state`` and ``log`` as the current ones.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from db.snapshots import replay, replay_log

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("state_version", sa.Integer(), nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("log", sa.JSON(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games ALTER COLUMN state SET STORAGE EXTERNAL")
        op.execute("ALTER TABLE games SET (toast_tuple_target = 128, fillfactor = 50)")


def downgrade() -> None:
    bind = op.get_bind()
    games = sa.table(
        "games",
        sa.column("id", sa.Integer),
        sa.column("game", sa.String),
        sa.column("state", sa.JSON),
        sa.column("state_version", sa.Integer),
        sa.column("version", sa.Integer),
        sa.column("log", sa.JSON),
    )
    actions = sa.table(
        "actions",
        sa.column("game_id", sa.Integer),
        sa.column("seq", sa.Integer),
        sa.column("seat", sa.Integer),
        sa.column("action", sa.String),
        sa.column("log", sa.JSON),
    )
    behind = bind.execute(
        sa.select(
            games.c.id, games.c.game, games.c.state, games.c.state_version, games.c.version, games.c.log
        ).where(games.c.state.is_not(None), games.c.state_version < games.c.version)
    ).all()
    for game_id, key, state, since, version, latest in behind:
        pending = bind.execute(
            sa.select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.log)
            .where(actions.c.game_id == game_id, actions.c.seq > since)
            .order_by(actions.c.seq)
        ).all()
        current = replay(key, state, since, version, [(a.seq, a.seat, a.action) for a in pending])
        lines = replay_log(list(latest or []), [a.log for a in pending])
        bind.execute(sa.update(games).where(games.c.id == game_id).values(state=current, log=lines))
    if bind.dialect.name == "postgresql":
        op.execute("ALTER TABLE games RESET (toast_tuple_target, fillfactor)")
        op.execute("ALTER TABLE games ALTER COLUMN state SET STORAGE EXTENDED")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("log")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("state_version")
