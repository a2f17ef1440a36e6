"""Cup nights (issue 38): a tournament of many tables, the third kind of group of tables beside a table's evening
and a circle's season, and a client of the same parts: its links are store/links.py's (Owner TOURNAMENT), its keys
are resolved by web/access.py (`<tournament_id>`: the director's link is the scorer's, the watch link the viewer's),
each round's tables are tables of the app (their own scorer links: counting, scoring, offline, live), their totals
come from the evenings web/scoreboard.py keeps, and its board is one more client of the scoreboard's poll
(REGIONS["cup"], answer_poll). The standings are engine/cup.py's, the draw engine/draw.py's.
"""
from __future__ import annotations

import json
import secrets
import time
from datetime import date
from fractions import Fraction

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for
from flask_babel import format_date
from flask_babel import gettext as _

from ... import store
from ...engine import cup as cup_model
from ...engine.draw import table_sizes
from ...engine.errors import CantSeat
from ...engine.games import get_game, resolve_rules
from ...engine.games.registry import GAMES
from .. import scoreboard
from ..access import load_tournament, polled, refuse, viewer_ok
from ..bounds import invisible
from ..cup_results import ranking_of
from ..cup_results import results as _results
from ..l10n import locale_id, money, say
from ..kept import of_app
from ..links import external, qr
from ..parse import amount_minor, digits, money_minor
from ..round_clock import MOST_MINUTES, clock_of
from ..seating_check import name_problem, tidy
from ..spreadsheet import Sheet, as_text
from ..table_file import BadImport, read_upload
from ..table_form import CURRENCIES, rule_value, rules_form
from . import cup_file
from .cup_file import MAX_GAMES, MAX_PLAYERS, MAX_ROUNDS, MOST_FEE

bp = Blueprint("cups", __name__)

MAX_NAME = 80


def _form_problems(form) -> tuple[dict, dict]:
    """Read the new cup's form: (its values, {field: one sentence}) — every field checked, the input kept."""
    errors: dict[str, str] = {}
    name = " ".join((form.get("name") or "").split())
    if not name:
        errors["name"] = _("Give the cup a name, e.g. “Dorfcup 2026”.")
    elif len(name) > MAX_NAME or invisible(name):
        errors["name"] = _("A cup's name is at most %(n)s letters, without control characters.", n=MAX_NAME)
    try:
        held_on = date.fromisoformat((form.get("held_on") or "").strip())
    except ValueError:
        held_on = None
        errors["held_on"] = _("Give the day of the cup, e.g. 2026-11-28.")
    game = GAMES.get(form.get("game") or "")
    if game is None:
        errors["game"] = _("Choose the game every table plays.")
    rounds = digits(form.get("rounds"), 2)
    if rounds is None or not 1 <= rounds <= MAX_ROUNDS:
        errors["rounds"] = _("The rounds are a whole number from 1 to %(n)s.", n=MAX_ROUNDS)
    games = digits(form.get("games"), 2)
    if games is None or not 1 <= games <= MAX_GAMES:
        errors["games"] = _("The games per table and round are a whole number from 1 to %(n)s.", n=MAX_GAMES)
    seed_text = (form.get("seed") or "").strip()
    seed = digits(seed_text) if seed_text else secrets.randbelow(10**6)
    if seed is None:
        errors["seed"] = _("The seed is a whole number (the same seed draws the same tables), or leave it empty.")
    names = [tidy(n) for n in (form.get("players") or "").splitlines() if n.strip()]
    for n in names:
        problem = name_problem(n)
        if problem:
            errors["players"] = problem
            break
    else:
        seen: set[str] = set()
        twice = next((n for n in names if n.casefold() in seen or seen.add(n.casefold())), None)
        if twice:
            errors["players"] = _("“%(name)s” is on the list twice: give each player a different name.", name=twice)
        elif len(names) > MAX_PLAYERS:
            errors["players"] = _("A cup has at most %(n)s players.", n=MAX_PLAYERS)
    rules = _house_rules(form, game, errors)
    ranking = _ranking(form, rounds, errors)
    entry_fee = _entry_fee(form.get("entry_fee"), form.get("currency") or "EUR", errors)
    minutes = _minutes(form.get("round_minutes"))
    if minutes is None:
        errors["round_minutes"] = _("A round's minutes are a whole number from 0 to %(n)s, or leave it empty: no "
                                    "clock.", n=MOST_MINUTES)
    values = dict(name=name, held_on=held_on, game=game, rounds=rounds, games=games, seed=seed, names=names,
                  rules=rules, round_minutes=minutes, entry_fee=entry_fee, **ranking)
    return values, errors


