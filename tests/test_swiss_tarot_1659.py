"""Swiss Tarot 1659 scoring (docs/rules.md §4): each player's points − 26; the Fool exchanged."""
import pytest

from scorekeeper.engine import cards as C
from scorekeeper.engine.errors import BadHand, BadRequest
from scorekeeper.engine.games import resolve_rules, swiss_tarot_1659 as swiss

PLAYERS = ["Ann", "Bob", "Cid"]


def suit(s):
    return [f"{s}-{r}" for r in C.RANKS]


# Values: T1, T21, the Fool and kings 5; Q 4; C 3; J 2; the rest 1. Every pile is whole tricks of three.
# Ann 24: Fool + 21 trumps + SW-1, SW-2: 5 + 5 + 5 + 19 + 2 = 36; 8 groups: 36 - 16 = 20
# Bob 27: SW-K..SW-3 (14 + 8) + all BA (14 + 10) + CU-1 = 47; 9 groups: 47 - 18 = 29
# Cid 27: the other CU (14 + 9) + all CO (14 + 10) = 47 - 18 = 29.           20 + 29 + 29 = 78
ANN = ["FOOL"] + list(C.TRUMPS) + ["SW-1", "SW-2"]
BOB = [c for c in suit("SW") if c not in ANN] + suit("BA") + ["CU-1"]
CID = [c for c in suit("CU") if c != "CU-1"] + suit("CO")


def score(hand):
    return swiss.score(PLAYERS, hand, resolve_rules(swiss.GAME, {}))


def test_points_minus_26():
    # docs/rules.md §4: points - 26 as the running relative score; 30 - 26 = 4, 21 - 26 = -5, 27 - 26 = 1
    assert score({"points": {"Ann": 30, "Bob": 21, "Cid": 27}}).scores == {"Ann": 4, "Bob": -5, "Cid": 1}


def test_cards_of_a_whole_deal():
    result = score({"cards": {"Ann": ANN, "Bob": BOB, "Cid": CID}})
    assert result.points == {"Ann": 20, "Bob": 29, "Cid": 29}
    assert result.scores == {"Ann": -6, "Bob": 3, "Cid": 3}
    assert result.warnings == ()


def test_fool_kept_alone_is_caught():
    # docs/rules.md §4: kept alone as 5 the Fool would make 79 (130 - 50 - 1); the default keeps 78
    ann = ["FOOL"]
    bob = BOB + [c for c in ANN if c != "FOOL"][:11]
    cid = CID + [c for c in ANN if c != "FOOL"][11:]
    with pytest.raises(BadHand, match="Fool alone") as e:
        score({"cards": {"Ann": ann, "Bob": bob, "Cid": cid}})
    # the house rule in the words of the rules page and the table form, not unexchanged_fool "owner"
    assert str(e.value).endswith("A table that lets its player keep it sets the house rule “Fool never exchanged” "
                                 "to “its player keeps it alone as 5”.")


def test_points_not_adding_to_78():
    with pytest.raises(BadHand, match="78"):
        score({"points": {"Ann": 30, "Bob": 21, "Cid": 28}})


def test_non_integer_points():
    with pytest.raises(BadRequest):
        score({"points": {"Ann": 30.0, "Bob": 21, "Cid": 27}})


def test_fool_kept_alone_house_rule_counts_79():
    # docs/rules.md §4: "If it were kept alone as 5 instead, the total would become 79"
    rest = [c for c in ANN if c != "FOOL"]
    hand = {"cards": {"Ann": ["FOOL"], "Bob": BOB + rest[:11], "Cid": CID + rest[11:]}}
    result = swiss.score(PLAYERS, hand, resolve_rules(swiss.GAME, {"unexchanged_fool": "owner"}))
    assert result.points["Ann"] == 5
    assert sum(result.points.values()) == 79
    assert sum(result.scores.values()) == 1
    assert ("The Fool kept alone is worth 5: the deck counts 79, not 78, so the scores sum to +1 (house rule “Fool "
            "never exchanged”).") in [str(w) for w in result.warnings]


def test_79_needs_the_player_with_the_fool_alone():
    # docs/rules.md §4 bounds: 79 is the Fool kept alone as 5 by a player who took no trick (not the dealer, whose
    # discards count as a trick), so that player has exactly 5 points; 40 + 20 + 19 = 79 has nobody at 5
    owner = resolve_rules(swiss.GAME, {"unexchanged_fool": "owner"})
    with pytest.raises(BadHand, match="nobody has 5"):
        swiss.score(PLAYERS, {"points": {"Ann": 40, "Bob": 20, "Cid": 19}}, owner)
    result = swiss.score(PLAYERS, {"points": {"Ann": 54, "Bob": 20, "Cid": 5}}, owner)
    assert sum(result.scores.values()) == 1


def test_two_players_without_a_trick_is_possible():
    # the Fool is exchanged, or (the default) stays in the trick it was played to: the dealer may take every trick
    assert score({"points": {"Ann": 78, "Bob": 0, "Cid": 0}}).scores == {"Ann": 52, "Bob": -26, "Cid": -26}
