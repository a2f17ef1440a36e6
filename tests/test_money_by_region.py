"""Issue 41 item 9: money by the reader's country. A new table's currency comes from the phone's language and region
(EUR for fr-FR, it-IT, de-DE and de-AT; CHF for -CH and Romansh; else the game's own), and money fields take the
reader's decimal mark ("0,10" in fr, it, de) and show it back the same way."""
from __future__ import annotations

import html
import re

import pytest

from tests.test_table_changes import TROGGU


def field(page: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page).group(1)


def chosen_currency(page: str) -> str:
    return re.search(r'<input checked[^>]*name="currency"[^>]*value="([A-Z]{3})"', page).group(1)


@pytest.mark.parametrize("game,accept,currency,stake", [
    # the region decides: French Tarot's 1 cent a point, Troggu's 10 Rappen (docs/rules.md §5, §6)
    ("french_tarot", "fr-FR,fr;q=0.9", "EUR", "0,01"),
    ("french_tarot", "fr-CH,fr;q=0.9", "CHF", "0,01"),  # Swiss French writes francs with a comma: "1,20 CHF"
    ("troggu", "de-CH,de;q=0.9", "CHF", "0.10"),
    ("troggu", "de-DE,de;q=0.9", "EUR", "0,10"),
    ("koenigrufen", "de-AT,de;q=0.9", "EUR", "0,10"),  # 10 cents a point, the cups' rate (RULES.md §11)
    ("scarto", "it-IT,it;q=0.9", "EUR", "0,01"),
    ("troccas", "rm", "CHF", "0.01"),  # Romansh: the Grisons, whatever the browser adds
    # no region: the game's own country
    ("troggu", "en", "CHF", "0.10"),
    ("french_tarot", "en", "EUR", "0.01"),
    ("troccas", "fr", "CHF", "0,01"),  # a French reader of a Swiss game: CHF, the mark of French without a region
])
def test_a_new_tables_currency_and_stake_follow_the_readers_region(client, game, accept, currency, stake):
    page = client.get(f"/tables/new/{game}", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert chosen_currency(page) == currency
    assert field(page, "stake") == stake


def test_a_stake_typed_with_a_comma_is_kept_and_shown_back_with_the_readers_mark(client):
    french = {"Accept-Language": "fr-FR,fr;q=0.9"}
    url = client.post("/tables/new/troggu", data={**TROGGU, "stake": "0,20", "currency": "EUR"},
                      headers=french).headers["Location"]
    page = client.get(url + "/setup", headers=french).get_data(as_text=True)
    assert field(page, "stake") == "0,20"  # 20 cents, as typed
    assert field(client.get(url + "/setup", headers={"Accept-Language": "en"}).get_data(as_text=True), "stake") == "0.20"
    # the money it makes is 20 cents a unit: a Troggu normal won by the Tappist alone at 4 players is 3 units
    # (docs/rules.md §5: each of the 3 opponents pays the base), 3 × 0.20 = 0.60
    hand = {"contract": "normal", "declarer": "Anna", "side": "declarer", "points": "70", "token": "h1",
            "action": "save"}
    assert client.post(url + "/hands", data=hand).status_code == 303
    assert "0,60" in html.unescape(client.get(url, headers=french).get_data(as_text=True))


@pytest.mark.parametrize("accept,example", [("fr-FR", "comme 0,10"), ("de-CH", "wie 0.10"), ("it-IT", "come 0,10"),
                                            ("en", "such as 0.10")])
def test_a_wrong_stake_is_explained_with_an_example_in_the_readers_mark(client, accept, example):
    r = client.post("/tables/new/troggu", data={**TROGGU, "stake": "zero"}, headers={"Accept-Language": accept})
    page = html.unescape(r.get_data(as_text=True))
    assert example in page and field(page, "stake") == "zero"  # the typed stake kept
