"""House rules in words, in the reader's language, for the rules pages, the table's forms and a change of rules.

Each option's title and each value's words are declared with the option, in its game's file (engine.game.Option's
`title` and `words`, marked with N_()); this translates them where they are shown.
"""
from __future__ import annotations

from flask_babel import gettext as _

from ..engine import cards as C
from ..engine import naming
from ..engine.games import all_games, resolve_rules


def card_name(code: str, game) -> str:
    """Name a card as the game's players do, in the reader's language: Munt (XXI), König Rosen."""
    return naming.card_name(game, code, resolve_rules(game, None), _)


def option_title(name: str, game=None) -> str:
    """Return a short title for a house rule, e.g. “Poignée bonus”: the game's, else any game's of that name."""
    option = _option(name, game)
    return _(option.title) if option and option.title else name.replace("_", " ").capitalize()


def _option(name: str, game=None):
    """Return the option `name` of the game, or of the first game that has one (a title said by name alone)."""
    if game is not None and name in game.options:
        return game.options[name]
    return next((g.options[name] for g in all_games().values() if name in g.options), None)


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
            option = game.options.get(name)
            words = option.words.get(value) if option else None
            return _(words) if words else value.replace("_", " ")
    return str(value)
