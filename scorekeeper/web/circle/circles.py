"""Circles: the same players, evening after evening (issue 26). A circle's page lists every evening (table) it has
played, so a phone with its link finds them all; the season's standings per game and period; who owes whom.

A circle is reached only through its links, as a table is, and guarded the same way (web/access.py): every URL
names it by a key (`<circle_id>`); a watch link opens only the views marked @viewer_ok, and only to look; the
scorer link does the rest; a turned-off link gets one sentence and a 410. Its board is one more client of the
scoreboard's protocol (web/scoreboard.py: the ETag of its version, 304, the regions declared there), its evenings'
totals come from the evenings kept for the table pages, and its page is engine/season.py's `page`, rendered.
"""
from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, datetime, timezone

from flask import Blueprint, Response, flash, get_flashed_messages, redirect, render_template, request, url_for
from flask_babel import format_date
from flask_babel import gettext as _
from flask_babel import ngettext

from ... import store
from ...engine import evening, season
from ...engine.evening import Setup
from ...engine.season_cup import MOST_PLACES, SEASON_RULES, season_ranking
from ...engine.games import get_game
from ...engine.settle import BANK, COINS
from .. import ledger, said, scoreboard
from ..access import load_circle, pasted_key, polled, refuse, table_may_change, viewer_ok
from ..bounds import invisible
from ..chart import season_chart
from ..cup_results import standings_of
from ..l10n import isolated, locale_id, money, say
from ..links import external
from ..parse import amount_minor, digits, today
from ..seating_check import name_problem, tidy
from ..spreadsheet import Sheet, as_text, attachment, file_name
from ..table_file import BadImport, read_upload
from ..table_form import new_token
from . import circle_file

bp = Blueprint("circles", __name__)

MAX_CIRCLE_NAME = 80
SHOWN = 12  # evenings the circle's page lists, newest first; all of them are a tap away
MAX_NOTE = 80


def _name(text: str | None) -> tuple[str, str | None]:
    """Return the circle's name as written (spaces tidied) and a message if it can't be one."""
    name = " ".join((text or "").split())
    if not name:
        return name, _("Give the circle a name, e.g. “Thursdays at the Krone”.")
    if len(name) > MAX_CIRCLE_NAME or any(not ch.isprintable() for ch in name):
        return name, _("A circle's name is at most %(n)s letters, without control characters.", n=MAX_CIRCLE_NAME)
    return name, None


# ---- the page ----

def filters_asked(args) -> tuple[season.Filters, dict]:
    """Read the page's filters (?period=&game=&from=&to=, as its links and date fields send them): the filters,
    and {field: message} for a date that can't be read."""
    errors, days = {}, []
    for field in ("from", "to"):
        text = (args.get(field) or "").strip()
        try:
            days.append(date.fromisoformat(text) if text else None)
        except ValueError:
            days.append(None)
            errors[field] = _("Write a date such as 2026-11-27.")
    if not errors and days[0] and days[1] and days[0] > days[1]:
        errors["to"] = _("The last day comes before the first: swap them.")
    period = args.get("period") if args.get("period") in season.PERIODS else "all"
    if errors:
        days = [None, None]  # every evening, until the dates can be read
    return season.Filters(period, args.get("game") or None, days[0], days[1]), errors