def _entry_fee(text, currency: str, errors: dict) -> int:
    """The entry fee each player who plays pays into the pot, as typed (empty: none); a sentence at its field if it
    can't be one."""
    if not (text or "").strip():
        return 0
    try:
        fee = amount_minor(text)
    except ValueError as e:
        errors["entry_fee"] = str(e)
        return 0
    if fee > MOST_FEE:
        errors["entry_fee"] = _("An entry fee is at most %(most)s.", most=money(MOST_FEE, currency))
    return fee


def _minutes(text) -> int | None:
    """A round's clock as typed: its minutes (empty: 0, no clock), or None if it can't be one."""
    minutes = digits(text, 3) if (text or "").strip() else 0
    return minutes if minutes is not None and minutes <= MOST_MINUTES else None


def _house_rules(form, game, errors: dict) -> dict:
    """Read the house rules shown for the game (one set for every table); {} with a sentence at the game's field when
    the form showed another game's (its rules are shown now, to check before the cup starts). A post that showed
    none (no `rules_for`: a script's) takes the game's usual ones."""
    if game is None:
        return {}
    if "rules_for" not in form:
        return resolve_rules(game, None)
    if (form.get("rules_for") or "") != game.id:
        errors.setdefault("game", _("These are the house rules of %(game)s: check them, then start the cup.",
                                    game=_(game.name)))
        return {}
    fields = rules_form(game, {}, form)
    rules = {}
    for name, opt in game.options.items():
        try:
            rules[name] = rule_value(opt, fields["rule_" + name].data)
        except ValueError as e:
            errors["rule_" + name] = str(e)
    try:
        return resolve_rules(game, rules)
    except ValueError as e:
        errors.setdefault("game", say(e))
        return {}


def _ranking(form, rounds: int | None, errors: dict) -> dict:
    """Read how the cup ranks (engine/cup.py Ranking): the rule, its N, the rate, the currency, the pot."""
    rule = form.get("ranking") or "points"
    if rule not in cup_model.RULES:
        errors["ranking"] = _("Choose how the cup ranks.")
    n = 0
    if rule in ("best", "drop"):
        n = digits(form.get("ranking_n"), 2)
        if rule == "best" and (n is None or not 1 <= n <= (rounds or 1)):
            errors["ranking_n"] = _("Count the best rounds: a whole number from 1 to the rounds (%(n)s).",
                                    n=rounds or 1)
        elif rule == "drop" and (n is None or not 1 <= n < (rounds or 1)):
            errors["ranking_n"] = _("Drop a whole number of rounds, at least 1 and fewer than the rounds (%(n)s).",
                                    n=rounds or 1)
    rate = 0
    if (form.get("rate") or "").strip():
        try:
            rate = money_minor(form.get("rate"))
        except ValueError as e:
            errors["rate"] = str(e)
    currency = form.get("currency") or "EUR"
    if currency not in dict(CURRENCIES):
        errors["rate"] = _("Choose one of the offered values.")
    pot = form.get("pot") or "none"
    if pot not in cup_model.POTS:
        errors["pot"] = _("Choose one of the offered values.")
    elif "rate" not in errors and not rate and (rule == "money" or pot != "none"):
        errors["rate"] = _("Money needs a rate: what a point is worth, e.g. 0.10.")
    return dict(ranking=rule, ranking_n=n or 0, rate=rate, currency=currency, pot=pot)


