"""Circles: the same players, evening after evening (issue 26). A circle's page lists every evening (table) it has
played, so a phone with its link finds them all; the season's standings per game and period; who owes whom.

A circle is reached only through its links, as a table is: the scorer link opens evenings and adds tables, the
watch link sees the same page and changes nothing. A new scorer link turns the old one off.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from datetime import date, datetime, timezone

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import format_date
from flask_babel import gettext as _

from ... import store
from ...engine import season
from ...engine.games import get_game
from ...engine.settle import BANK, COINS
from ...store import circles
from ...engine import evening
from ...engine.evening import Setup
from ..bounds import invisible
from ..l10n import locale_id, money, say
from ..parse import amount_minor
from ..seating_check import name_problem, tidy
from ..table_form import new_token
from ..chart import season_chart
from .. import said
from . import circle_file
from ..links import external
from ..spreadsheet import as_text, decimal, spreadsheet_dialect
from ..table_file import BadImport, read_upload
from ..kept import of_app
from ..parse import digits

bp = Blueprint("circles", __name__)

MAX_CIRCLE_NAME = 80
PERIODS = ("month", "year", "all", "dates")


def load(key: str):
    """Return the circle a link opens, or a friendly 404 (no such link) or 410 (a scorer link turned off)."""
    circle = circles.find_circle(key)
    if circle is None:
        abort(404)
    if not circle.active:
        return None
    return circle


def _name(text: str | None) -> tuple[str, str | None]:
    """Return the circle's name as written (spaces tidied) and a message if it can't be one."""
    name = " ".join((text or "").split())
    if not name:
        return name, _("Give the circle a name, e.g. “Thursdays at the Krone”.")
    if len(name) > MAX_CIRCLE_NAME or any(not ch.isprintable() for ch in name):
        return name, _("A circle's name is at most %(n)s letters, without control characters.", n=MAX_CIRCLE_NAME)
    return name, None


def _table_key(text: str | None) -> str:
    """Return the key at the end of a table's link as pasted (a whole address or the key alone)."""
    text = (text or "").strip().rstrip("/")
    return text.rsplit("/", 1)[-1].split("?", 1)[0].split("#", 1)[0]


@bp.route("/circles/new", methods=["GET", "POST"])
def new_circle():
    """Start a circle; from a table ("these players meet again") the table becomes its first evening."""
    table_key = request.values.get("table", "")
    access = store.find_link(table_key) if table_key else None
    if access is not None and (access.role == store.VIEWER or not access.active
                               or circles.circle_of(access.table_id) is not None):
        access = None  # only who may change a table may put it in a circle, and only in one
    name, error = (request.form.get("name"), None) if request.method == "GET" else _name(request.form.get("name"))
    if request.method == "POST" and error is None:
        key = circles.create_circle(name)
        if access is not None:
            try:
                circles.join_circle(access.table_id, circles.find_circle(key).id)
            except store.InAnotherCircle:
                pass  # another circle took the table meanwhile (it was free on this form): this one starts empty
        return redirect(url_for("circles.show", key=key), 303)
    return render_template("circle/new.html", name=name or "", error=error, table_key=table_key if access else "",
                           max_name=MAX_CIRCLE_NAME)


def evenings(circle_id: str) -> list[tuple]:
    """Return (table, hands, season.Evening) for each table of the circle, oldest first: the season's facts of each.

    An evening's totals are kept per table version (_totals): a circle's page scores only the evenings that changed
    since it was last shown, however many it has.
    """
    out = []
    for table in circles.circle_tables(circle_id):
        hands, units, money_won, _numbers = _totals(table)
        when = table.created_at if table.created_at.tzinfo else table.created_at.replace(tzinfo=timezone.utc)
        out.append((table, hands, season.Evening(table.id, table.game, when.date(), table.currency, units, money_won)))
    return out


TOTALS_KEPT = 50_000  # evenings' totals kept per app process: a few hundred bytes each


