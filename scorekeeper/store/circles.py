"""Circles: a group that meets again (a Stammtisch, a club's monthly evening), reached only through its links.

A circle's tables are its evenings; a phone that has a circle's link finds every one of them, so an evening is
never lost with a phone's browser storage. A new scorer link turns the old one off (kept, inactive).
"""
from __future__ import annotations

import secrets

from sqlalchemy import Integer, cast, func, insert, select, update

from .db import engine, now, writing
from .hands import insert_table
from .links import CIRCLE, add_links
from .locks import lock_circle, lock_table
from .schema import (SCORER, VIEWER, Circle, InAnotherCircle, NotFound, circles, payments, pot_entries, table_info,
                     tables)


def create_circle(name: str) -> str:
    """Store a new circle; return its scorer key (the address its maker keeps)."""
    circle_id = secrets.token_urlsafe(16)
    with writing() as conn:
        conn.execute(insert(circles).values(id=circle_id, name=name, created_at=now()))
        return add_links(conn, circle_id, CIRCLE)[SCORER]


def get_circle(circle_id: str, role: str = VIEWER) -> Circle:
    """Return a circle by its id, as a link of `role` sees it (NotFound if there is none)."""
    with engine().connect() as conn:
        row = conn.execute(select(circles).where(circles.c.id == circle_id)).first()
    if row is None:
        raise NotFound(circle_id)
    return Circle(row.id, row.name, row.created_at, role, True, row.watch_money, row.watch_ranking,
                  row.pot_per_lost_hand)


def set_watch(circle_id: str, money: bool, ranking: bool) -> None:
    """Choose what the circle's watch link shows besides the evenings and scores."""
    with writing() as conn:
        conn.execute(update(circles).where(circles.c.id == circle_id).values(watch_money=money, watch_ranking=ranking))


def set_pot_rule(circle_id: str, per_lost_hand: int) -> None:
    """What each hand lost by whoever took it on pays into the circle's pot, in minor units (0: no rule)."""
    with writing() as conn:
        conn.execute(update(circles).where(circles.c.id == circle_id).values(pot_per_lost_hand=per_lost_hand))


def rename_circle(circle_id: str, name: str) -> None:
    with writing() as conn:
        conn.execute(update(circles).where(circles.c.id == circle_id).values(name=name))


def circle_tables(circle_id: str) -> list:
    """Return the circle's tables (its evenings), oldest first."""
    with engine().connect() as conn:
        rows = conn.execute(select(tables).where(tables.c.circle_id == circle_id)
                            .order_by(tables.c.created_at, tables.c.id)).all()
    return [table_info(r) for r in rows]


def join_circle(table_id: str, circle_id: str) -> None:
    """Make a table one of the circle's evenings; InAnotherCircle if it is already another circle's (a table
    belongs to one circle: two circles taking it at once, the first has it)."""
    with writing() as conn:
        lock_circle(conn, circle_id)  # store/locks.py: the circle, then the table
        lock_table(conn, table_id)
        now_in = conn.execute(select(tables.c.circle_id).where(tables.c.id == table_id)).scalar()
        if now_in not in (None, circle_id):
            raise InAnotherCircle(table_id)
        conn.execute(update(tables).where(tables.c.id == table_id).values(circle_id=circle_id))


def circle_of(table_id: str) -> str | None:
    """Return the id of the circle a table belongs to, or None."""
    with engine().connect() as conn:
        return conn.execute(select(tables.c.circle_id).where(tables.c.id == table_id)).scalar()


def circle_tag(circle_id: str) -> str:
    """Name what a circle's page shows as it is now, in one read: its tables and their versions (every hand, change
    and rename moves a table's version), its paid marks and its pot (each mark and entry, made or taken back)."""
    mine = select(tables.c.id).where(tables.c.circle_id == circle_id)
    marks = (payments.c.circle_id == circle_id) | payments.c.table_id.in_(mine)
    counts = (
        select(func.count()).where(tables.c.circle_id == circle_id),
        select(func.coalesce(func.sum(tables.c.version), 0)).where(tables.c.circle_id == circle_id),
        select(func.count()).select_from(payments).where(marks),
        select(func.coalesce(func.sum(cast(payments.c.undone, Integer)), 0)).where(marks),
        select(func.count()).select_from(pot_entries).where(pot_entries.c.circle_id == circle_id),
        select(func.coalesce(func.sum(cast(pot_entries.c.undone, Integer)), 0))
        .where(pot_entries.c.circle_id == circle_id),
    )
    with engine().connect() as conn:
        row = conn.execute(select(*(c.scalar_subquery() for c in counts))).first()
    return "c" + ".".join(str(int(v)) for v in row)


def import_circle(name: str, created_at, evenings: list, paid: list, pot: list, watch_money: bool = True,
                  watch_ranking: bool = True, pot_per_lost_hand: int = 0) -> str:
    """Store a whole circle (from its export) under new addresses, all or nothing; return its scorer key.

    `evenings`: [(TableInfo, [Hand], [paid line])]; a paid line is (payer, payee, amount, currency, when);
    `paid`: the season's own paid lines; `pot`: [(amount, currency, who, note, when)].
    """
    circle_id = secrets.token_urlsafe(16)
    with writing() as conn:
        conn.execute(insert(circles).values(id=circle_id, name=name, created_at=created_at, watch_money=watch_money,
                                            watch_ranking=watch_ranking, pot_per_lost_hand=pot_per_lost_hand))
        marks = []
        for table, hand_list, lines in evenings:
            table_id = insert_table(conn, table, hand_list, circle_id)
            marks += [dict(table_id=table_id, circle_id=None, payer=a, payee=b, amount=n, currency=c, token=None,
                           undone=False, created_at=when) for a, b, n, c, when in lines]
        marks += [dict(table_id=None, circle_id=circle_id, payer=a, payee=b, amount=n, currency=c, token=None,
                       undone=False, created_at=when) for a, b, n, c, when in paid]
        if marks:
            conn.execute(insert(payments), marks)
        if pot:
            conn.execute(insert(pot_entries), [dict(circle_id=circle_id, amount=n, currency=c, who=who, note=note,
                                                    token=None, undone=False, created_at=when)
                                               for n, c, who, note, when in pot])
        return add_links(conn, circle_id, CIRCLE)[SCORER]
