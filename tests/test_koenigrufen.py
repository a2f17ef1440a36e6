"""Königrufen (docs/rules.md §11): counting to the Blatt, every contract's settlement, premiums, kontras, Trischaken.

Every expected number cites docs/rules.md §11 (the project's copy of the rules) and shows its arithmetic.
"""
import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.engine.errors import BadHand, BadRequest, NotInDeck, UnknownPlayer
from scorekeeper.engine.games import count_pile, get_game, pile_of, resolve_rules

GAME = get_game("koenigrufen")
P4 = ["Anna", "Bernd", "Clara", "Dieter"]
P5 = P4 + ["Eva"]


def score(hand, players=P4, **rules):
    return GAME.score(players, hand, resolve_rules(GAME, rules))


def prem(kind, side="declarer", announced=False, made=True, kontra=1):
    return {"premium": kind, "side": side, "announced": announced, "made": made, "kontra": kontra}


# ---- the pack and the count (§11 "Pack", "Values", "Counting") ----

def test_the_pack_is_54_cards_worth_106_and_70_points():
    rules = resolve_rules(GAME, None)
    assert len(GAME.deck) == len(set(GAME.deck)) == 54
    assert sum(GAME.values(rules).values()) == 106  # 7 × 5 + 16 + 12 + 8 + 35
    whole = count_pile(GAME, list(GAME.deck), rules)
    assert (whole.thirds, whole.points, whole.blatt) == (210, 70, 0)  # 3 × 106 − 2 × 54


@pytest.mark.parametrize("code", ["SW-6", "CU-5", "CO-10", "BA-1"])
def test_cards_outside_the_pack(code):
    with pytest.raises(NotInDeck):
        pile_of(GAME, [code], resolve_rules(GAME, None))


