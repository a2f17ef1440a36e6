"""The hand form gives what the API gives for the same facts and cards (issue 41, "done when"): scores, money,
refusals and warnings. Each case enters one hand through the form (the Flask test client posting it as a phone does,
counting the cards where the case taps them) and through POST /api/v1/score, and compares."""
from __future__ import annotations

import html
import re
import uuid

import pytest

from scorekeeper.engine.games import get_game
from tests.opening import open_table

FOUR = ["Rosaria", "Turi", "Nino", "Pina"]
THREE = ["Anna", "Beat", "Carla"]


def table_form(players, stake="0.01", currency="EUR", **rules) -> dict:
    """The new-table form: 1 cent a point, as the API's stake 1 (payouts in cents)."""
    data = {f"players-{i}": p for i, p in enumerate(players)}
    data.update(first_dealer="0", stake=stake, currency=currency)
    data.update({f"rule_{k}": v for k, v in rules.items()})
    return data


def said(page: str, kind: str) -> list[str]:
    """Return the sentences of one kind on a page (warning, engine-error), unescaped."""
    return [html.unescape(s).strip() for s in re.findall(rf'<p class="{kind}"[^>]*>(.*?)</p>', page, re.S)]


def hidden(page: str, name: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(rf'<input type="hidden" name="{name}" value="([^"]*)"', page)]


def api(client, game, players, hand, rules=None, stake=1):
    body = {"game": game, "players": players, "hand": hand, "stake": stake}
    if rules:
        body["rules"] = rules
    return client.post("/api/v1/score", json=body)


def through_form(client, url, posts: list[dict]):
    """Post the form as a phone does: each step but the last a Count (its hidden fields carried on, as the page
    keeps them), the last a Save. Return (the preview before Save, the Save's answer)."""
    carried: dict = {}
    for step in posts[:-1]:
        page = client.post(url + "/hands", data={**carried, **step, "action": "count"}).get_data(as_text=True)
        assert not said(page, "field-error"), said(page, "field-error")
        carried = {"pile": hidden(page, "pile"), "counted": (hidden(page, "counted") or [""])[0]}
        for name in ("points",) + tuple(f"{x}{i}" for x in ("pp", "mp", "tp") for i in range(8)):  # typed numbers
            m = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
            if m and m.group(1):
                carried[name] = m.group(1)
    last = {**carried, **posts[-1]}
    preview = client.post(url + "/preview", data=last).get_data(as_text=True)
    saved = client.post(url + "/hands", data={**last, "token": uuid.uuid4().hex, "action": "save"})  # a new hand
    return preview, saved


def compare(client, game, players, form_data, posts, api_hand, rules=None, stake=1):
    """Enter a hand both ways and check they agree; return the API's answer."""
    url = open_table(client, game, form_data)
    preview, saved = through_form(client, url, posts)
    answer = api(client, game, players, api_hand, rules, stake)
    if answer.status_code != 200:  # refused by the API: the form refuses it too, saying the same
        message = answer.get_json()["error"]["message"]
        assert saved.status_code == 200, "the form saved a hand the API refuses: " + message
        assert message in said(saved.get_data(as_text=True), "engine-error")
        assert message in said(preview, "engine-error")
        return answer.get_json()
    assert saved.status_code == 303, said(saved.get_data(as_text=True), "engine-error")
    result = answer.get_json()
    exported = client.get(url + "/export.json").get_json()
    assert exported["hands"][-1]["hand"] == api_hand  # the same facts
    assert exported["totals"]["units"] == result["scores"]
    assert {p: float(v) for p, v in exported["totals"]["money"].items()} == \
        {p: float(v) for p, v in result["payouts"].items()}
    # the same warnings, before Save (the preview) and on the saved hand's row
    assert said(preview, "warning") == result["warnings"]
    assert said(client.get(url).get_data(as_text=True), "warning") == result["warnings"]
    return result


