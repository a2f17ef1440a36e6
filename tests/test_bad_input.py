"""Bad input of every kind, through every form, the JSON API and imports: a message, never a 500.

Each case posts one wrong thing into an otherwise good request and checks the answer: a form is
shown again (200) with a message at the field it concerns and the typed input kept; the API answers
400 with its error code (and names the field); nothing is ever a 500. Numbers come in every notation
(1e-999999999, 9e999999, 1e308, -0, NaN, Infinity, 10**100 as digits, Arabic-Indic and full-width
digits, 1_000, ' 12 ', 0x10), names with invisible characters, hidden fields and choices tampered
with, bodies oversized and cut short. Timings are never checked here: `make bench` (bench/bad_input.py)
runs these cases and reports the slowest; a case that hung a worker would hang this test instead.
"""
from __future__ import annotations

import html
import io
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from scorekeeper import create_app, store
from scorekeeper.engine.entry import Number, Pick
from scorekeeper.engine.games import all_games, resolve_rules
from scorekeeper.engine.naming import say
from scorekeeper.web import hand_form
from scorekeeper.web.table_form import money_minor, rule_value
from tests import opening

GAMES = list(all_games())
# Numbers in every notation a player or a script might send, and what a form must say of them.
BAD_NUMBERS = ["1e-999999999", "9e999999", "1e308", "NaN", "Infinity", "-Infinity", "1" + "0" * 100, "9" * 5000,
               "٣", "١٢", "１２", "1_000", "0x10", "4.5.6", "12abc", "1\x002", "1\u200b2", "+-1", "²"]
FINE_NUMBERS = [" 12 ", "-0", "12"]  # odd but readable (the form trims spaces; -0 is 0)
NAMES = ["Ben\x00", "Be\x00n", "Be\u200bn", "\u200bBen", "Be\u200dn", "Be\ufeffn", "Be\u202en", "Be\nn",
         "Be\tn", "Be\x07n", "Be\u2028n", "Be\u00adn"]
INVISIBLE = "A name can't hold invisible or control characters (such as a zero-width space, a line break or a NUL)."


# ---- helpers ----

