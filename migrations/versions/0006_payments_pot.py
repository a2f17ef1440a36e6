"""Money across evenings: settle-up lines marked paid (an evening's, or a circle's season), and a circle's pot.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # new tables only: nothing existing is copied or altered
    op.create_table(
        "payments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=True),
        sa.Column("circle_id", sa.String(64), sa.ForeignKey("circles.id", ondelete="CASCADE"), nullable=True),
        sa.Column("payer", sa.String(64), nullable=False),
        sa.Column("payee", sa.String(64), nullable=False),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("token", sa.String(64), nullable=True, unique=True),
        sa.Column("undone", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_payments_table_id", "payments", ["table_id"])
    op.create_index("ix_payments_circle_id", "payments", ["circle_id"])
    op.create_table(
        "pot_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("circle_id", sa.String(64), sa.ForeignKey("circles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("currency", sa.String(8), nullable=False),
        sa.Column("who", sa.String(64), nullable=True),
        sa.Column("note", sa.String(80), nullable=False),
        sa.Column("token", sa.String(64), nullable=True, unique=True),
        sa.Column("undone", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_pot_entries_circle_id", "pot_entries", ["circle_id"])


def downgrade() -> None:
    op.drop_index("ix_pot_entries_circle_id", "pot_entries")
    op.drop_table("pot_entries")
    op.drop_index("ix_payments_circle_id", "payments")
    op.drop_index("ix_payments_table_id", "payments")
    op.drop_table("payments")
