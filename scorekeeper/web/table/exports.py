"""A table as CSV (for a spreadsheet) and as JSON (importing it restores the table exactly)."""
from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import store
from ...engine import evening
from ...engine.evening import Setup
from .. import said
from ..access import load, viewer_ok
from ..l10n import locale_id, say
from ..spreadsheet import Sheet, as_text, attachment, file_name
from ..table_file import BadImport, parse, read_upload, table_json


bp = Blueprint("exports", __name__)


@bp.get("/t/<table_id>/export.json", endpoint="json")
@viewer_ok
def json_file(table_id):
    """The whole table as one file: importing it restores the table and every hand."""
    table, _game = load(table_id)
    body = json.dumps(table_json(table, store.list_hands(table.id)), ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": attachment(file_name(_(_game.name), table.day.isoformat(),
                                                                         suffix=".json"))})


@bp.get("/t/<table_id>/export.csv", endpoint="csv")
@viewer_ok
def csv_file(table_id):
    """The evening for a spreadsheet: one row per hand, each player's units and money, the totals."""
    table, _game = load(table_id)
    b = evening.build(Setup.of(table), store.list_hands(table.id))  # the summaries, not the working
    sheet = Sheet(locale_id(table.currency))
    players = list(b.players)  # who left the table is still in the export, after the others
    unit = _(b.game.unit_label)  # the game's own word, as the totals head it ("points", "stakes"…)
    sheet.row([as_text(_("Hand")), as_text(_("Dealer")), as_text(_("What"))]
              + [as_text(f"{p} ({unit})") for p in players]
              + [as_text(f"{p} ({table.currency})") for p in players] + [as_text(_("Changes"))])
    for r in b.rows:
        sheet.row([r.index, as_text(r.dealer), as_text(say(r.summary) if r.summary else "")]
                  + [sheet.number(r.scores[p]) if p in r.scores else "" for p in players]
                  + [sheet.money(r.payouts[p]) if p in r.payouts else "" for p in players]
                  + [as_text(said.clauses(said.changes(r.changes, b.game, table.currency)))])
    sheet.row([as_text(_("Total")), "", ""] + [sheet.number(b.units[p]) for p in players]
              + [sheet.money(b.money[p]) for p in players])
    return sheet.answer(file_name(_(b.game.name), table.day.isoformat(), suffix=".csv"))


@bp.route("/tables/import", methods=["GET", "POST"])
def import_table():
    """Restore a table from its file, under new addresses: all of it, or nothing and a sentence saying why."""
    message = None
    if request.method == "POST":
        try:
            data = read_upload(request.files.get("file"), _("Choose a table's JSON export (at most 2 MB)."))
            table = store.import_table(*parse(data))
            return redirect(url_for("tables.show", table_id=table.id), 303)
        except BadImport as e:
            message = str(e)
    return render_template("table/import.html", message=message), 400 if message else 200
