"""The scoreboard: every stored hand re-scored by the engine, totals, dealers, money in words."""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import lru_cache

from flask_babel import gettext as _
from flask_babel import ngettext

from ..engine.seating import next_dealer
from . import l10n
from .l10n import isolated, money, say
from ..engine import settle
from ..engine.errors import ScoreError
from ..engine.games import Result, get_game, resolve_rules
from .house_rules import in_words, option_title



@dataclass
class Row:
    """One hand on the scoreboard."""

    hand: object
    index: int  # 1-based position among the live hands
    dealer: str
    summary: str
    scores: dict = field(default_factory=dict)
    payouts: dict = field(default_factory=dict)
    explanation: list = field(default_factory=list)
    error: str | None = None
    warnings: list = field(default_factory=list)  # the engine's warnings (a pile a real hand can't give), in words
    after_units: dict = field(default_factory=dict)  # where everyone stands after this hand, as on a paper sheet
    after_money: dict = field(default_factory=dict)
    players: tuple = ()  # who played it, in their seats
    changes: list = field(default_factory=list)  # what changed at the table from this hand on, in words
    # for the chart (web/chart.py), kept with the running totals so that it needn't walk every hand: the
    # lowest and highest running total of anyone so far (and 0, the start), and how many hands scored so far
    low: object = 0
    high: object = 0
    charted: int = 0


@dataclass
class Board:
    """A table's scoreboard: every hand's result, the totals, who deals next."""

    table: object
    game: object
    rows: list  # oldest first
    units: dict
    money: dict
    next_dealer: str
    games: list  # Troccas/1659: [(number, deals, {player: units}, complete, the winners if complete)]
    players: list = field(default_factory=list)  # everyone who played this evening: the table's, then who left
    left: set = field(default_factory=set)  # who left the table (their balance is still settled)
    pending: list = field(default_factory=list)  # changes of the table that apply from the next hand on

    def once(self, name: str, make):
        """Return make(self), worked out once per board (a kept board serves many pages and polls)."""
        done = self.__dict__.setdefault("_once", {})
        if name not in done:
            done[name] = make(self)
        return done[name]

    def page(self, size: int, before: int | None = None) -> list:
        """Return the rows a history page shows: `size` hands, newest first, ending before position `before`."""
        end = len(self.rows) if before is None else max(0, min(before, len(self.rows)))
        return self.rows[max(0, end - size):end][::-1]


def render_lines(lines) -> list[str]:
    """Render the engine's Lines through the translation catalogue."""
    return [say(ln) for ln in lines]


def score(table, facts: dict) -> Result:
    """Score one hand's facts with the engine (raises ScoreError with the engine's sentence).

    The result depends on nothing but the game, the players, the facts and the house rules, so it is
    cached by them (content-addressed: an edited hand or changed rules are a new key, never a stale one).
    """
    return _scored(table.game, tuple(table.players), json.dumps(facts, sort_keys=True),
                   json.dumps(table.rules, sort_keys=True))


@lru_cache(maxsize=20_000)
def _scored(game_id: str, players: tuple, facts: str, rules: str) -> Result:
    game = get_game(game_id)
    return game.score(list(players), json.loads(facts), resolve_rules(game, json.loads(rules)))


def dealer(table, index: int) -> str:
    """Return who deals hand `index` (0-based) by the rotation alone (a hand stored without its dealer)."""
    return table.players[(table.first_dealer + index) % len(table.players)]


# What a hand stored wrong can raise while it is scored or said: facts or a setup the engine's checks never saw
# (written by hand into the database, by an old bug, by an edited import). Its row says so; the page still answers.
DAMAGED = (ScoreError, LookupError, TypeError, ValueError, AttributeError, StopIteration, ArithmeticError,
           RecursionError)


class Damaged(ValueError):
    """A hand's stored setup (its players, stake and house rules) can't be read."""


def damaged_facts() -> str:
    return _("What is stored for this hand can't be read, so it can't be scored.")


def damaged_setup() -> str:
    return _("The players, stake and house rules stored for this hand can't be read, so it can't be scored: "
             "delete it and enter it again.")


def _readable(setup) -> bool:
    return (isinstance(setup, dict) and isinstance(setup.get("players"), list) and len(setup["players"]) > 0
            and all(isinstance(p, str) for p in setup["players"]) and type(setup.get("stake")) is int
            and isinstance(setup.get("rules"), dict))


