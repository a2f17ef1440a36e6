"""How a hand is entered, declared as data by each game; the web turns a declaration into a form. Pure.

A game's `entry(players, rules, last)` returns an `Entry`: the facts a player gives, of what kind
(a choice, a number in a range, ticks, one of those per player), grouped as the page shows them,
plus the piles the counting aid can count. `to_facts(values, players, rules)` turns the values read
from the form into the hand's facts (raising `EntryError` with a message at a field), and
`from_facts(facts, players, rules)` gives the values back for an edit.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .text import Line

ALONE = "-alone-"  # the explicit choice "plays alone" where a partner is called (never a player's name)


@dataclass(frozen=True)
class Pick:
    """One choice among big buttons; the value is the chosen key, or None for the blank choice."""

    name: str
    label: Line | str | None
    choices: tuple  # ((value, label), ...); a label is a Line or a player's name
    default: str = ""
    blank: Line | None = None  # a first choice meaning "none" (value None)
    required: Line | None = None  # the message when nothing is chosen
    style: str = "side"  # how the buttons look: people, contract, side


@dataclass(frozen=True)
class Number:
    """A number typed on the keypad: whole, or whole or half (French Tarot), between low and high."""

    name: str
    label: Line | str | None
    low: int
    high: int
    what: Line | None = None  # the word in messages ("Enter the points."); None: the label
    halves: bool = False
    optional: bool = False  # blank is None instead of a message
    style: str = ""


@dataclass(frozen=True)
class Ticks:
    """Any number of choices ticked (checkboxes); the value is the list of ticked keys, in choice order."""

    name: str
    label: Line | str | None
    choices: tuple


@dataclass(frozen=True)
class PerSeat:
    """The same fields once per player, named `<name><seat>`; each value is {player: value}.

    `label` is said with {name} as the player's name (None: the player's name alone). With
    `fill_from`, one number left blank is worked out so that all add up to it.
    """

    fields: tuple
    label: Line | None = None
    fill_from: int | None = None


@dataclass(frozen=True)
class Group:
    """Fields shown together; `when`/`unless` = (field, value) shows the group only in that case."""

    fields: tuple
    label: Line | None = None
    when: tuple | None = None
    unless: tuple | None = None
    folded: bool = False  # shown behind a tap (opens by itself when one of its fields is set)
    style: str = ""
    hint: Line | None = None


@dataclass(frozen=True)
class Count:
    """A pile the counting aid can count: its points go to `points` (and oudlers to `oudlers`),
    and `sets` gives other fields the value that makes the count mean what it says."""

    target: str
    label: Line | str
    points: str
    sets: dict = field(default_factory=dict)
    oudlers: str | None = None
    blatt: str | None = None  # the field the count's Blatt goes to, where a game counts to the third (§11)
    # points no pile holds, added when a field says so: (field, value, points), e.g. Sicily's last trick, 5 to the
    # side that took it ("last_trick", "declarer", 5); the field must be chosen before the pile is counted
    bonus: tuple | None = None


@dataclass(frozen=True)
class Entry:
    """A game's hand form: fields (and groups) in page order, and the piles the counting aid counts."""

    fields: tuple
    counts: tuple = ()

    def walk(self, fields=None, groups: tuple = ()):
        """Yield (field, enclosing groups) for every field in page order; a PerSeat stays whole."""
        for f in self.fields if fields is None else fields:
            if isinstance(f, Group):
                yield from self.walk(f.fields, (*groups, f))
            else:
                yield f, groups

    def switch(self) -> tuple | None:
        """Return the (field, value) that some groups depend on, if any (at most one per game)."""
        found = {g.when or g.unless for g in self.groups() if g.when or g.unless}
        if len(found) > 1:
            raise ValueError(f"one switch per entry, not {sorted(found)}")
        return next(iter(found), None)

    def groups(self, fields=None):
        """Yield every group, outer ones first."""
        for f in self.fields if fields is None else fields:
            if isinstance(f, Group):
                yield f
                yield from self.groups(f.fields)


def pile_or_rest(piles: dict, mine: str, other: str, deck) -> list | None:
    """Return the cards of side `mine` from the counted piles (`to_facts`' `piles`): its own pile, or the rest of
    the deck when the other side's pile was counted; None when neither was (its points were typed)."""
    if mine in piles:
        return list(piles[mine])
    if other in piles:
        theirs = set(piles[other])
        return [c for c in deck if c not in theirs]
    return None


class EntryError(ValueError):
    """Facts that can't be read from the form: `errors` maps a form field's name to its message."""

    def __init__(self, errors: dict):
        super().__init__(", ".join(errors))
        self.errors = errors


def seats(players) -> tuple:
    """Return the players as choices, each labelled with its name."""
    return tuple((p, p) for p in players)


def active(groups: tuple, values: dict) -> bool:
    """Say whether fields inside these groups are in force for these values (their `when`/`unless`)."""
    for g in groups:
        if g.when is not None and values.get(g.when[0]) != g.when[1]:
            return False
        if g.unless is not None and values.get(g.unless[0]) == g.unless[1]:
            return False
    return True
