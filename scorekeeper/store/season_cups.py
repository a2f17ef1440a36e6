"""A cup over a season (issue 38 item 9): a circle's cups (tournaments.circle_id, as a table is an evening of a
circle) and the rule they add up by (circle_cup_rules; engine/season_cup.py ranks). Each write takes the circle's
row lock first (store/locks.py: the circle, then what it holds), so two phones at once do it once.
"""
from __future__ import annotations

from sqlalchemy import delete, insert, select, update

from ..engine.season_cup import SeasonRule
from .db import engine, writing
from .links import tournament_of
from .locks import lock_circle, lock_tournament
from .schema import InAnotherCircle, Tournament, circle_cup_rules, tournaments


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
