"""Circles (issue 26): the same players evening after evening, every evening found again through the circle's
link, the season's standings, and who owes whom over the season."""
from __future__ import annotations

import html
import io
import json
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import store
from scorekeeper.engine import season

TROCCAS = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
           "first_dealer": "0", "stake": "0.05", "currency": "CHF", "rule_all_tricks_take_scart": "y"}


# ---- the season, pure ----

def evening(n, units, money, game="troccas", currency="CHF", on=date(2026, 11, 5)):
    return season.Played(f"t{n}", game, on, currency, units, money)


def test_the_same_name_is_one_person_whatever_its_spaces_and_case():
    first = evening(1, {"Anna": 4, "Ben": -4}, {"Anna": 20, "Ben": -20})
    second = evening(2, {" anna ": -6, "Ben": 6}, {" anna ": -30, "Ben": 30}, on=date(2026, 11, 12))
    table = {s.name: s for s in season.standings([first, second])}
    # Anna: +4 then −6 = −2 units, 20 − 30 = −10 Rappen over 2 evenings; the latest spelling names her
    assert table[" anna "].evenings == 2 and table[" anna "].units["troccas"] == -2
    assert table[" anna "].money["CHF"] == -10 and table["Ben"].money["CHF"] == 10


def test_periods_keep_this_month_this_year_or_all():
    today = date(2026, 11, 26)
    evenings = [evening(1, {}, {}, on=date(2025, 12, 30)), evening(2, {}, {}, on=date(2026, 3, 1)),
                evening(3, {}, {}, on=date(2026, 11, 2))]
    assert [e.table_id for e in season.in_period(evenings, "month", today)] == ["t3"]
    assert [e.table_id for e in season.in_period(evenings, "year", today)] == ["t2", "t3"]
    assert len(season.in_period(evenings, "all", today)) == 3


names = st.sampled_from(["Anna", "Ben", "Cla", "Zoë", "Dumeng", "anna"])


