"""Issue 41 item 10: printouts say what they are, and the exports' files are named in the reader's words with their
date (the evening's day for a table, the day of the export for a circle's season)."""
from __future__ import annotations

import html
import re
from datetime import date
from urllib.parse import unquote

import pytest

from tests.test_words import FRENCH_TAROT
from scorekeeper.web.spreadsheet import file_name


def print_head(client, url, lang):
    text = html.unescape(client.get(url, query_string={"lang": lang}).get_data(as_text=True))
    return re.search(r'<p class="paper-head">(.*?)</p>', text, re.S).group(1)


def names(disposition: str) -> tuple[str, str]:
    plain = re.search(r'filename="([^"]*)"', disposition).group(1)
    utf8 = unquote(re.search(r"filename\*=UTF-8''(\S+)", disposition).group(1))
    return plain, utf8


def test_a_printed_settle_up_and_history_name_the_game_the_players_the_day_and_the_circle(client):
    circle = client.post("/circles/new?lang=fr", data={"name": "Les jeudis"}).headers["Location"]
    table = client.post(f"/tables/new/french_tarot?circle={circle.rsplit('/', 1)[1]}&lang=fr",
                        data={**FRENCH_TAROT, "played_on": "2026-11-26"}).headers["Location"]
    for path in ("/settle", "/history"):
        head = print_head(client, table + path, "fr")
        # 26 November 2026 was a Thursday: "jeudi 26 novembre 2026" (Babel's full French date)
        assert "Tarot français · " in head and "jeudi 26 novembre 2026" in head and "Les jeudis" in head
        assert all(name in head for name in ("Anna", "Ben"))
    assert "Thursday, November 26, 2026" in print_head(client, table + "/settle", "en")
    lone = client.post("/tables/new/french_tarot?lang=de", data={**FRENCH_TAROT, "played_on": "2026-11-27"}
                       ).headers["Location"]
    head = print_head(client, lone + "/settle", "de")
    assert "Französisches Tarot · " in head and "Freitag, 27. November 2026" in head and "Stammtisch" not in head


def test_the_exports_are_named_in_the_readers_words_with_their_date(client):
    table = client.post("/tables/new/french_tarot", data={**FRENCH_TAROT, "played_on": "2026-11-26"}).headers["Location"]
    csv = client.get(table + "/export.csv", query_string={"lang": "fr"}).headers["Content-Disposition"]
    assert names(csv) == ("Tarot-francais-2026-11-26.csv", "Tarot-français-2026-11-26.csv")
    json = client.get(table + "/export.json", query_string={"lang": "de"}).headers["Content-Disposition"]
    assert names(json) == ("Franzosisches-Tarot-2026-11-26.json", "Französisches-Tarot-2026-11-26.json")
    circle = client.post("/circles/new", data={"name": "Zoë's Donnerstag"}).headers["Location"]
    disposition = client.get(circle + "/export.csv").headers["Content-Disposition"]
    plain, utf8 = names(disposition)
    assert utf8.startswith("Zoë's-Donnerstag-20") and utf8.endswith(".csv")  # the day of the export
    assert date.fromisoformat(utf8[len("Zoë's-Donnerstag-"):-4])


@pytest.mark.parametrize("words,expected", [
    (("Tarot français", "2026-11-26"), "Tarot-français-2026-11-26.csv"),
    (('A/B\\C: "x" <y>?', "2026-01-02"), "ABC-x-y-2026-01-02.csv"),  # what a file system refuses goes
    (("  ", "2026-01-02"), "2026-01-02.csv"),  # an empty word is left out, not "-2026…"
])
def test_file_names(words, expected):
    assert file_name(*words, suffix=".csv") == expected
