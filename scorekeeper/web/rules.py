"""The rules page of each game (/rules/<game>) and the index of games (/rules).

The facts the engine knows (deck, values, totals, player counts, house rules and their defaults) are
read from the Game object; the worked examples come from rule_examples; the prose is in the templates.
"""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from flask_babel import gettext as _

from ..engine import cards as C
from .l10n import points, say
from ..engine import examples as rule_examples
from ..engine.games import CLASSES, all_games, card_class, resolve_rules
from ..engine import naming
from .house_rules import card_name, in_words, option_title

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def index():
    """The rules pages' index: every game, with what it is played with."""
    return render_template("rules/index.html", games=list(all_games().values()))


@bp.get("/rules/<game>")
def game_page(game):
    """One game's rules as this app scores them, with worked examples."""
    found = all_games().get(game)
    if found is None:
        abort(404)
    example = rule_examples.example(found)
    try:
        engine = rule_examples.engine_result(found, example)
    except Exception:  # a scoring bug must not take the rules down; test_rulebook still fails on it
        current_app.logger.exception("score() failed on the rules page's example for %s", found.id)
        engine = None
    return render_template(
        [f"rules/{found.id}.html", "rules/game.html"],
        game=found,
        suits=deck_suits(found),
        trumps=sum(1 for c in found.deck if C.is_trump(c)),
        has_fool=C.FOOL in found.deck,
        values=value_rows(found),
        samples=[(describe(found, pile), count, whole)
                 for pile, count, whole in rule_examples.sample_counts(found)],
        ex=example,
        n=example.numbers if example else {},
        engine=engine,
        options=option_rows(found),
        card=lambda code: card_name(code, found),
        legend=say(naming.naming(found).legend),
        points=points,
    )


def deck_suits(game) -> list[tuple[str, str]]:
    """Return each suit with its ranks, high to low as the game ranks them (docs/rules.md §0.1)."""
    n = naming.naming(game)
    out = []
    for suit in C.SUITS:
        ranks = [C.rank_of(c) for c in game.deck if C.suit_of(c) == suit]
        courts = [r for r in ranks if r in C.COURTS]
        pips = sorted((r for r in ranks if r not in C.COURTS), key=int, reverse=True)
        if suit in C.ROUND_SUITS and n.round_ace_high:
            pips.reverse()
        label = " ".join(n.courts.get(r, r) for r in courts + pips)
        out.append((say(n.suits[suit]), label))
    return out


def value_rows(game) -> list[dict]:
    """Group the deck by class of card: who, worth each, how many, together; the last row is the sum."""
    rules = resolve_rules(game, None)
    values = game.values(rules)
    rows = {}
    for card in game.deck:
        cls = card_class(game, card, rules)
        row = rows.setdefault(cls, {"class": cls, "cards": [], "each": values[card], "sum": 0})
        row["cards"].append(card)
        row["sum"] += values[card]
    out = []
    for cls in CLASSES:
        if cls in rows:
            row = rows[cls]
            row["label"] = say(naming.class_label(game, cls, rules))
            row["count"] = len(row["cards"])
            out.append(row)
    return out


def option_rows(game) -> dict[str, dict]:
    """Return every house rule with its title, meaning, default and other choices, in words."""
    out = {}
    for name, opt in game.options.items():
        others = [in_words(v, game, name) for v in (opt.choices or ()) if v != opt.default]
        out[name] = {"name": name, "title": option_title(name), "meaning": _(opt.meaning),
                     "default": in_words(opt.default, game, name), "others": others}
    return out


def describe(game, pile: list[str]) -> list[tuple[str, str]]:
    """Return each card of a pile with its value, for a worked count."""
    values = game.values(resolve_rules(game, None))
    return [(card_name(c, game), points(values[c])) for c in pile]
