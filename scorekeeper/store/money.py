"""Money across evenings: settle-up lines marked paid, and a circle's pot (a ledger whose balance is the sum of its
live entries). Every mark and entry carries its form's token: a double tap writes once."""
from __future__ import annotations

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from .db import engine, is_key, now, writing
from .locks import lock_circle, lock_table
from .circles import tag_in
from .schema import AlreadyPaid, Moved, Payment, PotEntry, PotShort, payments, pot_entries, tables


def _payment(r) -> Payment:
    return Payment(r.id, r.table_id, r.payer, r.payee, r.amount, r.currency, r.created_at)


def mark_paid(payer: str, payee: str, amount: int, currency: str, *, table_id: str | None = None,
              circle_id: str | None = None, token: str | None = None, seen: int = 0, tag: str | None = None,
              version: int | None = None) -> None:
    """Mark a settle-up line paid: an evening's (table_id) or a circle's season's (circle_id).

    `seen`: how many live marks of this very line (payer, payee, amount) the phone's page showed. If another phone
    marked it meanwhile there are more, and AlreadyPaid is raised: two phones tapping "Paid" at once mark it once.
    `tag`: the circle's tag (circles.circle_tag) the line was found owed at; if the circle changed since (a hand, a
    mark, the pot's rule), Moved is raised under its lock and nothing is written: the caller works it out again.
    `version`: likewise for an evening's line, the table's version it was found owed at (every hand moves it on).
    """
    token = token if is_key(token) else None
    same = [payments.c.payer == payer, payments.c.payee == payee, payments.c.amount == amount,
            payments.c.currency == currency, payments.c.undone.is_(False),
            payments.c.table_id == table_id if table_id else payments.c.table_id.is_(None),
            payments.c.circle_id == circle_id if circle_id else payments.c.circle_id.is_(None)]
    try:
        with writing() as conn:
            _lock_owner(conn, table_id, circle_id)  # two phones at once mark it once
            if token and conn.execute(select(payments.c.id).where(payments.c.token == token)).first():
                return  # this form was posted before: marked the first time
            if tag is not None and circle_id and tag_in(conn, circle_id) != tag:
                raise Moved(None)
            if version is not None and table_id and conn.execute(
                    select(tables.c.version).where(tables.c.id == table_id)).scalar() != version:
                raise Moved(None)
            if conn.execute(select(func.count()).select_from(payments).where(*same)).scalar() != seen:
                raise AlreadyPaid()
            conn.execute(insert(payments).values(table_id=table_id, circle_id=circle_id, payer=payer, payee=payee,
                                                 amount=amount, currency=currency, token=token, undone=False,
                                                 created_at=now()))
    except IntegrityError:
        if token is None:
            raise  # (two posts of one form meet on the token's uniqueness: the other one marked it)


def unmark_paid(payment_id: int, *, table_id: str | None = None, circle_id: str | None = None) -> bool:
    """Undo a mark (of this table's or this circle's own lines only); False if there was no such live mark."""
    where = [payments.c.id == payment_id, payments.c.undone.is_(False)]
    where.append(payments.c.table_id == table_id if table_id else payments.c.circle_id == circle_id)
    with writing() as conn:
        _lock_owner(conn, table_id, circle_id)
        return conn.execute(update(payments).where(*where).values(undone=True)).rowcount == 1


def _lock_owner(conn, table_id: str | None, circle_id: str | None) -> None:
    """Lock the row of whose line it is (store/locks.py): the table's for an evening's, the circle's for a season's."""
    if table_id:
        lock_table(conn, table_id)
    else:
        lock_circle(conn, circle_id)


def paid_for_table(table_id: str) -> list[Payment]:
    """The live marks of an evening's lines, oldest first."""
    with engine().connect() as conn:
        rows = conn.execute(select(payments).where(payments.c.table_id == table_id, payments.c.undone.is_(False))
                            .order_by(payments.c.id)).all()
    return [_payment(r) for r in rows]


def paid_in_circle(circle_id: str) -> list[Payment]:
    """The live marks of a circle: its evenings' lines and its season's, oldest first."""
    with engine().connect() as conn:
        rows = conn.execute(select(payments).where(
            payments.c.undone.is_(False),
            or_(payments.c.circle_id == circle_id,
                payments.c.table_id.in_(select(tables.c.id).where(tables.c.circle_id == circle_id))))
            .order_by(payments.c.id)).all()
    return [_payment(r) for r in rows]


# ---- the pot ----

def pot_add(circle_id: str, amount: int, currency: str, note: str, who: str | None = None,
            token: str | None = None, by_rule: int = 0) -> None:
    """Put money into the pot (amount above zero) or take it out (below zero). A withdrawal larger than the pot
    holds raises PotShort: the pot is the table's cash in a tin, and a tin can't go below empty. `by_rule`: what
    the pot's rule brought in that currency (worked out from the hands, not stored), which it holds too."""
    token = token if is_key(token) else None
    try:
        with writing() as conn:
            lock_circle(conn, circle_id)  # what the pot holds is read under the circle's lock: one phone at a time
            if token and conn.execute(select(pot_entries.c.id).where(pot_entries.c.token == token)).first():
                return
            if amount < 0:
                holds = _balance(conn, circle_id, currency) + by_rule
                if holds + amount < 0:
                    raise PotShort(holds)
            conn.execute(insert(pot_entries).values(circle_id=circle_id, amount=amount, currency=currency, who=who,
                                                    note=note, token=token, undone=False, created_at=now()))
    except IntegrityError:
        if token is None:
            raise


def _balance(conn, circle_id: str, currency: str) -> int:
    return conn.execute(select(func.coalesce(func.sum(pot_entries.c.amount), 0)).where(
        pot_entries.c.circle_id == circle_id, pot_entries.c.currency == currency,
        pot_entries.c.undone.is_(False))).scalar()


def pot_undo(circle_id: str, entry_id: int, by_rule: dict | None = None) -> bool:
    """Take an entry back (kept, marked undone); refused (PotShort) if the pot would go below empty without it
    (`by_rule`: what the pot's rule brought, per currency)."""
    with writing() as conn:
        lock_circle(conn, circle_id)  # as pot_add: what the pot holds is read under the circle's lock
        row = conn.execute(select(pot_entries).where(pot_entries.c.id == entry_id, pot_entries.c.circle_id == circle_id,
                                                     pot_entries.c.undone.is_(False))).first()
        if row is None:
            return False
        holds = _balance(conn, circle_id, row.currency) + (by_rule or {}).get(row.currency, 0)
        if holds - row.amount < 0:
            raise PotShort(holds)
        conn.execute(update(pot_entries).where(pot_entries.c.id == entry_id).values(undone=True))
        return True


def pot_entries_of(circle_id: str) -> list[PotEntry]:
    """The pot's live entries, oldest first."""
    with engine().connect() as conn:
        rows = conn.execute(select(pot_entries).where(pot_entries.c.circle_id == circle_id,
                                                      pot_entries.c.undone.is_(False))
                            .order_by(pot_entries.c.id)).all()
    return [PotEntry(r.id, r.amount, r.currency, r.who, r.note, r.created_at) for r in rows]
