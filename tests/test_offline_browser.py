"""On the home screen and offline, in Chromium at 390x844 (issue 14): the network switched off mid-evening
(Playwright's set_offline), hands saved and edited offline, a reload, the network back, and exactly those
hands on the server and on a watching phone; the app installable; a changed static file reaching a phone
that kept the old one; refusals said with their reason; storage blocked; the laptop-on-Wi-Fi mode
(plain http on a LAN address: no service worker) keeping its queue."""
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.web.links import lan_address
from test_tables_browser import saved_and_settled
from tests.conftest import in_use

pytestmark = pytest.mark.browser
SHOTS = "/tmp"
WAIT = 20_000  # ms: a busy machine can take seconds per page; behaviour is checked, never time
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def phones(browser, browser_context_args):
    """Make phones: each a browser context of its own (cookies, storage, service worker)."""
    contexts = []

    def phone(**kw):
        context = browser.new_context(**{**browser_context_args, **kw})
        contexts.append(context)
        return context.new_page()
    yield phone
    for context in contexts:
        context.close()


@pytest.fixture
def kept_table(phones, live_server):
    """Make a phone with a Troccas table (Anna, Ben, Cla, Zoë) and these hands saved online, each its points or
    (points, Anna's partner), then the page opened again through the service worker, which keeps it: the set-up of
    every test that takes a table offline. Return the phone and the table's address."""
    def make(*hands):
        page = phones()
        table = open_troccas(page, live_server)
        for hand in hands:
            points, partner = hand if isinstance(hand, tuple) else (hand, "Cla")
            troccas_hand(page, points, partner)
            save_online(page)
        under_worker(page)
        return page, table
    return make


def serve(app, host="127.0.0.1"):
    server = make_server(host, 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve_on(app, port):
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def next_release(tmp_path, static):
    """The next version of the app, on the same database and address: a new process's app, which reads its files
    anew (a running app reads each once: web/precompressed.py digest)."""
    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    app.static_folder = str(static)
    return app


def open_troccas(page, base):
    """Open a Troccas table; return its address (the creator's)."""
    page.goto(f"{base}/tables/new/troccas")
    for i, name in enumerate(["Anna", "Ben", "Cla", "Zoë"]):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)
    in_use(page)  # its scripts all run: a tap now is a player's
    return page.url


def troccas_hand(page, points, partner="Cla"):
    page.locator("fieldset", has=page.locator("legend", has_text="Anna plays with")).get_by_text(partner, exact=True).click()
    page.fill("input[name=points]", str(points))


def save_online(page):
    before = page.locator("#hands .hand-list > li").count()
    expect(page.locator("#preview .sentence")).to_be_visible(timeout=WAIT)  # read the result, then tap
    saved_and_settled(page, lambda: page.locator("button.save").click())
    expect(page.locator("#hands .hand-list > li")).to_have_count(before + 1, timeout=WAIT)


def save_offline(page):
    """Tap Save with the network off: the hand joins the waiting list."""
    before = page.locator("#waiting li").count()
    expect(page.locator("#preview")).to_have_text("No result offline: it is worked out when the hand is sent.",
                                                   timeout=WAIT)  # the preview tried and said so: nothing moves now
    page.locator("button.save").click()
    expect(page.locator("#waiting li")).to_have_count(before + 1, timeout=WAIT)


def under_worker(page):
    """Wait until the service worker is active, then open the page again through it (so it is kept). Not until it
    controls this page: a page that navigated while the worker was taking over can stay unclaimed (one in seven
    here), and the page opened again is always the worker's."""
    until(page, "async () => !!navigator.serviceWorker && !!(await navigator.serviceWorker.ready).active")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=WAIT)
    kept(page, page.url)


def until(page, predicate, arg=None):
    """Wait until an async predicate, run in the page, holds. (wait_for_function takes the promise an async function
    returns for a truthy value and returns at once: this asks again, in the page, until the answer is true.)"""
    page.evaluate("""(arg) => { window.skUntil = false; const test = %s;
        (async function ask() { if (await test(arg)) { window.skUntil = true; } else { setTimeout(ask, 50); } })(); }"""
                  % predicate, arg)
    page.wait_for_function("() => window.skUntil === true", timeout=WAIT)


def kept(page, url):
    until(page, "async (u) => !!(await (await caches.open('sk-pages')).match(u))", url)


def viewer_link(page, table):
    page.goto(table + "/share")
    link = page.locator("[data-link=viewer]").input_value()
    page.goto(table)
    return link


def points_on_server(page, table):
    data = page.request.get(table + "/export.json").json()
    return [h["hand"]["points"] for h in data["hands"]]


