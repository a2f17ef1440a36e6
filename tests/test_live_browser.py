"""Three phones round one table (three Chromium contexts at 390x844): the score live on each, two scorers,
a viewer who can't change anything, a stale edit shown, an old scorer link turned off."""
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from test_tables_browser import saved_and_settled
from tests.conftest import in_use

pytestmark = pytest.mark.browser
SHOTS = "/tmp"
LIVE = 6000  # ms: the issue asks for about 3 s; polls run every 2 s


@pytest.fixture
def phones(browser, browser_context_args):
    """Make phones: each a browser context of its own (cookies, storage), at phone size."""
    contexts = []

    def phone():
        context = browser.new_context(**browser_context_args)
        contexts.append(context)
        return context.new_page()
    yield phone
    for context in contexts:
        context.close()


def open_troccas(page, base):
    page.goto(f"{base}/tables/new/troccas")
    for i, name in enumerate(["Anna", "Ben", "Cla", "Zoë"]):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#hand-form")).to_be_visible()
    in_use(page)  # its scripts all run: a tap now is a player's


def links(page, base):
    """Open the share page; return the viewer and scorer links (paths on this test server)."""
    page.get_by_role("link", name="Share").click()
    viewer = page.locator("[data-link=viewer]").input_value()
    scorer = page.locator("[data-link=scorer]").input_value()
    return base + urlsplit(viewer).path, base + urlsplit(scorer).path


def troccas_hand(page, points):
    page.locator("fieldset", has=page.locator("legend", has_text="Anna plays with")).get_by_text("Cla", exact=True).click()
    page.fill("input[name=points]", str(points))


def save(page):
    saved_and_settled(page, lambda: page.locator("button.save").click())
    expect(page.locator(".hand-form h2")).to_be_visible()


def test_three_phones_see_each_hand_live_and_keep_what_they_type(phones, live_server):
    anna, ben, zoe = phones(), phones(), phones()
    open_troccas(anna, live_server)
    viewer, scorer = links(anna, live_server)
    anna.screenshot(path=f"{SHOTS}/live-share.png", full_page=True)
    anna.go_back()
    ben.goto(scorer)
    zoe.goto(viewer)
    anna.fill("input[name=points]", "33")  # Anna is typing the next hand while Ben saves his
    troccas_hand(ben, 40)
    save(ben)
    # Anna's team 40 - 36 = +4 (docs/rules.md §1: 72 points, 36 is even), at 1 Rappen a point
    for page in (anna, zoe):
        expect(page.locator("#hands .hand")).to_have_count(1, timeout=LIVE)
        expect(page.locator("#totals tbody tr").first).to_contain_text("+4")
    expect(anna.locator("input[name=points]")).to_have_value("33")  # not lost
    expect(anna.locator("#hand-title")).to_contain_text("Hand 2 Ben deals")  # the next hand's number, kept true
    assert zoe.locator("main form").count() == 0  # the viewer has nothing to fill in
    assert zoe.get_by_role("button", name="Edit").count() == 0
    anna.screenshot(path=f"{SHOTS}/live-table.png", full_page=True)
    troccas_hand(anna, 30)
    save(anna)  # 30 - 36 = -6
    for page in (ben, zoe):
        expect(page.locator("#hands .hand")).to_have_count(2, timeout=LIVE)
        expect(page.locator("#totals tbody tr").first).to_contain_text("−2")
    zoe.screenshot(path=f"{SHOTS}/live-viewer.png", full_page=True)


def test_an_idle_poll_is_a_304_and_swaps_nothing(phones, live_server):
    anna, ben = phones(), phones()
    open_troccas(anna, live_server)
    _viewer, scorer = links(anna, live_server)
    anna.go_back()
    statuses = []
    anna.on("response", lambda r: statuses.append(r.status) if r.url.endswith("/board") else None)
    anna.evaluate("document.getElementById('totals').dataset.mark = 'untouched'")
    anna.wait_for_timeout(4500)  # two polls or more
    assert statuses and set(statuses) == {304}
    assert anna.evaluate("document.getElementById('totals').dataset.mark") == "untouched"
    ben.goto(scorer)
    troccas_hand(ben, 40)
    save(ben)
    expect(anna.locator("#hands .hand")).to_have_count(1, timeout=LIVE)
    assert 200 in statuses
    assert anna.evaluate("document.getElementById('totals').dataset.mark") is None  # swapped for the new one


