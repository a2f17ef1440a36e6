"""Ready for a real server, through the test client: the security headers, capability pages kept out of
caches, proxy headers trusted only when configured, CSRF over HTTPS, and CSV exports safe to open."""
import csv
import io
import json
import re

import pytest

from scorekeeper import create_app
from tests.opening import TROCCAS, open_table

FRIENDLY_CSRF = "This form has expired or didn't come from this app."
HTTPS = "https://localhost"


def csrf_token(client, path="/tables/new/troccas", **kw):
    page = client.get(path, **kw).get_data(as_text=True)
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)


def cookie_header(response, name):
    """Return the Set-Cookie header that sets `name`, or None."""
    found = [c for c in response.headers.getlist("Set-Cookie") if c.startswith(name + "=")]
    return found[0] if found else None


def is_secure_cookie(header):
    return "; Secure" in header


def share_links(client, url, **kw):
    """Return the full links the share page offers (their scheme and host show what the app believes)."""
    page = client.get(url + "/share", **kw).get_data(as_text=True)
    return re.findall(r'data-link="\w+">([^<]+)<', page)


# ---- headers ----

def test_every_page_sends_same_origin_referrers_and_html_refuses_frames(client):
    url = open_table(client)
    for path in ("/", "/rules", url, url + "/share", "/t/not-a-real-table"):
        r = client.get(path)
        assert r.headers["Referrer-Policy"] == "same-origin", path
        assert r.mimetype == "text/html" and r.headers["X-Frame-Options"] == "DENY", path
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"], path


def test_capability_pages_are_never_stored(client):
    url = open_table(client)
    assert client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40",
                                             "token": "t1"}).status_code == 303
    viewer = re.search(r'data-link="viewer">https?://[^/<]+(/v/[^<]+)<', client.get(url + "/share").get_data(as_text=True)).group(1)
    for path in (url, url + "/share", url + "/settle", url + "/hands/1", url + "/board", url + "/export.csv",
                 url + "/export.json", viewer, "/t/not-a-real-table", "/c/not-a-real-circle"):
        r = client.get(path)
        assert r.status_code in (200, 404), path
        assert r.headers["Cache-Control"] == "no-store", path


def test_the_board_poll_keeps_its_etag_and_304_with_no_store(client):
    url = open_table(client)
    first = client.get(url + "/board")
    again = client.get(url + "/board", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == "no-store"
    assert again.headers["ETag"] == first.headers["ETag"]


def test_an_unchanged_table_page_asked_with_its_tag_is_a_304_and_any_change_makes_a_new_one(app, client):
    """The table page's tag (web/live.py page_tag) names what it shows this phone: the service worker asks
    with it (static/sw.js) and an unchanged table costs a 304, never stored (no-store stays)."""
    url = open_table(client)
    first = client.get(url)
    tag = first.headers["ETag"]
    again = client.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["Cache-Control"] == "no-store"
    assert client.get(url, headers={"If-None-Match": '"something-else"'}).status_code == 200

    # a hand saved: the table's version moved on, so the kept page is stale; the page saying "Hand 1
    # saved" (a message said once) carries no tag; the one after it a new tag
    assert client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40",
                                             "token": "t1"}).status_code == 303
    said = client.get(url, headers={"If-None-Match": tag})
    assert said.status_code == 200 and "Hand 1 saved" in said.get_data(as_text=True) and "ETag" not in said.headers
    now = client.get(url, headers={"If-None-Match": tag})
    assert now.status_code == 200 and now.headers["ETag"] not in (tag, None)
    assert client.get(url, headers={"If-None-Match": now.headers["ETag"]}).status_code == 304

    # another language, another session (another CSRF token in the page): not the page this phone kept
    assert client.get(url + "?lang=fr", headers={"If-None-Match": now.headers["ETag"]}).status_code == 200
    other = app.test_client()
    assert other.get(url, headers={"If-None-Match": now.headers["ETag"]}).status_code == 200


