"""French Tarot scoring (docs/rules.md §6, FFT): known hands, boundaries, bad input and properties, on the pure engine;
house rules no deal can play, refused at the forms and the import."""
import html
import io
import json
import re
from fractions import Fraction

import pytest
from hypothesis import given, reject, settings, strategies as st

from scorekeeper.engine import cards as C
from scorekeeper.engine.errors import BadHand, BadRequest, UnknownPlayer
from scorekeeper.engine.games import resolve_rules
from scorekeeper.engine.games.french_tarot import GAME, poignee_trumps, score

P3, P4, P5 = ["Anna", "Ben", "Cla"], ["Anna", "Ben", "Cla", "Dora"], ["Anna", "Ben", "Cla", "Dora", "Eva"]


def rules(**over):
    return resolve_rules(GAME, over)


def hand(contract, points, oudlers, taker="Anna", **more):
    return {"taker": taker, "contract": contract, "points": points, "oudlers": oudlers, **more}


def single(player):
    return [{"player": player, "size": "single"}]


# (players, hand, house rules, expected scores in seating order, source / arithmetic)
KNOWN = [
    (P4, hand("garde_sans", 53, 2, poignees=single("Ben")), {}, [504, -168, -168, -168],
     "french-tarot-wikipedia.txt: ((25 + 12 + 0) × 4) + 20 + 0 = 168 per defender, taker 3 × 168 = 504; "
     "53 with 2 oudlers is won by 12 over 41; a single poignée is 20 under FFT 20/30/40"),
    (P4, hand("garde_sans", 53, 2, poignees=single("Ben")), {"poignee_bonus": [20, 40, 60]}, [504, -168, -168, -168],
     "the same under the text's own 20/40/60: the single poignée is 20 either way"),
    (P4, hand("garde_sans", 53, 2, poignees=single("Ben")), {"round_to_10": True}, [510, -170, -170, -170],
     "french-tarot-wikipedia.txt: defenders rounded to −170, 'the taker's score 510, thus it balances out'"),
    (P4, hand("prise", 41, 2), {}, [75, -25, -25, -25], "exactly on the 2-oudler threshold 41: made by 0, 25; 3 × 25"),
    (P4, hand("prise", 40, 2), {}, [-78, 26, 26, 26], "40 < 41: lost by 1, 25 + 1 = 26; 3 × 26"),
    (P4, hand("prise", 56, 0), {}, [75, -25, -25, -25], "0 oudlers, threshold 56, exactly on it: 25"),
    (P4, hand("prise", 51, 1), {}, [75, -25, -25, -25], "1 oudler, threshold 51, exactly on it: 25"),
    (P4, hand("prise", 36, 3), {}, [75, -25, -25, -25], "3 oudlers, threshold 36, exactly on it: 25"),
    (P3, hand("prise", Fraction(81, 2), 2), {}, [-52, 26, 26],
     "FFT 3-player text: 40.5 against 41 'chute de 1 point': 25 + 1 = 26; taker 2 × 26"),
    (P3, hand("prise", Fraction(83, 2), 2), {}, [52, -26, -26],
     "FFT: 41.5 against 41 'aurait gagné de 1': 25 + 1 = 26; taker 2 × 26"),
    (P3, hand("prise", 40.5, 2), {}, [-52, 26, 26], "the same 40.5 given as a JSON float"),
    (P3, hand("prise", Fraction(83, 2), 2), {"half_points": "down"}, [50, -25, -25],
     "half_points down: 41.5 counts as 41, made by 0: 25; 2 × 25"),
    (P3, hand("prise", Fraction(81, 2), 2), {"half_points": "up"}, [50, -25, -25],
     "half_points up: 40.5 counts as 41, made by 0: 25; 2 × 25"),
    (P4, hand("garde", 61, 1, petit_au_bout="defence"), {}, [150, -50, -50, -50],
     "won by 10 over 51, Petit au bout to the defence: (25 + 10 − 10) × 2 = 50; 3 × 50"),
    (P4, hand("garde", 45, 1, petit_au_bout="attack"), {}, [-126, 42, 42, 42],
     "lost by 6 under 51, Petit au bout to the attack: (−31 + 10) × 2 = −42; 3 × 42"),
    (P4, hand("garde_sans", 36, 3, petit_au_bout="attack"), {}, [420, -140, -140, -140],
     "made by 0, Petit au bout to the attack: (25 + 10) × 4 = 140; 3 × 140"),
    (P4, hand("garde_contre", 36, 3), {}, [450, -150, -150, -150], "garde contre ×6: 25 × 6 = 150; 3 × 150"),
    (P4, hand("garde_contre", 36, 3), {"garde_contre_multiplier": 8}, [600, -200, -200, -200],
     "garde contre ×8: 25 × 8 = 200; 3 × 200"),
    (P4, hand("garde", 35, 2, poignees=[{"player": "Anna", "size": "double"}]), {}, [-276, 92, 92, 92],
     "lost by 6: −31 × 2 = −62; the taker's own double poignée goes to the defence: −62 − 30 = −92; 3 × 92"),
    (P4, hand("garde", 35, 2, poignees=[{"player": "Anna", "size": "double"}]), {"poignee_bonus": [20, 40, 60]},
     [-306, 102, 102, 102], "the same with 20/40/60: −62 − 40 = −102; 3 × 102"),
    (P4, hand("garde", 60, 2, poignees=[{"player": "Ben", "size": "single"}, {"player": "Anna", "size": "single"}]), {},
     [384, -128, -128, -128], "won by 19: (25 + 19) × 2 = 88; a defender's single (20) and the taker's single (20) "
     "both go to the attack, which won, unmultiplied: 88 + 20 + 20 = 128; 3 × 128"),
    (P4, hand("garde", 60, 2, poignees=[{"player": "Ben", "size": "triple"}]), {},
     [384, -128, -128, -128], "a defender's triple (40) goes to the attack that won: 88 + 40 = 128; 3 × 128"),
    (P4, hand("garde", 91, 3, chelem="announced_made"), {}, [1680, -560, -560, -560],
     "won by 55: (25 + 55) × 2 = 160; announced chelem +400 = 560; 3 × 560"),
    (P4, hand("garde", 91, 3, chelem="unannounced_made", petit_au_bout="attack"), {}, [1140, -380, -380, -380],
     "(80 + 10) × 2 = 180; unannounced chelem +200 = 380; 3 × 380"),
    (P4, hand("garde", 70, 3, chelem="announced_failed"), {}, [-246, 82, 82, 82],
     "won by 34: 59 × 2 = 118; announced chelem failed −200 = −82; 3 × 82"),
    (P4, hand("garde", 3, 0, chelem="defence_made"), {}, [-1068, 356, 356, 356],
     "the taker keeps only his écart, six ½-point cards = 3: lost by 53: −78 × 2 = −156; defence chelem −200 = −356; "
     "3 × 356"),
    (P4, hand("garde", 3, 0, chelem="defence_made"), {"defence_chelem_bonus": 0}, [-468, 156, 156, 156],
     "defence chelem bonus off: −156; 3 × 156"),
    (P4, hand("garde_contre", 0, 0, chelem="defence_made"), {}, [-2058, 686, 686, 686],
     "garde contre: the chien is the defence's, so the attack has nothing: lost by 56: −81 × 6 = −486 − 200 = −686"),
    (P4, hand("garde", 87, 2, chelem="announced_made"), {}, [1626, -542, -542, -542],
     "FFT rulebook R-RO201206, p. 9, example 5: garde, slam announced and made, 2 bouts; the defence's lone Excuse "
     "counts 4, the attack 91 − 4 = 87: won by 87 − 41 = 46: (25 + 46) × 2 = 142, + 400 = 542; 3 × 542"),
    (P5, hand("garde", 51, 1, partner="Cla"), {}, [100, -50, 50, -50, -50],
     "5 players: 25 × 2 = 50; partner Cla +50, taker 2 × 50, 3 defenders −50"),
    (P5, hand("garde", 45, 1, partner="Cla"), {}, [-124, 62, -62, 62, 62],
     "5 players lost by 6: −31 × 2 = −62; partner −62, taker −124, 3 defenders +62"),
    (P5, hand("garde", 51, 1, partner="Anna"), {}, [200, -50, -50, -50, -50],
     "the called king in the taker's own hand: alone, 4 × 50"),
    (P5, hand("garde", 51, 1, partner=None), {}, [200, -50, -50, -50, -50],
     "the called king in the chien (partner null): alone, 4 × 50"),
    (P3, hand("garde", 51, 1), {}, [100, -50, -50], "3 players: taker 2 × 50"),
]


