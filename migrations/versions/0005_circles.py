"""Circles: the same players, evening after evening. A circle has a name and links (scorer, viewer); a table may
belong to one (tables.circle_id).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "circles",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "circle_links",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("circle_id", sa.String(64), sa.ForeignKey("circles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_circle_links_circle_id", "circle_links", ["circle_id"])
    # A plain ADD COLUMN, never a batch (copy-and-rename) of `tables` on SQLite: dropping the old copy of a parent
    # table with foreign keys on would cascade to every hand and change (tests/test_hand_entry.py's upgrade test
    # lost them). SQLite can't add a foreign key to an existing table: there the app keeps circle_id right.
    op.add_column("tables", sa.Column("circle_id", sa.String(64), nullable=True))
    op.create_index("ix_tables_circle_id", "tables", ["circle_id"])
    if op.get_bind().dialect.name != "sqlite":
        op.create_foreign_key("fk_tables_circle_id", "tables", "circles", ["circle_id"], ["id"], ondelete="SET NULL")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("fk_tables_circle_id", "tables", type_="foreignkey")
    op.drop_index("ix_tables_circle_id", "tables")
    op.drop_column("tables", "circle_id")  # SQLite 3.35+ drops a column in place: no copy, no cascade
    op.drop_index("ix_circle_links_circle_id", "circle_links")
    op.drop_table("circle_links")
    op.drop_table("circles")
