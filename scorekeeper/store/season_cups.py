"""A cup over a season (issue 38 item 9): a circle's cups (tournaments.circle_id, as a table is an evening of a
circle) and the rule they add up by (circle_cup_rules; engine/season_cup.py ranks). Each write takes the circle's
row lock first (store/locks.py: the circle, then what it holds), so two phones at once do it once.
"""
from __future__ import annotations

import zlib

from sqlalchemy import String, cast, delete, func, insert, select, update

from ..engine.season_cup import SeasonRule
from .circles import tag_parts, tag_text
from .db import engine, writing
from .links import tournament_of
from .locks import lock_circle, lock_tournament
from .schema import InAnotherCircle, Tournament, circle_cup_rules, tables, tournament_tables, tournaments


def set_season_rule(circle_id: str, rule: str, n: int, places: tuple) -> None:
    """Set how the circle's cups add up: the rule (sum, best, places), N (the best N cups), the places' points."""
    with writing() as conn:
        lock_circle(conn, circle_id)
        conn.execute(delete(circle_cup_rules).where(circle_cup_rules.c.circle_id == circle_id))
        conn.execute(insert(circle_cup_rules).values(circle_id=circle_id, rule=rule, n=n, places=list(places)))


def season_rule(circle_id: str) -> SeasonRule:
    """How the circle's cups add up (the sum of their points until the circle sets a rule)."""
    with engine().connect() as conn:
        row = conn.execute(select(circle_cup_rules).where(circle_cup_rules.c.circle_id == circle_id)).first()
    return SeasonRule() if row is None else SeasonRule(row.rule, row.n, tuple(row.places))


def join_cup(tournament_id: str, circle_id: str) -> None:
    """Make a cup one of the circle's season; InAnotherCircle if it already counts in another circle's (a cup
    belongs to one circle: two circles taking it at once, the first has it)."""
    with writing() as conn:
        lock_circle(conn, circle_id)  # the circle, then the cup (store/locks.py's order)
        lock_tournament(conn, tournament_id)
        now_in = conn.execute(select(tournaments.c.circle_id).where(tournaments.c.id == tournament_id)).scalar()
        if now_in not in (None, circle_id):
            raise InAnotherCircle(tournament_id)
        conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                     .values(circle_id=circle_id, version=tournaments.c.version + 1))


def circle_cups(circle_id: str) -> list[Tournament]:
    """The circle's cups in the order played (by day, then as made)."""
    with engine().connect() as conn:
        rows = conn.execute(select(tournaments).where(tournaments.c.circle_id == circle_id)
                            .order_by(tournaments.c.held_on, tournaments.c.created_at, tournaments.c.id)).all()
    return [tournament_of(r) for r in rows]


def circle_page_tag(circle_id: str) -> str:
    """Name what a circle's page and its poll show as it is now, in one read: the circle's tag (circles.tag_in: its
    evenings, marks and pot) and its season of cups: the cups, their versions (a walk-in, a round closed or drawn, a
    table opened for a correction), their tables' versions (every hand at any of them) and the rule they add up by.
    The money's marks compare circles.tag_in alone: a cup's hand changes no evening's money."""
    cups = select(tournaments.c.id).where(tournaments.c.circle_id == circle_id)
    at_cups = select(tournament_tables.c.table_id).where(tournament_tables.c.tournament_id.in_(cups))
    rule = circle_cup_rules.c.circle_id == circle_id
    own = tag_parts(circle_id)
    with engine().connect() as conn:
        row = conn.execute(select(*own, *(q.scalar_subquery() for q in (
            select(func.count()).select_from(tournaments).where(tournaments.c.circle_id == circle_id),
            select(func.coalesce(func.sum(tournaments.c.version), 0)).where(tournaments.c.circle_id == circle_id),
            select(func.count()).select_from(tables).where(tables.c.id.in_(at_cups)),
            select(func.coalesce(func.sum(tables.c.version), 0)).where(tables.c.id.in_(at_cups)),
            select(circle_cup_rules.c.rule).where(rule), select(circle_cup_rules.c.n).where(rule),
            select(cast(circle_cup_rules.c.places, String)).where(rule))))).first()
    circle_tag = tag_text(row[:len(own)])  # circles.tag_in's, in the same read
    counts, how = row[len(own):len(own) + 4], row[len(own) + 4:]
    if not counts[0] and how[0] is None:
        return circle_tag  # no cup and no rule: the circle's own tag, as before its season of cups
    said = zlib.crc32(repr(tuple(how)).encode())  # the rule, its N and its places, in one number
    return circle_tag + "-k" + ".".join(str(int(v or 0)) for v in (*counts, said))
