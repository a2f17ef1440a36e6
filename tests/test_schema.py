"""The schema in code (store/schema.py) is the schema the migrations make: a column, index or key added to one
and not the other fails here, on each backend, before it fails a deployment."""
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scorekeeper.store import schema


def differences(app, metadata=schema.metadata) -> list:
    engine = app.extensions["store"]
    with engine.connect() as conn:
        found = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
    if engine.dialect.name == "sqlite":
        # SQLite can't add a foreign key to a table that exists (migrations/versions/0005_circles.py says why it
        # doesn't copy `tables` to do it): there, and only there, tables.circle_id and tournaments.circle_id (0019)
        # have none, and the app keeps them
        found = [d for d in found if not (d[0] == "add_fk" and d[1].table.name in ("tables", "tournaments")
                                          and [c.name for c in d[1].columns] == ["circle_id"])]
    return found


def test_the_migrations_make_the_schema_in_code(db_app):
    assert differences(db_app) == []


def test_a_column_in_code_and_not_in_the_migrations_is_found(db_app):
    """The comparison can fail: a column the code declares and no migration adds is named."""
    changed = sa.MetaData()
    for table in schema.metadata.sorted_tables:
        table.to_metadata(changed)
    changed.tables["tables"].append_column(sa.Column("nickname", sa.String(40)))
    assert [(d[0], d[2], d[3].name) for d in differences(db_app, changed)] == [("add_column", "tables", "nickname")]
