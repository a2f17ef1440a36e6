"""Limits a public server needs: rate limits (429), hands per table, address length, every HTTP error in
the request's format, and a double-tapped Undo that undoes once, on SQLite and PostgreSQL."""
from __future__ import annotations

import html
import json
import threading

import pytest
from flask import abort
from werkzeug.exceptions import default_exceptions

from scorekeeper import create_app, store
from tests.opening import TROCCAS, open_table

HAND = {"partner": "Cla", "side": "first", "points": "40"}
COUNT = {"game": "troccas", "cards": ["SW-K"]}


def limited_app(tmp_path, **config):
    """An app whose rate limits are low enough to reach in a test (the defaults are far higher)."""
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False,
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'limits.sqlite'}",
                       "RATELIMIT_TABLES": "2 per hour", "RATELIMIT_IMPORTS": "1 per minute",
                       "RATELIMIT_API": "3 per minute", **config})


# ---- rate limits ----

def test_the_api_is_limited_per_client_with_a_json_429(tmp_path):
    client = limited_app(tmp_path).test_client()
    # the limit counts the whole API together: three different endpoints use it up
    assert client.get("/api/v1/ping").status_code == 200
    assert client.get("/api/v1/games").status_code == 200
    assert client.post("/api/v1/count", json=COUNT).status_code == 200
    r = client.post("/api/v1/count", json=COUNT)
    assert r.status_code == 429
    assert r.get_json() == {"error": {"code": "rate_limited", "message": (
        "Too many requests from your address in a short time (at most 3 per minute). Wait a little and try "
        "again; nothing was changed.")}}
    assert 0 < int(r.headers["Retry-After"]) <= 60
    # another address has its own count
    assert client.get("/api/v1/ping", environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 200


def test_the_429_is_in_the_players_language(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_API="1 per hour").test_client()
    client.get("/api/v1/ping")
    r = client.get("/api/v1/ping", headers={"Accept-Language": "de"})
    assert r.status_code == 429
    assert r.get_json()["error"]["message"] == ("Zu viele Anfragen von deiner Adresse in kurzer Zeit (höchstens "
                                                "1 pro Stunde). Warte ein wenig und versuche es nochmals; nichts "
                                                "wurde geändert.")


def test_opening_tables_is_limited_with_the_error_page_but_the_form_still_shows(tmp_path):
    client = limited_app(tmp_path).test_client()
    open_table(client)
    open_table(client)
    r = client.post("/tables/new/troccas", data=TROCCAS)
    assert r.status_code == 429 and r.mimetype == "text/html"
    page = html.unescape(r.get_data(as_text=True))
    assert "Too many requests from your address in a short time (at most 2 per hour)." in page
    assert '<a class="button" href="/">' in page  # the app's error page, not a bare one
    assert client.get("/tables/new/troccas").status_code == 200  # only opening is counted


def test_imports_are_limited(tmp_path):
    client = limited_app(tmp_path).test_client()
    assert client.post("/tables/import", data={}).status_code == 400  # "choose a file": counted all the same
    r = client.post("/tables/import", data={}, headers={"Accept-Language": "de"})
    assert r.status_code == 429
    assert "höchstens 1 pro Minute" in html.unescape(r.get_data(as_text=True))


def test_starting_and_importing_circles_are_limited_as_opening_tables(tmp_path):
    """Issue 37: 5 imports of a circle's file made 5,000 tables in 3 s from one address; starting circles had no
    limit either."""
    client = limited_app(tmp_path, RATELIMIT_CIRCLES="2 per hour", RATELIMIT_CIRCLE_IMPORTS="1 per hour").test_client()
    assert [client.post("/circles/new", data={"name": f"Krone {n}"}).status_code for n in range(3)] == [303, 303, 429]
    r = client.post("/circles/new", data={"name": "Krone"}, headers={"Accept-Language": "fr"})
    assert r.status_code == 429 and "(2 par heure au plus)" in html.unescape(r.get_data(as_text=True))
    assert client.get("/circles/new").status_code == 200  # only starting one is counted
    assert client.post("/circles/import", data={}).status_code == 400  # "choose a file": counted all the same
    r = client.post("/circles/import", data={})
    assert r.status_code == 429 and "at most 1 per hour" in html.unescape(r.get_data(as_text=True))
    assert client.post("/circles/new", data={"name": "Krone"}, environ_base={"REMOTE_ADDR": "10.1.2.3"}
                       ).status_code == 303  # another address: its own count


def test_starting_cups_is_limited(tmp_path):
    """Issue 37 item 4: tournaments are limited as circles are; a cup seats its players at a round of tables."""
    from test_cups_web import CUP
    client = limited_app(tmp_path, RATELIMIT_CUPS="2 per hour").test_client()
    assert [client.post("/cups/new", data=CUP).status_code for _ in range(3)] == [303, 303, 429]
    assert client.get("/cups/new").status_code == 200  # only starting one is counted
    assert client.post("/cups/new", data=CUP, environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 303


def test_saving_fixing_and_undoing_hands_is_never_limited(tmp_path):
    client = limited_app(tmp_path, RATELIMIT_TABLES="1 per hour", RATELIMIT_API="1 per hour").test_client()
    url = open_table(client)
    for i in range(150):  # more than a whole evening's hands, as fast as the test client goes
        assert client.post(url + "/hands", data={**HAND, "token": f"h{i}"}).status_code == 303
    for i in range(20):
        assert client.post(url + "/hands/1", data={**HAND, "points": str(30 + i)}).status_code == 303
        assert client.post(url + "/undo", data={"token": f"u{i}"}).status_code == 303
        assert client.post(url + "/preview", data=HAND).status_code == 200
        assert client.get(url + "/board").status_code == 200
    assert client.post("/tables/new/troccas", data=TROCCAS).status_code == 429  # while opening is limited


def test_limits_can_be_turned_off_and_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("RATELIMIT_API", "1 per hour")
    monkeypatch.setenv("RATELIMIT_ENABLED", "0")
    monkeypatch.setenv("MAX_HANDS", "7")
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'env.sqlite'}"})
    assert app.config["RATELIMIT_API"] == "1 per hour" and app.config["MAX_HANDS"] == 7
    client = app.test_client()
    assert [client.get("/api/v1/ping").status_code for _ in range(3)] == [200, 200, 200]


@pytest.mark.parametrize("setting", ["RATELIMIT_APPLICATION", "RATELIMIT_DEFAULT"])
def test_a_limit_a_deployer_sets_for_every_request_still_applies(tmp_path, setting):
    """Requests no limit of the app names skip the limiter (web/limits.py), unless a deployer's config.py
    sets Flask-Limiter's own limit for every request: then a page is counted too (2 let in, the third 429)."""
    client = limited_app(tmp_path, **{setting: "2 per minute"}).test_client()
    assert [client.get("/tables/new").status_code for _ in range(3)] == [200, 200, 429]


def test_the_default_limits_are_generous():
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": "sqlite://"})
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert app.config["RATELIMIT_API"] == "1200 per minute"
    assert app.config["RATELIMIT_TABLES"] == app.config["RATELIMIT_IMPORTS"] == "200 per hour"
    assert app.config["RATELIMIT_CIRCLES"] == "200 per hour" and app.config["RATELIMIT_CIRCLE_IMPORTS"] == "10 per hour"
    assert app.config["RATELIMIT_CUPS"] == "20 per hour"
    assert app.config["MAX_HANDS"] == 2000


# ---- hands per table ----

def test_a_table_keeps_at_most_max_hands_and_says_so_at_the_form(tmp_path):
    app = limited_app(tmp_path, MAX_HANDS=3)
    client = app.test_client()
    url = open_table(client)
    for i in range(3):
        assert client.post(url + "/hands", data={**HAND, "token": f"h{i}"}).status_code == 303
    assert client.post(url + "/hands", data={**HAND, "token": "h2"}).status_code == 303  # a double tap: done
    r = client.post(url + "/hands", data={**HAND, "points": "44", "token": "h3"})
    assert r.status_code == 200
    page = html.unescape(r.get_data(as_text=True))
    assert ("This table already holds 3 hands, the most one table can keep. Export it and open a new table for "
            "the rest of the evening.") in page
    assert 'name="points"' in page and 'value="44"' in page  # the typed hand is kept
    client.post(url + "/hands/1/delete", data={"token": "d"})  # room again
    assert client.post(url + "/hands", data={**HAND, "token": "h4"}).status_code == 303
    with app.app_context():
        assert store.count_hands(url.rsplit("/", 1)[1]) == 3


def test_an_import_of_more_hands_than_max_hands_is_refused(tmp_path):
    app = limited_app(tmp_path, MAX_HANDS=2, RATELIMIT_IMPORTS="100 per minute")
    client = app.test_client()
    url = open_table(client)
    for i in range(2):
        client.post(url + "/hands", data={**HAND, "token": f"h{i}"})
    exported = client.get(url + "/export.json").get_json()
    ok = client.post("/tables/import", content_type="multipart/form-data",
                     data={"file": (__import__("io").BytesIO(json.dumps(exported).encode()), "t.json")})
    assert ok.status_code == 303
    exported["hands"].append({**exported["hands"][-1], "number": 3})
    r = client.post("/tables/import", content_type="multipart/form-data", headers={"Accept-Language": "de"},
                    data={"file": (__import__("io").BytesIO(json.dumps(exported).encode()), "t.json")})
    assert r.status_code == 400
    assert "Diese Datei hat 3 Runden; ein Tisch fasst höchstens 2." in r.get_data(as_text=True)


# ---- addresses and HTTP errors ----

def test_an_over_long_address_is_a_414_json_under_the_api_and_a_page_elsewhere(client):
    r = client.get("/api/v1/games/" + "x" * 3000)
    assert r.status_code == 414 and r.get_json()["error"]["code"] == "bad_request"
    r = client.get("/count/troccas?x=" + "y" * 3000)
    assert r.status_code == 414 and r.mimetype == "text/html"
    assert "This address is far too long." in r.get_data(as_text=True)
    assert client.get("/count/troccas?x=" + "y" * 1000).status_code == 200


CODES = sorted(code for code in default_exceptions if code >= 400)


@pytest.fixture
def aborting(tmp_path):
    """An app with a route that answers any HTTP error, under /api/ and elsewhere."""
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite'}"})
    app.add_url_rule("/api/v1/abort/<int:code>", "api_abort", lambda code: abort(code))
    app.add_url_rule("/abort/<int:code>", "page_abort", lambda code: abort(code))
    return app.test_client()


@pytest.mark.parametrize("code", CODES)
def test_every_http_error_is_json_under_the_api_and_the_error_page_elsewhere(aborting, code):
    r = aborting.get(f"/api/v1/abort/{code}")
    assert r.status_code == code and r.mimetype == "application/json"
    error = r.get_json()["error"]
    assert error["code"] in ("bad_request", "not_found", "rate_limited", "server_error") and error["message"]
    r = aborting.get(f"/abort/{code}")
    assert r.status_code == code and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert '<p class="message">' in page and '<a class="button" href="/">' in page
    assert "Werkzeug" not in page


def test_real_405_and_413_in_both_formats(client):
    assert client.put("/api/v1/count").get_json()["error"]["code"] == "bad_request"
    r = client.put("/tables/new/troccas")
    assert r.status_code == 405 and "This address can't be used that way." in html.unescape(r.get_data(as_text=True))
    r = client.post("/tables/new/troccas", data={"stake": "1" * 3_000_000})
    assert r.status_code == 413 and "far too much data" in r.get_data(as_text=True)


def test_a_form_or_api_body_over_256_kb_is_refused_but_an_import_may_be_2_mb(client):
    # 200,000 fields in 1.6 MB kept a worker busy half a second parsing them; no form here is over 10 KB
    r = client.post("/count/troccas", data="&".join(["card=ZZ"] * 40_000),
                    content_type="application/x-www-form-urlencoded")
    assert r.status_code == 413 and "far too much data" in r.get_data(as_text=True)
    r = client.post("/api/v1/count", json={"game": "troccas", "cards": ["ZZ"] * 60_000})
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "bad_request"
    assert client.post("/count/troccas", data={"card": ["SW-K"] * 78}).status_code == 200
    r = client.post("/tables/import", content_type="multipart/form-data",
                    data={"file": (__import__("io").BytesIO(b" " * 1_500_000), "t.json")})
    assert r.status_code == 400 and "This file is not JSON." in r.get_data(as_text=True)  # read, then refused


# ---- a double-tapped Undo ----

def test_a_double_tapped_undo_undoes_once_even_when_both_posts_meet(db_app):
    """Two identical Undo posts at the same moment (same token): one undo, and both answer with the table."""
    client = db_app.test_client()
    url = open_table(client)
    table_id = url.rsplit("/", 1)[1]
    for i in range(6):
        assert client.post(url + "/hands", data={**HAND, "points": str(30 + i), "token": f"h{i}"}).status_code == 303
    for round_ in range(5):
        barrier, answers = threading.Barrier(2), []

        def tap():
            phone = db_app.test_client()
            barrier.wait()
            answers.append(phone.post(url + "/undo", data={"token": f"undo-{round_}"}).status_code)

        threads = [threading.Thread(target=tap) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert answers == [303, 303]
        assert len(store.list_hands(table_id)) == 5 - round_  # exactly one hand undone per double tap
    assert [h.facts["points"] for h in store.list_hands(table_id)] == [30]


def test_undo_posted_again_later_changes_nothing(db_app):
    client = db_app.test_client()
    url = open_table(client)
    for i in range(3):
        client.post(url + "/hands", data={**HAND, "points": str(30 + i), "token": f"h{i}"})
    table_id = url.rsplit("/", 1)[1]
    first = store.undo(table_id, "u")
    again = store.undo(table_id, "u")
    assert again is not None and again.hand_number == first.hand_number == 3
    assert len(store.list_hands(table_id)) == 2
