"""A circle's season: the same people over many evenings, their standings and the money between them. Pure.

Within a circle the same name is the same person (spaces and letter case aside: "anna " is Anna). Each evening
brings each person's units (in its game's own scoring) and money (in its currency's minor unit); the season adds
them per game and per currency, since neither units of two games nor two currencies can be added up.
"""
from __future__ import annotations

import unicodedata

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import lru_cache

from .evening import Totals
from .settle import BANK, Settlement, settle


@lru_cache(maxsize=4096)
def person(name: str) -> str:
    """Return the key a name is one person by within a circle: its words, composed (NFC: names stored before the
    app composed every name it is sent), case folded (a season asks it of every name of every evening: kept for
    the names seen)."""
    return unicodedata.normalize("NFC", " ".join(name.split())).casefold()


@dataclass(frozen=True)
class Played:
    """One evening (a table) of the circle, as the season counts it: its totals (engine.evening.totals) with the
    table's id, game, day and currency."""

    table_id: str
    game: str
    played_on: date
    currency: str
    units: dict  # {player name: units}
    money: dict  # {player name: money in minor units}
    hands: int = 0
    numbers: object = None  # engine.evening.Numbers: who took on and won which hands

    @classmethod
    def of(cls, table_id: str, played_on: date, totals: Totals) -> Played:
        return cls(table_id, totals.game, played_on, totals.currency, totals.units, totals.money, totals.hands,
                   totals.numbers)


@dataclass
class Standing:
    """One person over the evenings counted: the name as last written, evenings played, units per game, money per
    currency."""

    name: str
    evenings: int = 0
    units: dict = field(default_factory=lambda: defaultdict(int))
    money: dict = field(default_factory=lambda: defaultdict(int))


def in_period(evenings: list[Played], period: str, today: date) -> list[Played]:
    """Keep the evenings of a period: "month" (this calendar month), "year" (this calendar year), else all."""
    if period == "month":
        return [e for e in evenings if (e.played_on.year, e.played_on.month) == (today.year, today.month)]
    if period == "year":
        return [e for e in evenings if e.played_on.year == today.year]
    return list(evenings)


def standings(evenings: list[Played]) -> list[Standing]:
    """Return each person's standing, the best first: by money in the circle's most used currency, then units."""
    people: dict[str, Standing] = {}
    for e in sorted(evenings, key=lambda e: (e.played_on, e.table_id)):
        for name in dict.fromkeys([*e.units, *e.money]):
            s = people.setdefault(person(name), Standing(name))
            s.name = name  # the latest spelling
            s.evenings += 1
            s.units[e.game] += e.units.get(name, 0)
            s.money[e.currency] += e.money.get(name, 0)
    main = main_currency(evenings)
    return sorted(people.values(), key=lambda s: (-s.money.get(main, 0), -sum(s.units.values()), s.name.casefold()))


def main_currency(evenings: list[Played]) -> str | None:
    """Return the currency most of the evenings were played in (the first seen of equals), or None."""
    counts: dict[str, int] = {}
    for e in evenings:
        counts[e.currency] = counts.get(e.currency, 0) + 1
    return max(counts, key=counts.get) if counts else None


def balances(evenings: list[Played], currency: str) -> dict[str, int]:
    """Return each person's money over the evenings played in `currency` (minor units; they sum to zero when
    every evening's money does): where money_steps ends."""
    _people, steps = money_steps(evenings, currency)
    return steps[-1] if steps else {}


def settlement(evenings: list[Played], paid, currency: str, per_lost_hand: Rule = 0) -> Settlement:
    """Who pays whom to settle what is still owed in `currency` over the evenings, less the lines marked paid
    ((payer, payee, amount) in that currency): the fewest payments, rounded to its coin. With a pot rule, what it
    asks of each player is owed to the pot (BANK), a line like any other."""
    return settle(unpaid(evenings, paid, currency, per_lost_hand), currency)


# ---- one person under two names: renaming across the circle's evenings ----

@dataclass(frozen=True)
class Seating:
    """One evening as a rename sees it: the table's players now, and who sat at each hand (by its number)."""

    table_id: str
    players: tuple
    hands: tuple  # ((hand number, (players at that hand…)), …)


