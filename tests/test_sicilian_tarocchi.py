"""Sicilian Tarocchi (docs/rules.md §10): the pack, counting in threes to 104 (+5 = 109), every way a hand ends,
the versions, bad input, and a table's evening in Italian. Every expected number says where it comes from."""
from __future__ import annotations

import re
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.errors import BadHand, BadRequest, DuplicateCard, NotInDeck
from scorekeeper.engine.games import count_pile, get_game, pile_of, resolve_rules
from scorekeeper.engine.games import sicilian_tarocchi as S

GAME = get_game("sicilian_tarocchi")
RULES = resolve_rules(GAME, None)
P3, P4 = ["Anna", "Beat", "Carla"], ["Anna", "Beat", "Carla", "Dario"]
# docs/rules.md §10: "23 counting cards, nominal 106"
COUNTING = {"T20": 10, "T1": 10, "FOOL": 10, "T19": 5, "T18": 5, "T17": 5, "T16": 5,
            **{f"{s}-K": 5 for s in "SW BA CU CO".split()}, **{f"{s}-Q": 4 for s in "SW BA CU CO".split()},
            **{f"{s}-C": 3 for s in "SW BA CU CO".split()}, **{f"{s}-J": 2 for s in "SW BA CU CO".split()}}


def score(players, hand, **rules):
    return GAME.score(players, hand, resolve_rules(GAME, rules))


def pts(*cards, **rules):
    return pile_of(GAME, list(cards), resolve_rules(GAME, rules)).points


# ---- the pack and its values ----

def test_the_pack():
    # §10: 21 trumps (20 … 1 and the Miseria), the Fugitive, 3 × 10 + 11 suit cards = 63; 64 with the ace
    assert len(GAME.deck) == len(set(GAME.deck)) == 63
    assert sum(1 for c in GAME.deck if c.startswith("T")) == 21 and "T0" in GAME.deck and "T21" not in GAME.deck
    assert [c for c in GAME.deck if c.startswith("CO-")] == ["CO-K", "CO-Q", "CO-C", "CO-J"] + [f"CO-{n}" for n in range(10, 3, -1)]
    assert [c for c in GAME.deck if c.startswith("SW-")] == ["SW-K", "SW-Q", "SW-C", "SW-J"] + [f"SW-{n}" for n in range(10, 4, -1)]
    assert len(GAME.deck_of(resolve_rules(GAME, {"ace_of_coins": True}))) == 64


def test_values_and_totals():
    values = GAME.values(RULES)
    # §10: 23 counting cards worth 106; the other 40 are scartine, 1 each in the group arithmetic: 146
    assert {c: v for c, v in values.items() if c in COUNTING} == COUNTING
    assert sum(COUNTING.values()) == 106 and len(COUNTING) == 23
    assert sum(values.values()) == 146 and sum(1 for v in values.values() if v == 1) == 40
    # §10 deck check: 146 − 21 × 2 = 104
    assert count_pile(GAME, list(GAME.deck), RULES).points == 104 == GAME.total


@pytest.mark.parametrize("cards,expected", [
    # §10: a full three is its sum − 2: Giove 10 + king 5 + scartina 1 − 2 = 14
    (["T20", "SW-K", "CU-5"], 14),
    # a lone card loses its point too: the Fujutu 10 − 1 = 9, a scartina 1 − 1 = 0, the Miseria 1 − 1 = 0
    (["FOOL"], 9), (["SW-5"], 0), (["MISERIA"], 0),
    # two cards over: Donna 2 + cavallo 3 − 1 = 4
    (["BA-J", "CU-C"], 4),
    # 4 cards: a three and one over: 10 + 10 + 5 + 1 − 2 − 1 = 23
    (["T20", "T1", "T19", "T2"], 23),
])
def test_counting_in_threes(cards, expected):
    assert pts(*cards) == expected


def test_as_scarto_keeps_a_lone_card():
    # §0.2's rule (option count_leftover "as_scarto"): a lone card counts its own value: the Fujutu 10
    assert pts("FOOL", count_leftover="as_scarto") == 10
    # ... and then a split can make 105: 1 scartina (1) against 62 cards (145 − 20 × 2 − 1 = 104)
    rules = resolve_rules(GAME, {"count_leftover": "as_scarto"})
    one = count_pile(GAME, ["SW-5"], rules)
    assert one.points + one.rest.points == 105


