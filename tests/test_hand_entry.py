"""Entering a hand without surprises (issue 13), through the Flask test client."""
from markupsafe import escape
import re

import pytest
from tests.opening import open_table

FIVE = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Dumeng", "players-4": "Eva",
        "first_dealer": "0", "stake": "0.01", "currency": "CHF", "rule_poignee_bonus": "20, 30, 40",
        "rule_poignee_thresholds_5p": "8, 10, 13", "rule_garde_contre_multiplier": "6",
        "rule_excuse_last_trick": "trick_winner", "rule_defence_chelem_bonus": "200",
        "rule_prise_allowed": "y", "rule_half_points": "fft"}
SEVEN = {**{f"players-{i}": n for i, n in enumerate(["Anna", "Ben", "Cla", "Dumeng", "Eva", "Fritz", "Gret"])},
         "first_dealer": "0", "stake": "0.10", "currency": "CHF", "rule_min_players": "3",
         "rule_match_with_tapp_points": "y", "rule_misere_tie": "each_top_pays", "rule_tapp_4p": "10"}


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


TROCCAS = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
           "first_dealer": "1", "stake": "0.05", "currency": "CHF", "rule_all_tricks_take_scart": "y"}


def dealers(page: str) -> list[str]:
    """Return who dealt each hand, oldest first, as the history shows them."""
    return re.findall(r'<span class="muted">(\w+) dealt</span>', page)[::-1]


def test_deleting_a_hand_never_changes_who_dealt_another(client):
    url = open_table(client, "troccas", TROCCAS)  # Ben deals first; the deal passes down the list
    for i in range(5):
        client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": str(30 + i),
                                          "token": f"h{i}", "action": "save"})
    page = client.get(url).get_data(as_text=True)
    assert dealers(page) == ["Ben", "Cla", "Zoë", "Anna", "Ben"]
    client.post(url + "/hands/2/delete", data={"token": "d2"})
    page = client.get(url).get_data(as_text=True)
    assert dealers(page) == ["Ben", "Zoë", "Anna", "Ben"]  # hand 2 (Cla's deal) gone, the others kept
    assert "Cla deals" in page  # the next deal follows the last hand played: after Ben, Cla
    client.post(url + "/hands/1", data={"partner": "Zoë", "side": "first", "points": "44", "token": "e1"})
    assert dealers(client.get(url).get_data(as_text=True)) == ["Ben", "Zoë", "Anna", "Ben"]  # an edit neither


def test_a_database_from_before_keeps_its_dealers_on_upgrade(tmp_path):
    """A table saved before dealers were stored shows the same dealers after the 0003 migration."""
    from alembic import command
    from alembic.config import Config

    from scorekeeper import create_app
    from scorekeeper.store.db import MIGRATIONS, make_engine
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    engine = make_engine(url)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
        conn.exec_driver_sql("INSERT INTO tables VALUES ('old-table', 'troccas', '[\"Anna\", \"Ben\", \"Cla\", \"Zoë\"]',"
                             " '{}', 5, 'CHF', 2, 3, '2026-11-01 20:00:00')")
        facts = '{"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 40}'
        for number, live in ((1, True), (2, False), (3, True)):  # hand 2 was deleted before the upgrade
            conn.exec_driver_sql(f"INSERT INTO hands (table_id, number, facts, version, created_at, updated_at) "
                                 f"VALUES ('old-table', {number}, {repr(facts) if live else 'NULL'}, 1, "
                                 f"'2026-11-01 20:00:00', '2026-11-01 20:00:00')")
    engine.dispose()
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": url})  # migrates to head
    page = app.test_client().get("/t/old-table").get_data(as_text=True)
    # first dealer seat 2 (Cla): the live hands were dealt by Cla, then Zoë, as the board showed them
    assert dealers(page) == ["Cla", "Zoë"] and "Anna deals" in page