@bp.route("/cups/new", methods=["GET", "POST"])
def new_cup():
    """Start a cup: its name, day, game (its house rules as the game has them, one set for every table), rounds,
    games per table and round, the draw's seed, the players registered so far (each line a name: start numbers
    1, 2, … in that order); from a circle's page (?circle=its scorer's key), a cup of the circle's season."""
    form = request.form if request.method == "POST" else \
        {"held_on": date.today().isoformat(), "rounds": "3", "games": "16", "ranking": "points", "currency": "EUR",
         "pot": "none", **request.args.to_dict()}  # ?game=…: its house rules shown (the button beside the game)
    errors: dict[str, str] = {}
    circle_key = request.values.get("circle", "")
    circle = store.find_circle(circle_key) if circle_key else None  # made from a circle's page: its scorer's key
    if circle is not None and (not circle.active or circle.role != store.SCORER):
        circle = None
    if request.method == "POST" and not request.form.get("show_rules"):  # not the button showing a game's rules
        values, errors = _form_problems(request.form)
        if not errors:
            game = values["game"]
            key = store.create_tournament(values["name"], values["held_on"], game.id, values["rules"],
                                          values["rounds"], values["games"], values["seed"], values["names"],
                                          values["ranking"], values["ranking_n"], values["rate"], values["currency"],
                                          values["pot"], circle_id=circle.id if circle else None,
                                          round_minutes=values["round_minutes"], entry_fee=values["entry_fee"])
            return redirect(url_for("cups.show", tournament_id=key), 303)
    game = GAMES.get(form.get("game") or "") or next(iter(GAMES.values()))
    shown = form if request.method == "POST" and form.get("rules_for") == game.id else None
    return render_template("cup/new.html", form=form, errors=errors, games=list(GAMES.values()), game=game,
                           rules=rules_form(game, {}, shown), currencies=CURRENCIES,
                           max_name=MAX_NAME, circle=circle, circle_key=circle_key if circle else ""), \
        422 if errors else 200


def cents(amount) -> int:
    """Minor units to write: an exact amount (a Fraction where a game counts halves) to the nearest, halves to even;
    the ranking itself uses the exact amount."""
    return round(Fraction(amount))


def board(cup) -> dict:
    """What the cup's board shows: the round being played and its tables (hands in, the table's scorer link for the
    director), the players, and the standings over every table played by the cup's rule, from the evenings kept for
    the tables, read by seat (a start number's points, whatever the name at the table)."""
    game = get_game(cup.game)
    players = store.entrants(cup.id)
    names = {p.number: p.name for p in players}
    placed = store.cup_tables(cup.id)
    current = max((t.round for t in placed), default=0)
    now = [t.table_id for t in placed if t.round == current]  # the round being played: its counts and links
    counts = store.hands_in(now)
    keys = store.share_links_of(now) if now else {}
    ranking = ranking_of(cup)
    results, rows = [], []
    for (_r, _n, seats), t in zip(_results(cup, placed), placed):
        results.append((t.round, t.number, seats))
        if t.round == current:
            rows.append(dict(number=t.number, seats=[(n, names.get(n, "?"), seats[n].points) for n in t.seats],
                             hands=counts[t.table_id], games=t.games or cup.games_per_round,
                             done=counts[t.table_id] >= (t.games or cup.games_per_round),
                             scorer=url_for("tables.show", table_id=keys[t.table_id][store.SCORER]),
                             watch=url_for("tables.show", table_id=keys[t.table_id][store.VIEWER])))
    standings = cup_model.standings([(p.number, p.name, p.active) for p in players], results, ranking, current,
                                    cup.rounds)
    in_ = sum(r["done"] for r in rows)
    closed = cup.closed_rounds >= current
    playing = [p for p in players if p.active]
    problem = None
    if closed and current < cup.rounds:
        try:
            table_sizes(len(playing), game.players_allowed(cup.rules))
        except CantSeat as e:
            problem = say(e)
    return dict(cup=cup, game=game, players=players, tables=rows, current=current, closed=closed, tables_in=in_,
                standings=standings, results=results, rounds=range(1, current + 1), problem=problem,
                playing=len(playing),
                day=format_date(cup.held_on, "long"), director=cup.role == store.SCORER, ranking=ranking,
                money_shown=cup.shows_money(),
                pot=cup_model.pot(standings), fees=cup_model.entry_fees(standings, cup.entry_fee), cents=cents,
                tag=store.tournament_tag(cup.id),
                clock=clock_of(cup, current))


