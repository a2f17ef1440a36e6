"""A table's evening: every hand scored under the setup it was played with, the totals, the running totals, who
deals next, the games of several deals, and the evening in numbers. Pure: no Flask, no store, no words.

It is worked out from the hands' facts and a frozen `Setup` (the table's game, players, stake, currency and house
rules), and holds data, not text: a row's summary is the engine's `Line`, its error the engine's `ScoreError` (or
a `Line` saying what can't be read), a change of the table a `Change`. The web says them in the reader's words, so
one evening serves every language and is kept once per version of its table (web/scoreboard.py).

A hand is any object with `number`, `facts`, `dealer` (None: by the rotation) and `setup` (None: the table's, else
{players, stake, rules} as it was played): the store's Hand.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import lru_cache

from . import settle
from .errors import ScoreError
from .game import Game, Result, resolve_rules
from .games import get_game
from .seating import next_dealer
from .text import Line, line

PAGE = 20  # hands a table page words; older ones are a tap away, a page at a time

# What a hand stored wrong can raise while it is scored or said: facts or a setup the engine's checks never saw
# (written by hand into the database, by an old bug, by an edited import). Its row says so; the rest still counts.
DAMAGED = (ScoreError, LookupError, TypeError, ValueError, AttributeError, StopIteration, ArithmeticError,
           RecursionError)

DAMAGED_FACTS = line("What is stored for this hand can't be read, so it can't be scored.")
DAMAGED_SETUP = line("The players, stake and house rules stored for this hand can't be read, so it can't be "
                     "scored: delete it and enter it again.")


class Damaged(ValueError):
    """A hand's stored setup (its players, stake and house rules) can't be read."""


@dataclass(frozen=True)
class Setup:
    """What a hand is scored under: the game, the players in their seats, the stake, the currency, who dealt
    first and the house rules (as sorted (name, value) pairs, values as JSON: frozen, so hashable)."""

    game: str
    players: tuple[str, ...]
    stake: int
    currency: str = "CHF"
    first_dealer: int = 0
    rules_json: str = "{}"

    @classmethod
    def of(cls, table) -> Setup:
        """The setup of anything with a table's attributes (the store's TableInfo)."""
        return cls(table.game, tuple(table.players), table.stake, table.currency, table.first_dealer,
                   json.dumps(table.rules, sort_keys=True))

    @property
    def rules(self) -> dict:
        return json.loads(self.rules_json)

    def with_rules(self, rules: dict) -> Setup:
        return replace(self, rules_json=json.dumps(rules, sort_keys=True))


@dataclass(frozen=True)
class Change:
    """One change of the table from a hand on: `what` is "joins" or "leaves" (value: the name), "stake" (value:
    the new stake in minor units) or "rule" (name: the house rule, value: its new value)."""

    what: str
    value: object
    name: str = ""


@dataclass
class Row:
    """One hand of the evening."""

    hand: object
    index: int  # 1-based position among the live hands
    dealer: str
    summary: Line | None = None  # what was declared (None: not worded, or can't be said)
    scores: dict = field(default_factory=dict)
    payouts: dict = field(default_factory=dict)
    error: object = None  # why it scores nothing: the engine's ScoreError, or a Line (what is stored can't be read)
    warnings: tuple = ()  # the engine's warnings (a pile a real hand can't give), as Lines
    after_units: dict = field(default_factory=dict)  # where everyone stands after this hand, as on a paper sheet
    after_money: dict = field(default_factory=dict)
    players: tuple = ()  # who played it, in their seats
    changes: tuple = ()  # what changed at the table from this hand on (Change)
    # for the chart, kept with the running totals so that it needn't walk every hand: the lowest and highest
    # running total of anyone so far (and 0, the start), and how many hands scored so far
    low: object = 0
    high: object = 0
    charted: int = 0


@dataclass
class Evening:
    """A table's evening: every hand's result, the totals, who deals next."""

    setup: Setup
    game: Game
    rows: list  # oldest first
    units: dict
    money: dict
    next_dealer: str
    games: list  # Troccas/1659: [(number, deals, {player: units}, complete, the winners if complete)]
    players: list = field(default_factory=list)  # everyone who played this evening: the table's, then who left
    left: set = field(default_factory=set)  # who left the table (their balance is still settled)
    pending: tuple = ()  # changes of the table (Change) that apply from the next hand on
    # everyone in the order they came to the table: the first hand's seats, then each who joined (a hand's changes),
    # then who never played; a player's colour on the chart (web/chart.py), kept so that a Save needn't walk every hand
    arrival: tuple = ()

    def once(self, name, make):
        """Return make(self), worked out once per evening (a kept evening serves many pages and polls)."""
        done = self.__dict__.setdefault("_once", {})
        if name not in done:
            done[name] = make(self)
        return done[name]

    def page(self, size: int, before: int | None = None) -> list:
        """Return the rows a history page shows: `size` hands, newest first, ending before position `before`."""
        end = len(self.rows) if before is None else max(0, min(before, len(self.rows)))
        return self.rows[max(0, end - size):end][::-1]


def score(setup: Setup, facts: dict) -> Result:
    """Score one hand's facts with the engine (raises ScoreError with the engine's sentence).

    The result depends on nothing but the setup and the facts, so it is cached by them (content-addressed: an
    edited hand or changed rules are a new key, never a stale one).
    """
    return _scored(setup.game, setup.players, json.dumps(facts, sort_keys=True), setup.rules_json)


@lru_cache(maxsize=20_000)
def _scored(game_id: str, players: tuple, facts: str, rules: str) -> Result:
    game = get_game(game_id)
    return game.score(list(players), json.loads(facts), resolve_rules(game, json.loads(rules)))


def summary(setup: Setup, facts: dict) -> Line:
    """What was declared, in a few words: who, which contract, the points."""
    return get_game(setup.game).summary(facts or {})


def dealer(setup: Setup, index: int) -> str:
    """Return who deals hand `index` (0-based) by the rotation alone (a hand stored without its dealer)."""
    return setup.players[(setup.first_dealer + index) % len(setup.players)]


def _readable(setup) -> bool:
    return (isinstance(setup, dict) and isinstance(setup.get("players"), list) and len(setup["players"]) > 0
            and all(isinstance(p, str) for p in setup["players"]) and type(setup.get("stake")) is int
            and isinstance(setup.get("rules"), dict))


def seated(hand) -> list[str]:
    """Return who played this hand as its setup says ([] if it says nothing, or can't be read)."""
    return list(hand.setup["players"]) if _readable(hand.setup) else []


def played_under(setup: Setup, hand) -> Setup:
    """Return the setup as it was when this hand was played: its players, stake and house rules then.

    Raise Damaged if the hand's stored setup can't be read."""
    then = hand.setup
    if not then:
        return setup
    if not _readable(then):
        raise Damaged(hand.number)
    return replace(setup, players=tuple(then["players"]), stake=then["stake"],
                   rules_json=json.dumps(then["rules"], sort_keys=True))


def latest(n_hands: int, size: int = PAGE) -> range:
    """Return the positions of the newest `size` hands: the ones the table page words."""
    return range(max(0, n_hands - size), n_hands)


def build(setup: Setup, hands, worded: range | None = None) -> Evening:
    """Score every live hand under the setup it was played with, and sum the units and money per player.

    Only the hands at the positions in `worded` (all if None) get their summary and warnings: what a page shows
    is what is built. Totals and running totals always cover every hand.
    """
    everyone = list(setup.players)
    for h in hands:  # who left is still on the evening, after the players at the table
        everyone += [p for p in seated(h) if p not in everyone]
    rows, then = [], None
    for i, h in enumerate(hands):
        then = _add_row(rows, setup, h, then, everyone, worded is None or i in worded)
    units = settle.totals(everyone, [r.scores for r in rows])
    money = settle.totals(everyone, [r.payouts for r in rows])
    return _evening(setup, get_game(setup.game), rows, units, money, everyone, then)


def _add_row(rows: list, setup: Setup, h, then, everyone: list, words: bool):
    """Score hand `h` as the next row (its summary and warnings if `words`); return the setup it was played under.

    A hand whose stored facts or setup can't be read or scored is a row with an error that says so (and scores
    nothing): every other hand is still shown and counted.
    """
    try:
        under, broken = played_under(setup, h), None
    except Damaged:
        under, broken = setup, DAMAGED_SETUP
    # the dealer is a fact of the hand: deleting or editing another hand never changes it
    row = Row(h, len(rows) + 1, h.dealer or dealer(setup, len(rows)), players=under.players)
    if words:
        try:
            row.summary = summary(under, h.facts)
        except DAMAGED:
            pass  # facts that can't be said can't be scored either: the error below says so
    if broken is None and then is not None and then != under:
        try:
            row.changes = changes(then, under)
        except DAMAGED:
            pass  # house rules that can't be read: scoring says so below
    if broken is not None:
        row.error = broken
    else:
        try:
            result = score(under, h.facts)
        except ScoreError as e:
            row.error = e
        except DAMAGED:
            row.error = DAMAGED_FACTS
        else:
            row.scores = dict(result.scores)
            row.payouts = settle.payouts(result.money_units, under.stake)
            row.warnings = tuple(result.warnings) if words else ()
    before = rows[-1] if rows else None
    row.after_units = {p: (before.after_units[p] if before else 0) + row.scores.get(p, 0) for p in everyone}
    row.after_money = {p: (before.after_money[p] if before else 0) + row.payouts.get(p, 0) for p in everyone}
    row.low = min(before.low if before else 0, *row.after_units.values())
    row.high = max(before.high if before else 0, *row.after_units.values())
    row.charted = (before.charted if before else 0) + (row.error is None)
    rows.append(row)
    return under if broken is None else then  # the next hand's changes are said against the last readable setup


def arrival(rows: list, everyone: list) -> tuple:
    """Everyone in the order they came to the table: the first hand's players, then each who joined (a row's
    changes), then anyone else of `everyone` (Evening.arrival)."""
    seated = [rows[0], *(r for r in rows if r.changes)] if rows else []
    return tuple(dict.fromkeys([*(p for r in seated for p in r.players if p in everyone), *everyone]))


def _evening(setup, game, rows, units, money, everyone, then, games=(), came=None) -> Evening:
    last = rows[-1] if rows else None
    after = next_dealer(setup.players, setup.first_dealer, last.dealer if last else None,
                        last.players if last else None)
    pending = ()
    if then is not None and _setup_of(then) != _setup_of(setup):
        try:
            pending = changes(then, setup)
        except DAMAGED:
            pass  # the last hand's house rules can't be read: its row says so
    return Evening(setup, game, rows, units, money, after, deal_games(setup, rows, games), everyone,
                   {p for p in everyone if p not in setup.players}, pending,
                   arrival(rows, everyone) if came is None else came)


def _setup_of(s: Setup) -> tuple:
    """What a hand's stored setup holds (a hand changes these, never the game or the first dealer)."""
    return s.players, s.stake, s.rules


def extend(e: Evening, setup: Setup, hands) -> Evening | None:
    """Return evening `e` with `hands`, added since it was built and nothing else changed, scored onto it.

    The work is the new hands', not the table's: the rows before stand as they were (their running totals can't
    move when hands are only added). None if the new hands were played under another setup than the last (a
    change of the table came between): the caller builds the evening afresh.
    """
    if e.pending or not e.rows or setup.players != e.setup.players:
        return None
    try:
        rows, then = list(e.rows), played_under(setup, e.rows[-1].hand)
    except Damaged:
        return None  # the last hand's setup can't be read: built afresh, where build() says so
    for h in hands:
        then = _add_row(rows, setup, h, then, e.players, True)
    new = rows[len(e.rows):]
    if any(r.changes for r in new):
        return None
    units = settle.totals(e.players, [e.units, *(r.scores for r in new)])
    money = settle.totals(e.players, [e.money, *(r.payouts for r in new)])
    # no one joined or left (no new row has changes): everyone came in the order they did
    return _evening(setup, e.game, rows, units, money, e.players, then, e.games, e.arrival)


def changes(then: Setup, now: Setup) -> tuple[Change, ...]:
    """What differs between two setups of the table: who joined or left, the stake, house rules."""
    out = [Change("joins", p) for p in now.players if p not in then.players]
    out += [Change("leaves", p) for p in then.players if p not in now.players]
    if now.stake != then.stake:
        out.append(Change("stake", now.stake))
    game = get_game(now.game)
    old, new = resolve_rules(game, then.rules), resolve_rules(game, now.rules)
    out += [Change("rule", new[name], name) for name in game.options if old[name] != new[name]]
    return tuple(out)


def deal_games(setup: Setup, rows, kept=()) -> list:
    """Group the hands into games of four deals (Troccas) or three rounds (1659), with each game's totals.

    `kept`: the games of an evening these rows extend (hands only added after its rows): its complete games
    stand as they were, and only the rest is worked out.
    """
    size = get_game(setup.game).deals_per_game
    if not size:
        return []
    out = [g for g in kept if g[3]]
    for start in range(len(out) * size, len(rows), size):
        chunk = rows[start:start + size]
        units = settle.totals(list(chunk[-1].players), [r.scores for r in chunk])
        best = max(units.values(), default=0)
        winners = [p for p in sorted(units, key=str.lower) if best > 0 and units[p] == best]  # A–Z, as said
        out.append((start // size + 1, len(chunk), units, len(chunk) == size, winners))
    return out


@dataclass
class PlayerNumbers:
    """One player's evening."""

    name: str
    hands: int = 0  # hands played
    declared: int = 0  # hands this player took on (Tappist, soloist, taker)
    won: int = 0  # of those, the ones this player won
    best: int | None = None  # the best single hand, in the game's unit
    worst: int | None = None
    biggest: int = 0  # the biggest single payout received, in minor units
    contracts: dict = field(default_factory=dict)  # {contract (a Line): [taken, made]} of the hands taken on
    together: dict = field(default_factory=dict)  # {another player: hands both won} (a side of two or more)


@dataclass
class Numbers:
    players: list = field(default_factory=list)
    contracts: list = field(default_factory=list)  # [(the contract, a Line; taken; made)]
    has_declarer: bool = False


def numbers(e: Evening) -> Numbers:
    """The evening in numbers: per player, hands taken on and won, best and worst hand, biggest payout; per
    contract (where the game has them), how often it was taken and made. Hands the engine refused are left out."""
    game = e.game
    players = {p: PlayerNumbers(p) for p in e.players}
    contracts: dict = {}
    out = Numbers(has_declarer=False)
    for r in e.rows:
        if r.error:
            continue
        for p, units in r.scores.items():
            n = players[p]
            n.hands += 1
            n.best = units if n.best is None else max(n.best, units)
            n.worst = units if n.worst is None else min(n.worst, units)
            n.biggest = max(n.biggest, r.payouts.get(p, 0))
        who = game.declarer(r.hand.facts)
        if who in players:
            out.has_declarer = True
            players[who].declared += 1
            made = r.scores.get(who, 0) > 0
            players[who].won += made
            word = game.contract(r.hand.facts)
            if word is not None:
                taken, done = contracts.get(word, (0, 0))
                contracts[word] = (taken + 1, done + made)
                mine = players[who].contracts.setdefault(word, [0, 0])
                mine[0], mine[1] = mine[0] + 1, mine[1] + made
        winners = [p for p, units in r.scores.items() if units > 0 and p in players]
        if len(winners) > 1:  # a side that won together (Troccas's pairs, a Tappist and partner, a taker and king)
            for p in winners:
                for q in winners:
                    if q != p:
                        players[p].together[q] = players[p].together.get(q, 0) + 1
    out.players = list(players.values())
    out.contracts = [(k, t, m) for k, (t, m) in contracts.items()]
    return out


@dataclass(frozen=True)
class Totals:
    """An evening as a season counts it (engine/season.py): its game and currency, hands, each player's units and
    money, and its numbers."""

    game: str
    currency: str
    hands: int
    units: dict
    money: dict
    numbers: Numbers


def totals(e: Evening) -> Totals:
    """Return the evening's totals, worked out once per evening (a kept evening serves every circle page)."""
    return e.once("totals", lambda e: Totals(e.setup.game, e.setup.currency, len(e.rows), dict(e.units),
                                             dict(e.money), numbers(e)))
