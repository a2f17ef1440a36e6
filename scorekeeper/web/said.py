"""The evening in the reader's words: a hand's money in a sentence, a change of the table, the preview.

The evening itself (engine/evening.py) holds the engine's Lines and plain data; this says them in this request's
language and way of writing money.
"""
from __future__ import annotations

from dataclasses import replace

from flask_babel import gettext as _
from flask_babel import ngettext

from ..engine import evening, settle
from ..engine.errors import ScoreError
from ..engine.evening import DAMAGED, Setup
from .house_rules import in_words, option_title
from .l10n import isolated, money, say, signed


def lines(lines) -> list[str]:
    """Say the engine's Lines through the translation catalogue."""
    return [say(ln) for ln in lines]


def as_played(table, hand):
    """Return the table as it was when this hand was played: its players, stake and house rules then.

    Raise evening.Damaged if the hand's stored setup can't be read."""
    under = evening.played_under(Setup.of(table), hand)
    return replace(table, players=under.players, stake=under.stake, rules=under.rules)


def score(table, facts: dict):
    """Score one hand's facts with the engine under the table's setup (raises ScoreError)."""
    return evening.score(Setup.of(table), facts)


def summary(table, facts: dict) -> str:
    """Say in a few words what was declared: who, which contract, the points."""
    return say(evening.summary(Setup.of(table), facts))


def changes(changes, game, currency: str) -> list[str]:
    """Say what changed at the table (engine.evening.Change): who joined or left, the stake, a house rule."""
    out = []
    for c in changes:
        if c.what == "joins":
            out.append(_("%(name)s joins", name=c.value))
        elif c.what == "leaves":
            out.append(_("%(name)s leaves", name=c.value))
        elif c.what == "stake":
            out.append(_("stake %(money)s", money=money(c.value, currency)))
        else:
            out.append(_("%(rule)s: %(value)s", rule=option_title(c.name, game), value=in_words(c.value, game, c.name)))
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
    return clauses(parts) + "."


def clauses(parts: list[str]) -> str:
    """Join clauses with semicolons as the reader's language sets them (French: a narrow space before each)."""
    return " ".join([_("%(clause)s;", clause=part) for part in parts[:-1]] + parts[-1:])


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
        return {"engine_error": say(evening.DAMAGED_FACTS)}
    return {"sentence": money_sentence(settle.payouts(result.money_units, table.stake), table.currency),
            "lines": lines(result.explanation), "warnings": lines(result.warnings)}


def table_changes(b, row=None) -> str:
    """Say a row's changes of the table (or the evening's pending ones), joined: the templates' `changes_said`."""
    return clauses(changes(row.changes if row is not None else b.pending, b.game, b.setup.currency))



def transfer_text(t, currency: str) -> str:
    """One line of who pays whom (anything with payer, payee and amount), as a sentence: the pot (settle.BANK) has
    sentences of its own, since the case it takes differs from a name's ("zahlt in die Kasse", "verse à la
    caisse")."""
    amount = money(t.amount, currency)
    if t.payee == settle.BANK:
        return _("%(payer)s pays %(amount)s into the pot", payer=isolated(t.payer), amount=amount)
    if t.payer == settle.BANK:
        return _("The pot pays %(payee)s %(amount)s", payee=isolated(t.payee), amount=amount)
    return _("%(payer)s pays %(payee)s %(amount)s", payer=isolated(t.payer), payee=isolated(t.payee), amount=amount)


def paid_text(p) -> str:
    """A line marked paid (anything with payer, payee, amount and currency), as a sentence, the pot's in its own."""
    amount = money(p.amount, p.currency)
    if p.payee == settle.BANK:
        return _("%(payer)s paid %(amount)s into the pot", payer=isolated(p.payer), amount=amount)
    if p.payer == settle.BANK:
        return _("The pot paid %(payee)s %(amount)s", payee=isolated(p.payee), amount=amount)
    return _("%(payer)s paid %(payee)s %(amount)s", payer=isolated(p.payer), payee=isolated(p.payee), amount=amount)


def settle_text(game_name: str, when, transfers, currency: str, totals: dict, watch: str) -> str:
    """The settle-up for the group chat, in the reader's language: the evening, who pays whom, the totals, the
    watch link. Plain text, one line each."""
    from flask_babel import format_date
    lines = [_("%(game)s, %(date)s", game=game_name, date=format_date(when, "medium"))]
    lines += [transfer_text(t, currency) for t in transfers] or [_("Nobody owes anything.")]
    lines.append(_("Totals: %(totals)s", totals=", ".join(f"{isolated(p)} {money(v, currency, signed=True)}"
                                                              for p, v in totals.items())))
    lines.append(_("Scoreboard: %(url)s", url=watch))
    return "\n".join(lines)


def hand_said(row, kind: str) -> str:
    """Say a hand's result as it was saved or changed: "Hand 7 saved: Gaston +198"."""
    result = _won(row)
    if kind == "saved":
        return _("Hand %(n)s saved: %(result)s", n=row.index, result=result)
    return _("Hand %(n)s changed: %(result)s", n=row.index, result=result)


def _won(row) -> str:
    won = [f"{isolated(p)} {signed(u)}" for p, u in row.scores.items() if u > 0]
    return ", ".join(won) if won else _("nobody wins")


def hand_text(table, b, row) -> str:
    """A hand for the group chat, in the reader's language: the evening, the hand (what was played, who won),
    the evening's totals (points, and money when there is a stake). The watch link is the page's
    (static/share_text.js adds it), so a Save's answer needn't look it up."""
    from flask_babel import format_date
    lines = [_("%(game)s, %(date)s", game=_(b.game.name), date=format_date(table.day, "medium"))]
    what = say(row.summary) if row.summary else None
    lines.append(_("Hand %(n)s: %(message)s", n=row.index, message=f"{what} – {_won(row)}" if what else _won(row)))
    staked = any(b.money.values())
    lines.append(_("Totals: %(totals)s", totals=", ".join(
        f"{isolated(p)} {signed(b.units[p])}" + (f" ({money(b.money[p], table.currency, signed=True)})" if staked else "")
        for p in b.players)))
    return "\n".join(lines)


def season_text(name: str, transfers, currency: str, standings, watch: str) -> str:
    """The season's settling up for the group chat: the circle, who pays whom, each person's money, its link."""
    lines = [name]
    lines += [transfer_text(t, currency) for t in transfers] or [_("Nobody owes anything.")]
    lines.append(_("Totals: %(totals)s", totals=", ".join(
        f"{isolated(s.name)} {money(s.money.get(currency, 0), currency, signed=True)}" for s in standings)))
    lines.append(_("Scoreboard: %(url)s", url=watch))
    return "\n".join(lines)
