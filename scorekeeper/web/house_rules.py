"""House rules in words: each option's title and each value's meaning, for the rules pages and the table form."""
from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..engine import cards as C
from ..engine import naming
from ..engine.games import resolve_rules


def card_name(code: str, game) -> str:
    """Name a card as the game's players do, in the reader's language: Munt (XXI), König Rosen."""
    return naming.card_name(game, code, resolve_rules(game, None), _)


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


