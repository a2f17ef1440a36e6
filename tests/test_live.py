"""Issue 5 through the test client and the store: share links and roles, the scoreboard poll (ETag/304),
several scorers at once, bad input refused. The store tests run on SQLite and PostgreSQL."""
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from scorekeeper import create_app, store
from scorekeeper.web import links as sharing
from tests.opening import TROCCAS, open_table



def hand(points, token):
    return {"partner": "Cla", "side": "first", "points": str(points), "token": token}


def share(client, url):
    """Return the (viewer, scorer) paths offered on the creator's share page."""
    page = client.get(url + "/share").get_data(as_text=True)
    by_kind = dict(re.findall(r'data-link="(\w+)">http://[^/<]+(/[^<]+)<', page))
    return by_kind["viewer"], by_kind.get("scorer")


@pytest.fixture
def ctx(app):
    """The app's context, for reading the store directly beside the client."""
    with app.app_context():
        yield


def hand_count(table_url_or_id):
    return len(store.list_hands(table_url_or_id.rsplit("/", 1)[-1]))


# ---- links and roles ----

def test_the_share_page_offers_a_viewer_and_a_scorer_link_with_qr_codes(client):
    url = open_table(client)
    page = client.get(url + "/share").get_data(as_text=True)
    assert page.count('src="data:image/svg+xml') == 2
    viewer, scorer = share(client, url)
    assert re.fullmatch(r"/v/[A-Za-z0-9_-]{20,}", viewer) and re.fullmatch(r"/t/[A-Za-z0-9_-]{20,}", scorer)
    assert "Make a new scorer link" in page  # the creator may rotate
    assert share(client, url) == (viewer, scorer)  # the same links every time until rotated


def test_pages_opened_by_a_share_link_never_show_the_creators_link(client):
    url = open_table(client)
    creator = url.rsplit("/", 1)[1]
    viewer, scorer = share(client, url)
    for path in (viewer, scorer, scorer + "/share", viewer.replace("/v/", "/t/") + "/share", scorer + "/board",
                 scorer + "/settle"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert creator not in r.get_data(as_text=True), path
    assert scorer in client.get(scorer).get_data(as_text=True)  # its forms post back to the scorer link


def test_the_viewer_sees_the_scoreboard_without_any_form(client):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "t1"))
    viewer, _scorer = share(client, url)
    page = client.get(viewer).get_data(as_text=True)
    assert "Hand 1" in page and 'id="totals"' in page and 'id="live"' in page
    assert "<form" not in page and "Edit" not in page
    r = client.get(viewer.replace("/v/", "/t/"))
    assert r.status_code == 303 and r.headers["Location"].endswith(viewer)
    share_page = client.get(viewer.replace("/v/", "/t/") + "/share").get_data(as_text=True)
    assert share_page.count("data-link=") == 1 and "Make a new scorer link" not in share_page


@pytest.mark.parametrize("method, suffix, data", [
    ("post", "/hands", hand(30, "v1")),
    ("post", "/hands/1", {**hand(30, "v2"), "version": "1"}),
    ("post", "/hands/1/delete", {}),
    ("post", "/undo", {}),
    ("post", "/share/scorer", {}),
    ("get", "/hands/1", None),
    ("post", "/preview", hand(30, "v3")),
])
def test_a_viewer_link_changes_nothing(ctx, client, method, suffix, data):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "t1"))
    viewer, _scorer = share(client, url)
    before = store.get_table(url.rsplit("/", 1)[1]).version
    r = getattr(client, method)(viewer.replace("/v/", "/t/") + suffix, data=data)
    assert r.status_code == 403
    assert "This is a viewer link" in r.get_data(as_text=True)
    assert store.get_table(url.rsplit("/", 1)[1]).version == before
    assert store.list_hands(url.rsplit("/", 1)[1])[0].facts["points"] == 40


def test_a_new_scorer_link_turns_the_old_one_off(ctx, client):
    url = open_table(client)
    viewer, old = share(client, url)
    assert client.post(old + "/hands", data=hand(40, "s1")).status_code == 303  # a scorer can enter hands
    assert client.post(old + "/share/scorer").status_code == 403  # but only the creator rotates
    r = client.post(url + "/share/scorer")
    assert r.status_code == 303
    assert "The old one no longer works" in client.get(r.headers["Location"]).get_data(as_text=True)
    new_viewer, new = share(client, url)
    assert new_viewer == viewer and new != old
    for method, suffix, data in [("get", "", None), ("post", "/hands", hand(30, "s2")), ("get", "/board", None)]:
        r = getattr(client, method)(old + suffix, data=data)
        assert r.status_code in (410, 286), suffix  # 286: htmx stops polling and shows the message
        assert "This scorer link was turned off" in r.get_data(as_text=True).replace("&#39;", "'")
    assert hand_count(url) == 1
    assert client.post(new + "/hands", data=hand(30, "s3")).status_code == 303
    assert hand_count(url) == 2


