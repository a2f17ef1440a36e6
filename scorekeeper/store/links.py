"""Share links: a table's own id is its creator's link; viewers and scorers get links of their own.

Both are made with the table, in the transaction that makes it (create_table, an import, a circle's evening:
add_links), and migration 0009 made them for the tables from before; so reading them is a read, and no page
that is only looked at writes. A new scorer link turns the old one off (kept, inactive, so an old link gets a
clear answer).
"""
from __future__ import annotations

import logging
import secrets

from sqlalchemy import String, bindparam, insert, literal, select, union_all, update

from .db import engine, is_key, now, reading, writing
from .schema import CREATOR, SCORER, VIEWER, Access, NotFound, links, table_info, tables

log = logging.getLogger(__name__)

# one statement for both kinds of key, with the table's row (the view needs it next); built once
_KEY = union_all(
    select(tables, links.c.role, links.c.active).join_from(links, tables, links.c.table_id == tables.c.id)
    .where(links.c.key == bindparam("key")),
    select(tables, literal(CREATOR, String).label("role"), literal(True).label("active"))
    .where(tables.c.id == bindparam("key")))


def find_link(key: str) -> Access | None:
    """Return what a URL key opens (a share link or a table's own id), or None."""
    if not is_key(key):
        return None
    with reading() as conn:
        row = conn.execute(_KEY, {"key": key}).first()  # a key is one or the other: never two rows
    if row is None:
        return None
    return Access(row.id, row.role, row.active, table_info(row))


def add_links(conn, table_id: str) -> dict[str, str]:
    """Make a new table's viewer and scorer links in the caller's transaction (the one that inserts the table)."""
    return {role: _new_link(conn, table_id, role) for role in (VIEWER, SCORER)}


def share_links(table_id: str) -> dict[str, str]:
    """Return the table's working viewer and scorer keys: a read (the table was made with them).

    The one fallback, for a table that has none (a row written outside the app, after migration 0009 made
    them for every table before it): the missing ones are made here, in a write transaction of their own,
    under the table's lock so two phones make one pair, and a warning is logged. The alternative was a page
    that fails for want of a link its player never asked for, or a Share button without a watch link;
    share_links_of comes here too, so this is the only place a GET can still write a link.
    """
    with reading() as conn:  # one statement
        found = _active_links(conn, table_id)
    if len(found) == 2:
        return found
    log.warning("table %s had no %s link: made now", table_id,
                " or ".join(r for r in (VIEWER, SCORER) if r not in found))
    with writing() as conn:
        _lock(conn, table_id)
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
    key = secrets.token_urlsafe(16)  # migrations/versions/0009 makes keys the same way: change both together
    conn.execute(insert(links).values(key=key, table_id=table_id, role=role, active=True, created_at=now()))
    return key


def share_links_of(table_ids: list[str]) -> dict[str, dict[str, str]]:
    """Return each table's working viewer and scorer keys in one read (a circle's list of evenings); a table
    without them goes through share_links' fallback."""
    found: dict[str, dict[str, str]] = {t: {} for t in table_ids}
    with engine().connect() as conn:
        for chunk in range(0, len(table_ids), 500):  # bound the IN list
            for r in conn.execute(select(links.c.table_id, links.c.role, links.c.key).where(
                    links.c.table_id.in_(table_ids[chunk:chunk + 500]), links.c.active.is_(True))):
                found[r.table_id][r.role] = r.key
    for table_id, keys in found.items():
        if len(keys) < 2:
            found[table_id] = share_links(table_id)
    return found
