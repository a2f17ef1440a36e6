"""Swiss Tarot 1659 (Maison académique, 3 players): tricks of three minus two, 78 points (RULES.md §4)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand
from ..text import N_, line
from . import Game, Option, Result, check_players, hand_fields
from .piles import baseline_scores, read_piles

DECK = C.DECK_78
HONOURS = {"T1", "T21"}  # the Magician and the World; with the Fool and the kings: 5
TOTAL = 78
BASELINE = 26

OPTIONS = {
    "unexchanged_fool": Option("winner", "When the Fool's player takes no trick and can't exchange it: it stays in the"
                               " trick it was played to (78 in all), or he keeps it alone as 5 (79 in all).",
                               ("winner", "owner")),
}


def values(rules):
    """Return the 1659 values: World, Magician, Fool and kings 5; Q 4; C 3; J 2; the rest 1."""
    return C.nominal_values(DECK, HONOURS)


def pile_warnings(cards, rules):
    """Warn when a pile isn't whole tricks of three: the Fool is exchanged, so every pile is."""
    if len(cards) % 3 and not (cards == [C.FOOL] and rules.get("unexchanged_fool") == "owner"):
        return [line("Every pile is made of tricks of three (the Fool is exchanged); {n} cards can't happen.", n=len(cards))]
    return []


def score(players, hand, rules):
    """Score a hand as each player's points − 26, the running relative score (RULES.md §4)."""
    check_players(GAME, players)
    hand_fields(hand, optional=("points", "cards"))
    kept = rules["unexchanged_fool"] == "owner"
    piles = hand.get("cards")
    if not kept and isinstance(piles, dict):
        for p, pile in piles.items():
            if isinstance(pile, list) and len(pile) == 1 and str(pile[0]).strip().upper() in ("FOOL", "EXCUSE"):
                # RULES.md §4 [conflict]: by default the unexchanged Fool stays in the trick it was played to
                raise BadHand(line("{player}'s pile is the Fool alone, which would make the deck 79: by default a Fool that could not be exchanged stays in the trick it was played to. A table that lets its player keep it sets the house rule unexchanged_fool to “owner”.", player=p), cards=["FOOL"])
    points, explanation, warnings = read_piles(GAME, players, hand, rules, other_total=TOTAL + 1 if kept else None)
    if sum(points.values()) == TOTAL + 1:
        # RULES.md §4: kept alone as 5 the Fool makes 130 − 50 − 1 = 79
        warnings.append(line("The Fool kept alone is worth 5: the deck counts 79, not 78, so the scores sum to +1"
                             " (house rule unexchanged_fool)."))
    scores = baseline_scores(players, points, BASELINE, explanation)
    return Result(points=points, scores=scores, explanation=tuple(explanation), warnings=tuple(warnings))


GAME = Game(
    id="swiss_tarot_1659", name=N_("Swiss Tarot 1659"), min_players=3, max_players=3, deck=DECK,
    counting="groups", group_size=3, values=values, total=TOTAL, options=OPTIONS, pile_warnings=pile_warnings,
    score=score,
)
