"""What a circle's watch link shows: its money, its ranking (long-term numbers can embarrass: the circle decides).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMNs with a default, never a batch copy of a parent table (0005 says why)
    op.add_column("circles", sa.Column("watch_money", sa.Boolean, nullable=False, server_default=sa.true()))
    op.add_column("circles", sa.Column("watch_ranking", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    op.drop_column("circles", "watch_ranking")
    op.drop_column("circles", "watch_money")