# issue 41, item 1: T20, T1, the Fugitive, the four arie, the four kings and 13 scartine (24 cards): Σ 3 × 10 + 4 × 5
# + 4 × 5 + 13 = 83, 8 threes: 83 − 16 = 67 (docs/rules.md §10); the other side's cards 104 − 67 = 37
SCARTINE = ["SW-5", "SW-6", "SW-7", "SW-8", "SW-9", "BA-5", "BA-6", "BA-7", "BA-8", "BA-9", "CU-5", "CU-6", "CU-7"]
COUNTED = ["T20", "T1", "FOOL", "T16", "T17", "T18", "T19", "SW-K", "BA-K", "CU-K", "CO-K"] + SCARTINE


@pytest.mark.parametrize("last, scores", [
    # the counted side took the last trick: 67 + 5 = 72, 72 − 55 = +17 each of the pair, −17 each opponent
    ("declarer", {"Rosaria": 17, "Turi": 17, "Nino": -17, "Pina": -17}),
    # the opponents took it: 67, 67 − 55 = +12
    ("opponents", {"Rosaria": 12, "Turi": 12, "Nino": -12, "Pina": -12}),
])
def test_sicily_a_counted_call_gives_the_last_trick_to_the_side_that_took_it(client, last, scores):
    posts = [{"contract": "call", "declarer": "Rosaria", "partner": "Turi", "last_trick": last,
              "count_of": "declarer", "card": COUNTED}]
    hand = {"contract": "call", "declarer": "Rosaria", "declarer_cards": COUNTED, "last_trick": last,
            "partner": "Turi"}
    result = compare(client, "sicilian_tarocchi", FOUR, table_form(FOUR), posts, hand)
    assert result["scores"] == scores


def test_sicily_the_other_sides_pile_counted_gives_the_same_hand(client):
    # the opponents' 39 cards tapped instead: the declarer's side holds the rest, the 24 above (72 with the last trick)
    theirs = [c for c in get_game("sicilian_tarocchi").deck if c not in COUNTED]
    posts = [{"contract": "call", "declarer": "Rosaria", "partner": "Turi", "last_trick": "declarer",
              "count_of": "opponents", "card": theirs}]
    hand = {"contract": "call", "declarer": "Rosaria", "declarer_cards": [c for c in get_game("sicilian_tarocchi").deck
                                                                          if c in COUNTED],
            "last_trick": "declarer", "partner": "Turi"}
    assert compare(client, "sicilian_tarocchi", FOUR, table_form(FOUR), posts, hand)["scores"]["Rosaria"] == 17


def test_sicily_a_count_asks_who_took_the_last_trick_first(client):
    url = open_table(client, "sicilian_tarocchi", table_form(FOUR))
    page = client.post(url + "/hands", data={"contract": "call", "declarer": "Rosaria", "partner": "Turi",
                                             "count_of": "declarer", "card": COUNTED, "token": "t",
                                             "action": "save"})
    assert page.status_code == 200  # nothing saved, nothing guessed
    text = page.get_data(as_text=True)
    assert "Choose “Who took the last trick” first: its 5 points are in no pile." in said(text, "field-error")
    tile = re.search(r'<input[^>]*name="card"[^>]*value="T20"[^>]*>|<input[^>]*value="T20"[^>]*name="card"[^>]*>', text)
    assert tile and "checked" in tile.group(0)  # the cards tapped are kept


def test_sicily_a_pile_no_deal_gives_is_warned_of_as_the_api_does(client):
    # issue 41, item 4: a 3-player solo, 13 cards without the Fugitive: 13 = 3 × 4 + 1, and only the pile holding
    # the Fujutu has 3k+1 cards (docs/rules.md §10 "Pile sizes")
    pile = ["T20", "T19", "SW-K", "CU-Q"] + SCARTINE[:9]
    posts = [{"contract": "solo", "declarer": "Anna", "last_trick": "opponents", "count_of": "declarer",
              "card": pile}]
    hand = {"contract": "solo", "declarer": "Anna", "declarer_cards": pile, "last_trick": "opponents"}
    result = compare(client, "sicilian_tarocchi", THREE, table_form(THREE), posts, hand)
    assert len(result["warnings"]) == 1 and "13 cards can't happen" in result["warnings"][0]


