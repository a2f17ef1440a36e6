"""A game's cards as the pages show them: the deck laid out for tapping, each card's tile and name, the words for a
class of cards, how many cards players count at once."""
from __future__ import annotations

from flask_babel import gettext as _

from ..engine import cards as C
from ..engine.game import Counting
from ..engine.games import get_game, resolve_rules
from ..engine.naming import card_name, label, naming
from ..engine.naming import class_label as naming_class_label
from .l10n import say


def group_size(game) -> int | None:
    """Return how many cards players count at once: 4 Troccas, 3 Italian/1659, a pair French Tarot."""
    if game.counting is Counting.GROUPS:
        return game.group_size
    if game.counting is Counting.THIRDS:
        return 3  # docs/rules.md §11: at the table, threes less 2, a partial three less 1
    if game.counting is Counting.HALVES:
        return 2  # french-tarot-wikipedia.txt: "Cards are paired"
    return None


def deck_sections(game, rules) -> list[dict]:
    """Split the deck into trumps (with the Fool) and the four suits, each card with its label."""
    n, values = naming(game, rules), game.values(rules)  # the value table once, not once per card
    trumps = [c for c in game.deck if C.suit_of(c) is None]
    out = [dict(key="trumps", title=None, cards=[card_tile(game, c, rules, values) for c in trumps])]
    for suit in C.SUITS:
        cards = [c for c in game.deck if C.suit_of(c) == suit]
        out.append(dict(key=suit, title=n.suits[suit], mark=n.suit_marks[suit],
                        cards=[card_tile(game, c, rules, values) for c in cards]))
    return out


def card_tile(game, card: str, rules, values: dict | None = None) -> dict:
    """Return what a card's tile shows: its index, its name and its full title for screen readers."""
    lab = label(game, card, rules)
    return dict(code=card, index=lab.index, name=lab.name, title=card_title(game, card, rules),
                value=(values or game.values(rules))[card])


def card_title(game, card: str, rules) -> str:
    """Return the card's full name, e.g. "Munt (XXI)" or "König Rosen"."""
    return card_name(game, card, rules, _)


def class_label(game, name: str, rules) -> str:
    """Return the words for a class of cards in this game (the honour trumps by their names)."""
    return say(naming_class_label(game, name, rules))


def deck_for(table) -> list[dict]:
    """Return a table's deck laid out for tapping cards, as the counting page shows it."""
    game = get_game(table.game)
    return deck_sections(game, resolve_rules(game, table.rules))
