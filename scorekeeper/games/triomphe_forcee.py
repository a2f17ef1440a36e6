"""Triomphe Forcée (4-10 players): stakes and tricks, no card points (RULES.md §7)."""
from __future__ import annotations

from .. import cards as C
from . import Game, Option

DECK = C.DECK_78

OPTIONS = {
    "force_trump": Option("T11", "La Force is trump XI (most decks) or IX (Vievil's).", ("T11", "T9")),
}


def values(rules):
    """Return nominal values for reference; Triomphe Forcée counts tricks, not card points."""
    return C.nominal_values(DECK, {"T1", "T21"})


GAME = Game(
    id="triomphe_forcee", name="Triomphe Forcée", min_players=4, max_players=10, deck=DECK,
    counting="tricks", values=values, options=OPTIONS, unit="ante",
)