@pytest.mark.parametrize("players,h,over,expected,source", KNOWN, ids=[k[4][:50] for k in KNOWN])
def test_known_hands(players, h, over, expected, source):
    result = score(players, h, rules(**over))
    assert [result.scores[p] for p in players] == expected, source
    assert sum(result.scores.values()) == 0
    assert result.points == {"attack": Fraction(h["points"]), "defence": 91 - Fraction(h["points"])}
    assert all(type(s) is int for s in result.scores.values())
    assert result.warnings == (), source  # every known hand is one real cards give


def test_points_stay_fractions():
    result = score(P3, hand("prise", 40.5, 2), rules())
    assert result.points == {"attack": Fraction(81, 2), "defence": Fraction(101, 2)}
    assert all(isinstance(v, Fraction) for v in result.points.values())


def test_explanation_reads_step_by_step():
    text = [str(x) for x in score(P4, hand("garde_sans", 53, 2, poignees=single("Ben")), rules()).explanation]
    assert text == [
        "Attack 53 points with 2 oudlers, defence 38: the taker needs 41.",
        "53 ≥ 41: made by 12.",
        "Contract: 25 + 12 = 37.",
        "Garde sans × 4: 37 × 4 = 148.",
        "Single poignée shown by Ben: 20 to the attack, which won: 148 + 20 = 168.",
        "Each of 3 defenders −168; taker Anna +504 (3 × 168).",
    ]
    text = [str(x) for x in score(P3, hand("prise", 40.5, 2), rules()).explanation]
    assert "40.5 < 41: lost by 0.5." in text
    assert "Half points count for the side that scores: 0.5 counts as 1." in text
    assert "Contract lost: −(25 + 1) = −26." in text