def test_a_saves_answer_names_the_tag_of_the_page_it_leaves_the_phone_showing(client):
    """Issue 40 item 1: the phone keeps its copy of the table page itself, from what a Save's answer brought
    (static/kept_pages.js); the answer's X-Page-Tag is the tag the page has now, so the copy asked with it is a 304."""
    url = open_table(client)
    client.get(url)  # the page open on the phone (its session's CSRF token made)
    r = client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": "h1"},
                    headers={"HX-Request": "true", "HX-Target": "hand-form"})
    tag = r.headers["X-Page-Tag"]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    r = client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "41", "token": "h2"},
                    headers={"HX-Request": "true", "HX-Target": "hand-form"})
    assert r.headers["X-Page-Tag"] != tag  # the next hand: another page
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 200


def test_a_save_through_htmx_is_answered_without_caching_headers_and_pages_keep_theirs(client):
    """A Save's answer is swapped into the page: a POST's, never stored by any cache, so no Vary or
    Cache-Control (about 60 bytes of every Save); the pages and a form posted without htmx keep no-store."""
    url = open_table(client)
    r = client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": "h1"},
                    headers={"HX-Request": "true", "HX-Target": "hand-form"})
    assert r.status_code == 200 and "Vary" not in r.headers and "Cache-Control" not in r.headers
    plain = client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": "h2"})
    assert plain.status_code == 303 and plain.headers["Cache-Control"] == "no-store"
    page = client.get(url)
    assert page.headers["Cache-Control"] == "no-store" and "Cookie" in page.headers["Vary"]


def test_a_viewers_unchanged_page_is_a_304_too(client):
    url = open_table(client)
    viewer = re.search(r'data-link="viewer">https?://[^/<]+(/v/[^<]+)<', client.get(url + "/share").get_data(as_text=True)).group(1)
    watcher = client.application.test_client()
    tag = watcher.get(viewer).headers["ETag"]
    assert watcher.get(viewer, headers={"If-None-Match": tag}).status_code == 304
    client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": "t1"})
    assert watcher.get(viewer, headers={"If-None-Match": tag}).status_code == 200


def test_public_pages_and_static_files_keep_their_caching(client):
    for path in ("/", "/rules", "/tables/new/troccas"):
        assert "no-store" not in client.get(path).headers.get("Cache-Control", ""), path
    css = re.search(r'href="(/static/app\.css\?v=\w+)"', client.get("/").get_data(as_text=True)).group(1)
    static = client.get(css)  # a content-hashed URL (web/pwa.py): kept a year
    assert static.status_code == 200
    assert "max-age=31536000" in static.headers["Cache-Control"] and "no-store" not in static.headers["Cache-Control"]
    static.close()


def test_pages_the_same_for_everyone_are_a_304_when_asked_again_unchanged(csrf_app):
    # The home, counting and rules pages post nothing that changes anything (app/base.html read_only): they make no
    # session, so each is tagged by its content (web/site.py tagged_by_content) and asked again with it, a 304.
    client = csrf_app.test_client()
    for path in ("/", "/count/troccas", "/count/troccas/classes", "/rules", "/rules/troggu", "/take"):
        first = client.get(path, headers={"Accept-Encoding": "br"})
        assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache", path
        assert "Set-Cookie" not in first.headers and "Cookie" not in first.headers.get("Vary", ""), path
        tag = first.headers["ETag"]  # compressed: Flask-Compress adds ":br", the same page either way
        again = client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.data == b"" and again.headers["ETag"].strip('"') in tag, path
        # another language is another page: the whole of it
        other = client.get(path, headers={"If-None-Match": tag, "Accept-Language": "de"})
        assert other.status_code == 200 and 'lang="de"' in other.get_data(as_text=True), path
    # a page that posts a change carries a token and makes a session: never tagged by content
    setup = client.get("/tables/new/troccas")
    assert "ETag" not in setup.headers and cookie_header(setup, "session")
    # asked with ?lang=, a 304 still sets the language
    tag = client.get("/?lang=it").headers["ETag"]
    again = client.get("/?lang=it", headers={"If-None-Match": tag})
    assert again.status_code == 304 and cookie_header(again, "lang").startswith("lang=it")


# ---- HTTPS, cookies and proxies ----

