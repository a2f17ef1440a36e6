"""Every game's hand entry, declared as data in its file, is consistent and round-trips its facts.

The declaration (engine/entry.py) is read by one generic web module (web/hand_form.py); these checks
run the same invariants over every registered game, as test_conformance_scoring does for scoring.
"""
import ast
import re
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper.engine.entry import Group, PerSeat, Pick, Ticks
from scorekeeper.engine.games import PLAYERS, all_games, resolve_rules
from scorekeeper.store import TableInfo
from scorekeeper.web import hand_form

ROOT = Path(__file__).resolve().parent.parent

# Hands to round-trip, beyond each game's rules-page example: one per way of entering a hand.
MORE = {
    "troggu": [(4, {"contract": "misere", "misere_points": {"Anna": 30, "Beat": 20, "Carla": 25, "Dario": 29}}),
               # opponents without a trick: 0 or the kept Fool's 5, never 4 (docs/rules.md §5, issue 27)
               (7, {"contract": "normal", "declarer": "Anna", "partner": "Carla", "declarer_points": 109,
                    "no_tricks": "opponents"}),
               (3, {"contract": "solo", "declarer": "Beat", "declarer_points": 40, "no_tricks": None})],
    "french_tarot": [(5, {"taker": "Anna", "contract": "garde", "partner": "Elsa", "points": 40.5, "oudlers": 2,
                          "petit_au_bout": "defence", "poignees": [{"player": "Beat", "size": "double"}],
                          "chelem": None}),
                     (3, {"taker": "Carla", "contract": "prise", "points": 3, "oudlers": 0, "petit_au_bout": None,
                          "poignees": [], "chelem": "defence_made"})],
    "troccas": [(4, {"teams": [["Anna", "Dario"], ["Beat", "Carla"]], "side": "Beat", "points": 33})],
    "mitigati": [(3, {"bids": {"Anna": 5, "Beat": -2, "Carla": -3}}),
                 (3, {"points": {"Anna": 40, "Beat": 40, "Carla": 49},
                      "declarations": {"Carla": ["T1", "T20", "FOOL", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9"]}})],
    "sicilian_tarocchi": [(4, {"contract": "call", "declarer": "Anna", "partner": "Carla", "declarer_points": 60}),
                          (4, {"contract": "call", "declarer": "Anna", "partner": None, "declarer_points": 40}),
                          (4, {"contract": "solo", "declarer": "Dario", "declarer_points": 109, "cappotto": True}),
                          (3, {"contract": "solo", "declarer": "Beat", "declarer_points": 70, "stata": True}),
                          (3, {"contract": "each", "points_each": {"Anna": 40, "Beat": 30, "Carla": 39}}),
                          (3, {"contract": "pago", "taker": "Anna", "payers": ["Beat", "Carla"]}),
                          (4, {"contract": "offer", "offer": {"from": "Dario", "to": "Beat", "amount": 7}}),
                          (3, {"contract": "passed"})],
    # docs/rules.md §11: a Rufer won with a partner; the king in the talon given up; a counted Solorufer with premiums
    # and a kontra; a Piccolo with two kontras; Trischaken; a five-player hand with the dealer sitting out
    "koenigrufen": [(4, {"contract": "rufer", "declarer": "Anna", "partner": "Carla", "game_won": True}),
                    (4, {"contract": "besserrufer", "declarer": "Beat", "partner": None, "called_king_in_talon": True,
                         "schleifen": True, "premiums": [{"premium": "uhu", "side": "declarer", "announced": True,
                                                          "made": True}]}),
                    (4, {"contract": "solorufer", "declarer": "Anna", "partner": "Dario",
                         "declarer_points": {"points": 35, "blatt": 2}, "game_kontra": 2,
                         "premiums": [{"premium": "trull", "side": "opponents", "announced": False, "made": True},
                                      {"premium": "koenig_ultimo", "side": "declarer", "announced": True,
                                       "made": False}]}),
                    (4, {"contract": "piccolo", "declarer": "Carla", "game_won": False,
                         "game_kontra": {"Anna": 4, "Dario": 4}}),
                    (4, {"contract": "trischaken", "declarer": "Anna",
                         "points_each": {"Anna": {"points": 20, "blatt": 1}, "Beat": {"points": 35, "blatt": 1},
                                         "Carla": {"points": 14, "blatt": 1}, "Dario": {"points": 0, "blatt": 0}}}),
                    (5, {"contract": "dreier", "declarer": "Beat", "dealer": "Elsa", "game_won": True})],
    "triomphe_forcee": [(4, {"la_mort": "Beat", "declarations": {}}),
                        (4, {"la_mort": None, "declarations": {"Anna": ["FOOL", "T1"], "Beat": ["T11"]}}),
                        (5, {"la_mort": None, "declarations": {"Anna": ["FOOL"]},
                             "tricks": ["Beat", "Carla", "Beat", "Elsa", "Anna"]})],
}


def hands(game):
    """Return (players, facts) pairs to round-trip for a game."""
    out = []
    if game.example:
        ex = game.example(game)
        out.append((list(ex.players), ex.hand))
    out += [(list(PLAYERS[:n]), facts) for n, facts in MORE.get(game.id, [])]
    return out


def meaningful(facts: dict) -> dict:
    """Drop facts that say nothing (None, empty lists and objects): the engine reads them as absent."""
    return {k: v for k, v in facts.items() if v not in (None, [], {})}


def declared(entry, players) -> dict:
    """Return the form fields the entry makes, by name, with their declaration."""
    return {name: decl for f, _groups in entry.walk() for name, decl, _p in hand_form.expand(f, players)}


def as_posted(form, players) -> MultiDict:
    """Return what a browser posts for a filled form: every declared field's value, blanks left out."""
    posted = MultiDict()
    for name, decl in declared(form.entry, players).items():
        data = form[name].data
        for value in (data if isinstance(decl, Ticks) else [data]):
            if value not in (None, ""):
                posted.add(name, value)
    return posted


CASES = [(g.id, players, facts) for g in all_games().values() for players, facts in hands(g)]


@pytest.mark.parametrize("game_id", list(all_games()))
def test_counts_and_switches_name_declared_fields(game_id):
    game = all_games()[game_id]
    for n in range(game.min_players, game.max_players + 1):
        players = list(PLAYERS[:n]) if n <= len(PLAYERS) else [f"P{i}" for i in range(n)]
        rules = resolve_rules(game, None)
        entry = game.entry(players, rules, None)
        fields = declared(entry, players)
        for c in entry.counts:
            assert c.points in fields, (game_id, c)
            assert c.oudlers is None or isinstance(fields[c.oudlers], Pick), (game_id, c)
            for name, value in c.sets.items():
                assert value in {v for v, _label in fields[name].choices}, (game_id, c, name)
        switch = entry.switch()  # raises if a game declares two
        if switch is not None:
            assert isinstance(fields[switch[0]], Pick) and switch[1] in dict(fields[switch[0]].choices)
        assert len({c.target for c in entry.counts}) == len(entry.counts)


@pytest.mark.parametrize("game_id,players,facts", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_facts_round_trip_through_the_declaration(game_id, players, facts):
    game = all_games()[game_id]
    rules = resolve_rules(game, None)
    game.score(players, facts, rules)  # a real hand: the engine takes it
    values = game.from_facts(facts, players, rules)
    assert meaningful(game.to_facts(values, players, rules)) == meaningful(facts)


@pytest.mark.parametrize("game_id,players,facts", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_an_edit_form_posted_unchanged_saves_the_same_facts(app, game_id, players, facts):
    """The generic web module loads the facts into the form and reads the same facts back."""
    game = all_games()[game_id]
    table = TableInfo("t", game.id, tuple(players), {}, 1, "CHF", 0, 0, None)
    with app.test_request_context():
        form = hand_form.edit_form(game, table, facts)
        posted = as_posted(form, players)
        again = hand_form.read(hand_form.posted_form(game, table, posted))
    assert again is not None
    assert meaningful(again) == meaningful(facts)


def test_the_last_hand_never_changes_what_a_post_means(app):
    """A French Tarot post without a contract is read as the form's own default, whatever the last hand was."""
    game = all_games()["french_tarot"]
    table = TableInfo("t", game.id, ("Anna", "Beat", "Carla", "Dario"), {}, 1, "CHF", 0, 0, None)
    post = MultiDict({"taker": "Anna", "points": "50", "oudlers": "2", "side": "attack"})
    with app.test_request_context():
        assert hand_form.new_form(game, table, {"contract": "garde_sans"}).contract.data == "garde_sans"
        assert hand_form.read(hand_form.posted_form(game, table, post))["contract"] == "prise"


GAME_IDS = "|".join(re.escape(g) for g in all_games())


def test_no_game_id_branches_outside_the_game_files():
    """A game's knowledge lives in its file: nothing else compares with a game's id (STYLE.md habit 2)."""
    found = []
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        if path.parent.name == "games" and path.stem in all_games():
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Compare, ast.Dict, ast.Set)):
                consts = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant)]
                if any(c in all_games() for c in consts if isinstance(c, str)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    for path in sorted((ROOT / "templates").rglob("*.html")) + [ROOT / "static" / "app.css"]:
        for i, text in enumerate(path.read_text().splitlines(), 1):
            if re.search(rf"[\"'.-]({GAME_IDS})\b", text):
                found.append(f"{path.relative_to(ROOT)}:{i}")
    assert not found, found


def test_groups_hold_only_declared_kinds():
    for game in all_games().values():
        players = list(PLAYERS[:game.min_players])
        entry = game.entry(players, resolve_rules(game, None), None)
        for f, groups in entry.walk():
            assert isinstance(f, (Pick, Ticks, PerSeat)) or type(f).__name__ == "Number", f
            assert all(isinstance(g, Group) for g in groups)


@pytest.mark.parametrize("game_id,players,facts", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_what_the_preview_says_is_what_save_records(app, game_id, players, facts):
    """The same post to /preview and to /hands: the saved hand's preview says exactly what the first did."""
    from scorekeeper import store
    game = all_games()[game_id]
    with app.app_context():
        table = store.create_table(game.id, players, {}, 10, "CHF", 0)
    with app.test_request_context():
        form = hand_form.edit_form(game, table, facts)
        posted = as_posted(form, players)
    client = app.test_client()
    said = client.post(f"/t/{table.id}/preview", data=posted).get_data(as_text=True)
    assert 'class="sentence"' in said
    assert client.post(f"/t/{table.id}/hands", data={**posted.to_dict(flat=False), "token": "p1",
                                                     "action": "save"}).status_code == 303
    edit = client.get(f"/t/{table.id}/hands/1").get_data(as_text=True)  # the stored hand's own preview
    sentence = re.search(r'<p class="sentence">(.*?)</p>', said).group(1)
    assert f'<p class="sentence">{sentence}</p>' in edit


def rendered_values(html: str, names) -> dict:
    """What the new-hand form on a page shows for each field: checked values (a list for ticks), or the text."""
    form = re.search(r'<form id="hand-form".*?</form>', html, re.S).group(0)
    out = {}
    for name in names:
        inputs = re.findall(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', form)
        kinds = {re.search(r'type="(\w+)"', i).group(1) for i in inputs}
        if kinds & {"radio", "checkbox"}:
            chosen = [re.search(r'value="([^"]*)"', i).group(1) for i in inputs if re.search(r"\bchecked\b", i)]
            out[name] = chosen if "checkbox" in kinds else (chosen[0] if chosen else "")
        elif inputs:
            value = re.search(r'value="([^"]*)"', inputs[0])
            out[name] = value.group(1) if value else ""
    return out


@pytest.mark.parametrize("game_id,players,facts", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_the_next_hands_values_from_the_declaration_are_the_new_forms(app, game_id, players, facts):
    """A Save's answer says the next hand's values from the declaration alone (hand_form.next_values): exactly
    what the form the page would build holds, every field, after this hand (its defaults may follow it)."""
    from scorekeeper import store
    game = all_games()[game_id]
    with app.app_context():
        table = store.create_table(game.id, players, {}, 10, "CHF", 0)
    with app.test_request_context():
        for last in (None, facts):
            assert hand_form.next_values(game, table, last) == hand_form.values(hand_form.new_form(game, table, last))


@pytest.mark.parametrize("game_id,players,facts", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_phone_reset_after_a_save_shows_what_a_fresh_page_would(app, game_id, players, facts):
    """After a Save through htmx the phone resets its own form to X-Next-Hand's values (static/hand_form.js): they
    must be exactly what the table page, loaded afresh, shows in its form for the next hand."""
    import html as htmllib
    import json
    from scorekeeper import store
    game = all_games()[game_id]
    with app.app_context():
        table = store.create_table(game.id, players, {}, 10, "CHF", 0)
    with app.test_request_context():
        posted = as_posted(hand_form.edit_form(game, table, facts), players)
    client = app.test_client()
    r = client.post(f"/t/{table.id}/hands", data={**posted.to_dict(flat=False), "token": "r1", "action": "save"},
                    headers={"HX-Request": "true", "HX-Target": "hand-form"})
    assert r.status_code == 200 and r.headers["HX-Reswap"] == "none"
    values = json.loads(r.headers["X-Next-Hand"])["values"]
    page = htmllib.unescape(client.get(f"/t/{table.id}").get_data(as_text=True))
    assert rendered_values(page, values) == values
