"""Troccas scoring (docs/rules.md §1): each team's points − 36, credited to each member."""
import pytest

from scorekeeper.engine import cards as C
from scorekeeper.engine.errors import BadHand, BadRequest, DuplicateCard, UnknownPlayer
from scorekeeper.engine.games import resolve_rules, troccas

PLAYERS = ["Anna", "Ben", "Cla", "Duri"]
TEAMS = [["Anna", "Cla"], ["Ben", "Duri"]]
KINGS = [f"{s}-K" for s in C.SUITS]


def score(hand, **rules):
    return troccas.score(PLAYERS, {"teams": TEAMS, **hand}, resolve_rules(troccas.GAME, rules))


@pytest.mark.parametrize("side, points, expected", [
    # docs/rules.md §1 [inferred] ledger: 37-35 gives +1, +1, -1, -1
    ("Anna", 37, {"Anna": 1, "Cla": 1, "Ben": -1, "Duri": -1}),
    # the opponents' pile: 35 - 36 = -1 for Ben and Duri, so +1 for Anna and Cla
    ("Ben", 35, {"Anna": 1, "Cla": 1, "Ben": -1, "Duri": -1}),
    ("Cla", 36, {"Anna": 0, "Cla": 0, "Ben": 0, "Duri": 0}),       # exactly half: 36 - 36
    ("Duri", 0, {"Anna": 36, "Cla": 36, "Ben": -36, "Duri": -36}),  # 0 - 36
    ("Anna", 72, {"Anna": 36, "Cla": 36, "Ben": -36, "Duri": -36}),  # 72 - 36
])
def test_points_hands(side, points, expected):
    result = score({"side": side, "points": points})
    assert result.scores == expected
    assert sum(result.scores.values()) == 0


def test_points_show_the_side_and_the_rest():
    result = score({"side": "Anna", "points": 40})
    assert result.points == {"side": 40, "opponents": 32}  # 72 - 40 = 32


def test_cards_are_counted_in_groups_of_four():
    # four kings and two low cards: 1 group of 4 (20 - 3) and 2 odd (1 + 1 - 1) = 18
    result = score({"side": "Ben", "cards": KINGS + ["SW-2", "SW-3"]})
    assert result.points == {"side": 18, "opponents": 54}  # 72 - 18
    assert result.scores == {"Ben": 18 - 36, "Duri": 18 - 36, "Anna": 36 - 18, "Cla": 36 - 18}


def test_every_trick_and_the_scart_is_all_72():
    # SCA: the team that takes every trick also gets the scart: 78 cards = 72 points (docs/rules.md §1)
    result = score({"side": "Ben", "cards": list(C.DECK_78)})
    assert result.scores["Ben"] == 72 - 36
    assert result.points == {"side": 72, "opponents": 0}
    assert any("every trick" in str(x) for x in result.explanation)


def test_no_trick_is_zero():
    result = score({"side": "Anna", "cards": []})
    assert result.scores["Anna"] == -36
    assert result.points == {"side": 0, "opponents": 72}


SCART = ["SW-Q", "SW-C"]  # the richest scart a dealer may lay: no kings or honours; 4 + 3 - 1 = 6
ALL_BUT_SCART = [c for c in C.DECK_78 if c not in SCART]


def test_all_tricks_without_the_scart_under_the_default_is_impossible():
    # the house rule named as the rules page and the table form name it, not all_tricks_take_scart
    with pytest.raises(BadHand, match="scart") as e:
        score({"side": "Anna", "cards": ALL_BUT_SCART})
    assert str(e.value).endswith("counts all 78 cards (house rule “All tricks take the scart”).")
    with pytest.raises(BadHand, match="scart") as e:
        score({"side": "Anna", "cards": SCART})
    assert "(house rule “All tricks take the scart”): the other team's pile" in str(e.value)


def test_scart_stays_with_the_dealer_when_the_option_is_off():
    # docs/rules.md §1: "then 66/6 when the other team takes every trick"; 130 - 7 = 123 nominal, - 19 x 3 = 66
    result = score({"side": "Anna", "cards": ALL_BUT_SCART}, all_tricks_take_scart=False)
    assert result.points == {"side": 66, "opponents": 6}
    assert result.scores["Anna"] == 30 and result.scores["Ben"] == -30
    result = score({"side": "Ben", "cards": SCART}, all_tricks_take_scart=False)
    assert result.scores["Ben"] == 6 - 36


