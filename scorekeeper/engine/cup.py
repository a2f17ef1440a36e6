"""A cup night's standings and rounds (issue 38), from each round's tables' totals: pure, like season.py for a
circle. The web shows `standings`; the draw is draw.py's.

Standings are the sum of each player's points (the cups' *Schriftpunkte*) over the rounds they played; players
level on points share a rank (1, 1, 3), listed by start number.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Seat:
    """One player's result at one round's table."""

    round: int
    table: int
    points: object  # an int, or a Fraction for the games that count halves


@dataclass
class Standing:
    """A player's line: rank (shared when level), start number, name, points over the rounds, each round's."""

    number: int
    name: str
    active: bool
    points: object = 0
    rounds: list = field(default_factory=list)  # [Seat]
    rank: int = 0


def standings(players, results) -> list[Standing]:
    """Rank the players. `players`: [(start number, name, active)]; `results`: [(round, table, {start number:
    points})], each played table's totals, its unfinished tables' so far."""
    lines = {n: Standing(n, name, active) for n, name, active in players}
    for rnd, table, points in results:
        for number, p in points.items():
            line = lines.get(number)
            if line is not None:
                line.points += p
                line.rounds.append(Seat(rnd, table, p))
    ranked = sorted(lines.values(), key=lambda s: (-Fraction(s.points), s.number))
    for i, line in enumerate(ranked):
        same = i > 0 and Fraction(line.points) == Fraction(ranked[i - 1].points)
        line.rank = ranked[i - 1].rank if same else i + 1
    return ranked
