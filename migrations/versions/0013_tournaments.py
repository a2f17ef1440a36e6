"""Cup nights (issue 38): a tournament of many tables, its links (director = scorer, watch = viewer), its players
with start numbers never reused, and each round's tables (real tables of the app, joined here with their seats).
Plain create_table only: nothing existing is changed, so SQLite needs no batch copy (0005_circles.py says why
that matters).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("held_on", sa.Date(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("games_per_round", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("closed_rounds", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_links",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournament_links_tournament_id", "tournament_links", ["tournament_id"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
    )
    op.create_index("ix_tournament_tables_table_id", "tournament_tables", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_tables_table_id", "tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournament_links_tournament_id", "tournament_links")
    op.drop_table("tournament_links")
    op.drop_table("tournaments")
