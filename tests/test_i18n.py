"""German pages and the German catalogue: every string the app shows has a translation."""
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from scorekeeper.engine.errors import BadHand
from scorekeeper.engine.games import get_game, whole_points
from scorekeeper.engine.text import line

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "scorekeeper" / "translations" / "de" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
SCARTO = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "first_dealer": "0", "stake": "0.10",
          "currency": "CHF", "rule_honour_trump": "T20"}
TROCCAS = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
           "first_dealer": "0", "stake": "0.05", "currency": "CHF", "rule_all_tricks_take_scart": "y"}


def catalogue():
    with PO.open("rb") as f:
        return read_po(f)


def strings(message) -> list[str]:
    value = message.string
    return list(value) if isinstance(value, (tuple, list)) else [value]


def ids(message) -> list[str]:
    value = message.id
    return list(value) if isinstance(value, (tuple, list)) else [value]


def page(client, url, **kw) -> str:
    r = client.get(url, **kw)
    assert r.status_code == 200, url
    return r.get_data(as_text=True)


def open_table(client, game, data):
    r = client.post(f"/tables/new/{game}?lang=de", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"]


# --- the catalogue ---

def test_every_string_in_the_code_has_a_german_translation():
    """Extract like `make translations` does: a string added without German fails here."""
    translated = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalogue() if m.id}
    method_map = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
    extract_line = next(ln for ln in (ROOT / "Makefile").read_text().splitlines() if "pybabel extract" in ln)
    keywords = {**DEFAULT_KEYWORDS, **parse_keywords(re.findall(r"-k (\S+)", extract_line))}
    missing = []
    for filename, _lineno, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, keywords=keywords, comment_tags=(), strip_comment_tags=True):
        if not (filename.startswith("scorekeeper") or filename.startswith("templates")):
            continue
        key = message if isinstance(message, str) else message[0]
        m = translated.get(key)
        if m is None or not all(strings(m)) or m.fuzzy:
            missing.append(f"{filename}: {key}")
    assert not missing, "run `make translations` and translate:\n" + "\n".join(sorted(set(missing)))


def test_the_german_catalogue_has_no_untranslated_or_fuzzy_entry():
    bad = [ids(m)[0] for m in catalogue() if m.id and (m.fuzzy or not all(strings(m)))]
    assert not bad, bad


def test_plural_entries_have_both_german_forms():
    plurals = [m for m in catalogue() if m.id and m.pluralizable]
    assert plurals  # the counting and settle pages use ngettext
    for m in plurals:
        assert len(strings(m)) == 2 and all(strings(m)), m.id


def test_german_keeps_every_named_field():
    """A {field} or %(name)s lost or misspelt in German would crash or drop a number."""
    def fields(text):
        return sorted(set(re.findall(r"(?<!\{)\{\w+\}(?!\})", text))), sorted(set(re.findall(r"%\(\w+\)[sd]", text)))
    for m in catalogue():
        if not m.id:
            continue
        english = ids(m)[-1]  # the plural form carries every field
        for german in strings(m)[-1:]:
            assert fields(german) == fields(english), (english, german)


def test_the_compiled_catalogue_matches_the_po_file():
    """The .mo files are committed: they must be compiled from the current .po (`make translations`)."""
    with MO.open("rb") as f:
        compiled = {tuple(ids(m)): tuple(strings(m)) for m in read_mo(f) if m.id}
    source = {tuple(ids(m)): tuple(strings(m)) for m in catalogue() if m.id}
    assert compiled == source


# --- engine sentences ---

def test_a_score_error_keeps_english_and_renders_translated():
    error = BadHand(line("{what} must be a whole number.", what=line("{player}'s points", player="Anna")))
    assert error.message == "Anna's points must be a whole number."
    assert str(error) == error.message
    german = {"{what} must be a whole number.": "{what}: bitte eine ganze Zahl.",
              "{player}'s points": "Punkte von {player}"}
    assert error.render(lambda s: german.get(s, s)) == "Punkte von Anna: bitte eine ganze Zahl."


def test_a_plain_sentence_error_still_works():
    error = BadHand("Plain words.")
    assert error.message == "Plain words." and error.render() == "Plain words."


def test_engine_errors_read_the_same_in_english():
    with pytest.raises(BadHand) as e:
        whole_points(200, 0, 114, line("{player}'s points", player="Zoë"))
    assert e.value.message == "Zoë's points must be between 0 and 114, not 200."
    with pytest.raises(BadHand) as e:
        get_game("scarto").score(["A", "B", "C"], {"points": {"A": 30, "B": 30, "C": 30}}, {"honour_trump": "T20",
                                 "fool_exchange": "none"})
    assert e.value.message.startswith("The points add up to 90, but the Scarto / Tarocchi deck is worth 78")


