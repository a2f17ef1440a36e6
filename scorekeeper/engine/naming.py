"""How a game's players name its cards; each game's own Naming lives in its game file. Pure.

Proper names ("Munt", "il narr", "Excuse") are plain strings and never translated. Generic words
("Swords", "King") where a source gives no local name are `line()` message ids, translated by the
interface like every other sentence.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import cards as C
from .game import card_class
from .text import Line, line

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IIII", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "VIIII", 10: "X",
         11: "XI", 12: "XII", 13: "XIII", 14: "XIIII", 15: "XV", 16: "XVI", 17: "XVII", 18: "XVIII",
         19: "XVIIII", 20: "XX", 21: "XXI"}  # the 1JJ and Marseille packs write IIII and VIIII (troggu-visp-de.txt)


@dataclass(frozen=True)
class Naming:
    """How one game's players name the cards: the Fool, some trumps, the suits and the court cards."""

    fool: str
    trumps: dict  # trump number -> its name, where the players have one
    suits: dict  # suit code -> name (str, or a Line for a generic word)
    suit_marks: dict  # suit code -> a short sign shown on each card
    courts: dict  # K Q C J -> short label on the card
    roman: bool = True  # trumps written I … XXI (Swiss and Italian packs) or 1 … 21 (French)
    court_names: dict | None = None  # K Q C J -> the word, where the short label is an abbreviation
    round_ace_high: bool = True  # cups and coins rank 1 high (Italian and Swiss packs), not 10 (French)
    legend: Line = line("K king, Q queen, C cavalier (the horseman), J jack.")  # the court letters explained
    honours: Line = line("Honour trumps ({names})")  # the class of 5-point trumps, when counting by class
    great: Line = line("Great trumps ({names})")  # the class of trumps worth more than 5 (docs/rules.md §10)
    class_words: dict | None = None  # a class's words where the players' own differ (Sicily's jack is the Donna)


GENERIC_SUITS = {"SW": line("Swords"), "BA": line("Batons"), "CU": line("Cups"), "CO": line("Coins")}
GENERIC_COURTS = {"K": line("King"), "Q": line("Queen"), "C": line("Cavalier"), "J": line("Jack")}
ITALIAN_MARKS = {"SW": "", "BA": "", "CU": "", "CO": ""}  # the suit name says it

# italian-swiss-archive.txt: the Fool (Matto), the Bagatto, the Angel (20), the World (21, "Il Mondo
# e l'Angelo"); Re, Donna, Cavallo, Fante. The Italian suits of the Tarocco Piemontese.
ITALIAN = Naming(
    fool="Matto",
    trumps={1: "Bagatto", 20: "Angelo", 21: "Mondo"},
    suits={"SW": "Spade", "BA": "Bastoni", "CU": "Coppe", "CO": "Denari"},
    suit_marks=ITALIAN_MARKS,
    courts={"K": "Re", "Q": "D", "C": "C", "J": "F"},
    court_names={"K": "Re", "Q": "Donna", "C": "Cavallo", "J": "Fante"},
    legend=line("Re king, D queen (Donna), C knight (Cavallo), F jack (Fante)."),
)

def naming(game, rules: dict | None = None) -> Naming:
    """Return the game's naming of its cards, under house rules that may move a named trump."""
    return game.naming(rules or {}) if callable(game.naming) else game.naming


@dataclass(frozen=True)
class Label:
    """What a card shows: a short index (XXI, K, 10) and the card's name if it has one."""

    index: str
    name: str | Line | None = None


def label(game, card: str, rules: dict | None = None) -> Label:
    """Return the short index and name of a card as the game's players call it."""
    n = naming(game, rules)
    if card == C.FOOL:
        return Label(n.fool)
    number = C.trump_number(card)
    if number == 0:  # docs/rules.md §10: the Miseria is unnumbered; its name is all it shows
        return Label(n.trumps.get(0, "0"))
    if number is not None:
        index = ROMAN[number] if n.roman else str(number)
        name = n.trumps.get(number)
        return Label(index, None if name == index else name)
    rank = C.rank_of(card)
    word = (n.court_names or {}).get(rank)
    return Label(n.courts.get(rank, rank), word if word != n.courts.get(rank) else None)


def card_name(game, card: str, rules: dict | None = None, translate=lambda s: s) -> str:
    """Return a card's full name in words, e.g. "Munt (XXI)" or "König Rosen"."""
    n = naming(game, rules)
    if card == C.FOOL:
        return n.fool
    number = C.trump_number(card)
    if number == 0:  # the unnumbered Miseria (docs/rules.md §10)
        return n.trumps.get(0, "0")
    if number is not None:
        index = ROMAN[number] if n.roman else str(number)
        name = n.trumps.get(number)
        return f"{name} ({index})" if name and name != index else index
    suit, rank = C.suit_of(card), C.rank_of(card)
    court = (n.court_names or n.courts).get(rank, rank)
    return f"{court} {n.suit_marks[suit] or say(n.suits[suit], translate)}"


def say(name, translate=lambda s: s) -> str:
    """Return a name as text: proper names as they are, generic words translated."""
    return name.render(translate) if isinstance(name, Line) else name


CLASS_WORDS = {"kings": line("Kings"), "queens": line("Queens"), "cavaliers": line("Cavaliers"),
               "jacks": line("Jacks"), "others": line("Other cards")}


def class_label(game, cls: str, rules: dict | None = None) -> Line | str:
    """Name a class of cards counted together (game.CLASSES): the honour trumps by their names."""
    n = naming(game, rules)
    if cls in ("honours", "great"):
        values = game.values(rules or {})
        trumps = sorted((c for c in game.deck if C.is_trump(c) and card_class(game, c, rules or {}, values) == cls),
                        key=C.trump_number)
        names = ", ".join(say(label(game, c, rules).name or label(game, c, rules).index) for c in trumps)
        return Line((n.honours if cls == "honours" else n.great).text, (("names", names),))
    if cls == "fool":
        return n.fool
    return (n.class_words or {}).get(cls, CLASS_WORDS[cls])
