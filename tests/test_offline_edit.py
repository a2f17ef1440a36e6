"""What a table page's rows carry so that a phone edits a hand without the network (static/offline_edit.js): exactly what
the hand's edit page would hold, for every game, and the setup it was played with."""
import html
import json
import re

import pytest

from scorekeeper import store
from scorekeeper.engine.games import all_games
from scorekeeper.web import hand_form
from test_entry_conformance import CASES, as_posted


@pytest.mark.parametrize("game_id,players,facts", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_hands_values_from_the_declaration_are_its_edit_forms(app, game_id, players, facts):
    game = all_games()[game_id]
    with app.app_context():
        table = store.create_table(game.id, players, {}, 10, "CHF", 0)
    with app.test_request_context():
        assert hand_form.edit_values(game, table, facts) == hand_form.values(hand_form.edit_form(game, table, facts))


def test_a_rows_edit_link_carries_its_edit_pages_values_version_and_setup(app, client):
    game_id, players, facts = next(c for c in CASES if c[0] == "troccas")
    game = all_games()[game_id]
    with app.app_context():
        table = store.create_table(game.id, players, {}, 10, "CHF", 0)
    with app.test_request_context():
        posted = as_posted(hand_form.edit_form(game, table, facts), players)
        posted["points"] = "41"  # of 72: the other team 31
        assert posted != as_posted(hand_form.edit_form(game, table, facts), players)
    page = client.get(f"/t/{table.id}").get_data(as_text=True)
    setup = re.search(r'name="setup" type="hidden" value="([^"]+)"|name="setup" value="([^"]+)"', page)
    with app.test_request_context():
        first = as_posted(hand_form.edit_form(game, table, facts), players)
    assert client.post(f"/t/{table.id}/hands", data={**first.to_dict(flat=False), "token": "e1",
                                                     "action": "save"}).status_code == 303
    assert client.post(f"/t/{table.id}/hands/1", data={**posted.to_dict(flat=False), "token": "e2",
                                                       "version": "1", "action": "save"}).status_code == 303
    page = client.get(f"/t/{table.id}").get_data(as_text=True)
    carried = json.loads(html.unescape(re.search(r'<a [^>]*href="[^"]*/hands/1" data-index="1" data-edit-form="([^"]+)"',
                                                 page).group(1)))
    assert carried["version"] == 2 and carried["values"]["points"] == "41"
    assert carried["setup"] == store.fingerprint(store.current_setup(table)) == (setup.group(1) or setup.group(2))
    edit = client.get(f"/t/{table.id}/hands/1").get_data(as_text=True)
    assert re.search(r'name="points"[^>]*value="41"', edit)
