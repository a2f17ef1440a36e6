"""The counting families (docs/rules.md §0.2): direct sum, groups of n, halves; and thirds to the Blatt (§11). Pure."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .text import Line, line, nline


@dataclass(frozen=True)
class Groups:
    size: int
    full: int
    leftover: int
    cut_left: int = 0  # what the leftover cards lose together: r − 1 (docs/rules.md §0.2), or 1 (§10)


@dataclass(frozen=True)
class Count:
    """One pile counted: its size, points and the working that shows how."""

    cards: int
    points: int | Fraction
    nominal: int | Fraction
    groups: Groups | None
    working: Line
    oudlers: int | None = None
    rest: "Count | None" = None
    warnings: tuple[Line, ...] = field(default=())
    blatt: int | None = None  # thirds over the whole points, 0–2, where a game counts to the Blatt (§11)

    @property
    def thirds(self) -> int | None:
        """Return the exact count in thirds of a point (3 × points + Blatt), where the game counts to the Blatt."""
        return None if self.blatt is None else 3 * self.points + self.blatt


def direct_sum(cards, values) -> Count:
    """Add up the nominal values (Troggu, Mitigati)."""
    total = sum(values[c] for c in cards)
    if len(cards) == 1:
        work = line("1 card worth {points}", points=total)
    else:
        work = line("{n} cards added up: {points} points", n=len(cards), points=total)
    return Count(len(cards), total, total, None, work)


def leftover_cut(left: int, partial_loses_one: bool = False) -> int:
    """Return what the `left` cards over the full groups lose together.

    docs/rules.md §0.2: a leftover of r cards is worth its sum minus r − 1 (a lone card its own value);
    §10 (Sicilian Tarocchi, `count_leftover` "rounded_thirds"): any partial group loses 1, a lone card too.
    """
    if partial_loses_one:
        return 1 if left else 0
    return max(0, left - 1)


def group_value(nominal, n_cards: int, size: int, partial_loses_one: bool = False):
    """Return the value of a pile counted in groups of `size`, each worth its sum minus size−1.

    docs/rules.md §0.2: value = Σ − (n−1)·⌊N/n⌋ − max(0, (N mod n) − 1);
    §10 with a partial group losing 1: value = Σ − 2·⌊N/3⌋ − (1 if N mod 3 ≠ 0 else 0).
    """
    full, left = divmod(n_cards, size)
    return nominal - (size - 1) * full - leftover_cut(left, partial_loses_one)


def in_groups(cards, values, size: int, partial_loses_one: bool = False) -> Count:
    """Count a pile in groups of `size` with the leftover rule (Troccas 4; Scarto, Swiss 1659, Sicily 3)."""
    nominal = sum(values[c] for c in cards)
    full, left = divmod(len(cards), size)
    points = group_value(nominal, len(cards), size, partial_loses_one)
    cut_full = (size - 1) * full
    cut_left = leftover_cut(left, partial_loses_one)
    work = _group_working(full, left, size, nominal, cut_full, cut_left, points)
    return Count(len(cards), points, nominal, Groups(size, full, left, cut_left), work)


def _group_working(full, left, size, nominal, cut, cut_left, points) -> Line:
    """Say how a pile in groups was counted, one message id per singular/plural case."""
    args = dict(full=full, size=size, left=left, nominal=nominal, cut=cut, cut_left=cut_left, points=points)
    if full == 0:
        if left == 0:
            return line("No cards: 0 points")
        if left == 1:
            if cut_left:  # docs/rules.md §10: a lone card loses its point too
                return line("1 card: {nominal} − {cut_left} = {points}", **args)
            return line("1 card worth {points}", points=points)
        return line("{left} odd cards: {nominal} − {cut_left} = {points}", **args)
    if full == 1:
        if left == 0:
            return line("1 group of {size}: {nominal} − {cut} = {points}", **args)
        if left == 1:
            if cut_left:
                return line("1 group of {size} and 1 odd card: {nominal} − {cut} − {cut_left} = {points}", **args)
            return line("1 group of {size} and 1 odd card: {nominal} − {cut} = {points}", **args)
        return line("1 group of {size} and {left} odd cards: {nominal} − {cut} − {cut_left} = {points}", **args)
    if left == 0:
        return line("{full} groups of {size}: {nominal} − {cut} = {points}", **args)
    if left == 1:
        if cut_left:
            return line("{full} groups of {size} and 1 odd card: {nominal} − {cut} − {cut_left} = {points}", **args)
        return line("{full} groups of {size} and 1 odd card: {nominal} − {cut} = {points}", **args)
    return line("{full} groups of {size} and {left} odd cards: {nominal} − {cut} − {cut_left} = {points}", **args)


def in_thirds(cards, values) -> Count:
    """Count a pile to the Blatt (docs/rules.md §11, Königrufen): every card is worth its value − ⅔, so the pile
    is 3·Σvalue − 2·N thirds, said as whole points and 0, 1 or 2 Blatt. Integers only, never floats.

    The groups are the table's way (threes, each its sum − 2, a partial three − 1); the thirds decide.
    """
    nominal = sum(values[c] for c in cards)
    n = len(cards)
    thirds = 3 * nominal - 2 * n
    points, blatt = divmod(thirds, 3)
    full, left = divmod(n, 3)
    work = nline("{n} card: 3 × {nominal} − 2 × {n} = {thirds} thirds: {points} points and {blatt} Blatt",
                 "{n} cards: 3 × {nominal} − 2 × {n} = {thirds} thirds: {points} points and {blatt} Blatt", "n",
                 n=n, nominal=nominal, thirds=thirds, points=points, blatt=blatt)
    return Count(n, points, nominal, Groups(3, full, left, 1 if left else 0), work, blatt=blatt)


def in_halves(cards, values, oudlers: frozenset) -> Count:
    """Add up French Tarot's half-point values exactly (Fractions, never floats)."""
    total = sum((Fraction(values[c]) for c in cards), Fraction(0))
    n_oudlers = sum(1 for c in cards if c in oudlers)
    args = dict(n=len(cards), oudlers=n_oudlers, points=total)
    if len(cards) == 1:
        work = line("1 card worth {points}", **args)
    else:  # 0 oudlers is plural in English, singular in French ("0 bout"): the catalogue decides
        work = nline("{n} cards, {oudlers} oudler: {points} points", "{n} cards, {oudlers} oudlers: {points} points",
                     "oudlers", **args)
    return Count(len(cards), total, total, None, work, oudlers=n_oudlers)
