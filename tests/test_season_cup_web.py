"""A cup over a season on the circle's page (issue 38 item 9): cups made from a circle or joined by their director's
link, ranked over the season by the circle's rule (the sum, the best N cups, cup points by place), with the bad
input of each form (one sentence at the field, the input kept)."""
import io
import json
import re
from datetime import date

import pytest
from sqlalchemy import func, select

from scorekeeper import store
from scorekeeper.store.db import engine
from scorekeeper.store.schema import circles, tables, tournaments
from tests.test_cups_web import CUP, cup_of, tables_of, text, troccas_hand


def new_circle(client) -> str:
    r = client.post("/circles/new", data={"name": "Krone"})
    assert r.status_code == 303
    return r.headers["Location"]


def season(client, circle) -> dict[str, tuple[int, str]]:
    """{name: (rank, total)} from the circle's cup ranking."""
    page = client.get(circle).get_data(as_text=True)
    rows = re.findall(r'<tr data-name="([^"]+)">\s*<td class="n"[^>]*>(\d+)</td>.*?<td class="n total"[^>]*>([^<]+)'
                      r'</td>', page, re.S)
    return {name: (int(rank), total.strip()) for name, rank, total in rows}


def one_round_cup(app, client, first, second, **form) -> tuple[str, list]:
    """A cup of one round (CUP's players and seed) with table 1 played at `first` points, table 2 at `second`."""
    r = client.post("/cups/new", data={**CUP, "rounds": "1", **form})
    assert r.status_code == 303
    url = r.headers["Location"]
    cup = cup_of(app, url)
    client.post(url + "/draw")
    placed = tables_of(app, cup, 1)
    troccas_hand(app, placed[0], first)
    troccas_hand(app, placed[1], second)
    client.post(url + "/close", data={"round": "1"})
    return url, placed


def test_a_circles_cups_add_up_by_its_rule_beside_its_evenings(app, client):
    circle = new_circle(client)
    key = circle.rsplit("/", 1)[-1]
    assert "No cup night counts in this circle's season yet." in text(client.get(circle))
    # cup A made from the circle's page; cup B made alone, then joined by its director's link
    form = client.get(f"/cups/new?circle={key}").get_data(as_text=True)
    assert f'name="circle" value="{key}"' in form and "This cup counts in the season of the circle Krone." in text(
        client.get(f"/cups/new?circle={key}"))
    a_url, a = one_round_cup(app, client, 40, 46, circle=key)
    b_url, b = one_round_cup(app, client, 46, 30)
    assert [t.seats for t in a] == [t.seats for t in b]  # the same players and seed: the same draw
    with app.app_context():
        names = {e.number: e.name for e in store.entrants(cup_of(app, a_url).id)}
        watch_b = store.share_links(cup_of(app, b_url).id, store.TOURNAMENT)[store.VIEWER]
    a1, a2, a3, a4 = (names[n] for n in a[0].seats)
    b1, b2, b3, b4 = (names[n] for n in a[1].seats)
    r = client.post(circle + "/cups", data={"cup": "http://localhost/k/" + watch_b})
    assert r.status_code == 400 and "That isn't a cup's director's link" in text(r)
    assert 'value="http://localhost/k/' + watch_b + '"' in r.get_data(as_text=True)  # the input kept
    assert client.post(circle + "/cups", data={"cup": "http://localhost" + b_url}).status_code == 303
    # docs/rules.md §1: a team's points less 36 each. Cup A: table 1 at 40: a1, a3 +4, a2, a4 −4; table 2 at 46:
    # b1, b3 +10, b2, b4 −10. Cup B: table 1 at 46: a1, a3 +10, a2, a4 −10; table 2 at 30: b1, b3 −6, b2, b4 +6.
    # The sum: a1 14, b1 4, b2 −4, a2 −14 (each with its partner: ranks 1, 1, 3, 3, 5, 5, 7, 7)
    got = season(client, circle)
    assert {n: got[n][0] for n in (a1, a3, b1, b3, b2, b4, a2, a4)} == {a1: 1, a3: 1, b1: 3, b3: 3, b2: 5, b4: 5,
                                                                       a2: 7, a4: 7}
    assert [got[n][1] for n in (a1, b1, b2, a2)] == ["+14", "+4", "−4", "−14"]
    # the best cup: a1 10, b1 10 (four level: rank 1), b2 6, a2 −4
    assert client.post(circle + "/cup-rule", data={"rule": "best", "n": "1"}).status_code == 303
    got = season(client, circle)
    assert [got[n] for n in (a1, b1, b2, a2)] == [(1, "+10"), (1, "+10"), (5, "+6"), (7, "−4")]
    # cup points by place, 25, 20, 16, 13, 11, 10, 9, 8: cup A's places b1, b3 1 (level), a1, a3 3, a2, a4 5,
    # b2, b4 7; cup B's a1, a3 1, b2, b4 3, b1, b3 5, a2, a4 7. a1: 16 + 25 = 41; b1: 25 + 11 = 36; b2: 9 + 16 = 25;
    # a2: 11 + 9 = 20
    data = {"rule": "places", "places": "25, 20, 16, 13, 11, 10, 9, 8"}
    assert client.post(circle + "/cup-rule", data=data).status_code == 303
    got = season(client, circle)
    assert [got[n] for n in (a1, b1, b2, a2)] == [(1, "+41"), (3, "+36"), (5, "+25"), (7, "+20")]
    page = text(client.get(circle))
    assert "Ranked by cup points for each cup's place: 25, 20, 16, 13, 11, 10, 9, 8; a later place 0." in page
    # the watch link sees the ranking, not the forms, and each cup by its watch link (never its director's)
    with app.app_context():
        watch = "/c/" + store.share_links(store.find_circle(key).id, store.CIRCLE)[store.VIEWER]
    shown = client.get(watch).get_data(as_text=True)
    assert season(client, watch) == got and 'action="' + watch + '/cup-rule"' not in shown
    assert b_url not in shown and f"/k/{watch_b}" in shown
    assert client.post(watch + "/cup-rule", data={"rule": "sum"}).status_code == 403
    # a circle keeping its ranking from the watch link keeps the cup's ranking from it too; its scorer sees it
    assert client.post(circle + "/watch", data={"money": "y"}).status_code in (302, 303)
    assert season(client, watch) == {} and "Dorfcup" in text(client.get(watch))
    assert season(client, circle) == got


