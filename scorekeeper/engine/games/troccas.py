"""Troccas (Grisons): 78 cards counted in groups of four minus three, 72 points (docs/rules.md §1)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest
from ..naming import ITALIAN_MARKS, Naming
from ..text import N_, line
from ..entry import Count, Entry, EntryError, Group, Number, Pick, seats
from ..game import Counting, PLAYERS, Example, Game, Option, Result, check_players, hand_fields, one_of, pile_of, renamed, seat, whole_points
from ..text import signed

DECK = C.DECK_78
HONOURS = {"T1", "T21"}  # il bagat, il mund; with il narr and the kings: 5 (troccas-wikipedia.txt)
TOTAL = 72
BASELINE = 36
SCART = 2  # the dealer discards 2 cards that count for his team (troccas-wikipedia.txt)

# troccas-wikipedia.txt: the Romansh names of the trumps (the first one the source gives) and
# "the excuse [il narr]". The sources give no Romansh suit names: the SCA text (italian-swiss-archive.txt)
# calls the suits sword, stick, cup and rose and the court cards king, queen, knight, valet.
NAMING = Naming(
    fool="il narr",
    trumps={1: "il bagat", 2: "la gaglina", 3: "l'imperatura", 4: "igl imperatur", 5: "il da Cuoz",
            6: "ils inamurai", 7: "il carr", 8: "la giustia", 9: "il pader", 10: "la roda",
            11: "la forza", 12: "il pendiu", 13: "la mort", 14: "la tempronza", 15: "il giavel",
            16: "la casa da Diu", 17: "las steilas", 18: "la glina", 19: "il sulegl", 20: "la dertgira",
            21: "il mund"},
    suits={"SW": line("Swords"), "BA": line("Sticks"), "CU": line("Cups"), "CO": line("Roses")},
    suit_marks=ITALIAN_MARKS,
    courts={"K": "K", "Q": "Q", "C": "C", "J": "V"},  # troccas-wikipedia.txt ranks "K, Q, C, V"
    legend=line("K king, Q queen, C cavalier (the horseman), V valet (the jack)."),  # V, not the default's J
)

OPTIONS = {
    "all_tricks_take_scart": Option(True, "A team that takes every trick also gets the scart and the Fool, so it counts all 72.",
                                    title=N_("All tricks take the scart")),
    "odd_pile": Option("reject", "A pile of 4k+1 or 4k+3 cards can't come from a real hand: reject it, or count it and warn.",
                       ("reject", "warn"), title=N_("Impossible pile sizes"),
                       words={"reject": N_("refuse the pile"), "warn": N_("count it and warn")}),
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
    """Score a Troccas hand: each team's points − 36, credited to each of its members (docs/rules.md §1)."""
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
            raise BadHand(line("This pile is every trick without the scart, but a team that takes every trick also gets the scart and counts all 78 cards (house rule “All tricks take the scart”)."))
        if n == SCART and rules["all_tricks_take_scart"]:
            raise BadHand(line("This pile is only the scart, but a team that takes every trick also gets the scart (house rule “All tricks take the scart”): the other team's pile is all 78 cards."))
        if n % 4 == 2 or (n % 4 == 0 and n < len(DECK)):
            _scart(hand["cards"], n)
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


def _scart(codes, n):
    """Refuse a deal whose scart would hold a king or an honour (docs/rules.md §1 bounds).

    troccas-wikipedia.txt, SCA: the scart's 2 cards may not be kings or honours (I, XXI, the Fool) and
    count for the dealer's team, whose pile is its tricks of four and the scart: the one of 4k+2 cards,
    this pile or the rest of the deck. So that pile holds at least 2 cards that are neither.
    """
    pile = set(C.parse_pile(codes, DECK, GAME.name))
    dealers = pile if n % 4 == 2 else {c for c in DECK if c not in pile}
    honours = HONOURS | {C.FOOL}
    plain = [c for c in dealers if c not in honours and C.rank_of(c) != "K"]
    if len(plain) < SCART:
        whose = line("This pile") if n % 4 == 2 else line("The other team's pile")
        raise BadHand(line("{whose} of {n} cards is the dealer's team's, scart included, but only {plain} of its cards "
                           "could be in the scart, whose 2 cards may be no king, I, XXI or Fool.",
                           whose=whose, n=len(dealers), plain=len(plain)))


# ---- the rules page: sample piles and a worked example ----