@pytest.fixture(scope="module")
def api_client(tmp_path_factory):
    """One app for the cases that change nothing stored (the JSON API, the counting pages): a fresh app
    per case, its database migrated, would be most of this file's time. Its rate limits are off: the
    cases here are hundreds of requests from one address (tests/test_limits.py checks the limits)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('bad') / 'api.sqlite'}",
                      "RATELIMIT_ENABLED": False})
    yield app.test_client()
    app.extensions["store"].dispose()


def game_of(game_id):
    return all_games()[game_id]


def table_post(game_id, **change) -> dict:
    """A good table form for the game (its rules-page example's players, the usual house rules)."""
    game = game_of(game_id)
    data = {f"players-{i}": p for i, p in enumerate(game.example(game).players)}
    data.update(first_dealer="0", stake="0.10", currency="CHF")
    for name, opt in game.options.items():
        if isinstance(opt.default, bool):
            if opt.default:
                data["rule_" + name] = "y"
        elif isinstance(opt.default, list):
            data["rule_" + name] = ", ".join(str(v) for v in opt.default)
        else:
            data["rule_" + name] = str(opt.default)
    data.update(change)
    return data


def open_table(client, game_id) -> str:
    return opening.open_table(client, game_id, table_post(game_id))


def hand_post(app, game_id, url) -> dict:
    """A good hand form for the table: the game's rules-page example, as the edit form shows it."""
    game = game_of(game_id)
    with app.test_request_context():
        table = store.get_table(url.rsplit("/", 1)[1])
        form = hand_form.edit_form(game, table, game.example(game).hand)
        return {f.name: f.data for f in form if f.name not in ("csrf_token", "count_of", "token", "version")
                and f.data not in (None, "", [])}


def number_fields(game_id) -> list[tuple[str, Number]]:
    """The whole-number and half-point fields of the game's hand form, with their declarations."""
    game = game_of(game_id)
    players = list(game.example(game).players)
    entry = game.entry(players, resolve_rules(game, None), None)
    return [(name, decl) for f, _groups in entry.walk() for name, decl, _p in hand_form.expand(f, players)
            if isinstance(decl, Number)]


def text(response) -> str:
    return response.get_data(as_text=True)


def at_field(page: str, name: str, message: str, kept: str | None = None) -> None:
    """Assert the field `name` is shown with the typed input kept and `message` as its next message."""
    found = re.search(r'<input[^>]*\bname="%s"[^>]*>' % re.escape(name), page)
    assert found, f"no field {name}"
    if kept is not None:
        assert f'value="{escape(kept)}"' in found.group(0), found.group(0)[:300]
    error = re.compile(r'<p class="field-error" role="alert">(.*?)</p>', re.S).search(page, found.end())
    assert error is not None, f"no message after {name}"
    assert html.unescape(error.group(1)) == message


def api(client, path, body, content_type="application/json"):
    raw = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(path, data=raw, content_type=content_type)


def api_error(response, status=400, code="bad_request") -> str:
    assert response.status_code == status, text(response)
    body = response.get_json()
    assert body["error"]["code"] == code, body
    return body["error"]["message"]


def upload(client, data, raw: bytes | None = None):
    body = raw if raw is not None else json.dumps(data).encode()
    return client.post("/tables/import", data={"file": (io.BytesIO(body), "table.json")},
                       content_type="multipart/form-data")


def english(message) -> str:
    """Render a Line (or text) as the English page shows it."""
    return say(message, lambda s: s)


# ---- the hand form of each game: every number field in every notation ----

HAND_NUMBER_CASES = [(g, name, value) for g in GAMES for name, _decl in number_fields(g)[:1]
                     for value in BAD_NUMBERS + FINE_NUMBERS]


@pytest.mark.parametrize("game_id, name, value", HAND_NUMBER_CASES)
def test_a_number_in_the_hand_form_in_any_notation(app, client, game_id, name, value):
    url = open_table(client, game_id)
    data = {**hand_post(app, game_id, url), name: value}
    r = client.post(url + "/hands", data=data)
    decl = dict(number_fields(game_id))[name]
    with app.test_request_context():
        _value, message = hand_form.number(value, decl)
        message = english(message) if message is not None else None
    if message is None:  # readable: saved, or the engine's sentence if it makes the hand impossible
        assert r.status_code in (200, 303), text(r)
        return
    assert r.status_code == 200
    page = text(r)
    at_field(page, name, message, kept=value)
    # the summary above the form names the field in the player's words
    assert re.search(r'<p class="form-errors" role="alert">Not saved yet: look at [^<]+</p>', page)


def _choices(game_id):
    game = game_of(game_id)
    players = list(game.example(game).players)
    entry = game.entry(players, resolve_rules(game, None), None)
    return [(name, decl) for f, _g in entry.walk() for name, decl, _p in hand_form.expand(f, players)
            if isinstance(decl, Pick)]


TAMPERED = ["Nobody", "anna", "", "x" * 5000, "\x00", "prise\u200b", "0x1", "٣"]
PICK_CASES = [(g, name, value) for g in GAMES for name, _d in _choices(g)[:2] for value in TAMPERED[:5]]


@pytest.mark.parametrize("game_id, name, value", PICK_CASES)
def test_a_choice_that_is_not_offered(app, client, game_id, name, value):
    """A player not at the table, a contract that doesn't exist: a message, never a 500 or a saved hand."""
    url = open_table(client, game_id)
    good = hand_post(app, game_id, url)
    r = client.post(url + "/hands", data={**good, name: value})
    assert r.status_code in (200, 303), text(r)
    if r.status_code == 200:
        page = html.unescape(text(r))
        assert 'class="field-error"' in page or 'class="engine-error"' in page
    else:  # only a blank in a field that may be blank (the hand is then what the rest says)
        assert value == ""


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("field, value", [("token", "t" * 5000), ("token", "nul\x00"), ("token", "ü"),
                                          ("action", "x" * 5000), ("count_of", "nobody")])
def test_tampered_hidden_fields_still_save_the_hand_once(app, client, game_id, field, value):
    """A token the app never made is no token: the hand is saved (once per post), never a 500."""
    url = open_table(client, game_id)
    r = client.post(url + "/hands", data={**hand_post(app, game_id, url), field: value})
    assert r.status_code == 303, text(r)


@pytest.mark.parametrize("version", [str(10**30), "9" * 5000, "-1", "٣", "1e3", "abc", "\x00", " "])
def test_a_tampered_version_is_changed_meanwhile_never_a_silent_save(app, client, version):
    url = open_table(client, "troccas")
    good = hand_post(app, "troccas", url)
    assert client.post(url + "/hands", data=good).status_code == 303
    r = client.post(url + "/hands/1", data={**good, "points": "41", "version": version})
    if not version.strip():  # no version at all (an old form): saved as before
        assert r.status_code == 303
        return
    assert r.status_code == 200
    page = html.unescape(text(r))
    assert "This hand was changed meanwhile" in page
    assert re.search(r'name="points"[^>]*value="41"', page)  # the typed input is kept


@pytest.mark.parametrize("number", ["١", "１", "0x1", "1e0", "99999999999999999999", "9" * 5000, "-1", "+1"])
def test_a_hand_number_in_the_address_is_ascii_digits_only(app, client, number):
    url = open_table(client, "troccas")
    assert client.post(url + "/hands", data=hand_post(app, "troccas", url)).status_code == 303
    status = 414 if len(number) > 2000 else 404  # an address past 2,048 characters is refused as such
    assert client.get(f"{url}/hands/{number}").status_code == status
    assert client.post(f"{url}/hands/{number}/delete", data={"token": "d"}).status_code == status


@pytest.mark.parametrize("token", ["u" * 5000, "nul\x00", "ü", "", "a b"])
def test_undo_and_delete_with_a_tampered_token(app, client, token):
    url = open_table(client, "troccas")
    good = hand_post(app, "troccas", url)
    client.post(url + "/hands", data={**good, "token": "a"})
    client.post(url + "/hands", data={**good, "token": "b"})
    assert client.post(url + "/undo", data={"token": token}).status_code == 303
    assert client.post(url + "/hands/1/delete", data={"token": token}).status_code == 303
    with app.app_context():
        assert store.list_hands(url.rsplit("/", 1)[1]) == []  # one undo, one delete: each happened once


# ---- opening a table: stake, names, first dealer, house rules ----

@pytest.mark.parametrize("value", BAD_NUMBERS + FINE_NUMBERS + ["sNaN", "1e3", "-0.10", "0.001", ".5", "1'000"])
def test_the_stake_in_any_notation(app, client, value):
    r = client.post("/tables/new/troccas", data=table_post("troccas", stake=value))
    try:
        with app.test_request_context():
            money_minor(value)
        message = None
    except ValueError as e:
        message = str(e)
    if message is None:
        assert r.status_code == 303, text(r)
        return
    assert r.status_code == 200
    at_field(text(r), "stake", message, kept=value)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("value", ["9e999999", "NaN", "٣", "1_000", "-0.05"])
def test_the_stake_of_every_game(client, game_id, value):
    r = client.post(f"/tables/new/{game_id}", data=table_post(game_id, stake=value))
    assert r.status_code == 200
    assert re.search(r'name="stake"[^>]*value="%s"' % re.escape(str(escape(value))), text(r))
    assert 'class="field-error"' in text(r)


@pytest.mark.parametrize("name", NAMES)
def test_a_name_with_invisible_or_control_characters_is_refused_at_its_field(client, name):
    r = client.post("/tables/new/troccas", data=table_post("troccas", **{"players-1": name}))
    assert r.status_code == 200
    at_field(text(r), "players-1", INVISIBLE, kept=name)


@pytest.mark.parametrize("game_id", GAMES)
def test_names_in_every_game_refuse_a_nul_and_a_zero_width_space(client, game_id):
    r = client.post(f"/tables/new/{game_id}", data=table_post(game_id, **{"players-0": "An\u200bna",
                                                                          "players-1": "Be\x00n"}))
    assert r.status_code == 200
    at_field(text(r), "players-0", INVISIBLE, kept="An\u200bna")
    at_field(text(r), "players-1", INVISIBLE, kept="Be\x00n")


def test_a_name_longer_than_40_characters_is_refused_at_its_field(client):
    r = client.post("/tables/new/troccas", data=table_post("troccas", **{"players-1": "B" * 41}))
    assert r.status_code == 200
    at_field(text(r), "players-1", "Field cannot be longer than 40 characters.", kept="B" * 41)


@pytest.mark.parametrize("key", ["players-" + "9" * 5000, "players-²", "players-٣", "players--1", "players-1-x"])
def test_a_crafted_seat_field_is_no_seat(client, key):
    r = client.post("/tables/new/troccas", data=table_post("troccas", **{key: "Mallory"}))
    assert r.status_code in (200, 303)


@pytest.mark.parametrize("dealer", ["٣", "9" * 5000, "-1", "99", "1e1", "", "\x00"])
def test_a_tampered_first_dealer(client, dealer):
    r = client.post("/tables/new/troccas", data=table_post("troccas", first_dealer=dealer))
    assert r.status_code == 200
    assert 'value="Anna"' in text(r) and 'class="field-error"' in text(r)


@pytest.mark.parametrize("value", ["1e3, 30, 40", "NaN, 30, 40", "٣, 30, 40", "１２, 30, 40", "1_000, 30, 40",
                                   "0x10, 30, 40", "9" * 5000 + ", 30, 40", "-1, 30, 40", "20, 30", "20 30 40 50",
                                   "Infinity, 1, 2", "20.5, 30, 40"])
def test_a_list_house_rule_in_any_notation(app, client, value):
    r = client.post("/tables/new/french_tarot", data=table_post("french_tarot", rule_poignee_bonus=value))
    with app.test_request_context():
        opt = game_of("french_tarot").options["poignee_bonus"]
        with pytest.raises(ValueError) as e:
            rule_value(opt, value)
    assert r.status_code == 200
    at_field(text(r), "rule_poignee_bonus", str(e.value), kept=value)


@pytest.mark.parametrize("game_id", [g for g in GAMES if any(o.choices for o in game_of(g).options.values())])
def test_a_house_rule_choice_that_is_not_offered(client, game_id):
    name = next(n for n, o in game_of(game_id).options.items() if o.choices)
    r = client.post(f"/tables/new/{game_id}", data=table_post(game_id, **{"rule_" + name: "T99\x00"}))
    assert r.status_code == 200 and 'class="field-error"' in text(r)


def test_with_csrf_on_a_bad_stake_is_still_a_message_and_a_forged_post_changes_nothing(csrf_app):
    client = csrf_app.test_client()
    page = text(client.get("/tables/new/troccas"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    r = client.post("/tables/new/troccas", data=table_post("troccas", stake="9e999999", csrf_token=token))
    assert r.status_code == 200
    at_field(text(r), "stake", "Write an amount such as 0.10.", kept="9e999999")
    r = client.post("/tables/new/troccas", data=table_post("troccas", csrf_token="x" * 5000))
    assert r.status_code == 400 and "This form has expired" in html.unescape(text(r))


def test_troggu_for_at_least_4_with_3_players_is_refused_at_the_form(client):
    data = table_post("troggu", rule_min_players="4")
    data = {k: v for k, v in data.items() if not k.startswith("players-")}
    data.update({"players-0": "Anna", "players-1": "Beat", "players-2": "Carla"})
    r = client.post("/tables/new/troggu", data=data)
    assert r.status_code == 200
    assert "Troggu needs 4 to 8 players; you named 3." in html.unescape(text(r))
    assert 'value="Carla"' in text(r)


# ---- changing the table during the evening (names, joining, stake, house rules) ----

def setup_post(client, url, **change) -> dict:
    """A good change of the table (its rules-page example's players, another stake), with `change`."""
    version = re.search(r'name="version" value="(\d+)"', text(client.get(url + "/setup"))).group(1)
    data = {"name0": "Anna", "name1": "Beat", "name2": "Carla", "name3": "Dario", "stake": "0.10", "version": version}
    return {**data, **change}


@pytest.mark.parametrize("value", ["9e999999", "sNaN", "NaN", "٣", "１２", "1_000", "0x10", "9" * 5000, "-0.10"])
def test_the_setup_form_stake_in_any_notation(client, value):
    url = open_table(client, "troccas")
    r = client.post(url + "/setup", data=setup_post(client, url, stake=value))
    assert r.status_code == 200
    at_field(text(r), "stake", "Write an amount such as 0.10.", kept=value)


@pytest.mark.parametrize("field", ["name1", "join"])
@pytest.mark.parametrize("name", ["Be\x00n", "Be\u200bn", "Be\ufeffn", "B" * 41])
def test_the_setup_form_refuses_names_the_table_form_refuses(client, field, name):
    url = open_table(client, "troggu")
    r = client.post(url + "/setup", data=setup_post(client, url, **{field: name}, name4="Elsa"))
    assert r.status_code == 200
    # the same check and words as opening a table (web/seating_check.py)
    said = "A name has at most 40 characters, and no invisible ones." if len(name) > 40 else INVISIBLE
    assert said in html.unescape(text(r))


# ---- imports ----

def exported(app, client, game_id="french_tarot") -> dict:
    url = open_table(client, game_id)
    assert client.post(url + "/hands", data=hand_post(app, game_id, url)).status_code == 303
    return client.get(url + "/export.json").get_json()


def import_with(client, good, raw_value, *path):
    """Import `good` with the value at `path` replaced by the raw JSON text `raw_value`."""
    marker = "__value__"
    data = json.loads(json.dumps(good))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = marker
    return upload(client, None, json.dumps(data).replace(f'"{marker}"', raw_value).encode())


JSON_NUMBERS = ["1e-999999999", "9e999999", "1e308", "NaN", "Infinity", "1" + "0" * 5000, "-0", "0.5e1", '"٣"',
                '"1_000"', "null", "2147483647"]


@pytest.mark.parametrize("path", [("stake",), ("version",), ("first_dealer",), ("hands", 0, "number"),
                                  ("hands", 0, "version"), ("hands", 0, "hand", "points")])
@pytest.mark.parametrize("value", JSON_NUMBERS)
def test_an_import_with_any_number_anywhere(app, client, path, value):
    good = exported(app, client)
    r = import_with(client, good, value, *path)
    assert r.status_code in (400, 303), text(r)
    if value in ("1e-999999999", "9e999999", "1e308", "NaN", "Infinity", "1" + "0" * 5000):
        assert r.status_code == 400
        page = html.unescape(text(r))
        assert 'class="engine-error"' in page
        field = ".".join(str(p) for p in path).replace(".0.", "[0].")
        assert f"“{field}”" in page  # the message names the field of the file


@pytest.mark.parametrize("name", NAMES + ["\ud800", "B" * 41])
def test_an_import_refuses_names_the_form_refuses(app, client, name):
    good = exported(app, client, "troccas")
    good["players"][1] = name
    good["hands"] = []
    r = upload(client, good)
    assert r.status_code == 400
    assert "Player 2&#39;s name in the file" in text(r)


def test_an_import_of_troggu_for_4_with_3_players_is_refused(app, client):
    good = exported(app, client, "troggu")
    good.update(players=["Anna", "Beat", "Carla"], rules={**good["rules"], "min_players": 4}, hands=[])
    r = upload(client, good)
    assert r.status_code == 400
    assert "Troggu is played by 4 to 8 players, not 3." in html.unescape(text(r))


@pytest.mark.parametrize("raw", [b"", b"{", b'{"format": "scorekeeper.table"', b"\xff\xfe\x00", b"null", b"[]",
                                 b"[" * 100_000 + b"]" * 100_000, "{\"format\": \"\ud800\"}".encode("utf-8", "surrogatepass"),
                                 b'{"format": "scorekeeper.table", "format_version": 1e999}'])
def test_a_truncated_or_broken_import_file(client, raw):
    r = upload(client, None, raw)
    assert r.status_code == 400
    assert 'class="engine-error"' in text(r)


def test_an_import_over_2_mb_is_refused(client):
    r = upload(client, None, b" " * 2_000_001)
    assert r.status_code == 400 and "at most 2 MB" in text(r)
    r = upload(client, None, b" " * 3_000_000)  # past MAX_CONTENT_LENGTH: the request itself is refused
    assert r.status_code == 413 and "far too much data" in text(r)


def test_an_import_with_more_hands_than_a_table_keeps(app, client):
    good = exported(app, client, "troccas")
    hand = good["hands"][0]
    good["hands"] = [{**hand, "number": i} for i in range(1, 2002)]
    r = upload(client, good)
    assert r.status_code == 400
    assert "This file has 2,001 hands; a table keeps at most 2,000." in text(r)


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "2026-13-01", "x" * 5000,
                                  "2026-01-01T20:00:00", 1e300])
def test_an_import_with_an_odd_date(app, client, when):
    good = exported(app, client, "troccas")
    good["created_at"] = when
    r = upload(client, good)
    assert r.status_code in (400, 303)
    if r.status_code == 303:  # a date without a zone is read as UTC, and the table opens
        assert client.get(r.headers["Location"]).status_code == 200


# ---- the JSON API ----

FT = {"game": "french_tarot", "players": ["Anna", "Beat", "Carla", "Dario"],
      "hand": {"taker": "Anna", "contract": "garde", "points": 41, "oudlers": 2}}


def with_raw(body: dict, raw: str, *path) -> str:
    """Return `body` as JSON text with the raw JSON `raw` at `path` (made if missing)."""
    marker = "__value__"
    data = json.loads(json.dumps(body))
    target = data
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = marker
    return json.dumps(data).replace(f'"{marker}"', raw)


OUT_OF_RANGE = ["1e-999999999", "9e999999", "1e308", "-1e308", "1" + "0" * 100, "1" + "0" * 5000, "1e-300",
                "1000000001", "0.0000000001"]
NOT_NUMBERS = ["NaN", "Infinity", "-Infinity"]
STRINGS = ['"٣"', '"１２"', '"1_000"', '" 12 "', '"0x10"', '"41"', "true", "null", "[]", "{}"]


@pytest.mark.parametrize("path", [("hand", "points"), ("stake",), ("hand", "oudlers"),
                                  ("rules", "poignee_bonus"), ("rules", "defence_chelem_bonus")])
@pytest.mark.parametrize("raw", OUT_OF_RANGE + NOT_NUMBERS)
def test_api_numbers_out_of_range_name_their_field(api_client, path, raw):
    message = api_error(api(api_client, "/api/v1/score", with_raw(FT, raw, *path)))
    assert f"“{'.'.join(path)}”" in message


@pytest.mark.parametrize("path", [("hand", "points"), ("stake",), ("hand", "oudlers")])
@pytest.mark.parametrize("raw", STRINGS + ["-0", "0.5e1", "40.5", "4.05e1"])
def test_api_numbers_of_the_wrong_type_or_odd_notation(api_client, path, raw):
    r = api(api_client, "/api/v1/score", with_raw(FT, raw, *path))
    assert r.status_code in (200, 400), text(r)
    if r.status_code == 400:
        assert r.get_json()["error"]["code"] in ("bad_request", "bad_hand")


@pytest.mark.parametrize("raw", ["[1e999, 30, 40]", "[NaN, 1, 2]", "[1, 2]", "[-1, 2, 3]", '"20, 30, 40"',
                                 "[20.0, 30, 40]", "[" + "1," * 10000 + "1]"])
def test_api_list_house_rules(api_client, raw):
    api_error(api(api_client, "/api/v1/score", with_raw({**FT, "rules": {}}, raw, "rules", "poignee_bonus")))


@pytest.mark.parametrize("cards", ['"T1"', "null", "42", "NaN", '["T1", 1e999]', '["T\u0661"]', '["T1\\u0000"]',
                                   '["' + "x" * 5000 + '"]', '["T1", "T1"]', "[" + '"T1",' * 1000 + '"T1"]'])
def test_api_count_with_odd_cards(api_client, cards):
    r = api(api_client, "/api/v1/count", '{"game": "troccas", "cards": %s}' % cards)
    assert r.status_code == 400, text(r)
    assert r.get_json()["error"]["code"] in ("bad_request", "unknown_card", "duplicate_card", "too_many_cards")


@pytest.mark.parametrize("game", ['"troccas\\u0000"', '"Troccas"', '"' + "x" * 5000 + '"', "1e999", "NaN", "[]",
                                  '"tro\u200bccas"'])
def test_api_an_odd_game_id(api_client, game):
    r = api(api_client, "/api/v1/count", '{"game": %s, "cards": []}' % game)
    assert r.status_code in (400, 404) and r.get_json()["error"]["code"] in ("bad_request", "unknown_game")


@pytest.mark.parametrize("path", ["/api/v1/games/%E2%80%8Btroggu", "/api/v1/games/" + "x" * 1000,
                                  "/api/v1/games/%00", "/api/v1/games/troggu%0A"])
def test_api_an_odd_game_in_the_address(api_client, path):
    api_error(api_client.get(path), 404, "unknown_game")


@pytest.mark.parametrize("content_type", ["text/plain", "", "text/plain; charset=utf-8", "application/json",
                                          "application/x-www-form-urlencoded", "application/octet-stream"])
def test_api_reads_json_whatever_the_content_type(api_client, content_type):
    body = json.dumps({"game": "troccas", "cards": ["SW-K"]})
    r = api_client.post("/api/v1/count", data=body, headers={"Content-Type": content_type} if content_type else {})
    assert r.status_code == 200, text(r)
    assert r.get_json()["points"] == 5  # a king alone (docs/rules.md §1)


@pytest.mark.parametrize("content_type, says", [
    ("text/plain", "“Content-Type: application/json” (this request said “text/plain”)"),
    ("", "with the header “Content-Type: application/json”."),
    ("application/x-www-form-urlencoded", "(this request said “application/x-www-form-urlencoded”)"),
    ("application/json", "The request body is not valid JSON"),
])
def test_api_says_what_to_send_when_the_body_is_not_json(api_client, content_type, says):
    r = api_client.post("/api/v1/count", data="game=troccas&cards=SW-K",
                    headers={"Content-Type": content_type} if content_type else {})
    assert says in api_error(r)


@pytest.mark.parametrize("cut", [1, 5, 20, 40, 60, -1])
def test_api_a_truncated_body(api_client, cut):
    body = json.dumps(FT)
    api_error(api(api_client, "/api/v1/score", body[:cut] if cut > 0 else body[:cut]))


@pytest.mark.parametrize("body", [b"\xff\xfe\xfd", b"\x00" * 10, "{\"game\": \"\ud800\"}".encode("utf-8", "surrogatepass"),
                                  b"\xef\xbb\xbf" + json.dumps(FT).encode(), b'"just a string"', b"42", b"  "])
def test_api_odd_bytes(api_client, body):
    r = api(api_client, "/api/v1/score", body)
    assert r.status_code in (200, 400), text(r)


def test_api_an_oversized_body(api_client):
    r = api(api_client, "/api/v1/score", '{"game": "' + "x" * 3_000_000 + '"}')
    assert r.status_code == 413 and r.get_json()["error"]["code"] == "bad_request"


def test_api_troggu_for_at_least_4_with_3_players(api_client):
    r = api(api_client, "/api/v1/score", {"game": "troggu", "players": ["Anna", "Beat", "Carla"], "rules": {"min_players": 4},
                                      "hand": {"contract": "normal", "declarer": "Anna", "declarer_points": 63}})
    assert api_error(r, 400, "bad_hand") == "Troggu is played by 4 to 8 players, not 3."


@pytest.mark.parametrize("players", ['["Anna", "Be\\u0000at", "Carla", "Dario"]', '["' + "A" * 5000 + '", "B", "C"]',
                                    '["\\ud800", "B", "C", "D"]', "[1e999]", '["A", "A", "B", "C"]'])
def test_api_odd_player_names(api_client, players):
    r = api(api_client, "/api/v1/score", with_raw(FT, players, "players"))
    assert r.status_code in (200, 400), text(r)


# ---- count pages ----

@pytest.mark.parametrize("value", BAD_NUMBERS + ["-1", "5"])
def test_a_class_count_in_any_notation(api_client, value):
    r = api_client.post("/count/troccas/classes", data={"kings": value, "queens": "2"})
    assert r.status_code == 200
    page = text(r)
    row = re.search(r'<div class="class-row invalid">.*?</div>', page, re.S).group(0)
    assert f'value="{escape(value)}"' in row  # kept
    assert "whole number from 0 to 4" in row or "has 4 of these" in row  # the kings' own message


@pytest.mark.parametrize("step", ["kings:" + "9" * 5000, "kings:٣", "kings:1e3", "nothing:1", "kings:-1", ":"])
def test_a_tampered_class_step(api_client, step):
    assert api_client.post("/count/troccas/classes", data={"kings": "1", "step": step}).status_code == 200


@pytest.mark.parametrize("op, editing", [("edit:" + "9" * 5000, ""), ("edit:٣", "²"), ("remove:-1", "0"),
                                         ("edit:0", "9" * 5000), ("add", "١"), ("x" * 5000, "x")])
def test_tampered_group_indexes(api_client, op, editing):
    r = api_client.post("/count/scarto/groups", data={"group": ["T1 T2 T3", "SW-K"], "card": ["CU-K"], "op": op,
                                                    "editing": editing})
    assert r.status_code == 200


@pytest.mark.parametrize("cards", [["T1\x00"], ["x" * 5000], ["T١"], ["T1", "t1"], ["SW-K"] * 100, ["\u200bT1"]])
def test_tapped_cards_that_are_no_cards(api_client, cards):
    r = api_client.post("/count/troccas", data={"card": cards})
    assert r.status_code == 200
    assert 'role="alert"' in text(r) or "error" in text(r)


@pytest.mark.parametrize("rule", ["T99", "\x00", "x" * 5000])
def test_a_tampered_counting_house_rule(api_client, rule):
    r = api_client.post("/count/scarto", data={"card": ["T1"], "honour_trump": rule})
    assert r.status_code == 200 and "Choose one of the listed house rules." in text(r)


# ---- sharing ----

@pytest.mark.parametrize("key", ["x" * 500, "nul%00", "%E2%80%8B", "ü"])
def test_share_pages_with_a_tampered_key(api_client, key):
    assert api_client.get(f"/t/{key}/share").status_code == 404
    assert api_client.post(f"/t/{key}/share/scorer").status_code == 404
    assert api_client.get(f"/v/{key}").status_code == 404


def test_a_viewer_link_can_not_rotate_or_post(app, client):
    url = open_table(client, "troccas")
    page = text(client.get(url + "/share"))
    viewer = re.search(r"/v/([A-Za-z0-9_-]+)", page).group(1)
    assert client.post(f"/t/{viewer}/share/scorer").status_code == 403
    assert client.post(f"/t/{viewer}/hands", data=hand_post(app, "troccas", url)).status_code == 403
    assert client.get(url + "/share?rotated=" + "1" * 1000).status_code == 200


# ---- fuzz: forms and the API, never a 500 ----

ODD_TEXT = st.lists(st.sampled_from(list("0123456789.,-+eE x_") + ["٣", "１", "\x00", "\u200b", "NaN", "∞", "Anna",
                                                                "Ben", "T1", "SW-K", "9" * 40]),
                    max_size=8).map("".join)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzz_the_table_form(client, game_id, data):
    good = table_post(game_id)
    keys = sorted(good) + ["players-9", "players-x"]
    changes = data.draw(st.dictionaries(st.sampled_from(keys), ODD_TEXT, max_size=4))
    r = client.post(f"/tables/new/{game_id}", data={**good, **changes})
    assert r.status_code in (200, 303), text(r)


@pytest.mark.parametrize("game_id", GAMES)
def test_fuzz_the_hand_form(app, client, game_id):
    url = open_table(client, game_id)
    good = hand_post(app, game_id, url)
    names = sorted({n for n, _d in number_fields(game_id)} | {n for n, _d in _choices(game_id)} | set(good)
                   | {"token", "version", "action", "count_of", "c_kings", "card"})

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.dictionaries(st.sampled_from(names), ODD_TEXT, max_size=4), st.sampled_from(["/hands", "/preview"]))
    def posted(changes, where):
        r = client.post(url + where, data={**good, **changes})
        assert r.status_code in (200, 303), text(r)
    posted()


JSON_JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ODD_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD_TEXT, inner, max_size=4), max_leaves=10)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from([("hand", "points"), ("hand", "oudlers"), ("stake",), ("players",), ("rules",),
                             ("hand", "taker"), ("game",)]), junk=JSON_JUNK)
def test_fuzz_the_api(api_client, path, junk):
    body = json.loads(json.dumps(FT))
    target = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = junk
    r = api(api_client, "/api/v1/score", json.dumps(body))  # json.dumps writes NaN and Infinity, as some clients do
    assert r.status_code in (200, 400, 404), text(r)