@st.composite
def zero_sum_evening(draw, n):
    players = draw(st.lists(names, min_size=2, max_size=5, unique=True))
    amounts = [draw(st.integers(-500, 500)) for _ in players[1:]]
    money = dict(zip(players, [-sum(amounts), *amounts]))  # every evening's money sums to zero
    return evening(n, {p: m // 5 for p, m in money.items()}, money, currency=draw(st.sampled_from(["CHF", "EUR"])))


@given(st.lists(st.integers(0, 1000), min_size=1, max_size=12).flatmap(
    lambda ns: st.tuples(*[zero_sum_evening(i) for i in range(len(ns))])))
def test_the_season_settles_to_zero_in_each_currency(evenings):
    evenings = list(evenings)
    for currency in {e.currency for e in evenings}:
        balances = season.balances(evenings, currency)
        assert sum(balances.values()) == 0  # zero-sum evenings make a zero-sum season
        s = season.settlement(evenings, [], currency)  # nothing marked paid yet
        assert sum(r.rounded for r in s.balances) == 0
        paid = {}
        for t in s.transfers:
            paid[t.payer] = paid.get(t.payer, 0) - t.amount
            paid[t.payee] = paid.get(t.payee, 0) + t.amount
        assert all(paid.get(r.player, 0) == r.rounded for r in s.balances)  # the payments are the balances
        assert len(s.transfers) < max(2, len(balances))  # fewer payments than people


# ---- the web: a circle's evenings, standings and links ----

def new_circle(client, name="Thursdays at the Krone", **extra) -> str:
    r = client.post("/circles/new", data={"name": name, **extra})
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"]


def open_evening(client, circle_url) -> str:
    key = circle_url.rsplit("/", 1)[1]
    r = client.post(f"/tables/new/troccas?circle={key}", data=TROCCAS)
    assert r.status_code == 303
    return r.headers["Location"]


def hand(client, url, points, token):
    r = client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": str(points), "token": token})
    assert r.status_code == 303


def standings(page) -> dict:
    body = re.search(r'<section class="standings">(.*?)</section>', page, re.S).group(1)
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', body, re.S)
    return {name: re.findall(r'<td class="n[^"]*" data-label="[^"]*">([^<]*)</td>', cells) for name, cells in rows}


def test_a_circles_evenings_add_up_to_its_standings(client):
    circle = new_circle(client)
    first, second = open_evening(client, circle), open_evening(client, circle)
    hand(client, first, 40, "a1")  # Anna & Cla 40: 40 − 36 = +4 each, Ben and Zoë −4 (docs/rules.md §1)
    hand(client, first, 30, "a2")  # 30 − 36 = −6
    hand(client, second, 45, "b1")  # 45 − 36 = +9
    page = client.get(circle).get_data(as_text=True)
    assert "Thursdays at the Krone" in page and "2 evenings" in page
    # over both evenings: Anna and Cla +4 − 6 + 9 = +7 units, × 5 Rappen = +35 Rappen; Ben and Zoë −7, −35
    table = standings(page)
    assert table["Anna"] == ["2", "+7", "+CHF\xa00.35"] and table["Cla"] == ["2", "+7", "+CHF\xa00.35"]
    assert table["Ben"] == ["2", "−7", "−CHF\xa00.35"]
    # settling the season: the two losers pay the two winners 35 Rappen each, two payments
    settle = re.search(r'<section class="settle"[^>]*>(.*?)</section>', page, re.S).group(1)
    owed = re.search(r"<ol class=\"transfers\">(.*?)</ol>", settle, re.S).group(1)
    assert len(re.findall(r"<li>", owed)) == 2 and owed.count("35 Rappen") == 2
    # every evening is listed, newest first, and opens its table
    links = re.findall(r'<li><a class="button secondary wide" href="(/t/[^"]+)"[ >]', page)
    assert len(links) == 2
    assert client.get(links[0]).status_code == 200


def test_the_watch_link_sees_everything_and_changes_nothing(client):
    circle = new_circle(client)
    evening_url = open_evening(client, circle)
    hand(client, evening_url, 40, "w1")
    share = client.get(circle + "/share").get_data(as_text=True)
    watch = re.search(r'data-link="viewer">http://[^/<]+(/c/[^<]+)<', share).group(1)
    page = client.get(watch).get_data(as_text=True)
    assert "Open a new evening" not in page and "Add it to the circle" not in page
    assert standings(page)["Anna"] == ["1", "+4", "+CHF\xa00.20"]  # (40 − 36) × 5 Rappen
    assert re.findall(r'<li><a class="button secondary wide" href="(/[tv]/[^"]+)"[ >]', page)[0].startswith("/v/")
    assert client.post(watch + "/tables", data={"table": evening_url}).status_code == 403


def test_a_table_joins_by_its_scorer_link_and_a_watch_link_is_refused(client):
    circle = new_circle(client)
    r = client.post("/tables/new/troccas", data=TROCCAS)
    table = r.headers["Location"]
    share = client.get(table + "/share").get_data(as_text=True)
    viewer = re.search(r'data-link="viewer">(http://[^<]+)<', share).group(1)
    refused = client.post(circle + "/tables", data={"table": viewer})
    assert refused.status_code == 400 and "isn&#39;t a table&#39;s scorer link" in refused.get_data(as_text=True)
    assert f'value="{viewer}"' in refused.get_data(as_text=True)  # the link pasted is kept, at its field
    joined = client.post(circle + "/tables", data={"table": "http://localhost" + table})
    assert joined.status_code == 303
    assert "1 evening" in client.get(circle).get_data(as_text=True)
    # a table belongs to one circle: another circle can't take it
    other = new_circle(client, "Another")
    taken = client.post(other + "/tables", data={"table": "http://localhost" + table})
    assert taken.status_code == 400 and "already an evening of another circle" in taken.get_data(as_text=True)
    assert "1 evening" in client.get(circle).get_data(as_text=True) and "0 evenings" in client.get(other).get_data(
        as_text=True)


def test_a_circle_started_from_a_table_has_it_as_its_first_evening(client):
    table = client.post("/tables/new/troccas", data=TROCCAS).headers["Location"]
    assert "start a circle" in client.get(table).get_data(as_text=True)
    circle = new_circle(client, name="Family at Christmas", table=table.rsplit("/", 1)[1])
    assert "1 evening" in client.get(circle).get_data(as_text=True)


def test_a_new_scorer_link_turns_the_old_one_off(client):
    circle = new_circle(client)
    r = client.post(circle + "/share/scorer")
    assert r.status_code == 303
    new = r.headers["Location"].split("?")[0].rsplit("/share", 1)[0]
    assert client.get(circle).status_code == 410
    assert "scorer link was replaced" in client.get(circle).get_data(as_text=True)
    assert client.get(new).status_code == 200


def circle_routes(app) -> list:
    """Every route of a circle's key (<circle_id>): (rule, methods, endpoint), as web/circle/circles.py declares them."""
    return [(r.rule, sorted(r.methods - {"HEAD", "OPTIONS"}), r.endpoint) for r in app.url_map.iter_rules()
            if "circle_id" in r.arguments]


def test_every_circle_route_answers_a_watch_link_a_dead_link_and_no_link_the_one_way(app, client):
    """Access is the table's (web/access.py): a watch link may only GET the views marked to show the circle; every
    post, and any other view, is refused with the one viewer sentence (403); a turned-off scorer link gets the one
    sentence of a replaced link (410), whatever it asks; a key that opens nothing is a 404."""
    circle = new_circle(client)
    scorer = circle.rsplit("/", 1)[1]
    with app.app_context():
        watch = store.share_links(store.find_circle(scorer).id, store.CIRCLE)[store.VIEWER]
    dead = scorer
    live = client.post(circle + "/share/scorer").headers["Location"].split("?")[0].rsplit("/share", 1)[0]
    routes = circle_routes(app)
    assert len(routes) >= 15 and {e for _r, _m, e in routes} >= {"circles.show", "circles.live", "circles.pot",
                                                                  "circles.paid", "circles.rename_person"}
    looks = {"circles.show", "circles.live", "circles.share", "circles.all_evenings", "circles.export_json",
             "circles.export_csv"}  # what a watcher may open: each marked @viewer_ok, and GET alone
    assert {e for _r, methods, e in routes if methods == ["GET"]} == looks
    for rule, methods, endpoint in routes:
        for method in methods:
            ask = getattr(client, method.lower())
            r = ask(rule.replace("<circle_id>", watch))
            if method == "GET" and endpoint in looks:
                assert r.status_code in (200, 304), (rule, r.status_code)
            else:
                assert r.status_code == 403 and "This is a viewer link" in r.get_data(as_text=True), (rule, method)
                assert r.headers["X-Refused"]  # the phone's outbox shows the server's sentence
            r = ask(rule.replace("<circle_id>", dead))
            if endpoint == "circles.live":  # a poll stops (htmx's 286) with the same sentence in place of its line
                assert r.status_code == 286 and "scorer link was replaced" in r.get_data(as_text=True), rule
            else:
                assert r.status_code == 410 and "scorer link was replaced" in r.get_data(as_text=True), (rule, method)
            assert ask(rule.replace("<circle_id>", "no-such-key-at-all")).status_code == 404, (rule, method)
    assert client.get(live).status_code == 200  # the new scorer link works


def test_every_view_says_what_it_does(app):
    """Every view has a one-line docstring (flaskr's blog.py does): a new engineer reads the map from them."""
    missing = [name for name, view in app.view_functions.items()
               if name != "static" and not (view.__doc__ or "").strip()]
    assert not missing, missing


@pytest.mark.parametrize("name, message", [("", "Give the circle a name"), ("x" * 81, "at most 80 letters")])
def test_a_circle_needs_a_name_said_at_the_field_and_kept(client, name, message):
    r = client.post("/circles/new", data={"name": name})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and message in page and f'value="{name}"' in page


def test_an_unknown_circle_is_a_404(client):
    assert client.get("/c/no-such-circle-key").status_code == 404


def test_the_standings_of_this_year_leave_out_last_years_evening(app, client):
    circle = new_circle(client)
    this_year = open_evening(client, circle)
    hand(client, this_year, 40, "y1")  # +4 Anna
    with app.app_context():
        old = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0,
                                 created_at=datetime.now(timezone.utc) - timedelta(days=400))
        # the facts a Troccas hand is stored as: Anna & Cla 50 (docs/api.md)
        store.add_hand(old.id, {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 50})
        circle_id = store.find_circle(circle.rsplit("/", 1)[1]).id
        store.join_circle(old.id, circle_id)
    everything = standings(client.get(circle + "?period=all").get_data(as_text=True))
    this = standings(client.get(circle + "?period=year").get_data(as_text=True))
    # all time: 2 evenings, Anna +4 and +14 (50 − 36) = +18; this year only the first: +4
    assert everything["Anna"][:2] == ["2", "+18"]
    assert this["Anna"][:2] == ["1", "+4"]


def test_circles_are_stored_on_both_databases_and_a_table_keeps_its_hands(db_app):
    # db_app: a fresh database migrated to the newest revision, on SQLite and on PostgreSQL (0005 adds circles)
    key = store.create_circle("Club")
    circle = store.find_circle(key)
    assert (circle.name, circle.role, circle.active) == ("Club", store.SCORER, True)
    table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
    store.add_hand(table.id, {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 40})
    store.join_circle(table.id, circle.id)
    assert [t.id for t in store.circle_tables(circle.id)] == [table.id]
    assert store.circle_of(table.id) == circle.id and len(store.list_hands(table.id)) == 1
    viewer = store.share_links(circle.id, store.CIRCLE)[store.VIEWER]
    assert store.find_circle(viewer).role == store.VIEWER
    new = store.new_scorer_link(circle.id, store.CIRCLE)
    assert store.find_circle(key).active is False and store.find_circle(new).active is True


# ---- one person under two names ----

def seating(table, players, *hands):
    return season.Seating(table, tuple(players), tuple((i + 1, tuple(h)) for i, h in enumerate(hands)))


def test_a_rename_reaches_every_evening_and_every_spelling():
    played = [seating("t1", ["Ana", "Ben", "Cla"], ["Ana", "Ben", "Cla"]),
              seating("t2", ["ana ", "Ben", "Dario"], ["ana ", "Ben", "Dario"]),
              seating("t3", ["Ben", "Cla", "Dario"], ["Ben", "Cla", "Dario"])]
    plan = season.renaming(played, "Ana", "Anna")
    assert [(r.table_id, r.renames, r.players) for r in plan] == [
        ("t1", {"Ana": "Anna"}, ("Anna", "Ben", "Cla")), ("t2", {"ana ": "Anna"}, ("Anna", "Ben", "Dario"))]


def test_two_names_that_sat_at_one_hand_are_two_people():
    # Ana left after hand 1 and Anna joined at hand 2 of t1: one person, mergeable; in t2 both played hand 1
    fine = [seating("t1", ["Anna", "Ben", "Cla"], ["Ana", "Ben", "Cla"], ["Anna", "Ben", "Cla"])]
    assert [r.renames for r in season.renaming(fine, "Ana", "Anna")] == [{"Ana": "Anna"}]
    both = [*fine, seating("t2", ["Ana", "Anna", "Ben"], ["Ana", "Anna", "Ben"])]
    with pytest.raises(season.BothPlayed) as e:
        season.renaming(both, "Ana", "Anna")
    assert (e.value.table_id, e.value.names) == ("t2", ("Ana", "Anna"))


def test_renaming_in_the_circle_merges_two_spellings_and_their_standings(client):
    circle = new_circle(client)
    first = open_evening(client, circle)
    hand(client, first, 40, "m1")  # Anna & Cla +4, Ben & Zoë −4 (40 − 36, docs/rules.md §1)
    key = circle.rsplit("/", 1)[1]
    r = client.post(f"/tables/new/troccas?circle={key}", data={**TROCCAS, "players-0": "Anne"})  # a second spelling
    second = r.headers["Location"]
    hand(client, second, 45, "m2")  # Anne & Cla +9 (45 − 36)
    assert set(standings(client.get(circle).get_data(as_text=True))) == {"Anna", "Anne", "Ben", "Cla", "Zoë"}
    r = client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "merge-1", "confirm": "yes"})
    assert r.status_code == 303
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    table = standings(page)
    assert "Anne" not in table and table["Anna"] == ["2", "+13", "+CHF\xa00.65"]  # +4 + 9 units, × 5 Rappen
    assert "Anne and Anna are now one: Anna, in 1 evening." in html.unescape(page)  # the second evening only
    assert "Anna" in client.get(second).get_data(as_text=True) and "Anne" not in client.get(second).get_data(as_text=True)
    # the same form again (a double tap) answers as the first did and renames nothing more
    assert client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "merge-1", "confirm": "yes"}).status_code == 303
    assert standings(client.get(circle).get_data(as_text=True))["Anna"] == ["2", "+13", "+CHF\xa00.65"]
    # Undo on an evening takes the rename back there (it is that table's last change)
    undo = re.search(r'<form id="undo-last" method="post" action="([^"]+)">.*?name="token" value="([^"]+)".*?'
                     r'name="change" value="([^"]+)"', client.get(second).get_data(as_text=True), re.S)
    assert client.post(undo.group(1), data={"token": undo.group(2), "change": undo.group(3)}).status_code == 303
    assert set(standings(client.get(circle).get_data(as_text=True))) == {"Anna", "Anne", "Ben", "Cla", "Zoë"}


