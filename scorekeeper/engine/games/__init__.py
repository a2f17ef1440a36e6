"""The games: one file each, gathered in registry.py. Pure.

- `<game>.py` (troggu, troccas, french_tarot, scarto, mitigati, swiss_tarot_1659, sicilian_tarocchi,
  triomphe_forcee): one game whole, its deck and values, house rules with their words, card names, score() and
  hand entry, ending in `GAME = Game(...)` (STYLE.md, after python-chess's variants and OpenSpiel's games);
- `piles.py`: every player's pile read and scored, shared by Scarto, Swiss Tarot 1659 and Mitigati;
- `registry.py`: the games in the order they are offered, one line each.

Adding a game is one file and one line in registry.py. What every game is made of (Game, Option, Result)
and the checks its score() shares live in engine/game.py, which the game files import; they never import
this package, which imports them. Its names are re-exported here for the web layer, the tests and the bench.
"""
from __future__ import annotations

from ..errors import UnknownGame
from ..game import (CLASSES, PLAYERS, Counting, as_stored, Example, Game, Option, Result, card_class, cards_for_classes, check_count,
                    check_players, class_sizes, count_pile, hand_fields, one_of, pile_of, renamed, renamed_everywhere,
                    resolve_rules, seat, whole_points)
from ..text import line
from . import registry

__all__ = ["CLASSES", "PLAYERS", "Counting", "as_stored", "Example", "Game", "Option", "Result", "all_games", "card_class", "cards_for_classes",
           "check_count", "check_players", "class_sizes", "count_pile", "get_game", "hand_fields", "one_of", "pile_of",
           "registry", "renamed", "renamed_everywhere", "resolve_rules", "seat", "whole_points"]


def get_game(game_id: str) -> Game:
    """Return a registered game or raise UnknownGame."""
    try:
        return registry.GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(line("There is no game “{game_id}”. Games: {GAMES}.", game_id=game_id, GAMES=', '.join(registry.GAMES))) from None


def all_games() -> dict[str, Game]:
    """Return the registry, in the order games are offered."""
    return registry.GAMES
