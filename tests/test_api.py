"""The counting half of the JSON API (docs/api.md): games, count, every error code, never a 500."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.games import all_games


def post(client, body, raw=None):
    data = raw if raw is not None else json.dumps(body)
    return client.post("/api/v1/count", data=data, content_type="application/json")


def error(answer, status, code):
    assert answer.status_code == status, answer.get_json()
    body = answer.get_json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert body["error"]["message"].strip()
    return body["error"]


def test_games_lists_every_game(client):
    games = client.get("/api/v1/games").get_json()["games"]
    assert [g["id"] for g in games] == ["troggu", "troccas", "french_tarot", "scarto", "mitigati",
                                        "swiss_tarot_1659", "sicilian_tarocchi", "triomphe_forcee", "koenigrufen"]
    by_id = {g["id"]: g for g in games}
    # docs/api.md: deck_total is the deck's points (null for Triomphe Forcée); docs/rules.md §0.3 totals.
    assert {k: g["deck_total"] for k, g in by_id.items()} == {
        "troggu": 114, "troccas": 72, "french_tarot": 91, "scarto": 78, "mitigati": 129,
        "swiss_tarot_1659": 78, "sicilian_tarocchi": 104, "triomphe_forcee": None,  # §10: 146 − 21 × 2
        "koenigrufen": 70}  # §11: 3 · 106 − 2 · 54 = 210 thirds = 70
    assert by_id["troggu"]["deck_size"] == 62 and by_id["troggu"]["players"] == {"min": 3, "max": 8}
    # docs/api.md's house-rule table: the counting options and their defaults.
    assert by_id["scarto"]["rules"]["honour_trump"] == "T20"
    assert by_id["mitigati"]["rules"]["honour_trump"] == "T20"
    for g in games:
        assert {"id", "name", "players", "deck_size", "deck_total", "rules"} <= set(g)


@pytest.mark.parametrize("game", list(all_games()))
def test_one_game_has_deck_and_values(client, game):
    body = client.get(f"/api/v1/games/{game}").get_json()
    assert len(body["deck"]) == body["deck_size"] == len(set(body["deck"]))
    assert set(body["values"]) == set(body["deck"])
    if game == "french_tarot":
        assert body["values"]["SW-K"] == 4.5 and body["values"]["T5"] == 0.5  # docs/rules.md §0.2
    else:
        assert body["values"]["SW-K"] == 5 and body["values"]["SW-Q"] == 4  # docs/rules.md §0.2


def test_count_troccas(client):
    answer = post(client, {"game": "troccas", "cards": ["sw-k", "CU-Q", "BA-J", "T5"]})
    assert answer.status_code == 200
    # italian-swiss-archive.txt (SCA): king 5, queen 4−1, valet 2−1, suit card 0 = 9; the rest 72 − 9.
    assert answer.get_json() == {"game": "troccas", "cards": 4, "points": 9,
                                 "groups": {"size": 4, "full": 1, "leftover": 0},
                                 "rest": {"cards": 74, "points": 63}, "warnings": [],
                                 "working": "1 group of 4: 12 − 3 = 9"}


def test_count_french_halves_and_oudlers(client):
    body = post(client, {"game": "french_tarot", "cards": ["T21", "T2", "SW-K"]}).get_json()
    # docs/rules.md §0.2: 4.5 + 0.5 + 4.5 = 9.5, one oudler; the rest 91 − 9.5 = 81.5.
    assert body["points"] == 9.5 and body["oudlers"] == 1 and body["rest"] == {"cards": 75, "points": 81.5}
    assert body["groups"] is None


def test_count_rules_override(client):
    # docs/rules.md §2: honour_trump T21 makes the World worth 5 (T21 + two low cards = 5).
    body = post(client, {"game": "scarto", "cards": ["T21", "T2", "T3"], "rules": {"honour_trump": "T21"}}).get_json()
    assert body["points"] == 5 and body["rest"] is None and "oudlers" not in body
    assert post(client, {"game": "scarto", "cards": ["T21", "T2", "T3"], "rules": None}).get_json()["points"] == 1


def test_api_needs_no_csrf_and_sets_no_cookie(csrf_app):
    answer = post(csrf_app.test_client(), {"game": "troggu", "cards": ["T1"]})
    assert answer.status_code == 200 and answer.get_json()["points"] == 5
    assert "Set-Cookie" not in answer.headers


def test_ping(client):
    assert client.get("/api/v1/ping").get_json() == {"ok": True}


def test_unknown_game(client):
    error(client.get("/api/v1/games/euchre"), 404, "unknown_game")
    error(post(client, {"game": "euchre", "cards": []}), 404, "unknown_game")


def test_unknown_card(client):
    e = error(post(client, {"game": "troccas", "cards": ["T5", "T22", "Q"]}), 400, "unknown_card")
    assert e["cards"] == ["T22", "Q"]


def test_duplicate_card(client):
    e = error(post(client, {"game": "troccas", "cards": ["SW-K", "sp-k", "T5"]}), 400, "duplicate_card")
    assert e["cards"] == ["SW-K"]


def test_not_in_deck(client):
    # docs/rules.md (card codes): Troggu drops 1–4 of swords and batons and 7–10 of cups and coins.
    e = error(post(client, {"game": "troggu", "cards": ["BA-4", "CO-7", "CO-6"]}), 400, "not_in_deck")
    assert e["cards"] == ["BA-4", "CO-7"]


def test_too_many_cards(client):
    error(post(client, {"game": "troggu", "cards": ["T1"] * 63}), 400, "too_many_cards")
    error(post(client, {"game": "troccas", "cards": ["T1"] * 79}), 400, "too_many_cards")


@pytest.mark.parametrize("raw", [
    "{not json", "", "[]", "null", "17", '"troccas"', '{"game": "troccas", "cards": [',
    json.dumps({"game": "troccas"}),
    json.dumps({"cards": ["T1"]}),
    json.dumps({"game": "troccas", "cards": [], "stake": 1}),
    json.dumps({"game": 7, "cards": []}),
    json.dumps({"game": ["troccas"], "cards": []}),
    json.dumps({"game": "troccas", "cards": "T1 T2"}),
    json.dumps({"game": "troccas", "cards": {"T1": 1}}),
    json.dumps({"game": "troccas", "cards": [1, 2]}),
    json.dumps({"game": "troccas", "cards": [None]}),
    json.dumps({"game": "troccas", "cards": [], "rules": []}),
    json.dumps({"game": "troccas", "cards": [], "rules": "T21"}),
    json.dumps({"game": "troccas", "cards": [], "rules": {"honour_trump": "T21"}}),
    json.dumps({"game": "scarto", "cards": [], "rules": {"honour_trump": "T19"}}),
    json.dumps({"game": "scarto", "cards": [], "rules": {"honour_trump": 20}}),
    json.dumps({"game": "troggu", "cards": [], "rules": {"min_players": True}}),
    json.dumps({"game": "troggu", "cards": [], "rules": {"min_players": "3"}}),
    json.dumps({"game": "triomphe_forcee", "cards": ["T1"]}),
    "[" * 100_000 + "]" * 100_000,  # deeper than the JSON parser recurses: a RecursionError, once a 500
])
def test_bad_request(client, raw):
    error(post(client, None, raw=raw), 400, "bad_request")


def test_wrong_content_type_is_bad_request(client):
    answer = client.post("/api/v1/count", data="game=troccas", content_type="application/x-www-form-urlencoded")
    error(answer, 400, "bad_request")


def test_wrong_method_and_address_are_json(client):
    assert client.get("/api/v1/count").get_json()["error"]["code"] == "bad_request"
    assert client.get("/api/v1/nothing").status_code == 404


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(["troccas", "troggu", "french_tarot", "SW-K", "FOOL", "T21", "honour_trump"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["game", "cards", "rules", "honour_trump", "x"]) | st.text(max_size=5), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.fixed_dictionaries({}, optional={"game": JSON | st.sampled_from(list(all_games())),
                                                "cards": JSON, "rules": JSON, "extra": JSON}))
def test_never_a_500(app, body):  # the app keeps no state between requests, so one per test is enough
    answer = post(app.test_client(), body)
    assert answer.status_code in (200, 400, 404)
    if answer.status_code != 200:
        assert answer.get_json()["error"]["code"] in {"unknown_game", "unknown_card", "duplicate_card",
                                                      "not_in_deck", "too_many_cards", "bad_request"}


def test_superscript_digits_are_unknown_cards_not_a_500(client):
    # "T¹" passes str.isdigit() but not int(): it must be a plain unknown_card.
    r = client.post("/api/v1/count", json={"game": "troccas", "cards": ["T¹"]})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "unknown_card"


def test_score_with_a_deeply_nested_body_is_a_400(client):
    answer = client.post("/api/v1/score", data='{"game": ' + "[" * 100_000 + "]" * 100_000 + "}",
                         content_type="application/json")
    error(answer, 400, "bad_request")


def test_a_huge_body_is_refused_with_a_message_not_a_500(client):
    # MAX_CONTENT_LENGTH is 2 MB; 3 MB of cards is refused before anything parses it.
    body = '{"game": "troccas", "cards": [' + ",".join(['"T1"'] * 600_000) + "]}"
    r = client.post("/api/v1/count", data=body, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "bad_request"
