"""Card codes, the two decks and the nominal values (docs/rules.md (card codes), docs/rules.md §0.2). Pure."""
from __future__ import annotations

from .errors import BadRequest, DuplicateCard, NotInDeck, TooManyCards, UnknownCard
from .text import line

SUITS = ("SW", "BA", "CU", "CO")  # swords, batons (long); cups, coins (round)
LONG_SUITS = ("SW", "BA")
ROUND_SUITS = ("CU", "CO")
SUIT_ALIASES = {"SP": "SW", "CL": "BA", "HE": "CU", "DI": "CO"}
COURTS = ("K", "Q", "C", "J")
PIPS = tuple(str(n) for n in range(10, 0, -1))
RANKS = COURTS + PIPS
TRUMPS = tuple(f"T{n}" for n in range(1, 22))
FOOL = "FOOL"
# docs/rules.md (card codes), §10: the Sicilian pack's unnumbered lowest trump, the Miseria (that pack only)
MISERIA = "T0"

# Trumps high to low, then the Fool, then each suit court cards first.
DECK_78 = tuple(reversed(TRUMPS)) + (FOOL,) + tuple(f"{s}-{r}" for s in SUITS for r in RANKS)

# docs/rules.md (card codes): Troggu drops the pips 1-4 of swords and batons and 7-10 of cups and coins.
_TROGGU_OUT = {f"{s}-{n}" for s in LONG_SUITS for n in (1, 2, 3, 4)} | {
    f"{s}-{n}" for s in ROUND_SUITS for n in (7, 8, 9, 10)
}
DECK_62 = tuple(c for c in DECK_78 if c not in _TROGGU_OUT)

# docs/rules.md §0.2: honours and kings 5, queens 4, cavaliers 3, jacks 2, everything else 1.
COURT_VALUES = {"K": 5, "Q": 4, "C": 3, "J": 2}


def suit_of(card: str) -> str | None:
    """Return the suit of a suit card, None for trumps and the Fool."""
    return card.split("-")[0] if "-" in card else None


def rank_of(card: str) -> str | None:
    """Return the rank of a suit card (K Q C J 10..1), None for trumps and the Fool."""
    return card.split("-")[1] if "-" in card else None


def is_trump(card: str) -> bool:
    """Say whether a card is a trump: T1..T21, or the Sicilian Miseria T0 (the Fool is not)."""
    return card.startswith("T") and card[1:].isdecimal()


def trump_number(card: str) -> int | None:
    """Return 1..21 for a trump (0 for the Miseria), None otherwise."""
    return int(card[1:]) if is_trump(card) else None


def parse_card(text: str) -> str:
    """Turn any accepted spelling of a card into its canonical code, or raise UnknownCard."""
    raw = str(text).strip().upper().replace(" ", "")
    if raw in ("FOOL", "EXCUSE"):
        return FOOL
    if raw in (MISERIA, "MISERIA"):
        return MISERIA
    if raw in TRUMPS:
        return raw
    if raw.count("-") == 1:
        suit, rank = raw.split("-")
        suit = SUIT_ALIASES.get(suit, suit)
        if suit in SUITS and rank in RANKS:
            return f"{suit}-{rank}"
    raise UnknownCard(line("“{code}” is not a card. Cards are written like T21, FOOL or SW-K.", code=text), cards=[str(text)])


def parse_pile(codes, deck: tuple[str, ...], game_name: str) -> list[str]:
    """Parse a list of card codes into canonical codes, checking deck membership and duplicates."""
    if len(codes) > len(deck):
        raise TooManyCards(line("A pile can't have more than the {n_deck} cards of the {game_name} deck; this one has {n_codes}.", n_deck=len(deck), game_name=line(game_name), n_codes=len(codes)))
    if not all(isinstance(code, str) for code in codes):
        raise BadRequest(line("Each card must be a code written as text, like T21, FOOL or SW-K."))
    unknown, cards = [], []
    for code in codes:
        try:
            cards.append(parse_card(code))
        except UnknownCard:
            unknown.append(str(code))
    if unknown:
        listing = ", ".join(unknown)
        raise UnknownCard(line("Not a card: {listing}. Cards are written like T21, FOOL or SW-K.", listing=listing), cards=unknown)
    outside = [c for c in cards if c not in deck]
    if outside:
        raise NotInDeck(line("{outside} is not in the {game_name} deck.", outside=', '.join(outside), game_name=line(game_name)), cards=outside)
    seen, dupes = set(), []
    for c in cards:
        if c in seen and c not in dupes:
            dupes.append(c)
        seen.add(c)
    if dupes:
        raise DuplicateCard(line("{dupes} is in the pile twice; each card exists only once.", dupes=', '.join(dupes)), cards=dupes)
    return cards


def nominal_values(deck: tuple[str, ...], honours: set[str], fool: int = 5) -> dict[str, int]:
    """Return the nominal value of every card: honours and kings 5, Q 4, C 3, J 2, else 1."""
    values = {}
    for card in deck:
        if card == FOOL:
            values[card] = fool
        elif card in honours:
            values[card] = 5
        else:
            values[card] = COURT_VALUES.get(rank_of(card) or "", 1)
    return values
