"""Open a table (its game, players, stake and house rules), and change it during the evening: rename a player, a
player joins or leaves, the stake or a house rule.

Every change applies from the next hand on: each hand keeps the players, stake and house rules it was
played with (store: hands.setup), so old totals never move. A rename follows into every past hand.
The change is logged like a hand's, so Undo takes it back, and every watching phone sees it.
"""
from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import store
from ...engine.games import all_games, resolve_rules
from ...engine.evening import seated
from ..bounds import MAX_NAME
from ..l10n import amount_field, home_currency
from ..seating_check import check_seating, tidy
from ..parse import digits, evening_day, money_minor, today
from ..table_form import new_token, rule_value, rules_form, table_form_class
from ..access import load

bp = Blueprint("setup", __name__)


@bp.get("/tables/new")
def choose_game():
    """Choose the game of a new table."""
    return render_template("table/games.html", games=all_games().values())


@bp.route("/tables/new/<game_id>", methods=["GET", "POST"])
def new_table(game_id):
    """Open a table: players, first dealer, house rules and stake."""
    game = all_games().get(game_id) or abort(404)
    shown = min(game.max_players, max(game.min_players, game.shown_players or game.min_players))
    form = table_form_class(game, shown)()
    if request.method == "GET":
        form.currency.data = home_currency(game.currency)
        form.stake.data = amount_field(game.default_stake, form.currency.data)
        form.played_on.data = today().isoformat()
    if request.method == "POST":
        settings = form.check()
        if settings is not None:
            circle = store.find_circle(request.args.get("circle", ""))  # opened from a circle: one of its evenings
            in_circle = circle is not None and circle.active and circle.role == store.SCORER
            table = store.create_table(game.id, **settings, circle_id=circle.id if in_circle else None)
            return redirect(url_for("tables.show", table_id=table.id), 303)
    return render_template("table/new.html", game=game, form=form)


@bp.route("/t/<table_id>/setup", methods=["GET", "POST"])
def change(table_id):
    """Change the table from the next hand on: who plays, the stake, the house rules."""
    table, game = load(table_id)
    errors, values = {}, {}
    # a cup's table (issue 38): its seats are the draw's and its stake and house rules the cup's, for every table
    cup = store.tournament_of_table(table.id) is not None
    if request.method == "GET":
        values, form = _as_it_is(game, table)
    elif store.changed_by(table.id, request.form.get("token")):
        # this very form was posted before (a double tap, a resend after a dropped answer): the first post changed
        # the table; this one answers as it did and changes nothing more
        return redirect(url_for("tables.show", table_id=table.id), 303)
    elif digits(request.form.get("version")) != table.version:
        # another phone changed the table (or saved a hand) since this form was opened: nothing half-applied
        errors["players"] = _("The table was changed on another phone meanwhile. Here it is as it is now: "
                              "make your change again.")
        values, form = _as_it_is(game, table)
    else:
        values = request.form.to_dict()
        form = rules_form(game, table.rules, request.form)
        former = {p.casefold() for h in store.list_hands(table.id) for p in seated(h)}
        settings = check(game, table, values, form, errors, _fixed(game, table, cup), former, cup)
        if settings is not None:
            players, stake, rules, renames = settings
            try:
                store.change_table(table.id, players, stake, rules, renames, game.rename, request.form.get("token"),
                                   expected_version=table.version)
                return redirect(url_for("tables.show", table_id=table.id), 303)
            except store.RoundClosed as e:
                errors["players"] = _("Round %(n)s of the cup is closed: its hands are corrected only when the "
                                      "director opens this table for a correction.", n=e.round)
            except store.Moved:  # another change got in between the check above and this one: nothing applied
                errors["players"] = _("The table was changed on another phone meanwhile. Here it is as it is "
                                      "now: make your change again.")
                table = store.get_table(table.id)
                values, form = _as_it_is(game, table)
    return _page(game, table, values, errors, form, cup, table.day.isoformat(), request.args.get("dated") == "1")


@bp.post("/t/<table_id>/setup/date")
def evening_date(table_id):
    """Set the day the evening was played (its circle's standings and periods follow it)."""
    table, game = load(table_id)
    typed = request.form.get("played_on") or ""
    try:
        store.set_played_on(table.id, evening_day(typed, today()))
    except ValueError as e:
        values, form = _as_it_is(game, table)
        cup = store.tournament_of_table(table.id) is not None
        return _page(game, table, values, {"played_on": str(e)}, form, cup, typed, False), 400
    return redirect(url_for("setup.change", table_id=table.id, dated=1), 303)


def _as_it_is(game, table) -> tuple[dict, object]:
    """The change form's fields and house rules as the table is now."""
    values = {f"name{i}": p for i, p in enumerate(table.players)}
    values["stake"] = amount_field(table.stake, table.currency)
    return values, rules_form(game, table.rules)