def test_a_concurrent_edit_is_detected_and_shows_both_versions(phones, live_server):
    anna, ben = phones(), phones()
    open_troccas(anna, live_server)
    troccas_hand(anna, 40)
    save(anna)
    _viewer, scorer = links(anna, live_server)
    anna.go_back()
    ben.goto(scorer)
    for page in (anna, ben):
        page.locator("#hand-1").get_by_role("link", name="Edit").click()
        expect(page.locator("input[name=points]")).to_have_value("40")
    anna.fill("input[name=points]", "41")
    anna.locator("button.save").click()  # the edit saved: back on the table page
    expect(anna.locator("#hand-1 .what")).to_contain_text("41 points", timeout=LIVE)
    ben.fill("input[name=points]", "50")
    ben.locator("button.save").click()
    ben.wait_for_load_state()
    expect(ben.locator("[role=alert]")).to_contain_text("This hand was changed meanwhile")
    expect(ben.locator("[role=alert]")).to_contain_text("41 points")  # the newer version, saved by Anna
    expect(ben.locator("input[name=points]")).to_have_value("50")  # and Ben's own, still in his form
    anna.reload()
    expect(anna.locator("#hand-1 .what")).to_contain_text("41 points")  # nothing overwritten


def test_the_same_form_saved_twice_records_one_hand(phones, live_server):
    anna = phones()
    open_troccas(anna, live_server)
    troccas_hand(anna, 40)
    form = anna.evaluate("Object.fromEntries(new FormData(document.getElementById('hand-form')))")
    url = live_server + anna.evaluate("document.getElementById('hand-form').getAttribute('action')")
    for _ in range(2):  # a retry over a bad connection posts the very same form again
        r = anna.request.post(url, form={**form, "action": "save"}, max_redirects=0)
        assert r.status == 303
    table_url = anna.url
    anna.locator("button.save").dblclick()  # and a double tap on the (same) form's Save
    anna.wait_for_load_state("networkidle")  # both taps' posts and redirects are done
    # read the table on a fresh page: a goto on anna could be aborted by the second tap's navigation
    check = anna.context.new_page()
    check.goto(table_url)
    expect(check.locator("#hands .hand")).to_have_count(1)


def test_the_viewer_link_refuses_posts(phones, live_server):
    anna, zoe = phones(), phones()
    open_troccas(anna, live_server)
    troccas_hand(anna, 40)
    save(anna)
    viewer, _scorer = links(anna, live_server)
    zoe.goto(live_server + "/tables/new/troccas")  # the viewer's page makes no session: a token from a page that does
    csrf = zoe.locator('meta[name="csrf-token"]').get_attribute("content")  # a valid token: only the role refuses
    zoe.goto(viewer)
    base = viewer.replace("/v/", "/t/")
    for path, form in ((base + "/hands", {"partner": "Cla", "side": "first", "points": "50", "token": "z"}),
                       (base + "/hands/1/delete", {}), (base + "/undo", {})):
        r = zoe.request.post(path, form={**form, "csrf_token": csrf}, max_redirects=0)
        assert r.status == 403 and "This is a viewer link" in r.text()
    zoe.reload()
    expect(zoe.locator("#hands .hand")).to_have_count(1)
    expect(zoe.locator("#hand-1 .what")).to_contain_text("40 points")


