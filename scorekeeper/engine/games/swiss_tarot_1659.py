"""Swiss Tarot 1659 (Maison académique, 3 players): tricks of three minus two, 78 points (docs/rules.md §4)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand
from ..naming import GENERIC_SUITS, ITALIAN_MARKS, Naming
from ..text import N_, line
from ..game import Counting, Example, Game, Option, Result, check_players, hand_fields, renamed
from .piles import baseline_example, piles_entry, piles_from_facts, piles_summary, piles_to_facts
from .piles import baseline_scores, read_piles

DECK = C.DECK_78
HONOURS = {"T1", "T21"}  # the Magician and the World; with the Fool and the kings: 5
TOTAL = 78
BASELINE = 26
FOOL_ALONE = 5  # the Fool kept alone, under unexchanged_fool "owner"

# italian-swiss-archive.txt, Swiss Tarot (Maison académique 1659): Le Monde, Le Basteleur, Le Fou;
# King, Queen, Cavalier, Jack; Swords, Batons, Cups, Coins.
NAMING = Naming(
    fool="Le Fou",
    trumps={1: "Le Basteleur", 21: "Le Monde"},
    suits=GENERIC_SUITS,
    suit_marks=ITALIAN_MARKS,
    courts={"K": "K", "Q": "Q", "C": "C", "J": "J"},
)

OPTIONS = {
    "unexchanged_fool": Option("winner", "When the Fool's player takes no trick and can't exchange it: it stays in the"
                               " trick it was played to (78 in all), or he keeps it alone as 5 (79 in all).",
                               ("winner", "owner"), title=N_("Fool never exchanged"),
                               words={"winner": N_("it stays in the trick's winner's pile"),
                                      "owner": N_("its player keeps it alone as 5")}),
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
    """Score a hand as each player's points − 26, the running relative score (docs/rules.md §4)."""
    check_players(GAME, players)
    hand_fields(hand, optional=("points", "cards"))
    kept = rules["unexchanged_fool"] == "owner"
    piles = hand.get("cards")
    if not kept and isinstance(piles, dict):
        for p, pile in piles.items():
            if isinstance(pile, list) and len(pile) == 1 and str(pile[0]).strip().upper() in ("FOOL", "EXCUSE"):
                # docs/rules.md §4 [conflict]: by default the unexchanged Fool stays in the trick it was played to
                raise BadHand(line("{player}'s pile is the Fool alone, which would make the deck 79: by default a Fool that could not be exchanged stays in the trick it was played to. A table that lets its player keep it sets the house rule “Fool never exchanged” to “its player keeps it alone as 5”.", player=p), cards=["FOOL"])
    points, explanation, warnings = read_piles(GAME, players, hand, rules, other_total=TOTAL + 1 if kept else None)
    if sum(points.values()) == TOTAL + 1 and FOOL_ALONE not in points.values():
        # docs/rules.md §4 bounds: 79 is the Fool kept alone by a player who took no trick (and is not the
        # dealer, whose discards count as a trick): his pile is the Fool, 5 points
        raise BadHand(line("The points add up to 79, as a Fool kept alone makes them, but its player then took no "
                           "trick and holds only the Fool, 5 points, and nobody has 5."))
    if sum(points.values()) == TOTAL + 1:
        # docs/rules.md §4: kept alone as 5 the Fool makes 130 − 50 − 1 = 79
        warnings.append(line("The Fool kept alone is worth 5: the deck counts 79, not 78, so the scores sum to +1"
                             " (house rule “Fool never exchanged”)."))
    scores = baseline_scores(players, points, BASELINE, explanation)
    return Result(points=points, scores=scores, explanation=tuple(explanation), warnings=tuple(warnings))


# ---- the rules page: sample piles and a worked example ----

# Dummett's two tricks (italian-swiss-archive.txt, Swiss Tarot): 3 + 4 + 5 − 2 and 5 + 5 − 1.
SAMPLES = [["SW-C", "SW-Q", "FOOL"], ["T21", "T1", "T13"], ["T8", "CU-4", "BA-9"]]


def example(game: Game) -> Example:
    """Return the hand the rules page settles, with the page's own arithmetic."""
    return baseline_example(game, [30, 24, 24], BASELINE)


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the facts: every player's points, or their cards where the counting aid counted them tapped."""
    return piles_to_facts(v, players, rules, GAME)


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand."""
    return piles_from_facts(facts, players, rules, GAME)


GAME = Game(
    id="swiss_tarot_1659", name=N_("Swiss Tarot 1659"), min_players=3, max_players=3, deck=DECK,
    counting=Counting.GROUPS, group_size=3, values=values, total=TOTAL, options=OPTIONS, pile_warnings=pile_warnings,
    score=score, entry=piles_entry(TOTAL), to_facts=to_facts, from_facts=from_facts,
    summary=piles_summary, naming=NAMING, deals_per_game=3, deals_label=N_("3 rounds"), samples=SAMPLES,
    samples_combine=True, example=example,
    # docs/rules.md §4: a Fool kept by its owner makes the deck count 79
    zero_sum=lambda rules, n: rules["unexchanged_fool"] != "owner",
    rename=lambda f, old, new: renamed(f, old, new, keyed=("points", "cards")),
    currency="CHF",
)
