"""Issue 10: a Save through htmx answers with the regions a saved hand changes, not the whole page."""
import re

from scorekeeper import store
from tests.opening import open_table

HTMX = {"HX-Request": "true", "HX-Target": "hand-form"}  # what htmx sends for the hand form's hx-post


def hand(points, token, **more):
    return {"partner": "Cla", "side": "first", "points": str(points), "token": token, **more}


def ids(html):
    return re.findall(r'\bid="([\w-]+)"', html)


def test_a_save_through_htmx_sends_the_changed_regions(client):
    url = open_table(client)
    first = client.post(url + "/hands", data=hand(40, "s1"), headers=HTMX)
    assert first.status_code == 200
    body = first.get_data(as_text=True)
    assert "<html" not in body and "<nav" not in body and "<form id=\"hand-form\"" not in body  # not the page
    for region in ("said", "totals", "hands", "undo-last", "hand-title"):
        assert region in ids(body), region
    assert "Hand 1 saved: Anna +4, Cla +4" in body  # Troccas 40 − 36 = +4 each (docs/rules.md §1)
    assert re.search(r'<h2 id="hand-title" hx-swap-oob="true">Hand 2 <small>Ben deals</small></h2>', body)  # next dealer
    # the form is not resent: the phone resets its own (static/hand_form.js) to the next hand's values, given in a header;
    # the main swap is none, so nothing else replaces the form
    assert first.headers["HX-Reswap"] == "none"
    import json
    nxt = json.loads(first.headers["X-Next-Hand"])
    # the next hand's values: the partner and side follow the last hand (sticky), the points start empty (a second
    # tap on Save would otherwise record it again under the new token)
    assert nxt["values"]["points"] == "" and nxt["values"]["side"] == "first"
    # no token: the phone makes the next hand's when it is sent, as for the answer's Undo and Delete forms (static/page.js)
    assert "token" not in nxt and nxt["setup"]
    assert re.findall(r'name="token" value="([^"]*)"', body) == ["", ""]  # the new row's Delete, the Undo
    shown = first.headers["ETag"]  # the page now shows this version (static/board.js sends it back as X-Board)
    second = client.post(url + "/hands", data=hand(30, "s2"), headers={**HTMX, "X-Board": shown}).get_data(as_text=True)
    assert 'hx-swap-oob="afterbegin:#hands .hand-list"' in second and 'id="hands"' not in second
    assert re.findall(r'<li id="(hand-\d+)" class="hand">', second) == ["hand-2"]  # only the new row
    assert 'id="live"' not in second  # the poll element stays; its next question starts from this answer's ETag
    page = client.get(url).get_data(as_text=True)
    assert re.findall(r'<li id="(hand-\d+)" class="hand">', page) == ["hand-2", "hand-1"]


def test_a_save_through_htmx_twice_with_one_token_records_one_hand(client):
    url = open_table(client)
    for _ in range(2):
        assert client.post(url + "/hands", data=hand(40, "twice"), headers=HTMX).status_code == 200
    assert len(re.findall(r'<li id="hand-\d+"', client.get(url).get_data(as_text=True))) == 1


def test_the_form_is_resent_only_when_the_hand_used_the_counting_aid(client):
    url = open_table(client)
    plain = client.post(url + "/hands", data=hand(40, "p1"), headers=HTMX).get_data(as_text=True)
    assert 'name="card"' not in plain and '<form id="hand-form"' not in plain  # typed points: the phone resets its own
    # counted by class with the points left empty: Save counts them, and the answer brings a fresh form, its aid empty
    # (Troccas, the first team's pile: 4 kings and 2 queens and 30 other cards; the count fills the points)
    r = client.post(url + "/hands", headers=HTMX, data={
        "partner": "Cla", "side": "first", "points": "", "token": "p2", "count_of": "first",
        "c_kings": "4", "c_queens": "2", "c_others": "30"})
    counted = r.get_data(as_text=True)
    assert "Hand 2 saved" in counted, counted[:2000]
    assert counted.lstrip().startswith('<form id="hand-form"') and 'name="card"' in counted
    assert "HX-Reswap" not in r.headers and "X-Next-Hand" not in r.headers
    assert not re.search(r'name="c_kings" value="4" checked', counted)  # the new aid starts empty


def test_a_refused_save_through_htmx_answers_the_form_with_the_message_and_keeps_the_input(client):
    url = open_table(client)
    r = client.post(url + "/hands", data=hand(73, "bad"), headers=HTMX)  # more than Troccas's 72 points
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and body.lstrip().startswith('<form id="hand-form"')
    assert 'value="73"' in body and "72" in body and "Not saved yet" in body and "Hand 1 saved" not in body
    assert "said" not in ids(body)  # nothing else on the page moves
    assert '<li id="hand-' not in client.get(url).get_data(as_text=True)


def test_without_htmx_a_save_still_lands_on_the_page(client):
    url = open_table(client)
    r = client.post(url + "/hands", data=hand(40, "nojs"))
    assert r.status_code == 303 and r.headers["Location"].endswith(url)


