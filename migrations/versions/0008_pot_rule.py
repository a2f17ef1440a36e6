"""A circle's pot rule: what each hand lost by whoever took it on pays into the pot (0: no rule).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("circles", sa.Column("pot_per_lost_hand", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("circles", "pot_per_lost_hand")
