"""Taps per hand: a scripted Chromium at 390x844 enters hands as a player would, counting every tap,
focus and keystroke (a select change would count 2; the forms have none), and the bytes each costs.

Goals (issue 13): Troggu normal hand with its points at most 4; French Tarot 4 players, garde, points
and oudlers at most 6 whatever the last contract and 5 when it repeats; the same hand counted in the
table by card classes (2 bouts, 2 kings, 1 queen, 1 cavalier, 2 jacks, 30 other cards) at most 12.
Each run checks that the hand was really saved with the expected result, so a count can't be cheated.
"""
from __future__ import annotations

import re
import tempfile
import threading

from werkzeug.serving import make_server

from scorekeeper import create_app

from . import CHROMIUM_ARGS



class Player:
    """A phone in one hand: every tap, focus and keystroke counted, every byte sent and received summed."""

    def __init__(self, page):
        self.page, self.taps, self.bytes = page, 0, 0
        page.on("requestfinished", self._sized)

    def _sized(self, request):
        s = request.sizes()
        self.bytes += s["requestBodySize"] + s["requestHeadersSize"] + s["responseBodySize"] + s["responseHeadersSize"]

    def tap(self, locator):
        locator.click()
        self.taps += 1

    def type(self, text: str):
        self.page.keyboard.type(text)
        self.taps += len(text)

    def enter(self):
        self.page.keyboard.press("Enter")
        self.taps += 1

    def choose(self, legend: str, text: str):
        group = self.page.locator("fieldset", has=self.page.locator("legend", has_text=legend)).first
        self.tap(group.get_by_text(text, exact=True))

    def save(self):
        self.tap(self.page.locator("button.save"))

    def start(self):
        self.taps = self.bytes = 0


def open_table(page, base, game, players):
    page.goto(f"{base}/tables/new/{game}")
    for i, name in enumerate(players):
        if not page.locator(f"#players-{i}").is_visible():
            page.get_by_text("More players").click()
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/t/"))


def saved(page, text: str):
    page.locator(".saved", has_text=text).wait_for(timeout=20_000)


def main() -> None:
    from playwright.sync_api import sync_playwright

    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/taps.sqlite"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    rows = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
        me = Player(page)

        open_table(page, base, "troggu", ["Anna", "Ben", "Cla", "Dumeng"])
        me.start()
        me.choose("Tappist or soloist", "Anna")  # the keypad opens on the points by itself
        me.type("63")
        me.enter()
        saved(page, "Anna +3")  # 63 ≥ 58, each of 3 opponents pays 1 unit (docs/rules.md §5)
        rows.append(("Troggu normal hand, points known", me.taps, 4, me.bytes))

        open_table(page, base, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng"])
        me.start()
        me.choose("Taker", "Anna")
        me.choose("Contract", "Garde")
        me.type("53")
        me.choose("Oudlers of that side", "2")
        me.save()
        saved(page, "Anna +222")  # (25 + 12) × 2 = 74 from each of 3 (docs/rules.md §6)
        rows.append(("French Tarot garde, last hand prise", me.taps, 6, me.bytes))
        me.start()
        me.choose("Taker", "Anna")  # the contract repeats the last hand's: garde
        me.type("53")
        me.choose("Oudlers of that side", "2")
        me.save()
        saved(page, "Hand 2 saved: Anna +222")
        rows.append(("French Tarot garde, repeating the contract", me.taps, 5, me.bytes))

        open_table(page, base, "french_tarot", ["Anna", "Ben", "Cla", "Dumeng"])
        me.start()
        me.choose("Taker", "Anna")
        me.choose("Contract", "Garde")
        me.tap(page.get_by_text("Count the cards instead"))
        counting = me.bytes
        for legend, n in (("Bouts", "2"), ("Kings", "2"), ("Queens", "1"), ("Cavaliers", "1"), ("Jacks", "2")):
            me.choose(legend, n)
        me.tap(page.locator("input[name=c_others]"))
        me.type("30")
        page.locator("#preview .tally").wait_for(timeout=20_000)
        per_tap = (me.bytes - counting) / 8
        me.save()
        # 2 bouts 9 + 2 kings 9 + queen 3.5 + cavalier 2.5 + 2 jacks 3 + 30 × 0.5 = 42 ≥ 41: (25 + 1) × 2 = 52 × 3
        saved(page, "Anna +156")
        rows.append(("French Tarot garde counted by class in the table", me.taps, 12, me.bytes))
        browser.close()
    server.shutdown()
    print(f"{'hand':52} {'taps':>5} {'goal':>5} {'bytes':>8}")
    for name, taps, goal, size in rows:
        print(f"{name:52} {taps:5d} {goal:5d} {size:8d}")
    print(f"counting by class: {per_tap:.0f} bytes per tap on average (the preview's request and answer)")


if __name__ == "__main__":
    main()