def render_page(cup, template: str = "cup/page.html", status: int = 200, **extra):
    keys = store.share_links(cup.id, store.TOURNAMENT)
    watch = external("cups.show", tournament_id=keys[store.VIEWER])
    code = qr(watch) if template == "cup/page.html" else None  # a poll's answer shows no QR (segno: ~8 ms)
    shown = board(cup)
    closed = []
    if shown["director"] and template == "cup/page.html":  # the corrections: a closed round's tables, the log
        placed = [t for t in store.cup_tables(cup.id) if t.round <= cup.closed_rounds]
        opened = [t.table_id for t in placed if t.reopened]  # only a table open for a correction shows its link
        keys = store.share_links_of(opened) if opened else {}
        closed = [dict(round=t.round, number=t.number, reopened=t.reopened,
                       scorer=url_for("tables.show", table_id=keys[t.table_id][store.SCORER]) if t.reopened else None)
                  for t in placed]
    return render_template(template, **shown, watch_url=watch, watch_qr=code, errors=extra.get("errors", {}),
                           walk_in=extra.get("walk_in", ""), said=extra.get("said"), fixed=extra.get("fixed", {}),
                           minutes=extra.get("minutes"),
                           closed_tables=closed, log=store.cup_log(cup.id) if closed else []), status


@bp.get("/k/<tournament_id>")
@viewer_ok
def show(tournament_id):
    """The director's page (with the director's link) or the watch page: "n of m tables in", each table's hands, the
    standings; the director closes the round, draws the next, adds walk-ins and drops."""
    return render_page(load_tournament(tournament_id))


FRESH = 1.0  # seconds a watch link's kept board is served after a newer Save (app config CUP_POLL_FRESH)


def answer_poll(cup, kind: str, render):
    """Answer a cup's poll (web/scoreboard.py answer_poll). A watch link's answer is kept per app for the cup's
    language and kind, and served to every phone that asks within FRESH seconds of its making, under its own tag,
    even when a Save came since: a room of phones polling every 2 s while 30 tables save is answered with one board
    a second (each phone's next poll brings the newer one), not one a phone. A director's answer holds forms with
    the session's CSRF token: never kept."""
    tag = store.tournament_tag(cup.id)
    if cup.role != store.VIEWER:
        return scoreboard.answer_poll(tag, render)
    kept = of_app("cup-polls", 64)
    version = tuple(int(n) for n in tag[1:].split("."))  # each part only grows: a later tag is a greater tuple
    key = (kind, cup.id, locale_id(), locale_id(cup.currency))
    found = kept.get(key)
    now = time.monotonic()
    fresh = current_app.config.get("CUP_POLL_FRESH", FRESH)
    if found is not None and (found[0] == version or now - found[1][2] < fresh):
        shown_tag, body = found[1][0], found[1][1]
    else:
        shown_tag, body = tag, render()
        kept.keep(key, version, (tag, body, now))
    return scoreboard.answer_poll(shown_tag, lambda: body)


@bp.get("/k/<tournament_id>/live")
@viewer_ok
@polled
def live(tournament_id):
    """Answer the cup's poll as a circle's is answered (web/scoreboard.py)."""
    cup = load_tournament(tournament_id)
    return answer_poll(cup, "board", lambda: render_page(cup, template="cup/_poll.html")[0])


def watch_link(cup) -> tuple[str, str]:
    """The cup's watch link written out, and its QR code (every printout and the projector show it, never the
    director's)."""
    url = external("cups.show", tournament_id=store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER])
    return url, qr(url)


@bp.get("/k/<tournament_id>/projector")
@viewer_ok
def projector(tournament_id):
    """The projector view: the round's count and the standings in large type, landscape, live, the watch link's
    QR in a corner."""
    cup = load_tournament(tournament_id)
    url, code = watch_link(cup)
    return render_template("cup/projector.html", **board(cup), watch_url=url, watch_qr=code)