def test_cards_are_counted():
    # The 3 oudlers and 4 kings 7 × 4.5 = 31.5, 4 queens 14, 9 low cards 4.5: 50 points, 3 oudlers.
    # Threshold 36, made by 14: 25 + 14 = 39 (prise ×1); taker 3 × 39 = 117.
    low = ["T2", "T3", "T4", "T5", "SW-1", "SW-2", "SW-3", "SW-4", "SW-5"]
    cards = ["T1", "T21", "EXCUSE"] + [f"{s}-K" for s in C.SUITS] + [f"{s}-Q" for s in C.SUITS] + low
    result = score(P4, {"taker": "Anna", "contract": "prise", "cards": cards}, rules())
    assert result.points == {"attack": 50, "defence": 41}
    assert result.scores == {"Anna": 117, "Ben": -39, "Cla": -39, "Dora": -39}
    # 20 − the 6 of the chien = 14, not tricks of 4: a real hand can't give it; a warning, the score still stands.
    assert len(result.warnings) == 1 and "20 cards can't happen" in str(result.warnings[0])
    real = score(P4, {"taker": "Anna", "contract": "prise", "cards": cards[:-2]}, rules())  # 18 = 3 × 4 + 6
    assert real.warnings == () and real.points["attack"] == 49
    contre = score(P4, {"taker": "Anna", "contract": "garde_contre", "cards": cards[:-2]}, rules())
    assert len(contre.warnings) == 1  # garde contre: the chien is the defence's, so 18 isn't 4k


MISERE = [
    (P4, [-10, -10, 30, -10], 0, "french-tarot-wikipedia.txt: +30 to the declarer, −10 to the others: zero-sum at 4"),
    (P3, [-10, -10, 30], 10, "3 players: +30 − 2 × 10 = +10, not zero-sum (docs/rules.md §6)"),
    (P5, [-10, -10, 30, -10, -10], -10, "5 players: +30 − 4 × 10 = −10, not zero-sum (docs/rules.md §6)"),
]


@pytest.mark.parametrize("players,bonus,net,source", MISERE, ids=["4p", "3p", "5p"])
def test_misere(players, bonus, net, source):
    # A made prise exactly on the threshold is 25 per defender; the misère is added on top for Cla.
    plain = score(players, hand("prise", 41, 2), rules())
    h = hand("prise", 41, 2, misere=["Cla"])
    result = score(players, h, rules(misere=True))
    assert [result.scores[p] - plain.scores[p] for p in players] == bonus, source
    assert sum(result.scores.values()) == net
    assert (len(result.warnings) == 1) == (net != 0)


def test_round_to_10_halves_and_keeps_the_misere_total():
    # 5 players, misère by Eva: scores 100, −50, 50, −50, −50 + (−10, −10, −10, −10, +30) = 90, −60, 40, −60, −20,
    # total −10. Rounding leaves them (already tens); a 5 rounds away from zero: 25 → 30, −25 → −30.
    result = score(P5, hand("garde", 51, 1, partner="Cla", misere=["Eva"]), rules(misere=True, round_to_10=True))
    assert [result.scores[p] for p in P5] == [90, -60, 40, -60, -20]
    result = score(P4, hand("prise", 41, 2), rules(round_to_10=True))
    assert [result.scores[p] for p in P4] == [90, -30, -30, -30]  # −25 → −30, taker 0 − (−90) = 90