@settings(max_examples=500, deadline=None)
@given(order=st.permutations(S.DECK), k=st.integers(0, 63))
def test_every_split_into_two_parts_makes_104(order, k):
    """§10: however the cards are split into two parts and counted in threes, the two make 104."""
    count = count_pile(GAME, list(order[:k]), RULES)
    assert count.points + count.rest.points == 104
    assert 0 <= count.points <= 104


def test_twenty_thousand_random_splits_make_104():
    """§10 "checked over 20,000 random splits": the same check, seeded, as the rules text made it."""
    rng = random.Random(27)
    deck = list(S.DECK)
    for _ in range(20_000):
        rng.shuffle(deck)
        k = rng.randint(0, 63)
        count = count_pile(GAME, deck[:k], RULES)
        assert count.points + count.rest.points == 104


@settings(max_examples=300, deadline=None)
@given(pile=st.lists(st.sampled_from(S.DECK), unique=True))
def test_the_players_way_of_counting_agrees(pile):
    """§10: Σ over counting cards of (v − 1) + round(N/3), round(N/3) = ⌊(N + 1)/3⌋."""
    players_way = sum(COUNTING[c] - 1 for c in pile if c in COUNTING) + (len(pile) + 1) // 3
    assert pts(*pile) == players_way


def test_the_working_is_shown():
    # 1 group and 1 odd card: 26 − 2 − 1 = 23 (the 4-card pile above)
    assert str(pile_of(GAME, ["T20", "T1", "T19", "T2"], RULES).working) == \
        "1 group of 3 and 1 odd card: 26 − 2 − 1 = 23"
    assert str(pile_of(GAME, ["FOOL"], RULES).working) == "1 card: 10 − 1 = 9"


# ---- pile sizes: warnings, never refusals ----

@pytest.mark.parametrize("cards,warned", [
    (["SW-5"], True),  # 1 card without the Fujutu: 3k+1 at 3 players, 4k+1 at 4: no deal gives it
    (["FOOL"], False),  # the Fujutu kept alone: 3k+1
    (["FOOL", "SW-5"], True),  # 2 with the Fujutu: neither 3k+1 nor (at 4) a side's size
    (["SW-5", "SW-6", "SW-7"], False),  # the monte alone, or a trick of 3
    (["SW-5", "SW-6", "SW-7", "SW-8"], False),  # a trick of 4
])
def test_pile_size_warnings(cards, warned):
    assert bool(pile_of(GAME, cards, RULES).warnings) == warned


def test_a_hand_checks_sizes_for_its_player_count():
    # 4 cards without the Fujutu: fine at 4 players (4k), impossible for a side at 3 (3k+1 without it)
    hand = {"contract": "solo", "declarer": "Anna", "declarer_cards": ["SW-5", "SW-6", "SW-7", "SW-8"],
            "last_trick": "opponents"}
    result = score(P3, hand)
    assert result.warnings and "4 cards can't happen" in str(result.warnings[0])
    # counted: 4 scartine 4 − 2 − 1 = 1; the opponents have 104 − 1 = 103 + the last trick 5 = 108
    assert result.points == {"declarer": 1, "opponents": 108}


# ---- every way a hand ends (version tortorici, the default) ----