def _totals(table) -> tuple[int, dict, dict, object]:
    """Return (hands, units, money, the evening in numbers) of a table's evening, worked out once per version."""
    kept = of_app("evening totals", TOTALS_KEPT)
    found = kept.at(table.id, table.version)
    if found is not None:
        return found
    at, hands = store.hands_at(table.id)
    if at is not None and at != table.version:  # saved meanwhile: these hands are of version `at`
        table = replace(table, version=at, **{k: getattr(store.get_table(table.id), k)
                                              for k in ("players", "stake", "rules")})
    e = evening.build(Setup.of(table), hands, range(0))  # totals only: no sentences
    totals = (len(e.rows), dict(e.units), dict(e.money), evening.numbers(e))
    kept.keep(table.id, table.version, totals)
    return totals


@bp.get("/c/<key>")
def show(key):
    circle = load(key)
    if circle is None:
        return render_template("app/error.html", status=410, message=_(
            "This scorer link was replaced by a new one. Ask the circle's scorer for the new link, or for the link "
            "to watch.")), 410
    return show_page(circle, key)


SHOWN = 12  # evenings the circle's page lists, newest first; all of them are a tap away


def evening_rows(played: list, scorer: bool, most: int | None = None) -> list:
    """The circle's evenings as its list shows them, newest first: the newest `most` (None: all) with their links
    (a scorer's page, or the watch page on a watch link), the rest counted only."""
    newest = played[::-1]
    shown = newest if most is None else newest[:most]
    links = store.share_links_of([t.id for t, _n, _e in shown])
    rows = []
    for table, hands, e in shown:
        keys = links[table.id]
        href = (url_for("tables.show", table_id=keys[store.SCORER]) if scorer
                else url_for("live.view", table_id=keys[store.VIEWER]))
        rows.append({"table": table, "hands": hands, "href": href, "when": format_date(e.played_on, "medium"),
                     "game": get_game(table.game)})
    return rows + [None] * (len(newest) - len(shown))  # counted, not shown


def chosen_dates(args) -> tuple[date | None, date | None, dict]:
    """Read the dates of the circle's choosing (?from=&to=, as a date field sends them): (start, end, errors)."""
    errors, out = {}, []
    for field in ("from", "to"):
        text = (args.get(field) or "").strip()
        try:
            out.append(date.fromisoformat(text) if text else None)
        except ValueError:
            out.append(None)
            errors[field] = _("Write a date such as 2026-11-27.")
    if not errors and out[0] and out[1] and out[0] > out[1]:
        errors["to"] = _("The last day comes before the first: swap them.")
    return out[0], out[1], errors


def pot_of(circle, played: list | None = None) -> dict:
    """The pot: its entries (newest first), what its rule brought from the hands (per currency and person), and
    what it holds in each currency: the sum of both."""
    entries = store.pot_entries_of(circle.id)
    by_rule = pot_rule_money(circle, evenings(circle.id) if played is None else played)
    holds: dict[str, int] = {c: sum(amount for _lost, amount in people.values()) for c, people in by_rule.items()}
    for entry in entries:
        holds[entry.currency] = holds.get(entry.currency, 0) + entry.amount
    return {"entries": entries[::-1], "holds": holds, "by_rule": by_rule, "rule": circle.pot_per_lost_hand}


def pot_rule_money(circle, played: list) -> dict:
    """What the pot's rule brought from every evening: {currency: {name: (hands lost, amount)}}."""
    return season.pot_by_rule([(e, _totals(t)[3]) for t, _n, e in played], circle.pot_per_lost_hand)


def rule_totals(circle) -> dict[str, int]:
    """What the pot's rule brought, per currency (the pot holds it too: a withdrawal may take it)."""
    return {c: sum(a for _l, a in people.values()) for c, people in pot_rule_money(circle, evenings(circle.id)).items()}


def season_settle(evenings: list, paid: list, currency: str):
    """Who pays whom to settle what is still owed in `currency` over the evenings, in the fewest payments."""
    return season.settlement(evenings, [(p.payer, p.payee, p.amount) for p in paid if p.currency == currency],
                             currency)


