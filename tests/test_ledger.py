"""One ledger of a season's money, under bad input (issue 36): a line marked paid on an evening that another phone
just settled through the circle; an Undo of a paid mark once the season was settled again; the pot's rule changed
once lines were paid; an evening's date far away. Each: one sentence, nothing lost, nothing half-applied."""
from __future__ import annotations

import html
import io
import json
import re
from datetime import date

import pytest

from scorekeeper import store
from scorekeeper.engine import season
from tests.test_circles import hand, new_circle, open_evening
from tests.test_paid import lines, owed_lines

TROGGU = {**{f"players-{i}": n for i, n in enumerate(["Anna", "Ben", "Cla", "Dumeng"])}, "first_dealer": "0",
          "stake": "0.10", "currency": "CHF", "rule_min_players": "3", "rule_match_with_tapp_points": "y",
          "rule_misere_tie": "each_top_pays"}


def troggu_evening(client, circle: str, n: int) -> str:
    """A Troggu evening of the circle: Anna's normal with 50 loses single, Ben's with 62 wins (docs/rules.md §5):
    at 10 Rappen a unit Anna is −40 and Ben +40 (test_paid.py works it out), and Anna lost one hand she took on."""
    key = circle.rsplit("/", 1)[1]
    url = client.post(f"/tables/new/troggu?circle={key}", data=TROGGU).headers["Location"]
    for i, (who, points) in enumerate((("Anna", 50), ("Ben", 62))):
        assert client.post(url + "/hands", data={"contract": "normal", "declarer": who, "side": "declarer",
                                                 "points": str(points), "token": f"e{n}-{i}"}).status_code == 303
    return url


def pot_form(page: str) -> dict:
    """The Paid button's fields of the line owed to the pot."""
    form = next(f for f in re.findall(r'<form[^>]*class="mark-paid"[^>]*>(.*?)</form>', page, re.S)
                if "\N{BANK}" in html.unescape(f))
    return dict(re.findall(r'name="([^"]+)" value="([^"]*)"', html.unescape(form)))


