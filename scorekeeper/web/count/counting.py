"""The counting pages (tap the cards, by class, group by group), and the counting aid's cards a hand form fetches."""
from __future__ import annotations

import json

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ...engine import cards as C
from ..l10n import say
from ...engine.errors import ScoreError, UnknownGame
from ..parse import digits
from ...engine.games import (CLASSES, all_games, cards_for_classes, class_sizes,
                    count_pile, get_game, resolve_rules)
from ..deck import card_title, class_label, deck_sections, group_size
from .. import count_aid
from ..assets import kept_by_digest

bp = Blueprint("counting", __name__)

COUNTING_OPTIONS = ("honour_trump",)  # the house rules that change a card's value


@bp.get("/count")
def count_start():
    """The counting page: choose a game and how to count its pile."""
    return redirect(url_for("counting.count", game_id=next(iter(counting_games()))))


@bp.route("/count/<game_id>", methods=["GET", "POST"])
def count(game_id):
    """Tap cards into the pile; each tap recounts it."""
    game = load_game(game_id)
    if not game.counts_cards:
        return render_template("count/tricks.html", game=game, games=counting_games())
    rules, rule_error = form_rules(game)
    picked = request.form.getlist("card") if request.method == "POST" else []
    result, error, checked = None, None, set()
    try:
        pile = C.parse_pile(picked, game.deck, game.name)
        checked = set(pile)
        result = count_pile(game, pile, rules)
    except ScoreError as e:
        error = say(e)
        checked = {c for c in picked if c in game.deck}
    context = dict(game=game, rules=rules, rule_error=rule_error, result=result, error=error)
    if request.headers.get("HX-Target") == "result":
        return render_template("count/_result.html", **context)
    return render_template("count/tap.html", mode="tap", games=counting_games(), sections=deck_sections(game, rules),
                           checked=checked, **context)


@bp.route("/count/<game_id>/classes", methods=["GET", "POST"])
def count_classes(game_id):
    """Count a big pile from how many cards of each class it holds, with + and − buttons."""
    game = load_game(game_id, counting_only=True)
    rules, rule_error = form_rules(game)
    sizes = class_sizes(game, rules)
    rows, errors, counts = [], {}, {}
    step_name, _sep, step = request.form.get("step", "").partition(":")
    for name in CLASSES:
        if not sizes[name]:
            continue
        raw = request.form.get(name, "0").strip() or "0"
        # at most 9 ASCII digits, a minus allowed (said as out of range): int() also read 5000 digits, '٣', 1_000
        n = digits(raw[1:]) if raw.startswith("-") else digits(raw)
        n = -n if n is not None and raw.startswith("-") else n
        if n is None:
            errors[name] = _("Write a whole number from 0 to %(max)d.", max=sizes[name])
        if n is not None and name == step_name and step in ("1", "-1"):
            n = min(max(n + int(step), 0), sizes[name])
            raw = str(n)
        if n is not None and not 0 <= n <= sizes[name]:
            errors[name] = _("The %(game)s deck has %(max)d of these: write 0 to %(max)d.", game=_(game.name), max=sizes[name])
        elif n is not None:
            counts[name] = n
        rows.append(dict(name=name, label=class_label(game, name, rules), value=raw, max=sizes[name],
                         n=n if n is not None else 0))
    result = count_pile(game, cards_for_classes(game, counts, rules), rules) if not errors else None
    context = dict(game=game, rules=rules, rule_error=rule_error, rows=rows, errors=errors, result=result,
                   error=None)
    if request.headers.get("HX-Target") == "classes":
        return render_template("count/_classes.html", **context)
    return render_template("count/classes.html", mode="classes", games=counting_games(), **context)


