"""A cup over a season (engine/season_cup.py, issue 38 item 9): the sum, the best N cups, cup points by place from
the circle's table; ties sharing a place in a cup and a rank over the season."""
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.season_cup import PLACES, SeasonRule, cup_points, season_ranking

# two cups: Anna and Beat level first at the first (place 1, 1), Cla third; at the second Cla first, Anna second,
# Duri third (Beat missed it)
CUPS = [[("Anna", 1, 30), ("Beat", 1, 30), ("Cla", 3, -60)],
        [("Cla", 1, 50), ("anna", 2, 10), ("Duri", 3, -60)]]


def by_name(lines):
    return {s.name: (s.rank, s.score) for s in lines}


def test_the_sum_adds_each_cups_points_by_name_capitals_aside():
    # Anna 30 + 10 = 40, Beat 30, Cla −60 + 50 = −10, Duri −60
    assert by_name(season_ranking(CUPS)) == {"Anna": (1, 40), "Beat": (2, 30), "Cla": (3, -10), "Duri": (4, -60)}


def test_the_best_cup_counts_and_a_missed_cup_counts_nothing():
    # best 1: Anna 30, Beat 30 (level: rank 1, 1), Cla 50, Duri −60
    lines = season_ranking(CUPS, SeasonRule("best", 1))
    assert by_name(lines) == {"Cla": (1, 50), "Anna": (2, 30), "Beat": (2, 30), "Duri": (4, -60)}
    assert [s.name for s in lines][1:3] == ["Anna", "Beat"]  # level: the better single cup (30 both), the name


def test_cup_points_by_place_from_the_circles_table_with_ties_sharing_the_place():
    # the table 25, 20, 16: Anna 25 (place 1) + 20 (place 2) = 45; Beat 25; Cla 16 (place 3) + 25 = 41; Duri 16
    lines = season_ranking(CUPS, SeasonRule("places", places=(25, 20, 16)))
    assert by_name(lines) == {"Anna": (1, 45), "Cla": (2, 41), "Beat": (3, 25), "Duri": (4, 16)}
    # a place past the table: 0
    assert by_name(season_ranking(CUPS, SeasonRule("places", places=(10,))))["Duri"] == (4, 0)


standings = st.lists(st.tuples(st.sampled_from("ABCDEFGH"), st.integers(-200, 200)), min_size=1, max_size=8,
                     unique_by=lambda t: t[0])


def ranked(cup):
    """A cup's places from its points, level players sharing one (1, 1, 3), as engine/cup.py ranks."""
    return [(name, 1 + sum(p > points for _n, p in cup), points) for name, points in cup]


@given(st.lists(standings, min_size=1, max_size=5), st.lists(st.integers(0, 50), min_size=0, max_size=10))
def test_a_place_table_gives_points_by_place_and_ties_share(cups, places):
    cups = [ranked(c) for c in cups]
    lines = season_ranking(cups, SeasonRule("places", places=tuple(places)))
    got = {s.name: s for s in lines}
    for index, cup in enumerate(cups):
        for name, place, points in cup:
            result = next(c for c in got[name].cups if c.cup == index)
            # the place's points from the table, 0 past it; level players (one place) the same points
            assert result.value == (places[place - 1] if place <= len(places) else 0)
            assert all(next(c for c in got[other].cups if c.cup == index).value == result.value
                       for other, p, _ in cup if p == place)
    for s in lines:
        assert s.score == sum(c.value for c in s.cups)
        # a rank is one more than the players strictly ahead: level players share it
        assert s.rank == 1 + sum(Fraction(o.score) > Fraction(s.score) for o in lines)


@given(st.lists(standings, min_size=1, max_size=5), st.integers(1, 5))
def test_the_best_n_never_count_more_than_n_cups_nor_more_than_the_sum_of_the_best(cups, n):
    cups = [ranked(c) for c in cups]
    for s in season_ranking(cups, SeasonRule("best", n)):
        values = sorted((c.value for c in s.cups), reverse=True)
        assert len(s.counted) == min(n, len(values)) and s.score == sum(values[:n])


def test_the_default_table_is_the_issues_example():
    assert PLACES[:6] == (25, 20, 16, 13, 11, 10) and cup_points(6, PLACES) == 10 and cup_points(99, PLACES) == 0