def seated(hand) -> list[str]:
    """Return who played this hand as its setup says ([] if it says nothing, or can't be read)."""
    return list(hand.setup["players"]) if _readable(hand.setup) else []


def played_under(table, hand):
    """Return the table as it was when this hand was played: its players, stake and house rules then.

    Raise Damaged if the hand's stored setup can't be read."""
    setup = hand.setup
    if not setup:
        return table
    if not _readable(setup):
        raise Damaged(hand.number)
    return replace(table, players=tuple(setup["players"]), stake=setup["stake"], rules=dict(setup["rules"]))


def build(table, hands, worded: range | None = None, explain: bool = False) -> Board:
    """Score every live hand under the setup it was played with, and sum the units and money per player.

    Only the hands at the positions in `worded` (all if None) get their sentences (the summary, and
    the working if `explain`): what a page shows is what is built. Totals and running totals always
    cover every hand.
    """
    game = get_game(table.game)
    everyone = list(table.players)
    for h in hands:  # who left is still on the board, after the players at the table
        everyone += [p for p in seated(h) if p not in everyone]
    rows, then = [], None
    for i, h in enumerate(hands):
        then = _add_row(rows, table, h, then, everyone, worded is None or i in worded, explain)
    units = settle.totals(everyone, [r.scores for r in rows])
    money = settle.totals(everyone, [r.payouts for r in rows])
    return _board(table, game, rows, units, money, everyone, then)


def _add_row(rows: list, table, h, then, everyone: list, words: bool, explain: bool):
    """Score hand `h` as the next row (its sentences if `words`); return the setup it was played under.

    A hand whose stored facts or setup can't be read or scored is a row with an error that says so (and scores
    nothing): every other hand is still shown and counted.
    """
    try:
        under, broken = played_under(table, h), None
    except Damaged:
        under, broken = table, damaged_setup()
    # the dealer is a fact of the hand: deleting or editing another hand never changes it
    row = Row(h, len(rows) + 1, h.dealer or dealer(table, len(rows)), "", players=under.players)
    if words:
        try:
            row.summary = summary(under, h.facts)
        except DAMAGED:
            pass  # facts that can't be said can't be scored either: the error below says so
    if broken is None and then is not None and \
            (then.players, then.stake, then.rules) != (under.players, under.stake, under.rules):
        try:
            row.changes = changes(then, under)
        except DAMAGED:
            pass  # house rules that can't be read: scoring says so below
    try:
        if broken is not None:
            raise Damaged(h.number)
        result = score(under, h.facts)
    except Damaged:
        row.error = broken
    except ScoreError as e:
        row.error = say(e)
    except DAMAGED:
        row.error = damaged_facts()
    else:
        row.scores = dict(result.scores)
        row.payouts = settle.payouts(result.scores, under.stake)
        row.explanation = render_lines(result.explanation) if words and explain else []
        row.warnings = render_lines(result.warnings) if words else []
    before = rows[-1] if rows else None
    row.after_units = {p: (before.after_units[p] if before else 0) + row.scores.get(p, 0) for p in everyone}
    row.after_money = {p: (before.after_money[p] if before else 0) + row.payouts.get(p, 0) for p in everyone}
    row.low = min(before.low if before else 0, *row.after_units.values())
    row.high = max(before.high if before else 0, *row.after_units.values())
    row.charted = (before.charted if before else 0) + (row.error is None)
    rows.append(row)
    return under if broken is None else then  # the next hand's changes are said against the last readable setup


def _board(table, game, rows, units, money, everyone, then, games=()) -> Board:
    last = rows[-1] if rows else None
    after = next_dealer(table.players, table.first_dealer, last.dealer if last else None,
                        last.players if last else None)
    pending = []
    if then is not None and (then.players, then.stake, then.rules) != (table.players, table.stake, table.rules):
        try:
            pending = changes(then, table)
        except DAMAGED:
            pass  # the last hand's house rules can't be read: its row says so
    return Board(table, game, rows, units, money, after, deal_games(table, rows, games), everyone,
                 {p for p in everyone if p not in table.players}, pending)


