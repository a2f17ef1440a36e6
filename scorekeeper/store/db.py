"""The database connection: the engine per app, migrations, write transactions, safe keys."""
from __future__ import annotations

import fcntl
import os
import string
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from flask import Flask, current_app
from sqlalchemy import create_engine, event

MIGRATIONS = Path(__file__).resolve().parent.parent.parent / "migrations"

def init_app(app: Flask) -> None:
    """Make the app's engine and bring its schema up to date (unless the config says not to)."""
    url = app.config["DATABASE_URL"]
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url[len("postgres://"):]
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    app.extensions["store"] = make_engine(url)
    if app.config.get("AUTO_MIGRATE", True):
        upgrade(app)


def make_engine(url: str):
    """Create an engine; SQLite gets WAL, a busy timeout, foreign keys and BEGIN IMMEDIATE for writes."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, future=True)
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def connect(dbapi, record):
        dbapi.isolation_level = None  # the driver's own BEGIN is deferred; we emit ours below
        cur = dbapi.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def begin(conn):
        options = conn.get_execution_options()
        if options.get("one_statement"):
            return  # one statement needs no transaction: SQLite reads it whole, at one moment (see reading())
        # A writer takes the lock up front, so two writers queue instead of failing to upgrade a read lock.
        conn.exec_driver_sql("BEGIN IMMEDIATE" if options.get("write") else "BEGIN")

    return engine


def engine():
    """Return the current app's engine."""
    return current_app.extensions["store"]


def upgrade(app: Flask) -> None:
    """Run the Alembic migrations up to head, once at a time across processes."""
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    eng = app.extensions.get("store") or make_engine(app.config["DATABASE_URL"])
    with eng.connect() as conn:
        if MigrationContext.configure(conn).get_current_revision() == head:
            return
    lock = Path(app.instance_path) / "migrate.lock"
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)  # gunicorn workers start together; one migrates, the rest wait
        with eng.begin() as conn:
            if eng.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(20261122)")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")


def now() -> datetime:
    return datetime.now(timezone.utc)


@contextmanager
def reading():
    """Yield a connection for one read statement, outside any transaction: on SQLite a statement alone is
    read at one moment (autocommit), so the BEGIN and ROLLBACK around it are two calls for nothing, on the
    key's look-up that every request makes. More than one statement needs engine().connect(): a transaction."""
    with engine().connect() as conn:
        conn.execution_options(one_statement=True)
        yield conn


@contextmanager
def writing():
    """Yield a connection inside one write transaction (committed on exit)."""
    eng = engine()
    with eng.connect() as conn:  # the pool's checkout before the queue: the writer lock is held for the SQL alone
        conn.execution_options(write=True)
        with _one_writer(eng):
            with conn.begin():
                yield conn


_WRITERS: dict = {}  # (process, database file) -> (thread lock, lock file)
_WRITERS_LOCK = threading.Lock()


@contextmanager
def _one_writer(eng):
    """Queue this write behind the others on an SQLite file, so each starts the moment the last one commits.

    SQLite lets one writer in at a time, and one that finds the database locked sleeps in SQLite's busy
    handler (1, 2, 5, 10 … 100 ms at a time), idle while the lock may have come free long before: under
    load, most of a save's time. Here writers wait their turn instead: on a thread lock within the
    process, and on an flock of a file beside the database across processes (gunicorn's workers); the
    kernel drops the flock of a process that dies. Other databases queue their writers themselves.
    """
    path = eng.url.database if eng.dialect.name == "sqlite" else None
    if not path or path == ":memory:" or path.startswith("file:"):
        yield
        return
    key = (os.getpid(), path)  # an flock is shared by a forked child: each process opens its own
    with _WRITERS_LOCK:
        if key not in _WRITERS:
            _WRITERS[key] = (threading.Lock(), open(path + "-writer.lock", "a"))
        lock, file = _WRITERS[key]
    with lock:
        fcntl.flock(file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


URLSAFE = frozenset(string.ascii_letters + string.digits + "-_")


def is_key(text) -> bool:
    """Say whether `text` could be an id, key or form token made here (secrets.token_urlsafe).

    Anything else matches no row: it is never sent to the database, where PostgreSQL refuses NUL bytes
    and strings longer than the 64-character columns.
    """
    return isinstance(text, str) and 0 < len(text) <= 64 and set(text) <= URLSAFE
