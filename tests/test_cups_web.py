"""A cup night's pages (issue 38): start a cup, draw, score at the round's tables, close, walk-ins and drops,
standings with ties, the watch link, the poll, and bad input (one sentence at the field, the input kept)."""
import html
import io
import json
import re

import pytest

from scorekeeper import store

CUP = {"name": "Dorfcup", "held_on": "2026-11-28", "game": "troccas", "rounds": "2", "games": "1", "seed": "5",
       "players": "Anna\nBeat\nCla\nDuri\nElsa\nFadri\nGion\nHanna",
       # Troccas's house rules as the form shows them, at the game's defaults (engine/games/troccas.py)
       "rules_for": "troccas", "rule_all_tricks_take_scart": "y", "rule_odd_pile": "reject"}


def start(client, **changes) -> str:
    r = client.post("/cups/new", data={**CUP, **changes})
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"]


def text(r) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.get_data(as_text=True))))


def cup_of(app, url):
    with app.app_context():
        return store.find_tournament(url.rsplit("/", 1)[-1])


def tables_of(app, cup, round_no):
    with app.app_context():
        return [t for t in store.cup_tables(cup.id) if t.round == round_no]


def troccas_hand(app, table, side_points):
    """The seats' first and third play against the second and fourth; the first's team made `side_points` (of 72):
    the team gets side_points − 36 each, the other team its negative (docs/rules.md §1)."""
    with app.app_context():
        players = list(store.get_table(table.table_id).players)
        store.add_hand(table.table_id, {"teams": [[players[0], players[2]], [players[1], players[3]]],
                                        "side": players[0], "points": side_points})


def ranks(client, url) -> dict[int, tuple[int, str]]:
    """{start number: (rank, total)} from the standings' rows."""
    page = client.get(url).get_data(as_text=True)
    rows = re.findall(r'<tr data-number="(\d+)">\s*<td class="n"[^>]*>(\d+)</td>'
                      r'.*?<td class="n total"[^>]*>([^<]+)</td>', page, re.S)
    return {int(n): (int(rank), total) for n, rank, total in rows}


def test_a_cup_night_from_the_draw_to_the_standings_with_a_tie(app, client):
    url = start(client)
    cup = cup_of(app, url)
    assert "No round drawn yet." in text(client.get(url))
    assert client.post(url + "/draw").status_code == 303
    one = tables_of(app, cup, 1)
    assert [len(t.seats) for t in one] == [4, 4] and sorted(n for t in one for n in t.seats) == list(range(1, 9))
    assert "0 of 2 tables in" in text(client.get(url))
    # the next round waits for this one
    r = client.post(url + "/draw")
    assert r.status_code == 409 and "Close the round being played first" in text(r)
    troccas_hand(app, one[0], 40)  # seats 1 and 3: 40 − 36 = +4 each; seats 2 and 4: −4
    page = text(client.get(url))
    assert "1 of 2 tables in" in page
    with app.app_context():
        seated = store.get_table(one[0].table_id).players
    # table 1's row: each seat with its points so far, in seat order
    assert (f"#{one[0].seats[0]} {seated[0]} +4 , #{one[0].seats[1]} {seated[1]} −4 , "
            f"#{one[0].seats[2]} {seated[2]} +4 , #{one[0].seats[3]} {seated[3]} −4 1 / 1 ✓") in page
    r = client.post(url + "/close", data={"round": "1"})  # table 2 isn't in
    assert r.status_code == 409 and "Not every table has its games in" in text(r)
    troccas_hand(app, one[1], 46)  # seats 1 and 3: 46 − 36 = +10 each; seats 2 and 4: −10
    assert "2 of 2 tables in" in text(client.get(url))
    got = ranks(client, url)
    a, b = one[0].seats, one[1].seats
    # +10, +10, +4, +4, −4, −4, −10, −10: levels share a rank, the next rank counts the players above (1, 1, 3)
    assert {n: got[n] for n in (b[0], b[2])} == {b[0]: (1, "+10"), b[2]: (1, "+10")}
    assert {got[a[0]], got[a[2]]} == {(3, "+4")}
    assert {got[a[1]], got[a[3]]} == {(5, "−4")}
    assert {got[b[1]], got[b[3]]} == {(7, "−10")}
    assert client.post(url + "/close", data={"round": "1"}).status_code == 303
    assert "The round is closed." in text(client.get(url))
    assert client.post(url + "/close", data={"round": "1"}).status_code == 303  # again: closed once, no harm
    # a walk-in and a drop change the next round
    assert client.post(url + "/players", data={"name": "Ines"}).status_code == 303
    assert client.post(url + "/players/4", data={"playing": "0"}).status_code == 303
    assert client.post(url + "/draw").status_code == 303
    two = tables_of(app, cup, 2)
    assert sorted(n for t in two for n in t.seats) == [1, 2, 3, 5, 6, 7, 8, 9]  # 4 dropped, Ines is 9
    troccas_hand(app, two[0], 36)  # 36 − 36 = 0 for all four
    page = text(client.get(url))
    assert "Round 2 of 2" in page and "1 of 2 tables in" in page and "(dropped out)" in page
    r = client.post(url + "/close", data={"round": "2", "end": "1"})  # the director ends table 2
    assert r.status_code == 303
    assert "All rounds are played." in text(client.get(url))
    # player 4 dropped after round 1: the total is round 1's alone; round 2's table 1 scored 0 for all four, so
    # the totals are round 1's for everyone, and the ranks too
    # +10 +10 (1, 1), +4 +4 (3, 3), Ines 0 (5), −4 −4 (6, 6), −10 −10 (8, 8)
    after = {"+10": 1, "+4": 3, "−4": 6, "−10": 8}
    assert ranks(client, url) == {n: (after[total], total) for n, (_rank, total) in got.items()} | {9: (5, "0")}