def test_a_table_opens_offline_takes_three_hands_and_an_edit_and_sends_them_when_the_network_is_back(phones, live_server,
                                                                                                       kept_table):
    anna, table = kept_table(40)
    anna.goto(table + "/hands/1")
    expect(anna.locator("#hand-form")).to_be_visible(timeout=WAIT)
    viewer = live_server + urlsplit(viewer_link(anna, table)).path
    kept(anna, table)
    zoe = phones()
    zoe.goto(viewer)
    expect(zoe.locator("#hands .hand-list > li")).to_have_count(1, timeout=WAIT)

    anna.context.set_offline(True)
    anna.reload()  # the table opens from the phone's copy, marked as possibly out of date
    expect(anna.locator("#net")).to_contain_text("Offline", timeout=WAIT)
    expect(anna.locator("#net")).to_contain_text("Page kept at")
    expect(anna.locator("#heard")).to_contain_text("Last heard from the server at")
    for points in (30, 50, 20):
        troccas_hand(anna, points)
        save_offline(anna)
    expect(anna.locator("#waiting li").first).to_contain_text("Waiting to send")
    expect(anna.locator("#waiting li").nth(1)).to_contain_text("50")
    anna.goto(table + "/hands/1")  # fix hand 1 offline: its edit page opens the kept table page's form with it
    # the page's scripts are running (their banner is up) before the tap: a tap before would post the form natively
    expect(anna.locator("#net")).to_contain_text("Offline", timeout=WAIT)
    anna.fill("input[name=points]", "45")
    anna.get_by_role("button", name="Save changes").click()
    expect(anna.locator("#waiting li")).to_have_count(4, timeout=WAIT)
    expect(anna.locator("#waiting li").last).to_contain_text("Edit hand 1")
    anna.reload()  # a reload (or a closed app) keeps them
    expect(anna.locator("#waiting li")).to_have_count(4, timeout=WAIT)
    expect(anna.locator("#net")).to_contain_text("4 changes waiting to send.")
    anna.screenshot(path=f"{SHOTS}/offline-waiting.png", full_page=True)
    anna.screenshot(path=f"{SHOTS}/offline-banner.png")
    anna.locator("#waiting").screenshot(path=f"{SHOTS}/offline-waiting-list.png")
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390
    assert zoe.locator("#hands .hand-list > li").count() == 1  # nothing reached the server

    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    expect(anna.locator("#net")).to_be_hidden(timeout=WAIT)
    assert points_on_server(anna, table) == [45, 30, 50, 20]
    expect(zoe.locator("#hands .hand-list > li")).to_have_count(4, timeout=WAIT)
    expect(anna.locator("#hands .hand-list > li")).to_have_count(4, timeout=WAIT)  # the live board caught up
    expect(anna.locator("#heard")).to_have_class("heard", timeout=WAIT)  # heard just now


def test_a_waiting_hand_can_be_edited_and_deletes_and_undo_wait_in_order(kept_table):
    anna, table = kept_table(40, 41)
    anna.context.set_offline(True)
    troccas_hand(anna, 30)
    save_offline(anna)
    troccas_hand(anna, 31)
    save_offline(anna)
    anna.locator("#waiting li").first.get_by_role("button", name="Edit").click()  # back into the form
    expect(anna.locator("input[name=points]")).to_have_value("30")
    anna.fill("input[name=points]", "33")
    # the preview tried and said so before the tap: its line appearing above Save can't move Save under the finger
    expect(anna.locator("#preview")).to_contain_text("No result offline", timeout=WAIT)
    anna.locator("button.save").click()
    expect(anna.locator("#waiting li").first).to_contain_text("33", timeout=WAIT)  # in its place, not last
    expect(anna.locator("#waiting li")).to_have_count(2)
    anna.on("dialog", lambda d: d.accept())  # each Delete asks first
    anna.locator("#hand-1").get_by_role("button", name="Delete").click()
    expect(anna.locator("#waiting li")).to_have_count(3, timeout=WAIT)
    expect(anna.locator("#hand-1")).to_have_class("hand doomed")
    anna.locator("#hand-1").get_by_role("button", name="Delete").click()  # a second tap: kept once
    anna.locator("#hand-2").get_by_role("button", name="Delete").click()  # (the page's Deletes share a token)
    expect(anna.locator("#waiting li")).to_have_count(4, timeout=WAIT)
    anna.locator(".table-actions").get_by_role("button", name="Undo").click()  # takes back the last waiting one
    expect(anna.locator("#waiting li")).to_have_count(3, timeout=WAIT)
    expect(anna.locator("#net")).to_contain_text("Undone: the last waiting change will not be sent.")
    expect(anna.locator("#hand-2")).to_have_class("hand")
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    # in order: 33 and 31 added, hand 1 deleted (hand 2's delete was undone before it left the phone)
    assert sorted(points_on_server(anna, table)) == [31, 33, 41]
    # an undo with nothing waiting waits itself, and undoes the table's last change when it arrives
    anna.reload()
    anna.context.set_offline(True)
    anna.locator(".table-actions").get_by_role("button", name="Undo").click()
    expect(anna.locator("#waiting li")).to_have_count(1, timeout=WAIT)
    expect(anna.locator("#waiting li")).to_contain_text("Undo the change before it")
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    assert sorted(points_on_server(anna, table)) == [31, 33, 40, 41]  # hand 1's delete undone