BAD = [
    (P4, hand("garde", 50, 1, taker="Zoe"), UnknownPlayer, "taker"),
    (P5, hand("garde", 50, 1, partner="Zoe"), UnknownPlayer, "partner"),
    (P4, hand("garde", 50, 1, poignees=single("Zoe")), UnknownPlayer, "poignée"),
    (P4, hand("garde", 50, 1, partner="Ben"), BadHand, "only at 5 players"),
    (P3, hand("garde", 50, 1, partner="Anna"), BadHand, "only at 5 players"),
    (P4, hand("garde", 50, 4), BadHand, "only 3 oudlers"),
    (P4, hand("garde", 50, -1), BadHand, "only 3 oudlers"),
    (P4, hand("grande", 50, 1), BadHand, "not a French Tarot contract"),
    (P4, hand("garde", 50, 1, poignees=[{"player": "Ben", "size": "quadruple"}]), BadHand, "not a poignée"),
    (P4, hand("garde", 91.5, 3), BadHand, "between 0 and 91"),
    (P4, hand("garde", -0.5, 0), BadHand, "between 0 and 91"),
    (P4, hand("garde", 40.25, 2), BadHand, "half points"),
    (P4, hand("garde", "40", 2), BadRequest, "number"),
    (P4, hand("garde", True, 2), BadRequest, "number"),
    (P4, hand("garde", float("nan"), 2), BadRequest, "number"),
    (P4, hand("garde", float("inf"), 2), BadRequest, "number"),
    (P4, hand("garde", 10 ** 400, 2), BadHand, "between 0 and 91"),
    (P4, hand("garde", 50, 1.0), BadRequest, "whole number"),
    (P4, hand("garde", 50, None), BadRequest, "give “oudlers”"),
    (P4, {"taker": "Anna", "contract": "garde", "points": 50}, BadRequest, "give “oudlers”"),
    (P4, {**hand("garde", 50, 1), "cards": ["T21"]}, BadRequest, "not both"),
    (P4, {"taker": "Anna", "contract": "garde", "cards": ["T21"], "oudlers": 1}, BadRequest, "only with “points”"),
    (P4, {"taker": "Anna", "contract": "garde"}, BadRequest, "not neither"),
    (P4, {**hand("garde", 50, 1), "dog": []}, BadRequest, "unknown field"),
    (P4, {"contract": "garde", "points": 50, "oudlers": 1}, BadRequest, "lacks “taker”"),
    (P4, hand(2, 50, 1), BadRequest, "contract"),
    (P4, hand("garde", 50, 1, poignees={"Ben": "single"}), BadRequest, "list"),
    (P4, hand("garde", 50, 1, poignees=[{"player": "Ben"}]), BadRequest, "exactly"),
    (P4, hand("garde", 50, 1, poignees=[{"player": "Ben", "size": "single"}, {"player": "Ben", "size": "double"}]),
     BadHand, "only once"),
    (P4, hand("garde", 50, 1, poignees=[{"player": "Ben", "size": "triple"}, {"player": "Cla", "size": "triple"}]),
     BadHand, "30 trumps"),
    (P4, hand("garde", 50, 0, petit_au_bout="attack"), BadHand, "Petit"),
    (P4, hand("garde", 50, 3, petit_au_bout="defence"), BadHand, "Petit"),
    (P4, hand("garde", 50, 1, petit_au_bout="both"), BadHand, "not a side"),
    (P4, hand("garde", 10, 3), BadHand, "between 17 and 89"),
    (P4, hand("garde", 82, 0), BadHand, "between 5 and 77"),
    (P4, hand("garde", 40, 1, chelem="announced_made"), BadHand, "every trick"),
    (P4, hand("garde", 70, 1, chelem="defence_made"), BadHand, "every trick"),
    (P4, hand("garde", 80, 2, chelem="unannounced_made", petit_au_bout="defence"), BadHand, "every trick"),
    (P4, hand("garde", 50, 1, chelem="grand"), BadHand, "not a chelem"),
    (P4, hand("garde", 50, 1, misere=["Ben"]), BadHand, "doesn't play misère"),
    (P4, hand("prise", 50, 1), None, None),  # prise is fine by default; see test_prise_allowed
    (["Anna", "Ben"], hand("garde", 50, 1), BadHand, "3 to 5 players"),
    (P5 + ["Fritz"], hand("garde", 50, 1), BadHand, "3 to 5 players"),
]


@pytest.mark.parametrize("players,h,error,words", [b for b in BAD if b[2]], ids=[b[3] for b in BAD if b[2]])
def test_bad_input(players, h, error, words):
    with pytest.raises(error, match=words):
        score(players, h, rules())


def test_prise_allowed():
    assert score(P4, hand("prise", 50, 1), rules()).scores["Anna"] == -78  # 50 < 51, lost by 1: 3 × −(25 + 1) × 1
    with pytest.raises(BadHand, match="without Prise"):
        score(P4, hand("prise", 50, 1), rules(prise_allowed=False))


def test_misere_players_must_be_at_the_table():
    with pytest.raises(UnknownPlayer):
        score(P4, hand("prise", 50, 1, misere=["Zoe"]), rules(misere=True))


def test_five_player_poignee_thresholds():
    # A single and a triple show 8 + 13 = 21 trumps under 8/10/13 (≤ 21 trumps + Excuse = 22), but 8 + 15 = 23
    # under 8/10/15. Score: (25 + 0) × 2 = 50, + 20 + 40 = 110 per defender; the taker with a partner 2 × 110.
    pair = [{"player": "Ben", "size": "single"}, {"player": "Cla", "size": "triple"}]
    assert score(P5, hand("garde", 51, 1, partner="Dora", poignees=pair), rules()).scores["Anna"] == 2 * (50 + 20 + 40)
    with pytest.raises(BadHand, match="23 trumps"):
        score(P5, hand("garde", 51, 1, partner="Dora", poignees=pair), rules(poignee_thresholds_5p=[8, 10, 15]))