def test_sicily_mineo_game_points_alone(client):
    # issue 41, item 5: the game points typed decide; no card points asked. J = 3 − 1 = 2: each of the pair ±2
    posts = [{"contract": "call", "declarer": "Turi", "partner": "Pina", "gp_declarer": "3", "gp_opponents": "1"}]
    hand = {"contract": "call", "declarer": "Turi", "partner": "Pina", "game_points": {"declarer": 3, "opponents": 1}}
    result = compare(client, "sicilian_tarocchi", FOUR, table_form(FOUR, version="mineo"), posts, hand,
                     rules={"version": "mineo"})
    assert result["scores"] == {"Rosaria": -2, "Turi": 2, "Nino": -2, "Pina": 2}


TROCCAS = ["Anna", "Ben", "Cla", "Zoë"]
TROCCAS_FORM = {**table_form(TROCCAS, stake="0.05", currency="CHF"), "rule_all_tricks_take_scart": "y"}


def test_troccas_a_sweep_pile_without_the_scart_is_refused_as_the_api_refuses_it(client):
    # issue 41, item 3: every trick but the scart (2 plain cards), 76 cards: the team that takes every trick also
    # takes the scart (docs/rules.md §1), so the API refuses the pile; the form did save 66 (±30)
    pile = [c for c in get_game("troccas").deck if c not in ("CU-6", "CO-6")]
    posts = [{"partner": "Cla", "count_of": "first", "card": pile}]
    hand = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "cards": pile}
    result = compare(client, "troccas", TROCCAS, TROCCAS_FORM, posts, hand, stake=5)
    assert result["error"]["code"] == "bad_hand"


def test_troccas_a_counted_pile_is_the_apis(client):
    # SW-K CU-Q BA-J T5 + the 2-card scart CU-6 CO-6: one group of four (5 + 4 + 2 + 1 − 3 = 9) and two odd cards
    # (2 − 1 = 1): 10 (docs/rules.md §1); 10 − 36 = −26 each of Anna and Cla
    pile = ["SW-K", "CU-Q", "BA-J", "T5", "CU-6", "CO-6"]
    posts = [{"partner": "Cla", "count_of": "first", "card": pile}]
    hand = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "cards": pile}
    result = compare(client, "troccas", TROCCAS, TROCCAS_FORM, posts, hand, stake=5)
    assert result["scores"] == {"Anna": -26, "Ben": 26, "Cla": -26, "Zoë": 26}


def test_scarto_two_piles_counted_keep_each_others_points_and_the_fools_warning(client):
    # issue 41, item 4: Anna's pile with the Matto but whole threes (24 cards: looks exchanged French-style, warned,
    # italian-swiss-archive.txt: the Matto counts alone as 4), Beat's 27 counted next, Carla's the rest of the deck
    deck = list(get_game("scarto").deck)
    anna = ["FOOL"] + [c for c in deck if c != "FOOL"][:23]
    beat = [c for c in deck if c not in anna][:27]
    carla = [c for c in deck if c not in anna and c not in beat]
    posts = [{"count_of": "pp0", "card": anna}, {"count_of": "pp1", "card": beat}]
    hand = {"cards": {"Anna": anna, "Beat": beat, "Carla": carla}}
    compare(client, "scarto", THREE, table_form(THREE), posts, hand)