def test_a_hands_working_comes_when_its_how_is_opened(client):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "h1"))
    page = client.get(url).get_data(as_text=True)
    row = re.search(r'<li id="hand-1" class="hand">.*?</li>\s*</ol>', page, re.S).group(0)
    assert "36" not in row.split("working")[1]  # the page doesn't carry the working...
    how = re.search(r'hx-get="([^"]+/hands/1/how)"', row).group(1)
    working = client.get(how).get_data(as_text=True)  # ...it comes when How is opened
    # Troccas: Anna and Cla 40 points, Ben and Zoë the other 32 of 72; 40 − 36 = +4 each (docs/rules.md §1)
    assert "Anna and Cla took 40 points; Ben and Zoë the other 32 of 72." in working
    assert "Anna and Cla: 40 − 36 = +4 each; Ben and Zoë: −4 each." in working
    assert working.lstrip().startswith("<ul>") and "<html" not in working
    assert client.get(how.replace("/hands/1/", "/hands/9/")).status_code == 404


def test_a_viewer_may_open_how_but_change_nothing(client):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "h2"))
    share = client.get(url + "/share").get_data(as_text=True)
    viewer = re.search(r'data-link="viewer">http://[^/<]+(/[^<]+)<', share).group(1)
    key = viewer.rsplit("/", 1)[1]
    r = client.get(f"/t/{key}/hands/1/how")
    assert r.status_code == 200 and "40 − 36" in r.get_data(as_text=True)


def test_the_evening_in_numbers_is_sent_only_to_a_phone_that_has_it_open(client):
    url = open_table(client)
    closed = client.post(url + "/hands", data=hand(40, "n1"), headers=HTMX).get_data(as_text=True)
    assert 'id="numbers-body"' not in closed  # closed on the phone: no update sent
    opened = client.post(url + "/hands", data=hand(30, "n2"), headers={**HTMX, "X-Numbers": "open"})
    assert 'id="numbers-body"' in opened.get_data(as_text=True)
    # opening it fetches them as they are now: 2 hands each (Troccas, Anna +4 then −6, docs/rules.md §1)
    body = client.get(url + "/numbers").get_data(as_text=True)
    assert body.lstrip().startswith('<div id="numbers-body">')
    assert re.search(r'<th scope="row">Anna</th><td class="n" data-label="Hands">2</td>', body)
    assert re.search(r'<td class="n" data-label="Best">\+4</td><td class="n" data-label="Worst">−6</td>', body)


def board_tag(client, url) -> str:
    """The version the page shows, as its poll and its Save say it (static/board.js sends X-Board)."""
    return client.get(url.replace("/t/", "/t/", 1) + "/board").headers["ETag"]


def test_a_save_brings_what_another_phone_added_meanwhile(client, app):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "m1"), headers=HTMX)
    shown = board_tag(client, url)  # this phone shows hand 1
    other = app.test_client()
    assert other.post(url + "/hands", data=hand(30, "m2")).status_code == 303  # hand 2, on another phone
    body = client.post(url + "/hands", data=hand(50, "m3"), headers={**HTMX, "X-Board": shown}).get_data(as_text=True)
    # hands 2 and 3, newest first, on top of the list: the answer's version covers both
    assert re.findall(r'<li id="(hand-\d+)" class="hand">', body) == ["hand-3", "hand-2"]
    assert "Hand 3 saved" in body  # this phone's own hand is the one said


def test_a_save_after_an_edit_elsewhere_brings_the_whole_list(client, app):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "e1"), headers=HTMX)
    shown = board_tag(client, url)
    other = app.test_client()
    assert other.post(url + "/hands/1", data={**hand(60, "e2"), "version": "1"}).status_code == 303
    body = client.post(url + "/hands", data=hand(50, "e3"), headers={**HTMX, "X-Board": shown}).get_data(as_text=True)
    assert 'id="hands"' in body and 'id="seated"' in body and "afterbegin" not in body
    assert re.findall(r'<li id="(hand-\d+)" class="hand">', body) == ["hand-2", "hand-1"]
    assert "Anna &amp; Cla: 60" in body  # the edited hand as it is now


def test_a_save_without_the_pages_version_brings_the_whole_list(client):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "w1"), headers=HTMX)
    body = client.post(url + "/hands", data=hand(50, "w2"), headers=HTMX).get_data(as_text=True)
    assert 'id="hands"' in body and "afterbegin" not in body  # it can't tell what the page lacks: all of it


def test_a_change_of_the_table_pending_is_not_patched_over(client):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "c1"), headers=HTMX)
    page = client.get(url + "/setup").get_data(as_text=True)
    data = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page))
    data.update({"stake": "0.10"})
    r = client.post(url + "/setup", data=data)
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    shown = board_tag(client, url)
    assert "From hand 2" in client.get(url).get_data(as_text=True)
    body = client.post(url + "/hands", data=hand(50, "c2"), headers={**HTMX, "X-Board": shown}).get_data(as_text=True)
    assert 'id="hands"' in body and "From hand 2" not in body  # the pending line goes; the row says the change
    assert "From this hand" in body