@dataclass(frozen=True)
class Renaming:
    """What a rename changes at one table: {a spelling written there: the new name}, and its players after."""

    table_id: str
    renames: dict
    players: tuple


class BothPlayed(ValueError):
    """The two names sat at the same hand (or the same table now): they are two people, not one."""

    def __init__(self, table_id: str, hand: int | None, names: tuple):
        super().__init__(table_id, hand, names)
        self.table_id, self.hand, self.names = table_id, hand, names


def renaming(evenings: list[Seating], old: str, new: str) -> list[Renaming]:
    """Plan renaming person `old` (every spelling of the name) to `new` in every evening they played.

    If `new` is another person of the circle, the two become one (a merge): refused with BothPlayed if both sat
    at one hand, or at one table now. A new spelling of the same person ("anna" → "Anna") is a rename alone.
    """
    was, becomes = person(old), person(new)
    out = []
    for e in evenings:
        spellings = {p for p in e.players if person(p) == was}
        spellings |= {p for _n, seated in e.hands for p in seated if person(p) == was}
        if not spellings:
            continue
        if was != becomes:
            for number, seated in (*e.hands, (None, e.players)):  # a hand they both played says most
                here = {person(p) for p in seated}
                if was in here and becomes in here:
                    other = next(p for p in seated if person(p) == becomes)
                    raise BothPlayed(e.table_id, number, (next(p for p in seated if person(p) == was), other))
        renames = {p: new for p in sorted(spellings) if p != new}
        if renames:
            out.append(Renaming(e.table_id, renames, tuple(new if person(p) == was else p for p in e.players)))
    return out


def unpaid(evenings: list[Played], paid, currency: str, per_lost_hand: Rule = 0) -> dict[str, int]:
    """Each person's balance over the evenings in `currency`, less what the pot's rule asks of them (owed to the
    pot, BANK), less the lines marked paid ((payer, payee, amount) in that currency, names as written at the
    evening): what is still owed, in minor units, summing to zero (the pot included)."""
    owed_by_name = balances(evenings, currency)
    names = {person(n): n for n in owed_by_name}
    owed = {person(n): v for n, v in owed_by_name.items()}
    for name, (_lost, amount) in pot_by_rule(evenings, per_lost_hand).get(currency, {}).items():
        names.setdefault(person(name), name)
        owed[person(name)] = owed.get(person(name), 0) - amount
        names.setdefault(person(BANK), BANK)
        owed[person(BANK)] = owed.get(person(BANK), 0) + amount
    for payer, payee, amount in paid:
        for who, sign in ((payer, 1), (payee, -1)):
            names.setdefault(person(who), who)
            owed[person(who)] = owed.get(person(who), 0) + sign * amount
    return {names[k]: v for k, v in owed.items()}


def between(evenings: list[Played], start: date | None, end: date | None) -> list[Played]:
    """Keep the evenings played from `start` to `end`, both included (None: no bound)."""
    return [e for e in evenings if (start is None or e.played_on >= start) and (end is None or e.played_on <= end)]


def money_steps(evenings: list[Played], currency: str) -> tuple[list[str], list[dict]]:
    """Each person's money over the evenings played in `currency`, evening by evening: (the people in the order
    they came, as last written; after each evening, {name: money so far}) for the season's chart."""
    names: dict[str, str] = {}
    total: dict[str, int] = {}
    steps = []
    for e in sorted(evenings, key=lambda e: (e.played_on, e.table_id)):
        if e.currency != currency:
            continue
        for name, amount in e.money.items():
            names[person(name)] = name
            total[person(name)] = total.get(person(name), 0) + amount
        steps.append(dict(total))
    return [names[k] for k in names], [{names[k]: v for k, v in s.items()} for s in steps]


# ---- across evenings in numbers ----