@pytest.mark.parametrize("players,hand,expected", [
    # §10 Tortorici: soloist 2 × (S − 55), each opponent −(S − 55): 70 → +30, −15, −15
    (P3, {"contract": "solo", "declarer": "Anna", "declarer_points": 70}, {"Anna": 30, "Beat": -15, "Carla": -15}),
    # 54 loses by 1: (−2, +1, +1) as §10 says
    (P3, {"contract": "solo", "declarer": "Beat", "declarer_points": 54}, {"Anna": 1, "Beat": -2, "Carla": 1}),
    # 55: 2 × 0 = 0 (the formula as written; docs/rules.md §10 "How the code reads")
    (P3, {"contract": "solo", "declarer": "Anna", "declarer_points": 55}, {"Anna": 0, "Beat": 0, "Carla": 0}),
    # [inferred] alone against 3: 3 × (60 − 55) = +15, each −5
    (P4, {"contract": "solo", "declarer": "Anna", "declarer_points": 60},
     {"Anna": 15, "Beat": -5, "Carla": -5, "Dario": -5}),
    # [inferred] a call, 2 against 2: each of the pair +(60 − 55) = +5, each opponent −5
    (P4, {"contract": "call", "declarer": "Anna", "partner": "Carla", "declarer_points": 60},
     {"Anna": 5, "Beat": -5, "Carla": 5, "Dario": -5}),
    # the called trump in his own hand or the monte: alone against 3: 3 × (40 − 55) = −45, each +15
    (P4, {"contract": "call", "declarer": "Dario", "partner": None, "declarer_points": 40},
     {"Anna": 15, "Beat": 15, "Carla": 15, "Dario": -45}),
    (P4, {"contract": "call", "declarer": "Dario", "partner": "Dario", "declarer_points": 40},
     {"Anna": 15, "Beat": 15, "Carla": 15, "Dario": -45}),
    # stata ×2 (stata_multiplier): 2 × 2 × (70 − 55) = +60, each 2 × −15 = −30
    (P3, {"contract": "solo", "declarer": "Anna", "declarer_points": 70, "stata": True},
     {"Anna": 60, "Beat": -30, "Carla": -30}),
    # [inferred] each for himself: 3·p − 109: 40 → 11, 30 → −19, 39 → 8 (40 + 30 + 39 = 109)
    (P3, {"contract": "each", "points_each": {"Anna": 40, "Beat": 30, "Carla": 39}},
     {"Anna": 11, "Beat": -19, "Carla": 8}),
    # pago (AGTS): Beat and Carla said pago, Anna prendo: 1 each to Anna
    (P3, {"contract": "pago", "payers": ["Beat", "Carla"], "taker": "Anna"}, {"Anna": 2, "Beat": -1, "Carla": -1}),
    (P4, {"contract": "pago", "payers": ["Dario"], "taker": "Beat"}, {"Anna": 0, "Beat": 1, "Carla": 0, "Dario": -1}),
    # offro 7 / piglio (AGTS, Calatafimi): 7 from Carla to Beat
    (P3, {"contract": "offer", "offer": {"from": "Carla", "to": "Beat", "amount": 7}},
     {"Anna": 0, "Beat": 7, "Carla": -7}),
    # everyone passed: no score
    (P4, {"contract": "passed"}, {"Anna": 0, "Beat": 0, "Carla": 0, "Dario": 0}),
])
def test_hands(players, hand, expected):
    result = score(players, hand)
    assert result.scores == expected
    assert sum(result.scores.values()) == 0  # §10 invariants: every settlement is zero-sum


def test_a_solo_from_the_cards_with_the_last_trick():
    # Anna took every trick (a cappotto): the whole pack 104 and the last trick 5 = 109 (§10)
    hand = {"contract": "solo", "declarer": "Anna", "declarer_cards": list(S.DECK), "last_trick": "declarer",
            "cappotto": True}
    result = score(P3, hand, cappotto_bonus=10)
    assert result.points == {"declarer": 109, "opponents": 0}
    # 2 × (109 − 55) = 108, plus the cappotto bonus 10 from each of 2 opponents: 128; each −54 − 10 = −64
    assert result.scores == {"Anna": 128, "Beat": -64, "Carla": -64}


def test_last_trick_zero_makes_104():
    # last_trick_points 0: a hand makes 104; S − 55 still: 60 → 2 × 5 = 10
    assert score(P3, {"contract": "solo", "declarer": "Anna", "declarer_points": 60},
                 last_trick_points=0).scores["Anna"] == 10
    with pytest.raises(BadHand):  # 105 is more than the 104 a hand makes without the last trick
        score(P3, {"contract": "solo", "declarer": "Anna", "declarer_points": 105}, last_trick_points=0)