def extend(b: Board, table, hands) -> Board | None:
    """Return board `b` with `hands`, added since it was built and nothing else changed, scored onto it.

    The work is the new hands', not the table's: the rows before stand as they were (their running
    totals can't move when hands are only added). None if the new hands were played under another
    setup than the last (a change of the table came between): the caller builds the board afresh.
    """
    if b.pending or not b.rows or list(table.players) != list(b.table.players):
        return None
    try:
        rows, then = list(b.rows), played_under(table, b.rows[-1].hand)
    except Damaged:
        return None  # the last hand's setup can't be read: built afresh, where build() says so
    for h in hands:
        then = _add_row(rows, table, h, then, b.players, True, False)
    new = rows[len(b.rows):]
    if any(r.changes for r in new):
        return None
    units = settle.totals(b.players, [b.units, *(r.scores for r in new)])
    money = settle.totals(b.players, [b.money, *(r.payouts for r in new)])
    return _board(table, b.game, rows, units, money, b.players, then, b.games)


def changes(then, now) -> list[str]:
    """Say what differs between two setups of the table: who joined or left, the stake, house rules."""
    out = [_("%(name)s joins", name=p) for p in now.players if p not in then.players]
    out += [_("%(name)s leaves", name=p) for p in then.players if p not in now.players]
    if now.stake != then.stake:
        out.append(_("stake %(money)s", money=money(now.stake, now.currency)))
    game = get_game(now.game)
    for name in game.options:
        old, new = resolve_rules(game, then.rules)[name], resolve_rules(game, now.rules)[name]
        if old != new:
            out.append(_("%(rule)s: %(value)s", rule=option_title(name), value=in_words(new, game, name)))
    return out


def deal_games(table, rows, kept=()) -> list:
    """Group the hands into games of four deals (Troccas) or three rounds (1659), with each game's totals.

    `kept`: the games of a board these rows extend (hands only added after its rows): its complete games
    stand as they were, and only the rest is worked out.
    """
    size = get_game(table.game).deals_per_game
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


def money_sentence(payouts: dict, currency: str) -> str:
    """Say what a hand costs, e.g. "Anna wins: each of the 4 opponents pays her 10 Rappen"."""
    winners = [p for p, v in payouts.items() if v > 0]
    losers = [p for p, v in payouts.items() if v < 0]
    if not winners and not losers:
        return _("Nobody pays anything.")
    if len(winners) == 1 and len({payouts[p] for p in losers}) == 1 and sum(payouts.values()) == 0:
        return ngettext("%(winner)s wins: %(loser)s pays %(amount)s.",
                        "%(winner)s wins: each of the %(num)d opponents pays %(amount)s.", len(losers),
                        winner=isolated(winners[0]), loser=isolated(losers[0]), amount=money(-payouts[losers[0]], currency))
    if len(losers) == 1 and len({payouts[p] for p in winners}) == 1 and sum(payouts.values()) == 0:
        return ngettext("%(loser)s loses: pays %(winner)s %(amount)s.",
                        "%(loser)s loses: pays each of the %(num)d others %(amount)s.", len(winners),
                        loser=isolated(losers[0]), winner=isolated(winners[0]), amount=money(payouts[winners[0]], currency))
    if len({payouts[p] for p in winners}) == 1 and len({payouts[p] for p in losers}) == 1:
        return _("%(winners)s get %(won)s each; %(losers)s pay %(lost)s each.",
                 winners=_and(winners), won=money(payouts[winners[0]], currency),
                 losers=_and(losers), lost=money(-payouts[losers[0]], currency))
    parts = [_("%(player)s gets %(amount)s", player=isolated(p), amount=money(payouts[p], currency)) for p in winners]
    parts += [_("%(player)s pays %(amount)s", player=isolated(p), amount=money(-payouts[p], currency)) for p in losers]
    return "; ".join(parts) + "."


def _and(names: list[str]) -> str:
    names = [isolated(n) for n in names]
    return names[0] if len(names) == 1 else _("%(some)s and %(last)s", some=", ".join(names[:-1]), last=names[-1])


def preview(table, facts: dict) -> dict:
    """Return what the preview shows for a hand: the money in words, the engine's working, warnings."""
    try:
        result = score(table, facts)
    except ScoreError as e:
        return {"engine_error": say(e)}
    except DAMAGED:  # a stored hand's facts that can't be read (an edit page's preview)
        return {"engine_error": damaged_facts()}
    return {"sentence": money_sentence(settle.payouts(result.scores, table.stake), table.currency),
            "lines": render_lines(result.explanation), "warnings": render_lines(result.warnings)}


def summary(table, facts: dict) -> str:
    """Say in a few words what was declared: who, which contract, the points."""
    return say(get_game(table.game).summary(facts or {}))


PAGE = 20  # hands on the table page; older ones are a tap away, a page at a time