@dataclass
class PersonNumbers:
    """One person over the evenings counted: their evenings and hands, in the evenings' money and the games' words."""

    name: str
    evenings: int = 0
    evenings_won: int = 0  # evenings ended with money won
    longest_run: int = 0  # the most evenings won one after another
    best_evening: int | None = None  # money, in the main currency
    worst_evening: int | None = None
    money: int = 0  # in the main currency, over its evenings
    money_evenings: int = 0  # evenings in the main currency (the average's divisor)
    hands: int = 0
    declared: int = 0
    won: int = 0
    contracts: dict = field(default_factory=dict)  # {contract: [taken, made]}
    together: dict = field(default_factory=dict)  # {person key: hands won together}
    names: dict = field(default_factory=dict)  # {person key: the name as last written}

    @property
    def average(self) -> int | None:
        """Money per evening in the main currency, in minor units rounded toward zero (None without one)."""
        return int(self.money / self.money_evenings) if self.money_evenings else None

    @property
    def partner(self) -> tuple[str, int] | None:
        """The person this one won most hands with (the first by name of equals), and how many."""
        if not self.together:
            return None
        key = min(self.together, key=lambda k: (-self.together[k], k))
        return self.names[key], self.together[key]


def numbers(evenings: list[Played], currency: str | None) -> list[PersonNumbers]:
    """Add up each evening's numbers (engine.evening.numbers) per person, in date order, with their money in
    `currency`: evenings won and the longest run of them, the best and worst evening, the average; hands taken on
    and won, per contract; the partner won with most. The most evenings first."""
    people: dict[str, PersonNumbers] = {}
    runs: dict[str, int] = {}
    for e in sorted(evenings, key=lambda e: (e.played_on, e.table_id)):
        for p in e.numbers.players:
            if not p.hands:
                continue
            me = people.setdefault(person(p.name), PersonNumbers(p.name))
            me.name = p.name
            me.evenings += 1
            me.hands += p.hands
            me.declared += p.declared
            me.won += p.won
            for word, (taken, made) in p.contracts.items():
                mine = me.contracts.setdefault(word, [0, 0])
                mine[0], mine[1] = mine[0] + taken, mine[1] + made
            for other, count in p.together.items():
                me.together[person(other)] = me.together.get(person(other), 0) + count
                me.names[person(other)] = other
            won = e.money.get(p.name, 0)
            if won > 0:
                me.evenings_won += 1
            runs[person(p.name)] = runs.get(person(p.name), 0) + 1 if won > 0 else 0
            me.longest_run = max(me.longest_run, runs[person(p.name)])
            if e.currency == currency:
                me.money += won
                me.money_evenings += 1
                me.best_evening = won if me.best_evening is None else max(me.best_evening, won)
                me.worst_evening = won if me.worst_evening is None else min(me.worst_evening, won)
    return sorted(people.values(), key=lambda n: (-n.evenings, n.name.casefold()))


# The pot's rule: minor units each hand lost by whoever took it on pays into the pot, in every evening (an int), or
# as it changed over the season: ((first day or None: from the start, minor units), …), oldest first. An evening
# counts under the rule in force on its day: a change made once lines were paid leaves the evenings before it as
# they were owed (issue 36).
Rule = int | tuple


def rule_on(rule: Rule, day: date) -> int:
    """The pot's rule in force on `day` (minor units a lost hand pays in; 0: none)."""
    if isinstance(rule, int):
        return rule
    amount = 0
    for first, value in rule:
        if first is None or first <= day:
            amount = value
    return amount


def rule_now(rule: Rule) -> tuple[int, date | None]:
    """The pot's rule as it is now, and the day it began (None: it counts every evening)."""
    if isinstance(rule, int):
        return rule, None
    return (rule[-1][1], rule[-1][0]) if rule else (0, None)


def pot_by_rule(evenings: list[Played], per_lost_hand: Rule) -> dict[str, dict[str, tuple[int, int]]]:
    """What the pot's rule brings: each hand lost by whoever took it on pays the rule in force on its evening's day
    (minor units, in its evening's currency). Return {currency: {name: (hands lost, amount)}}, the names as last
    written."""
    out: dict[str, dict[str, list]] = {}
    names: dict[str, str] = {}
    for e in sorted(evenings, key=lambda e: (e.played_on, e.table_id)):
        per = rule_on(per_lost_hand, e.played_on)
        if per <= 0:
            continue
        for p in e.numbers.players:
            lost = p.declared - p.won
            if lost > 0:
                names[person(p.name)] = p.name
                here = out.setdefault(e.currency, {}).setdefault(person(p.name), [0, 0])
                here[0] += lost
                here[1] += lost * per
    return {c: {names[k]: (v[0], v[1]) for k, v in people.items()} for c, people in out.items()}


# ---- the season's page: what a circle's page shows, from its evenings, paid lines and pot ----

PERIODS = ("month", "year", "all", "dates")