# The SCA Troccas text's groups of four, then the dealer's two odd cards (italian-swiss-archive.txt).
SAMPLES = [["SW-K", "CU-Q", "BA-J", "CO-5"], ["T7", "CU-Q", "SW-C", "BA-6"], ["T2", "T3", "T4", "FOOL"], ["T21", "T1", "SW-Q", "CO-6"], ["SW-C", "CU-6"]]


def example(game: Game) -> Example:
    """Return the hand the rules page settles, with the page's own arithmetic."""
    # troccas-wikipedia.txt: points over or below 36; docs/rules.md §1: each member is credited his team's score.
    players = list(PLAYERS[:4])
    baseline = BASELINE
    team_points = 40
    diff = team_points - baseline
    payouts = {players[0]: diff, players[2]: diff, players[1]: -diff, players[3]: -diff}
    numbers = {"points": team_points, "other": game.total - team_points, "baseline": baseline, "diff": diff,
               "scart": SCART}
    hand = {"teams": [[players[0], players[2]], [players[1], players[3]]], "side": players[0],
            "points": team_points}
    return Example(players, hand, 1, payouts, numbers)


# ---- how a hand is entered (engine/entry.py) ----

def entry(players: list[str], rules: dict, last: dict | None) -> Entry:
    """Declare the Troccas hand form: the first player's partner (as last hand), either team's points."""
    partner = players[2]
    if last and last.get("teams"):
        partner = next((t for team in last["teams"] if players[0] in team for t in team if t != players[0]), partner)
    sides = (("first", line("{name}'s team", name=players[0])), ("other", line("The other team")))
    return Entry(
        (Pick("partner", line("{name} plays with", name=players[0]), seats(players[1:]), default=partner,
              style="people"),
         Group((Pick("side", line("Points of"), sides, default="first"),
                Number("points", line("Points"), 0, TOTAL, what=line("points"), style="points")),
               style="points-row", hint=line("Of 72. Type either team's points: the other team has the rest."))),
        counts=tuple(Count(side, label, "points", {"side": side}) for side, label in sides))


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the facts: the two teams, whose points were typed, and the points."""
    if v["partner"] is None:
        raise EntryError({"partner": line("Choose the partner.")})
    ours = [players[0], v["partner"]]
    theirs = [p for p in players if p not in ours]
    piles = v.get("piles") or {}
    for side in ("first", "other"):
        if side in piles:
            # the cards tapped: the engine counts them, and refuses what the API refuses (a sweep without the
            # scart, docs/rules.md §1), rather than the form saving the points the cards happen to count
            return {"teams": [ours, theirs], "side": ours[0] if side == "first" else theirs[0],
                    "cards": list(piles[side])}
    return {"teams": [ours, theirs], "side": ours[0] if v["side"] != "other" else theirs[0], "points": v["points"]}


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand."""
    team = next(t for t in facts["teams"] if players[0] in t)
    side = "first" if facts["side"] in team else "other"
    out = {"partner": next(p for p in team if p != players[0]), "side": side, "points": facts.get("points")}
    if isinstance(facts.get("cards"), list):  # entered with the cards: their count, and the cards kept
        out["points"] = pile_of(GAME, facts["cards"], rules).points
        out["piles"] = {side: facts["cards"]}
    return out


def summary(f: dict):
    """Say a hand in a few words: "Anna & Carla: 40 points"."""
    team = next((t for t in f.get("teams", []) if f.get("side") in t), [])
    points = f.get("points")
    if points is None and isinstance(f.get("cards"), list):  # a pile's count doesn't depend on the house rules
        points = pile_of(GAME, f["cards"], {k: o.default for k, o in OPTIONS.items()}).points
    return line("{team}: {points} points", team=" & ".join(team), points=points)


GAME = Game(
    id="troccas", name=N_("Troccas"), min_players=4, max_players=4, deck=DECK, counting=Counting.GROUPS,
    group_size=4, values=values, total=TOTAL, options=OPTIONS, two_sided=True, pile_warnings=pile_warnings,
    score=score, entry=entry, to_facts=to_facts, from_facts=from_facts, summary=summary, naming=NAMING,
    deals_per_game=4, deals_label=N_("4 deals"), samples=SAMPLES, samples_combine=True, example=example,
    rename=lambda f, old, new: renamed(f, old, new, names=("side",), lists=("teams",)),
    currency="CHF",
)
