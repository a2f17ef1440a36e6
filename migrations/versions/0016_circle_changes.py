"""A circle's renames and merges kept, so that each one's Undo takes back exactly what it changed (issue 36).
Plain create_table only: nothing existing is changed (0005_circles.py says why that matters on SQLite).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "circle_changes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("circle_id", sa.String(64), sa.ForeignKey("circles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("old", sa.String(64), nullable=False),
        sa.Column("new", sa.String(64), nullable=False),
        sa.Column("merged", sa.Boolean(), nullable=False),
        sa.Column("rows", sa.JSON(), nullable=False),
        sa.Column("token", sa.String(64), nullable=True, unique=True),
        sa.Column("undone", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_circle_changes_circle_id", "circle_changes", ["circle_id"])


def downgrade() -> None:
    op.drop_index("ix_circle_changes_circle_id", table_name="circle_changes")
    op.drop_table("circle_changes")