# --- German pages ---

def test_home_page_in_german_by_query_and_by_browser(client):
    assert "Tisch eröffnen" in page(client, "/?lang=de")
    fresh = client.application.test_client()
    assert "Tisch eröffnen" in page(fresh, "/", headers={"Accept-Language": "de-CH,de;q=0.9,en;q=0.5"})
    assert "Open a table" in page(client.application.test_client(), "/")


def test_the_language_choice_persists_in_a_cookie(client):
    r = client.get("/?lang=de")
    assert "lang=de" in r.headers["Set-Cookie"]
    assert '<html lang="de">' in page(client, "/count/troggu")  # no ?lang= any more: the cookie says de
    assert '<html lang="en">' in page(client, "/?lang=en")
    assert '<html lang="en">' in page(client, "/")


def test_language_links_keep_the_page_and_its_query(client):
    html = page(client, "/count/scarto?honour_trump=T21&lang=de")
    assert 'href="/count/scarto?honour_trump=T21&amp;lang=en"' in html


def test_language_links_after_a_post_lead_to_a_page_that_answers(client):
    url = open_table(client, "scarto", SCARTO)
    html = client.post(url + "/hands", data={"pp0": "30", "pp1": "30", "pp2": "30"}).get_data(as_text=True)
    link = re.search(r'href="([^"]*lang=en)"', html).group(1)
    assert link == url + "?lang=en"
    assert client.get(link).status_code == 200


def test_counting_page_in_german(client):
    html = page(client, "/count/troggu?lang=de")
    assert "Tippe jede Karte im Stapel an" in html
    # the engine's working line, translated: "{n} cards added up: {points} points"
    html = client.post("/count/troggu?lang=de", data={"card": ["T21", "FOOL"]}).get_data(as_text=True)
    assert "2 Karten zusammengezählt: 10 Punkte" in html  # Munt 5 + Bättler 5 (troggu-visp-de.txt)


def test_a_counting_error_in_german(client):
    html = client.post("/count/troggu?lang=de", data={"card": ["T21", "ZZ-9"]}).get_data(as_text=True)
    assert "Keine Karte: ZZ-9. Karten schreibt man wie T21, FOOL oder SW-K." in html


def test_table_page_and_engine_error_in_german(client):
    url = open_table(client, "scarto", SCARTO)
    assert "Noch keine Runden." in page(client, url)
    html = client.post(url + "/hands", data={"pp0": "30", "pp1": "30", "pp2": "30"}).get_data(as_text=True)
    # 30 + 30 + 30 = 90, not the deck's 78 (docs/rules.md §2.1)
    assert "Die Punkte ergeben zusammen 90, aber die Karten von Scarto / Tarocchi sind 78 wert" in html
    assert "The points add up to" not in html


def test_the_preview_and_the_working_in_german(client):
    url = open_table(client, "troccas", TROCCAS)
    html = client.post(url + "/preview", data={"partner": "Cla", "side": "first", "points": "40"}).get_data(as_text=True)
    # Troccas 40 points: 40 - 36 = +4 each (docs/rules.md §1); 4 x 5 Rappen = 20 Rappen
    assert "Anna und Cla erhalten je 20 Rappen; Ben und Zoë zahlen je 20 Rappen." in html
    assert "Anna und Cla machten 40 Punkte; Ben und Zoë die übrigen 32 von 72." in html  # 72 - 40 = 32


def test_a_rules_page_in_german(client):
    html = page(client, "/rules/troggu?lang=de")
    assert "das Tarockspiel des Oberwallis" in html
    assert "Was die Verlierer zahlen" in html


def test_game_names_and_house_rule_meanings_have_german():
    """They are data, not calls: a list default can hide one from extraction (wrap it in N_)."""
    from scorekeeper.engine.games import all_games
    translated = {m.id for m in catalogue() if m.id and all(strings(m)) and not m.fuzzy}
    missing = [text for game in all_games().values()
               for text in (game.name, *(opt.meaning for opt in game.options.values())) if text not in translated]
    assert not missing, missing


def test_the_core_raises_translatable_sentences():
    """A plain or f-string message would reach German players in English: the core raises line(...)."""
    import ast
    core = [*sorted((ROOT / "scorekeeper" / "engine").rglob("*.py")), ROOT / "scorekeeper" / "web" / "api.py"]
    plain = []
    for path in core:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args \
                    and getattr(node.exc.func, "id", "") != "ValueError" \
                    and isinstance(node.exc.args[0], (ast.Constant, ast.JoinedStr, ast.BinOp)):
                plain.append(f"{path.name}:{node.lineno}")
    assert not plain, plain