def test_a_hand_number_of_another_table_is_not_found_here(ctx, client):
    a, b = open_table(client), open_table(client)
    for points, token in ((40, "b1"), (41, "b2"), (42, "b3")):
        client.post(b + "/hands", data=hand(points, token))
    r = client.post(a + "/hands/3", data={**hand(50, "x"), "version": "1"})
    assert r.status_code == 404 and "Hand 3 isn't on this table" in r.get_data(as_text=True).replace("&#39;", "'")
    assert client.post(a + "/hands/3/delete").status_code == 404
    assert [h.facts["points"] for h in store.list_hands(b.rsplit("/", 1)[1])] == [40, 41, 42]


def test_a_missing_or_forged_csrf_token_is_refused_on_a_scorer_link(csrf_app):
    client = csrf_app.test_client()
    page = client.get("/tables/new/troccas").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    url = client.post("/tables/new/troccas", data={**TROCCAS, "csrf_token": token}).headers["Location"]
    _viewer, scorer = share(client, url)
    for extra in ({}, {"csrf_token": "forged"}, {"csrf_token": token[:-4] + "AAAA"}):
        r = client.post(scorer + "/hands", data={**hand(40, "c1"), **extra})
        assert r.status_code == 400
        assert "nothing was changed" in r.get_data(as_text=True)
    assert client.post(scorer + "/hands", data={**hand(40, "c1"), "csrf_token": token}).status_code == 303
    with csrf_app.app_context():
        assert hand_count(url) == 1  # only the post with the real token


def test_a_double_tap_on_delete_deletes_once_and_lands_on_the_table(ctx, client):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "t1"))
    client.post(url + "/hands", data=hand(41, "t2"))
    token = re.search(r'/hands/1/delete">.*?name="token" value="([^"]+)"', client.get(url).get_data(as_text=True),
                      re.S).group(1)
    for _ in range(2):
        r = client.post(url + "/hands/1/delete", data={"token": token})
        assert r.status_code == 303
    assert [h.facts["points"] for h in store.list_hands(url.rsplit("/", 1)[1])] == [41]


def test_saving_an_edit_of_a_hand_deleted_on_another_phone_says_so(ctx, client):
    url = open_table(client)
    client.post(url + "/hands", data=hand(40, "t1"))
    client.post(url + "/hands/1/delete", data={"token": "d1"})  # the other phone deletes it
    r = client.post(url + "/hands/1", data={**hand(45, "e1"), "version": "1"})
    assert r.status_code == 404
    assert "it may have been deleted on another phone" in r.get_data(as_text=True)
    assert store.list_hands(url.rsplit("/", 1)[1]) == []


# ---- the live scoreboard poll ----