# Bounds from real cards (docs/rules.md §6). Every card is worth ½ and more: an oudler or king 4 more, a queen 3,
# a knight 2, a jack 1 (4½, 3½, 2½, 1½). The attack holds the chien or écart (6 cards at 3 and 4 players, 3 at 5;
# the defence's in a garde contre) and n cards a trick; the Excuse exchange keeps those sizes. So with N cards and o
# oudlers the attack has N × ½ + 4 × o points and up to 40 more for the 16 court cards (4 × 4 + 4 × 3 + 4 × 2 + 4).
REAL = [
    # (players, hand, error or None, words, where the numbers come from)
    (P4, hand("prise", 0, 0), BadHand, "between 5 and 77",
     "the écart's 6 cards are the taker's (3 points at least) and both sides took a trick: 6 + 4 cards = 5 points"),
    (P4, hand("garde", 4, 0), BadHand, "record its chelem",
     "4 < 5: no trick at all, only the écart (3 to 19): the defence took every trick, a chelem to record"),
    (P4, hand("garde", 3, 0, chelem="defence_made"), None, None, "the écart alone: 6 × ½ = 3"),
    (P4, hand("garde", 2, 0, chelem="defence_made"), BadHand, "between 3 and 19",
     "the écart: 6 × ½ = 3 at least; 4 queens and 2 knights (no king may be laid away) = 14 + 5 = 19 at most"),
    (P4, hand("garde", 20, 0, chelem="defence_made"), BadHand, "between 3 and 19", "19 at most, as above"),
    (P4, hand("garde", 7, 1, chelem="defence_made"), None, None,
     "the écart (3) and the taker's own Excuse, which he can't pay for: counted 4 (FFT) = 7"),
    (P4, hand("garde", 8, 2, chelem="defence_made"), BadHand, "only oudler can be its own Excuse",
     "the Petit and the 21 are never laid away: without a trick the attack holds neither"),
    (P4, hand("garde_sans", 30, 3, chelem="defence_made"), None, None,
     "garde sans: the unseen chien may hold the Petit, the 21, 3 kings and a queen (5 × 4½ + 3½ = 26), and the "
     "taker's unpaid Excuse counts 4: 30"),
    (P4, hand("garde_sans", 32, 3, chelem="defence_made"), BadHand, "between 15 and 31",
     "at most the Petit, the 21 and 4 kings in the chien (27) and the Excuse (4) = 31; at least 2 oudlers and 4 low "
     "cards (11) and the Excuse = 15"),
    (P5, hand("prise", 1.5, 0, chelem="defence_made"), None, None, "5 players: the écart is 3 cards, 3 × ½ = 1.5"),
    (P5, hand("prise", 1, 0, chelem="defence_made"), BadHand, "between 1.5 and 10.5",
     "5 players: 3 × ½ = 1.5 to 3 queens = 10.5"),
    (P4, hand("garde_contre", 0, 0, chelem="defence_made"), None, None, "garde contre: no chien, no trick: nothing"),
    (P4, hand("garde_contre", 4, 1, chelem="defence_made"), None, None,
     "garde contre: only the taker's unpaid Excuse, counted 4 (FFT)"),
    (P4, hand("garde_contre", 2, 0), None, None, "garde contre: one trick of 4 cards, 4 × ½ = 2"),
    (P4, hand("garde_contre", 1, 0), BadHand, "between 2 and 74",
     "garde contre: one trick (4 × ½ = 2) at least, or nothing at all (a defence slam): never 1"),
    # Slams: the defence without a trick holds at most the Excuse it kept (FFT example 5), or the chien in a garde contre.
    (P4, hand("garde", 91, 3), BadHand, "record its chelem", "91 leaves the defence no card: the attack took every trick"),
    (P4, hand("garde", 87, 2), BadHand, "record its chelem",
     "a defence with a trick has 4 cards: 2 + 4 for its Excuse = 6 at least, not 4: only a slam leaves 4"),
    (P4, hand("garde", 91, 3, chelem="announced_failed"), BadHand, "announced chelem was made", "all tricks: made"),
    (P4, hand("garde", 85, 2), None, None,
     "the defence took one trick, 4 cards (2), and has an oudler (4 more): 91 − 6 = 85"),
    (P4, hand("garde", 86, 2), BadHand, "between 13 and 85", "with a trick the defence holds 6 at least; a slam is 87"),
    (P4, hand("garde", 87, 2, chelem="unannounced_made"), None, None, "FFT example 5's count, slam not announced"),
    (P4, hand("garde", 91, 2, chelem="announced_made"), BadHand, "it has 87 points, not 91",
     "with the defence's Excuse the attack has all 77 other cards: 91 − 4½ = 86½, the half point to it: 87"),
    (P4, hand("garde", 89, 3, chelem="announced_made"), BadHand, "it has 91 points, not 89", "every card: 91"),
    (P4, hand("garde", 88, 1, chelem="announced_made"), BadHand, "at least 2, not 1",
     "the defence keeps no more than its own Excuse"),
    (P4, hand("garde_contre", 76, 0, chelem="announced_made"), None, None,
     "garde contre: the defence keeps the chien, which may hold all 3 oudlers: the Petit, the 21 and 4 low cards (11) "
     "and its Excuse (4) = 15: 91 − 15 = 76"),
    (P4, hand("garde_contre", 77, 0, chelem="announced_made"), BadHand, "between 60 and 76", "one more than 76"),
    # Petit au bout: the Petit lies in a trick of the side that took it.
    (P4, hand("garde", 87, 2, chelem="announced_made", petit_au_bout="attack"), None, None, "a slam and the Petit last"),
]


