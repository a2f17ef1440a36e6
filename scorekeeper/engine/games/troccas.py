"""Troccas (Grisons): 78 cards counted in groups of four minus three, 72 points (RULES.md §1)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest
from ..text import N_, line
from . import Game, Option, Result, check_players, hand_fields, one_of, pile_of, seat, whole_points
from .piles import signed

DECK = C.DECK_78
HONOURS = {"T1", "T21"}  # il bagat, il mund; with il narr and the kings: 5 (troccas-wikipedia.txt)
TOTAL = 72
BASELINE = 36
SCART = 2  # the dealer discards 2 cards that count for his team (troccas-wikipedia.txt)

OPTIONS = {
    "all_tricks_take_scart": Option(True, "A team that takes every trick also gets the scart and the Fool, so it counts all 72."),
    "odd_pile": Option("reject", "A pile of 4k+1 or 4k+3 cards can't come from a real hand: reject it, or count it and warn.",
                       ("reject", "warn")),
}


def values(rules):
    """Return Troccas's nominal values: kings, I, XXI and the Fool 5; Q 4; C 3; J 2; the rest 1."""
    return C.nominal_values(DECK, HONOURS)


def pile_warnings(cards, rules):
    """Warn about a pile size a real hand can't give: one team has 4k+2 cards, the other 4m."""
    if len(cards) % 4 in (1, 3):
        return [line("A team's pile has 4k or 4k+2 cards (tricks of four, the scart of two); {n} cards can't happen.", n=len(cards))]
    return []


def teams_of(players: list[str], teams) -> list[list[str]]:
    """Check `teams` is two pairs that together are the four players."""
    if (not isinstance(teams, list) or len(teams) != 2
            or not all(isinstance(t, list) and len(t) == 2 for t in teams)):
        raise BadRequest(line("“teams” must be two pairs of players: [[a, b], [c, d]]."))
    for name in teams[0] + teams[1]:
        seat(name, players, line("team member"))
    if len(set(teams[0] + teams[1])) != 4:
        raise BadHand(line("The two teams must be the four players, each in one team."))
    return teams


def score(players, hand, rules):
    """Score a Troccas hand: each team's points − 36, credited to each of its members (RULES.md §1)."""
    check_players(GAME, players)
    hand_fields(hand, required=("teams", "side"), optional=("points", "cards"))
    teams = teams_of(players, hand["teams"])
    side = seat(hand["side"], players, line("side"))
    ours, theirs = (teams[0], teams[1]) if side in teams[0] else (teams[1], teams[0])
    explanation, warnings = [], []
    if one_of(hand, "points", "cards") == "points":
        points = whole_points(hand["points"], 0, TOTAL, line("{side}'s team's points", side=side))
        explanation.append(line("{a} and {b} took {points} points; {c} and {d} the other {rest} of 72.",
                                a=ours[0], b=ours[1], c=theirs[0], d=theirs[1], points=points, rest=TOTAL - points))
    else:
        count = pile_of(GAME, hand["cards"], rules)
        n = count.cards
        if count.warnings and rules["odd_pile"] == "reject":
            raise BadHand(line("{n} cards can't be a team's pile: one team has 4k+2 cards (its tricks and the scart), the other 4m.", n=n))
        if n == len(DECK) - SCART and rules["all_tricks_take_scart"]:
            # SCA rules: a team that takes every trick also gets the scart, so it has all 78 cards.
            raise BadHand(line("This pile is every trick without the scart, but a team that takes every trick also gets the scart and counts all 78 cards (house rule all_tricks_take_scart)."))
        if n == SCART and rules["all_tricks_take_scart"]:
            raise BadHand(line("This pile is only the scart, but a team that takes every trick also gets the scart (house rule all_tricks_take_scart): the other team's pile is all 78 cards."))
        warnings.extend(count.warnings)
        points = count.points
        explanation.append(line("{a} and {b}'s pile, {n} cards:", a=ours[0], b=ours[1], n=n))
        explanation.append(count.working)
        if n == len(DECK):
            explanation.append(line("They took every trick and have all 78 cards, the scart and the Fool included: 72."))
        elif n == 0:
            explanation.append(line("They took no trick: 0; the other team has all 78 cards."))
        elif n == len(DECK) - SCART:
            explanation.append(line("They took every trick; the scart stays with the dealer's team (house rule)."))
        explanation.append(line("{c} and {d} have the rest: {rest} of 72.", c=theirs[0], d=theirs[1],
                                rest=TOTAL - points))
    team_score = points - BASELINE
    scores = {}
    for p in players:
        scores[p] = team_score if p in ours else -team_score
    explanation.append(line("{a} and {b}: {points} − 36 = {score} each; {c} and {d}: {other} each.",
                            a=ours[0], b=ours[1], points=points, score=signed(team_score),
                            c=theirs[0], d=theirs[1], other=signed(-team_score)))
    # like Troggu's declarer/opponents: the pile given ("side") and the rest of the deck
    return Result(points={"side": points, "opponents": TOTAL - points}, scores=scores, explanation=tuple(explanation), warnings=tuple(warnings))


GAME = Game(
    id="troccas", name=N_("Troccas"), min_players=4, max_players=4, deck=DECK, counting="groups",
    group_size=4, values=values, total=TOTAL, options=OPTIONS, two_sided=True, pile_warnings=pile_warnings,
    score=score,
)