def test_the_poll_answers_304_until_the_table_changes(client, app):
    url = open_table(client)
    viewer, scorer = share(client, url)
    poll = viewer.replace("/v/", "/t/") + "/board"
    first = client.get(poll)
    tag = first.headers["ETag"]
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-store"
    assert 'id="totals"' in first.get_data(as_text=True) and "<form" not in first.get_data(as_text=True)
    idle = client.get(poll, headers={"If-None-Match": tag})
    assert idle.status_code == 304 and idle.data == b""
    assert "Content-Security-Policy" not in idle.headers  # nothing to protect in an empty answer: fewer bytes
    compressed = client.get(poll, headers={"If-None-Match": tag.rstrip('"') + ':br"'})  # a br 200's ETag
    assert compressed.status_code == 304 and compressed.headers["ETag"] == tag
    other = app.test_client()  # another phone, another cookie jar
    assert other.post(scorer + "/hands", data=hand(45, "p1")).status_code == 303
    changed = client.get(poll, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    body = changed.get_data(as_text=True)
    assert "Hand 1" in body and changed.headers["ETag"].strip('"') in body  # the next poll asks for this version
    # the scorer's rendering has the edit buttons, so it is a different entity from the viewer's
    assert client.get(scorer + "/board").headers["ETag"] != changed.headers["ETag"]


def rows_of(html: str) -> list[str]:
    """Return the hand rows' ids in a board answer, in page order (newest first)."""
    return re.findall(r'<li id="(hand-\d+)" class="hand">', html)


def totals_of(html: str) -> str:
    return re.search(r'<section id="totals".*?</section>', html, re.S).group(0)


def test_a_poll_after_hands_were_only_added_sends_just_their_rows(client, app):
    url = open_table(client)
    viewer, scorer = share(client, url)
    poll = viewer.replace("/v/", "/t/") + "/board"
    scorer_phone = app.test_client()
    for i, points in enumerate((45, 30, 40)):
        assert scorer_phone.post(scorer + "/hands", data=hand(points, f"a{i}")).status_code == 303
    seen = client.get(poll)
    tag = seen.headers["ETag"]
    assert rows_of(seen.get_data(as_text=True)) == ["hand-3", "hand-2", "hand-1"]
    for i, points in enumerate((50, 36)):
        assert scorer_phone.post(scorer + "/hands", data=hand(points, f"b{i}")).status_code == 303
    changed = client.get(poll, headers={"If-None-Match": tag})
    body = changed.get_data(as_text=True)
    # the two new rows, newest first, put on top of the list; the totals and the new version
    assert rows_of(body) == ["hand-5", "hand-4"]
    assert 'hx-swap-oob="afterbegin:#hands .hand-list"' in body and 'id="hands"' not in body
    full = client.get(poll).get_data(as_text=True)
    assert totals_of(body) == totals_of(full)  # the same totals a fresh phone gets
    # the next poll asks from this answer's ETag (static/board.js keeps it): the poll element isn't resent
    assert changed.headers["ETag"] == client.get(poll).headers["ETag"] and 'id="live"' not in body
    assert client.get(poll, headers={"If-None-Match": changed.headers["ETag"]}).status_code == 304


def test_a_watcher_that_missed_an_edit_among_adds_gets_everything(client, app):
    """A phone that skipped versions (an add, an edit of an older hand, an add) must not patch: the running
    totals of every row after the edited one moved. It gets the whole board, equal to a fresh phone's."""
    url = open_table(client)
    viewer, scorer = share(client, url)
    poll = viewer.replace("/v/", "/t/") + "/board"
    other = app.test_client()
    assert other.post(scorer + "/hands", data=hand(45, "c1")).status_code == 303
    tag = client.get(poll).headers["ETag"]
    assert other.post(scorer + "/hands", data=hand(30, "c2")).status_code == 303
    r = other.post(scorer + "/hands/1", data={**hand(60, "c3"), "version": "1"})  # hand 1 as first saved
    assert r.status_code == 303, r.get_data(as_text=True)
    assert other.post(scorer + "/hands", data=hand(40, "c4")).status_code == 303
    caught_up = client.get(poll, headers={"If-None-Match": tag}).get_data(as_text=True)
    assert 'id="hands"' in caught_up and "afterbegin" not in caught_up
    fresh = client.get(poll).get_data(as_text=True)
    assert rows_of(caught_up) == rows_of(fresh) == ["hand-3", "hand-2", "hand-1"]
    assert totals_of(caught_up) == totals_of(fresh)


@pytest.mark.parametrize("change", ["undo", "delete"])
def test_a_watcher_that_missed_an_undo_or_a_delete_gets_everything(client, app, change):
    url = open_table(client)
    viewer, scorer = share(client, url)
    poll = viewer.replace("/v/", "/t/") + "/board"
    other = app.test_client()
    for i in range(3):
        assert other.post(scorer + "/hands", data=hand(40 + i, f"d{i}")).status_code == 303
    tag = client.get(poll).headers["ETag"]
    assert other.post(scorer + "/hands", data=hand(50, "d9")).status_code == 303
    if change == "undo":
        page = other.get(scorer).get_data(as_text=True)
        undo = dict(re.findall(r'name="(\w+)" value="([^"]*)"', re.search(r'action="[^"]*/undo".*?</form>', page, re.S).group(0)))
        assert other.post(scorer + "/undo", data=undo).status_code == 303
    else:
        assert other.post(scorer + "/hands/2/delete", data={"token": "del2", "version": "1"}).status_code == 303
    caught_up = client.get(poll, headers={"If-None-Match": tag}).get_data(as_text=True)
    fresh = client.get(poll).get_data(as_text=True)
    assert "afterbegin" not in caught_up and rows_of(caught_up) == rows_of(fresh)
    assert rows_of(fresh) == (["hand-3", "hand-2", "hand-1"] if change == "undo" else ["hand-4", "hand-3", "hand-1"])


def test_the_table_page_polls_only_the_scoreboard(client):
    page = client.get(open_table(client)).get_data(as_text=True)
    poller = re.search(r'<div id="live"[^>]*>', page).group(0)
    assert 'hx-trigger="every 2s"' in poller and 'hx-swap="none"' in poller
    assert 'hx-select-oob="#totals,#chart,#numbers-body,#seated,#hands,#live,#hand-title"' in poller  # never the hand form's fields


# ---- at home on the Wi-Fi ----

def test_the_home_page_shows_the_lan_address_only_when_serving_every_interface(tmp_path, monkeypatch):
    monkeypatch.setattr(sharing, "lan_address", lambda: "192.168.1.20")
    config = {"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite'}"}
    wide = create_app({**config, "SERVE_HOST": "0.0.0.0", "SERVE_PORT": "8000"}).test_client()
    page = wide.get("/").get_data(as_text=True)
    assert "http://192.168.1.20:8000/" in page and 'src="data:image/svg+xml' in page
    narrow = create_app({**config, "SERVE_HOST": "127.0.0.1"}).test_client()
    assert "Phones on this Wi-Fi" not in narrow.get("/").get_data(as_text=True)


def test_share_links_opened_on_localhost_use_the_lan_address(tmp_path, monkeypatch):
    monkeypatch.setattr(sharing, "lan_address", lambda: "192.168.1.20")
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'h.sqlite'}",
                      "WTF_CSRF_ENABLED": False, "SERVE_HOST": "0.0.0.0", "SERVE_PORT": "8000"})
    client = app.test_client()
    page = client.get(open_table(client) + "/share").get_data(as_text=True)
    assert re.search(r'>http://192\.168\.1\.20:8000/v/', page)


