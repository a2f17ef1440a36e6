"""A round's clock (issue 38 item 1: "or a time limit the director closes"): `round_minutes`, the minutes each
round is given when drawn (0: no clock), and `round_ends_at`, when the round being played ends (server time, set
when the round is drawn or by the director; none once it is closed). Plain ADD COLUMNs with defaults: no table is
copied (0005_circles.py says why that matters); the cups made before have no clock, as they had none.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("round_minutes", sa.Integer, nullable=False, server_default="0"))
    op.add_column("tournaments", sa.Column("round_ends_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("tournaments", "round_ends_at")
    op.drop_column("tournaments", "round_minutes")
