"""Corners of the rules that issue 27's fourth set of cases found (docs/rules.md §0.3, §3.1, §5, §6): each test cites
the line of docs/rules.md it checks, and the first ones fail without the fix they guard."""
from __future__ import annotations

import pytest

from scorekeeper.engine import cards as C
from scorekeeper.engine.games import count_pile, get_game, resolve_rules

P3, P4, P5 = ["Anna", "Ben", "Cla"], ["Anna", "Ben", "Cla", "Dora"], ["Anna", "Ben", "Cla", "Dora", "Eva"]
TAROT = get_game("french_tarot")
ALL_BUT_EXCUSE = [c for c in C.DECK_78 if c != C.FOOL]


# ---- §6: a slam against a side that keeps its Excuse: 87 and 4, however the hand is entered ----

def test_a_slam_against_a_kept_excuse_counts_87_and_4_from_the_cards():
    """docs/rules.md §6 "The Excuse": "If its side takes no trick, the owner keeps it, counted 4, and the half point it
    could not give goes to the other side ... the attack counts 87 with 2 oudlers, not 86½"; "such a hand is possible
    and gets no warning" (77 cards for the attack, the Excuse alone for the defence)."""
    hand = {"taker": "Anna", "contract": "garde", "cards": ALL_BUT_EXCUSE, "chelem": "announced_made"}
    result = TAROT.score(P4, hand, resolve_rules(TAROT, None))
    assert result.points == {"attack": 87, "defence": 4}
    assert result.warnings == ()
    # the same hand typed: 87 with 2 oudlers (FFT R-RO201206 p. 9, example 5): the same scores
    typed = TAROT.score(P4, {"taker": "Anna", "contract": "garde", "points": 87, "oudlers": 2,
                             "chelem": "announced_made"}, resolve_rules(TAROT, None))
    assert typed.scores == result.scores


def test_a_pile_of_every_card_but_the_excuse_counts_87():
    """docs/rules.md §6: 91 − 4½ = 86½ by the cards; the Excuse kept counts 4, its half point to the attack: 87."""
    rules = resolve_rules(TAROT, None)
    count = count_pile(TAROT, ALL_BUT_EXCUSE, rules)
    assert (count.points, count.rest.points) == (87, 4)
    assert count.oudlers == 2
    # and the other way: the Excuse alone is a side that took no trick: 4; the rest 87
    alone = count_pile(TAROT, [C.FOOL], rules)
    assert (alone.points, alone.rest.points) == (4, 87)


def test_the_count_api_says_87_and_4(client):
    body = client.post("/api/v1/count", json={"game": "french_tarot", "cards": ALL_BUT_EXCUSE}).get_json()
    assert body["points"] == 87 and body["rest"] == {"cards": 1, "points": 4} and body["warnings"] == []


# ---- §0.3: Troggu pile sizes ----

TROGGU = get_game("troggu")


def test_a_troggu_misere_with_the_fool_in_the_tapp_warns_of_piles_no_deal_gives():
    """docs/rules.md §0.3 (Troggu): "In a misère with the Fool in the unused Tapp ..., every player's pile is a
    multiple of n cards". 3 players, a Tapp of 8 (§5) holding the Fool: 54 cards in tricks of 3; 20, 17 and 17
    cards can't happen."""
    tapp = [C.FOOL] + [c for c in C.DECK_62 if c.startswith("CO-")][:7]
    played = [c for c in C.DECK_62 if c not in tapp]
    piles = {"Anna": played[:20], "Ben": played[20:37], "Cla": played[37:]}
    assert [len(p) for p in piles.values()] == [20, 17, 17]
    result = TROGGU.score(P3, {"contract": "misere", "misere_cards": piles}, resolve_rules(TROGGU, None))
    assert any("20, Ben 17, Cla 17 can't happen" in str(w) for w in result.warnings), result.warnings
    # the same cards dealt as 18, 18, 18: no warning about sizes
    piles = {"Anna": played[:18], "Ben": played[18:36], "Cla": played[36:]}
    result = TROGGU.score(P3, {"contract": "misere", "misere_cards": piles}, resolve_rules(TROGGU, None))
    assert not any("multiple of" in str(w) for w in result.warnings), result.warnings


# ---- §5: the Troggu misère tie "split", and the Fool with no pile to give from ----

