"""Share on each saved hand (issue 28): the hand just saved, the evening's totals and the watch link, for the group
chat, in the table's language; the Save's answer carries the hand and totals, the page the watch link."""
from __future__ import annotations

import html
import re

from opening import open_table


def share_text(page: str) -> str:
    return html.unescape(re.search(r'<div id="said".*?data-share-text="([^"]*)"', page, re.S).group(1))


def watch_line(page: str) -> str:
    return html.unescape(re.search(r'data-share-link="([^"]*)"', page).group(1))


def test_a_saved_hand_shares_the_hand_the_totals_and_the_watch_link_in_german(client):
    url = open_table(client, lang="de")
    r = client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": "h1"})
    assert r.status_code == 303
    page = client.get(url).get_data(as_text=True)
    lines = share_text(page).split("\n")
    assert lines[0].startswith("Troccas, ")
    # Troccas: Anna & Cla took 40 of 72 points: 40 − 36 = +4 each, Ben & Zoë −4 (docs/rules.md §1); at 5 Rappen a
    # point that is 20 Rappen each (tests/opening.py's table)
    assert lines[1].startswith("Runde 1: ") and lines[1].endswith("Anna +4, Cla +4")
    assert lines[2] == ("Stand: Anna +4 (+CHF\xa00.20), Ben −4 (−CHF\xa00.20), Cla +4 (+CHF\xa00.20), "
                        "Zoë −4 (−CHF\xa00.20)")
    assert re.fullmatch(r"Punkteliste: http://localhost/v/[A-Za-z0-9_-]+", watch_line(page))  # never the scorer's
    assert watch_line(page).rsplit("/", 1)[1] not in url


def test_the_saves_answer_carries_the_next_hands_share_and_the_page_keeps_the_watch_link(client):
    url = open_table(client)
    page = client.get(url).get_data(as_text=True)
    link = watch_line(page)
    assert "data-share-text" not in page  # nothing saved yet: nothing to share
    r = client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": "h1"},
                    headers={"HX-Request": "true", "HX-Target": "hand-form"})
    first = share_text(r.get_data(as_text=True))
    assert first.split("\n")[1].startswith("Hand 1: ")
    r = client.post(url + "/hands", data={"partner": "Ben", "side": "first", "points": "30", "token": "h2"},
                    headers={"HX-Request": "true", "HX-Target": "hand-form"})
    second = share_text(r.get_data(as_text=True)).split("\n")
    # hand 2: Anna & Ben 30 − 36 = −6 each, Cla & Zoë +6; totals after both: Anna 4 − 6 = −2, Ben −4 − 6 = −10,
    # Cla 4 + 6 = +10, Zoë −4 + 6 = +2 (docs/rules.md §1), at 5 Rappen a point
    assert second[1].startswith("Hand 2: ") and second[1].endswith("Cla +6, Zoë +6")
    assert second[2] == ("Totals: Anna −2 (−CHF\xa00.10), Ben −10 (−CHF\xa00.50), Cla +10 (+CHF\xa00.50), "
                         "Zoë +2 (+CHF\xa00.10)")
    assert "data-share-link" not in r.get_data(as_text=True) and watch_line(client.get(url).get_data(as_text=True)) == link


def test_when_no_money_moved_the_totals_are_points_alone(client):
    url = open_table(client)
    # Anna & Cla take 36 of 72: 36 − 36 = 0 for everyone (docs/rules.md §1): no money to say
    client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "36", "token": "h1"})
    lines = share_text(client.get(url).get_data(as_text=True)).split("\n")
    assert lines[1].endswith("nobody wins") and lines[2] == "Totals: Anna 0, Ben 0, Cla 0, Zoë 0"


def test_the_settle_pages_title_is_words_alone(client):
    url = open_table(client)
    title = re.search(r"<title>(.*?)</title>", client.get(url + "/settle").get_data(as_text=True), re.S).group(1)
    assert "<" not in title and title.strip() == "Settle up · Troccas"