def test_a_refused_change_says_why_keeps_what_was_entered_and_holds_back_the_next(kept_table):
    anna, table = kept_table()
    anna.context.set_offline(True)
    troccas_hand(anna, 99)  # more than the 72 points there are: the server refuses it
    save_offline(anna)
    troccas_hand(anna, 30)
    save_offline(anna)
    anna.context.set_offline(False)
    refused = anna.locator("#waiting li").first
    expect(refused).to_contain_text("Refused:", timeout=WAIT)
    expect(refused).to_contain_text("Points")
    expect(anna.locator("#waiting li").nth(1)).to_contain_text("Waits for the refused change above.")
    expect(anna.locator("#net")).to_contain_text("A change was refused")
    anna.locator("#waiting").screenshot(path=f"{SHOTS}/offline-refused.png")
    assert points_on_server(anna, table) == []
    refused.get_by_role("button", name="Fix it").click()  # the server's own form, with what was typed
    expect(anna).to_have_url(re.compile(r"/hands$"), timeout=WAIT)
    expect(anna.locator("input[name=points]")).to_have_value("99", timeout=WAIT)
    expect(anna.locator(".form-errors")).to_be_visible()
    expect(anna.locator("#waiting li", has_text="99")).to_have_count(0)  # the form holds it now
    anna.fill("input[name=points]", "42")
    anna.locator("button.save").click()
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    anna.goto(table)
    expect(anna.locator("#hands .hand-list > li")).to_have_count(2, timeout=WAIT)
    assert sorted(points_on_server(anna, table)) == [30, 42]


def test_a_change_for_a_scorer_link_turned_off_meanwhile_is_refused_with_the_reason(phones, live_server):
    anna, ben = phones(), phones()
    table = open_troccas(anna, live_server)
    anna.goto(table + "/share")
    scorer = live_server + urlsplit(anna.locator("[data-link=scorer]").input_value()).path
    ben.goto(scorer)
    expect(ben.locator("#hand-form")).to_be_visible(timeout=WAIT)
    under_worker(ben)
    ben.context.set_offline(True)
    troccas_hand(ben, 40)
    save_offline(ben)
    anna.get_by_role("button", name="Make a new scorer link").click()
    expect(anna.locator("[data-link=scorer]")).not_to_have_value(scorer, timeout=WAIT)
    ben.context.set_offline(False)
    expect(ben.locator("#waiting li")).to_contain_text("This scorer link was turned off", timeout=WAIT)
    expect(ben.locator("#waiting li").get_by_role("button", name="Discard")).to_be_visible()
    ben.once("dialog", lambda d: d.accept())
    ben.locator("#waiting li").get_by_role("button", name="Discard").click()
    expect(ben.locator("#waiting li")).to_have_count(0, timeout=WAIT)


def test_a_waiting_undo_of_a_change_another_phone_built_on_is_refused_with_the_reason(phones, kept_table):
    anna, table = kept_table(40)
    ben = phones()
    anna.context.set_offline(True)
    anna.locator(".table-actions").get_by_role("button", name="Undo").click()
    expect(anna.locator("#waiting li")).to_have_count(1, timeout=WAIT)
    ben.goto(table)  # meanwhile another phone saves a hand
    troccas_hand(ben, 50)
    save_online(ben)
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_contain_text("Nothing was undone", timeout=WAIT)
    assert points_on_server(anna, table) == [40, 50]


def test_fifty_waiting_hands_for_two_tables_all_land_in_order(phones, live_server):
    anna = phones()
    first = open_troccas(anna, live_server)
    second = open_troccas(anna, live_server)
    under_worker(anna)
    anna.goto(first)
    kept(anna, first)
    anna.context.set_offline(True)
    troccas_hand(anna, 10)
    save_offline(anna)
    anna.goto(second)
    troccas_hand(anna, 11)
    save_offline(anna)
    # 48 more, as the queue keeps them (the same form, each with its own token), alternating tables
    anna.evaluate("""() => {
      const list = JSON.parse(localStorage.getItem('scorekeeper.outbox'));
      for (let k = 0; k < 48; k++) {
        const c = Object.assign({}, list[k % 2]), body = new URLSearchParams(c.body);
        body.set('points', String(12 + k)); body.set('token', 'bulk-' + k);
        c.id = 'bulk-' + k; c.body = body.toString(); list.push(c);
      }
      localStorage.setItem('scorekeeper.outbox', JSON.stringify(list));
    }""")
    anna.reload()
    expect(anna.locator("#net")).to_contain_text("50 changes waiting to send.", timeout=WAIT)
    anna.context.set_offline(False)
    expect(anna.locator("#net")).to_be_hidden(timeout=60_000)
    assert points_on_server(anna, first) == [10] + [12 + k for k in range(0, 48, 2)]
    assert points_on_server(anna, second) == [11] + [12 + k for k in range(1, 48, 2)]


