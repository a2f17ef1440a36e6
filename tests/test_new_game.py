"""Adding a game is one file and one registry line: a made-up game, defined here, is played everywhere.

"Trump Sum" is invented for this test: 3 players, a deck of the 21 trumps and the Fool, each trump
worth its number (1 + 2 + … + 21 = 231 points), the Fool nothing; each player scores their points
minus a third of the deck (231 / 3 = 77). Nothing outside this file knows it: it is registered by
adding it to registry.GAMES (the one line a real game adds there) and then played through the JSON
API, the counting page, the rules page and a table's hand form.
"""
import re

import pytest

from scorekeeper.engine import cards as C
from scorekeeper.engine.entry import Count, Entry, Group, Number, PerSeat, Pick, seats
from scorekeeper.engine.errors import BadHand
from scorekeeper.engine.games import Game, Result, check_players, hand_fields, registry
from scorekeeper.engine.naming import GENERIC_SUITS, ITALIAN_MARKS, Naming
from scorekeeper.engine.text import line

DECK = tuple(f"T{n}" for n in range(1, 22)) + (C.FOOL,)
TOTAL = sum(range(1, 22))  # 231
SHARE = TOTAL // 3  # 77


def values(rules):
    return {c: (C.trump_number(c) or 0) for c in DECK}


def score(players, hand, rules):
    check_players(GAME, players)
    hand_fields(hand, required=("points",), optional=("fool",))
    points = hand["points"]
    if sum(points.values()) != TOTAL:
        raise BadHand(line("The points add up to {total}, not 231.", total=sum(points.values())))
    scores = {p: points[p] - SHARE for p in players}
    return Result(points, scores, (line("Each player's points − 77."),))


def entry(players, rules, last):
    return Entry((Pick("fool", "Fool kept by", seats(players), blank="Nobody", style="people"),
                  Group((PerSeat((Number("pp", None, 0, TOTAL, what=line("points")),), fill_from=TOTAL),),
                        style="per-player")),
                 counts=tuple(Count(f"pp{i}", p, f"pp{i}") for i, p in enumerate(players)))


def to_facts(v, players, rules):
    return {"points": v["pp"], "fool": v["fool"]}


def from_facts(facts, players, rules):
    return {"pp": facts["points"], "fool": facts.get("fool")}


GAME = Game(
    id="trump_sum", name="Trump Sum", min_players=3, max_players=3, deck=DECK, counting="sum", values=values,
    score=score, entry=entry, to_facts=to_facts, from_facts=from_facts,
    summary=lambda f: " · ".join(f"{p} {n}" for p, n in f["points"].items()),
    naming=Naming(fool="Fool", trumps={}, suits=GENERIC_SUITS, suit_marks=ITALIAN_MARKS,
                  courts={"K": "K", "Q": "Q", "C": "C", "J": "J"}),
    total=TOTAL,
)


@pytest.fixture
def trump_sum(monkeypatch):
    monkeypatch.setitem(registry.GAMES, GAME.id, GAME)  # the one registry line
    return GAME


def test_the_api_lists_counts_and_scores_it(client, trump_sum):
    assert "trump_sum" in [g["id"] for g in client.get("/api/v1/games").get_json()["games"]]
    # T21 + T20 + the Fool: 21 + 20 + 0 = 41
    counted = client.post("/api/v1/count", json={"game": "trump_sum", "cards": ["T21", "T20", "FOOL"]}).get_json()
    assert counted["points"] == 41
    scored = client.post("/api/v1/score", json={"game": "trump_sum", "players": ["A", "B", "C"], "stake": 5,
                                                "hand": {"points": {"A": 100, "B": 70, "C": 61}}}).get_json()
    assert scored["scores"] == {"A": 23, "B": -7, "C": -16}  # 100 − 77, 70 − 77, 61 − 77
    assert scored["payouts"] == {"A": 115, "B": -35, "C": -80}  # × 5


def test_the_counting_and_rules_pages_show_it(client, trump_sum):
    page = client.post("/count/trump_sum", data={"card": ["T21", "T1"]}).get_data(as_text=True)
    assert re.search(r"\b22\b", page)  # 21 + 1
    assert client.get("/rules/trump_sum").status_code == 200


def test_a_table_plays_a_hand_through_the_generic_form(app, trump_sum):
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    opened = client.post("/tables/new/trump_sum", data={
        "players-0": "Ann", "players-1": "Bo", "players-2": "Cy", "first_dealer": "0", "stake": "0.10",
        "currency": "CHF"})
    assert opened.status_code == 303, opened.get_data(as_text=True)
    table = opened.headers["Location"]
    form = client.get(table).get_data(as_text=True)
    assert 'name="pp0"' in form and "Fool kept by" in form
    # Cy's points left blank: the form works them out, 231 − 100 − 70 = 61
    saved = client.post(table + "/hands", data={"fool": "Bo", "pp0": "100", "pp1": "70", "pp2": "",
                                                "action": "save"})
    assert saved.status_code == 303
    board = client.get(table).get_data(as_text=True)
    assert "+23" in board and "−16" in board  # Ann 100 − 77, Cy 61 − 77
    # a wrong number is shown at its field, the typed input kept
    wrong = client.post(table + "/hands", data={"pp0": "abc", "pp1": "70", "pp2": "61", "action": "save"})
    assert wrong.status_code == 200
    assert "must be a whole number" in wrong.get_data(as_text=True) and 'value="abc"' in wrong.get_data(as_text=True)
