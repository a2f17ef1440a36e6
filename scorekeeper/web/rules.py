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
from ..engine.text import fmt_points

bp = Blueprint("rules", __name__)

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
         "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI")


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
        points=fmt_points,
        tr=_,  # translates the engine's Lines (Line.render)
    )


# What each game's players call the special cards (the rule texts in the sources; CARDS.md).
LOCAL_NAMES = {
    "troggu": {"FOOL": "Bättler", "T1": "Bagatt", "T20": "Zwänzger", "T21": "Munt"},
    "troccas": {"FOOL": "il narr", "T1": "il bagat", "T21": "il mund"},
    "french_tarot": {"T1": "Petit", "T21": "Monde"},
    "scarto": {"FOOL": "Matto", "T1": "Bagatto", "T20": "Angelo"},
    "mitigati": {"FOOL": "Matto", "T1": "Bagatto", "T20": "Angelo"},
    "swiss_tarot_1659": {"FOOL": "le Fou", "T1": "le Basteleur", "T21": "le Monde"},
    "triomphe_forcee": {"FOOL": "le Fou", "T1": "le Basteleur", "T13": "la Mort"},
}


def card_name(code: str, game) -> str:
    """Name a card for people: trump XXI (Munt), the Fool, king of swords (French suits in French Tarot)."""
    local = LOCAL_NAMES.get(game.id, {}).get(code)
    if code == C.FOOL:
        if game.id == "french_tarot":
            return _("Excuse")
        return _("Fool (%(name)s)", name=local) if local else _("Fool")
    if C.is_trump(code):
        if local:
            return _("trump %(n)s (%(name)s)", n=ROMAN[C.trump_number(code)], name=local)
        return _("trump %(n)s", n=ROMAN[C.trump_number(code)])
    return _("%(rank)s of %(suit)s", rank=rank_name(C.rank_of(code), game), suit=suit_name(C.suit_of(code), game))


def rank_name(rank: str, game) -> str:
    """Name a rank: king, queen, cavalier (knight in French Tarot), jack, or the pip's number."""
    names = {"K": _("king"), "Q": _("queen"), "J": _("jack"),
             "C": _("knight") if game.id == "french_tarot" else _("cavalier")}
    return names.get(rank, rank)


def suit_name(suit: str, game) -> str:
    """Name a suit, in the French suits for French Tarot and the Italian suits elsewhere."""
    if game.id == "french_tarot":
        return {"SW": _("spades ♠"), "BA": _("clubs ♣"), "CU": _("hearts ♥"), "CO": _("diamonds ♦")}[suit]
    return {"SW": _("swords"), "BA": _("batons"), "CU": _("cups"), "CO": _("coins")}[suit]


def deck_suits(game) -> list[tuple[str, str]]:
    """Return each suit with its ranks, high to low as the game ranks them (RULES.md §0.1)."""
    out = []
    for suit in C.SUITS:
        ranks = [C.rank_of(c) for c in game.deck if C.suit_of(c) == suit]
        courts = [r for r in ranks if r in C.COURTS]
        pips = sorted((r for r in ranks if r not in C.COURTS), key=int, reverse=True)
        # The round suits' pips rank 1 high in the Italian and Swiss games; French Tarot ranks 10 high.
        if suit in C.ROUND_SUITS and game.id != "french_tarot":
            pips.reverse()
        label = " ".join(rank_letter(r, game) for r in courts + pips)
        out.append((suit_name(suit, game), label))
    return out


def rank_letter(rank: str, game) -> str:
    """Write a rank short, with French Tarot's letters R D C V for the court cards."""
    if game.id == "french_tarot":
        return {"K": "R", "Q": "D", "C": "C", "J": "V"}.get(rank, rank)
    return rank


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
            row["label"] = class_label(cls, row["cards"], game)
            row["count"] = len(row["cards"])
            out.append(row)
    return out


def class_label(cls: str, cards: list[str], game) -> str:
    """Name a class of cards as a player would: the honour trumps by number, then the courts."""
    if cls == "honours":
        local = LOCAL_NAMES.get(game.id, {})
        numbers = [f"{ROMAN[C.trump_number(c)]} ({local[c]})" if c in local else ROMAN[C.trump_number(c)]
                   for c in sorted(cards, key=C.trump_number)]
        if len(numbers) == 2:
            return _("Trumps %(a)s and %(b)s", a=numbers[0], b=numbers[1])
        return _("Trumps %(list)s", list=", ".join(numbers))
    if cls == "fool":
        return card_name(C.FOOL, game)
    if cls == "others":
        return _("Every other trump and every pip card")
    names = {"kings": _("Kings"), "queens": _("Queens"), "jacks": _("Jacks"),
             "cavaliers": _("Knights") if game.id == "french_tarot" else _("Cavaliers")}
    return names[cls]


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