def test_running_totals_and_the_chart_tell_the_evening(client):
    url = open_table(client, "troccas", TROCCAS)
    for i, points in enumerate((40, 30, 50)):  # Anna & Cla: +4, −6, +14 (points − 36, docs/rules.md §1)
        client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": str(points),
                                          "token": f"r{i}", "action": "save"})
    page = client.get(url).get_data(as_text=True)
    after = re.findall(r'<p class="after">(.*?)</p>', page, re.S)[::-1]  # oldest first
    # running totals: +4, then 4 − 6 = −2, then −2 + 14 = +12; money at 5 Rappen a point
    assert ">Anna +4 · +0.20<" in after[0] and ">Anna −2 · −0.10<" in after[1] and ">Anna +12 · +0.60<" in after[2]
    assert ">Ben −12 · −0.60<" in after[2]
    chart = re.search(r'<section id="chart".*?</section>', page, re.S).group(0)
    assert chart.count("<path class=") == 4 and "<script" not in chart  # one line per player
    assert "After 3 hands: Anna +12, Ben −12, Cla +12, Zoë −12." in chart  # the story in words
    assert "#chart" in re.search(r'hx-select-oob="([^"]+)"', page).group(1)  # watchers get it too


def test_counting_group_by_group_in_the_table(client):
    """Tap a group, add it, tap the next: the groups make the pile that Save counts (docs/rules.md §1)."""
    url = open_table(client, "troccas", TROCCAS)
    base = {"partner": "Cla", "count_of": "first"}
    page = client.post(url + "/hands", data={**base, "card": ["SW-K", "BA-K", "T5", "T6"], "action": "group"},
                       headers={"HX-Request": "true", "HX-Target": "hand-form"}).get_data(as_text=True)
    # one group of four: 5 + 5 + 1 + 1 = 12 − 3 = 9
    assert 'name="group" value="SW-K BA-K T5 T6"' in page and "<strong>9</strong>" in page
    assert not re.search(r'name="card" value="SW-K"[^>]*checked', page)  # the group's cards are taken out
    too_many = client.post(url + "/hands", data={**base, "group": "SW-K BA-K T5 T6",
                                                 "card": ["T7", "T8", "T9", "T10", "T11"], "action": "group"})
    assert "A group has at most 4 cards; you ticked 5." in too_many.get_data(as_text=True)
    # Save: the group and the last tapped cards are one pile of 8: 2 groups of 4, 16 − 6 = 10
    r = client.post(url + "/hands", data={**base, "group": "SW-K BA-K T5 T6", "card": ["T7", "T8", "T9", "T10"],
                                          "token": "g1", "action": "save"})
    assert r.status_code == 303
    assert "10 points" in client.get(url).get_data(as_text=True)


def test_the_chart_path_goes_through_every_running_total():
    from scorekeeper.web.chart import path
    # absolute points (6,80) (12,77) (18,79): the path starts at the first and steps +6,−3 then +6,+2
    assert path([6, 12, 18], [80, 77, 79]) == "M6,80l6,-3 6,2"


def test_a_count_made_again_replaces_the_points_the_last_count_filled(client):
    """Without scripts too: points that a count put in the form (posted back as `counted`) are the old pile's, so
    Save counts the pile as tapped now; points the player typed over them win (count_aid.before_save)."""
    url = open_table(client, "troccas", TROCCAS)
    # a partner not at the table: refused, but Save counted the pile into the points on the way. SW-K BA-K T5: 3 odd cards,
    # 11 − 2 = 9 (docs/rules.md §1; python -m scorekeeper count troccas SW-K BA-K T5)
    page = client.post(url + "/hands", data={"partner": "Nobody", "count_of": "first", "card": ["SW-K", "BA-K", "T5"], "token": "c1",
                                             "action": "save"}).get_data(as_text=True)
    counted = re.search(r'name="counted" value="([^"]+)"', page).group(1)
    assert counted == "points:9:cards:first" and re.search(r'name="points"[^>]*value="9"', page)
    # a king more, the counted 9 posted back as it was: counted again, SW-K BA-K CU-K T5 one group of 4, 16 − 3 = 13
    r = client.post(url + "/hands", data={"partner": "Cla", "count_of": "first", "points": "9", "counted": counted,
                                          "card": ["SW-K", "BA-K", "CU-K", "T5"], "token": "c1", "action": "save"})
    assert r.status_code == 303
    assert "13 points" in client.get(url).get_data(as_text=True)


def test_points_typed_over_a_count_win(client):
    url = open_table(client, "troccas", TROCCAS)
    r = client.post(url + "/hands", data={"partner": "Cla", "count_of": "first", "points": "40", "counted": "points:9:cards:first",
                                          "card": ["SW-K", "BA-K", "CU-K", "T5"], "token": "c2", "action": "save"})
    assert r.status_code == 303
    assert "40 points" in client.get(url).get_data(as_text=True)  # typed, not the 13 the cards count


