"""A cup over a season (issue 38 item 9): a circle's cup nights add up to one ranking, beside its evenings. Pure,
like cup.py for one night: the web reads each cup's standings (cup.standings) and gives them here.

The circle sets the rule (`SeasonRule`):
- "sum": the sum of every cup's points (each cup's sum of points, whatever that cup ranks by);
- "best": the best N cups' points (a cup a player missed counts nothing, so it is never among the best while a
  played one is left);
- "places": cup points by place, from a table the circle sets (`places`: the first place's points, the second's, …;
  a place past the table gets 0), the Tarockcups' season ranking (25, 20, 16, 13, 11, 10, …).
A player is the same player across cups by name (as the circle's people are: written the same, capitals aside).
Players level in a cup share its place (1, 1, 3) and so its cup points; players level over the season share a rank
(1, 1, 3). The list's order among them: the better single cup, then the name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

SEASON_RULES = ("sum", "best", "places")
PLACES = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)  # the example, as the Tarockcups count
MOST_PLACES = 50


@dataclass(frozen=True)
class SeasonRule:
    """How a circle's cups add up: the rule, N (the best N cups), the places' cup points."""

    rule: str = "sum"
    n: int = 0
    places: tuple = PLACES


@dataclass(frozen=True)
class CupResult:
    """One player's result at one cup: the cup's index in the season (0: the first), the place there (shared when
    level), the points, and what the season's rule makes of it (`value`)."""

    cup: int
    place: int
    points: object
    value: object


@dataclass
class SeasonLine:
    """A player's line over the season: name, score by the rule, each cup's result, the cups counted, rank."""

    name: str
    score: object = 0
    best: object = 0
    cups: list = field(default_factory=list)  # [CupResult]
    counted: frozenset = frozenset()
    rank: int = 0


def cup_points(place: int, places) -> int:
    """The cup points of a place (1: the first) from the circle's table; a place past the table gets 0."""
    return places[place - 1] if 1 <= place <= len(places) else 0


def season_ranking(cups, rule: SeasonRule = SeasonRule()) -> list[SeasonLine]:
    """Rank a season's players. `cups`: each cup's standings in the order played, [[(name, place, points)]] (the
    place as the cup ranks, shared when level)."""
    lines: dict[str, SeasonLine] = {}
    for index, standings in enumerate(cups):
        for name, place, points in standings:
            line = lines.setdefault(name.casefold(), SeasonLine(name))
            value = cup_points(place, rule.places) if rule.rule == "places" else points
            line.cups.append(CupResult(index, place, points, value))
    for line in lines.values():
        order = sorted(line.cups, key=lambda c: (-Fraction(c.value), c.cup))  # best first, the earlier among equals
        counted = order[:max(rule.n, 0)] if rule.rule == "best" else order
        line.counted = frozenset(c.cup for c in counted)
        line.score = _plain(sum((Fraction(c.value) for c in counted), Fraction(0)))
        line.best = _plain(Fraction(order[0].value)) if order else 0
    ranked = sorted(lines.values(), key=lambda s: (-Fraction(s.score), -Fraction(s.best), s.name.casefold()))
    for i, line in enumerate(ranked):
        same = i > 0 and Fraction(line.score) == Fraction(ranked[i - 1].score)
        line.rank = ranked[i - 1].rank if same else i + 1
    return ranked


def _plain(value):
    """An int where a Fraction is whole."""
    return int(value) if isinstance(value, Fraction) and value.denominator == 1 else value
