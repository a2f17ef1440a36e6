"""Mitigati scoring (docs/rules.md §3): points − 43 plus declarations; bids that sum to zero."""
import re

import pytest

from scorekeeper.engine import cards as C
from scorekeeper.engine.errors import BadHand, BadRequest, DuplicateCard, UnknownPlayer
from scorekeeper.engine.games import mitigati, resolve_rules

PLAYERS = ["Ada", "Bruno", "Cate"]
EVEN = {"points": {"Ada": 43, "Bruno": 43, "Cate": 43}}
KINGS = [f"{s}-K" for s in C.SUITS]


def score(hand, **rules):
    return mitigati.score(PLAYERS, hand, resolve_rules(mitigati.GAME, rules))


def test_phil_example_38_is_minus_5():
    # italian-swiss-archive.txt (Phil): "a score of 38 should be converted to -5"
    result = score({"points": {"Ada": 38, "Bruno": 48, "Cate": 43}})
    assert result.scores == {"Ada": -5, "Bruno": 5, "Cate": 0}


def test_rufus_example_30_from_each_player():
    # Rufus: "4 kings, the 1 and 21 of trump ... 30 points from each player ... go up 60 and each of the
    # other players would go down 30"; his honours are T1 and T21
    hand = {**EVEN, "declarations": {"Ada": KINGS + ["T1", "T21"]}}
    assert score(hand, honour_trump="T21").scores == {"Ada": 60, "Bruno": -30, "Cate": -30}
    # with Phil's Angel as the honour, T21 is no honour: 4 kings + T1 = 20 + 5 = 25 from each
    assert score(hand).scores == {"Ada": 50, "Bruno": -25, "Cate": -25}


@pytest.mark.parametrize("shown, reading, value", [
    (KINGS, "canonical", 20),                                   # four kings 20
    (["T1", "T20", "FOOL"], "canonical", 15),                   # the trio 15 (Phil's "Mitigati")
    (["T1", "T20", "SW-K", "BA-K"], "canonical", 10),           # any four honours 10
    (["T1", "FOOL", "SW-K", "BA-K", "CU-K"], "canonical", 15),  # five honours: 10 + 5
    (["T1", "SW-K", "BA-K"], "canonical", 0),                   # three honours, not the trio
    (KINGS + ["T1", "T20", "FOOL"], "canonical", 35),           # all 7: 20 + 5 x 3 = kings 20 + trio 15
    (["T1", "T20", "FOOL", "SW-K"], "canonical", 20),           # docs/rules.md §3.1: trio + one king 20
    (["T1", "T20", "FOOL", "SW-K"], "trio_and_four", 25),       # the "other reading": 15 + 10
    (["T1", "T20", "FOOL", "SW-K"], "four_over_trio", 10),      # the other: any four 10
    (["T1", "T20", "FOOL"], "four_over_trio", 15),              # the trio alone is still 15
    (KINGS + ["T1"], "trio_and_four", 25),                      # four kings first under every reading
])
def test_honours(shown, reading, value):
    result = score({**EVEN, "declarations": {"Bruno": shown}}, honours_reading=reading)
    assert result.scores == {"Ada": -value, "Bruno": 2 * value, "Cate": -value}


TEN = [f"T{n}" for n in range(2, 12)]  # ten low trumps: no honour among them


@pytest.mark.parametrize("shown, fool_rule, value", [
    (TEN, "tenth_only", 10),               # Phil: 10 points; Rufus: 1 each = 10
    (TEN[:9], "tenth_only", 0),            # nine trumps: nothing
    (TEN[:9] + ["FOOL"], "tenth_only", 10),  # Rufus: the Fool counts if it is the 10th card
    (TEN[:9] + ["FOOL"], "never", 0),
    (TEN + ["FOOL"], "tenth_only", 10),     # the Fool as an 11th card doesn't count
    (TEN + ["T12", "T13"], "tenth_only", 12),  # Phil: 10 + 1 per trump above 10
])
def test_trump_length(shown, fool_rule, value):
    result = score({**EVEN, "declarations": {"Cate": shown}}, fool_in_trumps=fool_rule)
    assert result.scores["Cate"] == 2 * value


