"""The counting page without a browser: full-page posts (no JavaScript), htmx partials, bad input."""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import naming as names
from scorekeeper.engine.games import all_games, class_sizes, get_game, resolve_rules

HX = {"HX-Request": "true"}


def checked(html: str) -> set[str]:
    return set(re.findall(r'value="([^"]+)" aria-label="[^"]*" checked', html))


def score(html: str) -> str:
    return re.search(r'class="score"><strong>([^<]+)</strong>', html).group(1)


def test_home_links_every_counting_game(client):
    html = client.get("/").get_data(as_text=True)
    for game in all_games().values():
        if game.counting == "tricks":
            assert f'href="/rules/{game.id}"' in html
        else:
            assert f'href="/count/{game.id}"' in html


@pytest.mark.parametrize("game_id,size", [("troggu", 62), ("troccas", 78), ("french_tarot", 78), ("scarto", 78)])
def test_page_shows_the_deck(client, game_id, size):
    html = client.get(f"/count/{game_id}").get_data(as_text=True)
    assert html.count('type="checkbox" name="card"') == size
    assert f'href="/rules/{game_id}"' in html


@pytest.mark.parametrize("game_id,shown", [
    ("troggu", ["Bättler", "Munt", "Bagatt", "Zwänzger", "Schwerter", "Rosen", "Königin"]),
    ("troccas", ["il narr", "il mund", "il bagat", "la gaglina"]),
    ("french_tarot", ["Excuse", "Petit", "♠", "♥", "♦", "♣", ">R<", ">D<", ">V<"]),
    ("scarto", ["Matto", "Angelo", "Bagatto", "Mondo", "Re", "Fante"]),
    ("swiss_tarot_1659", ["Le Fou", "Le Monde", "Le Basteleur"]),
])
def test_cards_are_named_as_the_players_name_them(client, game_id, shown):
    html = client.get(f"/count/{game_id}").get_data(as_text=True)
    for text in shown:
        assert text in html


def test_no_javascript_post_keeps_the_boxes_ticked(client):
    answer = client.post("/count/troccas", data={"card": ["SW-K", "CU-Q", "BA-J", "T5"]})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "<html" in html
    assert checked(html) == {"SW-K", "CU-Q", "BA-J", "T5"}
    # italian-swiss-archive.txt (SCA Troccas): king, queen, valet, suit card = 9; the other team 72 − 9.
    assert score(html) == "9" and "63 points, 74 cards" in html and "1 group of 4: 12 − 3 = 9" in html


def test_htmx_tap_returns_only_the_result(client):
    answer = client.post("/count/troccas", data={"card": ["SW-K", "CU-Q", "BA-J", "T5"]},
                         headers={**HX, "HX-Target": "result"})
    html = answer.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="result"') and "<html" not in html
    assert score(html) == "9" and len(answer.data) < 3000


def test_counting_changes_nothing_so_needs_no_token_or_session(csrf_app):
    # Counting only counts what it is sent (scorekeeper/__init__.py exempts it): with CSRF on, the page carries no
    # token and makes no session, and a count posted without one is counted.
    client = csrf_app.test_client()
    page = client.get("/count/troggu")
    assert "csrf" not in page.get_data(as_text=True) and "Set-Cookie" not in page.headers
    for path in ("/count/troggu", "/count/troggu/classes"):
        answer = client.post(path, data={"card": ["T1", "T21"]})
        assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    html = client.post("/count/troggu", data={"card": ["T1", "T21"]}).get_data(as_text=True)
    assert score(html) == "10"  # troggu-visp-de.txt: Bagatt and Munt 5 each
    # what changes something still wants its token: opening a table
    assert client.post("/tables/new/troggu", data={"players": "A\nB\nC"}).status_code == 400


@pytest.mark.parametrize("cards,message", [
    (["SW-1"], "not in the Troggu deck"),
    (["T1", "T1"], "twice"),
    (["BOGUS"], "Not a card"),
])
def test_bad_cards_are_a_message_not_a_500(client, cards, message):
    answer = client.post("/count/troggu", data={"card": cards})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and message in html
    assert checked(html) <= {"T1"}


def test_pile_size_warning_shown(client):
    html = client.post("/count/troccas", data={"card": ["SW-K", "T5", "T6"]}).get_data(as_text=True)
    assert "3 cards can&#39;t happen" in html or "3 cards can't happen" in html


def test_unknown_game_and_trick_game(client):
    assert client.get("/count/euchre").status_code == 404
    assert client.get("/count/troggu/groups").status_code == 404  # direct sum: no groups to enter
    html = client.get("/count/triomphe_forcee").get_data(as_text=True)
    assert "counts tricks" in html


def test_german(client):
    html = client.get("/count/troggu?lang=de").get_data(as_text=True)
    assert '<html lang="de">' in html


