"""The three counting families (RULES.md §0.2): direct sum, groups of n, halves. Pure."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .text import Line, line


@dataclass(frozen=True)
class Groups:
    size: int
    full: int
    leftover: int


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


def direct_sum(cards, values) -> Count:
    """Add up the nominal values (Troggu, Mitigati)."""
    total = sum(values[c] for c in cards)
    work = line("{n} cards added up: {points} points", n=len(cards), points=total)
    return Count(len(cards), total, total, None, work)


def group_value(nominal, n_cards: int, size: int):
    """Return the value of a pile counted in groups of `size`, each worth its sum minus size−1.

    RULES.md §0.2: value = Σ − (n−1)·⌊N/n⌋ − max(0, (N mod n) − 1).
    """
    full, left = divmod(n_cards, size)
    return nominal - (size - 1) * full - max(0, left - 1)


def in_groups(cards, values, size: int) -> Count:
    """Count a pile in groups of `size` with the leftover rule (Troccas 4; Scarto, Swiss 1659 3)."""
    nominal = sum(values[c] for c in cards)
    full, left = divmod(len(cards), size)
    points = group_value(nominal, len(cards), size)
    cut_full = (size - 1) * full
    cut_left = max(0, left - 1)
    if left == 0:
        work = line("{full} groups of {size}: {nominal} − {cut} = {points}",
                    full=full, size=size, nominal=nominal, cut=cut_full, points=points)
    elif left == 1:
        work = line("{full} groups of {size} and 1 odd card: {nominal} − {cut} = {points}",
                    full=full, size=size, nominal=nominal, cut=cut_full, points=points)
    else:
        work = line("{full} groups of {size} and {left} odd cards: {nominal} − {cut} − {cut_left} = {points}",
                    full=full, size=size, left=left, nominal=nominal, cut=cut_full,
                    cut_left=cut_left, points=points)
    return Count(len(cards), points, nominal, Groups(size, full, left), work)


def in_halves(cards, values, oudlers: frozenset) -> Count:
    """Add up French Tarot's half-point values exactly (Fractions, never floats)."""
    total = sum((Fraction(values[c]) for c in cards), Fraction(0))
    n_oudlers = sum(1 for c in cards if c in oudlers)
    work = line("{n} cards, {oudlers} oudlers: {points} points", n=len(cards), oudlers=n_oudlers, points=total)
    return Count(len(cards), total, total, None, work, oudlers=n_oudlers)
