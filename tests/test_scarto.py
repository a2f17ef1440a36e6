"""Scarto / Tarocchi scoring (docs/rules.md §2): each player's points − 26."""
import re

import pytest

from scorekeeper.engine import cards as C
from scorekeeper.engine.errors import BadHand, BadRequest, DuplicateCard, UnknownPlayer
from scorekeeper.engine.games import resolve_rules, scarto

PLAYERS = ["Aldo", "Bea", "Carlo"]


def suit(s, ranks=C.RANKS):
    return [f"{s}-{r}" for r in ranks]


# A whole deal, counted by hand (scarto values: T1 and T20 5, Fool 4, K 5, Q 4, C 3, J 2, the rest 1):
# Aldo, the Fool's owner, 3m+1 = 25 cards: Fool + 21 trumps + SW-1..3:
#   4 + 5 + 5 + 19 + 3 = 36 nominal; 8 groups and 1 odd card: 36 - 16 = 20
# Bea, 3k+2 = 26: SW-K..SW-4 (14 + 7) + all BA (14 + 10) + CU-1: 46; 8 groups and 2 odd: 46 - 16 - 1 = 29
# Carlo, 27: the other CU (14 + 9) and all CO (14 + 10) = 47; 9 groups: 47 - 18 = 29.   20 + 29 + 29 = 78
ALDO = ["FOOL"] + list(C.TRUMPS) + ["SW-1", "SW-2", "SW-3"]
BEA = [c for c in suit("SW") if c not in ALDO] + suit("BA") + ["CU-1"]
CARLO = [c for c in suit("CU") if c != "CU-1"] + suit("CO")


def score(hand, **rules):
    return scarto.score(PLAYERS, hand, resolve_rules(scarto.GAME, rules))


def test_phil_example_30_is_plus_4():
    # italian-swiss-archive.txt (Phil): "a score of 30 should be converted to +4"
    result = score({"points": {"Aldo": 30, "Bea": 22, "Carlo": 26}})
    assert result.scores == {"Aldo": 4, "Bea": -4, "Carlo": 0}


def test_cards_of_a_whole_deal():
    result = score({"cards": {"Aldo": ALDO, "Bea": BEA, "Carlo": CARLO}})
    assert result.points == {"Aldo": 20, "Bea": 29, "Carlo": 29}
    assert result.scores == {"Aldo": -6, "Bea": 3, "Carlo": 3}
    assert result.warnings == ()


def test_an_exchanged_matto_counts_alone():
    # Aldo gives SW-3 for the Matto French-style: 24 and 27 cards; the groups give 19 + 29 + 29 = 77.
    # docs/rules.md §2.1: 77 is the exchange trap; counted alone as 4 the Matto gives Aldo back his 20.
    aldo, bea = ALDO[:-1], BEA + ["SW-3"]
    result = score({"cards": {"Aldo": aldo, "Bea": bea, "Carlo": CARLO}})
    assert result.points == {"Aldo": 20, "Bea": 29, "Carlo": 29}
    assert sum(result.scores.values()) == 0
    assert any("exchanged" in str(w) for w in result.warnings)


def test_honour_trump_xxi():
    # swap T20 to Bea and SW-4 to Aldo: T20 is 5 by default, 1 when XXI is the honour (cardgamesplanet)
    aldo = [c for c in ALDO if c != "T20"] + ["SW-4"]
    bea = [c for c in BEA if c != "SW-4"] + ["T20"]
    hand = {"cards": {"Aldo": aldo, "Bea": bea, "Carlo": CARLO}}
    # default: Aldo 4 + 5 + 19 + 4 = 32 nominal (T21 low) - 16 = 16; Bea 46 - 1 + 5 = 50 - 17 = 33
    assert score(hand).points == {"Aldo": 16, "Bea": 33, "Carlo": 29}
    # T21: Aldo 4 + 5 + 5 + 18 + 4 = 36 - 16 = 20; Bea 46 - 1 + 1 = 46 - 17 = 29
    assert score(hand, honour_trump="T21").points == {"Aldo": 20, "Bea": 29, "Carlo": 29}


@pytest.mark.parametrize("points", [
    {"Aldo": 26, "Bea": 26, "Carlo": 25},  # 77: the exchange trap, bad_hand
    {"Aldo": 26, "Bea": 26, "Carlo": 27},  # 79
])
def test_points_not_adding_to_78(points):
    with pytest.raises(BadHand, match="78"):
        score({"points": points})


def test_77_hints_at_the_exchange():
    with pytest.raises(BadHand, match="Matto"):
        score({"points": {"Aldo": 26, "Bea": 26, "Carlo": 25}})


def test_boundaries():
    # the Matto's owner keeps it; the trick it was played to (2 cards, 1 point at least) goes to another player:
    # the most one player can have is 78 − 1 = 77, and Carlo alone has nothing
    assert score({"points": {"Aldo": 77, "Bea": 1, "Carlo": 0}}).scores == {"Aldo": 51, "Bea": -25, "Carlo": -26}
    with pytest.raises(BadHand):
        score({"points": {"Aldo": 79, "Bea": -1, "Carlo": 0}})