def test_a_page_kept_before_the_outbox_had_its_own_scripts_still_keeps_what_is_saved_offline(kept_table):
    """A table page kept by the version before static/offline.js became four scripts names that one file, and its #net
    has no data-queued: offline, the worker answers the file with the four, and the page's changes wait as ever."""
    anna, table = kept_table(40)
    anna.evaluate("""async (u) => {
        const cache = await caches.open('sk-pages'), kept = await cache.match(u);
        // that version's scripts were deferred in the head, the outbox's in that one file
        const html = (await kept.text())
          .replace(/<template id="later">([\\s\\S]*?)<\\/template>/, (all, scripts) => scripts
            .replace(/<script src="\\/static\\/(outbox_list|kept_pages|offline_edit)\\.js[^"]*"><\\/script>/g, '')
            .replace(/<script src="\\/static\\/outbox\\.js[^"]*"><\\/script>/, '<script src="/static/offline.js?v=0123456789ab"></script>')
            .replace(/><\\/script>/g, ' defer></script>'))
          .replace(/ data-queued="[^"]*"/, '');
        await cache.put(u, new Response(html, { headers: kept.headers }));
    }""", table)
    anna.context.set_offline(True)
    anna.reload()  # that version's page, from the phone
    expect(anna.locator("#net")).to_contain_text("Offline", timeout=WAIT)
    assert anna.locator("script[src^='/static/offline.js']").count() == 1
    assert anna.locator("script[src*='/static/outbox']").count() == 0
    troccas_hand(anna, 30)
    save_offline(anna)
    anna.locator("#hand-1").get_by_role("link", name="Edit").click()  # editing offline is there too
    expect(anna.locator("#hand-form h2")).to_have_text("Edit hand 1", timeout=WAIT)
    anna.get_by_role("button", name="Cancel").click()
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    assert points_on_server(anna, table) == [40, 30]


def test_a_table_removed_from_the_phones_list_or_whose_link_is_turned_off_leaves_no_kept_page(phones, live_server,
                                                                                               kept_table):
    anna, first = kept_table()
    second = open_troccas(anna, live_server)
    kept(anna, second)
    anna.goto(live_server + "/")
    anna.once("dialog", lambda d: d.accept())  # Remove asks first
    anna.locator("#my-tables li", has=anna.locator(f"a[href='{urlsplit(first).path}']")).get_by_role(
        "button", name="Remove").click()  # the home page's list says so (static/tables.js), the page goes
    until(anna, "async (u) => !(await (await caches.open('sk-pages')).match(u))", first)
    kept(anna, second)  # the table still on the list keeps its page
    # a scorer link turned off: the poll's 286, and the pages kept under it go
    anna.goto(second + "/share")
    scorer = live_server + urlsplit(anna.locator("[data-link=scorer]").input_value()).path
    ben = phones()
    ben.goto(scorer)
    under_worker(ben)
    anna.get_by_role("button", name="Make a new scorer link").click()
    until(ben, "async (u) => !(await (await caches.open('sk-pages')).match(u))", scorer)


def test_a_save_the_network_drops_under_is_kept_and_sent_later(phones, tmp_path):
    """The Save goes through htmx: a request that never gets an answer is kept in the queue (htmx:sendError)."""
    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    server = serve(app)
    port = server.server_port
    base = f"http://127.0.0.1:{port}"
    try:
        anna = phones()
        table = open_troccas(anna, base)
        under_worker(anna)
        troccas_hand(anna, 40)
        anna.locator("input[name=points]").blur()
        expect(anna.locator("#preview .sentence")).to_be_visible(timeout=WAIT)
        anna.evaluate("() => document.getElementById('live').remove()")  # no poll to notice the server gone first
        server.shutdown()
        server.server_close()  # the phone still believes it is online: the form posts, and nothing answers
        anna.locator("button.save").click()
        expect(anna.locator("#waiting li")).to_have_count(1, timeout=WAIT)
        expect(anna).to_have_url(table)
        expect(anna.locator("#waiting li")).to_contain_text("Points 40")
        server = serve_on(app, port)  # the server answers again
        expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
        assert points_on_server(anna, table) == [40]
    finally:
        server.shutdown()


