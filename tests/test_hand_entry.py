"""Entering a hand without surprises (issue 13), through the Flask test client."""
from markupsafe import escape
import re

import pytest

FIVE = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Dumeng", "players-4": "Eva",
        "first_dealer": "0", "stake": "0.01", "currency": "CHF", "rule_poignee_bonus": "20, 30, 40",
        "rule_poignee_thresholds_5p": "8, 10, 13", "rule_garde_contre_multiplier": "6",
        "rule_excuse_last_trick": "trick_winner", "rule_defence_chelem_bonus": "200",
        "rule_prise_allowed": "y", "rule_half_points": "fft"}
SEVEN = {**{f"players-{i}": n for i, n in enumerate(["Anna", "Ben", "Cla", "Dumeng", "Eva", "Fritz", "Gret"])},
         "first_dealer": "0", "stake": "0.10", "currency": "CHF", "rule_min_players": "3",
         "rule_match_with_tapp_points": "y", "rule_misere_tie": "each_top_pays", "rule_tapp_4p": "10"}


def open_table(client, game, data):
    r = client.post(f"/tables/new/{game}", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"]


@pytest.mark.parametrize("game,data,hand,message", [
    ("french_tarot", FIVE, {"taker": "Anna", "contract": "garde", "side": "attack", "points": "50", "oudlers": "2"},
     "Choose the called king's holder, or Alone."),
    ("troggu", SEVEN, {"contract": "normal", "declarer": "Anna", "side": "declarer", "points": "70"},
     "Choose the called card's holder, or Alone."),
])
def test_the_called_partner_is_never_chosen_by_default(client, game, data, hand, message):
    url = open_table(client, game, data)
    form = client.get(url).get_data(as_text=True)
    assert not re.search(r'name="partner"[^>]*checked', form)  # nothing preselected, not even Alone
    r = client.post(url + "/hands", data={**hand, "token": "t1", "action": "save"})
    assert r.status_code == 200 and str(escape(message)) in r.get_data(as_text=True)
    assert "No hands yet" in client.get(url).get_data(as_text=True)
    # Alone, chosen: a 1-against-4 garde, saved (docs/rules.md §6)
    r = client.post(url + "/hands", data={**hand, "partner": "-alone-", "token": "t2", "action": "save"})
    assert r.status_code == 303
    assert "No hands yet" not in client.get(url).get_data(as_text=True)
