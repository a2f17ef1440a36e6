"""French Tarot (FFT): 78 cards in halves, 91 points, contracts and bonuses (RULES.md §6)."""
from __future__ import annotations

from fractions import Fraction

from .. import cards as C
from ..text import line
from . import Game, Option

DECK = C.DECK_78
OUDLERS = frozenset({"T1", "T21", C.FOOL})
TOTAL = 91
THRESHOLDS = {0: 56, 1: 51, 2: 41, 3: 36}  # points the taker needs, by oudlers held

OPTIONS = {
    "poignee_bonus": Option([20, 30, 40], "Poignée bonus for single, double, triple: FFT 20/30/40; the Wikipedia text 20/40/60."),
    "poignee_thresholds_5p": Option([8, 10, 13], "Trumps needed for a single, double, triple poignée at 5 players."),
    "garde_contre_multiplier": Option(6, "Garde contre multiplies by 6 (FFT) or 8.", (6, 8)),
    "excuse_last_trick": Option("trick_winner", "The Excuse led to the last trick goes to the trick's winner, or changes side.",
                                ("trick_winner", "changes_side")),
    "defence_chelem_bonus": Option(200, "Bonus to the defence when it takes every trick (0 to turn it off).", (200, 0)),
    "misere": Option(False, "Misère declaration (a hand with no trumps and no court cards): +30 to the declarer, −10 to each other player."),
    "round_to_10": Option(False, "Round each hand's scores to the nearest 10, keeping the total at zero."),
}


def values(rules):
    """Return French Tarot's values: oudlers and kings 4.5, queens 3.5, knights 2.5, jacks 1.5, else 0.5."""
    out = {}
    for card in DECK:
        rank = C.rank_of(card)
        whole = 5 if card in OUDLERS else C.COURT_VALUES.get(rank or "", 1)
        out[card] = Fraction(2 * whole - 1, 2)
    return out


def pile_warnings(cards, rules):
    """No pile size is impossible at every table size; half points are normal at 3 and 5 players."""
    return []


GAME = Game(
    id="french_tarot", name="French Tarot", min_players=3, max_players=5, deck=DECK, counting="halves",
    values=values, total=TOTAL, options=OPTIONS, two_sided=True, oudlers=OUDLERS, pile_warnings=pile_warnings,
)