def test_plain_http_keeps_working_and_its_cookies_are_not_secure(csrf_app):
    client = csrf_app.test_client()
    token = csrf_token(client)
    r = client.post("/tables/new/troccas", data={**TROCCAS, "csrf_token": token})  # no Referer: fine over HTTP
    assert r.status_code == 303
    r = client.get("/?lang=de")
    assert not is_secure_cookie(cookie_header(r, "lang"))
    assert not is_secure_cookie(cookie_header(client.get("/tables/new/troccas"), "session") or "")
    first = csrf_app.test_client().get("/tables/new/troccas")
    assert not is_secure_cookie(cookie_header(first, "session"))


def test_over_https_the_session_and_lang_cookies_are_secure(csrf_app):
    client = csrf_app.test_client()
    r = client.get("/tables/new/troccas?lang=de", base_url=HTTPS)
    assert is_secure_cookie(cookie_header(r, "session"))
    assert is_secure_cookie(cookie_header(r, "lang"))
    assert "HttpOnly" in cookie_header(r, "session") and "SameSite=Lax" in cookie_header(r, "session")


def test_an_https_post_with_a_same_origin_referer_passes_csrf(csrf_app):
    client = csrf_app.test_client()
    token = csrf_token(client, base_url=HTTPS)
    r = client.post("/tables/new/troccas", data={**TROCCAS, "csrf_token": token}, base_url=HTTPS,
                    headers={"Referer": HTTPS + "/tables/new/troccas"})
    assert r.status_code == 303


@pytest.mark.parametrize("referer", ["https://evil.example/tables/new/troccas", "http://localhost/tables/new/troccas",
                                     None])
def test_an_https_post_with_a_foreign_or_missing_referer_is_refused_kindly(csrf_app, referer):
    client = csrf_app.test_client()
    token = csrf_token(client, base_url=HTTPS)
    r = client.post("/tables/new/troccas", data={**TROCCAS, "csrf_token": token}, base_url=HTTPS,
                    headers={"Referer": referer} if referer else {})
    assert r.status_code == 400
    assert FRIENDLY_CSRF in r.get_data(as_text=True).replace("&#39;", "'")


def test_forwarded_headers_are_ignored_without_proxy_fix(app, client):
    assert app.config["PROXY_FIX"] == 0
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example", "X-Forwarded-For": "203.0.113.9"}
    r = client.get("/tables/new/troccas?lang=en", headers=forwarded)
    assert not is_secure_cookie(cookie_header(r, "session"))  # request.is_secure stayed False
    assert not is_secure_cookie(cookie_header(r, "lang"))
    url = open_table(client, headers=forwarded)
    assert all(link.startswith("http://localhost/") for link in share_links(client, url, headers=forwarded))


@pytest.fixture(params=["config", "env"])
def proxied_app(request, tmp_path, monkeypatch):
    """An app told (by its config or the PROXY_FIX environment variable) that one proxy is in front."""
    config = {"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}"}
    if request.param == "env":
        monkeypatch.setenv("PROXY_FIX", "1")
    else:
        config["PROXY_FIX"] = 1
    return create_app(config)


def test_with_proxy_fix_the_forwarded_scheme_and_host_count(proxied_app):
    client = proxied_app.test_client()
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "club.example", "X-Forwarded-For": "203.0.113.9"}
    r = client.get("/tables/new/troccas?lang=en", headers=forwarded)
    assert is_secure_cookie(cookie_header(r, "session"))  # request.is_secure is True
    assert is_secure_cookie(cookie_header(r, "lang"))
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', r.get_data(as_text=True)).group(1)
    # the browser is on https://club.example: its Referer names that origin, and CSRF's strict check passes
    url = open_table(client, data={**TROCCAS, "csrf_token": token},
                     headers={**forwarded, "Referer": "https://club.example/tables/new/troccas"})
    links = share_links(client, url, headers=forwarded)
    assert links and all(link.startswith("https://club.example/") for link in links)
    # a page from another site is still refused
    r = client.post("/tables/new/troccas", data={**TROCCAS, "csrf_token": token},
                    headers={**forwarded, "Referer": "https://evil.example/"})
    assert r.status_code == 400


def test_a_bad_proxy_fix_value_stops_the_app_at_start(tmp_path, monkeypatch):
    monkeypatch.setenv("PROXY_FIX", "yes")
    with pytest.raises(ValueError, match="PROXY_FIX"):
        create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite'}"})