def show_page(circle, key, errors=None, person="", name="", status=200, pot_errors=None, template="circle/page.html"):
    """The circle's page: its standings, the season's settling up, its people, its evenings."""
    tag = circles.circle_tag(circle.id)  # read before the evenings: a change meanwhile is a newer tag, polled again
    played = evenings(circle.id)
    period = request.args.get("period") if request.args.get("period") in PERIODS else "all"
    games = sorted({t.game for t, _n, _e in played})
    game = request.args.get("game") if request.args.get("game") in games else None
    today = datetime.now(timezone.utc).date()
    counted = [e for _t, _n, e in played if game is None or e.game == game]
    start, end, date_errors = chosen_dates(request.args)
    if period == "dates" and not date_errors:
        counted = season.between(counted, start, end)
    else:
        counted = season.in_period(counted, period, today)
    scorer = circle.role == store.SCORER
    money_shown = circle.shows_money()  # a watch link may be kept from the money and the ranking
    main = season.main_currency(counted) if money_shown else None
    people_order, steps = season.money_steps(counted, main) if main else ([], [])
    standing = season.standings(counted)
    if not circle.shows_ranking():
        standing.sort(key=lambda s: s.name.casefold())
    chosen = {e.table_id for e in counted}
    across = season.numbers([(e, _totals(t)[3]) for t, _n, e in played if e.table_id in chosen], main)
    # what is still owed: every evening (whatever the filters show), less the lines marked paid
    paid = store.paid_in_circle(circle.id) if money_shown else []
    everything = [e for _t, _n, e in played]
    owed = [(c, season_settle(everything, paid, c)) for c in
            sorted({e.currency for e in everything}, key=lambda c: (c != season.main_currency(everything), c))
            ] if money_shown else []
    if money_shown:
        watch = external("circles.show", key=circles.circle_links_of(circle.id)[store.VIEWER])
        texts = {c: said.season_text(circle.name, s.transfers, c, standing, watch) for c, s in owed}
    else:
        texts = {}
    return render_template(
        template, circle=circle, key=key, tag=tag, share_texts=texts, scorer=scorer, shown=SHOWN, rows=evening_rows(played, scorer, SHOWN),
        filters={k: request.args[k] for k in ("period", "game", "from", "to") if request.args.get(k)},
        period=period, game=game, games=[get_game(g) for g in games], main=main,
        dates={"from": request.args.get("from", ""), "to": request.args.get("to", "")}, date_errors=date_errors,
        standings=standing, across=across, season_chart=season_chart(people_order, steps, main) if main else None,
        settlements=owed, paid=[p for p in paid if p.table_id is None], bank=BANK, coins=COINS,
        pot=pot_of(circle, played) if money_shown else None, pot_errors=pot_errors or {},
        form=request.form if pot_errors else {}, token=new_token(),
        people=sorted({n for _t, _n, e in played for n in e.units}, key=str.casefold), errors=errors or {},
        person=person, name=name, added=request.args.get("added"), renamed=request.args.get("renamed"),
        merged=request.args.get("merged") == "1", stale=request.args.get("stale") == "1"), status


@bp.post("/c/<key>/watch")
def watch_settings(key):
    """Choose what the circle's watch link shows: the money, the ranking."""
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    circles.set_watch(circle.id, request.form.get("money") == "y", request.form.get("ranking") == "y")
    return redirect(url_for("circles.share", key=key, saved=1), 303)


@bp.post("/c/<key>/tables")
def add_table(key):
    """Add an evening already played (or being played) to the circle, by its scorer link."""
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    access = store.find_link(_table_key(request.form.get("table")))
    if access is None or access.role == store.VIEWER or not access.active:
        message = _("That isn't a table's scorer link: paste the link you score a table with (Share → To score).")
        return show_page(circle, key, errors={"table": message}, status=400)
    try:
        circles.join_circle(access.table_id, circle.id)  # refused under the circle's lock if another has it
    except store.InAnotherCircle:
        return show_page(circle, key, errors={"table": _(
            "That table is already an evening of another circle: a table belongs to one circle.")}, status=400)
    return redirect(url_for("circles.show", key=key, added=1), 303)


