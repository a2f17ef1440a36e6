"""A circle's evenings are read, and its season worked out, once per circle tag (web/ledger.py evenings, season_page):
its page shown again unchanged reads none of its tables and adds up no evening, and any change that moves the tag (a
hand saved at one of its evenings) is read and shown."""
import re

from scorekeeper import store
from scorekeeper.engine import season

SEATS = ["Anna", "Ben", "Cla", "Zoë"]
# Anna and Cla take 40 points in Troccas: 40 − 36 = +4 each, Ben and Zoë −4 each (docs/rules.md §1)
HAND = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 40}


def anna(page: str) -> str:
    """Anna's points in the circle's standings."""
    return re.search(r'<th scope="row">Anna</th>.*?([+−]\d+|0)<', page, re.S).group(1)


def test_a_circles_evenings_are_read_once_per_tag_and_again_after_a_change(app, client, monkeypatch):
    with app.app_context():
        key = store.create_circle("Thursdays")
        circle = store.find_circle(key)
        evenings = []
        for _ in range(3):
            table = store.create_table("troccas", SEATS, {}, 5, "CHF", 0)
            store.add_hand(table.id, HAND)
            store.join_circle(table.id, circle.id)
            evenings.append(table.id)
    reads, pages = [], []
    real, page = store.circle_tables, season.page
    monkeypatch.setattr(store, "circle_tables", lambda circle_id: reads.append(circle_id) or real(circle_id))
    monkeypatch.setattr(season, "page", lambda *a, **k: pages.append(1) or page(*a, **k))
    first = client.get(f"/c/{key}").get_data(as_text=True)
    again = client.get(f"/c/{key}").get_data(as_text=True)
    assert len(reads) == len(pages) == 1 and anna(first) == anna(again) == "+12"  # 3 evenings of +4: once
    assert len(pages) == 1 and client.get(f"/c/{key}?period=year").status_code == 200 and len(pages) == 2
    with app.app_context():
        store.add_hand(evenings[0], HAND)  # the first evening's version moves on, and with it the circle's tag
    after = client.get(f"/c/{key}").get_data(as_text=True)
    assert len(reads) == 2 and len(pages) == 3 and anna(after) == "+16"  # again: 4 hands of +4