def render_page(circle, template: str = "circle/page.html", status: int = 200, **extra):
    """Render the circle's page (or its board alone, for the poll) as season.page works it out."""
    tag = store.circle_page_tag(circle.id)  # read before the evenings: a change meanwhile is a newer tag, polled again
    played = ledger.evenings(circle.id, tag)
    filters, date_errors = filters_asked(request.args)
    if filters.game not in {e.played.game for e in played}:
        filters = replace(filters, game=None)
    money_shown = circle.shows_money()  # a watch link may be kept from the money and the ranking
    paid = store.paid_in_circle(circle.id) if money_shown else []
    page = ledger.season_page(circle.id, tag, played, filters, datetime.now(timezone.utc).date(), paid=paid,
                              pot_entries=store.pot_entries_of(circle.id) if money_shown else (),
                              pot_rule=store.pot_rule_of(circle.id), money=money_shown, ranking=circle.shows_ranking())
    scorer = circle.role == store.SCORER
    texts = {}
    if page.owed:
        watch = external("circles.show", circle_id=store.share_links(circle.id, store.CIRCLE)[store.VIEWER])
        texts = {c: said.season_text(circle.name, s.transfers, c, page.standings, watch) for c, s in page.owed}
    return render_template(
        template, circle=circle, main=page.main, standings=page.standings, across=page.across,
        settlements=page.owed, pot=page.pot, people=page.people, tag=tag, scorer=scorer, shown=SHOWN,
        rows=evening_rows(played, scorer, SHOWN), share_texts=texts, bank=BANK, coins=COINS, token=new_token(),
        filters={k: request.args[k] for k in ("period", "game", "from", "to") if request.args.get(k)},
        game=filters.game, period=filters.period,
        games=[get_game(g) for g in page.games], date_errors=date_errors,
        dates={"from": request.args.get("from", ""), "to": request.args.get("to", "")},
        season_chart=season_chart(page.chart_people, page.chart_steps, page.main) if page.main else None,
        paid=[p for p in paid if p.table_id is None],
        errors=extra.pop("errors", {}), pot_errors=extra.pop("pot_errors", {}),
        form=request.form if extra.get("keep_form") else {}, person=extra.get("person", ""),
        name=extra.get("name", ""), added=request.args.get("added"), people_said=_people_said(circle),
        last_change=store.last_circle_change(circle.id) if scorer else None, undo_error=extra.get("undo_error"),
        stale=request.args.get("stale") == "1",
        message=next(iter(get_flashed_messages(category_filter=["message"])), None),
        rule_from=format_date(page.pot.rule_from, "medium") if page.pot and page.pot.rule_from else None,
        **season_cup(circle), cup_errors=extra.get("cup_errors", {})), status


def season_cup(circle) -> dict:
    """The circle's cups and their ranking over the season by the circle's rule (engine/season_cup.py): each cup's
    place and points as the cup ranks them, level players sharing a place."""
    cups = store.circle_cups(circle.id)
    rule = store.season_rule(circle.id)
    if not cups:
        return dict(season_cups=[], season_lines=[], season_rule=rule)
    shown = [dict(name=c.name, day=format_date(c.held_on, "medium"),  # each cup's watch link: never its director's
                  url=url_for("cups.show", tournament_id=store.share_links(c.id, store.TOURNAMENT)[store.VIEWER]))
             for c in cups]
    lines = season_ranking([[(s.name, s.rank, s.points) for s in standings_of(c)] for c in cups], rule)
    return dict(season_cups=shown, season_lines=lines, season_rule=rule)


def _people_said(circle) -> str | None:
    """What the last rename, merge or Undo did, right after it (?renamed= or ?undone= in the address)."""
    if request.args.get("undone"):
        change = store.circle_change(circle.id, digits(request.args.get("undone")) or 0)
        return change_said(circle, change) if change is not None and change.undone else None
    if request.args.get("renamed"):
        change = store.last_circle_change(circle.id)
        return change_said(circle, change) if change is not None and change.new == request.args["renamed"] else None
    return None


def evening_rows(played: list[ledger.Evening], scorer: bool, most: int | None = None) -> list:
    """The circle's evenings as its list shows them, newest first: the newest `most` (None: all) with their links
    (a scorer's page, or the watch page on a watch link), the rest counted only."""
    newest = played[::-1]
    shown = newest if most is None else newest[:most]
    links = store.share_links_of([e.table.id for e in shown])
    rows = []
    for e in shown:
        keys = links[e.table.id]
        href = (url_for("tables.show", table_id=keys[store.SCORER]) if scorer
                else url_for("live.view", table_id=keys[store.VIEWER]))
        rows.append({"table": e.table, "hands": e.played.hands, "href": href,
                     "when": format_date(e.played.played_on, "medium"), "game": get_game(e.table.game)})
    return rows + [None] * (len(newest) - len(shown))  # counted, not shown


