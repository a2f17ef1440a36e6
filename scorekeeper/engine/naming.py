"""Each game's names for its cards, as that game's players say them. Pure.

Proper names ("Munt", "il narr", "Excuse") are plain strings and never translated. Generic words
("Swords", "King") where a source gives no local name are `line()` message ids, translated by the
interface like every other sentence.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import cards as C
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


GENERIC_SUITS = {"SW": line("Swords"), "BA": line("Batons"), "CU": line("Cups"), "CO": line("Coins")}
GENERIC_COURTS = {"K": line("King"), "Q": line("Queen"), "C": line("Cavalier"), "J": line("Jack")}
ITALIAN_MARKS = {"SW": "", "BA": "", "CU": "", "CO": ""}  # the suit name says it

# troggu-visp-de.txt: "Bagatt", "Der Zwänzger", "Der Munt", the Fool "Bättler"; suits Schwerter,
# Stecken, Rosen, Coppe; court cards König, Königin, Ritter, Bube.
TROGGU = Naming(
    fool="Bättler",
    trumps={1: "Bagatt", 20: "Zwänzger", 21: "Munt"},
    suits={"SW": "Schwerter", "BA": "Stecken", "CU": "Coppe", "CO": "Rosen"},
    suit_marks=ITALIAN_MARKS,
    courts={"K": "K", "Q": "Kö", "C": "R", "J": "B"},
    court_names={"K": "König", "Q": "Königin", "C": "Ritter", "J": "Bube"},
)

# troccas-wikipedia.txt: the Romansh names of the trumps (the first one the source gives) and
# "the excuse [il narr]". The sources give no Romansh suit names: the SCA text (italian-swiss-archive.txt)
# calls the suits sword, stick, cup and rose and the court cards king, queen, knight, valet.
TROCCAS = Naming(
    fool="il narr",
    trumps={1: "il bagat", 2: "la gaglina", 3: "l'imperatura", 4: "igl imperatur", 5: "il da Cuoz",
            6: "ils inamurai", 7: "il carr", 8: "la giustia", 9: "il pader", 10: "la roda",
            11: "la forza", 12: "il pendiu", 13: "la mort", 14: "la tempronza", 15: "il giavel",
            16: "la casa da Diu", 17: "las steilas", 18: "la glina", 19: "il sulegl", 20: "la dertgira",
            21: "il mund"},
    suits={"SW": line("Swords"), "BA": line("Sticks"), "CU": line("Cups"), "CO": line("Roses")},
    suit_marks=ITALIAN_MARKS,
    courts={"K": "K", "Q": "Q", "C": "C", "J": "V"},  # troccas-wikipedia.txt ranks "K, Q, C, V"
)

# french-tarot-wikipedia.txt: "Excuse R D C V 10–1", le Petit, the 21; the French suits.
FRENCH = Naming(
    fool="Excuse",
    trumps={1: "Petit", 21: "21"},
    suits={"SW": "Pique", "BA": "Trèfle", "CU": "Cœur", "CO": "Carreau"},
    suit_marks={"SW": "♠", "BA": "♣", "CU": "♥", "CO": "♦"},
    courts={"K": "R", "Q": "D", "C": "C", "J": "V"},
    roman=False,
)

# italian-swiss-archive.txt: the Fool (Matto), the Bagatto, the Angel (20), the World (21, "Il Mondo
# e l'Angelo"); Re, Donna, Cavallo, Fante. The Italian suits of the Tarocco Piemontese.
ITALIAN = Naming(
    fool="Matto",
    trumps={1: "Bagatto", 20: "Angelo", 21: "Mondo"},
    suits={"SW": "Spade", "BA": "Bastoni", "CU": "Coppe", "CO": "Denari"},
    suit_marks=ITALIAN_MARKS,
    courts={"K": "Re", "Q": "D", "C": "C", "J": "F"},
    court_names={"K": "Re", "Q": "Donna", "C": "Cavallo", "J": "Fante"},
)

# italian-swiss-archive.txt, Swiss Tarot (Maison académique 1659): Le Monde, Le Basteleur, Le Fou;
# King, Queen, Cavalier, Jack; Swords, Batons, Cups, Coins.
SWISS_1659 = Naming(
    fool="Le Fou",
    trumps={1: "Le Basteleur", 21: "Le Monde"},
    suits=GENERIC_SUITS,
    suit_marks=ITALIAN_MARKS,
    courts={"K": "K", "Q": "Q", "C": "C", "J": "J"},
)

# italian-swiss-archive.txt, Triomphe Forcée: Le Fou, Le Basteleur, La Force (XI, or IX in Vievil's
# deck: the force_trump option), La Mort (XIII).
TRIOMPHE = Naming(
    fool="Le Fou",
    trumps={1: "Le Basteleur", 11: "La Force", 13: "La Mort"},
    suits=GENERIC_SUITS,
    suit_marks=ITALIAN_MARKS,
    courts={"K": "K", "Q": "Q", "C": "C", "J": "J"},
)

NAMINGS = {
    "troggu": TROGGU,
    "troccas": TROCCAS,
    "french_tarot": FRENCH,
    "scarto": ITALIAN,
    "mitigati": ITALIAN,
    "swiss_tarot_1659": SWISS_1659,
    "triomphe_forcee": TRIOMPHE,
}


def naming(game_id: str, rules: dict | None = None) -> Naming:
    """Return the game's naming, adjusted to house rules that move a named trump."""
    found = NAMINGS[game_id]
    force = (rules or {}).get("force_trump")
    if game_id == "triomphe_forcee" and force == "T9":
        trumps = {n: v for n, v in found.trumps.items() if n != 11} | {9: "La Force"}
        return Naming(found.fool, trumps, found.suits, found.suit_marks, found.courts, found.roman, found.court_names)
    return found


@dataclass(frozen=True)
class Label:
    """What a card shows: a short index (XXI, K, 10) and the card's name if it has one."""

    index: str
    name: str | Line | None = None


def label(game_id: str, card: str, rules: dict | None = None) -> Label:
    """Return the short index and name of a card as the game's players call it."""
    n = naming(game_id, rules)
    if card == C.FOOL:
        return Label(n.fool)
    number = C.trump_number(card)
    if number is not None:
        index = ROMAN[number] if n.roman else str(number)
        name = n.trumps.get(number)
        return Label(index, None if name == index else name)
    rank = C.rank_of(card)
    word = (n.court_names or {}).get(rank)
    return Label(n.courts.get(rank, rank), word if word != n.courts.get(rank) else None)


def card_name(game_id: str, card: str, rules: dict | None = None, translate=lambda s: s) -> str:
    """Return a card's full name in words, e.g. "Munt (XXI)" or "König Rosen"."""
    n = naming(game_id, rules)
    if card == C.FOOL:
        return n.fool
    number = C.trump_number(card)
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