@bp.get("/k/<tournament_id>/projector/live")
@viewer_ok
@polled
def projector_live(tournament_id):
    """Answer the projector's poll as the cup's page's is answered (web/scoreboard.py)."""
    cup = load_tournament(tournament_id)
    return answer_poll(cup, "projector", lambda: render_template("cup/_projector_poll.html", **board(cup)))


PRINTOUTS = ("seating", "slips", "results")


@bp.get("/k/<tournament_id>/print/<what>")
@viewer_ok
def printout(tournament_id, what):
    """An A4 printout with the cup's name, day and the QR of its live page: the seating plan of a round by table
    and by name (`seating`), each player's slip (`slips`: their table and seat each round), or the results of a
    round, or over every round played (`results`, ?round=)."""
    if what not in PRINTOUTS:
        abort(404)
    cup = load_tournament(tournament_id)
    shown = board(cup)
    placed = store.cup_tables(cup.id)
    names = {p.number: p.name for p in shown["players"]}
    round_no = digits(request.args.get("round"), 2) or (shown["current"] if what == "seating" else 0)
    mine = [t for t in placed if t.round == round_no]
    by_table = [dict(number=t.number, seats=[(n, names.get(n, "?")) for n in t.seats]) for t in mine]
    by_name = sorted(((names.get(n, "?"), n, t.number, t.seats.index(n) + 1) for t in mine for n in t.seats),
                     key=lambda x: (x[0].casefold(), x[1]))
    slips = [dict(number=p.number, name=p.name, rounds={t.round: (t.number, t.seats.index(p.number) + 1)
                                                        for t in placed if p.number in t.seats})
             for p in shown["players"] if p.active or any(p.number in t.seats for t in placed)]
    results = None
    if what == "results" and round_no:  # one round's results: its tables alone, ranked by their points
        one = [(r, t, got) for r, t, got in shown["results"] if r == round_no]
        results = cup_model.standings([(p.number, p.name, p.active) for p in shown["players"]
                                       if any(p.number in got for _r, _t, got in one)], one)
    url, code = watch_link(cup)
    return render_template("cup/print.html", **shown, what=what, round_no=round_no, by_table=by_table,
                           by_name=by_name, slips=slips, round_results=results, watch_url=url, watch_qr=code)