def test_a_cup_counts_in_one_circle_and_a_bad_rule_is_refused_at_its_field(app, client):
    first, second = new_circle(client), new_circle(client)
    url, _placed = one_round_cup(app, client, 40, 46)
    assert client.post(first + "/cups", data={"cup": url}).status_code == 303
    r = client.post(second + "/cups", data={"cup": url})
    assert r.status_code == 400 and "That cup already counts in another circle's season" in text(r)
    for data, sentence in (({"rule": "best", "n": "0"}, "Count the best cups: a whole number from 1."),
                           ({"rule": "places", "places": "10, 20"}, "Write the cup points of each place"),
                           ({"rule": "places", "places": "25, x"}, "Write the cup points of each place"),
                           ({"rule": "chess"}, "Choose one of the offered values.")):
        r = client.post(first + "/cup-rule", data=data)
        assert r.status_code == 400 and sentence in text(r), data
        if "places" in data:
            assert f'value="{data["places"]}"' in r.get_data(as_text=True)  # the input kept
    with app.app_context():
        assert store.season_rule(store.find_circle(first.rsplit("/", 1)[-1]).id).rule == "sum"  # nothing stored


def test_the_circles_poll_brings_its_cup_ranking_when_a_cup_of_the_circle_changes(app, client):
    """The circle's poll (web/scoreboard.py's protocol) answers 304 while nothing it shows changed, and the season of
    cups anew once a hand is saved at a cup table of the circle, a round is closed, a table opened for a correction
    or the rule changed (store.circle_page_tag)."""
    circle = new_circle(client)
    key = circle.rsplit("/", 1)[-1]
    r = client.post("/cups/new", data={**CUP, "rounds": "1", "circle": key})
    url = r.headers["Location"]
    client.post(url + "/draw")
    placed = tables_of(app, cup_of(app, url), 1)
    page = client.get(circle).get_data(as_text=True)
    live = re.search(r'<div id="live" class="live" hx-get="([^"]+)"[^>]*data-etag=\'([^\']+)\'', page)
    poll, tag = live.group(1).replace("&amp;", "&"), live.group(2)
    assert client.get(poll, headers={"If-None-Match": tag}).status_code == 304

    def changed(before: str) -> tuple[str, str]:
        """The poll's answer after a change: 200, the season of cups and the new tag in it; then 304 at that tag."""
        r = client.get(poll, headers={"If-None-Match": before})
        body = r.get_data(as_text=True)
        assert r.status_code == 200 and '<div id="season-cup-board">' in body
        assert '<input name="places"' not in body and '<input name="cup"' not in body  # the forms stay as typed
        assert r.headers["ETag"] != before and client.get(poll, headers={"If-None-Match": r.headers["ETag"]}
                                                          ).status_code == 304
        return r.headers["ETag"], body

    with app.app_context():
        names = {e.number: e.name for e in store.entrants(cup_of(app, url).id)}
    first = names[placed[0].seats[0]]
    troccas_hand(app, placed[0], 40)  # the first seat's team: 40 − 36 = +4 each (docs/rules.md §1)
    tag, body = changed(tag)
    assert re.search(r'<tr data-name="%s">.*?<td class="n total"[^>]*>\+4</td>' % re.escape(first), body, re.S)
    troccas_hand(app, placed[1], 46)
    tag, _body = changed(tag)
    assert client.post(url + "/close", data={"round": "1"}).status_code == 303  # the cup's version moves on
    tag, _body = changed(tag)
    assert client.post(url + "/corrections", data={"round": "1", "number": "1", "open": "1"}).status_code == 303
    tag, _body = changed(tag)
    assert client.post(circle + "/cup-rule", data={"rule": "places", "places": "25, 20"}).status_code == 303
    tag, body = changed(tag)
    # cup points by place: table 2's winners (+10) share place 1 (25 each), table 1's (+4) are 3rd: past the table, 0
    assert re.search(r'<tr data-name="%s">.*?<td class="n total"[^>]*>0</td>' % re.escape(first), body, re.S)
    # a cup of another circle, or of none, moves nothing here
    other = client.post("/cups/new", data=CUP).headers["Location"]
    client.post(other + "/draw")
    troccas_hand(app, tables_of(app, cup_of(app, other), 1)[0], 40)
    assert client.get(poll, headers={"If-None-Match": tag}).status_code == 304