@pytest.mark.parametrize("players,h,error,words,why", REAL, ids=[r[4][:50] for r in REAL])
def test_bounds_from_real_cards(players, h, error, words, why):
    if error is None:
        result = score(players, h, rules())
        assert result.warnings == (), why
    else:
        with pytest.raises(error, match=words):
            score(players, h, rules())


def test_fft_example_5_counts_87_not_86_and_a_half():
    # FFT R-RO201206, p. 9, example 5: a garde, slam announced and made, 2 bouts, the defence's lone Excuse. It
    # counts 4 (pairs: the Excuse alone "with" the half point it can't give), so the attack has 91 − 4 = 87 (the
    # old check refused it: 91 − 87 = 4 < 4½ for the defence's oudler). 86½, the Excuse counted 4½, is warned.
    assert score(P4, hand("garde", 87, 2, chelem="announced_made"), rules()).warnings == ()
    result = score(P4, hand("garde", 86.5, 2, chelem="announced_made"), rules())
    assert len(result.warnings) == 1 and "counts 4" in str(result.warnings[0])
    # the same margin, 46 (86.5 − 41 = 45.5 counts 46, FFT): the same score
    assert result.scores == score(P4, hand("garde", 87, 2, chelem="announced_made"), rules()).scores


def test_half_points_at_four_players_need_the_excuse_to_change_sides():
    # 4 players: the attack's pile is 6 + 4k cards, an even number, so its points are whole. Only the Excuse
    # played to the last trick and changing sides without exchange (house rule excuse_last_trick) moves one card.
    result = score(P4, hand("garde", 40.5, 2), rules(excuse_last_trick="trick_winner"))
    assert len(result.warnings) == 1
    # the rule in the words of the rules page and the table form, not its keys excuse_last_trick "changes_side"
    assert str(result.warnings[0]) == (
        "40.5 points with 2 oudlers happen only if the Excuse played to the last trick changed sides (house rule "
        "“Excuse in the last trick”: “it changes side”); at this table it goes to the trick's winner.")
    # docs/rules.md §6: the FFT default, the Excuse changes side, makes 40.5 at 4 players an ordinary hand
    assert rules()["excuse_last_trick"] == "changes_side"
    assert score(P4, hand("garde", 40.5, 2), rules()).warnings == ()
    assert score(P3, hand("garde", 40.5, 2), rules(excuse_last_trick="trick_winner")).warnings == ()  # 6 + 3k cards


def test_one_oudler_is_said_in_the_singular():
    # 50.5 with 1 oudler at 4 players: the Excuse changed sides (warned), the taker needs 51 (docs/rules.md §6)
    result = score(P4, hand("garde", 50.5, 1), rules(excuse_last_trick="trick_winner"))
    assert str(result.explanation[0]) == "Attack 50.5 points with 1 oudler, defence 40.5: the taker needs 51."
    assert str(result.warnings[0]).startswith("50.5 points with 1 oudler happen only if")
    assert str(score(P4, hand("garde", 50.5, 2), rules()).explanation[0]).startswith("Attack 50.5 points with 2 oudlers,")
    assert str(GAME.summary(hand("garde", 51, 1))) == "Anna: Garde, 51 points, 1 oudler"
    assert str(GAME.summary(hand("garde", 56, 0))) == "Anna: Garde, 56 points, 0 oudlers"


def test_misere_off_names_the_house_rule_by_its_title():
    with pytest.raises(BadHand) as e:
        score(P4, hand("garde", 50, 2, misere=["Ben"]), rules())
    assert str(e.value) == "This table doesn't play misère: turn on the house rule “Misère” first."


def test_a_pile_that_took_no_trick_is_the_ecart():
    # french-tarot-wikipedia.txt: "An oudler may never be set aside", nor a king. 6 cards (or 7 with the taker's
    # own Excuse) at 4 players is the écart alone: a trick would add 4.
    ecart = ["SW-1", "SW-2", "SW-3", "SW-4", "SW-5"]
    with pytest.raises(BadHand, match="SW-K"):
        score(P4, {"taker": "Anna", "contract": "prise", "cards": ecart + ["SW-K"], "chelem": "defence_made"}, rules())
    with pytest.raises(BadHand, match="T21"):
        score(P4, {"taker": "Anna", "contract": "garde", "cards": ecart + ["T21"], "chelem": "defence_made"}, rules())
    # the queens may be laid away; garde sans: the chien is unseen and may hold a king
    assert score(P4, {"taker": "Anna", "contract": "prise", "cards": ecart + ["SW-Q"], "chelem": "defence_made"},
                 rules()).points["attack"] == 6
    assert score(P4, {"taker": "Anna", "contract": "garde_sans", "cards": ecart + ["SW-K"], "chelem": "defence_made"},
                 rules()).points["attack"] == 7