def _fixed(game, table, cup: bool) -> bool:
    """Whether nobody joins or leaves: a game of one number of players, or a cup's table (its seats are the draw's)."""
    allowed = game.players_allowed(resolve_rules(game, table.rules))
    return allowed.start == allowed.stop - 1 or cup


def _page(game, table, values: dict, errors: dict, form, cup: bool, day: str, dated: bool) -> str:
    """The page to change the table, with what was typed and the messages at their fields."""
    return render_template("table/setup.html", table=table, game=game, values=values, errors=errors, rules=form,
                           fixed=_fixed(game, table, cup), cup=cup, token=new_token(), max_name=MAX_NAME, day=day,
                           dated=dated)


def check(game, table, values: dict, form, errors: dict, fixed: bool, former: set = frozenset(), cup: bool = False):
    """Return (players, stake, rules, renames) from the posted change, or None with messages at the fields.

    `former` holds (casefolded) every name that played a hand at this table: a player may not be renamed
    to someone who played here (their hands would merge for good); someone who left may come back. A seat's
    `takes` names who takes it over from the next hand (any game, fixed-size ones too: the number stays).
    The names, stake and house rules are checked as opening a table and importing one check them
    (seating_check.check_seating); a game played by a fixed number of players has nobody join or leave, nor a
    cup's table (`cup`), whose stake and house rules are the cup's too.
    """
    staying, renames, fields = [], {}, []
    moves = (values.get("join") or "").strip() or any(values.get(f"leaves{i}") for i in range(len(table.players)))
    if cup and moves:  # the page offers neither: a crafted post
        errors["players"] = _("At a cup's table the seats are the draw's: nobody joins or leaves; a name can be "
                              "corrected, and someone can take over a seat.")
    elif fixed and moves:  # the page offers neither: a crafted post
        errors["players"] = _("%(game)s is played by exactly %(n)s players: nobody can join or leave.",
                              game=_(game.name), n=len(table.players))
    for i, old in enumerate(table.players):
        name = tidy(values.get(f"name{i}") or "")
        if values.get(f"leaves{i}") and not fixed:
            continue
        takes = tidy(values.get(f"takes{i}") or "")
        if takes:
            # someone else takes this seat from the next hand on (a substitute): the hands played keep their player,
            # who is then listed as having left; the newcomer deals and plays in that seat
            if name and name != old:
                errors[f"takes{i}"] = _("Either correct %(name)s's name or say who takes the seat, not both.",
                                        name=old)
            staying.append(takes)
            fields.append(f"takes{i}")
            continue
        if not name:
            errors[f"name{i}"] = _("Write a name, or tick “leaves” if %(name)s leaves the table.", name=old)
        elif name != old:
            if name.casefold() in former - {p.casefold() for p in table.players}:  # someone who left
                errors[f"name{i}"] = _("%(name)s already played at this table: choose another name.", name=name)
            renames[old] = name
        staying.append(name or old)
        fields.append(f"name{i}")
    joining = tidy(values.get("join") or "")
    if joining and not fixed:
        staying.append(joining)
        fields.append("join")
    try:
        stake = money_minor(values.get("stake") or "")
    except ValueError as e:
        errors["stake"] = str(e)
        stake = table.stake
    rules = {}
    for name, opt in game.options.items():
        try:
            rules[name] = rule_value(opt, form["rule_" + name].data)
        except ValueError as e:
            errors["rule_" + name] = str(e)
    complete = len(rules) == len(game.options)
    if cup and "stake" not in errors and stake != table.stake:
        errors["stake"] = _("At a cup's table the stake is the cup's: the director set it for every table.")
    if cup and complete and rules != resolve_rules(game, table.rules):
        errors["players"] = _("At a cup's table the house rules are the cup's: the director set them for every "
                              "table.")
    for key, message in check_seating(staying, game, rules if complete else None).items():
        if key.startswith("name"):  # at the field of that seat (a repeated name: the later one)
            errors.setdefault(fields[int(key[4:])], message)
        elif key != "players":  # the number of players is said below, in this form's words
            errors.setdefault(key if key.startswith("rule_") else "players", message)
    if not errors:
        allowed = game.players_allowed(rules)
        if len(staying) not in allowed:
            low, high = allowed.start, allowed.stop - 1
            errors["players"] = (_("%(game)s is played by exactly %(n)s players: nobody can join or leave.",
                                   game=_(game.name), n=low) if fixed else
                                 _("%(game)s is played by %(low)s to %(high)s players; this would leave %(n)s.",
                                   game=_(game.name), low=low, high=high, n=len(staying)))
    if errors:
        return None
    return staying, stake, rules, renames
