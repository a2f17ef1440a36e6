"""All SQL in one place: tables, their hands (facts only) and the change log that undo walks back.

A hand stores what happened (the API.md `hand` dict), never points or totals (STYLE.md habit 4).
Every change bumps the table's `version` (an ETag for live sharing) and the hand's own `version`,
and is written with its idempotency token in the same transaction, so a repeated form posts once.
"""
from __future__ import annotations

import fcntl
import secrets
import string
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from flask import Flask, current_app
from sqlalchemy import (JSON, Boolean, Column, DateTime, ForeignKey, Integer, MetaData, String, Table,
                        UniqueConstraint, create_engine, event, func, insert, select, update)
from sqlalchemy.exc import IntegrityError

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", JSON, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("stake", Integer, nullable=False),  # money per unit, in the currency's minor unit (Rappen, cents)
    Column("currency", String(8), nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

hands = Table(
    "hands", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("number", Integer, nullable=False),  # order of play; never reused, even after a delete
    Column("facts", JSON(none_as_null=True), nullable=True),  # the API.md hand; NULL while deleted
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "number", name="uq_hands_table_number"),
)

changes = Table(
    "changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("hand_id", Integer, ForeignKey("hands.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(8), nullable=False),  # add, edit, delete, undo
    Column("before", JSON(none_as_null=True), nullable=True),  # the hand's facts before the change (NULL: none/deleted)
    Column("after", JSON(none_as_null=True), nullable=True),
    Column("token", String(64), nullable=True, unique=True),  # the form's idempotency token
    Column("undone", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


@dataclass(frozen=True)
class TableInfo:
    """A table: its game, players in order of play, house rules, stake and first dealer."""

    id: str
    game: str
    players: tuple[str, ...]
    rules: dict
    stake: int
    currency: str
    first_dealer: int
    version: int
    created_at: datetime


@dataclass(frozen=True)
class Hand:
    """One live hand: its number in the evening, its facts and its version."""

    id: int
    number: int
    facts: dict
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Change:
    """One entry of a table's change log."""

    id: int
    hand_number: int
    kind: str
    created_at: datetime


class NotFound(LookupError):
    """No such table or hand."""


class Stale(Exception):
    """The hand changed since the form was loaded (its version moved on)."""

    def __init__(self, hand: Hand):
        super().__init__("stale")
        self.hand = hand


# ---- engine and schema ----

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
        # A writer takes the lock up front, so two writers queue instead of failing to upgrade a read lock.
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("write") else "BEGIN")

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
def writing():
    """Yield a connection inside one write transaction (committed on exit)."""
    with engine().connect() as conn:
        conn.execution_options(write=True)
        with conn.begin():
            yield conn


# ---- tables ----

def _table(row) -> TableInfo:
    return TableInfo(row.id, row.game, tuple(row.players), dict(row.rules), row.stake, row.currency,
                     row.first_dealer, row.version, row.created_at)


def create_table(game: str, players: list[str], rules: dict, stake: int, currency: str,
                 first_dealer: int, table_id: str | None = None, created_at: datetime | None = None) -> TableInfo:
    """Store a new table under an unguessable id and return it."""
    values = dict(id=table_id or secrets.token_urlsafe(16), game=game, players=list(players), rules=rules,
                  stake=stake, currency=currency, first_dealer=first_dealer, version=0,
                  created_at=created_at or now())
    with writing() as conn:
        conn.execute(insert(tables).values(**values))
    return get_table(values["id"])


URLSAFE = frozenset(string.ascii_letters + string.digits + "-_")


def ours(text) -> bool:
    """Say whether `text` could be an id, key or form token made here (secrets.token_urlsafe).

    Anything else matches no row: it is never sent to the database, where PostgreSQL refuses NUL bytes
    and strings longer than the 64-character columns.
    """
    return isinstance(text, str) and 0 < len(text) <= 64 and set(text) <= URLSAFE


def get_table(table_id: str) -> TableInfo:
    """Return a table, or raise NotFound."""
    if not ours(table_id):
        raise NotFound(table_id)
    with engine().connect() as conn:
        row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
    if row is None:
        raise NotFound(table_id)
    return _table(row)


def _bump(conn, table_id: str) -> int:
    """Lock the table row and move its version on; return the new version."""
    row = conn.execute(select(tables.c.version).where(tables.c.id == table_id).with_for_update()).first()
    if row is None:
        raise NotFound(table_id)
    conn.execute(update(tables).where(tables.c.id == table_id).values(version=row.version + 1))
    return row.version + 1


# ---- hands ----

def _hand(row) -> Hand:
    return Hand(row.id, row.number, row.facts, row.version, row.created_at, row.updated_at)