def test_a_merge_of_two_people_who_played_together_is_refused_at_the_field(client):
    circle = new_circle(client)
    first = open_evening(client, circle)
    hand(client, first, 40, "r1")
    r = client.post(circle + "/people", data={"person": "Ben", "name": "zoë", "token": "bad-merge"})
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and "both played hand 1" in page and 'value="zoë"' in page  # the input is kept
    assert set(standings(client.get(circle).get_data(as_text=True))) == {"Anna", "Ben", "Cla", "Zoë"}  # nothing done
    for person, name, says in (("Ben", "Ben", "already this person's name"), ("Nobody", "Max", "Choose one"),
                               ("Ben", "", "Write the name"), ("Ben", "B\x00n", "invisible or control")):
        page = html.unescape(client.post(circle + "/people", data={"person": person, "name": name}).get_data(as_text=True))
        assert says in page, (person, name)


def test_the_dates_of_the_circles_choosing_and_dates_out_of_order(app, client):
    circle = new_circle(client)
    early, late = open_evening(client, circle), open_evening(client, circle)
    hand(client, early, 40, "d1")  # +4 units for Anna (40 − 36, docs/rules.md §1)
    hand(client, late, 45, "d2")  # +9 for Anna
    # the first evening was played on 2 March: its date, set under Change the table (issue 36)
    assert client.post(early + "/setup/date", data={"played_on": "2026-03-02"}).status_code == 303
    page = client.get(circle + "?period=dates&from=2026-03-01&to=2026-03-31").get_data(as_text=True)
    assert standings(page)["Anna"][:2] == ["1", "+4"]
    page = html.unescape(client.get(circle + "?period=dates&from=2026-04-01&to=2026-03-01").get_data(as_text=True))
    assert "The last day comes before the first" in page and 'value="2026-04-01"' in page  # the input kept
    assert standings(page)["Anna"][:2] == ["2", "+13"]  # all time shown meanwhile: 4 + 9
    page = html.unescape(client.get(circle + "?period=dates&from=1.3.2026").get_data(as_text=True))
    assert "Write a date such as 2026-11-27." in page