# Real deals, dealt independently of the engine's arithmetic: the chien or écart (no king, no oudler), whole tricks
# of real cards, the Excuse exchanged; the slams as the FFT counts them. The engine must take every one, unwarned.
DECK = C.DECK_78
VALUES = GAME.values({})
OUDLERS = {"T1", "T21", "FOOL"}
ECART_OK = [c for c in DECK if c not in OUDLERS and C.rank_of(c) != "K"]


@st.composite
def real_deals(draw):
    n = draw(st.integers(3, 5))
    players = [f"P{i}" for i in range(n)]
    chien, tricks = {3: 6, 4: 6, 5: 3}[n], {3: 24, 4: 18, 5: 15}[n]
    contract = draw(st.sampled_from(["prise", "garde", "garde_sans", "garde_contre"]))
    chelem = draw(st.sampled_from([None, None, None, "announced_made", "unannounced_made", "defence_made",
                                   "announced_failed"]))
    k = {"announced_made": tricks, "unannounced_made": tricks, "defence_made": 0}.get(chelem)
    if k is None:
        k = draw(st.integers(0 if chelem == "announced_failed" else 1, tricks - 1))
    order = draw(st.permutations(DECK))
    if contract in ("prise", "garde"):
        first = [c for c in order if c in ECART_OK][:chien]
    elif contract == "garde_sans":
        first = list(order[:chien])
    else:
        first = []
    rest = [c for c in order if c not in first]
    played = rest[:len(rest) - chien] if contract == "garde_contre" else rest  # the defence's chien stays out
    attack = first + played[:k * n]
    kept = None  # an Excuse kept by a side without a trick: it counts 4, the half point to the other side
    if contract != "garde_contre" and k == tricks and draw(st.booleans()):
        attack.remove("FOOL")
        kept = "defence"
    if k == 0 and "FOOL" not in attack and "FOOL" in played and draw(st.booleans()):
        attack.append("FOOL")  # the taker's own Excuse, played to a defence trick and never paid for
        kept = "attack"
    points = sum(VALUES[c] for c in attack) + {"defence": Fraction(1, 2), "attack": Fraction(-1, 2)}.get(kept, 0)
    trick_cards = played[:k * n]
    pab = None
    if "T1" in trick_cards and draw(st.booleans()):
        pab = "attack"
    elif "T1" in played[k * n:] and k < tricks and draw(st.booleans()):
        pab = "defence"
    h = {"taker": players[0], "contract": contract, "chelem": chelem, "petit_au_bout": pab,
         "points": float(points) if points.denominator == 2 else int(points), "oudlers": len(OUDLERS & set(attack))}
    if n == 5:
        h["partner"] = draw(st.sampled_from([None, players[1]]))
    return players, h


@settings(max_examples=300, deadline=None)
@given(real_deals())
def test_real_deals_are_never_refused(case):
    players, h = case
    result = score(players, h, rules())
    assert result.warnings == (), (h, [str(w) for w in result.warnings])


# Properties over random hands (Hypothesis).

@st.composite
def tarot_hands(draw):
    # a real deal (above), with poignées, misère and the house rules drawn at random
    players, h = draw(real_deals())
    shown = draw(st.lists(st.sampled_from(players), unique=True, max_size=2))
    need, trumps = poignee_trumps(len(players), rules()), 0
    h["poignees"] = []
    for p in shown:  # they show 22 trumps at most between them, the 21 and the Excuse
        fit = [s for s, t in zip(("single", "double", "triple"), need) if trumps + t <= 22]
        if not fit:
            break
        size = draw(st.sampled_from(fit))
        trumps += need[("single", "double", "triple").index(size)]
        h["poignees"].append({"player": p, "size": size})
    over = {"garde_contre_multiplier": draw(st.sampled_from([6, 8])),
            "poignee_bonus": draw(st.sampled_from([[20, 30, 40], [20, 40, 60]])),
            "defence_chelem_bonus": draw(st.sampled_from([200, 0])),
            "excuse_last_trick": draw(st.sampled_from(["trick_winner", "changes_side"])),
            "half_points": draw(st.sampled_from(["fft", "down", "up"])),
            "round_to_10": draw(st.booleans()),
            "misere": draw(st.booleans())}
    if over["misere"]:
        h["misere"] = draw(st.lists(st.sampled_from(players), unique=True, max_size=2))
    return players, h, over


@settings(max_examples=200, deadline=None)
@given(tarot_hands())
def test_scores_sum_to_zero_except_misere_at_3_and_5(case):
    players, h, over = case
    try:
        result = score(players, h, rules(**over))
    except BadHand:
        reject()
    n, miseres = len(players), len(h.get("misere", []))
    assert sum(result.scores.values()) == miseres * (30 - 10 * (n - 1))
    assert all(type(s) is int for s in result.scores.values())


