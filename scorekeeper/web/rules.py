"""The rules page of each game (/rules/<game>) and the index of games (/rules).

The facts the engine knows (deck, values, totals, player counts, house rules and their defaults) are
read from the Game object; the worked examples come from rule_examples; the prose is in the templates.
"""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..engine import cards as C
from ..engine import examples as rule_examples
from ..engine.games import CLASSES, all_games, card_class, resolve_rules
from ..engine import naming
from ..engine.text import fmt_points

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def index():
    return render_template("rules_index.html", games=list(all_games().values()))


@bp.get("/rules/<game>")
def game_page(game):
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
        [f"rules_{found.id}.html", "rules.html"],
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
        legend=naming.say(naming.naming(found).legend, _),
        points=fmt_points,
        tr=_,  # translates the engine's Lines (Line.render)
    )


def card_name(code: str, game) -> str:
    """Name a card as the game's players do, in the reader's language: Munt (XXI), König Rosen."""
    return naming.card_name(game, code, resolve_rules(game, None), _)


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
        out.append((naming.say(n.suits[suit], _), label))
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
            row["label"] = naming.say(naming.class_label(game, cls, rules), _)
            row["count"] = len(row["cards"])
            out.append(row)
    return out


OPTION_TITLES = {
    "min_players": _l("Fewest players"),
    "match_with_tapp_points": _l("A Match with Tapp points"),
    "misere_tie": _l("Tie in a Misère"),
    "tapp_4p": _l("Tapp at 4 players"),
    "all_tricks_take_scart": _l("All tricks take the scart"),
    "odd_pile": _l("Impossible pile sizes"),
    "poignee_bonus": _l("Poignée bonus"),
    "poignee_thresholds_5p": _l("Poignée at 5 players"),
    "garde_contre_multiplier": _l("Garde contre"),
    "excuse_last_trick": _l("Excuse in the last trick"),
    "defence_chelem_bonus": _l("Defence chelem"),
    "misere": _l("Misère"),
    "round_to_10": _l("Round to 10"),
    "prise_allowed": _l("Prise allowed"),
    "half_points": _l("Half points"),
    "fool_exchange": _l("Matto exchange"),
    "honour_trump": _l("Honour trump"),
    "declarations_paid": _l("Declarations paid"),
    "honours_reading": _l("Honours held together"),
    "fool_in_trumps": _l("Matto among ten trumps"),
    "unexchanged_fool": _l("Fool never exchanged"),
    "force_trump": _l("La Force"),
}

# A value in words, by (option, value): the same value can mean different things in two options.
CHOICE_WORDS = {
    ("misere_tie", "each_top_pays"): _l("each top scorer pays everyone else"),
    ("misere_tie", "split"): _l("the top scorers split one payment"),
    ("misere_tie", "none"): _l("nobody pays"),
    ("odd_pile", "reject"): _l("refuse the pile"),
    ("odd_pile", "warn"): _l("count it and warn"),
    ("excuse_last_trick", "trick_winner"): _l("it goes to the trick's winner"),
    ("excuse_last_trick", "changes_side"): _l("it changes side"),
    ("half_points", "fft"): _l("FFT: the margin rounded up for the side that scores"),
    ("half_points", "down"): _l("the taker's points rounded down"),
    ("half_points", "up"): _l("the taker's points rounded up"),
    ("fool_exchange", "none"): _l("none: the Matto counts alone as 4"),
    ("fool_exchange", "french"): _l("exchanged for a low card (77 in all)"),
    ("declarations_paid", "each_player"): _l("paid by each other player"),
    ("declarations_paid", "flat"): _l("added to the declarer only"),
    ("honours_reading", "canonical"): _l("the best of kings, trio or four, +5 per further honour"),
    ("honours_reading", "trio_and_four"): _l("trio and four both paid"),
    ("honours_reading", "four_over_trio"): _l("four honours instead of the trio"),
    ("fool_in_trumps", "tenth_only"): _l("only as the tenth"),
    ("fool_in_trumps", "never"): _l("never"),
    ("unexchanged_fool", "winner"): _l("it stays in the trick's winner's pile"),
    ("unexchanged_fool", "owner"): _l("its player keeps it alone as 5"),
}


def option_title(name: str) -> str:
    """Return a short title for a house rule, e.g. “Poignée bonus”."""
    return str(OPTION_TITLES[name]) if name in OPTION_TITLES else name.replace("_", " ").capitalize()


def in_words(value, game, name: str = "") -> str:
    """Write a house-rule value for people: Yes, No, 20 / 30 / 40, trump XX, “nobody pays”."""
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if isinstance(value, list):
        return " / ".join(str(v) for v in value)
    if isinstance(value, str):
        try:
            return card_name(C.parse_card(value), game)
        except ValueError:
            words = CHOICE_WORDS.get((name, value))
            return str(words) if words else value.replace("_", " ")
    return str(value)


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
    return [(card_name(c, game), fmt_points(values[c])) for c in pile]