def test_each_for_himself_from_the_cards():
    deck = list(S.DECK)
    piles = {"Anna": deck[:21], "Beat": deck[21:42], "Carla": deck[42:]}  # 21 cards each, multiples of 3
    result = score(P3, {"contract": "each", "cards_each": piles, "last_trick": "Carla"})
    counted = {p: count_pile(GAME, c, RULES).points for p, c in piles.items()}
    assert sum(counted.values()) == 104  # §10: 3 multiples of 3 make 146 − 21 × 2
    assert result.points == {**counted, "Carla": counted["Carla"] + 5}
    assert sum(result.points.values()) == 109
    assert result.scores == {p: 3 * result.points[p] - 109 for p in P3}


# ---- the versions ----

def test_mineo_game_points_as_the_table_counted():
    # §10 mineo: J = 3 − 1 = 2: soloist +2 × 2 = +4, each −2
    hand = {"contract": "solo", "declarer": "Anna", "declarer_points": 70,
            "game_points": {"declarer": 3, "opponents": 1}}
    assert score(P3, hand, version="mineo").scores == {"Anna": 4, "Beat": -2, "Carla": -2}
    # stata ×2: +8, −4, −4
    assert score(P3, {**hand, "stata": True}, version="mineo").scores == {"Anna": 8, "Beat": -4, "Carla": -4}
    # alone against 3 at 4 players: +3 × J = +6, each −2
    assert score(P4, hand, version="mineo").scores == {"Anna": 6, "Beat": -2, "Carla": -2, "Dario": -2}


def test_mineo_game_points_from_the_cards():
    # The declarer's side holds every counting card but the Fujutu, and the last trick: the majority (1), the last
    # trick (1), all the arie with Giove (2) = 4 against 0: J = 4, soloist +8, each −4
    pile = [c for c in S.DECK if c in COUNTING and c != "FOOL"] + ["SW-5", "SW-6"]  # 22 + 2 = 24 cards
    # 106 − 10 + 2 = 98; 8 threes: 98 − 16 = 82, and the last trick 5: 87 of 109, the majority
    assert count_pile(GAME, pile, RULES).points == 82
    hand = {"contract": "solo", "declarer": "Anna", "declarer_cards": pile, "last_trick": "declarer"}
    assert score(P3, hand, version="mineo").scores == {"Anna": 8, "Beat": -4, "Carla": -4}


@pytest.mark.parametrize("version", ["calatafimi", "barcellona"])
def test_other_versions_score_as_tortorici(version):
    hand = {"contract": "solo", "declarer": "Anna", "declarer_points": 70}
    assert score(P3, hand, version=version).scores == score(P3, hand).scores


def test_the_barcellona_ace():
    # ace_of_coins: CO-1 is the lowest coin, a scartina (1); off, it is not in the pack
    with pytest.raises(NotInDeck):
        pts("CO-1")
    assert pts("CO-1", "CO-4", "CO-5", ace_of_coins=True) == 1  # 3 scartine: 3 − 2


# ---- bad input ----

@pytest.mark.parametrize("card", ["T21", "SW-4", "CO-3", "CO-1", "BA-1"])
def test_a_card_not_in_this_pack_is_named(client, card):
    answer = client.post("/api/v1/count", json={"game": "sicilian_tarocchi", "cards": ["T20", card]})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["code"] == "not_in_deck" and error["cards"] == [card] and card in error["message"]


def test_the_ace_is_in_the_pack_when_the_house_rule_says(client):
    answer = client.post("/api/v1/count", json={"game": "sicilian_tarocchi", "cards": ["CO-1"],
                                                "rules": {"ace_of_coins": True}})
    assert answer.status_code == 200 and answer.get_json()["points"] == 0  # a lone scartina: 1 − 1


def test_the_count_api(client):
    body = client.post("/api/v1/count", json={"game": "sicilian_tarocchi",
                                              "cards": ["T20", "SW-K", "CU-5", "FOOL"]}).get_json()
    # 16 + 10 = 26; 1 group and 1 odd: 26 − 2 − 1 = 23; the rest 104 − 23 = 81 (api.md: never the last trick)
    assert body["points"] == 23 and body["rest"] == {"cards": 59, "points": 81}
    assert body["groups"] == {"size": 3, "full": 1, "leftover": 1} and body["warnings"] == []