@bp.route("/circles/new", methods=["GET", "POST"])
def new_circle():
    """Start a circle; from a table ("these players meet again") the table becomes its first evening."""
    table_key = request.values.get("table", "")
    access = table_may_change(table_key)
    if access is not None and store.circle_of(access.table_id) is not None:
        access = None  # a table belongs to one circle
    name, error = (request.form.get("name"), None) if request.method == "GET" else _name(request.form.get("name"))
    if request.method == "POST" and error is None:
        key = store.create_circle(name)
        if access is not None:
            try:
                store.join_circle(access.table_id, store.find_circle(key).id)
            except store.InAnotherCircle:
                pass  # another circle took the table meanwhile (it was free on this form): this one starts empty
        return redirect(url_for("circles.show", circle_id=key), 303)
    return render_template("circle/new.html", name=name or "", error=error, table_key=table_key if access else "",
                           max_name=MAX_CIRCLE_NAME)


@bp.get("/c/<circle_id>")
@viewer_ok
def show(circle_id):
    """The circle's page: its standings, the season's settling up, its people, its evenings."""
    return render_page(load_circle(circle_id))


@bp.get("/c/<circle_id>/live")
@viewer_ok
@polled
def live(circle_id):
    """Answer the circle's poll as a table's is answered (web/scoreboard.py): 304 while its tag is the one the
    phone shows, else the board's regions and the poll with its new tag."""
    circle = load_circle(circle_id)
    return scoreboard.answer_poll(store.circle_page_tag(circle.id),
                                  lambda: render_page(circle, template="circle/_poll.html")[0])


@bp.get("/c/<circle_id>/evenings")
@viewer_ok
def all_evenings(circle_id):
    """Every evening of the circle, newest first: none is ever lost."""
    circle = load_circle(circle_id)
    played = ledger.evenings(circle.id)
    scorer = circle.role == store.SCORER
    return render_template("circle/evenings.html", circle=circle, scorer=scorer, rows=evening_rows(played, scorer),
                           shown=len(played))


@bp.post("/c/<circle_id>/tables")
def add_table(circle_id):
    """Add an evening already played (or being played) to the circle, by its scorer link."""
    circle = load_circle(circle_id)
    access = table_may_change(request.form.get("table"))
    if access is None:
        message = _("That isn't a table's scorer link: paste the link you score a table with (Share → To score).")
        return render_page(circle, errors={"table": message}, status=400)
    try:
        store.join_circle(access.table_id, circle.id)  # refused under the circle's lock if another circle has it
    except store.InAnotherCircle:
        return render_page(circle, errors={"table": _(
            "That table is already an evening of another circle: a table belongs to one circle.")}, status=400)
    return redirect(url_for("circles.show", circle_id=circle.id, added=1), 303)


@bp.post("/c/<circle_id>/cups")
def add_cup(circle_id):
    """Count a cup night in the circle's season, by its director's link."""
    circle = load_circle(circle_id)
    key = pasted_key(request.form.get("cup"))
    cup = store.find_tournament(key) if key else None
    if cup is None or not cup.active or cup.role != store.SCORER:
        message = _("That isn't a cup's director's link: paste the address of the cup's page you direct it from.")
        return render_page(circle, cup_errors={"cup": message}, status=400)
    try:
        store.join_cup(cup.id, circle.id)  # refused under the circle's lock if another circle has it
    except store.InAnotherCircle:
        return render_page(circle, cup_errors={"cup": _(
            "That cup already counts in another circle's season: a cup belongs to one circle.")}, status=400)
    return redirect(url_for("circles.show", circle_id=circle.id, _anchor="season-cup"), 303)


