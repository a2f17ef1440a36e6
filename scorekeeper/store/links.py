"""Share links: a table's own id is its creator's link; viewers and scorers get links of their own, and a circle's
scorer and watchers too, and a cup's director and watchers: one set of functions for all (`Owner`: TABLE, CIRCLE,
TOURNAMENT).

Both are made with the table, in the transaction that makes it (create_table, an import, a circle's evening:
add_links), and migration 0009 made them for the tables from before; so reading them is a read, and no page
that is only looked at writes. A new scorer link turns the old one off (kept, inactive, so an old link gets a
clear answer).
"""
from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import String, Table, bindparam, insert, literal, select, union_all, update

from .db import engine, is_key, now, reading, writing
from .schema import (CREATOR, SCORER, VIEWER, Access, Circle, NotFound, Tournament, circle_links, circles, links,
                     table_info, tables, tournament_links, tournaments)

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


@dataclass(frozen=True)
class Owner:
    """What share links open: a table or a circle. Its links' table, the column there naming it, and its own table
    (whose row is the lock: two phones at once make one link, the second finds it)."""

    name: str
    links: Table
    column: str
    rows: Table


TABLE = Owner("table", links, "table_id", tables)
CIRCLE = Owner("circle", circle_links, "circle_id", circles)
TOURNAMENT = Owner("tournament", tournament_links, "tournament_id", tournaments)  # a cup night (issue 38)


def find_tournament(key: str) -> Tournament | None:
    """Return the cup a link opens, with the link's role (scorer: its director) and whether it works, or None."""
    if not is_key(key):
        return None
    with reading() as conn:
        row = conn.execute(select(tournaments, tournament_links.c.role, tournament_links.c.active)
                           .join_from(tournament_links, tournaments,
                                      tournament_links.c.tournament_id == tournaments.c.id)
                           .where(tournament_links.c.key == key)).first()
    return None if row is None else tournament_of(row, row.role, row.active)


def tournament_of(row, role: str = VIEWER, active: bool = True) -> Tournament:
    """A tournaments row as the Tournament a link of `role` sees."""
    return Tournament(row.id, row.name, row.held_on, row.game, dict(row.rules), row.rounds, row.games_per_round,
                      row.seed, row.closed_rounds, row.version, row.created_at, role, active, row.ranking,
                      row.ranking_n, row.rate, row.currency, row.pot, row.watch_money,
                      row.circle_id, row.round_minutes, utc(row.round_ends_at), row.entry_fee)


def utc(moment: datetime | None) -> datetime | None:
    """A stored moment as UTC (SQLite gives it back without its zone; it was written in UTC: db.now)."""
    return moment.replace(tzinfo=timezone.utc) if moment is not None and moment.tzinfo is None else moment


def find_circle(key: str) -> Circle | None:
    """Return the circle a link opens, with the link's role and whether it still works, or None."""
    if not is_key(key):
        return None
    with reading() as conn:
        row = conn.execute(select(circles, circle_links.c.role, circle_links.c.active)
                           .join_from(circle_links, circles, circle_links.c.circle_id == circles.c.id)
                           .where(circle_links.c.key == key)).first()
    return None if row is None else Circle(row.id, row.name, row.created_at, row.role, row.active, row.watch_money,
                                           row.watch_ranking, row.pot_per_lost_hand)


def add_links(conn, owner_id: str, owner: Owner = TABLE) -> dict[str, str]:
    """Make a new table's (or circle's) viewer and scorer links in the caller's transaction (the one that inserts
    it)."""
    return {role: _new_link(conn, owner, owner_id, role) for role in (VIEWER, SCORER)}


def share_links(owner_id: str, owner: Owner = TABLE) -> dict[str, str]:
    """Return the table's (or circle's) working viewer and scorer keys: a read (it was made with them).

    The one fallback, for one that has none (a row written outside the app, after migration 0009 made
    them for every table and circle before it): the missing ones are made here, in a write transaction of their own,
    under its lock so two phones make one pair, and a warning is logged. The alternative was a page
    that fails for want of a link its player never asked for, or a Share button without a watch link;
    share_links_of comes here too, so this is the only place a GET can still write a link.
    """
    with reading() as conn:  # one statement
        found = _active_links(conn, owner, owner_id)
    if len(found) == 2:
        return found
    log.warning("%s %s had no %s link: made now", owner.name, owner_id,
                " or ".join(r for r in (VIEWER, SCORER) if r not in found))
    with writing() as conn:
        lock(conn, owner_id, owner)
        found = _active_links(conn, owner, owner_id)
        for role in (VIEWER, SCORER):
            if role not in found:
                found[role] = _new_link(conn, owner, owner_id, role)
    return found


def new_scorer_link(owner_id: str, owner: Owner = TABLE) -> str:
    """Turn the table's (or circle's) scorer link off and return a new one."""
    with writing() as conn:
        lock(conn, owner_id, owner)  # two phones at once: the second turns off the first's new link, one stays working
        column = owner.links.c[owner.column]
        conn.execute(update(owner.links).where(column == owner_id, owner.links.c.role == SCORER)
                     .values(active=False))
        return _new_link(conn, owner, owner_id, SCORER)


def lock(conn, owner_id: str, owner: Owner = TABLE) -> None:
    """Take the row lock of the table (or circle) in the caller's write transaction; NotFound if there is none."""
    rows = owner.rows
    if conn.execute(select(rows.c.id).where(rows.c.id == owner_id).with_for_update()).first() is None:
        raise NotFound(owner_id)


def _active_links(conn, owner: Owner, owner_id: str) -> dict[str, str]:
    column = owner.links.c[owner.column]
    rows = conn.execute(select(owner.links.c.role, owner.links.c.key)
                        .where(column == owner_id, owner.links.c.active.is_(True))).all()
    return {r.role: r.key for r in rows}


def _new_link(conn, owner: Owner, owner_id: str, role: str) -> str:
    key = secrets.token_urlsafe(16)  # migrations/versions/0009 makes keys the same way: change both together
    conn.execute(insert(owner.links).values(key=key, **{owner.column: owner_id}, role=role, active=True,
                                            created_at=now()))
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
