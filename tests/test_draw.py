"""The cup's seating draw (issue 38, engine/draw.py) and its command line."""
import json
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.__main__ import main
from scorekeeper.engine.draw import draw, repeats_of, seat_fixed, table_sizes
from scorekeeper.engine.errors import CantSeat

SIZES = st.sampled_from([range(3, 4), range(4, 5), range(3, 6), range(4, 6), range(4, 11)])


def seatable(n, allowed):
    try:
        table_sizes(n, allowed)
    except CantSeat:
        return False
    return True


@settings(max_examples=60, deadline=None)
@given(allowed=SIZES, n=st.integers(3, 60), rounds=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_everyone_is_seated_once_a_round_at_allowed_sizes_and_the_seed_gives_the_same_draw(allowed, n, rounds, seed):
    if not seatable(n, allowed):
        with pytest.raises(CantSeat):
            draw(n, rounds, allowed, seed)
        return
    d = draw(n, rounds, allowed, seed)
    assert len(d.rounds) == rounds
    for r in d.rounds:
        assert sorted(p for t in r for p in t) == list(range(1, n + 1))
        assert all(len(t) in allowed for t in r)
    assert draw(n, rounds, allowed, seed) == d
    assert d.repeats == repeats_of(d.rounds)


def test_sixteen_players_five_rounds_tables_of_four_meet_nobody_twice():
    for seed in (0, 1, 38, 2026):
        d = draw(16, 5, range(4, 5), seed)
        pairs = [pair for r in d.rounds for t in r for pair in combinations(sorted(t), 2)]
        # 5 rounds × 4 tables × C(4,2) = 6 pairs = 120 meetings = C(16,2): every pair exactly once
        assert len(pairs) == 120 and len(set(pairs)) == 120
        assert d.repeats == 0


def test_nine_players_three_rounds_tables_of_three_meet_nobody_twice():
    # the affine plane of order 3: 3 tables × 3 pairs × 3 rounds = 27 meetings of the 36 pairs, none twice
    assert draw(9, 3, range(3, 4), 5).repeats == 0


def test_repeats_are_counted_when_they_cannot_be_avoided():
    # 12 at tables of 4: a table of round 2 holds 4 players from round 1's 3 tables, so two of them sat together:
    # at least 1 repeat a table, 3 a round after the first
    d = draw(12, 2, range(4, 5), 1)
    assert d.repeats == repeats_of(d.rounds) >= 3
    # 8 at tables of 4 over 2 rounds: each table of round 2 takes 4 from two tables of 4: at least 2 repeats a table
    assert draw(8, 2, range(4, 5), 1).repeats >= 4


def test_table_sizes_keep_to_the_preferred_size():
    assert table_sizes(17, range(3, 6)) == [5, 4, 4, 4]  # 17 = 5 + 4·3, one table off 4
    assert table_sizes(18, range(3, 6)) == [5, 5, 4, 4]
    assert table_sizes(9, range(3, 4)) == [3, 3, 3]
    assert table_sizes(7, range(3, 6)) == [4, 3]


@pytest.mark.parametrize("n, allowed, sentence", [
    (9, range(4, 5), "Tables of 4 can't seat 9 players: 8 or 12 would work."),
    (2, range(3, 4), "Tables of 3 can't seat 2 players: 3 would work."),
    (2, range(3, 6), "Tables of 3–5 can't seat 2 players: 3 would work."),
    (7, range(3, 4), "Tables of 3 can't seat 7 players: 6 or 9 would work."),
])
def test_a_count_no_table_can_seat_says_what_would_work(n, allowed, sentence):
    with pytest.raises(CantSeat) as e:
        table_sizes(n, allowed)
    assert e.value.message == sentence and e.value.field == "players"


def test_the_command_line_prints_the_draw_as_json(capsys):
    assert main(["draw", "--game", "troccas", "--players", "16", "--rounds", "5", "--seed", "38"]) == 0
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert got["seed"] == 38 and len(got["rounds"]) == 5
    assert got == draw(16, 5, range(4, 5), 38).as_json()  # Troccas is played by 4
    assert "repeat meetings: 0" in err


def test_the_command_line_picks_and_prints_a_seed_when_none_is_given(capsys):
    assert main(["draw", "--game", "french_tarot", "--players", "10", "--rounds", "2"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == draw(10, 2, range(3, 6), got["seed"]).as_json()


@pytest.mark.parametrize("args, said", [
    (["--game", "troccas", "--players", "9", "--rounds", "2", "--seed", "1"], "8 or 12 would work"),
    (["--game", "troccas", "--players", "8", "--rounds", "2", "--seed", "x"], "--seed must be a whole number"),
    (["--game", "troccas", "--players", "eight", "--rounds", "2"], "--players must be a whole number"),
    (["--game", "nope", "--players", "8", "--rounds", "2"], "There is no game “nope”"),
    (["--game", "troccas", "--players", "8"], "usage"),
    (["--game", "troccas", "--players", "0", "--rounds", "2"], "at least 1"),
])
def test_the_command_line_refuses_bad_input_with_one_sentence(capsys, args, said):
    assert main(["draw", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and said in err


def test_a_fixed_player_is_moved_to_the_table_by_a_swap():
    tables = ((1, 2, 3, 4), (5, 6, 7, 8))
    # 1 fixed to table 2: swapped with table 2's last player whose table isn't fixed (8)
    assert seat_fixed(tables, {1: 2}) == ((8, 2, 3, 4), (5, 6, 7, 1))
    # 8 is fixed to table 2 too: 1 takes 7's seat instead
    assert seat_fixed(tables, {1: 2, 8: 2}) == ((7, 2, 3, 4), (5, 6, 1, 8))


def test_a_fixed_table_the_round_lacks_or_overfills_says_so():
    with pytest.raises(CantSeat) as e:
        seat_fixed(((1, 2, 3, 4),), {2: 3})
    assert e.value.message == "#2 is fixed to table 3, but this round has 1 table."
    with pytest.raises(CantSeat) as e:
        seat_fixed(((1, 2), (3, 4)), {1: 2, 2: 2, 3: 2, 9: 1})  # 9 doesn't play this round: left alone
    assert "More players are fixed to table 2 than it seats." == e.value.message