def test_a_delete_the_network_drops_under_is_caught_by_the_worker_and_sent_later(phones, tmp_path):
    """Delete, Undo and edits post as pages: a post that fails under the service worker is handed to the queue."""
    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    server = serve(app)
    port = server.server_port
    base = f"http://127.0.0.1:{port}"
    try:
        anna = phones()
        table = open_troccas(anna, base)
        troccas_hand(anna, 40)
        save_online(anna)
        under_worker(anna)
        anna.evaluate("() => document.getElementById('live').remove()")  # no poll to notice the server gone first
        server.shutdown()
        server.server_close()
        anna.once("dialog", lambda d: d.accept())  # Delete asks first
        anna.locator("#hand-1").get_by_role("button", name="Delete").click()
        expect(anna.locator("#waiting li")).to_have_count(1, timeout=WAIT)
        assert anna.evaluate("() => document.documentElement.dataset.handoff !== undefined")  # the worker caught it
        expect(anna).to_have_url(table)
        server = serve_on(app, port)  # the server answers again
        expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
        assert points_on_server(anna, table) == []
    finally:
        server.shutdown()


def test_storage_blocked_says_so_and_keeps_the_form(phones, live_server):
    anna = phones()
    open_troccas(anna, live_server)
    anna.add_init_script("Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };")
    anna.reload()
    anna.context.set_offline(True)
    troccas_hand(anna, 40)
    expect(anna.locator("#preview")).to_contain_text("No result offline", timeout=WAIT)
    anna.locator("button.save").click()
    expect(anna.locator("#net")).to_contain_text("This phone cannot keep it", timeout=WAIT)
    expect(anna.locator("input[name=points]")).to_have_value("40")
    assert anna.locator("#waiting li").count() == 0


def test_the_app_is_installable(phones, live_server):
    page = phones()
    page.goto(live_server + "/")
    manifest = page.request.get(live_server + page.locator("link[rel=manifest]").get_attribute("href")).json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["short_name"]
    sizes = {i["sizes"]: i for i in manifest["icons"]}
    for size in ("192x192", "512x512"):
        png = page.request.get(live_server + sizes[size]["src"]).body()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"{int.from_bytes(png[16:20], 'big')}x{int.from_bytes(png[20:24], 'big')}" == size
    assert any(i["purpose"] == "maskable" for i in manifest["icons"])
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=WAIT)
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)") == live_server + "/"
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []  # a test browser is incognito
    # what is kept: the styles and the scripts every page needs (content-hashed), the offline page, and the files the
    # home page itself uses (its list's script), which it tells the worker; not a table page's scripts, nor htmx,
    # which the home page doesn't use (issue 40 item 3: a phone keeps the scripts of the pages it opens)
    kept_urls = """async () => { const out = [];
      for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) out.push(r.url);
      return out; }"""
    until(page, f"async () => (await ({kept_urls})()).some(u => u.includes('/static/phone_list.js?v='))")
    kept = page.evaluate(kept_urls)
    assert any("/static/app.css?v=" in u for u in kept) and any("/static/outbox.js?v=" in u for u in kept)
    assert live_server + "/offline" in kept
    assert not any("/static/hand_form.js" in u or "/static/vendor/htmx" in u for u in kept), kept
    page.context.set_offline(True)
    page.goto(live_server + "/rules/never-opened")  # never opened: the offline page says so
    expect(page.locator("h1")).to_have_text("Not on this phone yet", timeout=WAIT)