@pytest.mark.parametrize("points,rules", [
    ({"Aldo": 78, "Bea": 0, "Carlo": 0}, {}),
    ({"Aldo": 0, "Bea": 78, "Carlo": 0}, {"honour_trump": "T21"}),
    ({"Aldo": 77, "Bea": 0, "Carlo": 0}, {"fool_exchange": "french"}),  # exchanged: its trick's winner has 3 cards
])
def test_two_players_without_a_card_is_impossible(points, rules):
    # docs/rules.md §2 bounds: the Fool "can never take a trick" and is "retained by the player who plays it"
    # (Phil), so its owner and the winner of its trick both hold cards: at most one player has 0 points
    with pytest.raises(BadHand, match="can't both have 0 points"):
        score({"points": points}, **rules)


@pytest.mark.parametrize("hand, error", [
    ({"points": {"Aldo": 26, "Bea": 26}}, BadHand),                       # Carlo missing
    ({"points": {"Aldo": 26, "Bea": 26, "Carlo": 26, "Zoe": 0}}, UnknownPlayer),
    ({"points": {"Aldo": 26, "Bea": 26, "Carlo": "26"}}, BadRequest),
    ({"points": [26, 26, 26]}, BadRequest),
    ({}, BadRequest),
    ({"points": {"Aldo": 26, "Bea": 26, "Carlo": 26}, "cards": {}}, BadRequest),
    ({"cards": {"Aldo": ALDO, "Bea": BEA, "Carlo": CARLO[:-1]}}, BadHand),  # a card missing
    ({"cards": {"Aldo": ALDO, "Bea": BEA, "Carlo": CARLO + ["SW-1"]}}, DuplicateCard),
    ({"cards": {"Aldo": ALDO, "Bea": BEA, "Carlo": "CU-K"}}, BadRequest),
])
def test_bad_hands(hand, error):
    with pytest.raises(error):
        score(hand)


def test_impossible_pile_sizes_are_caught():
    # 25/25/28 with the Fool in a 3k+1 pile and another 3k+1 pile: the groups give 79
    aldo, carlo = ALDO, CARLO + ["CU-1"]
    bea = [c for c in BEA if c != "CU-1"]
    with pytest.raises(BadHand, match="sizes"):
        score({"cards": {"Aldo": aldo, "Bea": bea, "Carlo": carlo}})


def test_french_exchange_house_rule_counts_77():
    # docs/rules.md §2 house options: "French-style exchange: warn, total 77"; Aldo 19 + Bea 29 + Carlo 29
    aldo, bea = ALDO[:-1], BEA + ["SW-3"]
    result = score({"cards": {"Aldo": aldo, "Bea": bea, "Carlo": CARLO}}, fool_exchange="french")
    assert result.points == {"Aldo": 19, "Bea": 29, "Carlo": 29}
    assert sum(result.scores.values()) == 77 - 78
    assert [str(w) for w in result.warnings] == ["With the Matto exchanged the deck counts 77, not 78, so the scores "
                                                 "sum to −1 (house rule “Matto exchange”)."]
    result = score({"points": {"Aldo": 30, "Bea": 22, "Carlo": 25}}, fool_exchange="french")
    assert result.scores == {"Aldo": 4, "Bea": -4, "Carlo": -1}
    with pytest.raises(BadHand):
        score({"points": {"Aldo": 30, "Bea": 22, "Carlo": 24}}, fool_exchange="french")


# ---- the table page: one pile left empty is the rest of 78, if there is a rest ----

TABLE = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "first_dealer": "0", "stake": "0.10",
         "currency": "CHF", "rule_honour_trump": "T20"}


def field(html, name):
    """Return (the value in a hand form's input, whether its label is marked wrong)."""
    found = re.search(rf'<label class="([^"]*)"><span>[^<]*</span>\s*<input [^>]*name="{name}"[^>]*value="([^"]*)"', html)
    return found[2], "has-error" in found[1]


def test_piles_over_78_blame_the_piles_filled_in_not_the_one_left_empty(client):
    r = client.post("/tables/new/scarto", data=TABLE)
    url = r.headers["Location"]
    # 50 + 40 = 90, more than the deck's 78: no rest fits Cla's empty field (it would have been −12, and blamed)
    r = client.post(url + "/hands", data={"pp0": "50", "pp1": "40", "pp2": ""})
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    assert "Not saved yet: look at Anna, Ben." in html
    assert html.count("The numbers filled in add up to 90, more than 78: one of them is wrong.") == 2
    assert field(html, "pp0") == ("50", True) and field(html, "pp1") == ("40", True)  # what was typed, kept
    assert field(html, "pp2") == ("", False)  # the empty field stays empty and is not blamed
    # no −12 (nor 12) offered for the empty field: not in any field's value or message (the form's own addresses
    # hold the table's random key, which may contain "12")
    form = html[html.index('id="hand-form"'):html.index('id="count-aid"')]
    assert not re.search(r'value="[−-]?12"|[−-]12\b|>12<', form)
    assert "The points must be between 0 and 78." not in html
    # exactly 78 leaves 0 for the empty one: saved
    assert client.post(url + "/hands", data={"pp0": "50", "pp1": "28", "pp2": ""}).status_code == 303