@pytest.mark.parametrize("points, oudlers", [("40.5", 2), ("56", 0)])
def test_french_tarot_points_typed_are_the_apis(client, points, oudlers):
    # the FFT default (the Excuse on the last trick changes side, docs/rules.md §6): 40.5 at 4 players is no warning
    players = ["Anna", "Ben", "Cla", "Dora"]
    posts = [{"taker": "Anna", "contract": "garde", "side": "attack", "points": points, "oudlers": str(oudlers)}]
    hand = {"taker": "Anna", "contract": "garde", "points": float(points), "oudlers": oudlers}
    url = open_table(client, "french_tarot", table_form(players))
    preview, saved = through_form(client, url, posts)
    result = api(client, "french_tarot", players, hand).get_json()
    assert saved.status_code == 303 and said(preview, "warning") == result["warnings"]
    assert client.get(url + "/export.json").get_json()["totals"]["units"] == result["scores"]


def test_a_hand_saved_with_its_cards_keeps_them_when_edited(client):
    # the Troccas pile above, counted by tapping: its edit form shows the count (10) and carries the cards, so a
    # Save of the edit records the same cards; points typed over them are the player's
    pile = ["SW-K", "CU-Q", "BA-J", "T5", "CU-6", "CO-6"]
    url = open_table(client, "troccas", TROCCAS_FORM)
    through_form(client, url, [{"partner": "Cla", "count_of": "first", "card": pile}])
    page = client.get(url + "/hands/1").get_data(as_text=True)
    assert hidden(page, "pile") == ["first " + " ".join(pile)]
    assert re.search(r'<input[^>]*name="points"[^>]*value="10"', page)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page).group(1)
    r = client.post(url + "/hands/1", data={"partner": "Cla", "side": "first", "points": "10", "pile": hidden(page, "pile"),
                                            "version": version, "token": "e1", "action": "save"})
    assert r.status_code == 303
    assert client.get(url + "/export.json").get_json()["hands"][0]["hand"]["cards"] == pile
    page = client.get(url + "/hands/1").get_data(as_text=True)
    client.post(url + "/hands/1", data={"partner": "Cla", "side": "first", "points": "40", "pile": hidden(page, "pile"),
                                        "version": re.search(r'name="version" type="hidden" value="(\d+)"', page).group(1), "token": "e2", "action": "save"})
    assert client.get(url + "/export.json").get_json()["hands"][0]["hand"]["points"] == 40


FRENCH = ["Anna", "Ben", "Cla", "Dora"]


@pytest.mark.parametrize("size", [26, 25])
def test_french_tarot_a_counted_attack_pile_is_the_apis(client, size):
    # issue 41, item 4: the attack's cards tapped are the hand's (API.md: "cards": [the attack's cards]); at 4 players
    # the taker's pile is tricks of 4 and the chien's 6 (docs/rules.md §0.3): 26 = 5 × 4 + 6 is a pile a deal gives,
    # 25 is not, and is warned of, by the form as by the API
    deck = list(get_game("french_tarot").deck)
    pile = ["T21", "T1"] + [c for c in deck if c not in ("T21", "T1", "FOOL")][:size - 2]
    posts = [{"taker": "Anna", "contract": "garde", "count_of": "attack", "card": pile}]
    hand = {"taker": "Anna", "contract": "garde", "cards": pile, "petit_au_bout": None, "poignees": [], "chelem": None}
    result = compare(client, "french_tarot", FRENCH, table_form(FRENCH), posts, hand)
    assert bool(result["warnings"]) == (size % 2 == 1)


TROGGU = ["Anna", "Beat", "Carla", "Dario"]
TROGGU_FORM = table_form(TROGGU, stake="0.10", currency="CHF", min_players="3", misere_tie="each_top_pays",
                         tapp_4p="10", match_with_tapp_points="y")


def test_troggu_a_counted_tappists_pile_is_the_apis(client):
    # the Tappist's side's cards tapped (API.md: "declarer_cards"): counted by the engine, scored as the API scores
    pile = list(get_game("troggu").deck)[::2]  # every other card: 31 of the 62, 63 points (the opponents 51)
    posts = [{"contract": "normal", "declarer": "Anna", "count_of": "declarer", "card": pile}]
    hand = {"contract": "normal", "declarer": "Anna", "declarer_cards": pile, "no_tricks": None}
    result = compare(client, "troggu", TROGGU, TROGGU_FORM, posts, hand, stake=10)
    # 63 > 57: won; the opponents' 51 is not under 30, no Match: each of the 3 pays the Tappist 1 (docs/rules.md §5)
    assert result["scores"] == {"Anna": 3, "Beat": -1, "Carla": -1, "Dario": -1}