@bp.get("/k/<tournament_id>/export.json")
@viewer_ok
def export_json(tournament_id):
    """The whole cup as one file: importing it restores the cup, its players, rounds, tables and log, under new
    links."""
    cup = load_tournament(tournament_id)
    if not cup.shows_money():
        refuse(_("This cup keeps its money from the watch link, and its file holds the money: ask its director."))
    body = json.dumps(cup_file.cup_json(cup), ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="cup.json"'})


@bp.get("/k/<tournament_id>/standings.csv")
@viewer_ok
def standings_csv(tournament_id):
    """The standings for a spreadsheet: rank, start number, name, each round's points, the points, what the rule
    counts, the money (the reader's CSV dialect: web/spreadsheet.py)."""
    cup = load_tournament(tournament_id)
    shown = board(cup)
    counted = cup.ranking in ("best", "drop")
    with_money = cup.rate and cup.shows_money()  # a watch link kept from the money gets none
    sheet = Sheet(locale_id())
    sheet.row([as_text(_("Rank")), as_text(_("Start number")), as_text(_("Player"))]
              + [as_text(_("Round %(n)s", n=r)) for r in shown["rounds"]] + [as_text(_("Points"))]
              + ([as_text(_("Counted"))] if counted else []) + ([as_text(cup.currency)] if with_money else [])
              + [as_text(_("dropped out"))])
    for s in shown["standings"]:
        per_round = {seat.round: seat.points for seat in s.rounds}
        sheet.row([s.rank, s.number, as_text(s.name)]
                  + [sheet.number(per_round[r]) if r in per_round else "" for r in shown["rounds"]]
                  + [sheet.number(s.points)] + ([sheet.number(s.score)] if counted else [])
                  + ([sheet.money(cents(s.money))] if with_money else []) + ["" if s.active else "x"])
    return sheet.answer("standings.csv")


@bp.route("/cups/import", methods=["GET", "POST"])
def import_cup():
    """Restore a cup from its file, under new links: all of it, or nothing and a sentence saying why."""
    message = None
    if request.method == "POST":
        try:
            data = read_upload(request.files.get("file"), _("Choose a cup's JSON export (at most 2 MB)."))
            key = store.import_tournament(**cup_file.parse_cup(data, MAX_ROUNDS, MAX_GAMES, MAX_PLAYERS))
            return redirect(url_for("cups.show", tournament_id=key), 303)
        except BadImport as e:
            message = str(e)
    return render_template("cup/import.html", message=message), 400 if message else 200


@bp.post("/k/<tournament_id>/players")
def walk_in(tournament_id):
    """A walk-in: the next start number, seated from the next round drawn."""
    cup = load_tournament(tournament_id)
    name = tidy(request.form.get("name") or "")
    problem = _("Give the player's name.") if not name else name_problem(name)
    if problem is None:
        try:
            store.add_entrant(cup.id, name)
        except store.NameTaken:
            problem = _("“%(name)s” already plays in this cup: give the new player a different name.", name=name)
    if problem:
        return render_page(cup, status=422, errors={"name": problem}, walk_in=name)
    return redirect(url_for("cups.show", tournament_id=cup.id), 303)


@bp.post("/k/<tournament_id>/players/<int:number>")
def playing(tournament_id, number):
    """A player drops out (or comes back): from the next round drawn."""
    cup = load_tournament(tournament_id)
    try:
        store.set_playing(cup.id, number, request.form.get("playing") == "1")
    except store.NotFound:
        return render_page(cup, status=404, said=_("No player of this cup has the number %(n)s.", n=number))
    return redirect(url_for("cups.show", tournament_id=cup.id), 303)


@bp.post("/k/<tournament_id>/players/<int:number>/table")
def fixed_table(tournament_id, number):
    """Give a player a fixed table (mobility), or none: from the next round drawn."""
    cup = load_tournament(tournament_id)
    typed = (request.form.get("table") or "").strip()
    table = digits(typed, 3) if typed else None
    if typed and (table is None or not 1 <= table <= MAX_PLAYERS):
        return render_page(cup, status=422, errors={f"fixed-{number}": _(
            "A table number is a whole number from 1, or leave it empty for any table.")}, fixed={number: typed})
    try:
        store.set_fixed_table(cup.id, number, table)
    except store.NotFound:
        return render_page(cup, status=404, said=_("No player of this cup has the number %(n)s.", n=number))
    return redirect(url_for("cups.show", tournament_id=cup.id), 303)


@bp.post("/k/<tournament_id>/watch")
def watch_settings(tournament_id):
    """Choose what the cup's watch link shows: the standings' money and the pot, or not."""
    cup = load_tournament(tournament_id)
    store.set_cup_watch(cup.id, request.form.get("money") == "y")
    return redirect(url_for("cups.show", tournament_id=cup.id, _anchor="watch"), 303)


@bp.post("/k/<tournament_id>/corrections")
def correct(tournament_id):
    """Open a closed round's table for a correction (its scorer link takes edits again), or close it again."""
    cup = load_tournament(tournament_id)
    round_no, number = digits(request.form.get("round"), 2) or 0, digits(request.form.get("number"), 3) or 0
    try:
        store.reopen_table(cup.id, round_no, number, reopen=request.form.get("open") == "1")
    except store.RoundOpen:
        return render_page(cup, status=409, said=_("Round %(n)s isn't closed: its tables take corrections from their "
                                                   "own scorer links.", n=round_no))
    except store.NotFound:
        return render_page(cup, status=404, said=_("Round %(round)s has no table %(n)s.", round=round_no, n=number))
    return redirect(url_for("cups.show", tournament_id=cup.id, _anchor="corrections"), 303)


@bp.post("/k/<tournament_id>/clock")
def clock(tournament_id):
    """Set the clock of the round being played: it ends the minutes given from now (0: no clock)."""
    cup = load_tournament(tournament_id)
    round_no = digits(request.form.get("round"), 2) or 0
    text = request.form.get("minutes") or ""
    minutes = _minutes(text) if text.strip() else None
    if minutes is None:
        return render_page(cup, status=400, minutes=text, errors={"minutes": _(
            "Write the minutes from now: a whole number from 0 (no clock) to %(n)s.", n=MOST_MINUTES)})
    try:
        store.set_round_clock(cup.id, round_no, minutes)
    except store.RoundOpen:
        return render_page(store.get_tournament(cup.id, cup.role), status=409,
                           said=_("Round %(n)s isn't being played: only the round being played has a clock.",
                                  n=round_no))
    return redirect(url_for("cups.show", tournament_id=cup.id, _anchor="clock"), 303)


@bp.post("/k/<tournament_id>/close")
def close(tournament_id):
    """Close the round being played: every table in, or the director ending those that aren't (end=1)."""
    cup = load_tournament(tournament_id)
    round_no = digits(request.form.get("round"), 2) or 0
    try:
        store.close_round(cup.id, round_no, end_unfinished=request.form.get("end") == "1")
    except store.RoundOpen:
        return render_page(store.get_tournament(cup.id, cup.role), status=409,
                           said=_("Not every table has its games in: end the unfinished tables to close the round "
                                  "now."))
    return redirect(url_for("cups.show", tournament_id=cup.id), 303)


@bp.post("/k/<tournament_id>/draw")
def draw_next(tournament_id):
    """Draw the next round: only when the round played is closed; its tables are opened at once."""
    cup = load_tournament(tournament_id)
    try:
        store.draw_next_round(cup.id)
    except store.RoundOpen:
        said = _("Close the round being played first: the next round is drawn when all its tables are in.")
        return render_page(store.get_tournament(cup.id, cup.role), status=409, said=said)
    except CantSeat as e:
        return render_page(cup, status=409, said=say(e))
    return redirect(url_for("cups.show", tournament_id=cup.id), 303)


@bp.get("/k/<tournament_id>/cards")
def cards(tournament_id):
    """The round's table cards, to print and lay on the tables (the director's alone: each holds its table's scorer
    link): the cup, the round, the table's number, the players by seat, the scorer link as a QR code, and the QR of
    the cup's live page (its watch link), each labelled."""
    cup = load_tournament(tournament_id)
    placed = store.cup_tables(cup.id)
    current = max((t.round for t in placed), default=0)
    round_no = digits(request.args.get("round"), 2) or current
    mine = [t for t in placed if t.round == round_no]
    names = {p.number: p.name for p in store.entrants(cup.id)}
    keys = store.share_links_of([t.table_id for t in mine]) if mine else {}
    shown = []
    for t in mine:
        link = external("tables.show", table_id=keys[t.table_id][store.SCORER])
        shown.append(dict(number=t.number, seats=[(n, names.get(n, "?")) for n in t.seats], link=link, qr=qr(link)))
    watch_url, watch_qr = watch_link(cup)  # one code for every card: the same live page
    return render_template("cup/cards.html", cup=cup, round_no=round_no, cards=shown, watch_url=watch_url,
                           watch_qr=watch_qr, day=format_date(cup.held_on, "long"), game=get_game(cup.game))


@bp.get("/k/<tournament_id>/p/<int:number>")
@viewer_ok
def player(tournament_id, number):
    """A player's page: their table and seat in each round drawn, with whom, their points there, their rank."""
    cup = load_tournament(tournament_id)
    shown = board(cup)
    line = next((s for s in shown["standings"] if s.number == number), None)
    if line is None:
        return render_page(cup, status=404, said=_("No player of this cup has the number %(n)s.", n=number))
    names = {p.number: p.name for p in shown["players"]}
    points = {(s.round, s.table): s.points for s in line.rounds}
    rounds = [dict(round=t.round, table=t.number, seat=t.seats.index(number) + 1,
                   others=[(n, names.get(n, "?")) for n in t.seats if n != number],
                   points=points.get((t.round, t.number)))
              for t in store.cup_tables(cup.id) if number in t.seats]
    return render_template("cup/player.html", cup=cup, line=line, rounds=rounds, day=shown["day"], game=shown["game"],
                           clock=shown["clock"])
