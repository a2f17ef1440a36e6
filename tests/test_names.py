"""A name is one name however the phone's keyboard composed it (issue 37): "Zoé" as one character (NFC) or as e
and a combining accent (NFD) comes in composed, through every door: forms, addresses, the API, imports."""
from __future__ import annotations

import html
import io
import json
import unicodedata

import pytest

from scorekeeper import store
from tests.opening import TROCCAS, open_table

COMPOSED, DECOMPOSED = "Zo\u00e9", "Zoe\u0301"  # both look like "Zoé"
assert unicodedata.normalize("NFC", DECOMPOSED) == COMPOSED and COMPOSED != DECOMPOSED


@pytest.fixture(autouse=True)
def ctx(app):
    with app.app_context():
        yield


def test_one_name_typed_two_ways_is_one_player_at_the_table_form(client):
    r = client.post("/tables/new/troccas", data={**TROCCAS, "players-2": COMPOSED, "players-3": DECOMPOSED})
    # before: two players, "Zoé" and "Zoé", at one table
    assert "Two players can&#39;t have the same name." in r.get_data(as_text=True)  # the form again, at the field
    assert "Location" not in r.headers


def test_a_name_typed_decomposed_is_stored_composed_and_a_hand_finds_her(client):
    url = open_table(client, data={**TROCCAS, "players-3": DECOMPOSED})
    table = store.find_link(url.rsplit("/", 1)[1]).table
    assert table.players[3] == COMPOSED
    # her partner chosen on a phone that sends the name decomposed: the same player
    r = client.post(url + "/hands", data={"partner": DECOMPOSED, "side": "first", "points": "40", "token": "n1"})
    assert r.status_code == 303
    assert [COMPOSED, "Anna"] in [sorted(t, reverse=True) for t in store.list_hands(table.id)[0].facts["teams"]]


def test_the_api_composes_every_name_it_is_sent(client):
    body = {"game": "troccas", "players": ["Anna", "Ben", "Cla", DECOMPOSED],
            "hand": {"teams": [["Anna", "Cla"], ["Ben", COMPOSED]], "side": "Anna", "points": 37}}
    r = client.post("/api/v1/score", json=body)
    # before: the team's "Zoé" (composed) was no player of the table's (decomposed): a 400
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["scores"] == {"Anna": 1, "Cla": 1, "Ben": -1, COMPOSED: -1}  # 37-35 (docs/rules.md §1)


def test_an_imported_table_composes_its_names(client):
    url = open_table(client)
    exported = client.get(url + "/export.json").get_data(as_text=True).replace("Zoë", "Zoe\u0308")  # ë decomposed
    r = client.post("/tables/import", data={"file": (io.BytesIO(exported.encode()), "table.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    assert store.find_link(r.headers["Location"].rsplit("/", 1)[1]).table.players[3] == "Zoë"


def test_a_person_of_a_circle_is_one_whichever_way_she_was_stored():
    from scorekeeper.engine import season
    assert season.person(DECOMPOSED) == season.person(COMPOSED.upper())  # names stored before this: one person


def test_the_circle_page_renames_a_person_sent_decomposed(client):
    circle = client.post("/circles/new", data={"name": "Krone"}).headers["Location"]
    key = circle.rsplit("/", 1)[1]
    client.post(f"/tables/new/troccas?circle={key}", data={**TROCCAS, "players-3": COMPOSED})
    r = client.post(circle + "/people", data={"person": DECOMPOSED, "name": "Zoe"})
    assert r.status_code == 303  # before: "Choose one of the circle's people."
    tables = store.circle_tables(store.find_circle(key).id)
    assert tables[0].players[3] == "Zoe"


def circle_file(client) -> dict:
    circle = client.post("/circles/new", data={"name": "Krone"}).headers["Location"]
    key = circle.rsplit("/", 1)[1]
    client.post(f"/tables/new/troccas?circle={key}", data=TROCCAS)
    return json.loads(client.get(circle + "/export.json").get_data(as_text=True))


def import_circle(client, data: dict):
    return client.post("/circles/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "circle.json")},
                       content_type="multipart/form-data")


def test_a_circle_file_whose_money_names_a_stranger_is_refused(client):
    data = circle_file(client)
    when = data["created_at"]
    for change, says in (
            (lambda d: d["evenings"][0]["paid"].append({"payer": "Mallory", "payee": "Anna", "amount": 20,
                                                        "currency": "CHF", "at": when}),
             "Evening 1: A line marked paid names Mallory, who didn't play that evening."),
            (lambda d: d["paid"].append({"payer": "Ben", "payee": "Mallory", "amount": 20, "currency": "CHF",
                                         "at": when}),
             "The season's lines marked paid name Mallory, who played none of the file's evenings."),
            (lambda d: d["pot"].append({"amount": 100, "currency": "CHF", "who": "Mallory", "note": "x", "at": when}),
             "The pot names Mallory, who played none of the file's evenings.")):
        bad = json.loads(json.dumps(data))
        change(bad)
        r = import_circle(client, bad)
        assert r.status_code == 400 and says in html.unescape(r.get_data(as_text=True)), says
    # the same lines naming the evening's own people (however spelled) are taken
    good = json.loads(json.dumps(data))
    good["evenings"][0]["paid"].append({"payer": "ben", "payee": "Anna", "amount": 20, "currency": "CHF", "at": when})
    good["pot"].append({"amount": 100, "currency": "CHF", "who": "Zoe\u0308", "note": "x", "at": when})
    assert import_circle(client, good).status_code == 303