def test_the_circles_page_tag_reads_its_cups_on_both_databases(db_app):
    """store.circle_page_tag: the circle's own tag (circles.tag_in, which the money's marks compare) while it has no
    cup and no rule; then one more part, moved by a hand at a cup table, a round drawn and the rule's places."""
    circle_id = store.find_circle(store.create_circle("Krone")).id
    own = store.circle_tag(circle_id)
    assert store.circle_page_tag(circle_id) == own
    cup = store.find_tournament(store.create_tournament("Dorfcup", date(2026, 11, 28),
                                                        "troccas", {}, 1, 1, 5, CUP["players"].split("\n"),
                                                        circle_id=circle_id))
    tags = [store.circle_page_tag(circle_id)]
    store.draw_next_round(cup.id)
    tags.append(store.circle_page_tag(circle_id))
    seated = list(store.get_table(store.cup_tables(cup.id)[0].table_id).players)
    store.add_hand(store.cup_tables(cup.id)[0].table_id, {"teams": [[seated[0], seated[2]], [seated[1], seated[3]]],
                                                           "side": seated[0], "points": 40})
    tags.append(store.circle_page_tag(circle_id))
    store.set_season_rule(circle_id, "places", 0, (25, 20))
    tags.append(store.circle_page_tag(circle_id))
    store.set_season_rule(circle_id, "places", 0, (25, 21))
    tags.append(store.circle_page_tag(circle_id))
    assert len(set(tags)) == len(tags) and all(t.startswith(own + "-k") for t in tags)
    assert store.circle_tag(circle_id) == own  # no evening's money moved


# ---- a circle's file carries its cups ----

def circle_with_two_cups(app, client) -> tuple[str, str]:
    """A circle whose season holds two one-round cups (test_a_circles_cups_add_up_by_its_rule_beside_its_evenings's
    figures) ranked by cup points by place; return the circle's address and the second cup's director's."""
    circle = new_circle(client)
    key = circle.rsplit("/", 1)[-1]
    one_round_cup(app, client, 40, 46, circle=key)
    b_url, _b = one_round_cup(app, client, 46, 30, circle=key)
    client.post(b_url + "/corrections", data={"round": "1", "number": "2", "open": "1"})  # in its log
    data = {"rule": "places", "places": "25, 20, 16, 13, 11, 10, 9, 8"}
    assert client.post(circle + "/cup-rule", data=data).status_code == 303
    return circle, b_url


def stored(app) -> list[int]:
    """How many circles, cups and tables the database holds."""
    with app.app_context(), engine().connect() as conn:
        return [conn.execute(select(func.count()).select_from(t)).scalar() for t in (circles, tournaments, tables)]


def upload(client, data):
    return client.post("/circles/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "c.json")},
                       content_type="multipart/form-data")