def table_count(values_sum: int, n: int) -> int:
    """§11: at the table, threes less 2, a partial three less 1."""
    return values_sum - 2 * (n // 3) - (1 if n % 3 else 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(GAME.deck), unique=True))
def test_every_split_makes_210_thirds_and_both_counts_agree(pile):
    """§11: two sides make 210 thirds; the table's count ≥ 36 ⟺ the exact count ≥ 35 and 2 Blatt (107)."""
    rules = resolve_rules(GAME, None)
    c = count_pile(GAME, pile, rules)
    assert c.thirds == 3 * sum(GAME.values(rules)[x] for x in pile) - 2 * len(pile)
    assert c.thirds + c.rest.thirds == 210
    table = table_count(c.nominal, len(pile))
    assert (table >= 36) == (c.thirds >= 107)
    rest_table = table_count(c.rest.nominal, c.rest.cards)
    assert table + rest_table == 70  # leftovers 0 + 0 or 1 + 2: the table's counts sum to 70 too


def test_every_pile_size_agrees():
    """§11: 'checked for every pile size': for each N, the best and worst piles of N cards give the same verdict."""
    rules = resolve_rules(GAME, None)
    values = sorted(GAME.values(rules).values())
    for n in range(55):
        for vs in (values[:n], values[54 - n:]):
            thirds = 3 * sum(vs) - 2 * n
            assert (table_count(sum(vs), n) >= 36) == (thirds >= 107), n


def test_the_count_api_says_points_blatt_and_thirds(client):
    # §11: Bube + Reiter = 5: 3 × 5 − 2 × 2 = 11 thirds = 3 and 2 Blatt; the rest 199 = 66 and 1 Blatt
    body = client.post("/api/v1/count", json={"game": "koenigrufen", "cards": ["BA-J", "CO-C"]}).get_json()
    assert (body["points"], body["blatt"], body["thirds"]) == (3, 2, 11)
    assert body["groups"] == {"size": 3, "full": 0, "leftover": 2}
    assert body["rest"] == {"cards": 52, "points": 66, "blatt": 1, "thirds": 199}


# ---- positive games (§11.1, §11.2, §11.4) ----

def test_the_api_example_dreier_with_silent_trull_and_pagat(client):
    # docs/api.md / §11: Dreier 4 + silent Trull 1 − silent Pagat 1 = 4; alone 3 × 4 = 12, stake 10
    body = client.post("/api/v1/score", json={"game": "koenigrufen", "players": P4, "hand": {
        "contract": "dreier", "declarer": "Anna", "game_won": True,
        "premiums": [prem("trull"), prem("pagat", "opponents")]}}).get_json()
    assert body["scores"] == {"Anna": 12, "Bernd": -4, "Clara": -4, "Dieter": -4}
    assert body["payouts"] == {"Anna": 120, "Bernd": -40, "Clara": -40, "Dieter": -40}


def test_rufer_two_against_two():
    # §11.4: Rufer 1, 2 v 2: each winner +1, each loser −1
    assert score({"contract": "rufer", "declarer": "Anna", "partner": "Clara", "game_won": True}).scores == \
        {"Anna": 1, "Bernd": -1, "Clara": 1, "Dieter": -1}


@pytest.mark.parametrize("points,blatt,won", [(35, 2, True), (35, 1, False), (35, 0, False), (36, 0, True)])
def test_35_and_2_blatt_wins_35_35_loses(points, blatt, won):
    # §11 "Game points needed": 35/2 = 107 thirds wins; 35/1 loses; 35 : 35 (35/0) is no draw
    r = score({"contract": "rufer", "declarer": "Anna", "partner": "Clara",
               "declarer_points": {"points": points, "blatt": blatt}})
    assert r.scores["Anna"] == (1 if won else -1)
    assert r.points["declarer"]["thirds"] == 3 * points + blatt


def test_35_and_1_under_the_tulln_threshold():
    # §11 option win_threshold "35/1": 106 thirds wins
    r = score({"contract": "rufer", "declarer": "Anna", "partner": "Clara",
               "declarer_points": {"points": 35, "blatt": 1}}, win_threshold="35/1")
    assert r.scores["Anna"] == 1


def test_the_king_in_the_talon_alone_and_given_up():
    # §11.4: alone 3:1: Rufer won +3 / −1; given up ("schleifen"): −3 × 1; Besserrufer with Uhu 1 + 4 = 5: −15 / +5
    alone = score({"contract": "rufer", "declarer": "Anna", "partner": None, "called_king_in_talon": True,
                   "game_won": True})
    assert alone.scores == {"Anna": 3, "Bernd": -1, "Clara": -1, "Dieter": -1}
    given_up = score({"contract": "rufer", "declarer": "Anna", "partner": None, "called_king_in_talon": True,
                      "schleifen": True})
    assert given_up.scores == {"Anna": -3, "Bernd": 1, "Clara": 1, "Dieter": 1}
    besser = score({"contract": "besserrufer", "declarer": "Anna", "partner": None, "called_king_in_talon": True,
                    "schleifen": True, "premiums": [prem("uhu", announced=True)]})
    assert besser.scores == {"Anna": -15, "Bernd": 5, "Clara": 5, "Dieter": 5}


def test_a_lost_sechserdreier_counts_double_the_game_only():
    # §11.1: Sechserdreier 4, lost 8; the silent Trull for the declarer's side not doubled: −8 + 1 = −7 → −21 / +7
    r = score({"contract": "sechserdreier", "declarer": "Anna", "game_won": False, "premiums": [prem("trull")]})
    assert r.scores == {"Anna": -21, "Bernd": 7, "Clara": 7, "Dieter": 7}


def test_valat_against_a_sechserdreier_is_64():
    # §11.2: 4 × 8 × 2 = 64 per opponent (SAUWALD "8 mal 8 Punkte"); alone: −192
    r = score({"contract": "sechserdreier", "declarer": "Anna",
               "premiums": [prem("valat", "opponents", announced=True)]})
    assert r.scores == {"Anna": -192, "Bernd": 64, "Clara": 64, "Dieter": 64}


def test_a_silent_valat_replaces_the_game_and_only_announced_premiums_count():
    # §11.2: Rufer 1 × 4 = 4 silent valat; the silent Trull doesn't count, the announced Pagat 2 does: 4 + 2 = 6
    r = score({"contract": "rufer", "declarer": "Anna", "partner": "Clara",
               "premiums": [prem("valat"), prem("trull"), prem("pagat", announced=True)]})
    assert r.scores == {"Anna": 6, "Bernd": -6, "Clara": 6, "Dieter": -6}


def test_solo_games_double_the_premiums():
    # §11.1: Solorufer 2 won + the announced Uhu 4 × 2 = 8: 10 per opponent, 2 v 2
    r = score({"contract": "solorufer", "declarer": "Anna", "partner": "Bernd", "game_won": True,
               "premiums": [prem("uhu", announced=True)]})
    assert r.scores == {"Anna": 10, "Bernd": 10, "Clara": -10, "Dieter": -10}


def test_failed_premiums_announced_and_silent():
    # §11.2: an announced Kakadu failed: 6 to the other side; a silent Quapil failed counts nothing (default),
    # or 4 against its side with silent_failure_counts. Dreier won 4 − 6 = −2 → Anna −6
    hand = {"contract": "dreier", "declarer": "Anna", "game_won": True,
            "premiums": [prem("kakadu", announced=True, made=False), prem("quapil", made=False)]}
    assert score(hand).scores["Anna"] == -6
    assert score(hand, silent_failure_counts=True).scores["Anna"] == -18  # 4 − 6 − 4 = −6 → × 3


# ---- kontra (§11.3): the money, not the sheet ----

def test_kontra_on_the_game_changes_the_money_not_the_sheet(client):
    # §11.3: Rufer 1 lost with Rekontra × 4: sheet ±1, money ±4, stake 10 → ±40
    body = client.post("/api/v1/score", json={"game": "koenigrufen", "players": P4, "hand": {
        "contract": "rufer", "declarer": "Anna", "partner": "Clara", "game_won": False, "game_kontra": 4}}).get_json()
    assert body["scores"] == {"Anna": -1, "Bernd": 1, "Clara": -1, "Dieter": 1}
    assert body["payouts"] == {"Anna": -40, "Bernd": 40, "Clara": -40, "Dieter": 40}


def test_each_premium_has_its_own_kontra():
    # §11.3: Dreier 4 won (no kontra) + announced Pagat 2 made with Kontra × 2: sheet 6 → 18; money 4 + 4 = 8 → 24
    r = score({"contract": "dreier", "declarer": "Anna", "game_won": True,
               "premiums": [prem("pagat", announced=True, kontra=2)]})
    assert r.scores["Anna"] == 18 and r.money["Anna"] == 24


def test_the_api_example_piccolo_with_a_kontra(client):
    # docs/api.md: Piccolo 2 made, Bernd kontra: sheet +6 / −2; money Anna 2·2 + 2 + 2 = 8, × 10
    body = client.post("/api/v1/score", json={"game": "koenigrufen", "players": P4, "hand": {
        "contract": "piccolo", "declarer": "Anna", "declarer_tricks": 1, "game_kontra": {"Bernd": 2}}}).get_json()
    assert body["scores"] == {"Anna": 6, "Bernd": -2, "Clara": -2, "Dieter": -2}
    assert body["payouts"] == {"Anna": 80, "Bernd": -40, "Clara": -20, "Dieter": -20}


def test_kontra_in_scores_writes_the_money_on_the_sheet():
    r = score({"contract": "rufer", "declarer": "Anna", "partner": "Clara", "game_won": True, "game_kontra": 2},
              kontra_in_scores=True)
    assert r.scores == {"Anna": 2, "Bernd": -2, "Clara": 2, "Dieter": -2}


def test_solorufer_with_the_king_in_the_talon_voids_every_kontra():
    # §11.3: Solorufer 2 alone: 3 × 2 = 6, kontra void: the money is the sheet
    r = score({"contract": "solorufer", "declarer": "Anna", "partner": None, "called_king_in_talon": True,
               "game_won": True, "game_kontra": 8})
    assert r.scores["Anna"] == 6 and r.money_units["Anna"] == 6


@pytest.mark.parametrize("contract,tricks,won", [("piccolo", 1, True), ("piccolo", 0, False), ("bettel", 0, True),
                                                 ("bettel", 1, False), ("bettel_ouvert", 0, True)])
def test_negative_games_by_tricks(contract, tricks, won):
    # §11.1: Piccolo exactly one trick, Bettel none; Piccolo 2, Bettel 2, Bettel ouvert 7; alone × 3
    value = {"piccolo": 2, "bettel": 2, "bettel_ouvert": 7}[contract]
    r = score({"contract": contract, "declarer": "Anna", "declarer_tricks": tricks})
    assert r.scores["Anna"] == (3 * value if won else -3 * value)


def test_the_tirol_tariff():
    # §11.1 tarif tirol: Dreier 5, Zwiccolo ouvert 8 made with 2 tricks; Trischaken isn't a Raiffeisen Zwiccolo
    assert score({"contract": "dreier", "declarer": "Anna", "game_won": True}, tarif="tirol").scores["Anna"] == 15
    assert score({"contract": "zwiccolo_ouvert", "declarer": "Anna", "declarer_tricks": 2},
                 tarif="tirol").scores["Anna"] == 24
    with pytest.raises(BadHand):
        score({"contract": "zwiccolo_ouvert", "declarer": "Anna", "declarer_tricks": 2})


# ---- five players (§11 "Players") ----

def test_five_players_the_dealer_sits_out():
    # §11: the dealer scores 0; Dreier 4 alone against the three others
    r = score({"contract": "dreier", "declarer": "Anna", "dealer": "Eva", "game_won": True}, players=P5)
    assert r.scores == {"Anna": 12, "Bernd": -4, "Clara": -4, "Dieter": -4, "Eva": 0}
    with pytest.raises(BadRequest):
        score({"contract": "dreier", "declarer": "Anna", "game_won": True}, players=P5)
    with pytest.raises(BadHand):
        score({"contract": "rufer", "declarer": "Anna", "partner": "Eva", "dealer": "Eva", "game_won": True},
              players=P5)


# ---- Trischaken (§11.5) ----

def each(*totals):
    return {p: {"points": t[0], "blatt": t[1]} for p, t in zip(P4, totals)}


@pytest.mark.parametrize("totals,expected", [
    # most points (Bernd 30/0) pays 1 to each; Anna the Vorhand is not the most
    (((20, 0), (30, 0), (10, 0), (10, 0)), {"Anna": 1, "Bernd": -3, "Clara": 1, "Dieter": 1}),
    # the Vorhand with the most pays double, 2 to each
    (((30, 0), (20, 0), (10, 0), (10, 0)), {"Anna": -6, "Bernd": 2, "Clara": 2, "Dieter": 2}),
    # a Bürgermeister (≥ 35/2) pays 2 to each
    (((10, 0), (40, 0), (10, 0), (10, 0)), {"Anna": 2, "Bernd": -6, "Clara": 2, "Dieter": 2}),
    # one virgin collects the whole payment 3 × 1
    (((20, 0), (40 - 5, 1), (14, 2), (0, 0)), {"Anna": 0, "Bernd": -3, "Clara": 0, "Dieter": 3}),
    # §11.5's example: 35/1 : 34/2 and two virgins: the loser pays 4, 2 each
    (((34, 2), (35, 1), (0, 0), (0, 0)), {"Anna": 0, "Bernd": -4, "Clara": 2, "Dieter": 2}),
    # two tied for the most (not the Vorhand) pay 2 each, 2 to each of the others
    (((10, 0), (25, 0), (25, 0), (10, 0)), {"Anna": 2, "Bernd": -2, "Clara": -2, "Dieter": 2}),
])
def test_trischaken(totals, expected):
    r = score({"contract": "trischaken", "declarer": "Anna", "points_each": each(*totals)})
    assert r.scores == expected


def test_trischaken_two_virgins_each_in_full():
    # §11.5 option two_virgins "each_full": each virgin 3 → the loser pays 6
    r = score({"contract": "trischaken", "declarer": "Anna",
               "points_each": each((34, 2), (35, 1), (0, 0), (0, 0))}, two_virgins="each_full")
    assert r.scores == {"Anna": 0, "Bernd": -6, "Clara": 3, "Dieter": 3}


# ---- bad input (issue 39 "Bad input"; docs/api.md) ----

@pytest.mark.parametrize("hand,error", [
    ({"contract": "zwiccolo_ouvert", "declarer": "Anna", "declarer_tricks": 2}, BadHand),  # not in the tariff
    ({"contract": "dreier", "declarer": "Anna", "partner": "Bernd", "game_won": True}, BadHand),  # partner alone
    ({"contract": "farbensolo", "declarer": "Anna", "game_won": True, "premiums": [prem("trull")]}, BadHand),
    ({"contract": "piccolo", "declarer": "Anna", "declarer_tricks": 1, "premiums": [prem("trull")]}, BadHand),
    ({"contract": "dreier", "declarer": "Anna", "game_won": True, "premiums": [prem("koenig_ultimo")]}, BadHand),
    ({"contract": "dreier", "declarer": "Anna", "game_won": True,
      "premiums": [prem("pagat"), prem("pagat", announced=True)]}, BadHand),  # the same premium twice
    ({"contract": "trischaken", "declarer": "Anna", "game_kontra": 2,
      "points_each": each((20, 0), (30, 0), (10, 0), (10, 0))}, BadHand),  # a kontra in Trischaken
    ({"contract": "rufer", "declarer": "Anna", "partner": "Clara",
      "declarer_points": {"points": 71, "blatt": 0}}, BadHand),  # over 70
    ({"contract": "rufer", "declarer": "Anna", "partner": "Clara",
      "declarer_points": {"points": 30, "blatt": 3}}, BadHand),  # a Blatt of 3
    ({"contract": "trischaken", "declarer": "Anna",
      "points_each": each((20, 0), (30, 0), (10, 0), (10, 1))}, BadHand),  # 70 and 1 Blatt: not 210 thirds
    ({"contract": "rufer", "declarer": "Anna", "partner": "Anna", "game_won": True}, BadHand),  # own king
    ({"contract": "rufer", "declarer": "Anna", "partner": "Zoe", "game_won": True}, UnknownPlayer),
    ({"contract": "rufer", "declarer": "Anna", "partner": "Clara", "game_won": True, "game_kontra": 3}, BadRequest),
    ({"contract": "rufer", "declarer": "Anna", "partner": "Clara", "game_won": True,
      "declarer_points": {"points": 40}}, BadRequest),  # both
    ({"contract": "dreier", "declarer": "Anna", "game_won": True,
      "premiums": [prem("uhu", kontra=2)]}, BadHand),  # a kontra on a silent premium
])
def test_bad_input(hand, error):
    with pytest.raises(error):
        score(hand)


def test_a_pile_no_deal_gives_is_warned():
    # §11 "Pile sizes": a Rufer's side holds 4k + 3 cards; 20 cards can't happen
    cards = list(GAME.deck[:20])
    r = score({"contract": "rufer", "declarer": "Anna", "partner": "Clara", "declarer_cards": cards})
    assert r.warnings


# ---- Hypothesis: any hand settles to zero, sheet and money (§11.4) ----

@settings(max_examples=300, deadline=None)
@given(contract=st.sampled_from(["rufer", "solorufer", "besserrufer", "dreier", "sechserdreier", "solodreier",
                                 "farbendreier", "farbensolo"]),
       partner=st.sampled_from([None, "Clara"]), thirds=st.integers(0, 210),
       kontra=st.sampled_from([1, 2, 4, 8]),
       premiums=st.lists(st.tuples(st.sampled_from(["trull", "koenige", "pagat", "uhu", "kakadu", "quapil", "valat"]),
                                   st.sampled_from(["declarer", "opponents"]), st.booleans(), st.booleans(),
                                   st.sampled_from([1, 2, 4, 8])), max_size=4, unique_by=lambda t: (t[0], t[1])))
def test_any_hand_settles_to_zero(contract, partner, thirds, kontra, premiums):
    hand = {"contract": contract, "declarer": "Anna", "declarer_points": {"points": thirds // 3, "blatt": thirds % 3},
            "game_kontra": kontra}
    if contract in ("rufer", "solorufer", "besserrufer"):
        hand["partner"] = partner
    hand["premiums"] = [prem(k, s, a, m, c if a else 1) for k, s, a, m, c in premiums
                        if contract not in ("farbendreier", "farbensolo") or k in ("koenige", "valat")]
    if contract == "besserrufer":
        hand["premiums"] = [p for p in hand["premiums"] if not (p["premium"] == "uhu" and p["side"] == "declarer")]
        hand["premiums"].append(prem("uhu", announced=True))
    try:
        r = score(hand)
    except (BadHand, BadRequest):
        return
    assert sum(r.scores.values()) == 0
    assert sum(r.money_units.values()) == 0
