"""Every game with a score function, the same invariants (STYLE.md after OpenSpiel's conformance test).

For random hands of each game: the scores sum to zero (save where the game's own zero_sum says otherwise), there is
one score per player, payouts through the API are scores × stake, and more points for the declarer
(or a player) never lower that player's score, all else equal.
"""
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from scorekeeper.engine import cards as C
from scorekeeper.engine.errors import ScoreError
from scorekeeper.engine.games import all_games, resolve_rules

NAMES = ["Ann", "Bea", "Cla", "Dan", "Eva", "Flo", "Gus", "Hal", "Ida", "Jon"]


def split(draw, total: int, n: int) -> list[int]:
    """Draw n non-negative integers summing to total."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=n - 1, max_size=n - 1)))
    return [b - a for a, b in zip([0] + cuts, cuts + [total])]


def held(draw, total: int, least: int) -> list[int]:
    """Draw three players' points where the Fool stays with its owner (Scarto, Mitigati; docs/rules.md §2, §3
    bounds): its owner and the winner of its trick both hold cards, so two players at least hold `least` points
    or more; a Mitigati pile is never 1 point."""
    points = split(draw, total - 2 * least, 3)
    points[0] += least
    points[1] += least
    if points[2] == 1 and least == 2:
        points[0], points[2] = points[0] + 1, 0
    order = draw(st.permutations(range(3)))
    return [points[i] for i in order]


def bump_pile(hand, field, player, players):
    """Move one point from another player's pile to `player`'s (None when nobody has one to give)."""
    pts = dict(hand[field])
    giver = next((p for p in players if p != player and pts[p] > 0), None)
    if giver is None:
        return None
    pts[giver] -= 1
    pts[player] += 1
    return {**hand, field: pts}


# Each strategy draws (players, hand, rules, bump) where bump is (player, a hand giving him more points) or None.

TROGGU_TAPP = {3: 8, 4: 10, 5: 7, 6: 8, 7: 6, 8: 6}  # docs/rules.md §5 deal table (4 players: tapp_4p 10)


@st.composite
def troggu(draw):
    n = draw(st.integers(3, 8))
    players = NAMES[:n]
    contract = draw(st.sampled_from(["normal", "solo"] + (["misere"] if n <= 6 else [])))
    tapp, trick = TROGGU_TAPP[n], n - 1  # a trick holds n − 1 points at least (docs/rules.md §5 bounds)
    if contract == "misere":
        # the unused Tapp's points are left out; a player with a trick holds n − 1 points or more, one without 0
        took = draw(st.integers(1, n))
        total = draw(st.integers(114 - 47, 114 - tapp))
        points = [p + trick for p in split(draw, total - took * trick, took)] + [0] * (n - took)
        return players, {"contract": "misere", "misere_points": dict(zip(players, points))}, {}, None
    declarer = draw(st.sampled_from(players))
    partner = None
    if contract == "normal" and n >= 7:
        partner = draw(st.sampled_from([None] + [p for p in players if p != declarer]))
    # both sides took a trick: the declarer holds the Tapp and a trick, the opponents a trick at least
    pts = draw(st.integers(tapp + trick, 114 - trick))
    hand = {"contract": contract, "declarer": declarer, "partner": partner, "declarer_points": pts, "no_tricks": None}
    return players, hand, {}, (declarer, {**hand, "declarer_points": pts + 1})


TAROT_VALUES = all_games()["french_tarot"].values({})
OUDLERS = {"T1", "T21", "FOOL"}


def tarot_points(points):
    """Write French Tarot points for JSON: 40.5 as a float, whole points as an int."""
    return float(points) if points.denominator == 2 else int(points)


@st.composite
def french_tarot(draw):
    # A real deal (docs/rules.md §6 bounds): the chien or écart (no king, no oudler laid away) and k tricks of
    # n cards to the attack, the rest to the defence (with the chien in a garde contre); both sides take a trick.
    n = draw(st.integers(3, 5))
    players = NAMES[:n]
    taker = draw(st.sampled_from(players))
    partner = draw(st.sampled_from([None] + [p for p in players if p != taker])) if n == 5 else None
    contract = draw(st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"]))
    chien = {3: 6, 4: 6, 5: 3}[n]
    k = draw(st.integers(1, (78 - chien) // n - 1))
    order = draw(st.permutations(C.DECK_78))
    first = [] if contract == "garde_contre" else [
        c for c in order if contract == "garde_sans" or (c not in OUDLERS and C.rank_of(c) != "K")][:chien]
    attack = first + [c for c in order if c not in first][:k * n]
    points = sum(TAROT_VALUES[c] for c in attack)
    oudlers = len(OUDLERS & set(attack))
    pab = draw(st.sampled_from([None] + (["attack"] if "T1" in attack[len(first):] else [])
                               + (["defence"] if "T1" not in attack else [])))
    hand = {"taker": taker, "contract": contract, "partner": partner, "points": tarot_points(points),
            "oudlers": oudlers, "petit_au_bout": pab, "poignees": [], "chelem": None}
    return players, hand, {}, (taker, {**hand, "points": tarot_points(points + 1)})


@st.composite
def troccas(draw):
    players = NAMES[:4]
    order = draw(st.permutations(players))
    side = draw(st.sampled_from(players))
    pts = draw(st.integers(0, 71))
    hand = {"teams": [order[:2], order[2:]], "side": side, "points": pts}
    rules = {"all_tricks_take_scart": draw(st.booleans())}
    return players, hand, rules, (side, {**hand, "points": pts + 1})


def every_player(total, least=0):
    @st.composite
    def strategy(draw):
        players = NAMES[:3]
        hand = {"points": dict(zip(players, held(draw, total, least) if least else split(draw, total, 3)))}
        player = draw(st.sampled_from(players))
        return players, hand, {}, (player, bump_pile(hand, "points", player, players))
    return strategy


@st.composite
def scarto(draw):
    players, hand, _, bump = draw(every_player(78, least=1)())
    rules = {"honour_trump": draw(st.sampled_from(["T20", "T21"])),
             "fool_exchange": draw(st.sampled_from(["none", "french"]))}
    return players, hand, rules, bump


HONOURS_AND_TRUMPS = [f"{s}-K" for s in C.SUITS] + ["FOOL"] + list(C.TRUMPS)


@st.composite
def mitigati(draw):
    players = NAMES[:3]
    rules = {"honour_trump": draw(st.sampled_from(["T20", "T21"])),
             "declarations_paid": draw(st.sampled_from(["each_player", "flat"])),
             "honours_reading": draw(st.sampled_from(["canonical", "trio_and_four", "four_over_trio"])),
             "fool_in_trumps": draw(st.sampled_from(["tenth_only", "never"]))}
    if draw(st.booleans()):
        a, b = draw(st.integers(-20, 20)), draw(st.integers(-20, 20))
        return players, {"bids": dict(zip(players, [a, b, -a - b]))}, rules, None
    owner = draw(st.lists(st.sampled_from([None] + players), min_size=len(HONOURS_AND_TRUMPS),
                          max_size=len(HONOURS_AND_TRUMPS)))
    shown = {p: [c for c, o in zip(HONOURS_AND_TRUMPS, owner) if o == p] for p in players}
    hand = {"points": dict(zip(players, held(draw, 129, 2))), "declarations": shown}
    player = draw(st.sampled_from(players))
    return players, hand, rules, (player, bump_pile(hand, "points", player, players))


@st.composite
def triomphe_forcee(draw):
    n = draw(st.integers(4, 10))
    players = NAMES[:n]
    rules = {"force_trump": draw(st.sampled_from(["T11", "T9"]))}
    if draw(st.integers(0, 5)) == 0:
        return players, {"la_mort": draw(st.sampled_from(players))}, rules, None
    holders = draw(st.lists(st.sampled_from([None] + players), min_size=3, max_size=3))
    declared = {}
    for card, who in zip(["FOOL", "T1", rules["force_trump"]], holders):
        if who:
            declared.setdefault(who, []).append(card)
    if None not in holders and n == 4:
        return players, {"declarations": declared}, rules, None  # the pot is empty: no play
    tricks = draw(st.lists(st.sampled_from(players), min_size=5, max_size=5))
    hand = {"declarations": declared, "tricks": tricks}
    player, i = draw(st.sampled_from(players)), draw(st.integers(0, 4))
    more = tricks[:i] + [player] + tricks[i + 1:]
    return players, hand, rules, (player, {**hand, "tricks": more})


@st.composite
def sicilian_tarocchi(draw):
    # docs/rules.md §10: solo (3 or 4), call (4), each for himself (3), pago, offer, everyone passed; a side's points
    # 0..109 with the last trick, three players' points summing to 109.
    n = draw(st.integers(3, 4))
    players = NAMES[:n]
    rules = {"version": draw(st.sampled_from(["tortorici", "mineo", "calatafimi", "barcellona"])),
             "stata_multiplier": draw(st.sampled_from([2, 1])), "cappotto_bonus": draw(st.integers(0, 20))}
    contract = draw(st.sampled_from(["solo", "pago", "offer", "passed"] + (["call"] if n == 4 else ["each"])))
    if contract == "passed":
        return players, {"contract": "passed"}, rules, None
    if contract == "pago":
        taker = draw(st.sampled_from(players))
        payers = draw(st.lists(st.sampled_from([p for p in players if p != taker]), min_size=1, unique=True))
        return players, {"contract": "pago", "taker": taker, "payers": payers}, rules, None
    if contract == "offer":
        giver, taker = draw(st.permutations(players))[:2]
        offer = {"from": giver, "to": taker, "amount": draw(st.integers(1, 109))}
        return players, {"contract": "offer", "offer": offer}, rules, None
    if contract == "each":
        hand = {"contract": "each", "points_each": dict(zip(players, split(draw, 109, 3)))}
        player = draw(st.sampled_from(players))
        return players, hand, rules, (player, bump_pile(hand, "points_each", player, players))
    declarer = draw(st.sampled_from(players))
    pts = draw(st.integers(0, 109))
    hand = {"contract": contract, "declarer": declarer, "declarer_points": pts,
            "stata": contract == "solo" and draw(st.booleans()), "cappotto": pts == 109 and draw(st.booleans())}
    if contract == "call":
        hand["partner"] = draw(st.sampled_from([None] + players))
    if rules["version"] == "mineo" and draw(st.booleans()):
        hand["game_points"] = {"declarer": draw(st.integers(0, 6)), "opponents": draw(st.integers(0, 6))}
    more = None if pts == 109 or "game_points" in hand else {**hand, "declarer_points": pts + 1, "cappotto": False}
    return players, hand, rules, (declarer, more)


KR_PREMIUMS = ("trull", "koenige", "koenig_ultimo", "pagat", "uhu", "kakadu", "quapil", "valat")


@st.composite
def koenigrufen(draw):
    # docs/rules.md §11: 4 or 5 players (the dealer sits out), the cup tariff or Tirol's; a positive game won, lost or
    # counted in thirds with premiums and kontras; a negative game with each opponent's kontra; Trischaken's totals
    # summing to 210 thirds. The money (kontras) is checked zero-sum too, in test_invariants.
    n = draw(st.integers(4, 5))
    players = NAMES[:n]
    rules = {"tarif": draw(st.sampled_from(["raiffeisen", "tirol"])),
             "trischaken": draw(st.sampled_from(["raiffeisen", "tirol"])),
             "two_virgins": draw(st.sampled_from(["share", "each_full"])),
             "silent_failure_counts": draw(st.booleans()), "kontra_in_scores": draw(st.booleans()),
             "win_threshold": draw(st.sampled_from(["35/2", "35/1"]))}
    order = draw(st.permutations(players))
    dealer = order[-1] if n == 5 else None
    active = [p for p in players if p != dealer]
    declarer = order[0]
    hand = {"declarer": declarer, **({"dealer": dealer} if dealer else {})}
    kind = draw(st.sampled_from(["rufer", "solorufer", "dreier", "sechserdreier", "solodreier", "farbensolo",
                                 "piccolo", "bettel", "trischaken"]))
    hand["contract"] = kind
    if kind == "trischaken":
        thirds = split(draw, 210, 4)
        hand["points_each"] = {p: {"points": t // 3, "blatt": t % 3} for p, t in zip(active, thirds)}
        return players, hand, rules, None
    if kind in ("piccolo", "bettel"):
        hand["declarer_tricks"] = draw(st.integers(0, 12))
        opps = [p for p in active if p != declarer]
        hand["game_kontra"] = {p: draw(st.sampled_from([2, 4, 8])) for p in opps if draw(st.booleans())}
        return players, hand, rules, None
    if kind in ("rufer", "solorufer"):
        hand["partner"] = draw(st.sampled_from([None] + [p for p in active if p != declarer]))
    thirds = draw(st.integers(0, 210))
    hand["declarer_points"] = {"points": thirds // 3, "blatt": thirds % 3}
    hand["game_kontra"] = draw(st.sampled_from([1, 2, 4, 8]))
    allowed = [p for p in KR_PREMIUMS if (kind != "farbensolo" or p in ("koenige", "valat"))
               and (p != "koenig_ultimo" or (kind in ("rufer", "solorufer") and hand["partner"]))]
    premiums = []
    for p in draw(st.lists(st.sampled_from(allowed), unique=True, max_size=3)):
        announced = draw(st.booleans())
        premiums.append({"premium": p, "side": draw(st.sampled_from(["declarer", "opponents"])),
                         "announced": announced, "made": draw(st.booleans()),
                         "kontra": draw(st.sampled_from([1, 2, 4, 8])) if announced else 1})
    hand["premiums"] = premiums
    more = None
    if thirds < 210:
        more = {**hand, "declarer_points": {"points": (thirds + 1) // 3, "blatt": (thirds + 1) % 3}}
    return players, hand, rules, (declarer, more)


STRATEGIES = {
    "koenigrufen": koenigrufen(),
    "troggu": troggu(),
    "french_tarot": french_tarot(),
    "troccas": troccas(),
    "scarto": scarto(),
    "swiss_tarot_1659": every_player(78)(),
    "mitigati": mitigati(),
    "triomphe_forcee": triomphe_forcee(),
    "sicilian_tarocchi": sicilian_tarocchi(),
}


def test_every_game_has_a_strategy():
    assert set(STRATEGIES) == set(all_games())


def scored(game, players, hand, rules):
    try:
        return game.score(players, hand, resolve_rules(game, rules))
    except ScoreError:
        # a hand the game finds impossible: Hypothesis fails the health check if that is most of them
        assume(False)


@pytest.mark.parametrize("game_id", list(all_games()))
def test_only_a_house_rule_makes_a_hand_not_zero_sum(game_id):
    """docs/rules.md §0.3: settlement is zero-sum except where a house rule makes it otherwise on purpose, so under
    the default rules a game says zero-sum at every player count (test_invariants trusts what it says)."""
    game = all_games()[game_id]
    rules = resolve_rules(game, None)
    assert all(game.zero_sum(rules, n) for n in range(game.min_players, game.max_players + 1))


@pytest.mark.parametrize("game_id", [g for g in all_games()])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), stake=st.integers(0, 50))
def test_invariants(client, game_id, data, stake):
    game = all_games()[game_id]
    players, hand, rules, bump = data.draw(STRATEGIES[game_id])
    result = scored(game, players, hand, rules)
    assert set(result.scores) == set(players)
    assert all(type(s) is int for s in result.scores.values())
    if game.zero_sum(resolve_rules(game, rules), len(players)):  # the game's own word (docs/rules.md §0.3)
        assert sum(result.scores.values()) == 0, result.explanation
    assert result.explanation

    response = client.post("/api/v1/score", json={"game": game_id, "players": players, "hand": hand,
                                                  "rules": rules, "stake": stake})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["scores"] == result.scores
    # payouts are the money × stake: the scores, save where kontras change the money and not the sheet (§11.3)
    assert body["payouts"] == {p: s * stake for p, s in result.money_units.items()}
    if game.zero_sum(resolve_rules(game, rules), len(players)):
        assert sum(result.money_units.values()) == 0, result.explanation

    if bump is not None and bump[1] is not None:
        player, more = bump
        try:
            better = game.score(players, more, resolve_rules(game, rules))
        except ScoreError:
            return  # one more point made the hand impossible (e.g. past the deck): nothing to compare
        assert better.scores[player] >= result.scores[player], (hand, more)
