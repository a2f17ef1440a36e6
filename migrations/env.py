"""Alembic environment: run with the connection store.upgrade() hands over (no alembic.ini)."""
from alembic import context

from scorekeeper.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