@pytest.mark.parametrize("players,hand,words", [
    (P3, {"contract": "solo", "declarer": "Anna", "declarer_points": 112}, "not 112"),
    (P3, {"contract": "each", "points_each": {"Anna": 40, "Beat": 30, "Carla": 40}}, "add up to 110"),
    (P3, {"contract": "each", "points_each": {"Anna": 40, "Beat": 30, "Carla": 30}}, "add up to 100"),
    (P3, {"contract": "pago", "payers": ["Anna", "Beat"], "taker": "Anna"}, "Anna said pago"),
    (P3, {"contract": "offer", "offer": {"from": "Beat", "to": "Beat", "amount": 5}}, "his own offer"),
    (P3, {"contract": "call", "declarer": "Anna", "partner": "Beat", "declarer_points": 60}, "only at 4 players"),
    (P4, {"contract": "each", "points_each": {"Anna": 40, "Beat": 30, "Carla": 39, "Dario": 0}}, "at 3 players"),
    (P3, {"contract": "solo", "declarer": "Anna", "declarer_points": 100, "cappotto": True}, "all 109"),
    (P4, {"contract": "call", "declarer": "Anna", "partner": "Beat", "declarer_points": 60, "stata": True}, "stata"),
    (P3, {"contract": "chiamo"}, "not a way"),
])
def test_impossible_hands_are_refused_saying_why(players, hand, words):
    with pytest.raises(BadHand) as e:
        score(players, hand)
    assert words in str(e.value)


def test_the_api_refuses_with_bad_hand(client):
    answer = client.post("/api/v1/score", json={"game": "sicilian_tarocchi", "players": P3,
                                                "hand": {"contract": "each",
                                                         "points_each": {"Anna": 50, "Beat": 30, "Carla": 39}}})
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "bad_hand"
    assert "119" in answer.get_json()["error"]["message"]


def test_cards_each_must_hold_the_pack_once():
    deck = list(S.DECK)
    with pytest.raises(DuplicateCard):
        score(P3, {"contract": "each", "cards_each": {"Anna": deck[:21], "Beat": deck[20:42], "Carla": deck[42:]},
                   "last_trick": "Anna"})
    # 1, 1 and 61 cards: three piles of 3k+1, one at most can be (the Fujutu's); 146 − 20 × 2 − 3 = 103, not 104
    with pytest.raises(BadHand) as e:
        score(P3, {"contract": "each", "cards_each": {"Anna": ["SW-5"], "Beat": ["SW-6"],
                                                      "Carla": [c for c in deck if c not in ("SW-5", "SW-6")]},
                   "last_trick": "Anna"})
    assert "count 103" in str(e.value)
    with pytest.raises(BadRequest):  # the cards, but no last trick
        score(P3, {"contract": "solo", "declarer": "Anna", "declarer_cards": ["SW-5"]})


# ---- a table's evening, in Italian, through the generic form ----

