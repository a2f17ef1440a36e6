"""A cup's corrections after a round is closed (issue 38): `tournament_tables.reopened` (the director opened the
table for a correction: its scorer link takes edits again until closed again), the cup's log of those openings and
closings (`tournament_log`), each table's games in its round (`tournament_tables.games`: 20 at a table of 5 where
the cup plays 16 at 4), and a player's fixed table (`tournament_players.fixed_table`, mobility: the next draws
seat them there). New columns with defaults and a new table: plain ALTER and CREATE on both databases.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournament_tables", sa.Column("reopened", sa.Boolean(), nullable=False,
                                                 server_default=sa.false()))
    op.add_column("tournament_tables", sa.Column("games", sa.Integer(), nullable=True))
    op.add_column("tournament_players", sa.Column("fixed_table", sa.Integer(), nullable=True))
    op.create_table(
        "tournament_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournament_log_tournament_id", "tournament_log", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_log_tournament_id", "tournament_log")
    op.drop_table("tournament_log")
    op.drop_column("tournament_players", "fixed_table")
    op.drop_column("tournament_tables", "games")
    op.drop_column("tournament_tables", "reopened")
