"""A phone's list on its way to another phone: `lists`, encrypted on the phone (the key stays in the link's
#fragment), kept a day, so that its QR code holds an address and a key, not the list (issue 36).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lists",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_lists_created_at", "lists", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_lists_created_at", table_name="lists")
    op.drop_table("lists")
