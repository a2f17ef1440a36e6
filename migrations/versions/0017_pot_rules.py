"""The pot's rule as it changed over a season (issue 36): a change made once lines were paid counts from its day,
and the evenings before keep the rule they were owed under. Plain create_table only (0005_circles.py says why that
matters on SQLite); a circle without rows here keeps circles.pot_per_lost_hand for every evening, as before.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pot_rules",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("circle_id", sa.String(64), sa.ForeignKey("circles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("first_day", sa.Date(), nullable=True),
        sa.Column("per_lost_hand", sa.Integer(), nullable=False),
    )
    op.create_index("ix_pot_rules_circle_id", "pot_rules", ["circle_id"])


def downgrade() -> None:
    op.drop_index("ix_pot_rules_circle_id", table_name="pot_rules")
    op.drop_table("pot_rules")