def test_cards_tapped_after_a_count_by_classes_leave_that_count_alone(client):
    # counted by class (points:13:classes:first), then a card tapped: the pile would be both, which is never counted;
    # the points the class count filled stand, as typed points do
    url = open_table(client, "troccas", TROCCAS)
    r = client.post(url + "/hands", data={"partner": "Cla", "count_of": "first", "points": "13",
                                          "counted": "points:13:classes:first", "c_kings": "3", "c_others": "1",
                                          "card": ["T5"], "token": "c3", "action": "save"})
    assert r.status_code == 303
    assert "13 points" in client.get(url).get_data(as_text=True)


def test_a_save_that_records_nothing_says_why_in_a_header(client):
    """X-Refused: the reason in one sentence, for the phone's queue (static/outbox.js), percent-encoded UTF-8."""
    from urllib.parse import unquote
    url = open_table(client, "troccas", TROCCAS)
    bad = client.post(url + "/hands", data={"partner": "Cla", "points": "99", "token": "r1", "action": "save"})
    assert bad.status_code == 200 and unquote(bad.headers["X-Refused"]).startswith("Not saved yet: look at")
    counting = client.post(url + "/hands", data={"count_of": "first", "card": ["T5"], "action": "count"})
    assert "X-Refused" not in counting.headers  # a count asked for records nothing, and refuses nothing
    assert client.post(url + "/hands", data={"partner": "Cla", "points": "40", "token": "r2"}).status_code == 303
    stale = client.post(url + "/hands/1?lang=de", data={"partner": "Cla", "points": "45", "version": "0",
                                                        "token": "r3", "action": "save"})
    assert stale.status_code == 200
    assert unquote(stale.headers["X-Refused"]).startswith("Diese Runde wurde inzwischen geändert")


def test_a_post_refused_with_an_error_page_says_why_in_the_header_too(client, csrf_app):
    """Every refused post names its reason in X-Refused (web/site.py error_page): the queue never reads a page."""
    from urllib.parse import unquote
    url = open_table(client, "troccas", TROCCAS)
    gone = client.post(url + "/hands/7", data={"partner": "Cla", "points": "40", "version": "1", "token": "g1"})
    page = gone.get_data(as_text=True).replace("&#39;", "'")
    said = unquote(gone.headers["X-Refused"])
    assert gone.status_code == 404 and said.startswith("Hand 7 isn't on this table") and said in page
    nowhere = client.post("/t/no-such-table/hands", data={"points": "40"})
    assert nowhere.status_code == 404 and unquote(nowhere.headers["X-Refused"]).startswith("There is nothing at this")
    expired = csrf_app.test_client().post(url + "/hands", data={"partner": "Cla", "points": "40", "token": "g2"})
    assert expired.status_code == 400 and "expired" in unquote(expired.headers["X-Refused"])
    assert "X-Refused" not in client.get(url + "/hands/7").headers  # a page asked for: nothing was refused


def test_the_live_preview_says_why_a_typed_hand_is_impossible(client):
    """Issue 41 item 11: the preview says why, at once, instead of going blank; a hand still being entered (its
    fields empty) gets no message."""
    from tests.test_words import FRENCH_TAROT
    url = client.post("/tables/new/french_tarot", data=FRENCH_TAROT).headers["Location"]
    hand = {"taker": "Anna", "contract": "garde", "side": "attack"}
    # docs/rules.md §6: the deck is 91 points, so 95 can't be a side's
    page = client.post(url + "/preview", data={**hand, "points": "95", "oudlers": "1"}).get_data(as_text=True)
    assert '<p class="engine-error">Points: The points must be between 0 and 91' in page
    page = client.post(url + "/preview", data={**hand, "points": "", "oudlers": ""}).get_data(as_text=True)
    assert "engine-error" not in page and "sentence" not in page  # not yet entered: nothing to say
    page = client.post(url + "/preview", data={**hand, "points": "95", "oudlers": "1"},
                       query_string={"lang": "fr"}).get_data(as_text=True)
    assert "Points\u202f: " in page  # the label's colon as French sets it
