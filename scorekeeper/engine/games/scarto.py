"""Scarto / Tarocchi (Piedmont, 3 players): groups of three minus two, 78 points (docs/rules.md §2)."""
from __future__ import annotations

from .. import cards as C
from ..text import N_, line
from ..game import Counting, Example, Game, Option, Result, check_players, hand_fields, renamed
from ..naming import ITALIAN
from .piles import (baseline_example, baseline_scores, fool_kept, piles_entry, piles_from_facts, piles_summary,
                    piles_to_facts, read_piles)

DECK = C.DECK_78
TOTAL = 78
BASELINE = 26

OPTIONS = {
    "fool_exchange": Option("none", "The Matto stays with its owner and counts alone as 4 (the rule texts, 78 in all), or is"
                            " exchanged French-style for a low card (cardgamesplanet): the deck then counts 77.",
                            ("none", "french"), title=N_("Matto exchange"),
                            words={"none": N_("none: the Matto counts alone as 4"),
                                   "french": N_("exchanged for a low card (77 in all)")}),
    "honour_trump": Option("T20", "The 5-point honour trump beside the Bagatto: the Angel, XX (the rule texts), or XXI.", ("T20", "T21"),
                           title=N_("Honour trump")),
}


def values(rules):
    """Return Scarto's values: the honour trump, the Bagatto and kings 5; Fool 4; Q 4; C 3; J 2; else 1.

    italian-swiss-archive.txt (Phil, the letter): T21 is a low card in this game.
    """
    return C.nominal_values(DECK, {"T1", rules.get("honour_trump", "T20")}, fool=4)


def pile_warnings(cards, rules):
    """Warn about pile sizes a real hand can't give: the Fool's owner has 3m+1 cards, the others 3k or 3k+2."""
    n, has_fool = len(cards), C.FOOL in cards
    if rules.get("fool_exchange") == "french":
        if n % 3 == 1:
            return [line("With the Matto exchanged every pile is whole groups of three or has 2 over; {n} cards can't happen.", n=n)]
        return []
    if has_fool and n % 3 != 1:
        return [line("The Matto stays with its owner, whose pile then has 3k+1 cards; {n} cards with the Matto can't happen.", n=n)]
    if not has_fool and n % 3 == 1:
        return [line("Only the pile with the Matto has 3k+1 cards; {n} cards without it can't happen.", n=n)]
    return []


def score(players, hand, rules):
    """Score a Scarto hand: each player's points − 26 (italian-swiss-archive.txt, Phil and McLeod)."""
    check_players(GAME, players)
    hand_fields(hand, optional=("points", "cards"))
    exchanged = rules["fool_exchange"] == "french"
    points, explanation, warnings = read_piles(GAME, players, hand, rules, fool_alone=not exchanged,
                                               other_total=TOTAL - 1 if exchanged else None)
    fool_kept(points)  # docs/rules.md §2 bounds: at most one player without a card (exchanged or not)
    if sum(points.values()) == TOTAL - 1:
        # docs/rules.md §2.1: exchanged French-style the Matto's pile loses a point; the deck counts 77
        warnings.append(line("With the Matto exchanged the deck counts 77, not 78, so the scores sum to −1"
                             " (house rule “Matto exchange”)."))
    scores = baseline_scores(players, points, BASELINE, explanation)
    return Result(points=points, scores=scores, explanation=tuple(explanation), warnings=tuple(warnings))


# ---- the rules page: sample piles and a worked example ----

# The letter's groups of three (a king, 10 and 5; the Mage, a queen and another card), then low cards.
SAMPLES = [["SW-K", "SW-10", "SW-5"], ["T1", "CU-Q", "BA-4"], ["T21", "T5", "CO-3"], ["SW-C", "CU-J"], ["FOOL"]]


def example(game: Game) -> Example:
    """Return the hand the rules page settles, with the page's own arithmetic."""
    return baseline_example(game, [30, 20, 28], BASELINE)  # Phil: "a score of 30 should be converted to +4"


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the facts: every player's points, or their cards where the counting aid counted them tapped."""
    return piles_to_facts(v, players, rules, GAME)


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand."""
    return piles_from_facts(facts, players, rules, GAME)


GAME = Game(
    id="scarto", name=N_("Scarto / Tarocchi"), min_players=3, max_players=3, deck=DECK, counting=Counting.GROUPS,
    group_size=3, values=values, total=TOTAL, options=OPTIONS, pile_warnings=pile_warnings, score=score,
    entry=piles_entry(TOTAL), to_facts=to_facts, from_facts=from_facts, summary=piles_summary,
    naming=ITALIAN, samples=SAMPLES, example=example,
    # docs/rules.md §2: exchanged French-style the Matto leaves the deck at 77
    zero_sum=lambda rules, n: rules["fool_exchange"] != "french",
    rename=lambda f, old, new: renamed(f, old, new, keyed=("points", "cards")),
)
