"""draws are nobody's win: win counts stored before that are recounted from the results

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29

The results write gave every seat of a draw a win in ``player_stats`` (season and all time) and,
when a season ended, in ``season_standings``, while the streaks and /history read the results and
said "a draw" (issue 33: "1 win (100%)" for a Trap draw). Up: each count comes down to the wins
its results show (``db/draws.py``); nothing else changes.

Down: nothing to undo. The older code reads the same columns and now finds the right numbers.
"""

from __future__ import annotations

from alembic import op

from db.draws import recount_wins

revision = "0007"
# Chained after the newest revision when merged (0006, languages, when that is on main).
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    recount_wins(op.get_bind())


def downgrade() -> None:
    pass