def test_an_old_scorer_link_stops_working_after_a_new_one_is_made(phones, live_server):
    anna, ben = phones(), phones()
    open_troccas(anna, live_server)
    _viewer, old = links(anna, live_server)
    ben.goto(old)
    troccas_hand(ben, 40)  # Ben is half-way through a hand when Anna turns his link off
    anna.get_by_role("button", name="Make a new scorer link").click()
    expect(anna.get_by_role("status")).to_contain_text("The old one no longer works")
    new = live_server + urlsplit(anna.locator("[data-link=scorer]").input_value()).path
    assert new != old
    expect(ben.locator("#live")).to_contain_text("This scorer link was turned off", timeout=LIVE)
    ben.locator("button.save").click()
    ben.wait_for_load_state()
    expect(ben.locator(".message")).to_contain_text("This scorer link was turned off")
    ben.goto(new)
    expect(ben.locator("#hands .hand")).to_have_count(0)  # nothing was saved through the old link
    troccas_hand(ben, 40)
    save(ben)
    expect(ben.locator("#hands .hand")).to_have_count(1)


def test_the_evening_in_numbers_stays_true_open_or_closed(phones, live_server):
    anna, zoe = phones(), phones()
    open_troccas(anna, live_server)
    viewer, _scorer = links(anna, live_server)
    anna.go_back()
    zoe.goto(viewer)
    numbers = zoe.locator("#numbers")
    numbers.locator("summary").click()  # Zoë watches with the numbers open: each hand updates them
    troccas_hand(anna, 40)
    save(anna)
    anna_row = zoe.locator("#numbers-body tbody tr").first
    expect(anna_row).to_contain_text("Anna1", timeout=LIVE)  # Anna: 1 hand
    numbers.locator("summary").click()  # closed: the next hand brings no numbers...
    troccas_hand(anna, 30)
    save(anna)
    expect(zoe.locator("#hands .hand")).to_have_count(2, timeout=LIVE)
    numbers.locator("summary").click()  # ...opening them fetches them as they are
    expect(anna_row).to_contain_text("Anna2", timeout=LIVE)
    # Anna +4 then −6 (docs/rules.md §1): best +4, worst −6
    expect(anna_row).to_contain_text("+4−6", timeout=LIVE)


def test_the_chart_drawn_on_by_the_steps_each_answer_brings_is_the_chart_a_fresh_page_draws(phones, live_server):
    """After the second hand, a Save's answer and a watcher's poll bring only the chart's new steps when nothing
    rescales it (web/chart.py chart_steps), which static/board.js draws onto the chart the phone shows. Hands 3 to 5
    here keep within the first's extremes (Troccas: 40 − 36 = +4 for Anna and Cla, then 32: −4, 38: +2, 34: −2,
    36: 0; docs/rules.md §1): both phones' charts must then be the one a page loaded afresh draws."""
    anna, zoe = phones(), phones()
    open_troccas(anna, live_server)
    viewer, _scorer = links(anna, live_server)
    anna.go_back()
    zoe.goto(viewer)
    stepped = []
    for page, who in ((anna, "save"), (zoe, "poll")):
        page.on("response", lambda r, who=who: stepped.append(who) if r.status == 200 and (
            r.url.endswith("/board") or r.url.endswith("/hands")) and 'id="chart-steps" hx-swap-oob' in r.text() else None)
    for n, points in enumerate((40, 32, 38, 34, 36), start=1):
        troccas_hand(anna, points)
        save(anna)
        expect(zoe.locator("#hands .hand")).to_have_count(n, timeout=LIVE)
    drawn = "() => { const s = document.querySelector('#chart-lines svg'), z = s.querySelector('line');" \
            " return [s.getAttribute('viewBox'), s.dataset.hands, z.getAttribute('x1'), z.getAttribute('x2')," \
            " ...[...s.querySelectorAll('path')].map(p => p.getAttribute('d'))]; }"
    fresh = phones()
    fresh.goto(viewer)
    assert fresh.evaluate(drawn)[1] == "5"
    assert anna.evaluate(drawn) == zoe.evaluate(drawn) == fresh.evaluate(drawn)
    assert {"save", "poll"} <= set(stepped)  # both kinds of answer brought steps, not the whole chart
    expect(anna.locator("#chart-words")).to_have_text(fresh.locator("#chart-words").text_content())
