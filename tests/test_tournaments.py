"""Cup nights in the store (issue 38): a tournament's players, rounds drawn as real tables, closing a round once,
standings; two phones at once on both databases."""
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timedelta, timezone
from itertools import combinations

import pytest

from scorekeeper import store
from scorekeeper.engine.draw import draw
from scorekeeper.engine.errors import CantSeat
from scorekeeper.engine.games import get_game, resolve_rules
from tests.at_once import two_phones

NAMES = [f"P{i}" for i in range(1, 17)]


def in_threads(app, n, work) -> list:
    """Run `work` on n threads at once, each in the app's context (n phones at the same moment)."""
    def run(_i):
        with app.app_context():
            try:
                return work()
            except Exception as e:  # noqa: BLE001 - the test looks at what each phone got
                return e
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(run, range(n)))


def new_cup(players=NAMES, rounds=5, games=2, seed=38):
    key = store.create_tournament("Dorfcup", date(2026, 11, 28), "troccas", resolve_rules(get_game("troccas"), None),
                                  rounds, games, seed, list(players))
    return store.find_tournament(key)


def test_a_cup_is_made_with_a_director_link_and_a_watch_link_and_numbers_1_to_n(db_app):
    cup = new_cup()
    assert cup.role == store.SCORER and cup.closed_rounds == 0
    keys = store.share_links(cup.id, store.TOURNAMENT)
    assert store.find_tournament(keys[store.VIEWER]).role == store.VIEWER
    assert [(e.number, e.name) for e in store.entrants(cup.id)] == list(enumerate(NAMES, 1))


def test_the_rounds_drawn_are_the_command_lines_draw_and_real_tables(db_app):
    cup = new_cup()
    ahead = draw(16, 5, range(4, 5), 38)  # what `python -m scorekeeper draw --game troccas --players 16 --rounds 5
    # --seed 38` prints
    for r in range(1, 6):
        assert store.draw_next_round(cup.id) == r
        mine = [t for t in store.cup_tables(cup.id) if t.round == r]
        assert [t.seats for t in mine] == [tuple(s) for s in ahead.rounds[r - 1]]
        for t in mine:
            assert store.get_table(t.table_id).players == tuple(NAMES[n - 1] for n in t.seats)
        assert store.close_round(cup.id, r, end_unfinished=True)
    pairs = [p for t in store.cup_tables(cup.id) for p in combinations(sorted(t.seats), 2)]
    assert len(pairs) == len(set(pairs)) == 120  # nobody met anyone twice: 5 × 4 × 6 = C(16, 2)
    with pytest.raises(store.RoundOpen):
        store.draw_next_round(cup.id)  # all 5 rounds drawn


def test_the_next_round_waits_for_the_round_to_close(db_app):
    cup = new_cup(games=1)
    store.draw_next_round(cup.id)
    with pytest.raises(store.RoundOpen):
        store.draw_next_round(cup.id)
    with pytest.raises(store.RoundOpen):
        store.close_round(cup.id, 1)  # no table has its game in
    assert store.close_round(cup.id, 1, end_unfinished=True)
    assert not store.close_round(cup.id, 1, end_unfinished=True)  # closed once
    assert store.draw_next_round(cup.id) == 2


def test_walk_ins_get_new_numbers_and_drops_keep_theirs(db_app):
    cup = new_cup(players=NAMES[:8])
    store.draw_next_round(cup.id)
    store.set_playing(cup.id, 3, False)
    assert store.add_entrant(cup.id, "Zita") == 9
    store.set_playing(cup.id, 9, False)
    assert store.add_entrant(cup.id, "Yves") == 10  # 9 is Zita's still, though she dropped
    with pytest.raises(store.NameTaken):
        store.add_entrant(cup.id, "p1")
    store.close_round(cup.id, 1, end_unfinished=True)
    store.draw_next_round(cup.id)
    seated = sorted(n for t in store.cup_tables(cup.id) if t.round == 2 for n in t.seats)
    assert seated == [1, 2, 4, 5, 6, 7, 8, 10]  # 3 and 9 dropped, 10 walked in


def test_a_count_the_tables_cant_seat_draws_nothing(db_app):
    cup = new_cup(players=NAMES[:9])
    with pytest.raises(CantSeat) as e:
        store.draw_next_round(cup.id)
    assert "8 or 12 would work" in e.value.message
    assert store.cup_tables(cup.id) == []


def test_two_phones_closing_a_round_at_once_close_it_once(db_app):
    cup = new_cup(games=1)
    store.draw_next_round(cup.id)
    got = in_threads(db_app, 4, lambda: store.close_round(cup.id, 1, end_unfinished=True))
    assert sorted(got) == [False, False, False, True]
    assert store.get_tournament(cup.id).closed_rounds == 1