@bp.post("/c/<circle_id>/cup-rule")
def cup_rule(circle_id):
    """Set how the circle's cups add up: the sum of their points, the best N cups, or cup points by place."""
    circle = load_circle(circle_id)
    rule = request.form.get("rule") or "sum"
    errors = {}
    if rule not in SEASON_RULES:
        errors["rule"] = _("Choose one of the offered values.")
    n = digits(request.form.get("n"), 2) if rule == "best" else 0
    if rule == "best" and (n is None or n < 1):
        errors["n"] = _("Count the best cups: a whole number from 1.")
    places = store.season_rule(circle.id).places
    if rule == "places":
        parts = [p.strip() for p in (request.form.get("places") or "").replace(";", ",").split(",") if p.strip()]
        read = [digits(p, 4) for p in parts]
        if not read or None in read or len(read) > MOST_PLACES or read != sorted(read, reverse=True):
            errors["places"] = _("Write the cup points of each place from the first, highest first, separated by "
                                 "commas, e.g. 25, 20, 16, 13 (at most %(n)s places).", n=MOST_PLACES)
        else:
            places = tuple(read)
    if errors:
        return render_page(circle, cup_errors=errors, keep_form=True, status=400)
    store.set_season_rule(circle.id, rule, n or 0, places)
    return redirect(url_for("circles.show", circle_id=circle.id, _anchor="season-cup"), 303)


# ---- sharing ----

@bp.get("/c/<circle_id>/share")
@viewer_ok
def share(circle_id):
    """The circle's links with their QR codes: the watch link for anyone, the scorer link for its scorer."""
    circle = load_circle(circle_id)
    keys = store.share_links(circle.id, store.CIRCLE)
    links = [(store.VIEWER, external("circles.show", circle_id=keys[store.VIEWER]))]
    scorer = circle.role == store.SCORER
    if scorer:
        links.append((store.SCORER, external("circles.show", circle_id=keys[store.SCORER])))
    return render_template("circle/share.html", circle=circle, links=links,
                           rotate=url_for("circles.rotate", circle_id=circle.id) if scorer else None,
                           rotated=request.args.get("rotated") == "1", saved=request.args.get("saved") == "1")


@bp.post("/c/<circle_id>/share/scorer")
def rotate(circle_id):
    """Turn the circle's scorer link off and move to a new one."""
    new_key = store.new_scorer_link(circle_id, store.CIRCLE)
    return redirect(url_for("circles.share", circle_id=new_key, rotated=1), 303)


@bp.post("/c/<circle_id>/watch")
def watch_settings(circle_id):
    """Choose what the circle's watch link shows: the money, the ranking."""
    store.set_watch(circle_id, request.form.get("money") == "y", request.form.get("ranking") == "y")
    return redirect(url_for("circles.share", circle_id=circle_id, saved=1), 303)


# ---- people ----

def seatings(tables: list) -> list[season.Seating]:
    """Who sat where in each of the circle's evenings (`tables`): the table's players now, and each hand's."""
    out = []
    for table in tables:
        hands = tuple((h.number, tuple(evening.seated(h) or table.players)) for h in store.list_hands(table.id))
        out.append(season.Seating(table.id, tuple(table.players), hands))
    return out


RENAME_TRIES = 3  # plans made again when another phone changed the circle's evenings meanwhile


@bp.post("/c/<circle_id>/people")
def rename_person(circle_id):
    """Rename a person in every evening of the circle; onto another person's name, the two become one (a merge).

    The plan is made from the evenings as they are, and the store writes it only if they are still so (under the
    circle's lock: store/locks.py); if another phone changed them meanwhile (a rename, a hand), it is made again."""
    circle = load_circle(circle_id)
    old, new = (request.form.get("person") or "").strip(), tidy(request.form.get("name") or "")
    if store.renamed_by(request.form.get("token")):  # the same form again (a double tap): done the first time
        return redirect(url_for("circles.show", circle_id=circle.id, renamed=new, _anchor="people"), 303)
    for _try in range(RENAME_TRIES):
        tables = store.circle_tables(circle.id)
        played = seatings(tables)
        names = {p for e in played for p in e.players} | {p for e in played for _n, s in e.hands for p in s}
        errors, plan = _rename_plan(circle, played, names, old, new)
        if errors:
            break
        merged = season.person(new) in {season.person(n) for n in names} and season.person(new) != season.person(old)
        if merged and request.form.get("confirm") != "yes":  # two people become one: asked first, never by one tap
            touched = {r.table_id for r in plan}
            return render_template("circle/merge.html", circle=circle, old=old, new=new,
                                   evenings=[(format_date(t.day, "medium"), get_game(t.game), t.players)
                                             for t in tables if t.id in touched], token=request.form.get("token"))
        try:
            store.rename_everywhere([(r.table_id, r.players, r.renames) for r in plan],
                                    {t.id: get_game(t.game).rename for t in tables}.get, request.form.get("token"),
                                    circle.id, seen={t.id: t.version for t in tables}, kept=(old, new, merged))
        except store.Moved:
            continue  # another phone changed the circle's evenings since they were read: plan again
        return redirect(url_for("circles.show", circle_id=circle.id, renamed=new, merged=int(merged),
                                _anchor="people"), 303)
    else:
        errors = {"name": _("The circle's evenings were changed on another phone meanwhile: look at them and rename "
                            "again.")}
    return render_page(circle, errors=errors, person=old, name=new, status=400)