# ---- CSV exports ----

FORMULA = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+(\.\d+)?")


def read_csv(client, url):
    return list(csv.reader(io.StringIO(client.get(url + "/export.csv").get_data(as_text=True), newline="")))


def assert_no_formula(rows):
    """No cell a spreadsheet would run: any cell starting like a formula must be a plain number."""
    for row in rows:
        for cell in row:
            if cell.startswith(FORMULA):
                assert NUMBER.fullmatch(cell), (cell, row)


def test_csv_cells_from_names_never_become_formulas(csrf_app):
    client = csrf_app.test_client()
    names = ['=HYPERLINK("http://evil.example","x")', "+1", "-1", "@x"]
    token = csrf_token(client)
    url = open_table(client, data={**TROCCAS, **{f"players-{i}": n for i, n in enumerate(names)}, "csrf_token": token})
    # Anna's seat (the =HYPERLINK player) with "-1" as partner, 30 points: 30 - 36 = -6 each (docs/rules.md §1)
    r = client.post(url + "/hands", data={"partner": "-1", "side": "first", "points": "30", "token": "t1",
                                          "csrf_token": token})
    assert r.status_code == 303
    rows = read_csv(client, url)
    assert_no_formula(rows)
    header, hand, total = rows
    assert header[3:-1] == ["'=HYPERLINK(\"http://evil.example\",\"x\") (Points)", "'+1 (Points)", "'-1 (Points)",
                          "'@x (Points)", "'=HYPERLINK(\"http://evil.example\",\"x\") (CHF)", "'+1 (CHF)", "'-1 (CHF)",
                          "'@x (CHF)"]
    assert hand[1] == "'=HYPERLINK(\"http://evil.example\",\"x\")"  # the dealer
    assert hand[2].startswith("'=HYPERLINK")  # the summary names the declarer first
    # the numbers the app computed stay numbers, negative ones included
    assert hand[0] == "1" and hand[3:-1] == ["-6", "6", "-6", "6", "-0.30", "0.30", "-0.30", "0.30"]
    assert total == ["Total", "", "", "-6", "6", "-6", "6", "-0.30", "0.30", "-0.30", "0.30"]


def test_csv_cells_starting_with_a_tab_or_carriage_return_are_defused(csrf_app):
    # Neither the form nor an import takes such a name any more (control characters are refused), but a
    # table stored before that may hold one: its CSV still defuses it.
    client = csrf_app.test_client()
    exported = {"format": "scorekeeper.table", "format_version": 1, "game": "troccas",
                "players": ["\t=1+1", "\r=1+1", "Cla", "Zoë"], "rules": {}, "stake": 5, "currency": "CHF",
                "first_dealer": 0, "version": 0, "created_at": "2026-01-01T20:00:00+00:00", "hands": []}
    token = csrf_token(client, "/tables/import")
    r = client.post("/tables/import", data={"csrf_token": token,
                                            "file": (io.BytesIO(json.dumps(exported).encode()), "t.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 400 and "invisible or control characters" in r.get_data(as_text=True)
    from scorekeeper import store
    with csrf_app.app_context():
        table = store.create_table("troccas", exported["players"], {}, 5, "CHF", 0)
    rows = read_csv(client, f"/t/{table.id}")
    assert_no_formula(rows)
    assert rows[0][3:5] == ["'\t=1+1 (Points)", "'\r=1+1 (Points)"]


def test_a_release_that_changes_only_a_template_is_a_new_page_for_a_phone_that_kept_the_old(app, client, tmp_path):
    """A phone's worker asks for a table's page with the tag of the page it kept (web/live.py page_tag). A new
    release whose change is in a template alone (the static files, and so the worker, unchanged) must answer
    with the new page, not a 304 that shows the old markup."""
    import shutil

    from scorekeeper.web import assets
    url = open_table(client)
    tag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    templates = tmp_path / "templates"
    shutil.copytree(app.template_folder, templates)
    app.template_folder = str(templates)  # the same templates elsewhere: the same release
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    said = templates / "table/_said.html"
    said.write_text(said.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # one template changed
    assets._release.cache_clear()  # read once per process: a new release is a new process
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 200