def test_a_pot_rule_changed_once_lines_were_paid_leaves_the_evenings_before_as_they_were_owed(app, client):
    circle = new_circle(client)
    first = troggu_evening(client, circle, 1)
    assert client.post(first + "/setup/date", data={"played_on": "2026-01-08"}).status_code == 303  # weeks ago
    assert client.post(circle + "/pot/rule", data={"per_lost_hand": "0.20"}).status_code == 303
    page = client.get(circle).get_data(as_text=True)
    # nothing was paid yet: the rule counts every evening, as it always did
    assert "Once a line is marked paid, a change counts from the day it is made" in html.unescape(page)
    assert owed_lines(page) == ["Anna pays Ben 40 Rappen", "Anna pays into the pot 20 Rappen"]  # 1 lost hand × 20
    assert client.post(circle + "/paid", data=pot_form(page)).status_code == 303  # Anna pays into the pot its 20
    # (taken back and marked again: the Undo says what is owed again, in French too)
    mark = re.search(r'name="payment" value="(\d+)"', client.get(circle).get_data(as_text=True)).group(1)
    r = client.post(circle + "/unpaid?lang=fr", data={"payment": mark}, follow_redirects=True)
    assert "Annulé\u202f: Anna doit de nouveau 20 centimes à la caisse." in r.get_data(as_text=True)
    page = client.get(circle + "?lang=en").get_data(as_text=True)  # (back in English, the cookie says from now on)
    assert client.post(circle + "/paid", data=pot_form(page)).status_code == 303
    assert client.post(circle + "/pot/rule", data={"per_lost_hand": "0.30"}).status_code == 303
    assert client.post(circle + "/pot/rule", data={"per_lost_hand": "0.50"}).status_code == 303  # the same day: last
    second = troggu_evening(client, circle, 2)  # tonight: Anna −40 again, one more lost hand
    page = html.unescape(client.get(circle).get_data(as_text=True))
    # the January evening keeps its 20 (paid), tonight's lost hand pays 50 under the new rule: Anna owes the pot 50
    # (without the rule's days: 2 × 50 − 20 paid = 80), and Ben 40 + 40 = 80
    owed = ["Anna pays Ben 80 Rappen", "Anna pays into the pot 50 Rappen"]
    assert owed_lines(page) == owed
    assert owed_lines(client.get(second + "/settle").get_data(as_text=True)) == owed  # the evening's page agrees
    assert owed_lines(client.get(first + "/settle").get_data(as_text=True)) == owed
    assert "Anna: 2 hands lost, 70 Rappen" in page  # 20 + 50
    said = re.search(r"In force from ([^:]+): .*?The evenings before keep the rule they were owed under "
                     r"\(20 Rappen a hand\)\.", page)
    assert said, "the rule's day is said"
    with app.app_context():
        circle_id = store.find_circle(circle.rsplit("/", 1)[1]).id
        rule = store.pot_rule_of(circle_id)
    assert [amount for _day, amount in rule] == [20, 50] and rule[0][0] is None  # 30 was replaced the same day
    # the circle's file keeps the rule's days: restored, it owes the same
    exported = client.get(circle + "/export.json").data
    r = client.post("/circles/import", data={"file": (io.BytesIO(exported), "c.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303 and owed_lines(client.get(r.headers["Location"]).get_data(as_text=True)) == owed
    bad = json.loads(exported)
    for rules in ([[None, 20], [None, 50]], [["1899-01-01", 20]], [[None, -5]], "x", []):
        bad["pot_rules"] = rules
        r = client.post("/circles/import", data={"file": (io.BytesIO(json.dumps(bad).encode()), "c.json")},
                        content_type="multipart/form-data")
        assert r.status_code == 400, rules


def test_a_pot_rule_changed_before_any_line_was_paid_counts_every_evening(app, client):
    circle = new_circle(client)
    first = troggu_evening(client, circle, 1)
    assert client.post(first + "/setup/date", data={"played_on": "2026-01-08"}).status_code == 303
    for amount in ("0.20", "0.50"):  # nothing was owed and paid under 0.20: 0.50 is the rule of every evening
        assert client.post(circle + "/pot/rule", data={"per_lost_hand": amount}).status_code == 303
    assert sorted(owed_lines(client.get(circle).get_data(as_text=True))) == ["Anna pays Ben 40 Rappen",
                                                                             "Anna pays into the pot 50 Rappen"]


def test_the_rule_of_an_evening_is_the_one_in_force_on_its_day():
    rule = ((None, 20), (date(2026, 3, 1), 50), (date(2026, 6, 1), 0))
    assert [season.rule_on(rule, d) for d in (date(2026, 2, 28), date(2026, 3, 1), date(2026, 7, 1))] == [20, 50, 0]
    assert season.rule_now(rule) == (0, date(2026, 6, 1)) and season.rule_on(35, date(1900, 1, 1)) == 35


def test_marking_paid_a_line_another_phone_just_settled_through_the_circle_marks_it_once(client):
    circle = new_circle(client)
    evening = open_evening(client, circle)
    hand(client, evening, 40, "p1")  # Anna & Cla +4 units × 5 Rappen = +20 each, Ben & Zoë −20 (docs/rules.md §1)
    on_evening = lines(client.get(evening + "/settle").get_data(as_text=True))  # one phone shows the evening's page
    on_circle = lines(client.get(circle).get_data(as_text=True))  # the other the circle's
    assert [(l["payer"], l["payee"], l["amount"]) for l in on_evening] == [("Ben", "Anna", "20"), ("Zoë", "Cla", "20")]
    assert client.post(circle + "/paid", data=on_circle[0]).status_code == 303  # Ben pays Anna, marked on the circle
    r = client.post(evening + "/settle/paid", data=on_evening[0], follow_redirects=True)  # and on the evening
    page = html.unescape(r.get_data(as_text=True))
    assert "That line isn't owed any more (marked paid on another phone, or the hands changed)" in page
    assert owed_lines(page) == ["Zoë pays Cla 20 Rappen"]  # one line left, the same on both pages
    assert owed_lines(client.get(circle).get_data(as_text=True)) == ["Zoë pays Cla 20 Rappen"]
    marked = re.findall(r"Ben.{0,80}Anna", re.sub(r"<[^>]+>", "", page.split('class="paid"')[-1]))
    assert len(marked) == 1, marked  # marked once


def test_an_undo_of_a_paid_mark_after_the_season_was_settled_again_owes_that_line_again_everywhere(client):
    circle = new_circle(client)
    first, second = open_evening(client, circle), open_evening(client, circle)
    hand(client, first, 40, "u1")  # Ben and Zoë −20 Rappen each, Anna and Cla +20
    for line in lines(client.get(first + "/settle").get_data(as_text=True)):
        assert client.post(first + "/settle/paid", data=line).status_code == 303  # paid on the night
    hand(client, second, 30, "u2")  # 30 − 36 = −6 units: Anna and Cla −30 Rappen each, Ben and Zoë +30
    for line in lines(client.get(circle).get_data(as_text=True)):
        assert client.post(circle + "/paid", data=line).status_code == 303  # the season settled again
    assert "Nobody owes anything." in client.get(circle).get_data(as_text=True)
    page = client.get(first + "/settle").get_data(as_text=True)
    ben_anna = re.search(r'<li[^>]*>(?:(?!</li>).)*?Ben(?:(?!</li>).)*?Anna(?:(?!</li>).)*?'
                         r'name="payment" value="(\d+)"', page, re.S).group(1)
    r = client.post(first + "/settle/unpaid", data={"payment": ben_anna}, follow_redirects=True)
    assert "Taken back: Ben owes Anna 20 Rappen again." in html.unescape(r.get_data(as_text=True))
    # the first night's Ben → Anna 20 is owed again, and only it: on the circle and on both evenings
    for url in (circle, first + "/settle", second + "/settle"):
        assert owed_lines(client.get(url).get_data(as_text=True)) == ["Ben pays Anna 20 Rappen"], url
    # the same Undo again (a second tap, another phone) takes back nothing more
    r = client.post(circle + "/unpaid", data={"payment": ben_anna}, follow_redirects=True)
    assert "That mark was already taken back (on this phone or another): nothing changed." in html.unescape(
        r.get_data(as_text=True))
    assert owed_lines(client.get(circle).get_data(as_text=True)) == ["Ben pays Anna 20 Rappen"]


@pytest.mark.parametrize("typed, says", [("0001-01-01", "Write a date from 1900 on."),
                                         ("1899-12-31", "Write a date from 1900 on."),
                                         ("9999-12-31", "more than a year away"),
                                         ("+10000-01-01", "Write a date such as 2026-11-27.")])
def test_an_evening_date_far_away_is_refused_at_its_field_and_kept(client, typed, says):
    circle = new_circle(client)
    evening = open_evening(client, circle)
    for r in (client.post(evening + "/setup/date", data={"played_on": typed}),
              client.post(f"/tables/new/troccas?circle={circle.rsplit('/', 1)[1]}",
                          data={"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
                                "first_dealer": "0", "stake": "0.05", "currency": "CHF", "played_on": typed})):
        page = html.unescape(r.get_data(as_text=True))
        assert r.status_code in (200, 400) and says in page and f'value="{typed}"' in page


def test_a_line_owed_to_the_pot_is_said_in_each_languages_own_words_on_the_page_and_in_the_shared_text(client):
    """The pot takes a case of its own: "Anna zahlt in die Kasse", not "Anna zahlt die Kasse"; the share text says
    it in words too, never with the pot's stand-in character (settle.BANK)."""
    circle = new_circle(client)
    evening = troggu_evening(client, circle, 1)
    assert client.post(circle + "/pot/rule", data={"per_lost_hand": "0.20"}).status_code == 303
    # as in the test above: Anna −40 to Ben, and 1 lost hand × 20 Rappen to the pot
    for lang, line in (("de", "Anna zahlt in die Kasse 20 Rappen"), ("fr", "Anna verse à la caisse 20 centimes"),
                       ("it", "Anna versa nella cassa 20 centesimi"), ("en", "Anna pays into the pot 20 Rappen")):
        for url in (circle, evening + "/settle"):
            page = client.get(f"{url}?lang={lang}").get_data(as_text=True)
            # (a line ends with its Paid button's word, in the page's language)
            assert any(owed.startswith(line) for owed in owed_lines(page)), (lang, url, owed_lines(page))
            shared = html.unescape(re.search(r'data-share-text="([^"]*)"', page).group(1))
            assert "\N{BANK}" not in shared, (lang, url, shared)
    page = client.get(circle + "?lang=de").get_data(as_text=True)
    shared = html.unescape(re.search(r'data-share-text="([^"]*)"', page).group(1))
    assert "Anna zahlt 20 Rappen in die Kasse" in shared and "\N{BANK}" not in shared
    assert client.post(circle + "/paid", data=pot_form(page)).status_code == 303
    page = html.unescape(client.get(circle + "?lang=de").get_data(as_text=True))
    assert "Anna hat 20 Rappen in die Kasse bezahlt" in page