def test_the_answer_to_a_save_undone_meanwhile_is_no_500(app):
    from scorekeeper.web.table import tables
    from scorekeeper.engine.games import get_game
    client = app.test_client()
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "u1"))
    with app.test_request_context(url + "/hands", method="POST", headers=HTMX):
        gone = store.Added(store.Hand(7, 7, {}, 1, None, None))  # hand 7 isn't there (undone): a repeated form
        r = tables.saved(url.rsplit("/", 1)[1], get_game("troccas"), gone, False)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and "saved:" not in body and 'id="hands"' in body


def test_a_half_point_hand_reads_as_the_language_writes_it(client):
    data = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "first_dealer": "0", "stake": "0.10",
            "currency": "EUR"}
    r = client.post("/tables/new/french_tarot?lang=fr", data=data)
    url = r.headers["Location"]
    # 3 players: 40.5 points with 2 bouts against 41 (docs/rules.md §5: halves are exact)
    r = client.post(url + "/hands", data={"taker": "Anna", "contract": "garde", "side": "attack", "points": "40,5",
                                          "oudlers": "2", "token": "half"})
    assert r.status_code == 303, r.get_data(as_text=True)[:500]
    row = re.search(r'<li id="hand-1".*?</li>\s*</ol>', client.get(url).get_data(as_text=True), re.S).group(0)
    assert "40,5" in row and "40.5" not in row


def test_a_save_answered_after_another_phone_saved_and_was_shown_is_one_state_of_the_table(client, app):
    """Two phones save at once: ours is written (version 2), then the other's (version 3), whose page this
    server builds and keeps before our answer is made. Our answer must be the table at one version: the one
    kept (3, both new hands), not a board of version 3 labelled 2, whose next poll would add hand 3 again."""
    from scorekeeper.engine.games import get_game
    from scorekeeper.web.table import tables
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "r1"), headers=HTMX)  # hand 1: version 1, its board kept
    shown = board_tag(client, url)
    table_id = url.rsplit("/", 1)[1]
    facts = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 50}  # as the form gives them
    with app.app_context():
        ours = store.save_hand(table_id, facts, "r2")  # hand 2, version 2
    assert ours.table.version == 2
    other = app.test_client()
    assert other.post(url + "/hands", data=hand(30, "r3")).status_code == 303  # hand 3, version 3
    assert other.get(url).status_code == 200  # its page: the board at version 3 is kept
    with app.test_request_context(url + "/hands", method="POST", headers={**HTMX, "X-Board": shown}):
        r = tables.saved(table_id, get_game("troccas"), ours, False)
    body = r.get_data(as_text=True)
    assert r.headers["ETag"].strip('"').startswith("v3.")
    assert re.findall(r'<li id="(hand-\d+)" class="hand">', body) == ["hand-3", "hand-2"]  # both, each once
    assert "Hand 2 saved" in body  # this phone's own hand is the one said


def test_a_worker_whose_board_is_behind_catches_up_from_its_own_write(tmp_path, monkeypatch):
    """Two workers (two apps on one database, as gunicorn's) take turns saving on one table, so each one's kept
    board misses the other's last hand. Its Save's write brings that hand along (store.save_hand's `since`):
    no read of its own (store.added_since is not called once both boards are kept), and the totals are the
    whole evening's."""
    from scorekeeper import create_app
    db = f"sqlite:///{tmp_path / 'two.sqlite'}"
    workers = [create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "s", "DATABASE_URL": db}).test_client()
               for _ in range(2)]
    url = open_table(workers[0])
    reads = []
    real = store.added_since
    monkeypatch.setattr(store, "added_since", lambda *a, **k: reads.append(a) or real(*a, **k))
    points = [40, 30, 50, 20, 45, 36]
    for i, p in enumerate(points):
        r = workers[i % 2].post(url + "/hands", data=hand(p, f"w{i}"), headers=HTMX)
        assert r.status_code == 200 and f"Hand {i + 1} saved" in r.get_data(as_text=True)
        if i == 1:
            reads.clear()  # from here on, each worker keeps a board one hand behind the table
    assert reads == []
    totals = re.search(r'<section id="totals".*?</section>', r.get_data(as_text=True), re.S).group(0)
    # Troccas: the partners Anna and Cla score points − 36 each, Ben and Zoë the opposite (docs/rules.md §1):
    # 4 − 6 + 14 − 16 + 9 + 0 = +5
    for name, units in (("Anna", "+5"), ("Ben", "−5"), ("Cla", "+5"), ("Zoë", "−5")):
        assert re.search(rf'<th scope="row">{name}\b(?:(?!</tr>).)*<td class="n">{re.escape(units)}</td>', totals, re.S), name
