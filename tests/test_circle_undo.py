"""Nothing final by mistake (issue 36, item 3): a circle's rename or merge says what it did, and its Undo takes back
the whole change, in every evening it changed, as one change; an Undo that can't be done says why in one sentence
and changes nothing."""
from __future__ import annotations

import html
import re

import pytest

from scorekeeper import store
from tests.opening import TROCCAS
from tests.test_circles import hand, new_circle, open_evening, standings


@pytest.fixture(autouse=True)
def in_the_app(app):
    """The store read directly here, beside the pages: in the app's context."""
    with app.app_context():
        yield


def names_of(circle_id: str) -> dict[str, set[str]]:
    """Every name each of the circle's evenings holds (keyed by its first player): the table's players, each hand's
    seated players, its dealer and the names in its facts (Troccas's teams), and its lines marked paid."""
    found = {}
    for table in store.circle_tables(circle_id):
        names = set(table.players)
        for h in store.list_hands(table.id):
            names |= set((h.setup or {}).get("players", [])) | {h.dealer} | {p for t in h.facts["teams"] for p in t}
        names |= {p for m in store.paid_for_table(table.id) for p in (m.payer, m.payee)}
        found[table.players[0]] = names
    return found


def season(client) -> tuple[str, str, str, str]:
    """A circle of two evenings: Anna's (hand of 40) and Anne's (hand of 45), a line of Anne's evening marked paid
    there, a season's line and a pot entry in Anne's name. Returns the circle's address, its id and the evenings'."""
    circle = new_circle(client)
    key = circle.rsplit("/", 1)[1]
    circle_id = store.find_circle(key).id
    first = open_evening(client, circle)
    hand(client, first, 40, "e1")  # Anna & Cla 40 − 36 = +4 units each, Ben & Zoë −4 (docs/rules.md §1)
    second = client.post(f"/tables/new/troccas?circle={key}", data={**TROCCAS, "players-0": "Anne"}).headers["Location"]
    hand(client, second, 45, "e2")  # Anne & Cla 45 − 36 = +9 each, Ben & Zoë −9
    anne_table = next(t for t in store.circle_tables(circle_id) if t.players[0] == "Anne")
    store.mark_paid("Ben", "Anne", 45, "CHF", table_id=anne_table.id)  # 9 units × 5 Rappen, paid on the night
    store.mark_paid("Anne", "Zoë", 10, "CHF", circle_id=circle_id)  # a season's line, paid on the circle
    store.pot_add(circle_id, 50, "CHF", "a solo lost", "Anne")
    return circle, circle_id, first, second


def money_names(circle_id: str) -> tuple[list, list]:
    return ([(p.payer, p.payee) for p in store.paid_in_circle(circle_id) if p.table_id is None],
            [e.who for e in store.pot_entries_of(circle_id)])


def undo_form(page: str) -> dict:
    form = re.search(r'<form method="post" action="([^"]+)" class="undo-rename">.*?name="change" value="(\d+)"',
                     page, re.S)
    return {"url": form.group(1), "change": form.group(2)}


def test_a_merge_says_what_it_did_and_its_undo_takes_it_back_in_every_evening(client):
    circle, circle_id, _first, _second = season(client)
    before = names_of(circle_id)
    assert standings(client.get(circle).get_data(as_text=True))["Anne"][:2] == ["1", "+9"]
    r = client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "m1", "confirm": "yes"})
    page = html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    assert "Anne and Anna are now one: Anna, in 1 evening." in page  # only Anne's evening had Anne
    assert "Last change: Anne and Anna made one." in page
    assert standings(page)["Anna"][:2] == ["2", "+13"] and "Anne" not in standings(page)  # +4 + 9
    assert money_names(circle_id) == ([("Anna", "Zoë")], ["Anna"])
    form = undo_form(page)
    r = client.post(form["url"], data={"change": form["change"]})
    assert r.status_code == 303
    page = html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    assert "Undone: Anne and Anna are two people again, in the 1 evening it changed." in page
    # every row the merge changed is back: the tables, the hands (seats, dealer, teams), the lines paid, the pot
    assert names_of(circle_id) == before
    assert money_names(circle_id) == ([("Anne", "Zoë")], ["Anne"])
    table = standings(page)
    assert table["Anna"][:2] == ["1", "+4"] and table["Anne"][:2] == ["1", "+9"]
    assert 'class="undo-rename"' not in page  # nothing left to undo
    # Undo twice (a second tap, another phone): one sentence, nothing changed
    r = client.post(form["url"], data={"change": form["change"]})
    assert r.status_code == 409
    assert "That change was already undone (on this phone or another): there is nothing more to undo." in html.unescape(
        r.get_data(as_text=True))
    assert names_of(circle_id) == before