def test_an_evening_in_italian(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    opened = client.post("/tables/new/sicilian_tarocchi?lang=it", data={
        "players-0": "Anna", "players-1": "Beat", "players-2": "Carla", "players-3": "Dario", "first_dealer": "0",
        "stake": "0.10", "currency": "EUR"})
    assert opened.status_code == 303, opened.get_data(as_text=True)
    table = opened.headers["Location"]
    form = client.get(table + "?lang=it").get_data(as_text=True)
    assert "Fujutu" in form or 'name="contract"' in form
    posts = [
        # a solo: Anna 60 of 109 alone against 3: 3 × 5 = +15 (§10 [inferred])
        {"contract": "solo", "declarer": "Anna", "side": "declarer", "points": "60"},
        # a call: Beat with Dario; the opponents' 49 typed: Beat's side 109 − 49 = 60: +5 each of the pair
        {"contract": "call", "declarer": "Beat", "partner": "Dario", "side": "opponents", "points": "49"},
        # a pago: Carla and Dario pay Anna 1 each
        {"contract": "pago", "declarer": "Anna", "payers": ["Carla", "Dario"]},
        {"contract": "passed"},
    ]
    for i, data in enumerate(posts):
        saved = client.post(table + "/hands", data={**data, "token": f"t{i}", "action": "save"})
        assert saved.status_code == 303, saved.get_data(as_text=True)
    # Anna +15 − 5 + 2 = +12; Beat −5 + 5 = 0; Carla −5 − 5 − 1 = −11; Dario −5 + 5 − 1 = −1
    board = client.get(table + "?lang=it").get_data(as_text=True)
    assert "+12" in board and "−11" in board
    assert client.get(table + "/settle?lang=it").status_code == 200
    # exports follow from the game: the JSON keeps the facts, the CSV each hand's scores
    exported = client.get(table + "/export.json")
    assert exported.status_code == 200 and exported.get_json()["game"] == "sicilian_tarocchi"
    assert {"contract": "pago", "taker": "Anna", "payers": ["Carla", "Dario"]} in [
        h["hand"] for h in exported.get_json()["hands"]]
    csv = client.get(table + "/export.csv")
    assert csv.status_code == 200 and "Anna" in csv.get_data(as_text=True)


def test_the_form_refuses_an_offer_to_oneself(app):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    table = client.post("/tables/new/sicilian_tarocchi", data={
        "players-0": "Anna", "players-1": "Beat", "players-2": "Carla", "first_dealer": "0", "stake": "1",
        "currency": "EUR"}).headers["Location"]
    answer = client.post(table + "/hands", data={"contract": "offer", "declarer": "Beat", "offer_from": "Beat",
                                                 "amount": "5", "action": "save"})
    assert answer.status_code == 200 and "An offer goes to another player." in answer.get_data(as_text=True)


def test_the_rules_page_says_what_is_inferred(client):
    html = client.get("/rules/sicilian_tarocchi").get_data(as_text=True)
    assert "The sources read do not give this; this table chooses." in html
    assert "Giove" in html and "Picciotti" in html and "Donna" in html
    assert re.search(r"<strong>35 points</strong>", html)  # the four sample piles together (test_rulebook)
    it = client.get("/rules/sicilian_tarocchi?lang=it").get_data(as_text=True)
    assert "Fujutu" in it


def test_the_donna_is_the_jack_in_every_language(client):
    """docs/rules.md §10: "In every language the Donna is the jack (2 points), never the queen"; the generic
    Italian word for the queens is "Donne", so the values table names the classes in the players' words."""
    for lang in ("en", "it", "de", "fr", "rm"):
        html = client.get(f"/rules/sicilian_tarocchi?lang={lang}").get_data(as_text=True)
        rows = dict(re.findall(r'<tr><th scope="row">([^<]*)</th><td>(\d+)</td>', html))
        donne = [label for label, each in rows.items() if label.startswith("Donne")]
        assert donne and all(rows[label] == "2" for label in donne), (lang, rows)
        assert any(label.startswith("Regine") and each == "4" for label, each in rows.items()), (lang, rows)


# ---- issue 41: a pile counted in the form is the API's hand ----

@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_counted_pile_reads_back_as_the_engine_counts_it(data):
    """Any split of the pack, either side taking the last trick: the form's points for a hand saved with its cards
    (from_facts) are the engine's points for it (count + 5 to the side that took the last trick, docs/rules.md §10),
    and the settlement sums to zero."""
    from scorekeeper.engine.games.sicilian_tarocchi import DECK, from_facts
    players = ["Anna", "Beat", "Carla", "Dario"]
    pile = data.draw(st.lists(st.sampled_from(DECK), unique=True, max_size=len(DECK)))
    last = data.draw(st.sampled_from(["declarer", "opponents"]))
    rules = resolve_rules(GAME, {})
    hand = {"contract": "solo", "declarer": "Anna", "declarer_cards": pile, "last_trick": last}
    result = GAME.score(players, hand, rules)
    assert from_facts(hand, players, rules)["points"] == result.points["declarer"]
    assert sum(result.scores.values()) == 0