def latest(n_hands: int, size: int = PAGE) -> range:
    """Return the positions of the newest `size` hands: the ones the table page words."""
    return range(max(0, n_hands - size), n_hands)


ROWS_KEPT = 20_000  # hands kept in boards per app process, all tables together (a few MB per thousand hands)
_KEEPING = threading.Lock()


class _Kept:
    """The boards an app keeps, (version, board) by key, least recently used first, and the rows they hold
    together: counted as boards are kept and dropped (a kept board never changes), not summed on every
    request (that cost 2% of a saved hand with 150 tables kept). Used under _KEEPING."""

    def __init__(self):
        self.boards: OrderedDict = OrderedDict()
        self.rows = 0

    def get(self, key):
        """Return (version, board) kept under key, now the most recently used, or None."""
        found = self.boards.get(key)
        if found is not None:
            self.boards.move_to_end(key)
        return found

    def keep(self, key, version: int, b) -> None:
        """Keep a board, in place of the key's older one; then drop the least recently used past ROWS_KEPT."""
        old = self.boards.get(key)
        self.rows += len(b.rows) - (len(old[1].rows) if old is not None else 0)
        self.boards[key] = (version, b)
        self.boards.move_to_end(key)
        while len(self.boards) > 1 and self.rows > ROWS_KEPT:
            _key, (_version, gone) = self.boards.popitem(last=False)
            self.rows -= len(gone.rows)


def added_since(table_id: str, since: int, now_at: int):
    """Return store.added_since(table_id, since), read once per request for a table at version `now_at`
    (building the board and answering a Save ask the same; a read before this request's own write is
    another key, as it saw another version)."""
    from flask import g
    from .. import store
    memo = g.setdefault("_added_since", {})
    key = (table_id, since, now_at)
    if key not in memo:
        memo[key] = store.added_since(table_id, since)
    return memo[key]


def written(table_id: str, since: int, now_at: int, added: list) -> None:
    """Note that this request's own write moved the table from version `since` to `now_at` by adding `added`
    (and nothing else: it held the table's lock), so that added_since needn't read back what it just wrote."""
    from flask import g
    g.setdefault("_added_since", {})[(table_id, since, now_at)] = (now_at, list(added))


def _key(table) -> tuple:
    """The key a table's board is kept under: one per table, language and way of writing its money."""
    return table.id, l10n.locale_id(), l10n.locale_id(table.currency)


def kept_version(table) -> int | None:
    """Return the version of the board kept for this table in this request's language, if one is kept: a Save
    asks its write for the hands added since (store.save_hand's `since`), so that the board catches up on
    them without reading them apart."""
    from flask import current_app
    with _KEEPING:
        kept = current_app.extensions.get("boards")
        found = kept.boards.get(_key(table)) if kept is not None else None
    return found[0] if found is not None else None


def current(table) -> Board:
    """Return the board the table page and every watcher show, built once per version of the table.

    Its `table` is the table it shows: `table`, or the table as it is now if something was saved since
    `table` was read and the board had to be built from the hands (the caller shows b.table, not its own).
    Kept per app (never across apps), one board per table and language: any change moves the version
    on, so a kept board is never stale and an older version's board is dropped. Bounded by the hands
    the kept boards hold; a lock keeps the threads of a worker from tripping over each other.
    """
    from flask import current_app
    from .. import store
    key, version = _key(table), table.version
    with _KEEPING:
        kept = current_app.extensions.setdefault("boards", _Kept())
        found = kept.get(key)
        if found is not None and found[0] == version:
            return found[1]
    b = None
    if found is not None and found[0] < version:
        # hands only added since the kept board (the changes log says so): score just those onto it
        now_at, added = added_since(table.id, found[0], version)
        if added and now_at == version and found[1].rows and added[0].number > found[1].rows[-1].hand.number:
            b = extend(found[1], table, added)
    if b is None:
        at, hands = store.hands_at(table.id)
        for _try in range(3):
            if at is None or at == table.version:  # (None: no such table now; nothing newer to show)
                break
            # saved meanwhile, since `table` was read: the board is of the table as the hands were read (b.table,
            # its version with it), never newer hands under an older version, whose next poll would add them twice
            table = store.get_table(table.id)
            at, hands = store.hands_at(table.id)
        b = build(table, hands, latest(len(hands)))
    with _KEEPING:
        newer = kept.boards.get(key)
        if newer is None or newer[0] <= b.table.version:  # a board another thread kept meanwhile may be newer
            kept.keep(key, b.table.version, b)
    return b
