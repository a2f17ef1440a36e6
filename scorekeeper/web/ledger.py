"""A circle's money as one ledger: what each evening owes, what the pot's rule asks, every line marked paid
(on an evening's settle-up or the circle's). The circle's settle-up and each of its evenings' ask it, so both say
the same "who still owes whom" at every moment (engine/season.py works it out; this reads its facts)."""
from __future__ import annotations

from typing import NamedTuple

from flask_babel import gettext as _

from .. import store
from ..engine import season
from ..engine.settle import BANK
from . import scoreboard
from .kept import of_app
from .l10n import isolated, money


class Evening(NamedTuple):
    """One evening of a circle: its table (as its totals were worked out) and what the season counts of it."""

    table: object
    played: season.Played


EVENINGS_KEPT = 20_000  # evenings kept in circles' lists per app process, all circles together (~1 KB each)


def evenings(circle_id: str, tag: str | None = None) -> list[Evening]:
    """The circle's evenings, oldest first, each with its totals from the evening kept for its table's version
    (web/scoreboard.py: a page scores only the evenings that changed since it was last shown).

    With the circle's `tag` as the caller read it (store.circle_page_tag: every table's version is in it), the list is
    read once per tag: a circle's page shown again, unchanged, reads none of its evenings (100 evenings: 100 tables'
    rows read and their kept totals looked up, on every page and every changed poll of a watching phone)."""
    kept = of_app("circle-evenings", EVENINGS_KEPT, weight=len)  # under (circle, tag): a tag has no order
    if tag is not None and (found := kept.at((circle_id, tag), 0)) is not None:
        return found
    out = []
    for table in store.circle_tables(circle_id):
        table, totals = scoreboard.totals(table)
        out.append(Evening(table, season.Played.of(table.id, table.day, totals)))
    if tag is not None:  # an older tag's list goes when unused longest
        kept.keep((circle_id, tag), 0, out)
    return out


PAGES_KEPT = 200  # circles' pages worked out, per app process, all circles together


def season_page(circle_id: str, tag: str, played: list[Evening], filters: season.Filters, today, *, money: bool,
                ranking: bool, **given) -> season.SeasonPage:
    """season.page of the circle's evenings (`played`, read at `tag`), worked out once per circle tag, filters, day
    and what the link shows (`money`, `ranking`): the tag names everything else it is given (`given`: the lines
    marked paid, the pot's entries and rule), so a page or a changed poll shown again adds up no evening."""
    kept = of_app("circle-pages", PAGES_KEPT)
    key = (circle_id, tag, filters, today, money, ranking)
    found = kept.at(key, 0)
    if found is None:
        found = season.page([e.played for e in played], filters, today, money=money, ranking=ranking, **given)
        kept.keep(key, 0, found)
    return found


def owed(circle, played: list[Evening] | None = None, paid: list | None = None) -> dict:
    """What is still owed over the circle's season: {currency: Settlement}, the pot's rule included."""
    played = evenings(circle.id) if played is None else played
    paid = store.paid_in_circle(circle.id) if paid is None else paid
    return dict(season.owed([e.played for e in played], paid, store.pot_rule_of(circle.id)))


TRIES = 3  # a line worked out again when the circle changed between finding it owed and marking it


def mark_paid(circle, payer: str, payee: str, amount: int | None, currency: str, token: str | None,
              seen: int) -> None:
    """Mark a line of the season paid, from the circle's page or an evening's; store.AlreadyPaid if it isn't owed
    now (marked on another phone, the hands or the pot's rule changed). The line is found owed at the circle's tag,
    and marked only if the tag is still that under the circle's lock: else it is worked out again."""
    for _try in range(TRIES):
        tag = store.circle_tag(circle.id)
        settlement = owed(circle).get(currency)
        if settlement is None or (payer, payee, amount) not in {(t.payer, t.payee, t.amount)
                                                                for t in settlement.transfers}:
            raise store.AlreadyPaid()
        try:
            store.mark_paid(payer, payee, amount, currency, circle_id=circle.id, token=token, seen=seen, tag=tag)
            return
        except store.Moved:
            continue  # another phone changed the circle since: is the line still owed?
    raise store.AlreadyPaid()


def paid_to_pot(circle) -> dict[str, int]:
    """What the lines marked paid brought the pot, per currency (it holds that too: a withdrawal may take it)."""
    return season.paid_to_pot(store.paid_in_circle(circle.id))


def taken_back(mark) -> str:
    """Say what an Undo of a paid mark did (`mark`: the mark it took back, None: it was taken back already), in one
    sentence: the line is owed again, on every page of the season (they are views of this ledger)."""
    if mark is None:
        return _("That mark was already taken back (on this phone or another): nothing changed.")
    amount = money(mark.amount, mark.currency)
    if mark.payee == BANK:  # the pot in words of its own (the case it takes differs from a name's)
        return _("Taken back: %(payer)s owes the pot %(amount)s again.", payer=isolated(mark.payer), amount=amount)
    if mark.payer == BANK:
        return _("Taken back: the pot owes %(payee)s %(amount)s again.", payee=isolated(mark.payee), amount=amount)
    return _("Taken back: %(payer)s owes %(payee)s %(amount)s again.", payer=isolated(mark.payer),
             payee=isolated(mark.payee), amount=amount)