def test_the_seasons_chart_draws_each_persons_money_evening_by_evening(app):
    from scorekeeper.web.chart import HEIGHT, PAD, WIDTH, path, season_chart
    evenings = [evening(1, {}, {"Anna": 20, "Ben": -20}, on=date(2026, 1, 1)),
                evening(2, {}, {"Anna": -50, "Ben": 50}, on=date(2026, 1, 8))]
    people, steps = season.money_steps(evenings, "CHF")
    assert people == ["Anna", "Ben"] and steps == [{"Anna": 20, "Ben": -20}, {"Anna": -30, "Ben": 30}]
    with app.test_request_context():
        c = season_chart(people, steps, "CHF")
    # Ben's +30 is the top (y = PAD), Anna's −30 the bottom (y = HEIGHT − PAD), zero halfway; x: the evening's
    # number, 0 to 2, and PAD pixels of margin either side (2 evenings across WIDTH − 2 PAD pixels: PAD pixels are
    # 2 × 6 / 348 = 0.0345 of an evening)
    def y(v):
        return round(PAD + (30 - v) * (HEIGHT - 2 * PAD) / 60)
    assert [line["path"] for line in c["lines"]] == [path([0, 1, 2], [y(0), y(20), y(-30)]),
                                                     path([0, 1, 2], [y(0), y(-20), y(30)])]
    assert (c["left"], c["right"], c["width"]) == ("-0.03448", "2.034", "2.069") and WIDTH == 360
    assert c["zero"] == y(0) and "After 2 evenings: Anna −CHF" in c["words"]


