"""A cup's standings (engine/cup.py, issue 38): points by seat (a rename never moves them), the ranking rules chosen
when the cup is made (the sum, money at a rate, best N rounds, a dropped worst round), ties sharing a rank with the
tie-break order, and kontras routed to the pot, the money summing to zero with it."""
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.cup import Ranking, Seat, by_seat, entry_fees, pot, standings
from scorekeeper.engine.evening import Row


def row(players, scores, payouts=None):
    return Row(hand=None, index=1, dealer=players[0], scores=dict(zip(players, scores)),
               payouts=dict(zip(players, payouts if payouts is not None else scores)), players=tuple(players))


def test_a_seats_points_stay_with_its_start_number_when_the_name_changes():
    # table of start numbers 7, 3, 12, 5; after two hands Ana is corrected to Anna, and in the third hand Duri's
    # seat is taken over by Ursin (a substitute): the seats' points are
    # 7: 4+4+2, 3: −4−4−2, 12: 4+4−6, 5: −4−4+6
    rows = [row(["Ana", "Beat", "Cla", "Duri"], [4, -4, 4, -4]),
            row(["Anna", "Beat", "Cla", "Duri"], [4, -4, 4, -4]),
            row(["Anna", "Beat", "Cla", "Ursin"], [2, -2, -6, 6])]
    got = by_seat(rows, (7, 3, 12, 5))
    assert {n: s.points for n, s in got.items()} == {7: 10, 3: -10, 12: 2, 5: -2}


def test_ties_share_a_rank_and_the_list_follows_the_tie_break():
    players = [(1, "A", True), (2, "B", True), (3, "C", True), (4, "D", True)]
    # A: 5 + 5 = 10, best round 5; B: 12 − 2 = 10, best round 12; C: 10 + 0 = 10, best 10; D: 3 + 3 = 6
    results = [(1, 1, {1: 5, 2: 12, 3: 10, 4: 3}), (2, 1, {1: 5, 2: -2, 3: 0, 4: 3})]
    got = standings(players, results)
    # all three at 10 share rank 1, D is 4th (three above: 1, 1, 1, 4); listed by best round: B (12), C (10), A (5)
    assert [(s.number, s.rank, s.score, s.best) for s in got] == [(2, 1, 10, 12), (3, 1, 10, 10), (1, 1, 10, 5),
                                                                  (4, 4, 6, 3)]


def test_the_tie_break_after_the_best_round_is_the_lower_start_number():
    players = [(5, "E", True), (2, "B", True)]
    got = standings(players, [(1, 1, {5: 4, 2: 4})])
    assert [(s.number, s.rank) for s in got] == [(2, 1), (5, 1)]


ROUNDS = [(1, 1, {1: 10, 2: -10}), (2, 1, {1: -8, 2: 8}), (3, 1, {1: 6, 2: -6})]
PAIR = [(1, "A", True), (2, "B", True)]


def test_best_n_rounds_counts_the_best_ones():
    got = {s.number: s for s in standings(PAIR, ROUNDS, Ranking("best", 2), 3)}
    assert got[1].score == 16  # A's best two: 10 + 6
    assert got[2].score == 2  # B's best two: 8 + (−6)
    assert got[1].counted == {1, 3} and got[2].counted == {2, 3}
    assert got[1].points == 8  # the sum stays shown: 10 − 8 + 6


def test_a_dropped_worst_round_and_a_round_missed_counting_0():
    # C walked in for round 2: round 1 counts 0 for C, and is the round dropped (0 is below C's 7 and 1)
    players = PAIR + [(3, "C", True)]
    results = ROUNDS + [(2, 2, {3: 7}), (3, 2, {3: 1})]
    got = {s.number: s for s in standings(players, results, Ranking("drop", 1), 3)}
    assert got[1].score == 16 and got[1].counted == {1, 3}  # A drops −8: 10 + 6
    assert got[2].score == 2 and got[2].counted == {2, 3}  # B drops −10: 8 − 6
    assert got[3].score == 8 and got[3].counted == {2, 3}  # C drops round 1's 0: 7 + 1
    assert [s.number for s in standings(players, results, Ranking("drop", 1), 3)] == [1, 3, 2]


