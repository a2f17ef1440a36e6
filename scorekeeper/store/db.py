"""The database connection: the engine per app, migrations, write transactions, safe keys."""
from __future__ import annotations

import os
import string
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from flask import Flask, current_app
from sqlalchemy import create_engine, event, text
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from ..paths import resource

try:
    import fcntl
except ImportError:  # Windows: `serve` runs one waitress process there, so the thread locks below are enough
    fcntl = None

MIGRATIONS = resource("migrations")


class Unusable(Exception):
    """The database can't be used (a malformed DATABASE_URL, a server that can't be reached): a sentence to
    print at start-up, which never shows the password."""


def init_app(app: Flask) -> None:
    """Make the app's engine and bring its schema up to date (unless the config says not to)."""
    url = app.config["DATABASE_URL"]
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url[len("postgres://"):]
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    try:
        app.extensions["store"] = make_engine(url)
    except (ArgumentError, NoSuchModuleError, ValueError):
        raise Unusable("DATABASE_URL is not a database address this app can use: write sqlite:////path/to/file."
                       "sqlite or postgresql://user:password@host:5432/name.") from None
    if app.config.get("AUTO_MIGRATE", True):
        try:
            upgrade(app)
        except SQLAlchemyError as e:
            shown = app.extensions["store"].url.render_as_string(hide_password=True)
            reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
            raise Unusable(f"The database in DATABASE_URL ({shown}) can't be used: {reason}") from None


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
        # every commit on the disk before it is answered (FULL: WAL's own default, which a system's SQLite may build
        # as NORMAL; a Save's commit is ~4% of its CPU, docs/deploy.md)
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA wal_autocheckpoint=0")  # the WAL is copied back outside the writers' queue: _checkpoint
        # the WAL's file cut back to what its log holds when the log starts again after a copy: its size is then
        # how much is left to copy (_checkpoint's mark), not the most it ever held
        cur.execute("PRAGMA journal_size_limit=0")
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
        if fcntl:
            fcntl.flock(f, fcntl.LOCK_EX)  # gunicorn workers start together; one migrates, the rest wait
        with eng.begin() as conn:
            if eng.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(20261122)")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")


def unready(app: Flask) -> str | None:
    """Say why the database can't serve (it doesn't answer, or its schema isn't the newest migration), or None.

    For /readyz: one connection and one or two small reads, no write and no lock."""
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    try:
        with app.extensions["store"].connect() as conn:
            conn.execute(text("SELECT 1"))
            current = MigrationContext.configure(conn).get_current_revision()
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        return f"the database does not answer: {reason}"
    if current != head:
        return f"the database is at migration {current or 'none'}, the newest is {head}"
    return None


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
        _checkpoint(eng, conn)


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
            _WRITERS[key] = (threading.Lock(), open(path + "-writer.lock", "a") if fcntl else None)
        lock, file = _WRITERS[key]
    with lock:
        if file is None:  # Windows: one process (serve's waitress), so the thread lock is the whole queue
            yield
            return
        fcntl.flock(file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(file, fcntl.LOCK_UN)


CHECKPOINT_BYTES = 4 * 1024 * 1024  # SQLite's own mark (wal_autocheckpoint): 1000 pages of 4 KB
_CHECKPOINTING = threading.Lock()


def _checkpoint(eng, conn) -> None:
    """Copy an SQLite file's WAL back into the database once it has grown past SQLite's own mark, after the write
    that crossed it has left the writers' queue (_one_writer). SQLite would do it inside that write's commit
    (wal_autocheckpoint, off here), so every write queued behind it waited for the copy and its fsyncs: on a cup
    night of 30 tables saving, a stall of about a second for all of them (bench/cup.py). PASSIVE, as SQLite's own:
    it waits for no reader or writer, and none waits for it; one thread of a process at a time (another process's
    at the same moment finds it busy and leaves it)."""
    path = eng.url.database if eng.dialect.name == "sqlite" else None
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    try:
        if os.path.getsize(path + "-wal") < CHECKPOINT_BYTES:
            return
    except OSError:
        return  # no WAL (yet)
    if not _CHECKPOINTING.acquire(blocking=False):
        return  # another thread of this process is copying it now
    try:
        # the driver's connection, outside SQLAlchemy: its next statement would begin a write transaction
        conn.connection.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    except Exception:  # noqa: BLE001 — busy with another process's checkpoint: the next write tries again
        pass
    finally:
        _CHECKPOINTING.release()


URLSAFE = frozenset(string.ascii_letters + string.digits + "-_")


def is_key(text) -> bool:
    """Say whether `text` could be an id, key or form token made here (secrets.token_urlsafe).

    Anything else matches no row: it is never sent to the database, where PostgreSQL refuses NUL bytes
    and strings longer than the 64-character columns.
    """
    return isinstance(text, str) and 0 < len(text) <= 64 and set(text) <= URLSAFE