def test_a_watching_phone_polls_the_circle_and_gets_the_board_only_when_it_changed(client):
    """The circle's poll speaks the table's protocol (web/scoreboard.py): If-None-Match the tag its page shows, a
    304 while nothing changed, else the board with a new ETag, which the next poll sends."""
    circle = new_circle(client)
    url = open_evening(client, circle)
    page = client.get(circle).get_data(as_text=True)
    live = re.search(r'<div id="live" class="live" hx-get="([^"]+)"[^>]*data-etag=\'([^\']+)\'', page)
    poll, tag = html.unescape(live.group(1)), live.group(2)
    r = client.get(poll, headers={"If-None-Match": tag})
    assert r.status_code == 304 and r.get_data() == b""  # nothing changed: no body at all
    hand(client, url, 40, "live1")  # Anna +4 units, +20 Rappen (40 − 36, docs/rules.md §1)
    r = client.get(poll, headers={"If-None-Match": tag})
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and '<div id="circle-board">' in body and r.headers["Cache-Control"] == "no-store"
    assert standings(body)["Anna"] == ["1", "+4", "+CHF\xa00.20"]
    assert '<input name="amount"' not in body and '<input name="name"' not in body  # no typed input swapped away
    newer = r.headers["ETag"]
    assert newer != tag and re.search(r'<div id="live"[^>]*data-etag=\'%s\'' % re.escape(newer), body)
    assert client.get(poll, headers={"If-None-Match": newer}).status_code == 304


