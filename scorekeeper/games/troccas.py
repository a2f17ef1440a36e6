"""Troccas (Grisons): 78 cards counted in groups of four minus three, 72 points (RULES.md §1)."""
from __future__ import annotations

from .. import cards as C
from ..text import line
from . import Game, Option

DECK = C.DECK_78
HONOURS = {"T1", "T21"}  # il bagat, il mund; with il narr and the kings: 5 (troccas-wikipedia.txt)
TOTAL = 72
BASELINE = 36

OPTIONS = {
    "all_tricks_take_scart": Option(True, "A team that takes every trick also gets the scart and the Fool, so it counts all 72."),
}


def values(rules):
    """Return Troccas's nominal values: kings, I, XXI and the Fool 5; Q 4; C 3; J 2; the rest 1."""
    return C.nominal_values(DECK, HONOURS)


def pile_warnings(cards, rules):
    """Warn about a pile size a real hand can't give: one team has 4k+2 cards, the other 4m."""
    if len(cards) % 4 in (1, 3):
        return [line("A team's pile has 4k or 4k+2 cards (tricks of four, the scart of two); {n} cards can't happen.", n=len(cards))]
    return []


GAME = Game(
    id="troccas", name="Troccas", min_players=4, max_players=4, deck=DECK, counting="groups",
    group_size=4, values=values, total=TOTAL, options=OPTIONS, two_sided=True, pile_warnings=pile_warnings,
)
