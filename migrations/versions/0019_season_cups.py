"""A cup over a season (issue 38 item 9): a cup may belong to a circle (`tournaments.circle_id`, as a table's
evening does: tables.circle_id), and the circle sets how its cups add up (`circle_cup_rules`: the sum, the best N
cups, or cup points by place from its table). A plain ADD COLUMN and a new table: nothing is copied (0005_circles.py
says why that matters; SQLite can't add a foreign key to an existing table: there the app keeps circle_id right).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("circle_id", sa.String(64), nullable=True))
    op.create_index("ix_tournaments_circle_id", "tournaments", ["circle_id"])
    if op.get_bind().dialect.name != "sqlite":
        op.create_foreign_key("fk_tournaments_circle_id", "tournaments", "circles", ["circle_id"], ["id"],
                              ondelete="SET NULL")
    op.create_table(
        "circle_cup_rules",
        sa.Column("circle_id", sa.String(64), sa.ForeignKey("circles.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("rule", sa.String(8), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("circle_cup_rules")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("fk_tournaments_circle_id", "tournaments", type_="foreignkey")
    op.drop_index("ix_tournaments_circle_id", "tournaments")
    op.drop_column("tournaments", "circle_id")