def test_a_circles_file_carries_its_cups_and_restores_the_same_season_of_cups(app, client):
    circle, b_url = circle_with_two_cups(app, client)
    got = season(client, circle)
    # cup points by place (the figures of the test above): a1 41, b1 36, b2 25, a2 20, each level with a partner
    assert sorted(total for _rank, total in got.values()) == ["+20", "+20", "+25", "+25", "+36", "+36", "+41", "+41"]
    data = json.loads(client.get(circle + "/export.json").data)
    assert [c["name"] for c in data["cups"]] == ["Dorfcup", "Dorfcup"] and data["cup_rule"]["rule"] == "places"
    r = upload(client, data)
    assert r.status_code == 303 and r.headers["Location"] != circle
    restored = r.headers["Location"]
    page = text(client.get(restored))  # (its directors' links are said once, on the page the import opens)
    assert season(client, restored) == got  # the same ranking, by the same rule, from the cups restored whole
    assert "Ranked by cup points for each cup's place: 25, 20, 16, 13, 11, 10, 9, 8; a later place 0." in page
    assert "Its cups were restored too, each under a new director's link (keep them): Dorfcup: http://" in page
    with app.app_context():
        new_id = store.find_circle(restored.rsplit("/", 1)[-1]).id
        old_id = store.find_circle(circle.rsplit("/", 1)[-1]).id
        new_cups, old_cups = store.circle_cups(new_id), store.circle_cups(old_id)
        assert len(new_cups) == 2 and not {c.id for c in new_cups} & {c.id for c in old_cups}  # new links
        assert [len(store.cup_log(c.id)) for c in new_cups] == [0, 1]  # the second cup's correction, carried
    # the restored cups' directors' links, said once on the circle's page, direct them
    b_new = re.findall(r"Dorfcup: http://localhost(/k/[\w-]+)", page)[1]
    assert client.get(b_new).status_code == 200 and "Close it again" in text(client.get(b_new))
    # a file made before the season of cups (no cups, no rule) still restores: the sum, no cup
    for k in ("cups", "cup_rule"):
        del data[k]
    r = upload(client, data)
    assert r.status_code == 303 and season(client, r.headers["Location"]) == {}


@pytest.mark.parametrize("change, says", [
    (lambda d: d.update(cups={}), "The file's cups are not valid (at most 200)."),
    (lambda d: d["cups"][1].update(format="scorekeeper.table"), "Cup 2: This is not a cup exported from Scorekeeper."),
    (lambda d: d["cups"][0]["players"][0].update(name=""), "Cup 1: Player #1: Give the player's name."),
    (lambda d: d["cups"][1]["tables"][0]["table"]["hands"][0]["hand"].update(points=99),
     "Cup 2: Round 1, table 1:"),
    (lambda d: d["cups"][0]["ranking"].update(rule="chess"), "Cup 1: The cup's ranking in the file is not valid."),
    (lambda d: d["cup_rule"].update(rule="chess"), "The file's rule for adding up the cups is not valid."),
    (lambda d: d["cup_rule"].update(places=[10, 20]), "The file's rule for adding up the cups is not valid."),
    (lambda d: d["cup_rule"].update(rule="best", n=0), "The file's rule for adding up the cups is not valid."),
    (lambda d: d.update(cup_rule=[]), "The file's rule for adding up the cups is not valid."),
])
def test_a_circles_file_with_a_bad_cup_is_refused_with_a_sentence_and_nothing_stored(app, client, change, says):
    circle, _b = circle_with_two_cups(app, client)
    data = json.loads(client.get(circle + "/export.json").data)
    change(data)
    before = stored(app)
    r = upload(client, data)
    assert r.status_code == 400 and says in text(r), text(r)[-600:]
    assert stored(app) == before  # nothing half-applied: no circle, cup or table stored


def test_a_circles_file_with_a_cup_keeping_its_money_is_the_scorers_alone(app, client):
    circle, b_url = circle_with_two_cups(app, client)
    assert client.post(b_url + "/watch", data={}).status_code == 303  # cup B keeps its money from its watch link
    with app.app_context():
        watch = "/c/" + store.share_links(store.find_circle(circle.rsplit("/", 1)[-1]).id,
                                          store.CIRCLE)[store.VIEWER]
    r = client.get(watch + "/export.json")
    assert r.status_code == 403 and "A cup of this circle keeps its money from the watch link" in text(r)
    assert client.get(circle + "/export.json").status_code == 200  # its scorer's link: the whole file