def test_the_circle_lists_its_newest_evenings_and_all_of_them_a_tap_away(app, client):
    from scorekeeper.web.circle.circles import SHOWN
    circle = new_circle(client)
    urls = [open_evening(client, circle) for _ in range(SHOWN + 2)]
    page = client.get(circle).get_data(as_text=True)
    listed = re.findall(r'<li><a class="button secondary wide" href="(/t/[^"]+)"[ >]', page)
    assert len(listed) == SHOWN and f"All {SHOWN + 2} evenings" in page
    every = client.get(circle + "/evenings").get_data(as_text=True)
    assert len(re.findall(r'<li><a class="button secondary wide" href="(/t/[^"]+)"[ >]', every)) == len(urls)


# ---- a circle as a file ----

def season_with_everything(client):
    """A circle of two evenings, a line paid on the night, a pot entry: every part its file must carry."""
    circle = new_circle(client, "Krone")
    first, second = open_evening(client, circle), open_evening(client, circle)
    hand(client, first, 40, "f1")  # Anna & Cla +4 units, +20 Rappen each (40 − 36, docs/rules.md §1)
    hand(client, second, 30, "f2")  # −6 units, −30 Rappen
    line = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', re.search(
        r'<ol class="transfers">(.*?)</ol>', client.get(first + "/settle").get_data(as_text=True), re.S).group(1)))
    assert client.post(first + "/settle/paid", data=line).status_code == 303
    client.post(circle + "/pot", data={"amount": "0.60", "direction": "in", "currency": "CHF", "note": "solo"})
    return circle, line