def test_a_changed_static_file_reaches_a_phone_that_kept_the_old_one(phones, tmp_path):
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    app.static_folder = str(static)
    server = serve(app)
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        page = phones()
        page.goto(base + "/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=WAIT)
        page.reload()
        kept(page, base + "/")
        words = """async () => (await (await caches.open('sk-kept')).keys()).some(r => r.url.includes('/offline-words.js?v='))"""
        until(page, words)  # the offline scripts' texts, kept apart from the app's files
        old = page.locator("link[rel=stylesheet]").get_attribute("href")
        colour = "getComputedStyle(document.querySelector('h1')).color"
        assert page.evaluate(colour) == "rgb(17, 17, 17)"
        with open(static / "app.css", "a") as f:  # the next version of the app
            f.write("\nh1 { color: rgb(1, 2, 3); }\n")
        server.app = next_release(tmp_path, static)
        page.reload()
        assert page.locator("link[rel=stylesheet]").get_attribute("href") != old
        expect(page.locator("h1")).to_have_css("color", "rgb(1, 2, 3)", timeout=WAIT)
        # the new worker takes over and keeps the new file: offline, the page still has it
        until(page, """async () => (await caches.keys()).filter(n => n.startsWith('sk-static-')).length === 1
            && !!(await caches.match(document.querySelector('link[rel=stylesheet]').href))""")
        assert page.evaluate(words)  # the old version's files are gone; the texts a kept page needs are not
        page.context.set_offline(True)
        page.reload()
        expect(page.locator("#net")).to_contain_text("Page kept at", timeout=WAIT)
        expect(page.locator("h1")).to_have_css("color", "rgb(1, 2, 3)", timeout=WAIT)
    finally:
        server.shutdown()


def test_an_update_keeps_the_new_version_of_the_scripts_of_the_pages_a_phone_opened(phones, tmp_path):
    """Issue 40 item 3: the worker keeps the files of the pages a phone opens; a new version of the app keeps the new
    version of each file the one before it kept (a table opened before the update opens offline after it), though
    the page that brings the update (the home page) uses none of a table's scripts."""
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    app.static_folder = str(static)
    server = serve(app)
    base = f"http://127.0.0.1:{server.server_port}"
    kept = """async (name) => { for (const c of await caches.keys()) if (c.startsWith('sk-static-'))
        for (const r of await (await caches.open(c)).keys()) if (r.url.includes(name)) return r.url;
      return null; }"""
    try:
        page = phones()
        open_troccas(page, base)
        under_worker(page)
        until(page, f"async () => !!(await ({kept})('/static/hand_form.js?v='))")  # the table page's own script
        old = page.evaluate(kept, "/static/hand_form.js?v=")
        with open(static / "hand_form.js", "a") as f:  # the next version of the app: the table's script changed
            f.write("\n// the next version\n")
        server.app = next_release(tmp_path, static)
        page.goto(base + "/")  # the home page brings the new worker; it uses no hand form
        until(page, """async () => (await caches.keys()).filter(n => n.startsWith('sk-static-')).length === 1
            && (await caches.keys()).some(n => n.startsWith('sk-static-'))""")
        until(page, f"async () => {{ const u = await ({kept})('/static/hand_form.js?v='); return !!u && u !== {old!r}; }}")
    finally:
        server.shutdown()


@pytest.mark.skipif(lan_address() is None, reason="no LAN address on this machine")
def test_the_laptop_on_wifi_mode_queues_without_a_service_worker(phones, tmp_path):
    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}",
                      "SERVE_HOST": "0.0.0.0"})
    server = serve(app, "0.0.0.0")
    base = f"http://{lan_address()}:{server.server_port}"  # plain http, not localhost: no secure context
    try:
        anna = phones()
        table = open_troccas(anna, base)
        assert anna.evaluate("window.isSecureContext") is False
        assert anna.evaluate("'serviceWorker' in navigator") is False
        anna.context.set_offline(True)
        troccas_hand(anna, 40)
        save_offline(anna)
        expect(anna.locator("#net")).to_contain_text("1 change waiting to send.")
        anna.context.set_offline(False)
        expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
        assert points_on_server(anna, table) == [40]
    finally:
        server.shutdown()


def queue(page):
    """The queue as it is once every change waiting for the queue's lock is written (locks are first come, first served)."""
    return page.evaluate("""() => navigator.locks.request('scorekeeper.outbox',
        () => JSON.parse(localStorage.getItem('scorekeeper.outbox') || '[]'))""")


def test_fix_it_that_succeeds_lets_the_change_go_and_opens_the_table(phones, live_server):
    anna = phones(service_workers="block")  # page.route sees every post
    table = open_troccas(anna, live_server)
    anna.context.set_offline(True)
    troccas_hand(anna, 30)
    save_offline(anna)
    # refused as this app refuses: its sentence in X-Refused (web/site.py error_page), percent-encoded
    anna.route("**/hands", lambda route: route.fulfill(status=400, content_type="text/html",
                                                       headers={"X-Refused": "Not%20now."},
                                                       body="<main><p class=message>Not now.</p></main>"))
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_contain_text("Refused: Not now.", timeout=WAIT)
    anna.unroute("**/hands")
    anna.locator("#waiting li").get_by_role("button", name="Fix it").click()  # accepted now: a 303
    expect(anna).to_have_url(re.compile(r"/t/[^/]+$"), timeout=WAIT)
    expect(anna.locator("#hands .hand-list > li")).to_have_count(1, timeout=WAIT)
    expect(anna.locator("#waiting li")).to_have_count(0)
    assert queue(anna) == []
    assert points_on_server(anna, table) == [30]


