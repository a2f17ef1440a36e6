"""The one discipline for every read-then-write: lock the row of what the write changes before reading.

A write that reads first (is this line still owed? what does the pot hold? who are the circle's people?) takes the
row lock of the thing it changes, first thing in its transaction: the circle's row for the circle's money, its
people and its evenings, the table's row for a table. A second phone's write of the same thing then waits for the
first to commit and reads what it wrote. On PostgreSQL the lock is SELECT … FOR UPDATE; SQLite writes one
transaction at a time anyway (db.writing: BEGIN IMMEDIATE), where FOR UPDATE is left out by SQLAlchemy.

Locks are taken in one order, so two writes never wait for each other: the circle, then its tables by id.
tests/test_at_once.py tries every write of the store on two phones at once, on both databases.
"""
from __future__ import annotations

from sqlalchemy import select

from .links import CIRCLE, TABLE, TOURNAMENT, lock
from .schema import tables


def lock_circle(conn, circle_id: str) -> None:
    """Lock the circle's row for the rest of the transaction (links.lock, as a new scorer link does); NotFound if
    there is no such circle."""
    lock(conn, circle_id, CIRCLE)


def lock_tournament(conn, tournament_id: str) -> None:
    """Lock a cup's row (issue 38: its players, closing a round, drawing the next; then its tables by id, as a
    circle's); NotFound if there is no such cup."""
    lock(conn, tournament_id, TOURNAMENT)


def lock_table(conn, table_id: str) -> None:
    """Lock the table's row for the rest of the transaction; NotFound if there is no such table."""
    lock(conn, table_id, TABLE)


def lock_circle_tables(conn, circle_id: str) -> dict[str, int]:
    """Lock the circle's row and then its tables' (by id); return each table's version as it is now."""
    lock_circle(conn, circle_id)
    return {r.id: r.version for r in conn.execute(
        select(tables.c.id, tables.c.version).where(tables.c.circle_id == circle_id).order_by(tables.c.id)
        .with_for_update())}
