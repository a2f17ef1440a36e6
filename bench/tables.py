"""Tables benchmarks: taps per hand (scripted Chromium), page weight, a saved hand's round trip, and
saving on 50 tables at once under gunicorn with SQLite (wrk), beside the app's own /api/v1/ping (its cheapest
request, not a bare endpoint: bench/serving.py sets saving against a bare Flask app under the same server)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
import urllib.request
from pathlib import Path

from werkzeug.serving import make_server

from scorekeeper import create_app, store

from . import CHROMIUM_ARGS, server

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


LUA = """
local n = 0
local counter = 0
function setup(thread) n = n + 1; thread:set("id", n) end
request = function()
  counter = counter + 1
  local t = tables[(counter %% #tables) + 1]
  local body = "csrf_token=%(csrf)s&token=w" .. id .. "-" .. counter .. "&partner=Cla&side=first&points=" .. (counter %% 73)
  return wrk.format("POST", "/t/" .. t .. "/hands",
    {["Content-Type"] = "application/x-www-form-urlencoded", ["Cookie"] = "%(cookie)s"}, body)
end
"""


def server_cpu(proc) -> float:
    """Return the CPU seconds the gunicorn server `proc` and its workers have used so far (Linux /proc)."""
    total, tick = 0, os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        pid, ppid = int(stat.parent.name), int(fields[1])
        if proc.pid in (pid, ppid):
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def wrk(url: str, script: str | None, seconds: int = 10, proc=None) -> dict:
    """Run wrk with 50 connections; return requests/s, p50 and p99 in ms, and non-2xx/3xx count; with the
    server's `proc`, also its CPU milliseconds per request (steadier than requests/s on a shared machine)."""
    cmd = ["wrk", "-t", "2", "-c", "50", "-d", f"{seconds}s", "--latency", "--timeout", "10s"]
    if script:
        cmd += ["-s", script]
    cpu = server_cpu(proc) if proc is not None else None
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"(\d+) requests in", out).group(1))
    cpu_ms = (server_cpu(proc) - cpu) * 1000 / max(count, 1) if proc is not None else None

    def ms(label):
        m = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)", out)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "p50": ms("50"), "p99": ms("99"),
            "bad": int(bad.group(1)) if bad else 0, "cpu_ms": cpu_ms, "requests": count}


def load(tmp: Path) -> None:
    if not shutil.which("wrk"):
        print("load: wrk not installed (apt-get install -y --no-install-recommends wrk); skipped")
        return
    db = tmp / "load.sqlite"
    url = f"sqlite:///{db}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    with app.app_context():
        ids = [store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id for _ in range(50)]
    port = server.free_port()
    proc = server.start(tmp, url, "bench", port)
    try:
        base = f"http://127.0.0.1:{port}"
        resp = urllib.request.urlopen(f"{base}/t/{ids[0]}")
        page = resp.read().decode()
        cookie = resp.headers["Set-Cookie"].split(";")[0]
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        script = tmp / "save.lua"
        script.write_text("tables = {" + ",".join(f'"{i}"' for i in ids) + "}\n" + LUA % {"csrf": csrf, "cookie": cookie})
        wrk(base + "/api/v1/ping", None, 3)  # the workers' first seconds are slow: not counted
        # this machine's speed drifts (up to 2x within a minute): the bare endpoint just before and after
        before = wrk(base + "/api/v1/ping", None, 5, proc)
        save = wrk(base + "/", str(script), 10, proc)
        after = wrk(base + "/api/v1/ping", None, 5, proc)
        ping_rps, ping_cpu = (before["rps"] + after["rps"]) / 2, (before["cpu_ms"] + after["cpu_ms"]) / 2
        with app.app_context():
            saved = sum(len(store.list_hands(i)) for i in ids)
        print(f"saving hands with the plain form post (answered 303, as a phone without JS or the offline queue posts; the page it loads next not counted) on"
              f" 50 tables at once (gunicorn 2 workers x 2 threads, SQLite WAL, wrk 50 connections, 10 s):"
              f" {save['rps']:.0f} req/s, p50 {save['p50']:.1f} ms, p99 {save['p99']:.1f} ms,"
              f" {saved} hands stored, {save['bad']} errors; server CPU {save['cpu_ms']:.2f} ms a save")
        print(f"the app's own GET /api/v1/ping (not a bare endpoint: bench.serving has one), same server, just"
              f" before and after: {before['rps']:.0f} and {after['rps']:.0f} req/s, {ping_cpu:.2f} ms CPU each;"
              f" saving runs at {save['rps'] / ping_rps:.2f} x the ping's rate ({ping_cpu / save['cpu_ms']:.2f} x by"
              f" server CPU)")
    finally:
        server.stop(proc)


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-tables-"))
    try:
        base, server, _app = serve(tmp)
        try:
            taps_and_weight(base)
        finally:
            server.shutdown()
        load(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