def test_while_fewer_rounds_are_drawn_than_the_cup_counts_none_is_dropped():
    # a cup of 3 rounds, the worst dropped: the best 2 count; after round 2 of 3 both drawn rounds count
    got = {s.number: s for s in standings(PAIR, ROUNDS[:2], Ranking("drop", 1), 2, 3)}
    assert got[1].score == 2 and got[1].counted == {1, 2}  # 10 − 8
    got = {s.number: s for s in standings(PAIR, ROUNDS[:1], Ranking("drop", 1), 1, 3)}
    assert got[1].score == 10 and got[1].counted == {1}


def test_money_at_the_rate_ranks_by_the_money_and_kontras_go_to_the_pot():
    # Königrufen's kontra doubles the money, not the sheet (docs/rules.md §11.3): a hand of ±2 on the sheet pays ±4
    # at a Kontra. At 10 cents a point the table's stake is 10: payouts are ±40
    hands = [row(["A", "B", "C", "D"], [2, 2, -2, -2], [40, 40, -40, -40]),
             row(["A", "B", "C", "D"], [-1, 3, -1, -1], [-10, 30, -10, -10])]
    plain = by_seat(hands, (1, 2, 3, 4), 10, "none")
    assert {n: s.money for n, s in plain.items()} == {1: 30, 2: 70, 3: -50, 4: -50}
    routed = by_seat(hands, (1, 2, 3, 4), 10, "kontras")
    # to the pot: C and D each lose 40 where the sheet says 20: 20 each; the winners get the sheet's 20
    assert {n: (s.money, s.to_pot) for n, s in routed.items()} == {1: (10, 0), 2: (50, 0), 3: (-50, 20),
                                                                 4: (-50, 20)}
    lines = standings([(n, str(n), True) for n in range(1, 5)], [(1, 1, routed)], Ranking("money", 0, 10, "kontras"))
    assert pot(lines) == 40
    assert sum(s.money for s in lines) + pot(lines) == 0
    assert [(s.number, s.rank, s.score) for s in lines] == [(2, 1, 50), (1, 2, 10), (3, 3, -50), (4, 3, -50)]


def test_the_entry_fee_comes_from_each_player_seated_in_a_round():
    """The entry fee (Startgeld) to the pot: from each player seated at a table of a round drawn; a player who never
    played (dropped before round 1, or walked in after the last round drawn) pays nothing. Beside the kontras: the
    players' money and the kontras' pot still sum to zero (the fees are paid at the door)."""
    hands = [row(["A", "B", "C", "D"], [2, 2, -2, -2], [40, 40, -40, -40])]
    routed = by_seat(hands, (1, 2, 3, 4), 10, "kontras")
    players = [(n, str(n), n != 5) for n in range(1, 7)]  # 5 dropped before round 1, 6 walked in since
    lines = standings(players, [(1, 1, routed)], Ranking("money", 0, 10, "kontras"))
    assert entry_fees(lines, 1000) == 4 * 1000  # four seated at round 1's one table, 10.00 each
    assert entry_fees(lines, 0) == 0
    assert pot(lines) == 40 and sum(s.money for s in lines) + pot(lines) == 0  # as without the fee
    # round 2 seats the walk-in (6) with three of round 1's: five players have paid
    lines = standings(players, [(1, 1, routed), (2, 1, {1: 0, 2: 0, 3: 0, 6: 0})], Ranking("money", 0, 10, "kontras"))
    assert entry_fees(lines, 1000) == 5 * 1000


@given(st.lists(st.tuples(st.lists(st.integers(-30, 30), min_size=3, max_size=3),
                          st.sampled_from([1, 2, 4, 8])), max_size=12),
       st.integers(1, 50), st.sampled_from(["none", "kontras"]))
def test_the_money_and_the_pot_sum_to_zero(hands, rate, routed):
    """Each hand zero-sum on the sheet; its money the sheet × a kontra level; then the players' money and the pot
    together sum to zero, and so do the points."""
    rows = []
    for three, level in hands:
        scores = three + [-sum(three)]
        money = [s * level * rate for s in scores]
        rows.append(row(["A", "B", "C", "D"], scores, money))
    seats = by_seat(rows, (4, 3, 2, 1), rate, routed)
    assert sum(s.points for s in seats.values()) == 0
    assert sum(Fraction(s.money) + Fraction(s.to_pot) for s in seats.values()) == 0
    assert all(s.to_pot >= 0 for s in seats.values())


def test_a_seat_given_as_points_is_read_as_a_seat():
    got = standings(PAIR, [(1, 1, {1: Seat(0, 0, 3, 30), 2: -3})], Ranking("money", 0, 10))
    assert [(s.number, s.money, s.points) for s in got] == [(1, 30, 3), (2, 0, -3)]
