"""settle.py: rounding to coins never invents or loses money; the fewest transfers settle everyone."""
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.engine.settle import BANK, Rounded, Transfer, fewest_transfers, payouts, round_to_coin, settle, totals

NAMES = ["Anna", "Ben", "Cla", "Dumeng", "Zoë", "Ürs", "Gion", "Hans", "Ida", "Jon"]


@st.composite
def zero_sum(draw, low=2, high=8):
    n = draw(st.integers(low, high))
    values = draw(st.lists(st.integers(-5000, 5000), min_size=n - 1, max_size=n - 1))
    return dict(zip(NAMES, values + [-sum(values)]))


def settles(balances, transfers):
    left = dict(balances)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return all(v == 0 for v in left.values())


def fewest_by_brute_force(balances):
    """n - the most disjoint zero-sum groups, by trying every partition (small n only)."""
    people = [p for p, b in balances.items() if b]

    def most(rest):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for k in range(len(others) + 1):
            for combo in combinations(others, k):
                if balances[first] + sum(balances[p] for p in combo) == 0:
                    remaining = [p for p in others if p not in combo]
                    best = max(best, 1 + most(remaining))
        return best
    return len(people) - most(people)


@given(zero_sum())
def test_rounding_keeps_the_sum_and_stays_within_a_coin(balances):
    rounded = round_to_coin(balances, 5)
    assert sum(r.rounded for r in rounded) == 0
    for r in rounded:
        assert r.rounded % 5 == 0
        assert abs(r.rounded - r.exact) < 5
        assert r.exact == balances[r.player]


@given(zero_sum(high=6))
@settings(max_examples=150)
def test_transfers_settle_everyone_in_the_fewest_payments(balances):
    transfers = fewest_transfers(balances)
    assert settles(balances, transfers)
    assert len(transfers) == fewest_by_brute_force(balances)


@given(zero_sum(high=10))
@settings(max_examples=50)
def test_ten_players_settle_in_at_most_nine_payments(balances):
    transfers = fewest_transfers(balances)
    assert settles(balances, transfers)
    assert len(transfers) <= sum(1 for b in balances.values() if b) - 1 or not transfers


def test_two_pairs_settle_in_two_payments_not_three():
    # Anna +30, Ben -30, Cla +20, Dumeng -20: two pairs square up on their own (2), greedy by size might chain (3).
    transfers = fewest_transfers({"Anna": 30, "Cla": 20, "Ben": -30, "Dumeng": -20})
    assert sorted((t.payer, t.payee, t.amount) for t in transfers) == [("Ben", "Anna", 30), ("Dumeng", "Cla", 20)]


def test_rounding_to_five_rappen_is_shown_and_sums_to_zero():
    # Anna +123, Ben -61, Cla -62 Rappen: floors 120, -65, -65 leave 3+4+3 = 10 Rappen = 2 coins to hand back;
    # the two largest remainders (Ben 4, then Anna 3 before Cla 3 in seating order) round up: 125, -60, -65.
    rounded = round_to_coin({"Anna": 123, "Ben": -61, "Cla": -62}, 5)
    assert rounded == (Rounded("Anna", 123, 125), Rounded("Ben", -61, -60), Rounded("Cla", -62, -65))
    assert [r.rounding for r in rounded] == [2, 1, -3]


def test_settle_without_zero_sum_uses_the_bank():
    # Mitigati's "flat" declarations add 20 to Anna only: the bank pays her.
    s = settle({"Anna": 20, "Ben": 0, "Cla": 0}, "EUR")
    assert s.transfers == (Transfer(BANK, "Anna", 20),)


def test_payouts_and_totals():
    # Troggu normal, 5 players, declarer wins single at 10 Rappen (docs/rules.md §5): +4 units, -1 each.
    hand = payouts({"Anna": 4, "Ben": -1, "Cla": -1, "Dumeng": -1, "Zoë": -1}, 10)
    assert hand == {"Anna": 40, "Ben": -10, "Cla": -10, "Dumeng": -10, "Zoë": -10}
    assert totals(["Anna", "Ben", "Cla", "Dumeng", "Zoë"], [hand, hand])["Anna"] == 80


def test_rounding_refuses_balances_that_do_not_sum_to_zero():
    with pytest.raises(ValueError):
        round_to_coin({"Anna": 5, "Ben": 0}, 5)