def test_trumps_and_honours_add_up():
    # T1, T20 and the Fool (the trio 15) among ten trumps + Fool: 15 + 10 = 25
    shown = ["T1", "T20"] + TEN[:8] + ["FOOL"]
    assert score({**EVEN, "declarations": {"Ada": shown}}).scores["Ada"] == 50


def test_flat_declarations_only_add_to_the_declarer():
    hand = {**EVEN, "declarations": {"Ada": KINGS}}
    result = score(hand, declarations_paid="flat")
    assert result.scores == {"Ada": 20, "Bruno": 0, "Cate": 0}  # not zero-sum, on purpose (docs/rules.md §3.1)


def test_cards_are_summed():
    # Ada all trumps + Fool: 5 (T1) + 5 (T20) + 19 + 4 = 33; Bruno SW + BA, Cate CU + CO: 2 x (14 + 10) = 48
    suit = lambda s: [f"{s}-{r}" for r in C.RANKS]  # noqa: E731
    hand = {"cards": {"Ada": list(C.TRUMPS) + ["FOOL"], "Bruno": suit("SW") + suit("BA"),
                      "Cate": suit("CU") + suit("CO")}}
    result = score(hand)
    assert result.points == {"Ada": 33, "Bruno": 48, "Cate": 48}  # 33 + 48 + 48 = 129
    assert result.scores == {"Ada": -10, "Bruno": 5, "Cate": 5}


def test_bids_that_sum_to_zero_are_the_scores():
    result = score({"bids": {"Ada": 20, "Bruno": -5, "Cate": -15}})
    assert result.scores == {"Ada": 20, "Bruno": -5, "Cate": -15}
    assert result.points == {"Ada": 63, "Bruno": 38, "Cate": 28}  # Rufus: "+20 ... 63 points"


@pytest.mark.parametrize("typed, message", [
    # the empty bid would be −200 (or +200), beyond a bid's −129 to 129; the piles would leave −11 of 129
    ({"mode": "bids", "bid0": "100", "bid1": "100", "bid2": ""}, "add up to 200, more than 129"),
    ({"mode": "bids", "bid0": "-100", "bid1": "−100", "bid2": ""}, "add up to −200, less than −129"),
    ({"mode": "played", "pp0": "100", "pp1": "40", "pp2": ""}, "add up to 140, more than 129"),
])
def test_one_field_left_empty_with_no_rest_that_fits_blames_the_fields_filled_in(client, typed, message):
    r = client.post("/tables/new/mitigati", data={"players-0": "Ada", "players-1": "Bruno", "players-2": "Cate",
                                                 "first_dealer": "0", "stake": "0.10", "currency": "CHF"})
    html = client.post(r.headers["Location"] + "/hands", data=typed).get_data(as_text=True)
    assert "Not saved yet: look at Ada, Bruno." in html
    assert html.count(f"The numbers filled in {message}: one of them is wrong.") == 2
    empty = next(name for name, value in typed.items() if value == "")
    assert re.search(rf'<label class="num "><span>Cate</span>\s*<input [^>]*name="{empty}"[^>]*value=""', html)


@pytest.mark.parametrize("hand, error", [
    ({"bids": {"Ada": 20, "Bruno": -5, "Cate": -14}}, BadHand),  # sums to 1
    ({"bids": {"Ada": 20, "Bruno": -20}}, BadHand),
    ({"bids": {"Ada": 90, "Bruno": -45, "Cate": -45}}, BadHand),  # more than the deck
    ({"bids": {"Ada": 0, "Bruno": 0, "Cate": 0}, **EVEN}, BadRequest),
    ({"bids": {"Ada": 0.0, "Bruno": 0, "Cate": 0}}, BadRequest),
    ({"points": {"Ada": 43, "Bruno": 43, "Cate": 42}}, BadHand),  # 128, not 129
    ({**EVEN, "declarations": {"Ada": ["SW-Q"]}}, BadHand),
    ({**EVEN, "declarations": {"Ada": ["SW-K"], "Bruno": ["SW-K"]}}, DuplicateCard),
    ({**EVEN, "declarations": {"Zoe": ["SW-K"]}}, UnknownPlayer),
    ({**EVEN, "declarations": ["SW-K"]}, BadRequest),
])
def test_bad_hands(hand, error):
    with pytest.raises(error):
        score(hand)