def test_the_watch_link_shows_the_cup_and_changes_nothing(app, client):
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    with app.app_context():
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
    page = text(client.get(watch))
    assert "watching: nothing can be changed here" in page and "Draw round" not in page
    for path, data in (("/draw", {}), ("/close", {"round": "1", "end": "1"}), ("/players", {"name": "X"})):
        assert client.post(watch + path, data=data).status_code == 403
    assert len(tables_of(app, cup, 1)) == 2 and cup_of(app, url).closed_rounds == 0


def test_the_poll_answers_304_until_a_table_saves_a_hand(app, client):
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    first = client.get(url + "/live")
    assert first.status_code == 200 and 'id="cup-board"' in first.get_data(as_text=True)
    assert client.get(url + "/live", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    troccas_hand(app, tables_of(app, cup, 1)[0], 40)
    again = client.get(url + "/live", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and "1 of 2 tables in" in text(again)


@pytest.mark.parametrize("field, value, sentence", [
    ("name", "", "Give the cup a name"),
    ("held_on", "28.11.", "Give the day of the cup"),
    ("game", "chess", "Choose the game every table plays"),
    ("rounds", "0", "The rounds are a whole number from 1 to 12"),
    ("games", "many", "The games per table and round are a whole number"),
    ("seed", "abc", "The seed is a whole number"),
    ("players", "Anna\nBeat\nanna", "“anna” is on the list twice"),
])
def test_a_bad_field_says_one_sentence_there_and_keeps_the_input(client, field, value, sentence):
    r = client.post("/cups/new", data={**CUP, field: value})
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert sentence in text(r)
    assert page.count('class="field-error"') == 1  # one sentence, at that field
    kept = {**CUP, field: value}
    assert f'value="{kept["name"]}"' in page and kept["players"] in page  # what was typed is kept


def test_a_count_the_game_cant_seat_says_what_would_work_instead_of_drawing(app, client):
    url = start(client, players="A\nB\nC\nD\nE\nF\nG\nH\nI")
    page = text(client.get(url))
    assert "Tables of 4 can't seat 9 players: 8 or 12 would work." in page and "Draw round 1" not in page
    r = client.post(url + "/draw")
    assert r.status_code == 409 and "8 or 12 would work" in text(r)
    assert tables_of(app, cup_of(app, url), 1) == []


def test_a_walk_in_with_a_name_taken_is_refused_at_the_field(client):
    url = start(client)
    r = client.post(url + "/players", data={"name": "beat"})
    assert r.status_code == 422 and "“beat” already plays in this cup" in text(r)
    assert 'value="beat"' in r.get_data(as_text=True)


def test_an_unknown_cup_is_a_404(client):
    assert client.get("/k/nosuchcupkeyatall123").status_code == 404


def test_a_tables_scorer_link_stops_at_the_rounds_games_and_when_the_round_is_closed(app, client):
    url = start(client)  # 1 game per table and round
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one, two = tables_of(app, cup, 1)
    with app.app_context():
        keys = store.share_links_of([one.table_id, two.table_id])
        players = store.get_table(one.table_id).players
    first = f"/t/{keys[one.table_id][store.SCORER]}/hands"
    hand = {"partner": players[2], "side": "first", "points": "40"}
    assert client.post(first, data={**hand, "token": "h1"}).status_code == 303
    r = client.post(first, data={**hand, "token": "h2"})
    assert r.status_code == 200 and "This round is played over 1 game per table, and this table has it" in text(r)
    assert 'value="40"' in r.get_data(as_text=True)  # the hand typed is kept
    client.post(url + "/close", data={"round": "1", "end": "1"})
    with app.app_context():
        players2 = store.get_table(two.table_id).players
    r = client.post(f"/t/{keys[two.table_id][store.SCORER]}/hands",
                    data={"partner": players2[2], "side": "first", "points": "40", "token": "h3"})
    assert "Round 1 of the cup is closed: this table takes no more hands." in text(r)
    with app.app_context():
        assert store.hands_in([one.table_id, two.table_id]) == {one.table_id: 1, two.table_id: 0}


def test_the_table_cards_give_each_table_its_players_by_seat_and_its_scorer_link_as_a_qr(app, client):
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    r = client.get(url + "/cards?round=1")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and page.count('class="table-card"') == 2
    with app.app_context():
        placed = tables_of(app, cup, 1)
        keys = store.share_links_of([t.table_id for t in placed])
        names = {e.number: e.name for e in store.entrants(cup.id)}
    for t in placed:
        assert f"/t/{keys[t.table_id][store.SCORER]}" in page
        seats = re.search(rf"Table {t.number}</h2>\s*<ol class=\"seats\">(.*?)</ol>", page, re.S).group(1)
        assert re.findall(r"<li>#(\d+) ", seats) == [str(n) for n in t.seats]
        assert all(names[n] in seats for n in t.seats)
    with app.app_context():
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
    # each card: its scorer QR and the cup's live page's QR, each labelled with what it opens
    assert page.count('src="data:image/svg+xml') == 4
    cards = re.findall(r'<article class="table-card">(.*?)</article>', page, re.S)
    for t, card in zip(placed, cards):
        scorer, live = re.findall(r"<figure (.*?)</figure>", card, re.S)
        assert "Score this table" in scorer and f"/t/{keys[t.table_id][store.SCORER]}" in scorer
        assert "The cup live: your table, the standings" in live and watch in live
    assert client.get(watch + "/cards").status_code == 403  # the cards hold the scorer links: the director's alone


def test_a_players_page_says_their_table_and_seat_each_round_and_their_rank(app, client):
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one = tables_of(app, cup, 1)[0]
    troccas_hand(app, one, 40)  # seats 1 and 3 +4, seats 2 and 4 −4; table 2 nothing yet: 0 for its four
    with app.app_context():
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
        names = {e.number: e.name for e in store.entrants(cup.id)}
    second = one.seats[1]  # seat 2: −4, below the two at +4 and the four at 0: rank 7 (6 players above)
    r = client.get(f"{watch}/p/{second}")
    page = text(r)
    assert r.status_code == 200 and "Rank 7 with −4 points" in page
    others = ", ".join(f"#{n} {names[n]}" for n in one.seats if n != second)
    assert f" 1 1 2 {others} −4 " in page  # round 1, table 1, seat 2, with the other three
    assert client.get(f"{watch}/p/99").status_code == 404


def setup_post(app, client, table, **changes):
    """Post the table's change form as its scorer's phone would: its names, stake and house rules as they are."""
    with app.app_context():
        info = store.get_table(table.table_id)
        key = store.share_links_of([table.table_id])[table.table_id][store.SCORER]
    data = {f"name{i}": p for i, p in enumerate(info.players)}
    data.update(stake=f"{info.stake // 100}.{info.stake % 100:02d}", version=str(info.version), token="change-1",
                rule_all_tricks_take_scart="y", rule_odd_pile="reject")
    data.update(changes)
    return client.post(f"/t/{key}/setup", data=data)


def test_a_name_corrected_at_a_cup_table_keeps_the_players_points(app, client):
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one = tables_of(app, cup, 1)[0]
    troccas_hand(app, one, 40)  # seats 1 and 3: +4, seats 2 and 4: −4 (docs/rules.md §1: 40 − 36)
    before = ranks(client, url)
    with app.app_context():
        first = store.get_table(one.table_id).players[0]
    assert setup_post(app, client, one, name0=first + "x").status_code == 303
    with app.app_context():
        assert store.get_table(one.table_id).players[0] == first + "x"
    assert ranks(client, url) == before  # the start number keeps its +4
    assert before[one.seats[0]] == (1, "+4")


def test_a_cup_tables_stake_and_house_rules_are_the_cups(app, client):
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one = tables_of(app, cup, 1)[0]
    r = setup_post(app, client, one, stake="0.50")
    assert r.status_code == 200 and "At a cup's table the stake is the cup's" in text(r)
    r = setup_post(app, client, one, rule_odd_pile="warn")
    assert "At a cup's table the house rules are the cup's" in text(r)
    r = setup_post(app, client, one, join="Zora")
    assert "At a cup's table the seats are the draw's" in text(r)
    with app.app_context():
        assert store.get_table(one.table_id).stake == 10 and len(store.get_table(one.table_id).players) == 4


def test_the_house_rules_the_director_sets_are_every_tables(app, client):
    url = start(client, rule_odd_pile="warn", rule_all_tricks_take_scart="")
    cup = cup_of(app, url)
    assert cup.rules == {"all_tricks_take_scart": False, "odd_pile": "warn"}
    client.post(url + "/draw")
    with app.app_context():
        assert all(store.get_table(t.table_id).rules == cup.rules for t in tables_of(app, cup, 1))


def test_a_post_that_showed_no_house_rules_takes_the_games_usual_ones(app, client):
    data = {k: v for k, v in CUP.items() if not k.startswith("rule")}
    url = client.post("/cups/new", data=data).headers["Location"]
    assert cup_of(app, url).rules == {"all_tricks_take_scart": True, "odd_pile": "reject"}  # troccas.py's defaults


def test_choosing_another_game_shows_its_house_rules_before_the_cup_starts(client):
    r = client.post("/cups/new", data={**CUP, "game": "koenigrufen"})  # the form showed Troccas's rules
    assert r.status_code == 422
    assert "These are the house rules of Königrufen: check them, then start the cup." in text(r)
    page = r.get_data(as_text=True)
    assert 'name="rule_kontra_in_scores"' in page and 'name="rules_for" value="koenigrufen"' in page
    shown = client.get("/cups/new?game=koenigrufen").get_data(as_text=True)
    assert 'name="rule_tarif"' in shown
    # the button beside the game shows its rules, the input kept, nothing checked yet
    r = client.post("/cups/new", data={**CUP, "game": "koenigrufen", "name": "", "show_rules": "1"})
    assert r.status_code == 200 and 'name="rule_tarif"' in r.get_data(as_text=True)
    assert 'class="field-error"' not in r.get_data(as_text=True) and CUP["players"] in r.get_data(as_text=True)


@pytest.mark.parametrize("changes, sentence", [
    ({"ranking": "best", "ranking_n": "3"}, "Count the best rounds: a whole number from 1 to the rounds (2)."),
    ({"ranking": "drop", "ranking_n": "2"}, "Drop a whole number of rounds, at least 1 and fewer than the rounds (2)."),
    ({"ranking": "money"}, "Money needs a rate: what a point is worth, e.g. 0.10."),
    ({"pot": "kontras"}, "Money needs a rate: what a point is worth, e.g. 0.10."),
    ({"rate": "ten"}, "0.10"),
    ({"ranking": "luck"}, "Choose how the cup ranks."),
])
def test_a_bad_ranking_says_one_sentence_and_keeps_the_input(client, changes, sentence):
    r = client.post("/cups/new", data={**CUP, **changes})
    assert r.status_code == 422 and sentence in text(r)
    assert r.get_data(as_text=True).count('class="field-error"') == 1


def test_a_cup_ranked_by_money_with_a_worst_round_dropped_shows_both(app, client):
    url = start(client, ranking="drop", ranking_n="1", rate="0.10", currency="CHF")
    cup = cup_of(app, url)
    assert (cup.ranking, cup.ranking_n, cup.rate, cup.currency) == ("drop", 1, 10, "CHF")
    client.post(url + "/draw")
    one = tables_of(app, cup, 1)
    troccas_hand(app, one[0], 40)  # seats 1, 3: +4; 2, 4: −4
    troccas_hand(app, one[1], 46)  # seats 1, 3: +10; 2, 4: −10
    client.post(url + "/close", data={"round": "1"})
    client.post(url + "/draw")
    two = tables_of(app, cup, 2)
    troccas_hand(app, two[0], 30)  # seats 1, 3: 30 − 36 = −6; 2, 4: +6
    troccas_hand(app, two[1], 36)  # 0 for all four
    page = text(client.get(url))
    assert "Ranked by the points of every round but the worst." in page
    got = ranks(client, url)  # the Points column: the sum; the rank: the rounds counted
    counted = re.findall(r'<tr data-number="(\d+)">.*?<td class="n score"[^>]*>([^<]+)</td>',
                         client.get(url).get_data(as_text=True), re.S)
    points = {}
    # by hand: each player's two rounds, the worse dropped
    r1 = {**{n: 4 for n in one[0].seats[0::2]}, **{n: -4 for n in one[0].seats[1::2]},
          **{n: 10 for n in one[1].seats[0::2]}, **{n: -10 for n in one[1].seats[1::2]}}
    r2 = {**{n: -6 for n in two[0].seats[0::2]}, **{n: 6 for n in two[0].seats[1::2]},
          **{n: 0 for n in two[1].seats}}
    for n in range(1, 9):
        points[n] = max(r1[n], r2[n])
        assert got[n][1] == f"{r1[n] + r2[n]:+d}".replace("-", "−").replace("+0", "0")
    assert {int(n): c for n, c in counted} == {n: f"{v:+d}".replace("-", "−").replace("+0", "0")
                                               for n, v in points.items()}
    # ranks by the counted points: 1 + the number of players with more
    assert {n: got[n][0] for n in got} == {n: 1 + sum(points[m] > points[n] for m in points) for n in points}


def test_a_closed_rounds_table_is_corrected_only_when_the_director_opens_it(app, client):
    url = start(client)  # 1 game per table and round
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one, two = tables_of(app, cup, 1)
    troccas_hand(app, one, 40)  # seats 1 and 3: +4 (docs/rules.md §1: 40 − 36)
    client.post(url + "/close", data={"round": "1", "end": "1"})  # table 2 ended with no hand
    with app.app_context():
        keys = store.share_links_of([one.table_id, two.table_id])
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
        players = store.get_table(one.table_id).players
    scorer = f"/t/{keys[one.table_id][store.SCORER]}"
    fixed = {"partner": players[2], "side": "first", "points": "50", "version": "1", "token": "fix-1"}
    r = client.post(scorer + "/hands/1", data=fixed)
    assert "Round 1 of the cup is closed: its hands are corrected only when the director opens this table" in text(r)
    client.post(scorer + "/undo")
    with app.app_context():
        assert store.hands_in([one.table_id]) == {one.table_id: 1}  # Undo refused too
    opening = {"open": "1", "round": "1", "number": "1"}
    assert client.post(watch + "/corrections", data=opening).status_code == 403  # the director's alone
    assert client.post(url + "/corrections", data={"open": "1", "round": "1", "number": "1"}).status_code == 303
    page = text(client.get(url))
    assert "Round 1, table 1 opened for a correction" in page
    assert client.post(scorer + "/hands/1", data=fixed).status_code == 303  # 50 − 36 = +14 now
    assert ranks(client, url)[one.seats[0]] == (1, "+14")
    client.post(scorer + "/undo")  # the correction is undone at the table, as any change
    assert ranks(client, url)[one.seats[0]] == (1, "+4")
    assert client.post(url + "/corrections", data={"open": "0", "round": "1", "number": "1"}).status_code == 303
    assert "Round 1, table 1 closed again" in text(client.get(url))
    assert "corrected only when the director opens" in text(client.post(scorer + "/hands/1", data=fixed))
    r = client.post(url + "/corrections", data={"open": "1", "round": "1", "number": "9"})
    assert r.status_code == 404 and "Round 1 has no table 9." in text(r)


def test_a_round_being_played_is_not_opened_for_a_correction(app, client):
    url = start(client)
    client.post(url + "/draw")
    r = client.post(url + "/corrections", data={"open": "1", "round": "1", "number": "1"})
    assert r.status_code == 409 and "Round 1 isn't closed" in text(r)


def test_a_fixed_table_is_honoured_by_the_next_draw(app, client):
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one = tables_of(app, cup, 1)
    at_one = one[0].seats[0]  # a player of table 1 in round 1, fixed to table 2 from round 2
    r = client.post(url + f"/players/{at_one}/table", data={"table": "zwei"})
    assert r.status_code == 422 and "A table number is a whole number from 1" in text(r)
    assert 'value="zwei"' in r.get_data(as_text=True)
    assert client.post(url + f"/players/{at_one}/table", data={"table": "2"}).status_code == 303
    assert "fixed to table 2" in text(client.get(url))
    assert at_one in tables_of(app, cup, 1)[0].seats  # the round being played is not changed
    client.post(url + "/close", data={"round": "1", "end": "1"})
    client.post(url + "/draw")
    assert at_one in tables_of(app, cup, 2)[1].seats
    assert sorted(n for t in tables_of(app, cup, 2) for n in t.seats) == list(range(1, 9))


def played_round_one(app, client):
    """A cup whose round 1 is played and closed: table 1 at 40 (seats 1, 3: +4; 2, 4: −4), table 2 at 46 (seats
    1, 3: +10; 2, 4: −10; docs/rules.md §1: the points less 36)."""
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one = tables_of(app, cup, 1)
    troccas_hand(app, one[0], 40)
    troccas_hand(app, one[1], 46)
    client.post(url + "/close", data={"round": "1"})
    with app.app_context():
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
        names = {e.number: e.name for e in store.entrants(cup.id)}
    return url, watch, cup, one, names


def test_the_projector_shows_the_standings_large_and_follows_the_poll(app, client):
    app.config["CUP_POLL_FRESH"] = 0  # every poll sees the latest change (the kept board's window: test above)
    url, watch, cup, one, names = played_round_one(app, client)
    r = client.get(watch + "/projector")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="cup-projector"' in page and "The round is closed." in text(r)
    assert dict(re.findall(r'<div id="(live)"[^>]*?hx-select-oob="([^"]+)"', page, re.S)) == {
        "live": "#cup-projector,#live"}
    assert f"/k/{watch.rsplit('/', 1)[1]}" in page and "Draw round" not in page  # the watch link's QR, no buttons
    rows = re.findall(r'<tr data-number="(\d+)">\s*<td class="n">(\d+)</td>', page)
    assert [int(n) for n, rank in rows[:2]] == sorted(one[1].seats[0::2])  # +10 +10 first, level: by number
    first = client.get(watch + "/projector/live")
    assert first.status_code == 200 and 'id="cup-projector"' in first.get_data(as_text=True)
    assert client.get(watch + "/projector/live", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    client.post(url + "/players", data={"name": "Ines"})
    assert "Ines" in text(client.get(watch + "/projector/live", headers={"If-None-Match": first.headers["ETag"]}))


def test_the_printouts_carry_the_cup_its_day_and_the_qr_of_its_live_page(app, client):
    url, watch, cup, one, names = played_round_one(app, client)
    key = watch.rsplit("/", 1)[1]
    for what in ("seating?round=1", "slips", "results?round=1", "results"):
        r = client.get(f"{watch}/print/{what}")
        page = r.get_data(as_text=True)
        assert r.status_code == 200 and "Dorfcup" in page and "November 28, 2026" in text(r), what
        assert page.count('class="qr"') == page.count('class="print-head"') >= 1, what
    seating = text(client.get(f"{watch}/print/seating?round=1"))
    assert "Seating plan, round 1, by table" in seating and "Seating plan, round 1, by name" in seating
    # by name: A–Z, each with their table and seat
    by_name = sorted((names[n], n, t.number, t.seats.index(n) + 1) for t in one for n in t.seats)
    assert " ".join(f"{name} (#{n}) {table} {seat}" for name, n, table, seat in by_name) in seating
    slips = client.get(f"{watch}/print/slips").get_data(as_text=True)
    assert slips.count('class="print-slip"') == 8 and "Slip of #1 Anna" in html.unescape(slips)
    results = text(client.get(f"{watch}/print/results?round=1"))
    assert "Results of round 1" in results
    assert text(client.get(f"{watch}/print/results")).count("Standings after round 1") == 1
    assert client.get(f"{watch}/print/nothing").status_code == 404
    assert f"/k/{key}" in client.get(f"{watch}/print/slips").get_data(as_text=True)


def test_the_standings_csv_has_each_players_line_by_start_number(app, client):
    url, watch, cup, one, names = played_round_one(app, client)
    r = client.get(watch + "/standings.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = [line.split(",") for line in r.get_data(as_text=True).lstrip("\ufeff").splitlines()]
    assert rows[0] == ["Rank", "Start number", "Player", "Round 1", "Points", "dropped out"]
    got = {int(row[1]): (int(row[0]), row[2], row[3], row[4]) for row in rows[1:]}
    # round 1 (played_round_one): table 2's seats 1, 3 at +10 share rank 1; table 1's seats 1, 3 at +4 rank 3
    for n in one[1].seats[0::2]:
        assert got[n] == (1, names[n], "10", "10")
    for n in one[0].seats[0::2]:
        assert got[n] == (3, names[n], "4", "4")


def test_a_cup_exported_and_imported_comes_back_whole_under_new_links(app, client):
    url, watch, cup, one, names = played_round_one(app, client)
    client.post(url + "/corrections", data={"open": "1", "round": "1", "number": "2"})
    client.post(url + "/players/3/table", data={"table": "2"})
    client.post(url + "/players/4", data={"playing": "0"})
    client.post(url + "/players", data={"name": "Ines"})  # 9: eight play on
    before = ranks(client, url)
    client.post(url + "/watch", data={})  # the money kept from the watch link: the director's link exports it
    data = client.get(url + "/export.json").get_json()
    assert data["watch"] == {"money": False}
    r = client.post("/cups/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "cup.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    again = r.headers["Location"]
    assert again != url and ranks(client, again) == before
    copy = cup_of(app, again)
    assert (copy.name, copy.closed_rounds, copy.rules, copy.seed) == ("Dorfcup", 1, cup.rules, cup.seed)
    assert copy.watch_money is False
    with app.app_context():
        assert [(e.number, e.active, e.fixed_table) for e in store.entrants(copy.id)][2:4] == [(3, True, 2),
                                                                                               (4, False, None)]
        placed = store.cup_tables(copy.id)
        assert [(t.round, t.number, t.seats, t.reopened) for t in placed] == [(1, 1, one[0].seats, False),
                                                                            (1, 2, one[1].seats, True)]
        assert {t.table_id for t in placed}.isdisjoint({t.table_id for t in one})  # new tables, new links
        assert [k for k, *_rest in store.cup_log(copy.id)] == ["reopen"]
    assert client.post(again + "/draw").status_code == 303  # the copy goes on: round 2, 3 at table 2, 4 out
    two = tables_of(app, copy, 2)
    assert 3 in two[1].seats and sorted(n for t in two for n in t.seats) == [1, 2, 3, 5, 6, 7, 8, 9]


def export_of(app, client) -> dict:
    url, watch, cup, one, names = played_round_one(app, client)
    return client.get(watch + "/export.json").get_json()


def hostile(data, path, value):
    """`data` with the part at `path` (keys and indexes) set to `value`."""
    out = json.loads(json.dumps(data))
    where = out
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return out


@pytest.mark.parametrize("path, value, sentence", [
    (("format",), "scorekeeper.table", "This is not a cup exported from Scorekeeper."),
    (("name",), "\u202e" * 3, "The cup's name in the file is missing or not valid."),
    (("held_on",), [2026], "The cup's day in the file is not valid."),
    (("game",), "chess", "The file names a game this app doesn't know."),
    (("rules", "odd_pile"), "always", "The cup's house rules in the file are not valid."),
    (("rounds",), 13, "The cup's rounds, games per round, seed or rounds closed in the file are not valid."),
    (("closed_rounds",), 2, "The cup's rounds, games per round, seed or rounds closed in the file are not valid."),
    (("seed",), -5, "The cup's rounds, games per round, seed or rounds closed in the file are not valid."),
    (("ranking", "rule"), "money", "The cup's ranking in the file is not valid."),  # money with no rate
    (("players", 1, "name"), "anna", "Player #2: “anna” is on the list twice"),
    (("players", 1, "number"), 1, "A player in the file is not valid."),
    (("tables", 0, "seats", 0), 99, "Round 1, table 1: its seats name a start number that is no player of the cup."),
    (("tables", 1, "seats", 0), "x", "Round 1, table 2: its seats name a start number"),
    (("tables", 1, "round"), [1], "The cup's tables in the file are not valid."),
    (("tables", 1, "number"), 3, "The cup's tables in the file are not valid."),
    (("tables", 0, "games"), "many", "Round 1, table 1: its games in the round are not valid."),
    (("tables", 0, "table", "stake"), 500, "Round 1, table 1: its game, house rules or stake are not the cup's."),
    (("tables", 0, "table", "game"), "koenigrufen", "Round 1, table 1: Königrufen has no house rule"),
    (("log",), [{"kind": "reopen", "round": 1, "number": 7, "at": "2026-11-28T20:00:00"}],
     "The cup's corrections' log in the file is not valid."),
    (("watch", "money"), "no", "The cup's watch settings in the file are not valid."),
])
def test_a_hostile_cup_file_is_refused_with_one_sentence_and_nothing_stored(app, client, path, value, sentence):
    data = export_of(app, client)
    if path[0] == "players" and path[-1] == "name":
        data["players"][0]["name"] = "Anna"
    with app.app_context():
        from sqlalchemy import func, select
        from scorekeeper.store.schema import tables, tournaments
        with store.db.engine().connect() as conn:
            counts = [conn.execute(select(func.count()).select_from(t)).scalar() for t in (tournaments, tables)]
    r = client.post("/cups/import", data={"file": (io.BytesIO(json.dumps(hostile(data, path, value)).encode()),
                                                    "cup.json")}, content_type="multipart/form-data")
    assert r.status_code == 400 and sentence in text(r)
    with app.app_context():
        with store.db.engine().connect() as conn:
            assert [conn.execute(select(func.count()).select_from(t)).scalar() for t in (tournaments, tables)] == counts


def test_a_cup_file_with_a_table_over_the_rounds_games_is_refused(app, client):
    data = export_of(app, client)
    hands = data["tables"][0]["table"]["hands"]
    extra = json.loads(json.dumps(hands[0]))
    extra["number"] = hands[0]["number"] + 1
    hands.append(extra)
    r = client.post("/cups/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "cup.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 400 and "Round 1, table 1: it holds more hands than the round's games." in text(r)


def test_a_watch_links_poll_is_kept_per_tag_and_follows_each_save(app, client):
    """The room's phones ask for the same board after each Save: it is rendered once per tag (web/cup/cups.py
    answer_poll), and a Save at any table gives a new tag and a new board."""
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    with app.app_context():
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
    app.config["CUP_POLL_FRESH"] = 3600  # a kept board is served however long ago it was made
    first = client.get(watch + "/live")
    assert client.get(watch + "/live").get_data() == first.get_data()  # the kept answer
    assert "0 of 2 tables in" in text(first)
    troccas_hand(app, tables_of(app, cup, 1)[1], 40)
    # within the window the kept board stands, under its own tag: the phone showing it hears nothing new yet
    assert client.get(watch + "/live", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    app.config["CUP_POLL_FRESH"] = 0  # the window past: the next poll brings the Save
    again = client.get(watch + "/live", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and "1 of 2 tables in" in text(again)
    projector = client.get(watch + "/projector/live")
    assert "1 of 2 tables in" in text(projector) and 'id="cup-projector"' in projector.get_data(as_text=True)
    assert 'name="csrf_token"' not in again.get_data(as_text=True)


def test_a_tables_own_page_says_when_its_round_is_closed_before_a_save_is_refused(app, client):
    url = start(client)
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one = tables_of(app, cup, 1)[0]
    with app.app_context():
        page = f"/t/{store.share_links_of([one.table_id])[one.table_id][store.SCORER]}"
    said = "Round 1 of the cup is closed: this table takes no more hands. Ask the director if a hand is missing."
    first = client.get(page)
    assert said not in text(first)
    client.post(url + "/close", data={"round": "1", "end": "1"})
    # the phone asks with the tag of the page it kept while the round was open: the page is made anew, saying so
    r = client.get(page, headers={"If-None-Match": first.headers["ETag"]})
    assert r.status_code == 200 and said in text(r)
    client.post(url + "/corrections", data={"round": "1", "number": "1", "open": "1"})
    assert said not in text(client.get(page))  # opened for a correction: it takes hands again


def test_the_director_keeps_the_money_from_the_watch_link(app, client):
    app.config["CUP_POLL_FRESH"] = 0  # every poll sees the latest change
    url = start(client, ranking="money", rate="0.10", currency="CHF")
    cup = cup_of(app, url)
    client.post(url + "/draw")
    one = tables_of(app, cup, 1)
    troccas_hand(app, one[0], 40)  # seats 1, 3: +4 points; 2, 4: −4 (docs/rules.md §1: the points less 36)
    troccas_hand(app, one[1], 46)  # seats 1, 3: +10; 2, 4: −10
    client.post(url + "/close", data={"round": "1"})
    with app.app_context():
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
    top = one[1].seats[0]  # +10 points, at 10 cents a point: CHF 1.00, the most money
    money_cells = re.compile(r'<td class="n money"')
    assert len(money_cells.findall(client.get(watch).get_data(as_text=True))) == 8  # shown, as cups made before
    assert client.post(watch + "/watch", data={}).status_code == 403  # the watch link decides nothing
    assert client.post(url + "/watch", data={}).status_code == 303  # the box left empty: the money kept back
    assert not cup_of(app, url).watch_money
    assert 'name="money" value="y">' in client.get(url).get_data(as_text=True)  # the director's box, unticked
    assert len(money_cells.findall(client.get(url).get_data(as_text=True))) == 8  # the director still sees it
    for page in (client.get(watch), client.get(watch + "/live"), client.get(watch + "/print/results")):
        assert page.status_code == 200 and not money_cells.search(page.get_data(as_text=True))
        assert "CHF" not in text(page) and "1.00" not in text(page)
    projector = client.get(watch + "/projector").get_data(as_text=True)
    # the rank stays the money's; the projector's column is the points instead
    row = re.search(rf'<tr data-number="{top}">.*?<td class="n total">([^<]+)</td>', projector, re.S).group(1)
    assert row.strip() == "+10" and "CHF" not in projector
    assert "CHF" not in client.get(watch + "/standings.csv").get_data(as_text=True)
    assert "CHF" in client.get(url + "/standings.csv").get_data(as_text=True)
    r = client.get(watch + "/export.json")
    assert r.status_code == 403 and "This cup keeps its money from the watch link" in text(r)
    assert client.post(url + "/watch", data={"money": "y"}).status_code == 303
    assert len(money_cells.findall(client.get(watch + "/live").get_data(as_text=True))) == 8
    assert client.get(watch + "/export.json").status_code == 200


def test_a_cups_entry_fee_goes_to_its_pot_beside_the_kontras(app, client):
    """The entry fee (Startgeld): each player seated in a round pays it into the pot; the pot's total shows with
    the standings and on the projector, where the money shows; bad input refused at its field, the input kept."""
    r = client.post("/cups/new", data={**CUP, "entry_fee": "ten"})
    assert r.status_code == 422 and "Write an amount" in text(r) and 'value="ten"' in r.get_data(as_text=True)
    r = client.post("/cups/new", data={**CUP, "entry_fee": "1000.01"})
    assert r.status_code == 422 and "An entry fee is at most €1,000.00." in text(r)
    url = start(client, entry_fee="10", currency="CHF")
    cup = cup_of(app, url)
    assert cup.entry_fee == 1000
    # no round drawn: nobody has paid yet
    assert "The entry fee goes to the pot: CHF 10.00 a player, 0 Rappen so far." in text(client.get(url))
    client.post(url + "/draw")
    # 8 players seated in round 1, CHF 10.00 each: CHF 80.00
    assert "The entry fee goes to the pot: CHF 10.00 a player, CHF 80.00 so far." in text(client.get(url))
    with app.app_context():
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
    assert "CHF 10.00 a player, CHF 80.00 so far." in text(client.get(watch + "/projector"))
    # a walk-in pays from the round they play in; a drop has paid for the round played: Hanna (8) drops, Ines (9)
    # walks in, round 2 seats 8 again: 9 players have played, CHF 90.00
    client.post(url + "/players", data={"name": "Ines"})
    client.post(url + "/players/8", data={"playing": "0"})
    client.post(url + "/close", data={"round": "1", "end": "1"})
    assert client.post(url + "/draw").status_code == 303
    assert "CHF 10.00 a player, CHF 90.00 so far." in text(client.get(url))
    # the watch link kept from the money shows no pot
    client.post(url + "/watch", data={})
    assert "so far." not in text(client.get(watch)) and "so far." not in text(client.get(watch + "/projector"))
    # the file carries the fee
    data = client.get(url + "/export.json").get_json()
    assert data["ranking"]["entry_fee"] == 1000
    data["ranking"]["entry_fee"] = -5
    r = client.post("/cups/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "c.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 400 and "The cup's ranking in the file is not valid." in text(r)