@bp.get("/c/<key>/share")
def share(key):
    circle = load(key)
    if circle is None:
        abort(410)
    keys = circles.circle_links_of(circle.id)
    links = [(store.VIEWER, external("circles.show", key=keys[store.VIEWER]))]
    if circle.role == store.SCORER:
        links.append((store.SCORER, external("circles.show", key=keys[store.SCORER])))
    rotate = url_for("circles.rotate", key=key) if circle.role == store.SCORER else None
    return render_template("circle/share.html", circle=circle, key=key, links=links, rotate=rotate,
                           rotated=request.args.get("rotated") == "1", saved=request.args.get("saved") == "1")


@bp.post("/c/<key>/share/scorer")
def rotate(key):
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    new_key = circles.new_circle_scorer_link(circle.id)
    return redirect(url_for("circles.share", key=new_key, rotated=1), 303)



def seatings(tables: list) -> list[season.Seating]:
    """Who sat where in each of the circle's evenings (`tables`): the table's players now, and each hand's."""
    out = []
    for table in tables:
        hands = tuple((h.number, tuple(evening.seated(h) or table.players)) for h in store.list_hands(table.id))
        out.append(season.Seating(table.id, tuple(table.players), hands))
    return out


RENAME_TRIES = 3  # plans made again when another phone changed the circle's evenings meanwhile


@bp.post("/c/<key>/people")
def rename_person(key):
    """Rename a person in every evening of the circle; onto another person's name, the two become one (a merge).

    The plan is made from the evenings as they are, and the store writes it only if they are still so (under the
    circle's lock: store/locks.py); if another phone changed them meanwhile (a rename, a hand), it is made again."""
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    old, new = (request.form.get("person") or "").strip(), tidy(request.form.get("name") or "")
    if store.renamed_by(request.form.get("token")):  # the same form again (a double tap): done the first time
        return redirect(url_for("circles.show", key=key, renamed=new, _anchor="people"), 303)
    for _try in range(RENAME_TRIES):
        tables = circles.circle_tables(circle.id)
        played = seatings(tables)
        names = {p for e in played for p in e.players} | {p for e in played for _n, s in e.hands for p in s}
        errors, plan = _rename_plan(played, names, tables, old, new)
        if errors:
            break
        try:
            store.rename_everywhere([(r.table_id, r.players, r.renames) for r in plan],
                                    {t.id: get_game(t.game).rename for t in tables}.get, request.form.get("token"),
                                    circle.id, seen={t.id: t.version for t in tables})
        except store.Moved:
            continue  # another phone changed the circle's evenings since they were read: plan again
        merged = season.person(new) in {season.person(n) for n in names} and season.person(new) != season.person(old)
        return redirect(url_for("circles.show", key=key, renamed=new, merged=int(merged), _anchor="people"), 303)
    else:
        errors = {"name": _("The circle's evenings were changed on another phone meanwhile: look at them and rename "
                            "again.")}
    return show_page(circle, key, errors=errors, person=old, name=new, status=400)


def _rename_plan(played: list, names: set, tables: list, old: str, new: str) -> tuple[dict, list]:
    """Check a rename of `old` to `new` against the circle's evenings: ({field: message}, the plan)."""
    errors = {}
    if old not in names:
        errors["person"] = _("Choose one of the circle's people.")
    problem = name_problem(new) if new else _("Write the name this person goes by.")
    if problem:
        errors["name"] = problem
    elif not errors and old == new:
        errors["name"] = _("That is already this person's name: write another, or another person's to make them one.")
    if errors:
        return errors, []
    try:
        return {}, season.renaming(played, old, new)
    except season.BothPlayed as e:
        where = next(t for t in tables if t.id == e.table_id)
        return {"name": (_("%(a)s and %(b)s both played hand %(n)s on %(date)s: they are two people, so they "
                           "can't be made one.", a=e.names[0], b=e.names[1], n=e.hand,
                           date=format_date(where.created_at, "medium")) if e.hand is not None else
                         _("%(a)s and %(b)s both sit at the table of %(date)s: they are two people, so they "
                           "can't be made one.", a=e.names[0], b=e.names[1],
                           date=format_date(where.created_at, "medium")))}, []