P7 = ["Anna", "Ben", "Cla", "Dora", "Eva", "Fritz", "Gian"]


def test_a_split_misere_tie_shares_one_payment_in_whole_units():
    """docs/rules.md §5 `misere_tie` "split": "the tied players together pay what one top scorer would, 1 to each
    other player, shared among them in whole units; the units that don't divide evenly fall to the tied players in
    seating order (3 tied, 4 others: 2, 1, 1)". 7 players (the Fool and I in the Tapp: piles 0 or 7 and more)."""
    points = {"Anna": 20, "Ben": 20, "Cla": 20, "Dora": 10, "Eva": 10, "Fritz": 10, "Gian": 7}  # 97 ≤ 114 − 14
    result = TROGGU.score(P7, {"contract": "misere", "misere_points": points},
                          resolve_rules(TROGGU, {"misere_tie": "split"}))
    # 4 others × 1 = 4 units, 3 tied: 4 = 2 + 1 + 1, the odd unit to the first of them in seating order
    assert result.scores == {"Anna": -2, "Ben": -1, "Cla": -1, "Dora": 1, "Eva": 1, "Fritz": 1, "Gian": 1}


@pytest.mark.parametrize("points,refused", [(5, False), (4, True), (0, False)])
def test_a_side_without_a_trick_holds_the_fool_at_5_never_4(points, refused):
    """docs/rules.md §5 [inferred]: "If the holder's side has no trick to give a low card from, nothing is given:
    the Fool counts 5 for its holder's side and the last-trick winners get no extra point (piles then sum to 114
    as always)". 4 players, opponents without a trick (a Match): 0 or 5, never 4."""
    hand = {"contract": "normal", "declarer": "Anna", "declarer_points": 114 - points, "no_tricks": "opponents"}
    if refused:
        with pytest.raises(Exception, match="not 4"):
            TROGGU.score(P4, hand, resolve_rules(TROGGU, None))
    else:
        assert TROGGU.score(P4, hand, resolve_rules(TROGGU, None)).scores["Anna"] == 9  # Match: 3 × 3 (§5)


# ---- §3.1: Mitigati's declarations add up ----

def test_mitigati_trump_length_and_honours_add_up():
    """docs/rules.md §3.1 [inferred]: "a player who holds 11 trumps and four honours declares both, 11 + 10, each
    paid as its own declaration". Trumps I–XI (11; I is an honour too) and three kings: four honours."""
    mitigati = get_game("mitigati")
    shown = {"Anna": [f"T{n}" for n in range(1, 12)] + ["SW-K", "BA-K", "CU-K"]}
    result = mitigati.score(P3, {"points": {"Anna": 43, "Ben": 43, "Cla": 43}, "declarations": shown},
                            resolve_rules(mitigati, None))
    # 11 + 10 = 21 from each of the 2 others (Rufus, "from each player"): Anna +42, the others −21
    assert result.scores == {"Anna": 42, "Ben": -21, "Cla": -21}


# ---- §6: rounding to 10 ----

def test_rounding_to_10_takes_a_5_away_from_zero():
    """docs/rules.md §6 "Rounding to 10": "a 5 away from zero: 25 → 30, −25 → −30, 165 → 170"."""
    from scorekeeper.engine.games.french_tarot import _round10
    assert [_round10(x) for x in (25, -25, 165, -165, 168, 24, -24, 0)] == [30, -30, 170, -170, 170, 20, -20, 0]


def test_at_5_players_the_partner_is_rounded_like_a_defender():
    """docs/rules.md §6: "At 5 players the called partner is rounded like a defender (his score is one unit), and
    only the taker is adjusted". A prise made by 0 with no oudler (56): 25 a unit; taker +50, partner +25, each of
    3 defenders −25; rounded: partner +30, defenders −30, the taker 0 − 30 + 90 = +60."""
    hand = {"taker": "Anna", "contract": "prise", "partner": "Cla", "points": 56, "oudlers": 0}
    plain = TAROT.score(P5, hand, resolve_rules(TAROT, None))
    assert plain.scores == {"Anna": 50, "Ben": -25, "Cla": 25, "Dora": -25, "Eva": -25}
    rounded = TAROT.score(P5, hand, resolve_rules(TAROT, {"round_to_10": True}))
    assert rounded.scores == {"Anna": 60, "Ben": -30, "Cla": 30, "Dora": -30, "Eva": -30}
