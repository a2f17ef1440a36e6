"""Installable and offline, through the test client (issue 14): the manifest and its icons, the service
worker at the site root (allowed by the CSP, no inline script anywhere), content-hashed static URLs cached
for a year, the offline page, the CSRF token the offline queue sends with, the icons the script draws."""
import html
import json
import re
from pathlib import Path

from flask import url_for

from scorekeeper.web import assets, pwa
from tests.opening import open_table

ROOT = Path(__file__).resolve().parent.parent
TROCCAS = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
           "first_dealer": "0", "stake": "0.05", "currency": "CHF"}


def test_the_manifest_makes_the_app_installable(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    m = r.get_json()
    assert m["name"] and m["short_name"] and m["display"] == "standalone" and m["start_url"] == "/"
    assert m["theme_color"] == pwa.THEME
    icons = {(i["sizes"], i["purpose"]): i["src"] for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(icons)
    for (sizes, _), src in icons.items():
        png = client.get(src)
        data = png.get_data()
        png.close()
        assert png.status_code == 200 and data[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"{int.from_bytes(data[16:20], 'big')}x{int.from_bytes(data[20:24], 'big')}" == sizes
    assert client.get("/manifest.webmanifest", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    assert client.get("/manifest.webmanifest?lang=de").get_json()["lang"] == "de"


def test_the_installed_app_turns_with_the_phone_and_has_shortcuts_in_the_players_language(client):
    m = client.get("/manifest.webmanifest").get_json()
    # issue 37: "portrait" held the installed app upright, against a board that is wider on its side
    assert m.get("orientation", "any") == "any"
    shortcuts = {s["url"]: s["name"] for s in m["shortcuts"]}
    assert shortcuts == {"/tables/new": "Open a table", "/count": "Count"}
    for url in shortcuts:
        assert client.get(url, follow_redirects=True).status_code == 200  # a page of its own, no link needed
    german = {s["url"]: s["name"] for s in client.get("/manifest.webmanifest?lang=de").get_json()["shortcuts"]}
    assert german == {"/tables/new": "Tisch eröffnen", "/count": "Zählen"}


def test_a_saved_hand_asks_the_browser_to_keep_this_phones_storage():
    """Safari clears a site's storage after a week unused: this phone's list and its pages' copies with it. Once a
    hand is saved through the form, static/kept_pages.js (on every page) asks for the storage to be kept, once."""
    script = (ROOT / "static" / "kept_pages.js").read_text()
    asks = re.search(r"function askToKeep\(\) \{(.*?)\n  \}", script, re.S)
    assert asks and "navigator.storage.persist()" in asks.group(1) and "keepAsked = true" in asks.group(1)
    assert re.search(r'e\.detail\.elt\.id === "hand-form" && e\.detail\.successful\) \{ askToKeep\(\); \}', script)


def test_every_page_links_the_manifest_the_worker_script_and_a_touch_icon(client):
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    # the outbox's banner, the worker's registration, the outbox itself (last): once the page is in use, in order
    later = re.search(r'<template id="later">(.*?)</template>', page, re.S).group(1)
    scripts = re.findall(r'<script src="/static/(\w+)\.js\?v=[0-9a-f]{12}"></script>', later)
    assert scripts[:2] == ["outbox_list", "kept_pages"] and scripts[-1] == "outbox", scripts
    assert re.search(r'rel="apple-touch-icon" href="/static/icons/apple-touch-icon\.png\?v=', page)
    assert 'id="net"' in page


def test_the_service_worker_is_served_from_the_root_and_allowed_by_the_csp(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "no-cache"
    body = r.get_data(as_text=True)
    assert "var BUILD = {};" not in body and re.search(r'"version":\s*"[0-9a-f]{12}"', body)  # minified: no space
    for f in assets.PRECACHE:
        assert re.search(rf'"/static/{re.escape(f)}\?v=[0-9a-f]{{12}}"', body), f
    assert client.get("/sw.js", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_every_script_of_the_app_may_be_kept_by_the_worker():
    """A page's scripts are kept for offline use only if the worker may keep them (assets.PRECACHE): every script in
    static/ but the worker itself, so a new one (a cup's round clock) is never left out of an offline page."""
    static = Path(__file__).resolve().parent.parent / "static"
    scripts = {p.relative_to(static).as_posix() for p in static.rglob("*.js")} - {"sw.js"}
    assert scripts <= set(assets.PRECACHE), scripts - set(assets.PRECACHE)


def test_the_posts_the_outbox_keeps_are_a_hands_save_edit_delete_and_undo_written_once(app, client):
    """web/assets.py QUEUED is the one pattern: the page's scripts read it from #net, the worker from its BUILD."""
    queued = re.compile(assets.QUEUED)  # a JavaScript pattern that Python reads the same
    kept = {"tables.add": ("add", None), "tables.edit": ("edit", "7"), "tables.delete": ("delete", "7"),
            "tables.undo": ("undo", None)}
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "POST" not in rule.methods:
                continue
            url = url_for(rule.endpoint, **{a: 7 if a == "number" else "k3y" for a in rule.arguments})
            m = queued.match(url)
            assert bool(m) == (rule.endpoint in kept), url
            if m:  # the groups the scripts read: the table's key, the hand's number, a delete
                kind, hand = kept[rule.endpoint]
                assert (m[1], m[3], bool(m[4])) == ("k3y", hand, kind == "delete"), url
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'id="net"[^>]*data-queued="([^"]*)"', page).group(1) == html.escape(assets.QUEUED)
    worker = client.get("/sw.js").get_data(as_text=True)
    assert json.dumps(assets.QUEUED) in worker


def test_no_template_has_an_inline_script():
    for path in (ROOT / "templates").rglob("*.html"):
        for tag in re.findall(r"<script\b[^>]*>", path.read_text()):
            assert "src=" in tag, f"{path.name}: {tag}"
        assert not re.search(r"\son[a-z]+=", path.read_text()), path.name  # no inline event handlers either


def test_static_urls_name_their_content_and_a_hashed_url_is_kept_a_year(client):
    page = client.get("/").get_data(as_text=True)
    urls = re.findall(r'"(/static/[^"]+)"', page)
    assert urls and all(re.search(r"\?v=[0-9a-f]{12}$", u) for u in urls)
    css = next(u for u in urls if "app.css" in u)
    r = client.get(css)
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    r.close()
    for stale in ("/static/app.css", "/static/app.css?v=000000000000"):  # no digest, or an old one: ask again
        r = client.get(stale)
        assert r.status_code == 200 and r.headers["Cache-Control"] == "no-cache", stale
        r.close()


def test_a_changed_file_gets_a_new_url(app, tmp_path):
    """A file is read once per process, as the code is (a new release is a new process: precompressed.digest); in
    debug, a file edited under the running app is a new URL at once."""
    (tmp_path / "x.css").write_text("a{}")
    app.static_folder = str(tmp_path)
    with app.test_request_context():
        first = assets.static_url("x.css")
        (tmp_path / "x.css").write_text("a{color:red}")
        assert assets.static_url("x.css") == first  # the release's file, as it was read
        app.debug = True
        assert assets.static_url("x.css") != first
        assert assets.static_url("missing.css") == "/static/missing.css"


def test_the_offline_page_and_the_queue_token(client):
    r = client.get("/offline")
    assert r.status_code == 200 and "Not on this phone yet" in r.get_data(as_text=True)
    r = client.get("/csrf")
    assert r.headers["Cache-Control"] == "no-store" and r.get_json()["csrf_token"]


def test_the_offline_queue_posts_like_a_form_with_its_token_and_a_fresh_csrf_token(csrf_app):
    """What the outbox (static/outbox.js) sends: the form's fields, its idempotency token, a CSRF token from /csrf."""
    client = csrf_app.test_client()
    page = client.get("/tables/new/troccas").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    url = client.post("/tables/new/troccas", data={**TROCCAS, "csrf_token": token}).headers["Location"]
    hand = {"partner": "Cla", "side": "first", "points": "40", "token": "queued-token-1", "action": "save"}
    for _ in range(2):  # sent, the answer lost, sent again: one hand
        fresh = client.get("/csrf").get_json()["csrf_token"]
        assert client.post(url + "/hands", data={**hand, "csrf_token": fresh}).status_code == 303
    assert len(client.get(url + "/export.json").get_json()["hands"]) == 1


def test_the_home_page_offers_to_remove_a_table_in_the_players_language(client):
    page = client.get("/?lang=de").get_data(as_text=True)
    assert 'data-remove="Entfernen"' in page
    words = re.search(r'<script src="(/offline-words\.js\?v=\w+)"></script>', page).group(1)
    assert "Auf diesem Handy gespeichert" in client.get(words).get_data(as_text=True).encode().decode("unicode_escape")


def test_htmx_comes_only_with_pages_whose_markup_uses_it(client):
    # app/base.html: htmx (15 KB compressed) is loaded by a page with hx- attributes; the others are plain pages
    url = open_table(client)
    for path, uses in (("/", False), ("/rules", False), ("/tables/new/troccas", False), (url + "/settle", False),
                       (url + "/share", False), ("/count/troccas", True), ("/count/troccas/classes", True), (url, True)):
        page = client.get(path).get_data(as_text=True)
        body = page.split("<body>", 1)[1]
        assert ("/static/vendor/htmx-2.0.11.min.js" in page) is uses is (" hx-" in body), path


def test_the_offline_texts_come_once_in_the_pages_language_not_with_every_page(client):
    page = client.get("/").get_data(as_text=True)
    assert "data-offline=" not in page and "Offline: what you save is kept on this phone." not in page
    # before the scripts that read them (the later scripts run in their order: app/base.html)
    for script in ("outbox", "outbox_list"):
        assert page.index("/offline-words.js?v=") < page.index(f"/static/{script}.js?v="), script
    english = re.search(r'src="(/offline-words\.js\?v=\w+)"', page).group(1)
    r = client.get(english)
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "Content-Security-Policy" not in r.headers  # a document's policy: on a script it governs nothing
    said = json.loads(r.get_data(as_text=True).removeprefix("window.SK_WORDS=").removesuffix(";"))
    assert said["offline"] == "Offline: what you save is kept on this phone." and said["waitingMany"] == "{n} changes waiting to send."
    french = re.search(r'src="(/offline-words\.js\?v=\w+)"', client.get("/?lang=fr").get_data(as_text=True)).group(1)
    assert french != english  # another language, another address: each kept under what it says
    assert client.get(english.replace("v=", "v=0")).headers["Cache-Control"] == "no-cache"


def test_the_committed_icons_are_what_the_script_draws(tmp_path):
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "scripts" / "make_icons.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    size, bleed, scale = make.ICONS["apple-touch-icon.png"]  # the smallest: the same drawing at every size
    assert make.draw(size, bleed, scale) == (ROOT / "static" / "icons" / "apple-touch-icon.png").read_bytes()
