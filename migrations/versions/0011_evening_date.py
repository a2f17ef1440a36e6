"""An evening has a date of its own: `tables.played_on`, the day it was played (None: the day it was opened).

An evening entered the next morning, or imported, falls into the month and year it was played, not the one its
table was opened in (issue 36). Adding a nullable column is a plain ALTER on both databases: no table is copied.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("played_on", sa.Date(), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "played_on")
