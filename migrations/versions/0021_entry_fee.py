"""A cup's entry fee to its pot (issue 38 item 6, the *Startgeld*): `entry_fee`, minor units each player who plays
pays into the cup's pot (0: none), beside the kontras it may route there. A plain ADD COLUMN with a default: no table
is copied (0005_circles.py says why that matters); the cups made before have no entry fee, as they had none.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("entry_fee", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("tournaments", "entry_fee")