def test_two_phones_drawing_the_next_round_at_once_draw_it_once(db_app):
    cup = new_cup()
    got = in_threads(db_app, 3, lambda: store.draw_next_round(cup.id))
    assert sorted(g for g in got if isinstance(g, int)) == [1]
    assert sum(isinstance(g, store.RoundOpen) for g in got) == 2
    assert len(store.cup_tables(cup.id)) == 4


def test_walk_ins_at_once_get_different_numbers(db_app):
    cup = new_cup(players=NAMES[:4])
    names = iter(["W1", "W2", "W3", "W4"])
    got = in_threads(db_app, 4, lambda: store.add_entrant(cup.id, next(names)))
    assert sorted(got) == [5, 6, 7, 8]


def hand_at(table_id):
    players = list(store.get_table(table_id).players)
    return {"teams": [[players[0], players[2]], [players[1], players[3]]], "side": players[0], "points": 40}


def test_a_cup_table_takes_the_rounds_games_and_none_after_the_round_closes(db_app):
    cup = new_cup(games=2)
    store.draw_next_round(cup.id)
    one, two = store.cup_tables(cup.id)[:2]
    store.save_hand(one.table_id, hand_at(one.table_id))
    store.save_hand(one.table_id, hand_at(one.table_id))
    with pytest.raises(store.RoundFull) as e:
        store.save_hand(one.table_id, hand_at(one.table_id))
    assert e.value.games == 2
    store.close_round(cup.id, 1, end_unfinished=True)
    with pytest.raises(store.RoundClosed):
        store.save_hand(two.table_id, hand_at(two.table_id))
    assert store.hands_in([one.table_id, two.table_id]) == {one.table_id: 2, two.table_id: 0}


def test_a_save_and_the_round_closing_at_once_agree(db_app):
    """Three tables save their last hand while the director ends the round: each hand is either in before the
    close (and counted) or refused after it; never saved into a closed round."""
    cup = new_cup(games=1)
    store.draw_next_round(cup.id)
    placed = store.cup_tables(cup.id)
    jobs = [lambda t=t: store.save_hand(t.table_id, hand_at(t.table_id)) for t in placed[:3]]
    jobs.append(lambda: store.close_round(cup.id, 1, end_unfinished=True))
    with ThreadPoolExecutor(len(jobs)) as pool:
        def run(job):
            with db_app.app_context():
                try:
                    return job()
                except store.RoundClosed as e:
                    return e
        got = list(pool.map(run, jobs))
    assert got[-1] is True
    counts = store.hands_in([t.table_id for t in placed[:3]])
    for t, answer in zip(placed[:3], got):
        assert counts[t.table_id] == (0 if isinstance(answer, store.RoundClosed) else 1)


def test_two_phones_dropping_and_adding_at_once_keep_every_number_once(db_app):
    """The director on the laptop drops player 2 while a phone adds a walk-in and another drops player 3: each
    change is made once, and the walk-in takes the next number."""
    cup = new_cup(players=NAMES[:8])
    jobs = [lambda: store.set_playing(cup.id, 2, False), lambda: store.add_entrant(cup.id, "Walk"),
            lambda: store.set_playing(cup.id, 3, False)]
    with ThreadPoolExecutor(len(jobs)) as pool:
        def run(job):
            with db_app.app_context():
                return job()
        got = list(pool.map(run, jobs))
    assert got[1] == 9
    assert [(e.number, e.active) for e in store.entrants(cup.id)] == [
        (1, True), (2, False), (3, False), (4, True), (5, True), (6, True), (7, True), (8, True), (9, True)]
    assert store.get_tournament(cup.id).version == 3  # three changes, each moved the cup on once


def test_two_phones_opening_a_table_for_a_correction_at_once_open_it_once(db_app):
    """The director's laptop and phone both open table 1 of the closed round 1: it is opened once, logged once;
    then both close it again: closed once."""
    cup = new_cup(games=1)
    store.draw_next_round(cup.id)
    store.close_round(cup.id, 1, end_unfinished=True)
    got = in_threads(db_app, 2, lambda: store.reopen_table(cup.id, 1, 1))
    assert sorted(got) == [False, True]
    got = in_threads(db_app, 2, lambda: store.reopen_table(cup.id, 1, 1, reopen=False))
    assert sorted(got) == [False, True]
    assert [(k, r, n) for k, r, n, _at in store.cup_log(cup.id)] == [("close", 1, 1), ("reopen", 1, 1)]


