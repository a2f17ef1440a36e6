"""Adding a game is one file and one registry line: a made-up game, defined here, is played everywhere.

"Trump Sum" is invented for this test: 3 players, a deck of the 21 trumps and the Fool, each trump
worth its number (1 + 2 + … + 21 = 231 points), the Fool nothing; each player scores their points
minus a third of the deck (231 / 3 = 77). Its one house rule, a bonus to the Fool's keeper, is declared
with its title and its values' words, as a game file declares them. Nothing outside this file knows it:
it is registered by adding it to registry.GAMES (the one line a real game adds there) and then played
through the JSON API, the counting page, the rules page, a table's hand form and a change of the table.
"""
import re

import pytest

from scorekeeper.engine import cards as C
from scorekeeper.engine.entry import Count, Entry, Group, Number, PerSeat, Pick, seats
from scorekeeper.engine.errors import BadHand
from scorekeeper.engine.game import Game, Option, Result, check_players, hand_fields
from scorekeeper.engine.games import registry
from scorekeeper.engine.naming import GENERIC_SUITS, ITALIAN_MARKS, Naming
from scorekeeper.engine.text import N_, line

DECK = tuple(f"T{n}" for n in range(1, 22)) + (C.FOOL,)
TOTAL = sum(range(1, 22))  # 231
SHARE = TOTAL // 3  # 77
BONUS = 10  # the house rule "ten": each other player pays the Fool's keeper 10

OPTIONS = {
    "fool_bonus": Option("none", N_("The Fool earns its keeper nothing more, or 10 from each other player."),
                         ("none", "ten"), title=N_("Bonus for the Fool"),
                         words={"none": N_("nothing more"), "ten": N_("10 from each other player")}),
}


def values(rules):
    return {c: (C.trump_number(c) or 0) for c in DECK}


def score(players, hand, rules):
    check_players(GAME, players)
    hand_fields(hand, required=("points",), optional=("fool",))
    points = hand["points"]
    if sum(points.values()) != TOTAL:
        raise BadHand(line("The points add up to {total}, not 231.", total=sum(points.values())))
    scores = {p: points[p] - SHARE for p in players}
    keeper = hand.get("fool")
    if rules["fool_bonus"] == "ten" and keeper in players:
        scores = {p: s + BONUS * (len(players) - 1) if p == keeper else s - BONUS for p, s in scores.items()}
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
    total=TOTAL, options=OPTIONS,
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


def test_its_house_rule_is_said_in_its_own_words(app, trump_sum):
    """The title and the words come from the Option above: no list in web/ has them."""
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    rules = client.get("/rules/trump_sum").get_data(as_text=True)
    rule = re.search(r'<div class="rule-option" id="opt-fool_bonus">(.*?)</div>', rules, re.S).group(1)
    assert "<h3>Bonus for the Fool</h3>" in rule
    assert "<strong>nothing more</strong>" in rule and "10 from each other player" in rule
    assert "10 from each other player" in client.get("/tables/new/trump_sum").get_data(as_text=True)
    # a table that plays it: Cy keeps the Fool, 61 − 77 + 2 × 10; Ann 100 − 77 − 10, Bo 70 − 77 − 10
    table = client.post("/tables/new/trump_sum", data={
        "players-0": "Ann", "players-1": "Bo", "players-2": "Cy", "first_dealer": "0", "stake": "0.10",
        "currency": "CHF", "rule_fool_bonus": "ten"}).headers["Location"]
    saved = client.post(table + "/hands", data={"fool": "Cy", "pp0": "100", "pp1": "70", "pp2": "61",
                                                "action": "save"})
    assert saved.status_code == 303
    board = client.get(table).get_data(as_text=True)
    assert "+13" in board and "−17" in board and "+4" in board
    # changing the table names the rule by its title and the new value in its words
    setup = client.get(table + "/setup").get_data(as_text=True)
    assert "Bonus for the Fool" in setup and "nothing more" in setup
    version = re.search(r'name="version" value="(\d+)"', setup).group(1)
    changed = client.post(table + "/setup", data={"name0": "Ann", "name1": "Bo", "name2": "Cy", "stake": "0.10",
                                                  "version": version, "token": "t1", "rule_fool_bonus": "none"})
    assert changed.status_code == 303, changed.get_data(as_text=True)
    assert "Bonus for the Fool: nothing more" in client.get(table).get_data(as_text=True)