@bp.post("/c/<circle_id>/people/undo")
def undo_rename(circle_id):
    """Take back a rename or a merge, in every evening it changed, as one change; or say why it can't be."""
    circle = load_circle(circle_id)
    tables = store.circle_tables(circle.id)
    try:
        change = store.undo_circle_change(circle.id, digits(request.form.get("change")) or 0,
                                          {t.id: get_game(t.game).rename for t in tables}.get)
    except store.CantUndo as e:
        return render_page(circle, undo_error=_cant_undo(circle, e), status=409 if e.why != "gone" else 404)
    return redirect(url_for("circles.show", circle_id=circle.id, undone=change.id, _anchor="people"), 303)


def _cant_undo(circle, e: store.CantUndo) -> str:
    """Say, in one sentence, why a rename or merge can't be taken back (and that nothing was)."""
    if e.why == "undone":
        return _("That change was already undone (on this phone or another): there is nothing more to undo.")
    if e.why == "later":
        return _("%(old)s was renamed %(new)s after it: undo that first (nothing was undone).",
                 old=isolated(e.later.old), new=isolated(e.later.new))
    if e.why == "seated":
        where = next((t for t in store.circle_tables(circle.id) if t.id == e.table_id), None)
        return _("The evening of %(date)s was changed after it and has the old name at its table again: nothing was "
                 "undone. Rename there instead.", date=format_date(where.day, "medium") if where else "?")
    return _("That change isn't one of this circle's.")


def change_said(circle, change) -> str:
    """Say what a rename or merge did, or what its Undo did (and which evenings joined after it keep the new name),
    in one or two sentences."""
    if not change.undone:
        if change.merged:
            return ngettext("%(old)s and %(new)s are now one: %(new)s, in %(num)d evening.",
                            "%(old)s and %(new)s are now one: %(new)s, in %(num)d evenings.", change.evenings,
                            old=isolated(change.old), new=isolated(change.new))
        return ngettext("%(old)s is now %(new)s, in %(num)d evening.", "%(old)s is now %(new)s, in %(num)d evenings.",
                        change.evenings, old=isolated(change.old), new=isolated(change.new))
    done = (ngettext("Undone: %(old)s and %(new)s are two people again, in the %(num)d evening it changed.",
                     "Undone: %(old)s and %(new)s are two people again, in the %(num)d evenings it changed.",
                     change.evenings, old=isolated(change.old), new=isolated(change.new)) if change.merged else
            ngettext("Undone: %(old)s is %(old)s again, in the %(num)d evening it changed.",
                     "Undone: %(old)s is %(old)s again, in the %(num)d evenings it changed.",
                     change.evenings, old=isolated(change.old)))
    days = {t.id: format_date(t.day, "medium") for t in store.circle_tables(circle.id)}
    later = [days[t] for t in change.since if t in days]
    if not later:
        return done
    return done + " " + ngettext(
        "The evening of %(dates)s, played after it, keeps %(new)s: if that was %(old)s, change it at that table.",
        "The evenings of %(dates)s, played after it, keep %(new)s: if that was %(old)s, change it at those tables.",
        len(later), dates=", ".join(later), new=isolated(change.new), old=isolated(change.old))