@bp.post("/c/<key>/paid")
def paid(key):
    """Mark a line of the season's settling up paid; one no longer owed (marked on another phone) is said."""
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    currency = request.form.get("currency", "")
    everything = [e for _t, _n, e in evenings(circle.id)]
    owed = season_settle(everything, store.paid_in_circle(circle.id), currency)
    line = (request.form.get("payer", ""), request.form.get("payee", ""), digits(request.form.get("amount")))
    try:
        if line not in {(t.payer, t.payee, t.amount) for t in owed.transfers}:
            raise store.AlreadyPaid()
        store.mark_paid(*line, currency, circle_id=circle.id, token=request.form.get("token"),
                        seen=digits(request.form.get("seen")) or 0)
    except store.AlreadyPaid:
        return redirect(url_for("circles.show", key=key, stale=1, _anchor=f"settle-{currency}"), 303)
    return redirect(url_for("circles.show", key=key, _anchor=f"settle-{currency}"), 303)


@bp.post("/c/<key>/unpaid")
def unpaid(key):
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    store.unmark_paid(digits(request.form.get("payment")) or 0, circle_id=circle.id)
    return redirect(url_for("circles.show", key=key), 303)


MAX_NOTE = 80


def pot_form_problems(form) -> tuple[dict, dict]:
    """Read the pot's form: (values, {field: message}). An amount as people write it; in or out; who, if one of
    the circle's people; a note of at most MAX_NOTE characters."""
    errors, values = {}, {}
    try:
        values["amount"] = amount_minor(form.get("amount", ""))
    except ValueError as e:
        errors["amount"] = str(e)
    values["sign"] = -1 if form.get("direction") == "out" else 1
    values["currency"] = form.get("currency") if form.get("currency") in COINS else "CHF"
    values["who"] = tidy(form.get("who") or "") or None
    values["note"] = tidy(form.get("note") or "")
    if len(values["note"]) > MAX_NOTE or invisible(values["note"]):
        errors["note"] = _("A note is at most %(n)s characters, without control characters.", n=MAX_NOTE)
    if values["who"] and name_problem(values["who"]):
        errors["who"] = name_problem(values["who"])
    return values, errors


@bp.post("/c/<key>/pot")
def pot(key):
    """Put money into the circle's pot or take it out; a withdrawal beyond what it holds is refused at the amount."""
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    values, errors = pot_form_problems(request.form)
    if not errors:
        try:
            store.pot_add(circle.id, values["sign"] * values["amount"], values["currency"], values["note"],
                          values["who"], request.form.get("token"), rule_totals(circle).get(values["currency"], 0))
            return redirect(url_for("circles.show", key=key, _anchor="pot"), 303)
        except store.PotShort as e:
            errors["amount"] = _("The pot holds %(holds)s: it can't give out more than that (it is the table's cash, "
                                 "and a tin can't go below empty).", holds=money(e.holds, values["currency"]))
    return show_page(circle, key, pot_errors=errors, status=400)


@bp.post("/c/<key>/pot/undo")
def pot_undo(key):
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    try:
        store.pot_undo(circle.id, digits(request.form.get("entry")) or 0, rule_totals(circle))
    except store.PotShort as e:
        return show_page(circle, key, pot_errors={"undo": _(
            "Taking that back would leave the pot below empty (it holds %(holds)s): take back the later withdrawal "
            "first.", holds=money(e.holds, request.form.get("currency") or "CHF"))}, status=400)
    return redirect(url_for("circles.show", key=key, _anchor="pot"), 303)


@bp.get("/c/<key>/live")
def live(key):
    """Answer a watching phone's poll of the circle: nothing (204) while nothing changed since the tag its page
    shows, else the board (standings, chart, what is owed, the pot, the evenings) and the poll with its new tag."""
    circle = load(key)
    if circle is None:
        return Response(status=286)  # htmx stops polling: this link was turned off (the page says so when reloaded)
    if request.args.get("since") == circles.circle_tag(circle.id):
        return Response(status=204)
    body, _status = show_page(circle, key, template="circle/_poll.html")
    response = Response(body)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/c/<key>/evenings")
