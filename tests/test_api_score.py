"""POST /api/v1/score (docs/api.md): payouts, every error code, never a 500."""
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scorekeeper.engine.games import all_games
from tests.test_conformance_scoring import STRATEGIES

TROCCAS = {"game": "troccas", "players": ["Anna", "Ben", "Cla", "Duri"],
           "hand": {"teams": [["Anna", "Cla"], ["Ben", "Duri"]], "side": "Anna", "points": 37}}
SCARTO = {"game": "scarto", "players": ["A", "B", "C"], "hand": {"points": {"A": 30, "B": 22, "C": 26}}}


def post(client, body):
    return client.post("/api/v1/score", json=body)


def error(response, status, code):
    assert response.status_code == status, response.get_json()
    body = response.get_json()["error"]
    assert body["code"] == code
    assert body["message"]
    return body


def test_troccas_through_the_api(client):
    r = post(client, TROCCAS)
    assert r.status_code == 200
    body = r.get_json()
    # docs/rules.md §1: 37-35 gives +1, +1, -1, -1; stake defaults to 1
    assert body["scores"] == {"Anna": 1, "Cla": 1, "Ben": -1, "Duri": -1}
    assert body["payouts"] == body["scores"]
    assert body["game"] == "troccas"
    assert body["points"] == {"side": 37, "opponents": 35}
    assert all(isinstance(s, str) for s in body["explanation"]) and body["explanation"]
    assert body["warnings"] == []
    assert set(body) == {"game", "points", "scores", "payouts", "explanation", "warnings"}


def test_payouts_are_scores_times_stake(client):
    body = post(client, {**SCARTO, "stake": 5}).get_json()
    assert body["scores"] == {"A": 4, "B": -4, "C": 0}    # Phil: 30 -> +4
    assert body["payouts"] == {"A": 20, "B": -20, "C": 0}  # x 5


def test_stake_zero_is_allowed(client):
    assert post(client, {**SCARTO, "stake": 0}).get_json()["payouts"] == {"A": 0, "B": 0, "C": 0}


def test_rules_are_applied(client):
    body = {"game": "mitigati", "players": ["A", "B", "C"], "rules": {"honour_trump": "T21"},
            "hand": {"points": {"A": 43, "B": 43, "C": 43},
                     "declarations": {"A": ["SW-K", "BA-K", "CU-K", "CO-K", "T1", "T21"]}}}
    assert post(client, body).get_json()["scores"] == {"A": 60, "B": -30, "C": -30}  # Rufus's example


def test_warnings_reach_the_response(client):
    # Scarto with an exchanged Matto (see test_scarto): scored, with a warning
    from tests.test_scarto import ALDO, BEA, CARLO
    hand = {"cards": {"A": ALDO[:-1], "B": BEA + ["SW-3"], "C": CARLO}}
    body = post(client, {"game": "scarto", "players": ["A", "B", "C"], "hand": hand}).get_json()
    assert body["points"] == {"A": 20, "B": 29, "C": 29}
    assert len(body["warnings"]) == 1


def test_unknown_game(client):
    error(post(client, {**SCARTO, "game": "skat"}), 404, "unknown_game")


def test_unknown_player(client):
    error(post(client, {**TROCCAS, "hand": {**TROCCAS["hand"], "side": "Zoe"}}), 400, "unknown_player")


@pytest.mark.parametrize("hand", [
    {"points": {"A": 30, "B": 22, "C": 25}},   # 77: doesn't add up to the deck
    {"points": {"A": 79, "B": 0, "C": -1}},    # out of range
])
def test_bad_hand(client, hand):
    error(post(client, {**SCARTO, "hand": hand}), 400, "bad_hand")


def test_bad_hand_player_count(client):
    error(post(client, {**SCARTO, "players": ["A", "B"], "hand": {"points": {"A": 39, "B": 39}}}), 400, "bad_hand")


def test_bids_not_summing_to_zero(client):
    body = {"game": "mitigati", "players": ["A", "B", "C"], "hand": {"bids": {"A": 1, "B": 0, "C": 0}}}
    error(post(client, body), 400, "bad_hand")


def test_card_errors_name_the_cards(client):
    hand = {"side": "Anna", "cards": ["SW-K", "XX-9"]}
    body = error(post(client, {**TROCCAS, "hand": {**TROCCAS["hand"], **hand, "points": None}}), 400, "unknown_card")
    assert body["cards"] == ["XX-9"]
    hand = {"teams": TROCCAS["hand"]["teams"], "side": "Anna", "cards": ["SW-K", "SW-K"]}
    assert error(post(client, {**TROCCAS, "hand": hand}), 400, "duplicate_card")["cards"] == ["SW-K"]


