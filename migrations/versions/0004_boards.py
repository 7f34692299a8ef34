"""leaderboards: ratings kept per game, all-time counts, seasons and their archived standings

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25

- results: each person's rating before and after the game, and their rated games by then;
  indexed by user for /history.
- player_stats: all-time games, wins and points beside the season's (filled from them: every game
  so far was in season 1).
- seasons, season_standings: new seasons and the standings each one ended with.
- games.table_message_id indexed: a deleted message is looked up by id.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("mu_before", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("sigma_before", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("mu_after", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("sigma_after", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("rated_games", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_results_user_id"), ["user_id"], unique=False)

    with op.batch_alter_table("player_stats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("total_games", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("total_wins", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("total_points", sa.Integer(), server_default="0", nullable=False))
    op.execute("UPDATE player_stats SET total_games = games, total_wins = wins, total_points = points")

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_table_message_id"), ["table_message_id"], unique=False)

    op.create_table(
        "seasons",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("guild_id", "game", "number", name=op.f("pk_seasons")),
    )
    op.create_table(
        "season_standings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("season", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("total_games", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "game", "season", "user_id", name=op.f("pk_season_standings")),
    )


def downgrade() -> None:
    op.drop_table("season_standings")
    op.drop_table("seasons")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_table_message_id"))
    # Before seasons, a standing counted every game: keep that meaning rather than the season's.
    op.execute("UPDATE player_stats SET games = total_games, wins = total_wins, points = total_points")
    with op.batch_alter_table("player_stats", schema=None) as batch_op:
        batch_op.drop_column("total_points")
        batch_op.drop_column("total_wins")
        batch_op.drop_column("total_games")
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_results_user_id"))
        batch_op.drop_column("rated_games")
        batch_op.drop_column("sigma_after")
        batch_op.drop_column("mu_after")
        batch_op.drop_column("sigma_before")
        batch_op.drop_column("mu_before")