def test_a_circle_exported_and_imported_is_the_same_season_under_new_links(client):
    circle, line = season_with_everything(client)
    exported = client.get(circle + "/export.json")
    assert exported.status_code == 200
    r = client.post("/circles/import", data={"file": (io.BytesIO(exported.data), "circle.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303 and r.headers["Location"] != circle
    before, after = client.get(circle).get_data(as_text=True), client.get(r.headers["Location"]).get_data(as_text=True)
    assert standings(after) == standings(before)  # Anna & Cla +4 − 6 = −2 units, −10 Rappen; Ben & Zoë +2, +10
    assert standings(after)["Anna"] == ["2", "−2", "−CHF\xa00.10"]
    assert "The pot holds 60 Rappen." in html.unescape(after)
    # the line paid on the night is carried: the season owes the same in both (one line of 20 Rappen left over
    # the two evenings: Anna & Cla −10 each, Ben & Zoë +10, with one 20 Rappen line paid on the first night)
    owed = lambda page: re.findall(r'<span class="amount">([^<]+)</span>', re.search(  # noqa: E731
        r'<section class="settle"[^>]*>(.*?)</section>', page, re.S).group(1))
    assert owed(after) == owed(before)
    assert "Krone" in after


def test_a_circles_csv_has_a_row_per_hand_with_its_evening(client):
    import csv as csv_module
    circle, _line = season_with_everything(client)
    text = client.get(circle + "/export.csv").get_data(as_text=True)
    rows = list(csv_module.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][:5] == ["Date", "Game", "Hand", "Dealer", "What"] and "Anna (CHF)" in rows[0]
    assert len(rows) == 3  # a head and one row per hand, over both evenings
    anna = rows[0].index("Anna")
    assert [r[anna] for r in rows[1:]] == ["4", "-6"] and [r[rows[0].index("Anna (CHF)")] for r in rows[1:]] == ["0.20", "-0.30"]


@pytest.mark.parametrize("change, says", [
    (lambda d: d.update(format="scorekeeper.table"), "This is not a circle exported from Scorekeeper."),
    (lambda d: d.update(name=""), "The circle's name in the file is missing or not valid."),
    (lambda d: d["evenings"][1]["hands"][0]["hand"].update(points=99), "Evening 2: Hand 1:"),
    (lambda d: d["pot"][0].update(amount=-500), "The file's pot goes below empty"),
    (lambda d: d["paid"][0].update(amount="20"), "An amount in the file's paid lines or pot"),
    (lambda d: d["paid"][0].update(payer="B\u200bn"), "A name in the file's paid lines or pot"),
])
def test_a_bad_circle_file_is_refused_with_a_sentence_and_nothing_stored(client, change, says):
    circle, _line = season_with_everything(client)
    data = json.loads(client.get(circle + "/export.json").data)
    change(data)
    before = client.get("/circles/import")  # (the page itself)
    r = client.post("/circles/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "c.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 400 and says in html.unescape(r.get_data(as_text=True)), r.get_data(as_text=True)[-600:]
    assert before.status_code == 200
    for hostile in (b"[" * 100_000, b"{}", "x".encode() * 10):
        r = client.post("/circles/import", data={"file": (io.BytesIO(hostile), "c.json")},
                        content_type="multipart/form-data")
        assert r.status_code == 400


@dataclass(frozen=True)
class Played:  # a hand as the evening reads it (the store's Hand has these and more)
    number: int
    facts: dict
    dealer: str | None = None
    setup: dict | None = None


def test_across_the_evenings_in_numbers():
    """Pure: three evenings of Troccas (Anna & Cla v Ben & Zoë, then Anna & Ben v Cla & Zoë): evenings won, the
    longest run, best and worst evening, the average, and who one won most hands with."""
    from scorekeeper.engine import evening as ev
    from scorekeeper.engine.evening import Setup

    seats = ("Anna", "Ben", "Cla", "Zoë")
    ac = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna"}
    ab = {"teams": [["Anna", "Ben"], ["Cla", "Zoë"]], "side": "Anna"}
    nights = [[{**ac, "points": 40}, {**ac, "points": 30}], [{**ac, "points": 45}], [{**ab, "points": 20}]]
    pairs = []
    for n, facts in enumerate(nights):
        e = ev.build(Setup("troccas", seats, 5, "CHF", 0), [Played(i + 1, f) for i, f in enumerate(facts)])
        pairs.append(season.Played.of(f"t{n}", date(2026, 1, 1 + n), ev.totals(e)))
    anna = next(p for p in season.numbers(pairs, "CHF") if p.name == "Anna")
    # Anna's evenings: (40 − 36) + (30 − 36) = −2 units, −10 Rappen; then +9 (45 − 36), +45; then 20 − 36 = −16, −80
    assert (anna.evenings, anna.evenings_won, anna.longest_run) == (3, 1, 1)
    assert (anna.best_evening, anna.worst_evening, anna.average) == (45, -80, int((-10 + 45 - 80) / 3))
    assert anna.partner == ("Cla", 2)  # hands 1 of night 1 and night 2's one hand, won with Cla


def test_a_circle_can_keep_its_money_and_ranking_from_the_watch_link(client):
    circle = new_circle(client)
    url = open_evening(client, circle)
    hand(client, url, 40, "h1")  # Anna & Cla +4 units, +20 Rappen (40 − 36, docs/rules.md §1)
    share = client.get(circle + "/share").get_data(as_text=True)
    watch = re.search(r'data-link="viewer">http://[^/<]+(/c/[^<]+)<', share).group(1)
    assert "+CHF" in client.get(watch).get_data(as_text=True)  # shown by default
    assert client.post(watch + "/watch", data={"ranking": "y"}).status_code == 403  # the watch link can't choose
    assert client.post(circle + "/watch", data={"ranking": "y"}).status_code == 303  # money off, ranking on
    page = html.unescape(client.get(watch).get_data(as_text=True))
    assert "CHF" not in page and "Rappen" not in page and "The pot" not in page
    assert standings(page)["Anna"] == ["1", "+4"]  # the scores stay
    assert client.get(watch + "/export.json").status_code == 403
    assert "+CHF" in client.get(circle).get_data(as_text=True)  # the scorer still sees it all
    client.post(circle + "/watch", data={"money": "y"})  # ranking off: A to Z
    names = list(standings(client.get(watch).get_data(as_text=True)))
    assert names == sorted(names, key=str.casefold) and names != [s for s in standings(client.get(circle).get_data(
        as_text=True))]


# ---- this phone's list, to another phone ----

def test_the_lists_qr_code_is_only_of_this_sites_take_link_and_needs_no_token(client, csrf_app):
    assert client.post("/qr", data={"url": "http://localhost/take#eyJ0YWJsZXMiOltdfQ"}).get_data(
        as_text=True).startswith("data:image/svg+xml")
    assert client.post("/qr", data={"url": "https://evil.example/take#x"}).status_code == 400  # another site
    assert client.post("/qr", data={"url": "http://localhost/t/abc"}).status_code == 400  # not a list's link
    assert client.post("/qr", data={"url": "http://localhost/take#" + "a" * 3000}).status_code == 400  # too long
    # it changes nothing (scorekeeper/__init__.py): the home page carries no token, and makes no session for it
    answer = csrf_app.test_client().post("/qr", data={"url": "http://localhost/take#x"})
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    assert client.get("/take").status_code == 200


def test_an_evening_names_its_circle_on_every_page_and_a_watcher_reaches_its_watch_page(app, client):
    """Issue 36: an evening opened from a circle says so on each of its pages, one tap from the season: the scorer's
    pages link to the circle's scorer page, the watch page to the circle's watch page; and it no longer offers to
    start a circle (a table belongs to one)."""
    circle = new_circle(client, "Krone")
    url = open_evening(client, circle)
    hand(client, url, 40, "c1")
    with app.app_context():
        circle_id = store.find_circle(circle.rsplit("/", 1)[1]).id
        watch_circle = store.share_links(circle_id, store.CIRCLE)[store.VIEWER]
    watch = re.search(r'/v/[\w-]+', client.get(url + "/share").get_data(as_text=True)).group(0)
    link = re.compile(r'<p class="in-circle"><a class="nav-link" href="([^"]+)">An evening of the circle '
                      'Krone')
    for page in (url, url + "/settle", url + "/history", url + "/setup"):
        body = client.get(page).get_data(as_text=True)
        assert link.search(body).group(1) == circle, page
    body = client.get(watch).get_data(as_text=True)
    assert link.search(body).group(1) == f"/c/{watch_circle}"
    assert "start a circle" not in client.get(url).get_data(as_text=True)
    alone = client.post("/tables/new/troccas", data=TROCCAS).headers["Location"]
    body = client.get(alone).get_data(as_text=True)
    assert "start a circle" in body and 'class="in-circle"' not in body


def test_an_evening_has_a_date_of_its_own_set_when_opened_changed_later_kept_in_its_file(app, client):
    """Issue 36: an evening's date is set when its table is opened (today by default), changed under Change the
    table, kept by an export and its import; the circle's periods follow it. A date that can't be an evening's is
    refused at its field, the typed value kept."""
    circle = new_circle(client)
    key = circle.rsplit("/", 1)[1]
    r = client.post(f"/tables/new/troccas?circle={key}", data={**TROCCAS, "played_on": "2025-12-31"})
    url = r.headers["Location"]
    hand(client, url, 40, "y1")  # +4 units for Anna (40 − 36, docs/rules.md §1)
    page = client.get(circle + "?period=dates&from=2025-12-01&to=2025-12-31").get_data(as_text=True)
    assert standings(page)["Anna"][:2] == ["1", "+4"]  # counted in December 2025, whenever it was entered
    for typed, says in (("1899-12-31", "Write a date from 1900 on."), ("31.12.2025", "Write a date such as"),
                        ((date.today() + timedelta(days=400)).isoformat(), "more than a year away")):
        r = client.post(url + "/setup/date", data={"played_on": typed})
        page = html.unescape(r.get_data(as_text=True))
        assert says in page and f'value="{typed}"' in page, typed
    assert client.post(url + "/setup/date", data={"played_on": "2026-01-02"}).status_code == 303
    page = client.get(circle + "?period=dates&from=2026-01-01&to=2026-01-31").get_data(as_text=True)
    assert standings(page)["Anna"][:2] == ["1", "+4"]
    exported = json.loads(client.get(url + "/export.json").data)
    assert exported["played_on"] == "2026-01-02"
    r = client.post("/tables/import", data={"file": (io.BytesIO(json.dumps(exported).encode()), "t.json")},
                    content_type="multipart/form-data")
    with app.app_context():
        assert store.get_table(r.headers["Location"].rsplit("/", 1)[1]).day == date(2026, 1, 2)
    r = client.post("/tables/new/troccas", data={**TROCCAS, "played_on": "1066-10-14"})
    assert r.status_code == 200 and "Write a date from 1900 on." in html.unescape(r.get_data(as_text=True))


def test_a_merge_asks_first_naming_both_spellings_and_the_evenings_it_changes(app, client):
    """Issue 36: nothing is final by one tap: making two people one shows who and which evenings, and changes
    nothing until the scorer says yes; a rename of one spelling is done at once, as before."""
    circle = new_circle(client)
    key = circle.rsplit("/", 1)[1]
    first = client.post(f"/tables/new/troccas?circle={key}", data={**TROCCAS, "players-0": "Anne"}).headers["Location"]
    second = client.post(f"/tables/new/troccas?circle={key}", data=TROCCAS).headers["Location"]  # Anna plays here
    assert first and second
    r = client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "ask-1"})
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 200 and "Make them one person?" in page
    assert "Anne and Anna become one person, Anna" in page and "1 evening changes" in page  # only the first has Anne
    assert 'name="confirm" value="yes"' in page
    assert "Anne" in client.get(first).get_data(as_text=True)  # nothing changed yet
    r = client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "ask-1", "confirm": "yes"})
    assert r.status_code == 303 and "merged=1" in r.headers["Location"]
    assert "Anne" not in client.get(first).get_data(as_text=True)
