"""Tables benchmarks: taps per hand (scripted Chromium), page weight, a saved hand's round trip. (Saving on 50
tables at once, against a bare Flask app under the same server: bench/serving.py and bench/save.py.)"""
from __future__ import annotations

import shutil
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import make_server

from scorekeeper import create_app

from . import CHROMIUM_ARGS

TROGGU = ["Anna", "Ben", "Cla", "Dumeng", "Zoë"]


def serve(tmp: Path):
    """Serve a fresh app (CSRF on) from a thread; return its base URL and the server."""
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tmp / 'bench.sqlite'}"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server, app


class Taps:
    """Count taps: each click on the screen and each key pressed on the keypad is one."""

    def __init__(self, page):
        self.page, self.n = page, 0

    def tap(self, locator):
        locator.click()
        self.n += 1

    def type(self, text):
        for ch in text:
            self.page.keyboard.press(ch)
            self.n += 1


def fieldset(page, legend):
    return page.locator("fieldset", has=page.locator("legend", has_text=legend)).first


def open_table(page, base, game, players, stake=None):
    page.goto(f"{base}/tables/new/{game}")
    for i, name in enumerate(players):
        page.fill(f"#players-{i}", name)
    if stake:
        page.fill("input[name=stake]", stake)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_selector("#hand-form")


def taps_and_weight(base: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = ctx.new_page()

        open_table(page, base, "troggu", TROGGU)
        t = Taps(page)
        t.tap(fieldset(page, "Tappist or soloist").get_by_text("Anna", exact=True))
        t.tap(page.locator("input[name=points]"))
        t.type("62")
        t.tap(page.locator("button.save"))
        page.wait_for_selector("#hand-1")
        assert "Anna: Normal, 62 points" in page.locator("#hand-1").inner_text()
        print(f"taps, Troggu normal hand with known points: {t.n} (goal <= 5; a paper sheet: the declarer's"
              f" initial and 5 signed amounts worked out in the head, about 6 entries)")

        open_table(page, base, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng"])
        t = Taps(page)
        t.tap(fieldset(page, "Taker").get_by_text("Ben", exact=True))
        t.tap(fieldset(page, "Oudlers of that side").get_by_text("2", exact=True))
        t.tap(page.locator("input[name=points]"))
        t.type("45")
        t.tap(page.locator("button.save"))
        page.wait_for_selector("#hand-1")
        print(f"taps, French Tarot 4 players, no bonuses (contract = the default/last one): {t.n} (goal <= 6;"
              f" paper: taker, contract, points, oudlers, then 4 scores computed by hand, about 8 entries)")
        table_url = page.url

        # a table with six hands, loaded by a phone that has nothing cached
        for k, points in enumerate(("50", "40", "60", "38", "47"), start=2):
            fieldset(page, "Taker").get_by_text("Cla", exact=True).click()
            fieldset(page, "Oudlers of that side").get_by_text("2", exact=True).click()
            page.fill("input[name=points]", points)
            page.locator("button.save").click()
            page.wait_for_selector(f"#hand-{k}")
        fresh = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page2 = fresh.new_page()
        sizes = []
        page2.on("requestfinished", lambda req: sizes.append((req.url, req.sizes())))
        page2.goto(table_url)
        page2.wait_for_load_state("networkidle")
        total = sum(s["responseBodySize"] + s["responseHeadersSize"] for _u, s in sizes)
        detail = ", ".join(f"{u.rsplit('/', 1)[-1][:24]} {s['responseBodySize']}" for u, s in sizes)
        print(f"first load of a table page with 6 hands: {total} bytes on the wire incl. headers"
              f" (goal <= 40960) [{detail}]")

        # one saved hand's round trip, from the tap on Save to the new page
        sizes.clear()
        fieldset(page2, "Taker").get_by_text("Dumeng", exact=True).click()
        fieldset(page2, "Oudlers of that side").get_by_text("1", exact=True).click()
        page2.fill("input[name=points]", "52")
        page2.wait_for_timeout(800)  # let the preview settle so it is not counted below
        sizes.clear()
        timings = []
        page2.on("requestfinished", lambda req: timings.append((req.url, req.timing)))
        page2.locator("button.save").click()
        page2.wait_for_selector("#hand-7")
        page2.wait_for_load_state("networkidle")
        path = table_url.split("://", 1)[1].split("/", 1)[1]
        trip = [(u, sz) for u, sz in sizes if u.endswith(path) or u.endswith(path + "/hands")]
        sent = sum(sz["requestBodySize"] + sz["requestHeadersSize"] for _u, sz in trip)
        got = sum(sz["responseBodySize"] + sz["responseHeadersSize"] for _u, sz in trip)
        post = [tm for u, tm in timings if u.endswith("/hands")]
        server_ms = post[0]["responseStart"] - post[0]["requestStart"] if post else float("nan")
        others = sorted({u.rsplit("/", 1)[-1].split("?")[0] for u, _sz in sizes} - {u.rsplit("/", 1)[-1] for u, _ in trip})
        print(f"saving a hand in Chromium (htmx: the POST and its partial answer, no reload) = {len(trip)} requests, {sent} bytes up, {got} bytes down;"
              f" POST to first byte {server_ms:.1f} ms (werkzeug dev server); also seen: {', '.join(others)} (cached or the live preview)")
        browser.close()


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-tables-"))
    try:
        base, server, _app = serve(tmp)
        try:
            taps_and_weight(base)
        finally:
            server.shutdown()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
