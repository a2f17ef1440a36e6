"""Mitigati (Piedmont, 3 players): direct sum, 129 points, declarations (RULES.md §3)."""
from __future__ import annotations

from .. import cards as C
from . import Game, Option

DECK = C.DECK_78
TOTAL = 129
BASELINE = 43

OPTIONS = {
    "honour_trump": Option("T20", "The 5-point honour trump beside the Bagatto: the Angel, XX (Phil), or XXI (Rufus).", ("T20", "T21")),
    "declarations_paid": Option("each_player", "Declarations are paid by each other player, or added to the declarer's score only (not zero-sum).",
                                ("each_player", "flat")),
}


def values(rules):
    """Return Mitigati's values: the honour trump, the Bagatto and kings 5; Fool 4; Q 4; C 3; J 2; else 1."""
    return C.nominal_values(DECK, {"T1", rules.get("honour_trump", "T20")}, fool=4)


GAME = Game(
    id="mitigati", name="Mitigati", min_players=3, max_players=3, deck=DECK, counting="sum",
    values=values, total=TOTAL, options=OPTIONS,
)