@bp.route("/count/<game_id>/groups", methods=["GET", "POST"])
def count_groups(game_id):
    """Count group by group as players do at the table; any earlier group can be changed."""
    game = load_game(game_id, counting_only=True)
    size = group_size(game)
    if size is None:
        abort(404)
    rules, rule_error = form_rules(game)
    groups = [g.split() for g in request.form.getlist("group") if g.split()]
    current = request.form.getlist("card")
    editing = request.form.get("editing", "")
    editing = digits(editing) if editing.isascii() else None
    editing = editing if editing is not None and editing < len(groups) else None
    op, _sep, arg = request.form.get("op", "").partition(":")
    error = None
    try:
        C.parse_pile([c for g in groups for c in g], game.deck, game.name)
    except ScoreError as e:
        groups, editing, error = [], None, say(e)
    others = [c for i, g in enumerate(groups) if i != editing for c in g]
    current = [c for c in dict.fromkeys(current) if c in game.deck and c not in others]
    if error:
        op = ""  # the groups were not readable: show the message, change nothing
    i = digits(arg) if arg.isascii() else None
    if op in ("edit", "remove") and i is not None and i < len(groups):
        if op == "edit":
            if current and editing is None:
                error = _("Add or clear the group you are entering before changing another one.")
            else:
                if editing is not None:
                    groups[editing] = current
                editing, current = i, list(groups[i])
        else:
            groups[i] = []
            editing = None if editing == i else editing
    elif op == "add":
        if not current:
            error = _("Tick the cards of the group first.")
        elif len(current) > size:
            error = _("A group has at most %(n)d cards; you ticked %(m)d.", n=size, m=len(current))
        else:
            if editing is None:
                groups.append(current)
            else:
                groups[editing] = current
            editing, current = None, []
    elif not error and len(current) > size:
        error = _("A group has at most %(n)d cards; you ticked %(m)d.", n=size, m=len(current))
    keep = [i for i, g in enumerate(groups) if g or i == editing]
    editing = keep.index(editing) if editing is not None else None
    groups = [groups[i] for i in keep]
    rows = [dict(cards=g, names=", ".join(card_title(game, c, rules) for c in g),
                 value=count_pile(game, g, rules).points) for g in groups]
    in_groups = [c for i, g in enumerate(groups) if i != editing for c in g]
    total = sum((r["value"] for r in rows), 0)
    pile = count_pile(game, [c for g in groups for c in g], rules)
    now = count_pile(game, current, rules) if current and len(current) <= size else None
    short = sum(1 for g in groups if len(g) < size)
    context = dict(game=game, rules=rules, rule_error=rule_error, size=size, rows=rows, editing=editing,
                   current=current, checked=set(current), disabled=set(in_groups), total=total, pile=pile,
                   now=now, short=short, error=error, sections=deck_sections(game, rules))
    if request.headers.get("HX-Target") == "grouping":
        return render_template("count/_grouping.html", **context)
    return render_template("count/groups.html", mode="groups", games=counting_games(), **context)


def load_game(game_id: str, counting_only: bool = False):
    """Return the game or answer 404; with counting_only, also 404 for a game without card points."""
    try:
        game = get_game(game_id)
    except UnknownGame:
        abort(404)
    if counting_only and not game.counts_cards:
        abort(404)
    return game


def counting_games() -> dict:
    """Return the games whose piles are counted in card points."""
    return {gid: g for gid, g in all_games().items() if g.counts_cards}


def form_rules(game):
    """Return the game's rules with the counting house rules chosen in the form, and any error."""
    chosen = {name: request.values[name] for name in COUNTING_OPTIONS
              if name in game.options and name in request.values}
    try:
        return resolve_rules(game, chosen), None
    except ScoreError:
        return resolve_rules(game, None), _("Choose one of the listed house rules.")


@bp.get("/count/<game_id>/aid")
def aid(game_id):
    """The counting aid's classes and cards, empty, for a game and house rules: what a table page's new-hand form
    fetches (count_aid.url); kept for a year when asked by the digest of what it is now."""
    try:
        game = get_game(game_id)
        rules = json.loads(request.args.get("rules", "{}"))
        if not isinstance(rules, dict) or not game.counts_cards:  # no cards to count in a game of tricks
            abort(404)
        resolve_rules(game, rules)
    except (ValueError, RecursionError):  # no such game or house rule (a ScoreError), no JSON, or nested too deep
        abort(404)
    html, digest = count_aid.fragment(game.id, rules)
    return kept_by_digest(make_response(html), digest)