def test_a_save_at_a_table_and_its_opening_for_a_correction_at_once_agree(db_app):
    """A phone at table 1 saves its missing hand while the director opens the table: the hand is refused (round
    closed) if it came first, or saved (the table open) if it came after; never lost half-way."""
    cup = new_cup(games=1)
    store.draw_next_round(cup.id)
    store.close_round(cup.id, 1, end_unfinished=True)
    one = store.cup_tables(cup.id)[0]
    out = two_phones(db_app, lambda: store.save_hand(one.table_id, hand_at(one.table_id)),
                     lambda: store.reopen_table(cup.id, 1, 1), hold=("UPDATE tables",))
    saved = 0 if isinstance(out[0], store.RoundClosed) else 1
    assert out[1] is True and store.hands_in([one.table_id]) == {one.table_id: saved}


def test_two_phones_fixing_tables_at_once_keep_both(db_app):
    cup = new_cup(players=NAMES[:8])
    out = two_phones(db_app, lambda: store.set_fixed_table(cup.id, 1, 2), lambda: store.set_fixed_table(cup.id, 5, 1),
                     hold=("UPDATE tournament_players",))
    assert out == [None, None]
    assert {e.number: e.fixed_table for e in store.entrants(cup.id) if e.fixed_table} == {1: 2, 5: 1}
    assert store.get_tournament(cup.id).version == 2


def test_two_phones_choosing_what_the_watch_link_shows_at_once_leave_one_choice(db_app):
    cup = new_cup(players=NAMES[:8])
    out = two_phones(db_app, lambda: store.set_cup_watch(cup.id, False), lambda: store.set_cup_watch(cup.id, True),
                     hold=("UPDATE tournaments SET watch_money",))
    assert out == [None, None]
    # one after the other under the cup's lock: the second phone's choice stands, and the version moved twice (every
    # watcher's kept board is made again after each)
    assert store.get_tournament(cup.id).version == 2
    store.set_cup_watch(cup.id, False)
    assert store.get_tournament(cup.id).watch_money is False and store.get_tournament(cup.id).version == 3


def test_a_fixed_table_seats_the_player_there_from_the_next_round(db_app):
    cup = new_cup()
    store.set_fixed_table(cup.id, 16, 1)
    store.set_fixed_table(cup.id, 3, 4)
    for r in (1, 2, 3):
        store.draw_next_round(cup.id)
        mine = [t for t in store.cup_tables(cup.id) if t.round == r]
        assert 16 in mine[0].seats and 3 in mine[3].seats
        assert sorted(n for t in mine for n in t.seats) == list(range(1, 17))
        store.close_round(cup.id, r, end_unfinished=True)


def test_a_table_of_another_size_plays_its_own_count_of_games(db_app):
    """Games per round are given for tables of the usual size (4) and scale with a table's size, so that each player
    deals as often (the Tarockcups: 16 at 4, 20 at 5): here 1 at 4 is 1 × 5 ÷ 4 = 1.25, rounded up: 2 at 5."""
    key = store.create_tournament("Tarockcup", date(2026, 11, 28), "koenigrufen",
                                  resolve_rules(get_game("koenigrufen"), None), 2, 1, 38, NAMES[:9])
    cup = store.find_tournament(key)
    store.draw_next_round(cup.id)
    five, four = store.cup_tables(cup.id)  # 9 players at Königrufen's tables of 4 and 5: one of each, 5 first
    assert (len(five.seats), five.games, len(four.seats), four.games) == (5, 2, 4, 1)

    def rufer(table_id):
        p = store.get_table(table_id).players
        facts = {"contract": "rufer", "declarer": p[0], "partner": p[2], "game_won": True}
        return {**facts, "dealer": p[4]} if len(p) == 5 else facts  # at five the dealer sits the hand out
    store.save_hand(four.table_id, rufer(four.table_id))
    with pytest.raises(store.RoundFull):
        store.save_hand(four.table_id, rufer(four.table_id))
    store.save_hand(five.table_id, rufer(five.table_id))
    with pytest.raises(store.RoundOpen):
        store.close_round(cup.id, 1)  # the table of five has 1 of its 2
    store.save_hand(five.table_id, rufer(five.table_id))
    with pytest.raises(store.RoundFull) as e:
        store.save_hand(five.table_id, rufer(five.table_id))
    assert e.value.games == 2
    assert store.close_round(cup.id, 1)  # every table has its own count in


def test_games_at_a_size():
    from scorekeeper.engine.cup import games_at
    # games × size ÷ usual, rounded up:
    # 16 × 5 ÷ 4 = 20, 16 × 3 ÷ 4 = 12, 10 × 5 ÷ 4 = 12.5 → 13, 16 × 4 ÷ 4 = 16
    assert [games_at(16, 5, 4), games_at(16, 3, 4), games_at(10, 5, 4), games_at(16, 4, 4)] == [20, 12, 13, 16]


