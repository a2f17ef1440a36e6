"""A hand's dealer is a fact of that hand: deleting or editing a hand never changes who dealt another.

Existing hands get the dealer the scoreboard showed for them (the deal passing down the players from
the first dealer, counted over the live hands in order; a deleted hand as if it were live).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("hands", sa.Column("dealer", sa.String(64), nullable=True))
    conn = op.get_bind()
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("players", sa.JSON),
                      sa.column("first_dealer", sa.Integer))
    hands = sa.table("hands", sa.column("id", sa.Integer), sa.column("table_id", sa.String),
                     sa.column("number", sa.Integer), sa.column("facts", sa.JSON), sa.column("dealer", sa.String))
    for t in conn.execute(sa.select(tables.c.id, tables.c.players, tables.c.first_dealer)).all():
        players = list(t.players)
        rows = conn.execute(sa.select(hands.c.id, hands.c.facts).where(hands.c.table_id == t.id)
                            .order_by(hands.c.number)).all()
        live = 0
        for row in rows:
            seat = (t.first_dealer + live) % len(players)
            conn.execute(sa.update(hands).where(hands.c.id == row.id).values(dealer=players[seat]))
            if row.facts is not None:
                live += 1


def downgrade() -> None:
    op.drop_column("hands", "dealer")
