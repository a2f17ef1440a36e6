"""The seating draw of a cup night (issue 38): each round seats everyone at tables of the game's allowed sizes,
seeded and reproducible, keeping players from meeting again. Pure.

A draw is `rounds[r][t]`: the start numbers at table t of round r, in their seats' order. Two players *meet* when
they share a table; a *repeat* is every meeting of a pair after its first (a pair that meets three times makes
two). For N = q² players at tables of q, q a prime or 4, the first q + 1 rounds come from the affine plane of
order q (its parallel classes: the lines y = m·x + b for each slope m, and x = c): every pair of points lies on one
line, so nobody meets anyone twice; 16 players, 5 rounds, tables of 4 is the known design. Otherwise, and for the
rounds after those, each round is found by a seeded local search (swaps between tables while they lower the
meetings already had), which keeps repeats low but promises no minimum: the count is reported.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

from .errors import CantSeat
from .text import line, nline

# GF(4) as 0, 1, a, a+1 = 0..3: addition is XOR; multiplication by this table (a² = a + 1)
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))
_FIELDS = (2, 3, 4, 5, 7)  # the orders the plane is built for here (primes and 4): up to 49 players
_PASSES = 30  # local search: rounds of swaps tried, at most, per restart
_RESTARTS = 4


@dataclass(frozen=True)
class Draw:
    """The draw: the seed it came from, each round's tables of start numbers, and the repeat meetings in it."""

    seed: int
    rounds: tuple[tuple[tuple[int, ...], ...], ...]
    repeats: int

    def as_json(self) -> dict:
        """The command line's and the printouts' shape: {"seed": S, "rounds": [[[1, 5, …], …], …]}."""
        return {"seed": self.seed, "rounds": [[list(t) for t in r] for r in self.rounds]}


def usual_size(allowed: range) -> int:
    """The table size a cup's draw prefers and its games per round are given for: 4 where the game allows it."""
    return min(max(4, allowed.start), allowed.stop - 1)


