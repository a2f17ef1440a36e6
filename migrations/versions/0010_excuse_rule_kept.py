"""French Tarot tables keep the Excuse rule they were opened with: "goes to the trick's winner", written out.

The house rule `excuse_last_trick` now defaults to the FFT's "changes side" (docs/rules.md §6). A French Tarot
table, or a hand's setup, stored without the option was opened when a missing option read as "trick_winner";
it gets that value written in, so that a table already open keeps its rule and its totals never move.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

# Written out here, not imported from the app: a migration must do what it did on the day it was written.
GAME, OPTION, BEFORE = "french_tarot", "excuse_last_trick", "trick_winner"


def upgrade() -> None:
    conn = op.get_bind()
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("game", sa.String),
                      sa.column("rules", sa.JSON))
    hands = sa.table("hands", sa.column("id", sa.Integer), sa.column("table_id", sa.String),
                     sa.column("setup", sa.JSON(none_as_null=True)))
    ids = []
    for t in conn.execute(sa.select(tables.c.id, tables.c.rules).where(tables.c.game == GAME)).all():
        ids.append(t.id)
        rules = dict(t.rules or {})
        if OPTION not in rules:
            conn.execute(sa.update(tables).where(tables.c.id == t.id).values(rules={**rules, OPTION: BEFORE}))
    for i in range(0, len(ids), 500):  # a database with many tables is never one huge statement
        rows = conn.execute(sa.select(hands.c.id, hands.c.setup).where(hands.c.table_id.in_(ids[i:i + 500]))).all()
        for h in rows:
            setup = h.setup
            if isinstance(setup, dict) and isinstance(setup.get("rules"), dict) and OPTION not in setup["rules"]:
                setup = {**setup, "rules": {**setup["rules"], OPTION: BEFORE}}
                conn.execute(sa.update(hands).where(hands.c.id == h.id).values(setup=setup))


def downgrade() -> None:
    pass  # the value written is the one the table was read with before: nothing to undo