# Class counts.
def class_post(client, game_id, data, hx=False):
    headers = {**HX, "HX-Target": "classes"} if hx else {}
    return client.post(f"/count/{game_id}/classes", data=data, headers=headers)


def test_classes_give_the_same_points_as_tapping(client):
    # Two kings, a queen, a jack and four others in Troccas: tapping SW-K CU-K CO-Q BA-J T5 T6 T7 T8.
    tapped = client.post("/count/troccas", data={"card": ["SW-K", "CU-K", "CO-Q", "BA-J", "T5", "T6", "T7", "T8"]})
    counted = class_post(client, "troccas", {"kings": "2", "queens": "1", "jacks": "1", "others": "4"})
    a, b = tapped.get_data(as_text=True), counted.get_data(as_text=True)
    # 5+5+4+2+4·1 = 20 nominal, two groups of four: 20 − 6 = 14
    assert score(a) == score(b) == "14"
    assert "2 groups of 4: 20 − 6 = 14" in a and "2 groups of 4: 20 − 6 = 14" in b


def test_class_plus_and_minus(client):
    html = class_post(client, "troggu", {"kings": "3", "step": "kings:1"}, hx=True).get_data(as_text=True)
    assert html.lstrip().startswith('<form id="classes"')
    assert 'name="kings" type="number" inputmode="numeric" min="0" max="4" value="4"' in html
    assert score(html) == "20"  # four kings at 5
    # at the limit, + does nothing more and is disabled
    html = class_post(client, "troggu", {"kings": "4", "step": "kings:1"}).get_data(as_text=True)
    assert 'value="4"' in html and 'value="kings:1" class="secondary" aria-label="One more: Kings" disabled' in html
    html = class_post(client, "troggu", {"kings": "0", "step": "kings:-1"}).get_data(as_text=True)
    assert 'name="kings" type="number" inputmode="numeric" min="0" max="4" value="0"' in html


