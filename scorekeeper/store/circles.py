"""Circles: a group that meets again (a Stammtisch, a club's monthly evening), reached only through its links.

A circle's tables are its evenings; a phone that has a circle's link finds every one of them, so an evening is
never lost with a phone's browser storage. A new scorer link turns the old one off (kept, inactive).
"""
from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import date

from sqlalchemy import Integer, cast, delete, func, insert, select, update

from .db import engine, now, writing
from .hands import _bump, _log, _rename_money, _set_table, insert_table
from .links import CIRCLE, add_links
from .locks import lock_circle, lock_circle_tables, lock_table
from .tournaments import insert_tournament
from .schema import (SCORER, VIEWER, CantUndo, Circle, CircleChange, InAnotherCircle, NotFound, circle_changes,
                     circle_cup_rules, circles, payments, pot_entries, pot_rules, table_info, tables)
from .schema import pot_rules as pot_rules_table


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


def set_pot_rule(circle_id: str, per_lost_hand: int, today: date | None = None) -> None:
    """What each hand lost by whoever took it on pays into the circle's pot, in minor units (0: no rule).

    Once a line of the circle was marked paid (on the circle or an evening), the change counts from `today` on: the
    evenings before keep the rule they were owed (and paid) under. Before any, it counts every evening. Under the
    circle's lock (store/locks.py): a mark and a change at once are one before the other."""
    with writing() as conn:
        lock_circle(conn, circle_id)
        mine = select(tables.c.id).where(tables.c.circle_id == circle_id)
        paid = conn.execute(select(payments.c.id).where(
            payments.c.undone.is_(False), (payments.c.circle_id == circle_id) | payments.c.table_id.in_(mine))
            .limit(1)).first() is not None
        kept = conn.execute(select(func.count()).select_from(pot_rules).where(pot_rules.c.circle_id == circle_id)
                            ).scalar()
        if not paid or today is None:
            conn.execute(delete(pot_rules).where(pot_rules.c.circle_id == circle_id))
            conn.execute(insert(pot_rules).values(circle_id=circle_id, first_day=None, per_lost_hand=per_lost_hand))
        else:
            if not kept:  # the rule so far counted every evening: kept so, up to today
                was = conn.execute(select(circles.c.pot_per_lost_hand).where(circles.c.id == circle_id)).scalar()
                conn.execute(insert(pot_rules).values(circle_id=circle_id, first_day=None, per_lost_hand=was))
            # a second change on one day replaces the first (the evenings of that day count under the last)
            conn.execute(delete(pot_rules).where(pot_rules.c.circle_id == circle_id, pot_rules.c.first_day == today))
            conn.execute(insert(pot_rules).values(circle_id=circle_id, first_day=today, per_lost_hand=per_lost_hand))
        conn.execute(update(circles).where(circles.c.id == circle_id).values(pot_per_lost_hand=per_lost_hand))


def pot_rule_of(circle_id: str) -> tuple:
    """The pot's rule as engine/season.py takes it: ((first day or None, minor units), …), oldest first."""
    with engine().connect() as conn:
        rows = conn.execute(select(pot_rules.c.first_day, pot_rules.c.per_lost_hand, pot_rules.c.id)
                            .where(pot_rules.c.circle_id == circle_id)).all()
        if not rows:
            now_rule = conn.execute(select(circles.c.pot_per_lost_hand).where(circles.c.id == circle_id)).scalar()
            return ((None, now_rule or 0),)
    rows = sorted(rows, key=lambda r: (r.first_day is not None, r.first_day or date.min, r.id))
    return tuple((r.first_day, r.per_lost_hand) for r in rows)


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


# ---- a rename or a merge taken back (issue 36: nothing final by mistake) ----

def _circle_change(row, since: tuple = ()) -> CircleChange:
    return CircleChange(row.id, row.old, row.new, row.merged, len(row.rows.get("tables", {})), row.undone,
                        row.created_at, since)


def _since(conn, circle_id: str, row) -> tuple[str, ...]:
    """The circle's evenings joined after a change that have its new name (they keep it when it is undone)."""
    rows = conn.execute(select(tables.c.id, tables.c.players).where(
        tables.c.circle_id == circle_id, tables.c.id.not_in(row.rows["evenings"]))
        .order_by(tables.c.played_on, tables.c.created_at, tables.c.id)).all()
    return tuple(t.id for t in rows if row.new in t.players)


def last_circle_change(circle_id: str) -> CircleChange | None:
    """Return the circle's newest rename or merge not taken back (the one its Undo takes back), if any."""
    with engine().connect() as conn:
        row = conn.execute(select(circle_changes).where(circle_changes.c.circle_id == circle_id,
                                                        circle_changes.c.undone.is_(False))
                           .order_by(circle_changes.c.id.desc()).limit(1)).first()
    return _circle_change(row) if row is not None else None


def circle_change(circle_id: str, change_id: int) -> CircleChange | None:
    """Return one of the circle's renames or merges by its id (None: not the circle's), with the evenings joined
    since that have its new name."""
    with engine().connect() as conn:
        row = conn.execute(select(circle_changes).where(circle_changes.c.circle_id == circle_id,
                                                        circle_changes.c.id == change_id)).first()
        return _circle_change(row, _since(conn, circle_id, row)) if row is not None else None