def test_a_rename_says_what_it_did_and_a_hand_saved_since_at_its_evening_goes_back_with_it(client):
    circle, circle_id, first, _second = season(client)
    r = client.post(circle + "/people", data={"person": "Cla", "name": "Claudia", "token": "r1"})
    page = html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    assert "Cla is now Claudia, in 2 evenings." in page and "Last change: Cla renamed Claudia." in page
    r = client.post(first + "/hands", data={"partner": "Claudia", "side": "first", "points": "50", "token": "e3"})
    assert r.status_code == 303  # a hand of tonight, played with the new name
    form = undo_form(page)
    r = client.post(form["url"], data={"change": form["change"]})
    page = html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    assert "Undone: Cla is Cla again, in the 2 evenings it changed." in page
    names = names_of(circle_id)
    assert "Claudia" not in names["Anna"] | names["Anne"] and "Cla" in names["Anna"]
    # Cla's points: +4 (40) + 9 (45) + 14 (50 − 36) = 27, all of them Cla's again
    assert standings(page)["Cla"][:2] == ["2", "+27"]


def test_an_undo_of_a_merge_after_a_new_evening_used_the_merged_name_says_what_it_keeps(client):
    circle, circle_id, _first, _second = season(client)
    r = client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "m2", "confirm": "yes"})
    form = undo_form(client.get(r.headers["Location"]).get_data(as_text=True))
    third = open_evening(client, circle)  # Anna, Ben, Cla, Zoë: is this Anna, or Anne under her merged name?
    assert client.post(third + "/setup/date", data={"played_on": "2026-12-03"}).status_code == 303
    hand(client, third, 30, "e3")  # Anna & Cla 30 − 36 = −6 each
    r = client.post(form["url"], data={"change": form["change"]})
    assert r.status_code == 303
    page = html.unescape(client.get(r.headers["Location"]).get_data(as_text=True))
    assert ("Undone: Anne and Anna are two people again, in the 1 evening it changed. The evening of Dec 3, 2026, "
            "played after it, keeps Anna: if that was Anne, change it at that table.") in page
    table = standings(page)
    assert table["Anne"][:2] == ["1", "+9"] and table["Anna"][:2] == ["2", "\u22122"]  # +4 − 6; Anne's +9 alone
    assert "Anne" not in store.circle_tables(circle_id)[-1].players  # the new evening kept what it was played with


def test_an_undo_waits_for_a_later_rename_and_refuses_what_an_evening_changed_since(client):
    circle, circle_id, _first, second = season(client)
    r = client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "m3", "confirm": "yes"})
    merge = undo_form(client.get(r.headers["Location"]).get_data(as_text=True))
    r = client.post(circle + "/people", data={"person": "Anna", "name": "Annina", "token": "r3"})
    rename = undo_form(client.get(r.headers["Location"]).get_data(as_text=True))
    before = names_of(circle_id)
    r = client.post(merge["url"], data={"change": merge["change"]})
    assert r.status_code == 409 and "Anna was renamed Annina after it: undo that first (nothing was undone)." in \
        html.unescape(r.get_data(as_text=True))
    assert names_of(circle_id) == before
    assert client.post(rename["url"], data={"change": rename["change"]}).status_code == 303
    # the merge is the last change again; but Anne's evening now seats someone called Anne again (changed there)
    anne_table = next(t for t in store.circle_tables(circle_id) if t.id not in {
        t.id for t in store.circle_tables(circle_id) if "Anne" in t.players} and t.players[0] == "Anna"
        and any(h.facts["points"] == 45 for h in store.list_hands(t.id)))
    from scorekeeper.engine.games import get_game
    store.change_table(anne_table.id, ["Anna", "Anne", "Cla", "Zoë"], 5, dict(anne_table.rules), {"Ben": "Anne"},
                       get_game("troccas").rename)
    before = names_of(circle_id)
    r = client.post(merge["url"], data={"change": merge["change"]})
    said = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 409 and "has the old name at its table again: nothing was undone." in said
    assert names_of(circle_id) == before and second


def test_an_undo_of_another_circles_change_is_refused(client):
    circle, _circle_id, _first, _second = season(client)
    r = client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "m4", "confirm": "yes"})
    form = undo_form(client.get(r.headers["Location"]).get_data(as_text=True))
    other = new_circle(client, "Fridays")
    r = client.post(other + "/people/undo", data={"change": form["change"]})
    assert r.status_code == 404 and "That change isn't one of this circle's." in html.unescape(r.get_data(as_text=True))
    assert client.post(other + "/people/undo", data={"change": "x"}).status_code == 404


def test_a_watch_link_sees_no_undo_and_cannot_undo(client):
    circle, circle_id, _first, _second = season(client)
    r = client.post(circle + "/people", data={"person": "Anne", "name": "Anna", "token": "m5", "confirm": "yes"})
    form = undo_form(client.get(r.headers["Location"]).get_data(as_text=True))
    watch = "/c/" + store.share_links(circle_id, store.CIRCLE)[store.VIEWER]
    assert 'class="undo-rename"' not in client.get(watch).get_data(as_text=True)
    assert client.post(watch + "/people/undo", data={"change": form["change"]}).status_code == 403
    assert store.last_circle_change(circle_id).id == int(form["change"])  # nothing undone
