"""Settling an evening up: who pays whom in the fewest payments, rounded to the currency's coin; each line marked
paid as it is paid (who, when; Undo). An evening of a circle is settled in its season: its page shows the circle's
one ledger (web/ledger.py), this evening included, and marks lines there, so both pages agree at every moment."""
from __future__ import annotations

from flask import Blueprint, flash, get_flashed_messages, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import store
from ...engine import evening, settle
from ...engine.evening import Setup
from .. import ledger, said
from ..access import load, role, viewer_ok
from ..links import external
from ..parse import digits
from ..table_form import new_token

bp = Blueprint("settle", __name__)


def season_of(table):
    """The circle this evening is settled in, as this request's key sees it, if it shows the money; else None (an
    evening of no circle, or a watcher kept from a circle's money: the evening's own lines)."""
    if table.circle_id is None:
        return None
    circle = store.get_circle(table.circle_id, store.VIEWER if role() == store.VIEWER else store.SCORER)
    return circle if circle.shows_money() else None


def open_lines(table, e, circle=None) -> tuple[settle.Settlement, list, list]:
    """Return the settlement of what is still owed, the marks the page lists, and those a new mark must count (a
    line marked twice on two phones is marked once): the evening's balances less its lines marked paid; for an
    evening of a circle, the season's (the pot's rule included) less every line of the season."""
    if circle is not None:
        paid = [p for p in store.paid_in_circle(circle.id) if p.currency == table.currency]
        remaining = ledger.owed(circle).get(table.currency) or settle.settle({}, table.currency)
        return remaining, paid, [p for p in paid if p.table_id is None]
    paid = store.paid_for_table(table.id)
    owed = settle.after_payments(e.money, [(p.payer, p.payee, p.amount) for p in paid if p.currency == table.currency])
    return settle.settle(owed, table.currency), paid, paid


@bp.get("/t/<table_id>/settle")
@viewer_ok
def show(table_id):
    """Settling up: who pays whom, in the fewest payments, and the lines marked paid."""
    table, game = load(table_id)
    e = evening.build(Setup.of(table), store.list_hands(table.id), range(0))  # no sentences: settling shows none
    circle = season_of(table)
    remaining, paid, counted = open_lines(table, e, circle)
    marks = {}  # how many live marks of each line the page shows: a mark posted from it must still see as many
    for p in counted:
        marks[(p.payer, p.payee, p.amount)] = marks.get((p.payer, p.payee, p.amount), 0) + 1
    watch = external("live.view", table_id=store.share_links(table.id)[store.VIEWER])
    text = said.settle_text(_(game.name), table.day, remaining.transfers, table.currency, e.money, watch)
    return render_template("table/settle.html", table=table, game=game, b=e, s=settle.settle(e.money, table.currency),
                           share_text=text, season=circle,
                           remaining=remaining, paid=paid, marks=marks, bank=settle.BANK, token=new_token(),
                           coin=settle.COINS.get(table.currency, 1),
                           message=next(iter(get_flashed_messages(category_filter=["message"])), None))


@bp.post("/t/<table_id>/settle/paid")
def paid(table_id):
    """Mark one line of what is still owed paid; a line no longer owed (paid on another phone) is said, not marked
    twice."""
    table, _game = load(table_id)
    line = (request.form.get("payer", ""), request.form.get("payee", ""), digits(request.form.get("amount")))
    token, seen = request.form.get("token"), digits(request.form.get("seen")) or 0
    circle = season_of(table)
    try:
        if circle is not None:
            ledger.mark_paid(circle, *line, table.currency, token, seen)
        else:
            _mark_evening_paid(table, line, token, seen)
    except store.AlreadyPaid:
        flash(_("That line isn't owed any more (marked paid on another phone, or the hands changed): here is what "
                "is owed now."), "message")
    return redirect(url_for("settle.show", table_id=table.id), 303)


def _mark_evening_paid(table, line: tuple, token: str | None, seen: int) -> None:
    """Mark a line of an evening in no circle paid; store.AlreadyPaid if it isn't owed now. The line is found owed at
    the table's version, and marked only if the version is still that under the table's lock: else it is worked out
    again (a hand saved or changed on another phone in between), as a circle's line is (ledger.mark_paid)."""
    for _try in range(ledger.TRIES):
        version = store.table_version(table.id)  # read first: a hand saved after it moves it on
        remaining, _paid, _counted = open_lines(table, evening.build(Setup.of(table), store.list_hands(table.id),
                                                                      range(0)))
        if line not in {(t.payer, t.payee, t.amount) for t in remaining.transfers}:
            raise store.AlreadyPaid()
        try:
            store.mark_paid(*line, table.currency, table_id=table.id, token=token, seen=seen, version=version)
            return
        except store.Moved:
            continue  # another phone changed the evening since: is the line still owed?
    raise store.AlreadyPaid()


@bp.post("/t/<table_id>/settle/unpaid")
def unpaid(table_id):
    """Undo a mark: the line is owed again (for an evening of a circle, a line of its season too)."""
    table, _game = load(table_id)
    payment = digits(request.form.get("payment")) or 0
    in_season = season_of(table) is not None
    shown = {p.id: p for p in (store.paid_in_circle(table.circle_id) if in_season else store.paid_for_table(table.id))}
    done = store.unmark_paid(payment, table_id=table.id)
    if not done and in_season:
        done = store.unmark_paid(payment, circle_id=table.circle_id)
    flash(ledger.taken_back(shown.get(payment) if done else None), "message")
    return redirect(url_for("settle.show", table_id=table.id), 303)