def test_odd_pile_is_rejected_or_warned():
    with pytest.raises(BadHand, match="4k"):
        score({"side": "Anna", "cards": ["SW-1", "SW-2", "SW-3"]})
    result = score({"side": "Anna", "cards": ["SW-1", "SW-2", "SW-3"]}, odd_pile="warn")
    assert result.points["side"] == 1  # 3 odd cards: 1 + 1 + 1 - 2
    assert result.warnings


@pytest.mark.parametrize("hand, error", [
    ({"side": "Anna", "points": 73}, BadHand),
    ({"side": "Anna", "points": -1}, BadHand),
    ({"side": "Anna", "points": 36.5}, BadRequest),
    ({"side": "Anna", "points": 36, "cards": []}, BadRequest),
    ({"side": "Anna"}, BadRequest),
    ({"side": "Zoe", "points": 36}, UnknownPlayer),
    ({"side": "Anna", "cards": ["SW-K", "SW-K"]}, DuplicateCard),
    ({"side": "Anna", "points": 36, "contract": "x"}, BadRequest),
])
def test_bad_hands(hand, error):
    with pytest.raises(error):
        score(hand)


@pytest.mark.parametrize("teams, error", [
    ([["Anna", "Anna"], ["Ben", "Duri"]], BadHand),
    ([["Anna", "Zoe"], ["Ben", "Duri"]], UnknownPlayer),
    ([["Anna", "Cla", "Ben"], ["Duri"]], BadRequest),
    ("Anna, Cla", BadRequest),
])
def test_teams_must_be_the_four_players(teams, error):
    with pytest.raises(error):
        troccas.score(PLAYERS, {"teams": teams, "side": "Anna", "points": 36}, resolve_rules(troccas.GAME, {}))


def test_three_players_is_bad_hand():
    with pytest.raises(BadHand):
        troccas.score(PLAYERS[:3], {"teams": TEAMS, "side": "Anna", "points": 36}, resolve_rules(troccas.GAME, {}))


# The scart (docs/rules.md §1 bounds): 2 cards, no king or honour (I, XXI, the Fool), in the dealer's team's pile,
# which is the one of 4k+2 cards: this pile, or the rest of the deck. That pile has 2 cards at least that are neither.
@pytest.mark.parametrize("cards,rules", [
    (["SW-K", "SW-2"], {"all_tricks_take_scart": False}),  # the dealer's team took no trick: its pile is the scart
    ([c for c in C.DECK_78 if c not in ("T21", "SW-2")], {"all_tricks_take_scart": False}),  # the rest is the scart
    (KINGS + ["T1", "SW-3"], {}),  # 6 cards: a trick of 4 and the scart, but only SW-3 could be laid away
    ([c for c in C.DECK_78 if c not in KINGS + ["T1", "FOOL"]], {}),  # the other team's 6 cards: all honours
])
def test_a_scart_with_a_king_or_an_honour_is_impossible(cards, rules):
    with pytest.raises(BadHand, match="scart"):
        score({"side": "Anna", "cards": cards}, **rules)


def test_a_real_scart():
    # two queens, the richest scart a dealer may lay: 4 + 4 − 1 = 7 (docs/rules.md §1)
    assert score({"side": "Anna", "cards": ["SW-Q", "BA-Q"]}, all_tricks_take_scart=False).points["side"] == 7
    # 10 cards (4 × 2 + 2): two tricks with the 4 kings, I and XXI, and a scart of two low cards:
    # 6 × 5 + 4 × 1 = 34 nominal, less 3 for each of 2 groups and 1 for the 2 odd cards = 27
    pile = KINGS + ["T1", "T21", "SW-2", "SW-3", "SW-4", "SW-5"]
    assert score({"side": "Anna", "cards": pile}).points["side"] == 27


def test_every_points_value_is_possible():
    # docs/rules.md §1 bounds: the dealer isn't recorded, so a team may be either: a 4m pile gives m and more (1 with
    # one trick of four low cards), a 4k+2 pile k + 1 and more (1 with the scart of two low cards alone, when the
    # other team took every trick and the scart stays, or 2 with a trick); 0 and 72 are a team with nothing or all
    for points in range(73):
        assert score({"side": "Anna", "points": points}).points["side"] == points
