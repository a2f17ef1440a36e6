"""A hand's whole cost on the scorer's phone (issue 40): a Troccas table of 10, then of 100 hands, opened under the
service worker (kept), then hands typed through the form as a player does (the partner, the points: the preview;
Save), in a scripted Chromium at 390x844 through bench/pwa.py's counting proxy (every byte both ways, headers
included, the worker's own fetches included, the scoreboard's polls apart), until the phone's copy of the page holds
the hand and nothing has moved for 0.6 s. Goal (issue 40, "done when"): at most 3 KB up and 4 KB down a hand in all
(preview, Save, kept copy). Served as `make run` serves it (waitress), compressed as served.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from scorekeeper import create_app, store

from . import CHROMIUM_ARGS, server
from .figures import last
from .pwa import PHONE, PLAYERS, Proxy

SIZES, TYPED = (10, 100), 5


def main() -> None:
    for hands in SIZES:
        measure(hands)


def measure(hands: int) -> None:
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="bench-hand-"))
    url = f"sqlite:///{tmp / 'hand.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    with app.app_context():
        table = store.create_table("troccas", PLAYERS, {}, 5, "CHF", 0)
        for k in range(hands):
            store.add_hand(table.id, {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 30 + k})
    app.extensions["store"].dispose()
    port = server.free_port()
    proc = server.start(tmp, url, "bench", port, server="waitress")
    proxy = Proxy(port)
    page_url = f"http://127.0.0.1:{proxy.port}/t/{table.id}"
    kept = "async ([u, n]) => { const r = await (await caches.open('sk-pages')).match(u); " \
           "return !!r && (await r.text()).includes('data-hands=\"' + n + '\"'); }"
    per_hand = []

    def wait_kept(page, n: int) -> None:
        """Wait until the phone's copy of the page holds `n` hands (page.evaluate awaits the promise;
        wait_for_function would take the promise itself for a true value)."""
        end = time.monotonic() + 30
        while not page.evaluate(kept, [page_url, n]):
            if time.monotonic() > end:
                raise RuntimeError(f"the phone's copy never held {n} hands")
            time.sleep(0.1)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            context = browser.new_context(**PHONE)
            page = context.new_page()
            page.goto(page_url)
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
            page.reload()  # under the worker: the page kept
            wait_kept(page, hands)
            page.locator("html[data-later=ran]").wait_for(state="attached", timeout=30_000)
            proxy.settle()
            for k in range(TYPED):
                proxy.reset()
                page.locator("fieldset", has=page.locator("legend", has_text="Anna plays with")) \
                    .get_by_text("Cla", exact=True).click()
                page.fill("input[name=points]", str(40 + k))
                page.locator("#preview .sentence").wait_for(timeout=20_000)
                page.locator("button.save").click()
                wait_kept(page, hands + k + 1)
                proxy.settle()
                with proxy.lock:
                    up = sum(e["up"] for e in proxy.exchanges)
                    down = sum(e["down"] for e in proxy.exchanges)
                    asked = [f'{e["target"].split("?")[0].rsplit("/", 1)[-1]} {e["up"]}/{e["down"]} B'
                             for e in proxy.exchanges]
                per_hand.append((up, down, asked))
            browser.close()
    finally:
        server.stop(proc)
    up = statistics.median(h[0] for h in per_hand)
    down = statistics.median(h[1] for h in per_hand)
    print(f"a hand typed on a {hands}-hand Troccas table under the worker, median of {TYPED} (every byte both ways,"
          f" headers included, polls apart): {up / 1024:.1f} KB up (goal <= 3; {last(f'hand up KB {hands}', up / 1024, 1)}),"
          f" {down / 1024:.1f} KB down (goal <= 4; {last(f'hand down KB {hands}', down / 1024, 1)});"
          f" the last hand's requests (up/down): {', '.join(per_hand[-1][2])}")


if __name__ == "__main__":
    main()