def _rename_plan(circle, played: list, names: set, old: str, new: str) -> tuple[dict, list]:
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
        return {"name": _both_played(circle, e)}, []


def _both_played(circle, e: season.BothPlayed) -> str:
    where = next(t for t in store.circle_tables(circle.id) if t.id == e.table_id)
    on = format_date(where.day, "medium")
    if e.hand is not None:
        return _("%(a)s and %(b)s both played hand %(n)s on %(date)s: they are two people, so they can't be made "
                 "one.", a=isolated(e.names[0]), b=isolated(e.names[1]), n=e.hand, date=on)
    return _("%(a)s and %(b)s both sit at the table of %(date)s: they are two people, so they can't be made one.",
             a=isolated(e.names[0]), b=isolated(e.names[1]), date=on)


# ---- money: paid lines and the pot ----

@bp.post("/c/<circle_id>/paid")
def paid(circle_id):
    """Mark a line of the season's settling up paid; one no longer owed (marked on another phone) is said."""
    circle = load_circle(circle_id)
    currency = request.form.get("currency", "")
    try:
        ledger.mark_paid(circle, request.form.get("payer", ""), request.form.get("payee", ""),
                         digits(request.form.get("amount")), currency, request.form.get("token"),
                         digits(request.form.get("seen")) or 0)
    except store.AlreadyPaid:
        return redirect(url_for("circles.show", circle_id=circle.id, stale=1, _anchor=f"settle-{currency}"), 303)
    return redirect(url_for("circles.show", circle_id=circle.id, _anchor=f"settle-{currency}"), 303)


@bp.post("/c/<circle_id>/unpaid")
def unpaid(circle_id):
    """Take back a line marked paid, and say so (or that it already was)."""
    payment = digits(request.form.get("payment")) or 0
    shown = {p.id: p for p in store.paid_in_circle(circle_id)}
    done = store.unmark_paid(payment, circle_id=circle_id)
    flash(ledger.taken_back(shown.get(payment) if done else None), "message")
    return redirect(url_for("circles.show", circle_id=circle_id), 303)


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


@bp.post("/c/<circle_id>/pot")
def pot(circle_id):
    """Put money into the circle's pot or take it out; a withdrawal beyond what it holds is refused at the amount."""
    circle = load_circle(circle_id)
    values, errors = pot_form_problems(request.form)
    if not errors:
        try:
            store.pot_add(circle.id, values["sign"] * values["amount"], values["currency"], values["note"],
                          values["who"], request.form.get("token"), ledger.paid_to_pot(circle).get(values["currency"], 0))
            return redirect(url_for("circles.show", circle_id=circle.id, _anchor="pot"), 303)
        except store.PotShort as e:
            errors["amount"] = _("The pot holds %(holds)s: it can't give out more than that (it is the table's cash, "
                                 "and a tin can't go below empty).", holds=money(e.holds, values["currency"]))
    return render_page(circle, pot_errors=errors, keep_form=True, status=400)


@bp.post("/c/<circle_id>/pot/undo")
def pot_undo(circle_id):
    """Take back an entry of the pot, unless that would leave it below empty."""
    circle = load_circle(circle_id)
    try:
        store.pot_undo(circle.id, digits(request.form.get("entry")) or 0, ledger.paid_to_pot(circle))
    except store.PotShort as e:
        return render_page(circle, pot_errors={"undo": _(
            "Taking that back would leave the pot below empty (it holds %(holds)s): take back the later withdrawal "
            "first.", holds=money(e.holds, request.form.get("currency") or "CHF"))}, keep_form=True, status=400)
    return redirect(url_for("circles.show", circle_id=circle.id, _anchor="pot"), 303)


@bp.post("/c/<circle_id>/pot/rule")
def pot_rule(circle_id):
    """The table's rule for the pot: each hand lost by whoever took it on pays this much in (empty or 0: none)."""
    circle = load_circle(circle_id)
    text = (request.form.get("per_lost_hand") or "").strip()
    try:
        amount = amount_minor(text) if text not in ("", "0") else 0
    except ValueError as e:
        return render_page(circle, pot_errors={"rule": str(e)}, keep_form=True, status=400)
    store.set_pot_rule(circle.id, amount, today())  # once lines were paid: from today on
    return redirect(url_for("circles.show", circle_id=circle.id, _anchor="pot"), 303)