@pytest.mark.parametrize("value,message", [("5", "has 4 of these"), ("-1", "has 4 of these"), ("two", "whole number")])
def test_class_limits_are_a_message_at_the_field(client, value, message):
    answer = class_post(client, "troccas", {"kings": value, "queens": "2"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    field = re.search(r'<div class="class-row invalid">.*?</div>', html, re.S).group(0)
    assert f'value="{value}"' in field and message in field and 'id="e-kings"' in field
    assert 'name="queens" type="number" inputmode="numeric" min="0" max="4" value="2"' in html


@pytest.mark.parametrize("game_id", ["troggu", "troccas", "french_tarot", "scarto", "mitigati", "swiss_tarot_1659"])
def test_full_classes_count_the_whole_deck(client, game_id):
    game = get_game(game_id)
    sizes = class_sizes(game, resolve_rules(game, None))
    html = class_post(client, game_id, {k: str(v) for k, v in sizes.items()}).get_data(as_text=True)
    # docs/rules.md §0.3 totals for one pile of the whole deck; Scarto's single pile is 77 (§2.1).
    assert score(html) == {"troggu": "114", "troccas": "72", "french_tarot": "91", "scarto": "77",
                           "mitigati": "129", "swiss_tarot_1659": "78"}[game_id]


def test_class_labels_name_the_honours(client):
    html = client.get("/count/troggu/classes").get_data(as_text=True)
    assert "Honour trumps (Bagatt, Munt)" in html and "Bättler" in html
    assert "Bouts (Petit, 21)" in client.get("/count/french_tarot/classes").get_data(as_text=True)  # French words


def test_honour_trump_option(client):
    base = {"card": ["T21", "T2", "T3"]}
    assert score(client.post("/count/scarto", data=base).get_data(as_text=True)) == "1"
    html = client.post("/count/scarto", data={**base, "honour_trump": "T21"}).get_data(as_text=True)
    assert score(html) == "5"  # docs/rules.md §2: the World as the 5-point trump
    bad = client.post("/count/scarto", data={**base, "honour_trump": "T19"}).get_data(as_text=True)
    assert "Choose one of the listed house rules" in bad and score(bad) == "1"


# Group by group.
def groups_post(client, game_id, data):
    return client.post(f"/count/{game_id}/groups", data=data).get_data(as_text=True)


def test_group_by_group(client):
    # italian-swiss-archive.txt (SCA Troccas): K, Q, V, suit card = 9; XXI, I, Q, suit card = 12.
    html = groups_post(client, "troccas", {"card": ["SW-K", "CU-Q", "BA-J", "CO-5"], "op": "add"})
    assert 'name="group" value="SW-K CU-Q BA-J CO-5"' in html and "Group 2" in html
    html = groups_post(client, "troccas", {"group": ["SW-K CU-Q BA-J CO-5"], "card": ["T21", "T1", "CO-Q", "SW-10"],
                                            "op": "add"})
    assert re.search(r"Running total: <strong>21</strong>", html)  # 9 + 12
    # cards already in a group are disabled
    assert 'value="SW-K" aria-label="K Swords" disabled' in html
    # correct group 1: replace the jack by a cavalier (3 − 1 = 2 instead of 2 − 1 = 1): 10 + 12
    html = groups_post(client, "troccas", {"group": ["SW-K CU-Q BA-J CO-5", "T21 T1 CO-Q SW-10"], "op": "edit:0"})
    assert "Changing group 1" in html and checked(html) == {"SW-K", "CU-Q", "BA-J", "CO-5"}
    html = groups_post(client, "troccas", {"group": ["SW-K CU-Q BA-J CO-5", "T21 T1 CO-Q SW-10"], "editing": "0",
                                            "card": ["SW-K", "CU-Q", "BA-C", "CO-5"], "op": "add"})
    assert re.search(r"Running total: <strong>22</strong>", html)
    assert 'name="group" value="SW-K CU-Q BA-C CO-5"' in html
    # remove the second group
    html = groups_post(client, "troccas", {"group": ["SW-K CU-Q BA-C CO-5", "T21 T1 CO-Q SW-10"], "op": "remove:1"})
    assert re.search(r"Running total: <strong>10</strong>", html) and "T21 T1" not in html


@pytest.mark.parametrize("field", ["editing", "op"])
def test_a_huge_group_number_changes_nothing(client, field):
    big = "9" * 5000  # past int()'s 4300-digit limit: a ValueError, once a 500
    html = groups_post(client, "troccas", {"group": ["SW-K CU-Q BA-J CO-5"],
                                            field: big if field == "editing" else "edit:" + big})
    assert 'name="group" value="SW-K CU-Q BA-J CO-5"' in html and "Changing group" not in html


def test_group_too_big_is_refused(client):
    html = groups_post(client, "scarto", {"card": ["T1", "T2", "T3", "T4"], "op": "add"})
    assert "at most 3 cards" in html and checked(html) == {"T1", "T2", "T3", "T4"}
    assert 'name="group"' not in html


def test_french_pairs_group_by_group(client):
    # A king with a low card is a pair worth 5 (french-tarot-wikipedia.txt: counters paired with ordinary cards).
    html = groups_post(client, "french_tarot", {"card": ["SW-K", "T5"], "op": "add"})
    assert re.search(r"Running total: <strong>5</strong>", html) and "The other side: 86 points, 76 cards" in html


def test_two_short_groups_warned(client):
    html = groups_post(client, "troccas", {"group": ["SW-K SW-Q"], "card": ["T2", "T3"], "op": "add"})
    # each short group counts sum − 1: 8 + 1 = 9, but as one pile of 4: 11 − 3 = 8
    assert re.search(r"Running total: <strong>9</strong>", html) and "worth 8" in html


def test_crafted_group_is_a_message(client):
    html = groups_post(client, "troccas", {"group": ["SW-K SW-K"], "op": "add"})
    assert "twice" in html


def test_names_module_labels():
    assert names.card_name(get_game("troggu"), "T21") == "Munt (XXI)"
    assert names.card_name(get_game("troggu"), "CO-Q") == "Königin Rosen"
    assert names.card_name(get_game("french_tarot"), "CU-K") == "R ♥"
    assert names.card_name(get_game("french_tarot"), "FOOL") == "Excuse"
    assert names.card_name(get_game("troccas"), "SW-J") == "V Swords"
    assert names.card_name(get_game("triomphe_forcee"), "T9", {"force_trump": "T9"}) == "La Force (VIIII)"
    assert names.label(get_game("scarto"), "T20") == names.Label("XX", "Angelo")


FORM_VALUES = st.lists(st.sampled_from(["SW-K", "T21", "FOOL", "SW-1", "x", "", "T1 T1", "-1", "99", "kings:1",
                                        "edit:0", "remove:3", "add", "T20", "0"]), max_size=6)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/count/troccas", "/count/troggu/classes", "/count/scarto/groups",
                             "/count/french_tarot/groups", "/count/mitigati"]),
       form=st.dictionaries(st.sampled_from(["card", "group", "editing", "op", "step", "kings", "honours",
                                             "others", "honour_trump"]), FORM_VALUES, max_size=5),
       target=st.sampled_from([None, "result", "classes", "grouping"]))
def test_random_form_posts_never_fail(app, path, form, target):  # the app keeps no state between requests
    headers = {"HX-Request": "true", "HX-Target": target} if target else {}
    answer = app.test_client().post(path, data=form, headers=headers)
    assert answer.status_code == 200
