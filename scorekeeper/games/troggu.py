"""Troggu (Upper Valais): 62 cards, direct sum, 114 points, Rappen payouts (RULES.md §5)."""
from __future__ import annotations

from .. import cards as C
from . import Game, Option

DECK = C.DECK_62
HONOURS = {"T1", "T21"}  # with the Fool and the kings: 5 points (troggu-visp-de.txt)
TOTAL = 114

OPTIONS = {
    "min_players": Option(3, "Fewest players at the table: 3 (the English rules, BGA) or 4 (the Visp sheet).", (3, 4)),
    "match_with_tapp_points": Option(True, "A side that took no trick is a Match (×3) even if the Tapp gave it points."),
    "misere_tie": Option("each_top_pays", "Misère tie for most points: each top scorer pays everyone else, they split one payment, or nobody pays.",
                         ("each_top_pays", "split", "none")),
}


def values(rules):
    """Return Troggu's nominal values: Fool, I, XXI and kings 5; Q 4; C 3; J 2; the rest 1."""
    return C.nominal_values(DECK, HONOURS)


GAME = Game(
    id="troggu", name="Troggu", min_players=3, max_players=8, deck=DECK, counting="sum",
    values=values, total=TOTAL, options=OPTIONS, two_sided=True, default_stake=10, unit="Rappen",
)