def test_fix_it_answered_by_an_error_page_keeps_the_hand(phones, live_server):
    anna, ben = phones(), phones(service_workers="block")
    table = open_troccas(anna, live_server)
    anna.goto(table + "/share")
    scorer = live_server + urlsplit(anna.locator("[data-link=scorer]").input_value()).path
    ben.goto(scorer)
    expect(ben.locator("#hand-form")).to_be_visible(timeout=WAIT)
    ben.context.set_offline(True)
    troccas_hand(ben, 40)
    save_offline(ben)
    anna.get_by_role("button", name="Make a new scorer link").click()
    expect(anna.locator("[data-link=scorer]")).not_to_have_value(scorer, timeout=WAIT)
    ben.context.set_offline(False)
    expect(ben.locator("#waiting li")).to_contain_text("This scorer link was turned off", timeout=WAIT)
    ben.locator("#waiting li").get_by_role("button", name="Fix it").click()  # the link's error page (410)
    expect(ben).to_have_url(re.compile(r"/hands$"), timeout=WAIT)
    expect(ben.locator("#hand-form")).to_have_count(0)
    ben.wait_for_function("() => JSON.parse(localStorage.getItem('scorekeeper.outbox') || '[]')"
                          ".every(c => c.state === 'refused')", timeout=WAIT)
    [kept_change] = queue(ben)
    assert kept_change["state"] == "refused" and "points=40" in kept_change["body"]


def test_a_change_being_sent_cannot_be_edited_or_discarded_and_undo_follows_it(phones, live_server):
    anna = phones(service_workers="block")
    table = open_troccas(anna, live_server)
    troccas_hand(anna, 40)
    save_online(anna)
    anna.context.set_offline(True)
    troccas_hand(anna, 30)
    save_offline(anna)
    held = []
    anna.route("**/hands", lambda route: held.append(route))
    anna.context.set_offline(False)
    sending = anna.locator("#waiting li").first
    expect(sending).to_contain_text("Being sent…", timeout=WAIT)
    expect(sending.get_by_role("button")).to_have_count(0)  # no Edit, no Discard
    anna.locator(".table-actions").get_by_role("button", name="Undo").click()
    expect(anna.locator("#waiting li")).to_have_count(2, timeout=WAIT)  # a real undo, after it
    expect(anna.locator("#waiting li").last).to_contain_text("Undo the change before it")
    held[0].continue_()
    anna.unroute("**/hands")
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    assert points_on_server(anna, table) == [40]  # 30 was recorded, then undone


def test_undo_tapped_twice_is_kept_once_and_never_takes_back_a_waiting_undo(phones, live_server):
    anna = phones(service_workers="block")
    table = open_troccas(anna, live_server)
    troccas_hand(anna, 40)
    save_online(anna)
    troccas_hand(anna, 41)
    save_online(anna)
    anna.context.set_offline(True)
    undo = anna.locator(".table-actions").get_by_role("button", name="Undo")
    undo.click()
    expect(anna.locator("#waiting li")).to_have_count(1, timeout=WAIT)
    undo.click()  # the same form again: kept once, not taken back
    assert [c["kind"] for c in queue(anna)] == ["undo"]
    anna.evaluate("() => document.querySelectorAll('.table-actions input[name=token]')"
                  ".forEach(i => { i.value = 'another-' + i.value; })")
    undo.click()  # a second Undo of its own: one more undo, never the waiting one taken back
    expect(anna.locator("#waiting li")).to_have_count(2, timeout=WAIT)
    assert [c["kind"] for c in queue(anna)] == ["undo", "undo"]
    assert points_on_server(anna, table) == [40, 41]


def test_editing_a_waiting_hand_keeps_the_setup_it_was_made_for(phones, live_server):
    anna = phones(service_workers="block")
    open_troccas(anna, live_server)
    anna.context.set_offline(True)
    troccas_hand(anna, 30)
    save_offline(anna)
    setup = anna.locator("#hand-form input[name=setup]").input_value()
    anna.evaluate("() => { document.querySelector('#hand-form input[name=setup]').value = 'another-setup'; }")
    anna.locator("#waiting li").first.get_by_role("button", name="Edit").click()
    expect(anna.locator("input[name=points]")).to_have_value("30", timeout=WAIT)
    expect(anna.locator("#hand-form input[name=setup]")).to_have_value(setup)
    anna.fill("input[name=points]", "33")
    anna.locator("button.save").click()
    expect(anna.locator("#waiting li").first).to_contain_text("33", timeout=WAIT)
    [change] = queue(anna)
    assert "setup=another-setup" not in change["body"]


