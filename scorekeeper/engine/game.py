"""What every game is made of and shares: Game, Option, Result, Example, and the checks its score() uses. Pure.

A game file (engine/games/<game>.py) imports from here, never from the games package: the package
gathers the games (registry.py), so importing it back would make a cycle.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable

from . import cards as C
from .counting import Count, direct_sum, in_groups, in_halves, in_thirds
from .errors import BadHand, BadRequest, TooManyCards, UnknownPlayer
from .text import N_, Line, line


class Counting(StrEnum):
    """How a game's card points are counted: card by card (SUM), in groups of a few cards less a point or two
    each (GROUPS: Troccas's fours, the Italian threes), in pairs of halves (HALVES: French Tarot), or not at all:
    only tricks count (TRICKS: Triomphe Forcée), or to the Blatt: each card its value − ⅔, in thirds of a point
    (THIRDS: Königrufen, docs/rules.md §11)."""

    SUM = "sum"
    GROUPS = "groups"
    HALVES = "halves"
    TRICKS = "tricks"
    THIRDS = "thirds"


@dataclass(frozen=True)
class Option:
    """A house rule: its default, the values it may take (None: any of the default's type), its meaning, and
    its name and values in words for people (the rules page, the table's forms, a change of rules).

    `title` and `words` are marked with N_() where the option is declared and translated where they are shown;
    `words` gives each string choice that isn't a card code its words (a card is named as the game's players
    name it; True, False and numbers need none).
    """

    default: object
    meaning: str
    choices: tuple | None = None
    title: str = ""  # a short title: “Poignée bonus”
    words: dict = field(default_factory=dict)  # choice -> its words: {"none": N_("nobody pays")}
    # where the default changed: what a table saved without this option was opened with (`as_stored`); a table
    # keeps the rule it was opened with, so its totals never move (a new table gets the new default)
    was: object = None


@dataclass(frozen=True)
class Result:
    """A scored hand: card points, each player's score in the game's unit, and the working in words."""

    points: dict
    scores: dict[str, int]
    explanation: tuple[Line, ...]
    warnings: tuple[Line, ...] = ()
    # the money in the game's units where it differs from the scores (Königrufen's kontras change the money, not
    # the sheet: docs/rules.md §11.3); None: the money is the scores. Payouts are these × the stake.
    money: dict[str, int] | None = None

    @property
    def money_units(self) -> dict[str, int]:
        """Return what each player is paid, in units of the stake: `money`, or the scores where it is None."""
        return dict(self.scores if self.money is None else self.money)


@dataclass(frozen=True)
class Game:
    """A game: its deck and values, house rules, how a hand is entered and scored, its card names.

    Everything a page or the API needs to know of one game is here; no `if game.id == ...` elsewhere.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    deck: tuple[str, ...]
    counting: Counting  # (a game file may give its value, "sum": it is made a Counting)
    values: Callable[[dict], dict]  # rules -> {card: nominal value}
    score: Callable  # score(players, hand, rules) -> Result
    entry: Callable  # entry(players, rules, last facts or None) -> entry.Entry
    to_facts: Callable  # to_facts(values read from the form, players, rules) -> the hand's facts
    from_facts: Callable  # from_facts(facts, players, rules) -> the form's values
    summary: Callable  # summary(facts) -> Line: a hand in a few words for the history
    naming: object  # naming.Naming, or a function of the rules that returns one
    options: dict[str, Option] = field(default_factory=dict)
    group_size: int | None = None
    two_sided: bool = False
    pile_warnings: Callable[[list, dict], list] = lambda cards, rules: []
    # does a partial group lose 1 whatever its size (docs/rules.md §10), not r − 1 (§0.2)? by the house rules
    partial_loses_one: Callable[[dict], bool] = lambda rules: False
    deck_for: Callable[[dict], tuple] | None = None  # the deck under house rules that add a card (Sicily's ace)
    # what a whole pile gets over its cards' count, and why: (points, Line) or None (French Tarot's Excuse kept
    # by a side that took no trick counts 4, the half point going to the other side: docs/rules.md §6)
    pile_adjust: Callable[[list, dict], tuple | None] = lambda cards, rules: None
    oudlers: frozenset = frozenset()
    total: int | None = None  # the deck's points, summed over the piles of a real hand (docs/rules.md §0.3)
    default_stake: int = 1  # money per unit, in the currency's minor unit
    currency: str = "EUR"  # where the game is played: a new table's currency when the reader's region doesn't say
    unit: str = "point"
    unit_label: str = N_("Points")  # the scoreboard's column of units
    stake_label: str = N_("Stake per point")
    stake_hint: str = N_("Money per point of the game's score.")
    deals_per_game: int = 0  # hands that make one game, where the rules count games (Troccas 4, 1659 3)
    deals_label: str = ""  # a whole game of them in words: "4 deals", "3 rounds"
    shown_players: int | None = None  # name fields shown before "more players" when opening a table
    players_hint: str = ""  # what the players' fields need saying for this game (Königrufen's dummy at three)
    samples: tuple = ()  # piles counted on the rules page
    samples_combine: bool = False  # the sample piles also make one real pile together
    example: Callable | None = None  # example(game) -> Example: the hand the rules page settles
    zero_sum: Callable[[dict, int], bool] = lambda rules, n: True  # must the scores sum to zero?
    rename: Callable[[dict, str, str], dict] = lambda facts, old, new: renamed_everywhere(facts, old, new)
    declarer: Callable[[dict], str | None] = lambda facts: None  # who took the hand on, where someone does
    contract: Callable[[dict], object] = lambda facts: None  # what was declared, in words (a Line), for the stats
    taken_on: object = None  # what a player takes on, in the game's own words (a Line: "a Tapp or a solo"), if anything
    # house-rule values that each fit their option but can't be played (French Tarot's poignée thresholds above the
    # cards a player holds): {option: Line}, checked where a table is opened, changed or imported
    rule_problems: Callable[[dict], dict] = lambda rules: {}

    def __post_init__(self):
        object.__setattr__(self, "counting", Counting(self.counting))  # "groups" is Counting.GROUPS; "x" is refused

    @property
    def counts_cards(self) -> bool:
        """Whether the game's cards have points to count (not a game of tricks alone)."""
        return self.counting is not Counting.TRICKS

    def deck_of(self, rules: dict) -> tuple[str, ...]:
        """Return the deck this table plays with: `deck`, unless a house rule adds a card (docs/rules.md §10)."""
        return self.deck_for(rules) if self.deck_for else self.deck

    def players_allowed(self, rules: dict) -> range:
        """Return the player counts this table's house rules allow."""
        return range(rules.get("min_players", self.min_players), self.max_players + 1)


@dataclass(frozen=True)
class Example:
    """A hand the rules page settles: the facts, the stake, and what each player gets.

    `payouts` is the page's own arithmetic, checked against score() by the tests; `numbers` are the
    figures the page's sentences quote.
    """

    players: list[str]
    hand: dict
    stake: int
    payouts: dict[str, int]
    numbers: dict = field(default_factory=dict)


PLAYERS = ("Anna", "Beat", "Carla", "Dario", "Elsa", "Fritz", "Gret", "Hans")  # the examples' players


def renamed(facts: dict, old: str, new: str, names=(), keyed=(), lists=()) -> dict:
    """Return a copy of a hand's facts with player `old` called `new` (a rename: every past hand follows).

    `names` are fields that hold one name, `keyed` objects keyed by player, `lists` lists of names
    (or of lists of names, as Troccas's teams).
    """
    out = dict(facts)
    for f in names:
        if out.get(f) == old:
            out[f] = new
    for f in keyed:
        if isinstance(out.get(f), dict):
            out[f] = {new if k == old else k: v for k, v in out[f].items()}
    for f in lists:
        if isinstance(out.get(f), list):
            out[f] = _swap(out[f], old, new)
    return out


def _swap(items: list, old: str, new: str) -> list:
    return [_swap(i, old, new) if isinstance(i, list) else new if i == old else i for i in items]


def renamed_everywhere(value, old: str, new: str):
    """Rename a player in any value: every equal string and object key (for a game that declares nothing)."""
    if isinstance(value, dict):
        return {(new if k == old else k): renamed_everywhere(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed_everywhere(v, old, new) for v in value]
    return new if value == old else value


def resolve_rules(game: Game, overrides: dict | None) -> dict:
    """Return the game's house rules with `overrides` applied, checking names and types."""
    rules = {name: opt.default for name, opt in game.options.items()}
    for name, value in (overrides or {}).items():
        opt = game.options.get(name)
        if opt is None:
            known = ", ".join(game.options) or "none"
            raise BadRequest(line("{game} has no house rule “{name}” (its house rules: {known}).", game=line(game.name), name=name, known=known))
        if not _fits(value, opt):
            raise BadRequest(line("“{value}” is not a possible value for the house rule “{name}”.", value=value, name=name))
        rules[name] = value
    return rules


def as_stored(game: Game, rules: dict) -> dict:
    """Return a stored table's (or an exported file's) house rules with each option whose default changed since
    filled in as it was (`Option.was`): a table opened before the change keeps its rule; the API's `rules`, given
    now, are read with today's defaults."""
    out = dict(rules)
    for name, opt in game.options.items():
        if opt.was is not None and name not in out:
            out[name] = opt.was
    return out


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
    deck = game.deck_of(rules)
    if game.counting is Counting.TRICKS:
        raise BadRequest(line("{game} has no card points to count: only tricks count.", game=line(game.name)))
    if len(cards) > len(deck):
        raise TooManyCards(line("A pile can't have more than the {n_deck} cards of the deck.", n_deck=len(deck)))
    result = _adjusted(game, cards, _count(game, cards, values, rules), rules)
    rest = None
    if game.two_sided:
        pile = set(cards)
        others = [c for c in deck if c not in pile]
        rest = _adjusted(game, others, _count(game, others, values, rules), rules)
    warnings = tuple(game.pile_warnings(cards, rules))
    return Count(result.cards, result.points, result.nominal, result.groups, result.working,
                 result.oudlers, rest, warnings, result.blatt)


def _adjusted(game: Game, cards, count: Count, rules) -> Count:
    """Return the count with the game's last word on a whole pile (game.pile_adjust), the working saying why."""
    extra = game.pile_adjust(cards, rules)
    if not extra:
        return count
    more, why = extra
    points = count.points + more
    working = line("{working}; {why}: {points}", working=count.working, why=why, points=points)
    return Count(count.cards, points, count.nominal, count.groups, working, count.oudlers, count.rest,
                 count.warnings, count.blatt)


def _count(game: Game, cards, values, rules) -> Count:
    if game.counting is Counting.SUM:
        return direct_sum(cards, values)
    if game.counting is Counting.THIRDS:
        return in_thirds(cards, values)
    if game.counting is Counting.GROUPS:
        return in_groups(cards, values, game.group_size, game.partial_loses_one(rules))
    return in_halves(cards, values, game.oudlers)


# Class counts: a quicker entry for a big pile (how many honours, kings, ... are in it).
# "great": trumps worth more than 5 (Sicily's Giove and Picciotti, 10 each: docs/rules.md §10).
CLASSES = ("great", "honours", "fool", "kings", "queens", "cavaliers", "jacks", "others")
_RANK_CLASS = {"K": "kings", "Q": "queens", "C": "cavaliers", "J": "jacks"}


def card_class(game: Game, card: str, rules: dict, values: dict | None = None) -> str:
    """Return the class a card is counted in: great (trumps over 5), honours (5-point trumps), fool, kings, ..., others."""
    if card == C.FOOL:
        return "fool"
    rank = C.rank_of(card)
    if rank in _RANK_CLASS:
        return _RANK_CLASS[rank]
    if card in game.oudlers:
        return "honours"
    if C.is_trump(card):
        value = (values or game.values(rules))[card]
        if value > 5:
            return "great"
        if value == 5:
            return "honours"
    return "others"


def class_sizes(game: Game, rules: dict) -> dict[str, int]:
    """Return how many cards of each class the deck holds (the most a pile can have)."""
    sizes, values = dict.fromkeys(CLASSES, 0), game.values(rules)
    for card in game.deck_of(rules):
        sizes[card_class(game, card, rules, values)] += 1
    return sizes


def cards_for_classes(game: Game, counts: dict[str, int], rules: dict) -> list[str]:
    """Return a pile with the given number of cards per class (which ones doesn't change the count)."""
    sizes = class_sizes(game, rules)
    for name, n in counts.items():
        if name not in sizes:
            raise BadRequest(line("“{name}” is not a class of cards.", name=name))
        if type(n) is not int or n < 0:
            raise BadRequest(line("The number of {name} must be a whole number, 0 or more.", name=name))
        if n > sizes[name]:
            raise TooManyCards(line("The {game} deck has only {size} {name}.",
                                    game=line(game.name), size=sizes[name], name=name),
                               field=name)
    pile, taken, values = [], dict.fromkeys(CLASSES, 0), game.values(rules)
    for card in game.deck_of(rules):
        cls = card_class(game, card, rules, values)
        if taken[cls] < counts.get(cls, 0):
            pile.append(card)
            taken[cls] += 1
    return pile


# Shared checks for score(players, hand, rules); each raises with a sentence a player understands.

def check_players(game: Game, players, low: int | None = None) -> list[str]:
    """Check the seating list: names (strings), no repeats, a player count the game allows."""
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise BadRequest(line("“players” must be a list of names."))
    if len(set(players)) != len(players):
        raise BadHand(line("Two players have the same name; give each a different one."))
    check_count(game, len(players), low)
    return players


def check_count(game: Game, n: int, low: int | None = None) -> None:
    """Check a number of players is one the game allows (from `low`, the house rules' fewest, to its most)."""
    low = game.min_players if low is None else low
    if not low <= n <= game.max_players:
        if low == game.max_players:
            raise BadHand(line("{game} is played by {low} players, not {n_players}.", game=line(game.name), low=low, n_players=n))
        raise BadHand(line("{game} is played by {low} to {max_players} players, not {n_players}.", game=line(game.name), low=low, max_players=game.max_players, n_players=n))


def seat(name, players: list[str], role: Line) -> str:
    """Return `name` if it is at the table, else raise UnknownPlayer naming the role."""
    if not isinstance(name, str) or name not in players:
        raise UnknownPlayer(line("The {role} “{name}” is not one of the players ({players}).", role=role, name=name, players=', '.join(players)))
    return name


def hand_fields(hand, required: tuple = (), optional: tuple = ()) -> dict:
    """Check a hand is an object with the required fields and no unknown ones."""
    if not isinstance(hand, dict):
        raise BadRequest(line("“hand” must be an object with the hand's facts."))
    for f in required:
        if f not in hand:
            raise BadRequest(line("The hand lacks “{field}”.", field=f))
    for f in hand:
        if f not in required and f not in optional:
            raise BadRequest(line("The hand has an unknown field “{field}”.", field=f))
    return hand


def one_of(hand: dict, points_field: str, cards_field: str) -> str:
    """Return which of the two fields the hand gives; both or neither is bad_request."""
    has_p = hand.get(points_field) is not None
    has_c = hand.get(cards_field) is not None
    if has_p == has_c:
        raise BadRequest(line("Give either “{points_field}” or “{cards_field}”, not both and not neither.", points_field=points_field, cards_field=cards_field))
    return points_field if has_p else cards_field


def whole_points(value, low, high, what: Line):
    """Check a points value is an integer in range (bad_request for a wrong type, bad_hand out of range)."""
    if type(value) is not int:
        raise BadRequest(line("{what} must be a whole number.", what=what))
    if not low <= value <= high:
        raise BadHand(line("{what} must be between {low} and {high}, not {value}.", what=what, low=low, high=high, value=value))
    return value


def pile_of(game: Game, codes, rules: dict):
    """Parse and count one pile given as card codes; return the Count."""
    if not isinstance(codes, list):
        raise BadRequest(line("A pile must be a list of card codes."))
    return count_pile(game, C.parse_pile(codes, game.deck_of(rules), game.name), rules)