def list_hands(table_id: str) -> list[Hand]:
    """Return the table's live hands in order of play."""
    with engine().connect() as conn:
        rows = conn.execute(select(hands).where(hands.c.table_id == table_id, hands.c.facts.is_not(None))
                            .order_by(hands.c.number)).all()
    return [_hand(r) for r in rows if r.facts is not None]


def last_hand(table_id: str) -> Hand | None:
    """Return the table's latest live hand (for the next hand's defaults), if any."""
    with engine().connect() as conn:
        row = conn.execute(select(hands).where(hands.c.table_id == table_id, hands.c.facts.is_not(None))
                           .order_by(hands.c.number.desc()).limit(1)).first()
    return _hand(row) if row is not None else None


def get_hand(table_id: str, number: int) -> Hand:
    """Return one live hand of the table, or raise NotFound."""
    with engine().connect() as conn:
        row = conn.execute(select(hands).where(hands.c.table_id == table_id, hands.c.number == number)).first()
    if row is None or row.facts is None:
        raise NotFound(number)
    return _hand(row)


def by_token(token: str | None) -> Hand | None:
    """Return the hand a form's token already changed, if it was posted before."""
    if not ours(token):
        return None
    with engine().connect() as conn:
        row = conn.execute(select(hands).join(changes, changes.c.hand_id == hands.c.id)
                           .where(changes.c.token == token)).first()
    return _hand(row) if row is not None else None


def _once(token: str | None, write):
    """Run `write(conn)` in one transaction unless this token was already used; return the hand.

    The token's unique index decides: a repeated post fails to insert its change and rolls back whole.
    """
    try:
        with writing() as conn:
            return write(conn)
    except (IntegrityError, Stale, NotFound):
        done = by_token(token)  # the same form posted again (double tap, retry; a delete twice): the first won
        if done is None:
            raise
        return done


def add_hand(table_id: str, facts: dict, token: str | None = None) -> Hand:
    """Append a hand to the table (once per token) and return it."""
    def write(conn):
        _bump(conn, table_id)
        number = (conn.execute(select(func.max(hands.c.number)).where(hands.c.table_id == table_id)).scalar() or 0) + 1
        t = now()
        hand_id = conn.execute(insert(hands).values(table_id=table_id, number=number, facts=facts, version=1,
                                                    created_at=t, updated_at=t)).inserted_primary_key[0]
        _log(conn, table_id, hand_id, "add", None, facts, token)
        return Hand(hand_id, number, facts, 1, t, t)
    return _once(token, write)


def edit_hand(table_id: str, number: int, facts: dict | None, token: str | None = None,
              version: int | None = None) -> Hand:
    """Replace a live hand's facts (None deletes it), checking `version` if given; return the hand."""
    def write(conn):
        _bump(conn, table_id)
        row = conn.execute(select(hands).where(hands.c.table_id == table_id, hands.c.number == number)).first()
        if row is None or row.facts is None:
            raise NotFound(number)
        expected = row.version if version is None else version
        t = now()
        # compare-and-set: the UPDATE itself checks the version the form was loaded with
        moved = conn.execute(update(hands).where(hands.c.id == row.id, hands.c.version == expected)
                             .values(facts=facts, version=expected + 1, updated_at=t)).rowcount
        if moved != 1:
            raise Stale(_hand(row))
        _log(conn, table_id, row.id, "edit" if facts is not None else "delete", row.facts, facts, token)
        return Hand(row.id, number, facts, row.version + 1, row.created_at, t)
    return _once(token, write)


def delete_hand(table_id: str, number: int, token: str | None = None, version: int | None = None) -> Hand:
    """Delete a live hand (undo brings it back)."""
    return edit_hand(table_id, number, None, token, version)


def _log(conn, table_id, hand_id, kind, before, after, token):
    conn.execute(insert(changes).values(table_id=table_id, hand_id=hand_id, kind=kind, before=before,
                                        after=after, token=token if ours(token) else None,
                                        undone=False, created_at=now()))


def last_change(table_id: str) -> Change | None:
    """Return the most recent change that undo would revert, if any."""
    with engine().connect() as conn:
        row = conn.execute(_undoable(table_id)).first()
    return Change(row.id, row.number, row.kind, row.created_at) if row is not None else None


def _undoable(table_id):
    return (select(changes.c.id, changes.c.kind, changes.c.before, changes.c.hand_id, changes.c.created_at,
                   hands.c.number)
            .join(hands, hands.c.id == changes.c.hand_id)
            .where(changes.c.table_id == table_id, changes.c.undone.is_(False), changes.c.kind != "undo")
            .order_by(changes.c.id.desc()).limit(1))