def test_an_unchanged_table_opened_again_costs_a_304_and_its_forms_get_new_tokens(phones, tmp_path):
    """A phone opening a table it has kept asks with the kept page's tag (static/sw.js): unchanged, the server
    answers 304 and the kept page shows, its tokens renewed (static/outbox.js); once the table changed, the
    page as it is now comes."""
    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'tag.sqlite'}"})
    answers, inner = [], app.wsgi_app

    def recording(environ, start_response):
        def start(status, headers, *rest):
            answers.append((environ["REQUEST_METHOD"], environ["PATH_INFO"], int(status.split()[0])))
            return start_response(status, headers, *rest)
        return inner(environ, start)
    app.wsgi_app = recording
    server = serve(app)
    try:
        page = phones()
        table = open_troccas(page, f"http://127.0.0.1:{server.server_port}")
        under_worker(page)  # opened through the worker: kept, with its tag
        path = urlsplit(table).path
        kept_token = page.locator("#hand-form [name=token]").input_value()
        del answers[:]
        page.reload()
        expect(page.locator("html")).to_have_attribute("data-renewed", "", timeout=WAIT)
        assert ("GET", path, 304) in answers and ("GET", path, 200) not in answers
        assert page.locator("#hand-form [name=token]").input_value() != kept_token  # never the kept page's own
        expect(page.locator("#net")).not_to_contain_text("Page kept at")  # not said to be an old copy

        troccas_hand(page, 40)
        del answers[:]
        save_online(page)  # from the kept page, with its renewed tokens: recorded once
        # the Save's answer brought a new version: the phone keeps the page as it is now (an edit offline starts
        # from it), so opening it again is still a 304, and shows the hand
        until(page, """async (u) => { const r = await (await caches.open('sk-pages')).match(u);
            return !!r && (await r.text()).includes('data-hands="1"'); }""", table)
        # issue 40 item 1: the copy is made on the phone from what the Save's answer brought; the page isn't fetched
        assert [a for a in answers if a[:2] == ("GET", path)] == [], answers
        assert points_on_server(page, table) == [40]
        del answers[:]
        page.reload()
        expect(page.locator("#hands .hand-list > li")).to_have_count(1, timeout=WAIT)
        assert ("GET", path, 304) in answers and ("GET", path, 200) not in answers
        page.evaluate("() => document.getElementById('live').remove()")  # no poll: this page won't hear of the next
        other = phones()
        other.goto(table)
        troccas_hand(other, 50)
        save_online(other)
        del answers[:]
        page.reload()  # the table changed since the page was kept: the page as it is now
        expect(page.locator("#hands .hand-list > li")).to_have_count(2, timeout=WAIT)
        assert ("GET", path, 200) in answers
        assert page.locator("html").get_attribute("data-renewed") is None
    finally:
        server.shutdown()


def test_the_cards_to_tap_open_offline_and_a_tapped_hand_is_counted_when_it_is_sent(kept_table):
    anna, table = kept_table()  # the table page kept; the counting aid's cards, fetched once, kept like a file
    until(anna, """async () => { for (const n of await caches.keys()) {
        if ((await (await caches.open(n)).keys()).some(r => r.url.includes('/count/troccas/aid?'))) return true; }
      return false; }""")
    anna.context.set_offline(True)
    anna.reload()
    expect(anna.locator("#net")).to_contain_text("Offline", timeout=WAIT)
    anna.locator("fieldset", has=anna.locator("legend", has_text="Anna plays with")).get_by_text("Cla", exact=True).click()
    anna.get_by_text("Count the cards instead").click()
    anna.locator("#count-aid").get_by_text("Anna's team").click()
    anna.locator("details.tap-cards > summary").click()
    for card in ("SW-K", "CU-Q", "BA-J", "T5"):
        anna.locator("label.card", has=anna.locator(f"input[value='{card}']")).click()
    # Count needs the server: offline it fails, and is no hand to send later (the form's own post, not a Save)
    anna.evaluate("""() => { window.countFailed = new Promise(done =>
      document.body.addEventListener("htmx:sendError", () => setTimeout(done, 0), { once: true })); }""")
    anna.get_by_role("button", name="Count these cards").click()
    anna.evaluate("() => window.countFailed")  # its failure was handled (static/outbox.js listens before this)
    assert anna.locator("#waiting li").count() == 0
    save_offline(anna)  # the points left empty: Save counts the tapped cards when the hand is sent
    anna.context.set_offline(False)
    expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
    # the tapped cards are the hand's (issue 41: as the API takes them, so the engine counts and checks them):
    # SW-K, CU-Q, BA-J, T5: one group of four, 5 + 4 + 2 + 1 = 12 - 3 = 9 (docs/rules.md §1), as test_tables counts
    [hand] = [h["hand"] for h in anna.request.get(table + "/export.json").json()["hands"]]
    assert sorted(hand["cards"]) == ["BA-J", "CU-Q", "SW-K", "T5"] and "points" not in hand
    expect(anna.locator(".hand .what").first).to_contain_text("9 points", timeout=WAIT)