# ---- files ----

def _money_file(circle) -> None:
    """Refuse a file holding the money to a watch link kept from it."""
    if not circle.shows_money():
        refuse(_("This circle keeps its money from the watch link, and its file holds the money: ask its scorer."))


def _cups_file(circle) -> None:
    """Refuse the circle's file (which holds its cups' money) to a watch link if one of its cups keeps its money from its own."""
    if circle.role != store.SCORER and not all(c.watch_money for c in store.circle_cups(circle.id)):
        refuse(_("A cup of this circle keeps its money from the watch link, and the circle's file holds it: ask the "
                 "circle's scorer."))


@bp.get("/c/<circle_id>/export.json")
@viewer_ok
def export_json(circle_id):
    """The whole circle as one file: importing it restores the circle, its evenings, its marks and its pot."""
    circle = load_circle(circle_id)
    _money_file(circle)
    _cups_file(circle)
    body = json.dumps(circle_file.circle_json(circle), ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": attachment(file_name(circle.name, today().isoformat(),
                                                                         suffix=".json"))})


@bp.get("/c/<circle_id>/export.csv")
@viewer_ok
def export_csv(circle_id):
    """The season for a spreadsheet: one row per hand, with its evening's date and game, each person's score in
    that game's unit and money in the evening's currency (the table's CSV dialect: web/spreadsheet.py)."""
    circle = load_circle(circle_id)
    _money_file(circle)
    tables = store.circle_tables(circle.id)
    built = [(t, evening.build(Setup.of(t), store.list_hands(t.id))) for t in tables]
    people = list(dict.fromkeys(season.person(p) for _t, e in built for p in e.players))
    spelled = {season.person(p): p for _t, e in built for p in e.players}
    currencies = sorted({t.currency for t in tables})
    sheet = Sheet(locale_id())
    sheet.row([as_text(_("Date")), as_text(_("Game")), as_text(_("Hand")), as_text(_("Dealer")), as_text(_("What"))]
              + [as_text(spelled[p]) for p in people]
              + [as_text(f"{spelled[p]} ({c})") for c in currencies for p in people])
    for table, e in built:
        when = format_date(table.day, "short")
        by_person = {season.person(p): p for p in e.players}
        for r in e.rows:
            mine = [by_person.get(p) for p in people]
            sheet.row([when, as_text(_(e.game.name)), r.index, as_text(r.dealer),
                       as_text(say(r.summary) if r.summary else "")]
                      + [sheet.number(r.scores[p]) if p in r.scores else "" for p in mine]
                      + [sheet.money(r.payouts[p]) if c == table.currency and p in r.payouts else ""
                         for c in currencies for p in mine])
    return sheet.answer(file_name(circle.name, today().isoformat(), suffix=".csv"))


@bp.route("/circles/import", methods=["GET", "POST"])
def import_circle():
    """Restore a circle from its file, under new addresses: all of it, or nothing and a sentence saying why."""
    message = None
    if request.method == "POST":
        try:
            data = read_upload(request.files.get("file"), _("Choose a circle's JSON export (at most 2 MB)."))
            key = store.import_circle(*circle_file.parse_circle(data))
            cups = store.circle_cups(store.find_circle(key).id)
            if cups:  # their directors' links, once: the circle's page shows each cup by its watch link only
                links = "; ".join(f"{c.name}: " + external("cups.show", tournament_id=store.share_links(
                    c.id, store.TOURNAMENT)[store.SCORER]) for c in cups)
                flash(_("Its cups were restored too, each under a new director's link (keep them): %(links)s",
                        links=links), "message")
            return redirect(url_for("circles.show", circle_id=key), 303)
        except BadImport as e:
            message = str(e)
    return render_template("circle/import.html", message=message), 400 if message else 200
