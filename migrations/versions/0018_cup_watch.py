"""What a cup's watch link shows (issue 38 item 7): `watch_money`, the standings' money and the pot, or not (the
director decides, as a circle does: 0007_circle_watch.py). A plain ADD COLUMN with a default: no table is copied
(0005_circles.py says why that matters); the cups made before show their money, as they did.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("watch_money", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    op.drop_column("tournaments", "watch_money")
