"""Triomphe Forcée settlement in antes (docs/rules.md §7, italian-swiss-archive.txt)."""
import pytest

from scorekeeper.engine.errors import BadHand, BadRequest, DuplicateCard, UnknownPlayer
from scorekeeper.engine.games import resolve_rules, triomphe_forcee as tf

FOUR = ["A", "B", "C", "D"]
SIX = ["A", "B", "C", "D", "E", "F"]


def score(players, hand, **rules):
    return tf.score(players, hand, resolve_rules(tf.GAME, rules))


def test_la_mort_takes_the_pot():
    # 5 antes in the pot; B takes them: 5 - 1 = +4, the others lose their ante
    assert score(FOUR + ["E"], {"la_mort": "B"}).scores == {"A": -1, "B": 4, "C": -1, "D": -1, "E": -1}


def test_declarations_then_most_tricks():
    # pot 6; A the Fool 1, B La Force (XI) 2; rest 3 to C with 3 tricks: A 0, B +1, C +2, D E F -1
    result = score(SIX, {"declarations": {"A": ["FOOL"], "B": ["T11"]}, "tricks": ["C", "D", "C", "C", "E"]})
    assert result.scores == {"A": 0, "B": 1, "C": 2, "D": -1, "E": -1, "F": -1}
    assert result.points["C"] == 3


def test_two_two_one_goes_to_who_had_two_first():
    # source: "If two players win two tricks each, the one who won two tricks first wins the stakes"
    result = score(FOUR, {"tricks": ["A", "B", "B", "A", "C"]})
    assert result.scores == {"A": -1, "B": 3, "C": -1, "D": -1}  # B has two at trick 3, A at trick 4


def test_all_different_goes_to_the_first_tricks_winner():
    # source: "If all five tricks go to different players, the player who took a trick first wins"
    result = score(SIX, {"tricks": ["E", "A", "B", "C", "D"]})
    assert result.scores["E"] == 5 and sum(result.scores.values()) == 0


def test_declarations_can_empty_the_pot():
    # 4 players, pot 4: Fool 1 + Bateleur 1 + La Force 2 = 4; no play
    result = score(FOUR, {"declarations": {"A": ["FOOL", "T1"], "B": ["T11"]}})
    assert result.scores == {"A": 1, "B": 1, "C": -1, "D": -1}


def test_force_is_ix_in_vievils_deck():
    hand = {"declarations": {"A": ["FOOL", "T1"], "B": ["T9"]}}
    assert score(FOUR, hand, force_trump="T9").scores == {"A": 1, "B": 1, "C": -1, "D": -1}
    with pytest.raises(BadHand, match="La Force"):
        score(FOUR, hand)


@pytest.mark.parametrize("hand, error", [
    ({"tricks": ["A", "B", "C", "D"]}, BadHand),                   # 4 tricks
    ({"tricks": ["A", "B", "C", "D", "Z"]}, UnknownPlayer),
    ({"tricks": "ABCDA"}, BadRequest),
    ({}, BadHand),                                                 # the pot isn't empty: tricks needed
    ({"la_mort": "A", "tricks": ["A", "A", "A", "A", "A"]}, BadHand),
    ({"la_mort": "Z"}, UnknownPlayer),
    ({"declarations": {"A": ["T13"]}, "tricks": ["A"] * 5}, BadHand),
    ({"declarations": {"A": ["FOOL"], "B": ["FOOL"]}, "tricks": ["A"] * 5}, DuplicateCard),
    ({"declarations": {"A": ["FOOL", "T1"], "B": ["T11"]}, "tricks": ["A"] * 5}, BadHand),
    ({"winner": "A"}, BadRequest),
])
def test_bad_hands(hand, error):
    with pytest.raises(error):
        score(FOUR, hand)


@pytest.mark.parametrize("n", [3, 11])
def test_player_count(n):
    with pytest.raises(BadHand):
        score([f"P{i}" for i in range(n)], {"la_mort": "P0"})


def test_the_fool_never_wins_so_its_holder_takes_four_tricks_at_most():
    # italian-swiss-archive.txt: the Fool "never wins a trick"; its holder plays his five cards, the Fool to one of
    # the five tricks, which he can't win (docs/rules.md §7 bounds)
    with pytest.raises(BadHand, match="Le Fou"):
        score(FOUR, {"declarations": {"A": ["FOOL"]}, "tricks": ["A"] * 5})
    # four tricks are possible: pot 4, the Fool 1, the rest 3 to A: A 1 + 3 − 1 = +3
    assert score(FOUR, {"declarations": {"A": ["FOOL"]}, "tricks": ["A"] * 4 + ["B"]}).scores["A"] == 3
    # La Force and the Bateleur do win tricks: all five are fine
    assert score(FOUR, {"declarations": {"A": ["T1", "T11"]}, "tricks": ["A"] * 5}).scores["A"] == 3
