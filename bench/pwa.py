"""On the home screen and offline (issue 14), in a scripted Chromium at 390x844 against gunicorn (2 workers x
2 threads, SQLite WAL; compressed as served: pages by Flask-Compress at brotli 5, scripts, style sheets and
the worker once at brotli 11, web/precompressed.py):

- bytes on the wire for a first and a repeat visit to the home, count and table (20 hands) pages, before the
  page is usable (what it asked for before its load event) and in all (issue 29: usable at most 30 KB; a repeat
  visit a 304 or the worker's), counted by a TCP proxy between Chromium and gunicorn: every byte both
  ways, HTTP headers included, the service worker's own fetches included; the scoreboard's 2 s polls
  are counted apart (they are the live board, not the visit);
- what the service worker keeps (bytes in Cache Storage, by cache);
- the time from the network coming back (Playwright's set_offline(False)) to the queued hands being on
  the server (3 hands entered offline through the form; 50 hands waiting), read from the server itself.
"""
from __future__ import annotations

import json
import socket
import statistics
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from scorekeeper import create_app, store

from . import CHROMIUM_ARGS, server

PLAYERS = ["Anna", "Ben", "Cla", "Zoë"]
HANDS = 20
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


class Proxy:
    """A TCP proxy that counts the bytes of each HTTP exchange, the scoreboard polls apart."""

    def __init__(self, upstream: int):
        self.upstream, self.lock = upstream, threading.Lock()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.reset()
        threading.Thread(target=self._accept, daemon=True).start()

    def reset(self):
        with self.lock:
            self.visit = self.poll = self.requests = self.polls = 0
            self.polled = []  # each poll: {"up", "down"} bytes
            self.by_path = {}
            self.exchanges = []  # each request and its answer, in the order asked: {"target", "bytes"}

    def _accept(self):
        while True:
            client, _ = self.sock.accept()
            up = socket.create_connection(("127.0.0.1", self.upstream))
            state = {"poll": False}
            threading.Thread(target=self._pump, args=(client, up, state, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(up, client, state, False), daemon=True).start()

    def _pump(self, src, dst, state, asking):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                with self.lock:
                    if asking and data[:4] in (b"GET ", b"POST", b"HEAD"):
                        line = data.split(b"\r\n", 1)[0].decode("latin-1")
                        state["poll"] = "/board " in line
                        state["path"] = line.split(" ")[1].split("?")[0]
                        state["exchange"] = {"target": line.split(" ")[1], "bytes": 0, "up": 0, "down": 0}
                        self.requests += 1
                        self.polls += state["poll"]
                        (self.polled if state["poll"] else self.exchanges).append(state["exchange"])
                    if "exchange" in state:
                        state["exchange"]["up" if asking else "down"] += len(data)
                    if state["poll"]:
                        self.poll += len(data)
                    else:
                        self.visit += len(data)
                        path = state.get("path", "?")
                        self.by_path[path] = self.by_path.get(path, 0) + len(data)
                        if "exchange" in state:
                            state["exchange"]["bytes"] += len(data)
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def settle(self, quiet: float = 0.6, limit: float = 15.0):
        """Wait until no visit byte has moved for `quiet` seconds (polls aside); return the visit's bytes."""
        end, last, since = time.monotonic() + limit, -1, time.monotonic()
        while time.monotonic() < end:
            with self.lock:
                now = self.visit
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
            time.sleep(0.05)
        return last


def visit(page, proxy: Proxy, url: str, ready=None) -> dict:
    """Open `url` in `page` (a phone's tab) through the proxy; return the visit's bytes before the page was usable
    (the first answer to each request the page made before its load event: the document, its style sheet and
    scripts), and in all (until nothing moved for 0.6 s: the worker's fetches too, the polls apart), the requests, and
    the bytes by file. `ready(page)`: what to wait for before counting the whole visit."""
    asked, loaded = set(), []

    def on_request(request):
        if not loaded and request.service_worker is None:  # the page's own, not its worker's
            parts = urllib.parse.urlsplit(request.url)
            asked.add(parts.path + ("?" + parts.query if parts.query else ""))
    proxy.reset()
    page.on("request", on_request)
    page.once("load", lambda _page: loaded.append(True))
    try:
        page.goto(url)
        if ready:
            ready(page)
        whole = proxy.settle()
    finally:
        page.remove_listener("request", on_request)
    usable, counted = 0, set()
    with proxy.lock:
        for exchange in proxy.exchanges:
            if exchange["target"] in asked and exchange["target"] not in counted:
                counted.add(exchange["target"])
                usable += exchange["bytes"]
        return {"usable": usable, "all": whole, "requests": proxy.requests - proxy.polls,
                "parts": sorted(proxy.by_path.items(), key=lambda kv: -kv[1])}


def wait_kept(page, limit: float = 30.0) -> None:
    """Wait until the phone keeps the page it shows. page.evaluate awaits the promise; wait_for_function would take
    an async function's promise for a true value and return at once."""
    end = time.monotonic() + limit
    while not page.evaluate("async (u) => !!(await (await caches.open('sk-pages')).match(u))", page.url):
        if time.monotonic() > end:
            raise RuntimeError("the page was never kept")
        time.sleep(0.1)


def hands_on_server(port: int, key: str) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{key}/export.json") as r:
        return len(json.load(r)["hands"])


def wait_until(port: int, key: str, count: int, limit: float = 120.0) -> float:
    start = time.perf_counter()
    while hands_on_server(port, key) < count:
        if time.perf_counter() - start > limit:
            raise RuntimeError("the queued hands did not arrive")
        time.sleep(0.01)
    return time.perf_counter() - start


def offline_hand(page, points: int):
    page.locator("fieldset", has=page.locator("legend", has_text="Anna plays with")).get_by_text("Cla", exact=True).click()
    page.fill("input[name=points]", str(points))
    page.locator("#preview", has_text="offline").wait_for(timeout=20_000)
    before = page.locator("#waiting li").count()
    page.locator("button.save").click()
    page.locator("#waiting li").nth(before).wait_for(timeout=20_000)


def short(path: str) -> str:
    path = path.split("?")[0]
    if path.startswith("/count/") and path.endswith("/aid"):
        return "the counting aid's cards"
    return "table page" if path.startswith("/t/") else path.rsplit("/", 1)[-1] or "/"


def kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def main() -> None:
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="bench-pwa-"))
    url = f"sqlite:///{tmp / 'pwa.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    with app.app_context():
        big = store.create_table("troccas", PLAYERS, {}, 5, "CHF", 0)
        for k in range(HANDS):
            store.add_hand(big.id, {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 30 + k})
        small = store.create_table("troccas", PLAYERS, {}, 5, "CHF", 0)
        many = store.create_table("troccas", PLAYERS, {}, 5, "CHF", 0)
    app.extensions["store"].dispose()
    port = server.free_port()
    proc = server.start(tmp, url, "bench", port)
    proxy = Proxy(port)
    base = f"http://127.0.0.1:{proxy.port}"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            controlled = "() => navigator.serviceWorker.controller !== null"
            visits = {}
            for name, path in (("home", "/"), ("count", "/count/troccas"), ("table", f"/t/{big.id}")):
                # a phone that never opened the app: its first visit, then the same page again (under the worker)
                context = browser.new_context(**PHONE)
                page = context.new_page()
                first = visit(page, proxy, base + path, lambda p: p.wait_for_function(controlled, timeout=30_000))
                repeat = visit(page, proxy, base + path)
                visits[name] = [("first visit", first), ("repeat visit", repeat)]
                if name != "table":
                    context.close()
            wait_kept(page)
            # opened again later, the table unchanged: the worker asks with the kept page's tag, a 304
            again = visit(page, proxy, f"{base}/t/{big.id}",
                          lambda p: p.wait_for_selector("html[data-renewed]", timeout=30_000))
            visits["table"].append(("opened again, unchanged", again))
            kept = page.evaluate("""async () => { const out = {};
              for (const name of await caches.keys()) {
                const cache = await caches.open(name); let bytes = 0, n = 0;
                for (const r of await cache.keys()) { bytes += (await (await cache.match(r)).blob()).size; n++; }
                out[name.startsWith('sk-static-') ? 'app files' : 'pages'] = [n, bytes];
              }
              return out; }""")
            proxy.reset()
            page.wait_for_timeout(10_000)
            idle = proxy.poll / max(proxy.polls, 1)

            # a watcher's phone: the watch link opened, its worker installed, then the board polled while idle
            with app.app_context():
                viewer = store.share_links(big.id)[store.VIEWER]
            watching = browser.new_context(**PHONE)
            watcher = watching.new_page()
            watcher.goto(f"{base}/v/{viewer}")
            watcher.wait_for_function(controlled, timeout=30_000)
            proxy.settle()
            proxy.reset()
            watcher.wait_for_timeout(10_000)
            with proxy.lock:
                # answered, and this phone's (the table's page, open in another tab, polls too)
                polled = [p for p in proxy.polled if p["down"] and p["target"] == f"/t/{viewer}/board"]
            watched = (statistics.median(p["up"] for p in polled), statistics.median(p["down"] for p in polled),
                       len(polled), [c["name"] for c in watching.cookies()])
            watching.close()

            # three hands entered offline through the form, then the network back
            page.goto(f"{base}/t/{small.id}")
            wait_kept(page)
            context.set_offline(True)
            page.reload()
            for points in (30, 40, 50):
                offline_hand(page, points)
            context.set_offline(False)
            three = wait_until(port, small.id, 3)

            # fifty waiting hands (the form's post, each with its own token), then the network back
            page.goto(f"{base}/t/{many.id}")
            wait_kept(page)
            context.set_offline(True)
            offline_hand(page, 10)
            page.evaluate("""() => {
              const list = JSON.parse(localStorage.getItem('scorekeeper.outbox'));
              for (let k = 1; k < 50; k++) {
                const c = Object.assign({}, list[0]), body = new URLSearchParams(c.body);
                body.set('points', String(10 + k % 60)); body.set('token', 'bench-' + k);
                c.id = 'bench-' + k; c.body = body.toString(); list.push(c);
              }
              localStorage.setItem('scorekeeper.outbox', JSON.stringify(list));
            }""")
            page.reload()
            page.locator("#net", has_text="50 changes").wait_for(timeout=20_000)
            context.set_offline(False)
            fifty = wait_until(port, many.id, 50)
            browser.close()
    finally:
        server.stop(proc)

    print(f"home, count (Troccas) and table ({HANDS} hands) pages, each on a phone that never opened the app:"
          " Chromium at 390x844 through a counting proxy (every byte both ways, headers included, the worker's own"
          " fetches included, polls apart), gunicorn as `serve` starts it, compressed as served. 'Usable': the answers"
          " to what the page asked before its load event (document, style sheet, scripts); 'in all': until nothing"
          " moved for 0.6 s")
    notes = {"first visit": "goal: usable <= 30 KB", "repeat visit": "the first under the worker: files from its"
             " cache; goal: a 304 or the worker, not the page in full", "opened again, unchanged": "the worker asks"
             " with the kept page's tag: a 304"}
    for name, seen in visits.items():
        for title, v in seen:
            print(f"  {name}, {title}: usable {kb(v['usable'])}, in all {kb(v['all'])} in {v['requests']} requests"
                  f" ({notes[title]})")
            print("      " + ", ".join(f"{short(p)} {kb(n)}" for p, n in v["parts"]))
    print(f"  live board while idle: {idle:.0f} bytes per poll (every 2 s), counted apart")
    print(f"  a watcher's phone (the watch link opened, its worker installed), the board idle: {watched[0]:.0f} B up"
          f" (goal <= 500), {watched[1]:.0f} B down a poll (median of {watched[2]} in 10 s); cookies it holds:"
          f" {', '.join(watched[3]) or 'none'}")
    for name, (n, size) in sorted(kept.items()):
        print(f"  the service worker keeps {name}: {n} entries, {kb(size)} (uncompressed)")
    print(f"  network back -> 3 hands entered offline on the server: {three * 1000:.0f} ms")
    print(f"  network back -> 50 waiting hands on the server: {fifty * 1000:.0f} ms"
          f" ({fifty / 50 * 1000:.0f} ms per hand, sent one after the other, in order)")


if __name__ == "__main__":
    main()
