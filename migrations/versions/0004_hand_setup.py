"""What was in force for each hand (its players, stake and house rules) is stored with it; table changes are logged.

A table may now change during the evening (a player joins or leaves, the stake or a house rule
changes from the next hand on), so a hand's totals can't be worked out from the table's current
settings. Every existing hand was played under the table's settings as they are (they couldn't change
before), so that is what it gets. A change of the table is an entry of the change log with no hand.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("hands", sa.Column("setup", sa.JSON(none_as_null=True), nullable=True))
    with op.batch_alter_table("changes") as batch:
        batch.alter_column("hand_id", existing_type=sa.Integer, nullable=True)
    conn = op.get_bind()
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("players", sa.JSON),
                      sa.column("stake", sa.Integer), sa.column("rules", sa.JSON))
    hands = sa.table("hands", sa.column("table_id", sa.String), sa.column("setup", sa.JSON))
    for t in conn.execute(sa.select(tables.c.id, tables.c.players, tables.c.stake, tables.c.rules)).all():
        setup = {"players": list(t.players), "stake": t.stake, "rules": dict(t.rules)}
        conn.execute(sa.update(hands).where(hands.c.table_id == t.id).values(setup=setup))


def downgrade() -> None:
    op.execute("DELETE FROM changes WHERE hand_id IS NULL")  # changes of the table itself: none before 0004
    with op.batch_alter_table("changes") as batch:
        batch.alter_column("hand_id", existing_type=sa.Integer, nullable=False)
    op.drop_column("hands", "setup")
