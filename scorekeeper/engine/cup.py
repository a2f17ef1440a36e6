"""A cup night's standings (issue 38), from each round's tables: pure, like season.py for a circle. The web shows
`standings`; the draw is draw.py's.

Points belong to start numbers, never to names: a table's hands are read by seat (`by_seat`: each hand's players in
their seats, the seat's start number from the draw), so a name corrected at a table, or a substitute taking a seat,
never moves a point away from the start number drawn for that seat.

The ranking rule is chosen when the cup is made (`Ranking`), as the cups' own rules say (docs/cups.md):
- "points": the sum of each player's points over the rounds (the Tarockcups' *Schriftpunkte*);
- "money": the money won at the cup's rate (minor units a point), exact (Fractions, never floats); where the cup
  routes kontras to its pot (`pot`), what a hand's money takes beyond the sheet goes to the pot, not the winners;
- "best": the best N rounds' points (a round not played counts 0);
- "drop": every round's points but the worst N (the Jass and Skat clubs' *Streichresultat*; a round not played
  counts 0, so it is the one dropped). Of a cup of R rounds the best R − N count: while fewer are drawn, all of
  them do (after round 1 of 3 with one dropped, round 1 counts; after round 3, the best two).
Players level on the rule's score share a rank (1, 1, 3). Where the cup needs one order (a prize, a place in a
final), the tie-break decides, in this order: the best single round (by the rule's unit), then the lower start
number. The list is in that order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

RULES = ("points", "money", "best", "drop")
POTS = ("none", "kontras")


@dataclass(frozen=True)
class Ranking:
    """How a cup ranks: its rule, N (best N rounds, or the worst N dropped), its rate (minor units a point; 0:
    none) and what goes to its pot ("none", or "kontras": the money a hand takes beyond the sheet)."""

    rule: str = "points"
    n: int = 0
    rate: int = 0
    pot: str = "none"


@dataclass(frozen=True)
class Seat:
    """One player's result at one round's table: points (the sheet), money (minor units, at the rate), paid to the
    pot (minor units)."""

    round: int
    table: int
    points: object  # an int, or a Fraction for the games that count halves
    money: object = 0
    to_pot: object = 0


@dataclass
class Standing:
    """A player's line: rank (shared when level), start number, name, their score by the cup's rule, points and
    money over the rounds, each round's seat, the best single round (the first tie-break)."""

    number: int
    name: str
    active: bool
    points: object = 0
    money: object = 0
    to_pot: object = 0
    score: object = 0
    best: object = 0
    rounds: list = field(default_factory=list)  # [Seat]
    counted: frozenset = frozenset()  # the rounds the rule counts (best N, or all but the dropped)
    rank: int = 0
    played: dict = field(default_factory=dict)  # {round: points} of the rounds played (a page's columns)


def games_at(games: int, size: int, usual: int) -> int:
    """A table's games in a round when the cup gives `games` for tables of the usual size: each player deals as often
    as at a usual table, games × size ÷ usual, rounded up (the Tarockcups: 16 at 4, 20 at 5; 12 at 3)."""
    return -(-games * size // usual)


def by_seat(rows, seats, rate: int = 0, pot: str = "none") -> dict[int, Seat]:
    """A table's result per start number, read hand by hand by seat: `rows` are the evening's (each with its
    players in their seats, its scores, and its payouts at the table's stake, which is the cup's rate), `seats`
    the start numbers drawn for the seats. Returns {start number: Seat(0, 0, points, money, to_pot)}."""
    out = {n: [0, 0, 0] for n in seats}
    for row in rows:
        for i, name in enumerate(row.players[:len(seats)]):
            sheet = row.scores.get(name, 0)
            money = row.payouts.get(name, 0)
            line = out[seats[i]]
            line[0] += sheet
            if pot == "kontras":
                # the hand's money beyond the sheet (Königrufen's kontras, docs/rules.md §11.3): a loser pays it to
                # the pot; a winner gets the sheet's money only
                paid = max(Fraction(0), Fraction(sheet) * rate - Fraction(money))
                line[1] += Fraction(sheet) * rate - paid
                line[2] += paid
            else:
                line[1] += money
    return {n: Seat(0, 0, _plain(p), _plain(m), _plain(k)) for n, (p, m, k) in out.items()}


def _plain(value):
    """An int where a Fraction is whole (so that pages write 4, not 4/1)."""
    return int(value) if isinstance(value, Fraction) and value.denominator == 1 else value


def standings(players, results, ranking: Ranking = Ranking(), drawn: int | None = None,
              rounds: int | None = None) -> list[Standing]:
    """Rank the players. `players`: [(start number, name, active)]; `results`: [(round, table, {start number:
    Seat or points})], each played table's, its unfinished tables' so far; `drawn`: the rounds drawn (the rounds a
    best-N or dropped rule looks at; a round a player missed counts 0); `rounds`: the cup's (default: `drawn`)."""
    lines = {n: Standing(n, name, active) for n, name, active in players}
    for rnd, table, got in results:
        for number, seat in got.items():
            line = lines.get(number)
            if line is None:
                continue
            if not isinstance(seat, Seat):
                seat = Seat(rnd, table, seat)
            seat = Seat(rnd, table, seat.points, seat.money, seat.to_pot)
            line.points += seat.points
            line.money += seat.money
            line.to_pot += seat.to_pot
            line.rounds.append(seat)
            line.played[rnd] = line.played.get(rnd, 0) + seat.points
    if drawn is None:
        drawn = max((r for r, _t, _g in results), default=0)
    for line in lines.values():
        _score(line, ranking, drawn, drawn if rounds is None else rounds)
    ranked = sorted(lines.values(), key=lambda s: (-Fraction(s.score), -Fraction(s.best), s.number))
    for i, line in enumerate(ranked):
        same = i > 0 and Fraction(line.score) == Fraction(ranked[i - 1].score)
        line.rank = ranked[i - 1].rank if same else i + 1
    return ranked


def _score(line: Standing, ranking: Ranking, drawn: int, rounds: int) -> None:
    """Set the line's score by the rule, the rounds it counts and its best single round."""
    unit = "money" if ranking.rule == "money" else "points"
    per_round = {r: 0 for r in range(1, drawn + 1)}
    for seat in line.rounds:
        per_round[seat.round] = per_round.get(seat.round, 0) + getattr(seat, unit)
    # best first; among equal rounds the earlier first, so that which round is dropped is said the same each time
    order = sorted(per_round, key=lambda r: (-Fraction(per_round[r]), r))
    if ranking.rule == "best":
        counted = order[:max(ranking.n, 0)]
    elif ranking.rule == "drop":
        counted = order[:max(rounds - max(ranking.n, 0), 1)]  # the best R − N of the cup's R, of those drawn
    else:
        counted = order
    line.counted = frozenset(counted)
    line.score = _plain(sum((Fraction(per_round[r]) for r in counted), Fraction(0)))
    line.best = _plain(Fraction(per_round[order[0]])) if order else 0


def pot(lines: list[Standing]):
    """What the players paid to the cup's pot at the tables (minor units): the kontras it routes there."""
    return _plain(sum((Fraction(s.to_pot) for s in lines), Fraction(0)))


def entry_fees(lines: list[Standing], fee: int) -> int:
    """What the entry fees brought the cup's pot (minor units): `fee` from each player seated at a table of a round
    drawn (a walk-in from their first round; a player who dropped before playing pays nothing). Paid at the door,
    outside the tables' money: the players' money and the kontras' pot still sum to zero without it."""
    return fee * sum(1 for s in lines if s.rounds)
