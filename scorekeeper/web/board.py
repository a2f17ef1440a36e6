"""The scoreboard: every stored hand re-scored by the engine, totals, dealers, money in words."""
from __future__ import annotations

from dataclasses import dataclass, field

from flask_babel import gettext as _
from flask_babel import ngettext

from .. import store
from ..engine import settle
from ..engine.errors import ScoreError
from ..engine.games import Result, get_game, resolve_rules
from ..engine.naming import say

MINOR = {"CHF": "Rappen", "EUR": "cents"}


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
    after_units: dict = field(default_factory=dict)  # where everyone stands after this hand, as on a paper sheet
    after_money: dict = field(default_factory=dict)


@dataclass
class Board:
    table: object
    game: object
    rows: list  # oldest first
    units: dict
    money: dict
    next_dealer: str
    games: list  # Troccas/1659: [(number, deals, {player: units}, complete)]


def fmt_money(minor: int, currency: str, signed: bool = False, bare: bool = False) -> str:
    """Write an amount for people: 10 Rappen, CHF 1.20, +CHF 0.40 (signed), +0.40 (bare), never floats."""
    if signed and minor == 0:
        return "0"
    sign = ("+" if minor > 0 else "−") if signed else ("−" if minor < 0 else "")
    value = abs(minor)
    if not signed and value < 100 and currency in MINOR:
        return f"{sign}{value} {MINOR[currency]}"
    return f"{sign}{'' if bare else currency + ' '}{value // 100}.{value % 100:02d}"


def render_lines(lines) -> list[str]:
    """Render the engine's Lines through the translation catalogue."""
    return [ln.render(_) if hasattr(ln, "render") else str(ln) for ln in lines]


def score(table, facts: dict) -> Result:
    """Score one hand's facts with the engine (raises ScoreError with the engine's sentence)."""
    game = get_game(table.game)
    return game.score(list(table.players), facts, resolve_rules(game, table.rules))


def dealer(table, index: int) -> str:
    """Return who deals hand `index` (0-based) by the rotation alone (a hand stored without its dealer)."""
    return table.players[(table.first_dealer + index) % len(table.players)]


def build(table, hands) -> Board:
    """Score every live hand and sum the units and money per player."""
    game = get_game(table.game)
    rows = []
    for i, h in enumerate(hands):
        # the dealer is a fact of the hand: deleting or editing another hand never changes it
        row = Row(h, i + 1, h.dealer or dealer(table, i), summary(table, h.facts))
        try:
            result = score(table, h.facts)
        except ScoreError as e:
            row.error = e.render(_)
        else:
            row.scores = dict(result.scores)
            row.payouts = settle.payouts(result.scores, table.stake)
            row.explanation = render_lines(result.explanation)
        before = rows[-1] if rows else None
        row.after_units = {p: (before.after_units[p] if before else 0) + row.scores.get(p, 0) for p in table.players}
        row.after_money = {p: (before.after_money[p] if before else 0) + row.payouts.get(p, 0) for p in table.players}
        rows.append(row)
    units = settle.totals(table.players, [r.scores for r in rows])
    money = settle.totals(table.players, [r.payouts for r in rows])
    after = store.next_dealer(table.players, table.first_dealer, rows[-1].dealer if rows else None)
    return Board(table, game, rows, units, money, after, deal_games(table, rows))


def deal_games(table, rows) -> list:
    """Group the hands into games of four deals (Troccas) or three rounds (1659), with each game's totals."""
    size = get_game(table.game).deals_per_game
    if not size:
        return []
    out = []
    for start in range(0, len(rows), size):
        chunk = rows[start:start + size]
        out.append((start // size + 1, len(chunk), settle.totals(table.players, [r.scores for r in chunk]),
                    len(chunk) == size))
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
                        winner=winners[0], loser=losers[0], amount=fmt_money(-payouts[losers[0]], currency))
    if len(losers) == 1 and len({payouts[p] for p in winners}) == 1 and sum(payouts.values()) == 0:
        return ngettext("%(loser)s loses: pays %(winner)s %(amount)s.",
                        "%(loser)s loses: pays each of the %(num)d others %(amount)s.", len(winners),
                        loser=losers[0], winner=winners[0], amount=fmt_money(payouts[winners[0]], currency))
    if len({payouts[p] for p in winners}) == 1 and len({payouts[p] for p in losers}) == 1:
        return _("%(winners)s get %(won)s each; %(losers)s pay %(lost)s each.",
                 winners=_and(winners), won=fmt_money(payouts[winners[0]], currency),
                 losers=_and(losers), lost=fmt_money(-payouts[losers[0]], currency))
    parts = [_("%(player)s gets %(amount)s", player=p, amount=fmt_money(payouts[p], currency)) for p in winners]
    parts += [_("%(player)s pays %(amount)s", player=p, amount=fmt_money(-payouts[p], currency)) for p in losers]
    return "; ".join(parts) + "."


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else _("%(some)s and %(last)s", some=", ".join(names[:-1]), last=names[-1])


def preview(table, facts: dict) -> dict:
    """Return what the preview shows for a hand: the money in words, the engine's working, warnings."""
    try:
        result = score(table, facts)
    except ScoreError as e:
        return {"engine_error": e.render(_)}
    return {"sentence": money_sentence(settle.payouts(result.scores, table.stake), table.currency),
            "lines": render_lines(result.explanation), "warnings": render_lines(result.warnings)}


def summary(table, facts: dict) -> str:
    """Say in a few words what was declared: who, which contract, the points."""
    return say(get_game(table.game).summary(facts or {}), _)
