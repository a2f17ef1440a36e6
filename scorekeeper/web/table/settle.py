"""Settling an evening up: who pays whom in the fewest payments, rounded to the currency's coin; each line marked
paid as it is paid (who, when; Undo), so the table and its circle know what is still owed."""
from __future__ import annotations

from flask import Blueprint, flash, get_flashed_messages, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import store
from ...engine import evening, settle
from ...engine.evening import Setup
from .. import said
from ..access import load, viewer_ok
from ..links import external
from ..parse import digits
from ..table_form import new_token

bp = Blueprint("settle", __name__)


def open_lines(table, e) -> tuple[settle.Settlement, list]:
    """Return the settlement of what is still owed (the evening's balances less the lines marked paid) and the
    marks."""
    paid = store.paid_for_table(table.id)
    owed = settle.after_payments(e.money, [(p.payer, p.payee, p.amount) for p in paid if p.currency == table.currency])
    return settle.settle(owed, table.currency), paid


@bp.get("/t/<table_id>/settle")
@viewer_ok
def show(table_id):
    """Settling up: who pays whom, in the fewest payments, and the lines marked paid."""
    table, game = load(table_id)
    e = evening.build(Setup.of(table), store.list_hands(table.id), range(0))  # no sentences: settling shows none
    remaining, paid = open_lines(table, e)
    marks = {}  # how many live marks of each line the page shows: a mark posted from it must still see as many
    for p in paid:
        marks[(p.payer, p.payee, p.amount)] = marks.get((p.payer, p.payee, p.amount), 0) + 1
    watch = external("live.view", table_id=store.share_links(table.id)[store.VIEWER])
    text = said.settle_text(_(game.name), table.created_at, remaining.transfers, table.currency, e.money, watch)
    return render_template("table/settle.html", table=table, game=game, b=e, s=settle.settle(e.money, table.currency),
                           share_text=text,
                           remaining=remaining, paid=paid, marks=marks, bank=settle.BANK, token=new_token(),
                           coin=settle.COINS.get(table.currency, 1),
                           message=next(iter(get_flashed_messages(category_filter=["message"])), None))


@bp.post("/t/<table_id>/settle/paid")
def paid(table_id):
    """Mark one line of what is still owed paid; a line no longer owed (paid on another phone) is said, not marked
    twice."""
    table, _game = load(table_id)
    e = evening.build(Setup.of(table), store.list_hands(table.id), range(0))
    remaining, _paid = open_lines(table, e)
    line = (request.form.get("payer", ""), request.form.get("payee", ""), digits(request.form.get("amount")))
    try:
        if line not in {(t.payer, t.payee, t.amount) for t in remaining.transfers}:
            raise store.AlreadyPaid()
        store.mark_paid(*line, table.currency, table_id=table.id, token=request.form.get("token"),
                        seen=digits(request.form.get("seen")) or 0)
    except store.AlreadyPaid:
        flash(_("That line isn't owed any more (marked paid on another phone, or the hands changed): here is what "
                "is owed now."), "message")
    return redirect(url_for("settle.show", table_id=table.id), 303)


@bp.post("/t/<table_id>/settle/unpaid")
def unpaid(table_id):
    """Undo a mark: the line is owed again."""
    table, _game = load(table_id)
    store.unmark_paid(digits(request.form.get("payment")) or 0, table_id=table.id)
    return redirect(url_for("settle.show", table_id=table.id), 303)