def test_troggu_misere_piles_counted_keep_the_apis_warning(client):
    # issue 41, item 4: with the Fool in the unused Tapp every trick holds 4 cards, so each pile is a multiple of 4
    # (docs/rules.md §0.3): of the 62 cards 52 are played at 4 players (the Tapp is 10: the Fool and 9 more), and
    # Anna's 5 and Dario's 7 can't happen; the form says so as the API does
    deck = [c for c in get_game("troggu").deck if c != "FOOL"]
    piles = {"Anna": deck[:5], "Beat": deck[5:25], "Carla": deck[25:45], "Dario": deck[45:52]}
    posts = [{"contract": "misere", "count_of": f"mp{i}", "card": piles[p]} for i, p in enumerate(TROGGU)]
    hand = {"contract": "misere", "misere_cards": piles}
    result = compare(client, "troggu", TROGGU, TROGGU_FORM, posts + [{"contract": "misere"}], hand, stake=10)
    assert any("multiple of 4" in w for w in result["warnings"])


def test_counted_french_tarot_and_troggu_hands_keep_their_cards_when_edited(client):
    # the edit form shows the count and carries the cards, and the history says the counted points
    deck = list(get_game("french_tarot").deck)
    pile = ["T21", "T1"] + [c for c in deck if c not in ("T21", "T1", "FOOL")][:24]
    url = open_table(client, "french_tarot", table_form(FRENCH))
    through_form(client, url, [{"taker": "Anna", "contract": "garde", "count_of": "attack", "card": pile}])
    page = client.get(url + "/hands/1").get_data(as_text=True)
    assert hidden(page, "pile") == ["attack " + " ".join(pile)]
    points = re.search(r'<input[^>]*name="points"[^>]*value="([^"]*)"', page).group(1)
    assert f"Anna: Garde, {points} points, 2 oudlers" in html.unescape(client.get(url).get_data(as_text=True))
    troggu = list(get_game("troggu").deck)[::2]
    url = open_table(client, "troggu", TROGGU_FORM)
    _preview, saved = through_form(client, url, [{"contract": "normal", "declarer": "Anna", "count_of": "declarer",
                                                   "card": troggu}])
    assert saved.status_code == 303, said(saved.get_data(as_text=True), "engine-error")
    page = client.get(url + "/hands/1").get_data(as_text=True)
    assert hidden(page, "pile") == ["declarer " + " ".join(troggu)]
    points = re.search(r'<input[^>]*name="points"[^>]*value="([^"]*)"', page).group(1)
    assert f"Anna: Normal, {points} points" in html.unescape(client.get(url).get_data(as_text=True))


TAROCK = ["Anna", "Beat", "Carla", "Dieter"]
TAROCK_FORM = table_form(TAROCK, stake="0.10")  # 10 cents a point, the cups' rate (docs/rules.md §11.4)


def test_koenigrufen_a_kontra_on_an_announced_premium_is_the_apis(client):
    # issue 39: a Dreier won (4) with the Trull announced and made (2) and kontra'd (money × 2) (docs/rules.md §11.1-3):
    # the sheet 4 + 2 = 6 per opponent, Anna 3 × 6 = +18; the money (4 + 2 × 2) × 10 = 80 cents from each, Anna +2.40
    posts = [{"contract": "dreier", "declarer": "Anna", "outcome": "won", "pr_trull": "da", "pk_trull": "2"}]
    hand = {"contract": "dreier", "declarer": "Anna", "game_won": True,
            "premiums": [{"premium": "trull", "side": "declarer", "announced": True, "made": True, "kontra": 2}]}
    result = compare(client, "koenigrufen", TAROCK, TAROCK_FORM, posts, hand, stake=10)
    assert result["scores"] == {"Anna": 18, "Beat": -6, "Carla": -6, "Dieter": -6}
    assert result["payouts"] == {"Anna": 240, "Beat": -80, "Carla": -80, "Dieter": -80}