def test_the_lan_address_is_never_loopback():
    address = sharing.lan_address()
    assert address is None or not address.startswith("127.")


# ---- the store: versions and order, on SQLite and PostgreSQL ----

HAND = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 40}


def new_table():
    return store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)


def in_threads(app, n, work):
    def run(i):
        with app.app_context():
            try:
                return work(i)
            except store.Stale as e:
                return e
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(run, range(n)))


def test_the_version_compare_and_set_lets_one_of_two_edits_through(db_app):
    table = new_table()
    store.add_hand(table.id, HAND, "a")
    store.edit_hand(table.id, 1, {**HAND, "points": 41}, "b", version=1)
    with pytest.raises(store.Stale) as stale:
        store.edit_hand(table.id, 1, {**HAND, "points": 50}, "c", version=1)
    assert stale.value.hand.facts["points"] == 41 and stale.value.hand.version == 2  # the newer one, to show
    assert store.get_hand(table.id, 1).facts["points"] == 41  # nothing overwritten
    assert store.get_table(table.id).version == 2  # the refused edit moved nothing


def test_edits_of_one_hand_at_the_same_moment_land_once(db_app):
    table = new_table()
    store.add_hand(table.id, HAND, "a")
    results = in_threads(db_app, 6, lambda i: store.edit_hand(table.id, 1, {**HAND, "points": 50 + i}, f"e{i}", 1))
    saved = [r for r in results if isinstance(r, store.Hand)]
    assert len(saved) == 1 and sum(isinstance(r, store.Stale) for r in results) == 5
    assert store.get_hand(table.id, 1).facts == saved[0].facts and store.get_hand(table.id, 1).version == 2


def test_hands_saved_at_the_same_moment_all_land_in_one_order(db_app):
    table = new_table()
    results = in_threads(db_app, 8, lambda i: store.add_hand(table.id, {**HAND, "points": 30 + i}, f"h{i}"))
    assert sorted(h.number for h in results) == list(range(1, 9))
    assert sorted(h.facts["points"] for h in store.list_hands(table.id)) == list(range(30, 38))
    assert store.get_table(table.id).version == 8


def test_share_links_are_read_alike_by_phones_at_once_and_rotation_keeps_the_viewer(db_app):
    table = new_table()
    pairs = in_threads(db_app, 4, lambda i: store.share_links(table.id))
    assert all(p == pairs[0] for p in pairs)
    old = pairs[0]
    new_key = store.new_scorer_link(table.id)
    assert store.share_links(table.id) == {store.VIEWER: old[store.VIEWER], store.SCORER: new_key}
    assert store.find_link(old[store.SCORER]) == store.Access(table.id, store.SCORER, False)
    assert store.find_link(new_key) == store.Access(table.id, store.SCORER, True)
    assert store.find_link(table.id) == store.Access(table.id, store.CREATOR, True)
    assert store.find_link("nothing") is None


def test_a_viewers_page_makes_no_session_so_its_polls_carry_no_cookie(client, app):
    url = open_table(client)
    viewer, _scorer = share(client, url)
    phone = app.test_client()  # the watching phone, its own cookie jar
    r = phone.get(viewer)
    assert r.status_code == 200 and "Set-Cookie" not in r.headers
    assert 'name="csrf-token"' not in r.get_data(as_text=True)  # nothing on it changes the table
    poll = phone.get(viewer.replace("/v/", "/t/") + "/board")
    assert poll.status_code == 200 and "Set-Cookie" not in poll.headers