@settings(max_examples=200, deadline=None)
@given(tarot_hands(), st.integers(1, 20))
def test_more_points_never_lower_the_taker(case, halves):
    players, h, over = case
    more = {**h, "points": min(Fraction(91), h["points"] + Fraction(halves, 2))}
    try:
        low, high = score(players, h, rules(**over)), score(players, more, rules(**over))
    except BadHand:
        reject()
    assert high.scores[h["taker"]] >= low.scores[h["taker"]]
    if h.get("partner"):
        assert high.scores[h["partner"]] >= low.scores[h["partner"]]


# ---- the 5-player poignée thresholds as a house rule (docs/rules.md §6) ----

# At 5 players each player holds (78 − 3) / 5 = 15 cards (the deal table), so a poignée shows 1 to 15 trumps, and a
# double more than a single, a triple more than a double (FFT 8/10/13; bric-a-brac's 8/10/15).
THRESHOLDS_SAID = ("At 5 players each player holds 15 cards, so a poignée needs 1 to 15 trumps, the double more than "
                   "the single and the triple more than the double (such as 8, 10, 13).")


@pytest.mark.parametrize("thresholds", [[8, 10, 13], [8, 10, 15], [13, 14, 15], [1, 2, 3]])
def test_poignee_thresholds_a_hand_of_15_can_show_are_house_rules(thresholds):
    assert GAME.rule_problems(rules(poignee_thresholds_5p=thresholds)) == {}


@pytest.mark.parametrize("thresholds", [[99, 99, 99], [8, 10, 16], [13, 10, 8], [8, 8, 13], [8, 13, 13], [0, 10, 13]])
def test_poignee_thresholds_no_hand_can_show_are_refused(thresholds):
    # 16 > 15 cards in a hand; 13, 10, 8 and 8, 8, 13 don't increase; 0 trumps is no poignée
    problems = GAME.rule_problems(rules(poignee_thresholds_5p=thresholds))
    assert list(problems) == ["poignee_thresholds_5p"]
    assert problems["poignee_thresholds_5p"].render() == THRESHOLDS_SAID


FRENCH_FORM = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Dora", "players-4": "Eva",
               "first_dealer": "0", "stake": "0.01", "currency": "EUR", "rule_poignee_bonus": "20, 30, 40",
               "rule_poignee_thresholds_5p": "8, 10, 13", "rule_garde_contre_multiplier": "6",
               "rule_excuse_last_trick": "trick_winner", "rule_defence_chelem_bonus": "200",
               "rule_prise_allowed": "y", "rule_half_points": "fft"}


def said_at(page: str, name: str) -> tuple[str, str]:
    """Return (the value the field `name` shows, the message after it)."""
    field = re.search(r'<input[^>]*\bname="%s"[^>]*>' % re.escape(name), page)
    value = re.search(r'value="([^"]*)"', field.group(0)).group(1)
    message = re.compile(r'<p class="field-error" role="alert">(.*?)</p>', re.S).search(page, field.end()).group(1)
    return html.unescape(value), html.unescape(message)


@pytest.mark.parametrize("typed", ["99, 99, 99", "13, 10, 8"])
def test_impossible_thresholds_are_refused_at_their_field_when_a_table_opens_or_changes(client, typed):
    r = client.post("/tables/new/french_tarot", data={**FRENCH_FORM, "rule_poignee_thresholds_5p": typed})
    assert r.status_code == 200  # the form again, nothing opened
    assert said_at(r.get_data(as_text=True), "rule_poignee_thresholds_5p") == (typed, THRESHOLDS_SAID)
    url = client.post("/tables/new/french_tarot", data=FRENCH_FORM).headers["Location"]
    change = {k: v for k, v in FRENCH_FORM.items() if k.startswith("rule_")}
    change.update({f"name{i}": n for i, n in enumerate(["Anna", "Ben", "Cla", "Dora", "Eva"])}, stake="0.01",
                  version="0", token="t", rule_poignee_thresholds_5p=typed)
    r = client.post(url + "/setup", data=change)
    assert r.status_code == 200
    assert said_at(r.get_data(as_text=True), "rule_poignee_thresholds_5p") == (typed, THRESHOLDS_SAID)
    exported = client.get(url + "/export.json").get_json()
    assert exported["rules"]["poignee_thresholds_5p"] == [8, 10, 13]  # the change was not made
    exported["rules"]["poignee_thresholds_5p"] = [99, 99, 99]  # an import is checked as the forms are
    r = client.post("/tables/import", data={"file": (io.BytesIO(json.dumps(exported).encode()), "t.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 400  # the import page again, with the sentence; no table
    assert f"The house rule “Poignée at 5 players” in the file: {THRESHOLDS_SAID}" in html.unescape(r.get_data(as_text=True))