# ---- a cup over a season (issue 38 item 9) ----

def test_two_circles_taking_one_cup_at_once_leave_it_in_one(db_app):
    thursday = store.find_circle(store.create_circle("Thursday")).id
    friday = store.find_circle(store.create_circle("Friday")).id
    cup = new_cup(players=NAMES[:8])
    out = two_phones(db_app, lambda: store.join_cup(cup.id, thursday), lambda: store.join_cup(cup.id, friday),
                     hold=("UPDATE tournaments",))
    # a cup counts in one circle's season: the first that took it; the other circle is told
    refused = [o for o in out if o is not None]
    assert len(refused) == 1 and isinstance(refused[0], store.InAnotherCircle)
    now_in = store.get_tournament(cup.id).circle_id
    assert now_in == (friday if out[0] is not None else thursday)
    assert [c.id for c in store.circle_cups(now_in)] == [cup.id]
    assert store.join_cup(cup.id, now_in) is None  # again to the same circle: no harm


def test_two_phones_setting_a_circles_cup_rule_at_once_leave_one_whole_rule(db_app):
    circle_id = store.find_circle(store.create_circle("Krone")).id
    assert store.season_rule(circle_id).rule == "sum"  # until the circle sets one
    out = two_phones(db_app, lambda: store.set_season_rule(circle_id, "best", 3, (25, 20, 16)),
                     lambda: store.set_season_rule(circle_id, "places", 0, (10, 8, 6, 4)),
                     hold=("INSERT INTO circle_cup_rules",))
    # one after the other under the circle's lock: one whole rule stands (never a second row, never one's N with
    # the other's places)
    assert out == [None, None]
    assert store.season_rule(circle_id) in (store_rule("best", 3, (25, 20, 16)), store_rule("places", 0, (10, 8, 6, 4)))


def store_rule(rule, n, places):
    from scorekeeper.engine.season_cup import SeasonRule
    return SeasonRule(rule, n, places)


# ---- a round's clock (issue 38 item 1: "or a time limit the director closes") ----

def test_a_rounds_clock_starts_when_it_is_drawn_and_stops_when_it_is_closed(db_app):
    key = store.create_tournament("Dorfcup", date(2026, 11, 28), "troccas", resolve_rules(get_game("troccas"), None),
                                  3, 2, 38, NAMES[:8], round_minutes=45)
    cup = store.find_tournament(key)
    assert (cup.round_minutes, cup.round_ends_at) == (45, None)  # no round drawn: no clock
    before = datetime.now(timezone.utc)
    store.draw_next_round(cup.id)
    after = datetime.now(timezone.utc)
    ends = store.get_tournament(cup.id).round_ends_at
    # the cup's 45 minutes from the draw, in server time (UTC), on either database
    assert before + timedelta(minutes=45) <= ends <= after + timedelta(minutes=45) and ends.utcoffset() == timedelta(0)
    version = store.get_tournament(cup.id).version
    set_at = datetime.now(timezone.utc)
    given = store.set_round_clock(cup.id, 1, 10)  # the director: 10 minutes from now
    assert set_at + timedelta(minutes=10) <= store.get_tournament(cup.id).round_ends_at == given
    assert store.get_tournament(cup.id).version == version + 1  # every board shows the new end
    for round_no in (0, 2):  # not the round being played
        with pytest.raises(store.RoundOpen):
            store.set_round_clock(cup.id, round_no, 10)
    store.close_round(cup.id, 1, end_unfinished=True)
    assert store.get_tournament(cup.id).round_ends_at is None  # a closed round's clock is no more
    with pytest.raises(store.RoundOpen):
        store.set_round_clock(cup.id, 1, 10)
    store.draw_next_round(cup.id)  # the next round's clock: the cup's 45 minutes again, from its draw
    assert store.get_tournament(cup.id).round_ends_at >= after + timedelta(minutes=45)
    assert store.set_round_clock(cup.id, 2, 0) is None and store.get_tournament(cup.id).round_ends_at is None


def test_two_phones_setting_a_rounds_clock_at_once_leave_one_end(db_app):
    cup = new_cup(players=NAMES[:8])
    store.draw_next_round(cup.id)
    version = store.get_tournament(cup.id).version
    out = two_phones(db_app, lambda: store.set_round_clock(cup.id, 1, 5), lambda: store.set_round_clock(cup.id, 1, 50),
                     hold=("UPDATE tournaments SET round_ends_at",))
    # one after the other under the cup's lock: both set an end, the stored one is the later phone's, and the
    # version moved twice
    assert all(o is not None for o in out) and store.get_tournament(cup.id).round_ends_at in out
    assert store.get_tournament(cup.id).version == version + 2
