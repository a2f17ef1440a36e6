"""Every table has its viewer and scorer links, and every circle its own: made with it from now on (a page that is
only looked at never writes), and here for the tables and circles from before, which made them on first share.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""
import secrets
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

# Written out here, not imported from the app (store.links._new_link, store.schema): a migration must make what it
# made on the day it was written, whatever the app's code becomes. The keys are made as _new_link makes them:
# secrets.token_urlsafe(16), 22 URL-safe characters (store.db.is_key accepts them).
ROLES = ("viewer", "scorer")
CHUNK = 500  # rows per INSERT: a database with many tables is never one huge statement


def upgrade() -> None:
    conn = op.get_bind()
    made_at = datetime.now(timezone.utc)
    for owners, links, owner_key in (("tables", "links", "table_id"), ("circles", "circle_links", "circle_id")):
        owner = sa.table(owners, sa.column("id", sa.String))
        link = sa.table(links, sa.column("key", sa.String), sa.column(owner_key, sa.String),
                        sa.column("role", sa.String), sa.column("active", sa.Boolean),
                        sa.column("created_at", sa.DateTime(timezone=True)))
        for role in ROLES:
            has_one = sa.exists().where(link.c[owner_key] == owner.c.id, link.c.role == role,
                                        link.c.active.is_(True))
            missing = conn.execute(sa.select(owner.c.id).where(~has_one).order_by(owner.c.id)).scalars().all()
            for start in range(0, len(missing), CHUNK):
                conn.execute(sa.insert(link), [{"key": secrets.token_urlsafe(16), owner_key: owner_id, "role": role,
                                                "active": True, "created_at": made_at}
                                               for owner_id in missing[start:start + CHUNK]])


def downgrade() -> None:
    # Nothing to take back: before 0009 the same links were made on first share, and a table or circle that has
    # them is what that made. Deleting them would turn off links already shared.
    pass