def test_nothing_a_watchers_phone_fetches_sets_a_cookie(client, app):
    """Issue 29, item 4: a watcher never posts, so nothing gives its phone a session: the watch page, what the
    service worker fetches at install (the app's files and the offline page), the manifest, the offline texts,
    the polls (changed and idle), the numbers, and the pages the watch page links to (settle up, older hands,
    share), so each poll sends no cookie. The creator's table page still makes one: its forms need it (CSRF)."""
    url = open_table(client)
    for k in range(25):  # more than a page of hands (evening.PAGE, 20): the watch page links to older ones
        client.post(url + "/hands", data=hand(30 + k, f"w{k}"))
    viewer, _scorer = share(client, url)
    phone = app.test_client(use_cookies=False)  # each answer on its own: a cookie set anywhere is seen
    poll = viewer.replace("/v/", "/t/") + "/board"
    page = phone.get(viewer)
    with app.test_request_context():
        from scorekeeper.web.assets import build
        worker = build()
    linked = re.findall(r'(?:href|src)="(/[^"]+)"', page.get_data(as_text=True))
    assert any("/settle" in u for u in linked) and any("/history" in u for u in linked)
    fetched = [page]
    for path in [*linked, *worker["assets"], worker["offline"], "/sw.js", "/manifest.webmanifest",
                 viewer.replace("/v/", "/t/") + "/numbers", viewer.replace("/v/", "/t/") + "/share"]:
        path = path.replace("&amp;", "&")
        if "lang=" in path or not path.startswith(("/t/", "/v/", "/static/", "/offline", "/sw.js", "/manifest")):
            continue  # choosing a language sets its own cookie (asked for); home and the rest are no watcher's
        fetched.append(phone.get(path))
        assert fetched[-1].status_code == 200, path
    changed = phone.get(poll)
    idle = phone.get(poll, headers={"If-None-Match": changed.headers["ETag"]})
    assert (changed.status_code, idle.status_code) == (200, 304)
    assert [r.request.path for r in [*fetched, changed, idle] if "Set-Cookie" in r.headers] == []
    # nor a Referer: a page that never posts sends none (its polls are lighter by the page's address)
    assert '<meta name="referrer" content="no-referrer">' in page.get_data(as_text=True)
    scorers = phone.get(url)
    assert "Set-Cookie" in scorers.headers  # the creator's page: its forms need the session
    assert 'name="referrer"' not in scorers.get_data(as_text=True)  # and its posts a Referer, over HTTPS


def test_an_idle_poll_reads_the_database_once(client, app):
    """Issue 29, item 4: the table read with the key (web/access.py) has the version a poll compares with, so an
    idle poll (304) runs one statement; a changed one reads what changed too."""
    from sqlalchemy import event
    url = open_table(client)
    viewer, _scorer = share(client, url)
    poll = viewer.replace("/v/", "/t/") + "/board"
    tag = client.get(poll).headers["ETag"]
    seen = []
    event.listen(app.extensions["store"], "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: seen.append(statement.split()[0]))
    assert client.get(poll, headers={"If-None-Match": tag}).status_code == 304
    assert seen == ["SELECT"]
    client.post(url + "/hands", data=hand(40, "t1"))
    assert client.get(poll, headers={"If-None-Match": tag}).status_code == 200  # the same tag, now a change


def test_a_watcher_gets_the_whole_list_when_the_added_hand_follows_a_change_of_the_table(client, app):
    """The page said "From hand 2: stake …" above the list; hand 2 carries the change itself: the pending line
    must go, so the whole list comes, not just the new row."""
    url = open_table(client)
    viewer, _scorer = share(client, url)
    poll = viewer.replace("/v/", "/t/") + "/board"
    assert client.post(url + "/hands", data=hand(40, "t1")).status_code == 303
    page = client.get(url + "/setup").get_data(as_text=True)
    data = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', page))
    assert client.post(url + "/setup", data={**data, "stake": "0.10"}).status_code == 303
    seen = client.get(poll)
    assert "From hand 2" in seen.get_data(as_text=True)
    assert client.post(url + "/hands", data=hand(50, "t2")).status_code == 303
    caught_up = client.get(poll, headers={"If-None-Match": seen.headers["ETag"]}).get_data(as_text=True)
    assert 'id="hands"' in caught_up and "afterbegin" not in caught_up and "From hand 2" not in caught_up