def test_koenigrufen_a_kontra_on_a_silent_premium_is_refused_at_its_field(client):
    # §11.3: the game and each *announced* premium are kontra'd; a silent one can't be
    url = open_table(client, "koenigrufen", TAROCK_FORM)
    r = client.post(url + "/hands", data={"contract": "dreier", "declarer": "Anna", "outcome": "won", "pr_trull": "d",
                                          "pk_trull": "2", "token": "k1", "action": "save"})
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 200 and "Only an announced premium can be given a kontra." in said(page, "field-error")
    r = client.post(url + "/hands", data={"contract": "dreier", "declarer": "Anna", "outcome": "won",
                                          "pk_uhu": "4", "token": "k2", "action": "save"})
    assert "Choose who made or announced the Uhu first." in said(html.unescape(r.get_data(as_text=True)), "field-error")


def test_koenigrufen_trischaken_counted_from_the_cards_is_the_apis(client):
    # issue 39: each player's pile tapped. The 54 cards in pack order (engine DECK): Anna XXI–IIII (18 cards: XXI 5
    # and 17 ones: 3 × 22 − 2 × 18 = 30 thirds = 10/0), Beat III II I Sküs and Pik (3 × 30 − 24 = 66 = 22/0), Carla
    # Treff and Herz's courts (3 × 32 − 24 = 72 = 24/0), Dieter the rest (3 × 22 − 24 = 42 = 14/0): 210 in all
    # (docs/rules.md §11 "Counting"). Anna's 18 = 4 × 3 + 6 holds the talon, the others 4k (§11 pile sizes).
    # §11.5: Carla has the most, 24/0 < 35/2 and she is not the Vorhand: she pays 1 to each of the three
    deck = list(get_game("koenigrufen").deck)
    piles = {"Anna": deck[:18], "Beat": deck[18:30], "Carla": deck[30:42], "Dieter": deck[42:]}
    posts = [{"contract": "trischaken", "declarer": "Anna", "count_of": f"tp{i}", "card": piles[p]}
             for i, p in enumerate(TAROCK)] + [{"contract": "trischaken", "declarer": "Anna"}]
    hand = {"contract": "trischaken", "declarer": "Anna", "cards_each": piles}
    result = compare(client, "koenigrufen", TAROCK, TAROCK_FORM, posts, hand, stake=10)
    assert result["scores"] == {"Anna": 1, "Beat": 1, "Carla": -3, "Dieter": 1}


def test_koenigrufen_a_count_fills_the_points_and_the_blatt(client):
    # Sküs and Mond: 3 × 10 − 2 × 2 = 26 thirds = 8 and 2 Blatt (docs/rules.md §11 "Counting")
    url = open_table(client, "koenigrufen", TAROCK_FORM)
    page = client.post(url + "/hands", data={"contract": "dreier", "declarer": "Anna", "count_of": "declarer",
                                             "card": ["FOOL", "T21"], "action": "count"}).get_data(as_text=True)
    assert re.search(r'<input[^>]*name="points"[^>]*value="8"', page)
    assert re.search(r'<input checked[^>]*name="blatt"[^>]*value="2"', page)


def test_koenigrufen_says_how_three_play(client):
    # docs/rules.md §11 "Players": three play with a dummy that keeps its own column
    page = client.get("/tables/new/koenigrufen", query_string={"lang": "de"}).get_data(as_text=True)
    assert "Zu dritt? Trag den Strohmann als Vierten ein" in html.unescape(page)
    assert "Strohmann" not in client.get("/tables/new/french_tarot").get_data(as_text=True)