@pytest.mark.parametrize("body", [
    {k: v for k, v in SCARTO.items() if k != "hand"},           # missing field
    {k: v for k, v in SCARTO.items() if k != "players"},
    {k: v for k, v in SCARTO.items() if k != "game"},
    {**SCARTO, "extra": 1},                                      # unknown field
    {**SCARTO, "stake": -1},                                     # negative stake
    {**SCARTO, "stake": 1.5},                                    # wrong type
    {**SCARTO, "stake": True},
    {**SCARTO, "stake": "1"},
    {**SCARTO, "players": "A, B, C"},
    {**SCARTO, "players": ["A", 2, "C"]},
    {**SCARTO, "game": 3},
    {**SCARTO, "hand": [1, 2]},
    {**SCARTO, "rules": []},
    {**SCARTO, "rules": {"no_such_rule": True}},                 # unknown option
    {**SCARTO, "rules": {"honour_trump": "T19"}},                # not a value it takes
    {**SCARTO, "hand": {"points": SCARTO["hand"]["points"], "cards": {}}},   # both points and cards
    {**SCARTO, "hand": {}},                                      # neither
    {**SCARTO, "hand": {**SCARTO["hand"], "contract": "garde"}},  # unknown hand field
    [SCARTO],
])
def test_bad_request(client, body):
    error(post(client, body), 400, "bad_request")


@pytest.mark.parametrize("data", [b"{", b"", b"null", b"\xff\xfe", b'"text"'])
def test_malformed_json(client, data):
    r = client.post("/api/v1/score", data=data, content_type="application/json")
    error(r, 400, "bad_request")


def test_no_cookie(client):
    assert "Set-Cookie" not in post(client, SCARTO).headers


# Random JSON, and random changes to good requests: never a 500.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-200, 200) | st.floats(allow_nan=False) | st.text(max_size=6)
    | st.sampled_from(["T21", "FOOL", "SW-K", "A", "B", "Anna"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
FIELDS = ["game", "players", "hand", "rules", "stake", "points", "cards", "teams", "side", "bids",
          "declarations", "la_mort", "tricks", "contract", "declarer", "taker", "partner", "oudlers"]


@st.composite
def requests(draw):
    game = draw(st.sampled_from(sorted(all_games())))
    players = draw(st.lists(st.sampled_from(["A", "B", "C", "D", "E", "Anna"]), min_size=0, max_size=8))
    hand = draw(st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=6))
    body = {"game": game, "players": players, "hand": hand}
    extra = draw(st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=3))
    return {**body, **extra} if draw(st.booleans()) else body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=JSON | requests())
def test_never_a_500(client, body):
    r = client.post("/api/v1/score", data=json.dumps(body), content_type="application/json")
    assert r.status_code in (200, 400, 404), r.data
    if r.status_code == 200:
        data = r.get_json()
        assert set(data["payouts"]) == set(data["scores"])
    else:
        assert r.get_json()["error"]["code"]


@st.composite
def spoiled(draw):
    """A good hand of some game (test_conformance_scoring's strategies) with one field replaced by random JSON."""
    game = draw(st.sampled_from(sorted(STRATEGIES)))
    players, hand, rules, _ = draw(STRATEGIES[game])
    body = {"game": game, "players": players, "hand": dict(hand), "rules": rules}
    where = draw(st.sampled_from(["hand", "hand", "hand", "top", "rules"]))
    junk = draw(JSON)
    if where == "hand" and hand:
        key = draw(st.sampled_from(sorted(hand)))
        if isinstance(hand[key], dict) and hand[key] and draw(st.booleans()):
            inner = dict(hand[key])
            inner[draw(st.sampled_from(sorted(inner)))] = junk
            body["hand"][key] = inner
        else:
            body["hand"][key] = junk
    elif where == "rules" and rules:
        body["rules"] = {**rules, draw(st.sampled_from(sorted(rules))): junk}
    else:
        body[draw(st.sampled_from(["players", "stake", "game"]))] = junk
    return body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=spoiled())
def test_spoiled_good_hands_never_a_500(client, body):
    r = client.post("/api/v1/score", data=json.dumps(body), content_type="application/json")
    assert r.status_code in (200, 400, 404), (body, r.data)


def test_not_in_deck(client):
    # docs/rules.md (card codes): Troggu has no 1 of swords
    body = {"game": "troggu", "players": ["A", "B", "C", "D"],
            "hand": {"contract": "normal", "declarer": "A", "declarer_cards": ["SW-1"]}}
    assert error(post(client, body), 400, "not_in_deck")["cards"] == ["SW-1"]


def test_default_stake_is_10_for_troggu(client):
    body = {"game": "troggu", "players": ["A", "B", "C", "D"],
            "hand": {"contract": "normal", "declarer": "A", "declarer_points": 63}}
    data = post(client, body).get_json()
    assert data["payouts"] == {p: 10 * s for p, s in data["scores"].items()}  # docs/api.md: 10 Rappen