def table_sizes(n: int, allowed: range, preferred: int | None = None) -> list[int]:
    """Split n players into tables whose sizes are in `allowed` (a run of sizes, as Game.players_allowed gives),
    as near the preferred size (the game's usual: 4 where allowed) as they can be, larger tables first.

    CantSeat, with the counts that would work either side, when no mix of the allowed sizes seats n.
    """
    low, high = allowed.start, allowed.stop - 1
    if preferred is None:
        preferred = usual_size(allowed)
    best = None
    for count in range(1, n // low + 1) if n >= low else ():
        small, extra = divmod(n, count)
        if small < low or small + (extra > 0) > high:
            continue
        sizes = [small + 1] * extra + [small] * (count - extra)
        cost = sum(abs(s - preferred) for s in sizes)
        if best is None or cost < best[0]:
            best = (cost, sizes)
    if best is None:
        raise CantSeat(_cant_seat(n, low, high), field="players")
    return best[1]


def _seatable(n: int, low: int, high: int) -> bool:
    # a run of sizes seats n when some number of tables t has t·low <= n <= t·high
    return n >= low and any(t * low <= n <= t * high for t in range(1, n // low + 1))


def _cant_seat(n: int, low: int, high: int):
    fewer = next((m for m in range(n - 1, 0, -1) if _seatable(m, low, high)), None)
    more = next(m for m in range(n + 1, n + high + low + 1) if _seatable(m, low, high))
    sizes = str(low) if low == high else f"{low}–{high}"
    if fewer is None:
        return line("Tables of {sizes} can't seat {n_players} players: {more} would work.",
                    sizes=sizes, n_players=n, more=more)
    return line("Tables of {sizes} can't seat {n_players} players: {fewer} or {more} would work.",
                sizes=sizes, n_players=n, fewer=fewer, more=more)


def draw(players: int, rounds: int, allowed: range, seed: int, preferred: int | None = None) -> Draw:
    """Seat start numbers 1..players for `rounds` rounds at tables of the allowed sizes; the same arguments give
    the same draw. CantSeat when the sizes can't seat them."""
    sizes = table_sizes(players, allowed, preferred)
    rng = random.Random(seed)
    numbers = list(range(1, players + 1))
    met: dict[tuple[int, int], int] = {}
    out: list[tuple[tuple[int, ...], ...]] = []
    plane = _plane(players, sizes)
    if plane:
        rng.shuffle(numbers)  # which number stands at which point: the seed's
        classes = list(plane)
        rng.shuffle(classes)
        for parallel in classes[:rounds]:
            out.append(_shuffled(rng, [[numbers[p] for p in block] for block in parallel]))
            _note(met, out[-1])
    while len(out) < rounds:
        out.append(_shuffled(rng, _round(rng, numbers, sizes, met)))
        _note(met, out[-1])
    repeats = sum(k - 1 for k in met.values() if k > 1)
    return Draw(seed, tuple(out), repeats)


def repeats_of(rounds) -> int:
    """Count the repeat meetings in a draw's rounds (a check apart from the one the draw keeps)."""
    met: dict[tuple[int, int], int] = {}
    for r in rounds:
        _note(met, r)
    return sum(k - 1 for k in met.values() if k > 1)


def _note(met, tables) -> None:
    for table in tables:
        for a, b in combinations(sorted(table), 2):
            met[(a, b)] = met.get((a, b), 0) + 1


def _shuffled(rng, tables) -> tuple[tuple[int, ...], ...]:
    tables = [list(t) for t in tables]
    for t in tables:
        rng.shuffle(t)  # seats within a table
    rng.shuffle(tables)
    tables.sort(key=len, reverse=True)  # larger tables first, as table_sizes gives them (a stable sort)
    return tuple(tuple(t) for t in tables)


def _plane(n: int, sizes: list[int]):
    """The affine plane's parallel classes as lists of blocks of point indices 0..n-1, or None when n isn't q² at
    tables of q for an order built here."""
    q = sizes[0]
    if q not in _FIELDS or len(sizes) != q or any(s != q for s in sizes) or n != q * q:
        return None
    add, mul = ((lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])) if q == 4 else \
        ((lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q))
    point = lambda x, y: x * q + y  # noqa: E731
    classes = [[[point(x, add(mul(m, x), b)) for x in range(q)] for b in range(q)] for m in range(q)]
    classes.append([[point(c, y) for y in range(q)] for c in range(q)])
    return classes


def _round(rng, numbers: list[int], sizes: list[int], met) -> list[list[int]]:
    """One round by local search: the best of a few seeded restarts, each swapping pairs of players between tables
    while a swap lowers the meetings already had at the tables."""
    def pair(a, b):
        return met.get((a, b) if a < b else (b, a), 0)

    def cost(table):
        return sum(pair(a, b) for a, b in combinations(table, 2))

    best = None
    for _ in range(_RESTARTS):
        order = numbers[:]
        rng.shuffle(order)
        tables, start = [], 0
        for s in sizes:
            tables.append(order[start:start + s])
            start += s
        for _ in range(_PASSES):
            better = False
            for i, j in combinations(range(len(tables)), 2):
                ti, tj = tables[i], tables[j]
                for x in range(len(ti)):
                    for y in range(len(tj)):
                        a, b = ti[x], tj[y]
                        delta = (sum(pair(b, o) - pair(a, o) for o in ti if o != a)
                                 + sum(pair(a, o) - pair(b, o) for o in tj if o != b))
                        if delta < 0:
                            ti[x], tj[y] = b, a
                            better = True
            if not better:
                break
        total = sum(cost(t) for t in tables)
        if best is None or total < best[0]:
            best = (total, [t[:] for t in tables])
        if total == 0:
            break
    return best[1]


def draw_round(numbers, allowed: range, seed: int, past, fixed: dict | None = None) -> tuple[tuple[int, ...], ...]:
    """The next round of a cup whose players may have changed (walk-ins, drops): `numbers` the start numbers playing
    now, `past` the rounds drawn so far. While the same players have played every round, it is round k of
    draw(n, k, …) over them (the draw the command line prints ahead, numbers 1..n standing for them in order:
    the same seed, the same tables); otherwise a round by local search that keeps off the meetings already had.
    `fixed` {start number: table number} (mobility) is honoured last (`seat_fixed`)."""
    drawn = _draw_round(numbers, allowed, seed, past)
    return seat_fixed(drawn, fixed) if fixed else drawn


def seat_fixed(tables, fixed: dict) -> tuple[tuple[int, ...], ...]:
    """Move each player with a fixed table (mobility: {start number: table number, 1-based}) to that table, by
    swapping seats with the last player there whose table isn't fixed; the lower start numbers first. CantSeat
    when the round has fewer tables, or more players are fixed to a table than it seats."""
    out = [list(t) for t in tables]
    where = {p: i for i, t in enumerate(out) for p in t}
    for player, table in sorted(fixed.items()):
        if player not in where:
            continue  # not playing this round
        if not 1 <= table <= len(out):
            raise CantSeat(nline("{name} is fixed to table {table}, but this round has {n_tables} table.",
                                 "{name} is fixed to table {table}, but this round has {n_tables} tables.",
                                 "n_tables", name=f"#{player}", table=table, n_tables=len(out)), field="players")
        i, k = where[player], table - 1
        if i == k:
            continue
        free = [q for q in out[k] if fixed.get(q) != table]
        if not free:
            raise CantSeat(line("More players are fixed to table {table} than it seats.", table=table),
                           field="players")
        other = free[-1]
        a, b = out[i].index(player), out[k].index(other)
        out[i][a], out[k][b] = other, player
        where[player], where[other] = k, i
    return tuple(tuple(t) for t in out)


def _draw_round(numbers, allowed: range, seed: int, past) -> tuple[tuple[int, ...], ...]:
    numbers = sorted(numbers)
    sizes = table_sizes(len(numbers), allowed)
    k = len(past) + 1
    if all(sorted(p for t in r for p in t) == numbers for r in past):
        ahead = draw(len(numbers), k, allowed, seed)
        mapped = [tuple(tuple(numbers[p - 1] for p in t) for t in r) for r in ahead.rounds]
        if [tuple(map(tuple, r)) for r in past] == mapped[:-1]:
            return mapped[-1]
    met: dict[tuple[int, int], int] = {}
    for r in past:
        _note(met, r)
    rng = random.Random(f"{seed}:{k}")
    return _shuffled(rng, _round(rng, numbers, sizes, met))
