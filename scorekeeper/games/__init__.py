"""The registry of games and what every game shares: options, counting a pile, the result. Pure.

A game is data plus one `score` function in its own file (STYLE.md, after python-chess's variants
and OpenSpiel's games); adding a game is one file and one line in GAMES.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from .. import cards as C
from ..counting import Count, direct_sum, in_groups, in_halves
from ..errors import BadRequest, TooManyCards, UnknownGame
from ..text import Line, line


@dataclass(frozen=True)
class Option:
    """A house rule: its default, the values it may take (None: any of the default's type), its meaning."""

    default: object
    meaning: str
    choices: tuple | None = None


@dataclass(frozen=True)
class Result:
    """A scored hand: card points, each player's score in the game's unit, and the working in words."""

    points: dict
    scores: dict[str, int]
    explanation: tuple[Line, ...]
    warnings: tuple[Line, ...] = ()


@dataclass(frozen=True)
class Game:
    id: str
    name: str
    min_players: int
    max_players: int
    deck: tuple[str, ...]
    counting: str  # "sum", "groups", "halves" or "tricks"
    values: Callable[[dict], dict]  # rules -> {card: nominal value}
    options: dict[str, Option] = field(default_factory=dict)
    group_size: int | None = None
    two_sided: bool = False
    pile_warnings: Callable[[list, dict], list] = lambda cards, rules: []
    score: Callable | None = None  # score(players, hand, rules) -> Result
    oudlers: frozenset = frozenset()
    total: int | None = None  # the deck's points, summed over the piles of a real hand (RULES.md §0.3)
    default_stake: int = 1
    unit: str = "point"


def resolve_rules(game: Game, overrides: dict | None) -> dict:
    """Return the game's house rules with `overrides` applied, checking names and types."""
    rules = {name: opt.default for name, opt in game.options.items()}
    for name, value in (overrides or {}).items():
        opt = game.options.get(name)
        if opt is None:
            known = ", ".join(game.options) or "none"
            raise BadRequest(f"{game.name} has no house rule “{name}” (its house rules: {known}).")
        if not _fits(value, opt):
            raise BadRequest(f"“{value}” is not a possible value for the house rule “{name}”.")
        rules[name] = value
    return rules


def _fits(value, opt: Option) -> bool:
    if opt.choices is not None:
        return value in opt.choices and type(value) is type(opt.default)
    if isinstance(opt.default, list):
        return (isinstance(value, list) and len(value) == len(opt.default)
                and all(type(v) is int and v >= 0 for v in value))
    return type(value) is type(opt.default)


def count_pile(game: Game, cards: list[str], rules: dict) -> Count:
    """Count a pile of canonical card codes by the game's scheme, with the rest and any warnings."""
    values = game.values(rules)
    if game.counting == "tricks":
        raise BadRequest(f"{game.name} has no card points to count: only tricks count.")
    if len(cards) > len(game.deck):
        raise TooManyCards(f"A pile can't have more than the {len(game.deck)} cards of the deck.")
    result = _count(game, cards, values)
    rest = None
    if game.two_sided:
        pile = set(cards)
        rest = _count(game, [c for c in game.deck if c not in pile], values)
    warnings = tuple(game.pile_warnings(cards, rules))
    return Count(result.cards, result.points, result.nominal, result.groups, result.working,
                 result.oudlers, rest, warnings)


def _count(game: Game, cards, values) -> Count:
    if game.counting == "sum":
        return direct_sum(cards, values)
    if game.counting == "groups":
        return in_groups(cards, values, game.group_size)
    return in_halves(cards, values, game.oudlers)


def deck_total(game: Game):
    """Return the points of the whole deck, summed over a real hand's piles (None for trick games)."""
    return game.total


# Class counts: a quicker entry for a big pile (how many honours, kings, ... are in it).
CLASSES = ("honours", "fool", "kings", "queens", "cavaliers", "jacks", "others")
_RANK_CLASS = {"K": "kings", "Q": "queens", "C": "cavaliers", "J": "jacks"}


def card_class(game: Game, card: str, rules: dict) -> str:
    """Return the class a card is counted in: honours (5-point trumps), fool, kings, ..., others."""
    if card == C.FOOL:
        return "fool"
    rank = C.rank_of(card)
    if rank in _RANK_CLASS:
        return _RANK_CLASS[rank]
    if card in game.oudlers or (C.is_trump(card) and game.values(rules)[card] == 5):
        return "honours"
    return "others"


def class_sizes(game: Game, rules: dict) -> dict[str, int]:
    """Return how many cards of each class the deck holds (the most a pile can have)."""
    sizes = dict.fromkeys(CLASSES, 0)
    for card in game.deck:
        sizes[card_class(game, card, rules)] += 1
    return sizes


def cards_for_classes(game: Game, counts: dict[str, int], rules: dict) -> list[str]:
    """Return a pile with the given number of cards per class (which ones doesn't change the count)."""
    sizes = class_sizes(game, rules)
    for name, n in counts.items():
        if name not in sizes:
            raise BadRequest(f"“{name}” is not a class of cards.")
        if type(n) is not int or n < 0:
            raise BadRequest(f"The number of {name} must be a whole number, 0 or more.")
        if n > sizes[name]:
            raise TooManyCards(line("The {game} deck has only {size} {name}.",
                                    game=game.name, size=sizes[name], name=name).render(),
                               field=name)
    pile, taken = [], dict.fromkeys(CLASSES, 0)
    for card in game.deck:
        cls = card_class(game, card, rules)
        if taken[cls] < counts.get(cls, 0):
            pile.append(card)
            taken[cls] += 1
    return pile


def get_game(game_id: str) -> Game:
    """Return a registered game or raise UnknownGame."""
    from . import registry
    try:
        return registry.GAMES[game_id]
    except (KeyError, TypeError):
        raise UnknownGame(f"There is no game “{game_id}”. Games: {', '.join(registry.GAMES)}.") from None


def all_games() -> dict[str, Game]:
    """Return the registry, in the order games are offered."""
    from . import registry
    return registry.GAMES


def half(x) -> Fraction:
    """Return x as an exact Fraction (French Tarot points may be halves)."""
    return Fraction(x)