@dataclass(frozen=True)
class Filters:
    """Which evenings the standings count: a period ("month", "year", "all", or "dates" from `start` to `end`,
    both included, None: no bound), and one game or all (None)."""

    period: str = "all"
    game: str | None = None
    start: date | None = None
    end: date | None = None


@dataclass(frozen=True)
class Pot:
    """The circle's pot: its entries (newest first), what its rule asks of each player ({currency: {name: (hands
    lost, amount)}}: owed to the pot, settled as lines of the season), the rule (minor units a lost hand pays in;
    0: none), and what it holds per currency: its entries and the lines paid to it (less those it paid)."""

    entries: list
    by_rule: dict
    rule: int
    holds: dict
    rule_from: date | None = None  # the day the rule in force began (None: it counts every evening)
    rule_before: int = 0  # the rule the evenings before that day keep (minor units; 0: none)


@dataclass(frozen=True)
class SeasonPage:
    """What a circle's page shows. `games`: the games of every evening, sorted; `counted`: the evenings the
    filters keep; `main`: their most used currency (None: the money is hidden); `people`/`steps`: the season's
    money chart; `owed`: [(currency, Settlement)] of what is still owed over every evening, less the paid lines;
    `people`: every name of every evening, A–Z; `pot`: None when the money is hidden."""

    games: list
    counted: list
    main: str | None
    standings: list
    chart_people: list
    chart_steps: list
    across: list
    owed: list
    people: list
    pot: Pot | None


def paid_to_pot(paid) -> dict[str, int]:
    """What the lines marked paid brought the pot, per currency: paid to it, less paid by it."""
    out: dict[str, int] = {}
    for p in paid:
        sign = (p.payee == BANK) - (p.payer == BANK)
        if sign:
            out[p.currency] = out.get(p.currency, 0) + sign * p.amount
    return out


def pot(evenings: list[Played], entries: list, rule: Rule, paid=()) -> Pot:
    """The pot from its entries (anything with `amount` and `currency`, oldest first), its rule, and the lines
    marked paid (anything with payer, payee, amount and currency): what was paid to it, it holds."""
    holds = paid_to_pot(paid)
    for entry in entries:
        holds[entry.currency] = holds.get(entry.currency, 0) + entry.amount
    now, first = rule_now(rule)
    before = rule_on(rule, first - timedelta(days=1)) if first is not None else 0
    return Pot(list(entries)[::-1], pot_by_rule(evenings, rule), now, holds, first, before)


def owed(evenings: list[Played], paid: list, per_lost_hand: Rule = 0) -> list[tuple[str, Settlement]]:
    """What is still owed in each currency of the evenings (the most used first), the pot's rule included, less
    the paid lines (anything with payer, payee, amount and currency): the season's one answer to who owes whom."""
    main = main_currency(evenings)
    return [(c, settlement(evenings, [(p.payer, p.payee, p.amount) for p in paid if p.currency == c], c,
                           per_lost_hand))
            for c in sorted({e.currency for e in evenings}, key=lambda c: (c != main, c))]


def page(evenings: list[Played], filters: Filters, today: date, *, paid=(), pot_entries=(), pot_rule: Rule = 0,
         money: bool = True, ranking: bool = True) -> SeasonPage:
    """Work out a circle's page: the standings of the evenings the filters keep (by name alone if `ranking` is
    hidden), their numbers and money chart; what is owed over every evening; the pot (`money`: False hides both)."""
    counted = [e for e in evenings if filters.game is None or e.game == filters.game]
    if filters.period == "dates":
        counted = between(counted, filters.start, filters.end)
    else:
        counted = in_period(counted, filters.period, today)
    main = main_currency(counted) if money else None
    chart_people, steps = money_steps(counted, main) if main else ([], [])
    standing = standings(counted)
    if not ranking:
        standing.sort(key=lambda s: s.name.casefold())
    return SeasonPage(
        games=sorted({e.game for e in evenings}), counted=counted, main=main, standings=standing,
        chart_people=chart_people, chart_steps=steps, across=numbers(counted, main),
        owed=owed(evenings, list(paid), pot_rule) if money else [],
        people=sorted({n for e in evenings for n in e.units}, key=str.casefold),
        pot=pot(evenings, list(pot_entries), pot_rule, paid) if money else None)
