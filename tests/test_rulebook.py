"""The rules pages: /rules and /rules/<game>, their facts from the engine, and the phone layout."""
from __future__ import annotations

import dataclasses
import re
from html import unescape as html_unescape

import pytest
from markupsafe import escape

from scorekeeper.engine import examples as rule_examples
from scorekeeper.engine.errors import BadHand
from scorekeeper.engine.games import Result, all_games, registry
from scorekeeper.engine.text import line

GAME_IDS = list(all_games())


def page(client, game_id: str) -> str:
    response = client.get(f"/rules/{game_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def signed(n: int) -> str:
    """Write a payout as the page does: +40, −10 (a real minus sign), 0."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_page_states_the_engines_facts(client, game_id):
    game = all_games()[game_id]
    html = page(client, game_id)
    assert f"<h1>{escape(game.name)}</h1>" in html
    assert f"{len(game.deck)} cards" in html
    if game.total is not None:
        assert f"{game.total} points in the deck" in html
    if game.min_players == game.max_players:
        assert f"{game.min_players} players" in html
    else:
        assert f"{game.min_players} to {game.max_players} players" in html


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_page_lists_every_house_rule_with_its_meaning_and_default(app, client, game_id):
    from scorekeeper.web.house_rules import in_words
    game = all_games()[game_id]
    html = page(client, game_id)
    with app.test_request_context():
        for name, option in game.options.items():
            block = re.search(rf'<div class="rule-option" id="opt-{name}">(.*?)</div>', html, re.S)
            assert block, f"no card for the house rule {name}"
            assert option.meaning in html_unescape(block.group(1))
            assert f"<strong>{escape(in_words(option.default, game, name))}</strong>" in block.group(1)


@pytest.mark.parametrize("game_id,name,value,words", [
    ("troccas", "all_tricks_take_scart", True, "Yes"), ("french_tarot", "misere", False, "No"),
    ("french_tarot", "poignee_bonus", [20, 30, 40], "20 / 30 / 40"), ("french_tarot", "garde_contre_multiplier", 6, "6"),
    ("scarto", "honour_trump", "T20", "Angelo (XX)"),
    ("troggu", "misere_tie", "none", "nobody pays"),
    # the same value, another option: never another option's words
    ("scarto", "fool_exchange", "none", "none: the Matto counts alone as 4"),
])
def test_defaults_are_written_in_words(app, game_id, name, value, words):
    from scorekeeper.web.house_rules import in_words
    with app.test_request_context():
        assert in_words(value, all_games()[game_id], name) == words


def test_every_house_rule_has_a_title_and_words_for_its_choices(app):
    # A new option value without words would show as its code (“four_over_trio”); the words live with the Option.
    for game in all_games().values():
        for name, option in game.options.items():
            assert option.title, (game.id, name)
            for value in option.choices or ():
                if isinstance(value, str) and not value.startswith("T"):
                    assert option.words.get(value), (game.id, name, value)
            assert set(option.words) <= set(option.choices or ()), (game.id, name)  # no words for a value it can't take


def test_a_house_rule_of_the_same_name_has_the_same_title_in_every_game():
    # The table-change form names a house rule by its name alone (house_rules.option_title).
    titles = {}
    for game in all_games().values():
        for name, option in game.options.items():
            assert titles.setdefault(name, option.title) == option.title, (game.id, name)


def test_index_links_every_game(client):
    response = client.get("/rules")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for game_id, game in all_games().items():
        assert f'href="/rules/{game_id}"' in html
        assert str(escape(game.name)) in html


@pytest.mark.parametrize("path", ["/rules/nope", "/rules/TROGGU", "/rules/troggu/extra", "/rules/%00"])
def test_unknown_game_is_the_friendly_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "There is nothing at this address" in html  # web.py's error page, not a bare 404
    assert 'class="button"' in html


def test_endpoint_names_other_pages_link_to(app):
    # The counting page's game picker links url_for('rules.game_page', game=id).
    with app.test_request_context():
        from flask import url_for
        assert url_for("rules.game_page", game="troggu") == "/rules/troggu"
        assert url_for("rules.index") == "/rules"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_inline_script_or_style(client, game_id):
    # web.py's CSP allows neither.
    html = page(client, game_id)
    assert " style=" not in html and "<style" not in html
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))


# Worked counts: the examples the sources give, counted by the engine and shown on the page.
@pytest.mark.parametrize("game_id,expected", [
    # italian-swiss-archive.txt, SCA Troccas: K, Q, J, pip = 9; trump, Q, C, pip = 6; 3 trumps + Fool = 5;
    # XXI, I, Q, pip = 12. The dealer's two odd cards C + pip: 3 + 1 − 1 = 3 (troccas-wikipedia.txt).
    # All 18 together: 9 + 6 + 5 + 12 + 3 = 35.
    ("troccas", [9, 6, 5, 12, 3, 35]),
    # italian-swiss-archive.txt, Swiss Tarot: C + Q + Fool = 3 + 4 + 5 − 2 = 10; World, Magician, Death
    # = 5 + 5 − 1 = 9; three low cards 1; together 10 + 9 + 1 = 20.
    ("swiss_tarot_1659", [10, 9, 1, 20]),
    # italian-swiss-archive.txt, the letter: king, 10, 5 = 5; Mage, queen, another = 8; 3 low = 1 (XXI is
    # low in Scarto); two cards over C + J = 3 + 2 − 1 = 4; the Fool alone 4.
    ("scarto", [5, 8, 1, 4, 4]),
    # Direct sum: XXI 5 + K 5 + Q 4 + C 3 + J 2 + three 1s = 22 (troggu-visp-de.txt values).
    ("troggu", [22]),
    # Angel 5 + Bagatto 5 + Matto 4 + K 5 + XXI 1 (low with the Angel as honour) + 1 = 21.
    ("mitigati", [21]),
    # FFT values: XXI 4.5 + VII .5 + K 4.5 + .5 + Excuse 4.5 + .5 + Q 3.5 + .5 + J 1.5 + .5 = 21.
    ("french_tarot", [21]),
    # docs/rules.md §10, in threes, a partial group −1: Giove, king, scartina 10 + 5 + 1 − 2 = 14; an aria, a queen,
    # trump 7: 5 + 4 + 1 − 2 = 8; Donna and cavallo over: 2 + 3 − 1 = 4; the Fujutu alone 10 − 1 = 9;
    # all 9 together, 3 threes: 41 − 6 = 35 = 14 + 8 + 4 + 9.
    ("sicilian_tarocchi", [14, 8, 4, 9, 35]),
    # docs/rules.md §11, to the Blatt (3 × Σ − 2 × N thirds): Sküs, Mond, a king 3 × 15 − 6 = 39 = 13; Pagat, a
    # queen, trump 7: 3 × 10 − 6 = 24 = 8; a Bube and a Reiter: 3 × 5 − 4 = 11 = 3 and 2 Blatt; a lone 7 of Pik:
    # 3 − 2 = 1 = 0 and 1 Blatt.
    ("koenigrufen", [13, 8, 3, 0]),
])
def test_worked_counts(client, game_id, expected):
    counts = rule_examples.sample_counts(all_games()[game_id])
    assert [c.points for _, c, _ in counts] == expected
    html = page(client, game_id)
    for points in expected:
        assert re.search(rf"<strong>{points} points?</strong>", html)


# Worked settlements: the page's arithmetic, checked against the rule texts and, once it exists, score().
@pytest.mark.parametrize("game_id,expected", [
    # The brief's example: 5 players, Tappist 63, opponents 114 − 63 = 51 ≥ 30: single, 4 × 10 Rappen.
    ("troggu", {"Anna": 40, "Beat": -10, "Carla": -10, "Dario": -10, "Elsa": -10}),
    # troccas-wikipedia.txt: 40 − 36 = +4 to each of Anna and Carla, −4 to Beat and Dario.
    ("troccas", {"Anna": 4, "Carla": 4, "Beat": -4, "Dario": -4}),
    # french-tarot-wikipedia.txt: garde sans won by 12 with a single poignée: (25 + 12) × 4 + 20 = 168;
    # the taker gets 3 × 168 = 504.
    ("french_tarot", {"Anna": 504, "Beat": -168, "Carla": -168, "Dario": -168}),
    # Phil: points − 26: 30 → +4, 20 → −6, 28 → +2.
    ("scarto", {"Anna": 4, "Beat": -6, "Carla": 2}),
    # Phil: 38 → −5; 50 → +7; 41 → −2. Rufus: four kings + 2 honours = 30 from each: Beat +60, others −30.
    ("mitigati", {"Anna": -35, "Beat": 67, "Carla": -32}),
    # points − 26: 30 → +4, 24 → −2, 24 → −2.
    ("swiss_tarot_1659", {"Anna": 4, "Beat": -2, "Carla": -2}),
    # Pot 5 × 2 = 10; Fool 2 to Anna, La Force 4 to Beat; Carla reaches 2 tricks first: 4. Net of the ante 2.
    ("triomphe_forcee", {"Anna": 0, "Beat": 2, "Carla": 2, "Dario": -2, "Elsa": -2}),
    # docs/rules.md §10 (Tortorici): a solo of 70: 70 − 55 = 15; the soloist 2 × 15, each opponent −15.
    ("sicilian_tarocchi", {"Anna": 30, "Beat": -15, "Carla": -15}),
    # docs/rules.md §11 (docs/api.md's example): Dreier 4 + silent Trull 1 − the opponents' silent Pagat 1 = 4 a
    # player; alone: Anna 3 × 4 = 12, each opponent −4; at 10 cents a point.
    ("koenigrufen", {"Anna": 120, "Beat": -40, "Carla": -40, "Dario": -40}),
])
def test_worked_settlements(client, game_id, expected):
    example = rule_examples.example(all_games()[game_id])
    assert example.payouts == expected
    assert sum(example.payouts.values()) == 0
    html = page(client, game_id)
    for player, amount in expected.items():
        assert re.search(rf"<th scope=\"row\">{player}</th>(<td>[^<]*</td>)*<td>{re.escape(signed(amount))}</td>", html)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_examples_agree_with_the_engine(game_id):
    game = all_games()[game_id]
    example = rule_examples.example(game)
    outcome = rule_examples.engine_result(game, example)
    assert outcome is not None, "score() refused the page's example hand"
    assert outcome[1] == example.payouts


def _with_score(monkeypatch, game_id, score):
    game = dataclasses.replace(all_games()[game_id], score=score)
    monkeypatch.setitem(registry.GAMES, game_id, game)
    return game


def test_page_shows_the_engines_working_when_it_scores(client, monkeypatch):
    example = rule_examples.example(all_games()["troccas"])

    def score(players, hand, rules):
        return Result(points={}, scores=dict(example.payouts),
                      explanation=(line("Team {team}: {points} − 36 = {diff}", team="Anna", points=40, diff=4),))

    _with_score(monkeypatch, "troccas", score)
    html = page(client, "troccas")
    assert "working for this example" in html
    assert "Team Anna: 40 − 36 = 4" in html


@pytest.mark.parametrize("score", [None, "refuses", "crashes"])
def test_page_stands_without_a_working_engine(client, monkeypatch, score):
    def refuses(players, hand, rules):
        raise BadHand("no")

    def crashes(players, hand, rules):
        raise KeyError("a bug in score()")

    _with_score(monkeypatch, "troggu", {"refuses": refuses, "crashes": crashes}.get(score))
    html = page(client, "troggu")
    assert "working for this example" not in html
    assert "+40" in html  # the page's own worked example is still there


PHONE_WIDTH = 390


@pytest.mark.browser
def test_rules_pages_fit_a_phone(page, live_server):
    for path in ["/rules"] + [f"/rules/{g}" for g in GAME_IDS]:
        page.goto(live_server + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH, path
        # body clips overflow-x, so also check that nothing reaches past the screen's right edge.
        wide = page.evaluate(f"""() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > {PHONE_WIDTH} + 0.5).map(e => e.outerHTML.slice(0, 80))""")
        assert wide == [], (path, wide)
        too_small = page.evaluate("""() => [...document.querySelectorAll('a, button, summary, input, select')]
            .map(e => [e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
            .map(([t, r]) => `${t} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert too_small == [], (path, too_small)
    page.screenshot(path="/tmp/rules-last.png", full_page=True)


@pytest.mark.browser
def test_table_of_contents_jumps_to_its_section(page, live_server):
    page.goto(live_server + "/rules/troggu")
    page.get_by_role("link", name="House rules").click()
    page.wait_for_url("**#house-rules")
    top = page.evaluate("document.getElementById('house-rules').getBoundingClientRect().top")
    assert 0 <= top < 100


@pytest.mark.parametrize("game_id,rows", [
    # docs/rules.md §5 (troggu-visp-de.txt, troggu-en.txt): players, cards each, Tapp; 4 players 13 + 10 by default.
    ("troggu", [(3, 18, 8), (4, 13, 10), (5, 11, 7), (6, 9, 8), (7, 8, 6), (8, 7, 6)]),
    # docs/rules.md §6 (french-tarot-wikipedia.txt): players, cards each, chien.
    ("french_tarot", [(3, 24, 6), (4, 18, 6), (5, 15, 3)]),
    # docs/rules.md §10: 15 cards each at 4 players and a monte of 3; at 3, (63 − 3) / 3 = 20 each.
    ("sicilian_tarocchi", [(3, 20, 3), (4, 15, 3)]),
])
def test_deal_tables(client, game_id, rows):
    game = all_games()[game_id]
    example = rule_examples.example(game)
    assert example.numbers["deal"] == rows
    html = page(client, game_id)
    for players, each, aside in rows:
        assert players * each + aside == len(game.deck)  # every card is dealt
        assert f'<th scope="row">{players}</th><td>{each}</td><td>{aside}</td>' in html