def undo_circle_change(circle_id: str, change_id: int, rename_of) -> CircleChange:
    """Take back a rename or merge of the circle's people, across every evening it changed, as one change.

    Under the circle's lock and then its tables' (store/locks.py), so two Undos at once take it back once, and a
    hand saved meanwhile is taken back with its evening. Exactly the rows it changed go back: at each evening it
    changed, the new name goes back to the old (there only one of the two sat, or the merge was refused, so this is
    exact, hands saved there since included), with the lines marked paid there; the circle's own lines and pot
    entries it renamed, by their ids. Evenings joined since keep the name they were played with. CantUndo (nothing
    written) if it was already undone, a later rename comes first, or an evening it changed has the old name at its
    table again. `rename_of(table_id)` is that table's game's rename. Returns the
    change, undone, with the evenings joined since that keep its new name (CircleChange.since)."""
    with writing() as conn:
        lock_circle_tables(conn, circle_id)
        row = conn.execute(select(circle_changes).where(circle_changes.c.circle_id == circle_id,
                                                        circle_changes.c.id == change_id)).first()
        if row is None:
            raise CantUndo("gone")
        if row.undone:
            raise CantUndo("undone")
        later = conn.execute(select(circle_changes).where(circle_changes.c.circle_id == circle_id,
                                                          circle_changes.c.id > row.id,
                                                          circle_changes.c.undone.is_(False))
                             .order_by(circle_changes.c.id.desc()).limit(1)).first()
        if later is not None:
            raise CantUndo("later", later=_circle_change(later))
        renamed = {t: {new: old for old, new in renames.items()} for t, renames in row.rows["tables"].items()}
        now_at = {r.id: r for r in conn.execute(select(tables.c.id, tables.c.players, tables.c.stake, tables.c.rules)
                                                .where(tables.c.id.in_(list(renamed))))}
        for table_id, back in renamed.items():
            if table_id in now_at and set(back.values()) & set(now_at[table_id].players):
                raise CantUndo("seated", table_id=table_id)
        for table_id, back in renamed.items():
            if table_id not in now_at:
                continue  # (a table is never taken out of its circle; kept for a table deleted by hand)
            t = now_at[table_id]
            _bump(conn, table_id)
            before = {"players": list(t.players), "stake": t.stake, "rules": dict(t.rules)}
            after = {**before, "players": [back.get(p, p) for p in t.players], "renames": back}
            _set_table(conn, table_id, after, back, rename_of(table_id))
            _log(conn, table_id, None, "table", before, after, None)
            _rename_money(conn, payments.c.table_id == table_id, back)
        for payment_id, payer, payee in row.rows["paid"]:
            conn.execute(update(payments).where(payments.c.id == payment_id).values(payer=payer, payee=payee))
        for entry_id, who in row.rows["pot"]:
            conn.execute(update(pot_entries).where(pot_entries.c.id == entry_id).values(who=who))
        conn.execute(update(circle_changes).where(circle_changes.c.id == row.id).values(undone=True))
        return replace(_circle_change(row, _since(conn, circle_id, row)), undone=True)


def circle_of(table_id: str) -> str | None:
    """Return the id of the circle a table belongs to, or None."""
    with engine().connect() as conn:
        return conn.execute(select(tables.c.circle_id).where(tables.c.id == table_id)).scalar()


def circle_tag(circle_id: str) -> str:
    """The circle's tag (tag_in) as it is now."""
    with engine().connect() as conn:
        return tag_in(conn, circle_id)


def tag_in(conn, circle_id: str) -> str:
    """Name what a circle's page shows as it is now, in one read: its tables and their versions (every hand, change
    and rename moves a table's version), its paid marks and its pot (each mark and entry, made or taken back, and
    its rule), read in the caller's transaction."""
    return tag_text(conn.execute(select(*tag_parts(circle_id))).first())


def tag_text(numbers) -> str:
    """A circle's tag from tag_parts' numbers as read."""
    return "c" + ".".join(str(int(v or 0)) for v in numbers)


def tag_parts(circle_id: str) -> list:
    """tag_in's numbers as scalar subqueries, for one select (season_cups.circle_page_tag adds the cups' to them)."""
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
        select(circles.c.pot_per_lost_hand).where(circles.c.id == circle_id),  # the pot's rule, and its changes
        select(func.count()).select_from(pot_rules).where(pot_rules.c.circle_id == circle_id),
        select(func.coalesce(func.max(pot_rules.c.id), 0)).where(pot_rules.c.circle_id == circle_id),
    )
    return [c.scalar_subquery() for c in counts]


def import_circle(name: str, created_at, evenings: list, paid: list, pot: list, watch_money: bool = True,
                  watch_ranking: bool = True, pot_per_lost_hand: int = 0, pot_rules: list | None = None,
                  cups: list | None = None, season_rule: tuple | None = None) -> str:
    """Store a whole circle (from its export) under new addresses, all or nothing; return its scorer key.

    `evenings`: [(TableInfo, [Hand], [paid line])]; a paid line is (payer, payee, amount, currency, when);
    `paid`: the season's own paid lines; `pot`: [(amount, currency, who, note, when)]; `pot_rules`: the pot's rule
    as it changed, [(first day or None, minor units)] (None: pot_per_lost_hand counts every evening); `cups`: its
    season's cups, each as tournaments.insert_tournament takes it (a cup's import), each under new links;
    `season_rule`: how they add up, (rule, n, places), or None: the sum.
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
        if pot_rules:
            conn.execute(insert(pot_rules_table), [dict(circle_id=circle_id, first_day=first, per_lost_hand=amount)
                                                   for first, amount in pot_rules])
        for cup in cups or ():
            insert_tournament(conn, **cup, circle_id=circle_id)
        if season_rule is not None:
            rule, n, places = season_rule
            conn.execute(insert(circle_cup_rules).values(circle_id=circle_id, rule=rule, n=n, places=list(places)))
        return add_links(conn, circle_id, CIRCLE)[SCORER]