# Bounds from real cards (docs/rules.md §3): the Fool never wins a trick and stays with its player, so the winner
# of its trick gets 2 cards; the dealer's 3 discards count for him; every card is worth 1 point or more.
@pytest.mark.parametrize("points,words", [
    ({"Ada": 128, "Bruno": 1, "Cate": 0}, "Bruno can't have 1 point"),  # a pile of 1 card is the Fool alone: 4
    ({"Ada": 64, "Bruno": 64, "Cate": 1}, "Cate can't have 1 point"),
    ({"Ada": 129, "Bruno": 0, "Cate": 0}, "can't both have 0 points"),  # the Fool's trick went to another player
])
def test_piles_real_cards_cannot_give(points, words):
    with pytest.raises(BadHand, match=words):
        score({"points": points})


@pytest.mark.parametrize("points", [
    {"Ada": 127, "Bruno": 2, "Cate": 0},  # Bruno won only the Fool's trick: 2 low cards
    {"Ada": 122, "Bruno": 3, "Cate": 4},  # 3 low cards (a trick or the dealer's discard); the Fool alone
])
def test_smallest_real_piles(points):
    assert sum(score({"points": points}).scores.values()) == 0


def test_pile_sizes_a_deal_cannot_give_are_warned():
    # the Fool's owner holds 3m+1 cards (the dealer's 3 discards keep that), the winner of the Fool's trick 3k+2, the
    # third 3n. Ada: 21 trumps and the Fool (22 = 3 × 7 + 1); Bruno: swords and batons less one (27); Cate the rest (29)
    suit = lambda s: [f"{s}-{r}" for r in C.RANKS]  # noqa: E731
    bruno = suit("SW") + suit("BA")[:-1]
    cate = [c for c in C.DECK_78 if c not in list(C.TRUMPS) + ["FOOL"] + bruno]
    real = score({"cards": {"Ada": list(C.TRUMPS) + ["FOOL"], "Bruno": bruno, "Cate": cate}})
    assert real.warnings == ()
    odd = score({"cards": {"Ada": list(C.TRUMPS) + ["FOOL"], "Bruno": suit("SW") + suit("BA"),
                           "Cate": suit("CU") + suit("CO")}})  # 28 and 28 cards without the Fool
    assert [str(w).split(":")[0] for w in odd.warnings] == ["Bruno's pile has 28 cards", "Cate's pile has 28 cards"]


def test_a_hand_shows_25_cards_at_most():
    # 25 cards each, the dealer's 3 extra laid away first (Phil): the 21 trumps, the Fool and 4 kings are 26
    shown = ["SW-K", "BA-K", "CU-K", "CO-K", "FOOL"] + list(C.TRUMPS)
    with pytest.raises(BadHand, match="26 cards, but a hand has only 25"):
        score({**EVEN, "declarations": {"Ada": shown}})
    assert score({**EVEN, "declarations": {"Ada": shown[1:]}}).scores["Ada"] > 0  # 25 cards: fine


def test_two_players_may_each_show_ten_trumps():
    # 10 + 10 of the 21 trumps: real cards give it (one of them holds I or XX, the 19 others are too few); the
    # form fills each count with the plain trumps nobody else shows
    rules = resolve_rules(mitigati.GAME, None)
    players = ["Ada", "Bruno", "Cate"]
    values = {"mode": "played", "pp": {"Ada": 43, "Bruno": 43, "Cate": 43},
              "hon": {"Ada": ["T1"], "Bruno": [], "Cate": []}, "tr": {"Ada": 10, "Bruno": 10, "Cate": None}}
    facts = mitigati.to_facts(values, players, rules)
    assert not set(facts["declarations"]["Ada"]) & set(facts["declarations"]["Bruno"])
    assert "T20" not in facts["declarations"]["Bruno"]  # the Angel is an honour, shown only when ticked
    # Rufus: 1 point a trump from each player: Ada and Bruno +10 × 2 − 10 = +10 each, Cate −20
    assert mitigati.score(players, facts, rules).scores == {"Ada": 10, "Bruno": 10, "Cate": -20}
    too_many = {**values, "hon": {p: [] for p in players}}  # 20 plain trumps: the deck has 19 besides I and XX
    with pytest.raises(DuplicateCard):
        mitigati.score(players, mitigati.to_facts(too_many, players, rules), rules)