def undo(table_id: str, token: str | None = None) -> Change | None:
    """Revert the table's last change (an add, edit or delete) and return it; None if nothing to undo."""
    if ours(token) and _change_by_token(token):
        return _change_by_token(token)
    with writing() as conn:
        row = conn.execute(_undoable(table_id)).first()
        if row is None:
            return None
        _bump(conn, table_id)
        hand = conn.execute(select(hands).where(hands.c.id == row.hand_id)).first()
        conn.execute(update(hands).where(hands.c.id == hand.id).values(
            facts=row.before, version=hand.version + 1, updated_at=now()))
        conn.execute(update(changes).where(changes.c.id == row.id).values(undone=True))
        _log(conn, table_id, hand.id, "undo", hand.facts, row.before, token)
        return Change(row.id, row.number, row.kind, row.created_at)


def _change_by_token(token: str) -> Change | None:
    with engine().connect() as conn:
        row = conn.execute(select(changes.c.id, changes.c.kind, changes.c.created_at, hands.c.number)
                           .join(hands, hands.c.id == changes.c.hand_id).where(changes.c.token == token)).first()
    return Change(row.id, row.number, row.kind, row.created_at) if row is not None else None


def import_table(table: TableInfo, hand_list: list[Hand]) -> TableInfo:
    """Store a whole table (from an export) under a new id, keeping hand numbers and versions."""
    new_id = secrets.token_urlsafe(16)
    with writing() as conn:
        conn.execute(insert(tables).values(id=new_id, game=table.game, players=list(table.players),
                                           rules=table.rules, stake=table.stake, currency=table.currency,
                                           first_dealer=table.first_dealer, version=table.version,
                                           created_at=table.created_at))
        for h in hand_list:
            conn.execute(insert(hands).values(table_id=new_id, number=h.number, facts=h.facts, version=h.version,
                                              created_at=h.created_at, updated_at=h.updated_at))
    return get_table(new_id)


# ---- share links (issue 5) ----
# A table's own id is its creator's link. Viewers and scorers get links of their own, made on first
# share; a new scorer link turns the old one off (kept, inactive, so an old link gets a clear answer).

links = Table(
    "links", metadata,
    Column("key", String(64), primary_key=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("role", String(8), nullable=False),  # viewer or scorer
    Column("active", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

CREATOR, SCORER, VIEWER = "creator", "scorer", "viewer"


@dataclass(frozen=True)
class Access:
    """What a link opens: the table, the link's role, and whether the link still works."""

    table_id: str
    role: str
    active: bool


def find_link(key: str) -> Access | None:
    """Return what a URL key opens (a share link or a table's own id), or None."""
    if not ours(key):
        return None
    with engine().connect() as conn:
        row = conn.execute(select(links.c.table_id, links.c.role, links.c.active).where(links.c.key == key)).first()
        if row is not None:
            return Access(row.table_id, row.role, row.active)
        if conn.execute(select(tables.c.id).where(tables.c.id == key)).first() is not None:
            return Access(key, CREATOR, True)
    return None


def table_version(table_id: str) -> int:
    """Return the table's version (moved on by every change), or raise NotFound."""
    if not ours(table_id):
        raise NotFound(table_id)
    with engine().connect() as conn:
        version = conn.execute(select(tables.c.version).where(tables.c.id == table_id)).scalar()
    if version is None:
        raise NotFound(table_id)
    return version


def share_links(table_id: str) -> dict[str, str]:
    """Return the table's working viewer and scorer keys, making any that don't exist yet."""
    with engine().connect() as conn:
        found = _active_links(conn, table_id)
    if len(found) == 2:
        return found
    with writing() as conn:
        _lock(conn, table_id)  # two phones sharing at once make one pair of links
        found = _active_links(conn, table_id)
        for role in (VIEWER, SCORER):
            if role not in found:
                found[role] = _new_link(conn, table_id, role)
    return found


def new_scorer_link(table_id: str) -> str:
    """Turn the table's scorer link off and return a new one."""
    with writing() as conn:
        _lock(conn, table_id)
        conn.execute(update(links).where(links.c.table_id == table_id, links.c.role == SCORER)
                     .values(active=False))
        return _new_link(conn, table_id, SCORER)


def _lock(conn, table_id: str) -> None:
    if conn.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update()).first() is None:
        raise NotFound(table_id)


def _active_links(conn, table_id: str) -> dict[str, str]:
    rows = conn.execute(select(links.c.role, links.c.key)
                        .where(links.c.table_id == table_id, links.c.active.is_(True))).all()
    return {r.role: r.key for r in rows}


def _new_link(conn, table_id: str, role: str) -> str:
    key = secrets.token_urlsafe(16)
    conn.execute(insert(links).values(key=key, table_id=table_id, role=role, active=True, created_at=now()))
    return key