def all_evenings(key):
    """Every evening of the circle, newest first: none is ever lost."""
    circle = load(key)
    if circle is None:
        abort(410)
    played = evenings(circle.id)
    return render_template("circle/evenings.html", circle=circle, key=key, scorer=circle.role == store.SCORER,
                           rows=evening_rows(played, circle.role == store.SCORER), shown=len(played))


@bp.get("/c/<key>/export.json")
def export_json(key):
    """The whole circle as one file: importing it restores the circle, its evenings, its marks and its pot."""
    circle = load(key)
    if circle is None:
        abort(410)
    if not circle.shows_money():
        return render_template("app/error.html", status=403, message=_(
            "This circle keeps its money from the watch link, and its file holds the money: ask its scorer.")), 403
    body = json.dumps(circle_file.circle_json(circle), ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="circle.json"'})


@bp.get("/c/<key>/export.csv")
def export_csv(key):
    """The season for a spreadsheet: one row per hand, with its evening's date and game, each person's score in
    that game's unit and money in the evening's currency (the same dialect as a table's CSV: web/table/exports.py)."""
    circle = load(key)
    if circle is None:
        abort(410)
    if not circle.shows_money():
        return render_template("app/error.html", status=403, message=_(
            "This circle keeps its money from the watch link, and its file holds the money: ask its scorer.")), 403
    tables = circles.circle_tables(circle.id)
    built = [(t, evening.build(Setup.of(t), store.list_hands(t.id))) for t in tables]
    people = list(dict.fromkeys(season.person(p) for _t, e in built for p in e.players))
    spelled = {season.person(p): p for _t, e in built for p in e.players}
    currencies = sorted({t.currency for t in tables})
    dialect = spreadsheet_dialect(locale_id())
    out = io.StringIO()
    out.write("\ufeff")
    w = csv.writer(out, delimiter=dialect.delimiter)
    w.writerow([as_text(_("Date")), as_text(_("Game")), as_text(_("Hand")), as_text(_("Dealer")), as_text(_("What"))]
               + [as_text(spelled[p]) for p in people]
               + [as_text(f"{spelled[p]} ({c})") for c in currencies for p in people])
    for table, e in built:
        when = format_date(table.created_at, "short")
        by_person = {season.person(p): p for p in e.players}
        for r in e.rows:
            units = [dialect.number(r.scores[by_person[p]]) if p in by_person and by_person[p] in r.scores else ""
                     for p in people]
            money_cells = [dialect.number(decimal(r.payouts[by_person[p]]))
                           if c == table.currency and p in by_person and by_person[p] in r.payouts else ""
                           for c in currencies for p in people]
            w.writerow([when, as_text(_(e.game.name)), r.index, as_text(r.dealer),
                        as_text(say(r.summary) if r.summary else "")] + units + money_cells)
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="circle.csv"'})


@bp.route("/circles/import", methods=["GET", "POST"])
def import_circle():
    """Restore a circle from its file, under new addresses: all of it, or nothing and a sentence saying why."""
    message = None
    if request.method == "POST":
        try:
            data = read_upload(request.files.get("file"), _("Choose a circle's JSON export (at most 2 MB)."))
            key = circles.import_circle(*circle_file.parse_circle(data))
            return redirect(url_for("circles.show", key=key), 303)
        except BadImport as e:
            message = str(e)
    return render_template("circle/import.html", message=message), 400 if message else 200


@bp.post("/c/<key>/pot/rule")
def pot_rule(key):
    """The table's rule for the pot: each hand lost by whoever took it on pays this much in (empty or 0: none)."""
    circle = load(key)
    if circle is None or circle.role != store.SCORER:
        abort(403)
    text = (request.form.get("per_lost_hand") or "").strip()
    try:
        amount = amount_minor(text) if text not in ("", "0") else 0
    except ValueError as e:
        return show_page(circle, key, pot_errors={"rule": str(e)}, status=400)
    circles.set_pot_rule(circle.id, amount)
    return redirect(url_for("circles.show", key=key, _anchor="pot"), 303)
