"""A saved hand end to end, against the server `make run` starts (`python -m scorekeeper serve`: waitress, 2 workers x 2
threads, SQLite WAL), the bare Flask app (bench/bare.py) under the very same command beside it:
the scorer's Save as htmx sends it and what comes back, one watcher's changed poll, an idle poll, on
Troccas tables of 10, 100, 1,000 and 1,990 hands (their saves reach the 2,000 a table holds), and saving 50 hands at once on as many tables or more.

Bytes are on the wire: the request and response heads as a phone's Chromium sends them, bodies Brotli
compressed as the server sends them to a browser. Times are the client's on 127.0.0.1 (server time plus
the loopback), median of RUNS saves.
"""
from __future__ import annotations

import random
import re
import shutil
import socket
import statistics
import tempfile
import time
import urllib.parse
from pathlib import Path

import brotli

from scorekeeper import create_app, store

from . import server
from .figures import last

SIZES = (10, 100, 1000, 1990)  # the last: its 7 saves reach the 2,000 hands a table may hold (MAX_HANDS)
RUNS = 7
UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/131.0.0.0 Mobile Safari/537.36")
CHROME = {"User-Agent": UA, "Accept-Encoding": "gzip, deflate, br, zstd", "Accept-Language": "de-CH,de;q=0.9,en;q=0.8",
          "sec-ch-ua": '"Chromium";v="131", "Not_A Brand";v="24"', "sec-ch-ua-mobile": "?1",
          "sec-ch-ua-platform": '"Android"', "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors",
          "Sec-Fetch-Dest": "empty"}


class Conn:
    """One keep-alive connection; each request returns (status, headers, body, bytes sent, bytes received, ms)."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.file = self.sock.makefile("rb")
        self.port = port

    def request(self, method: str, path: str, headers: dict, body: bytes = b""):
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: keep-alive"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        start = time.perf_counter()
        self.sock.sendall(raw)
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            line = self.file.readline()
            if not line:  # the server closed the connection: said, not waited on forever
                raise ConnectionError(f"{method} {path}: the connection was closed after {head!r}")
            head += line
        got = {}
        for line in head.decode("latin-1").split("\r\n")[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                got[k.strip().lower()] = v.strip()
        data = self.file.read(int(got.get("content-length", 0)))
        ms = (time.perf_counter() - start) * 1000
        if got.get("connection", "").lower() == "close":  # waitress closes after every 304: the next one reconnects
            self.close()
            self.__init__(self.port)
        return int(head.split(b" ", 2)[1]), got, data, len(raw), len(head) + len(data), ms

    def close(self):
        self.sock.close()


def fill(app, sizes, seed: str = "fill") -> dict:
    """Open a Troccas table per size holding that many hands, each its own (seeded): Anna with one of the others, either
    side's points, 0 to 72 (the points a hand's two teams share: docs/rules.md §1), as an evening has them.

    Return {size: (the table's id, its viewer link's key)}.
    """
    with app.app_context():
        first = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id
    app.test_client().post(f"/t/{first}/hands", data={"partner": "Cla", "side": "first", "points": "40"})
    out = {}
    with app.app_context():
        facts = store.list_hands(first)[0].facts
        assert facts == {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 40}, facts  # the form's
        hands = random.Random(seed)
        for n in sizes:
            table_id = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id
            for _ in range(n):
                partner = hands.choice(["Ben", "Cla", "Zoë"])
                teams = [["Anna", partner], [p for p in ("Ben", "Cla", "Zoë") if p != partner]]
                store.add_hand(table_id, {"teams": teams, "side": hands.choice([teams[0][0], teams[1][0]]),
                                          "points": hands.randint(0, 72)})
            out[n] = (table_id, store.share_links(table_id)[store.VIEWER])
    return out


def form_fields(page: str) -> dict:
    """Return the hidden fields of the new-hand form (CSRF, token, version, setup)."""
    form = re.search(r'<form id="hand-form".*?</form>', page, re.S).group(0)
    out = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        if name and "hidden" in tag and name.group(1) in ("csrf_token", "token", "version", "setup"):
            out[name.group(1)] = value.group(1) if value else ""
    return out


def etag_of(page: str) -> str:
    return '"' + re.search(r"""id="live"[^>]*data-etag='"([^"]+)"'""", page).group(1) + '"'


def open_page(conn: Conn, path: str):
    """GET a page as a phone does; return (its cookie, the page)."""
    status, head, body, *_ = conn.request("GET", path, {**CHROME, "Accept": "text/html", "Accept-Encoding": "identity"})
    assert status == 200, status
    return head.get("set-cookie", "").split(";", 1)[0], body.decode()


def measure(port: int, table_id: str, viewer: str, n: int) -> dict:
    """Save RUNS hands as the scorer's phone does, each followed by a watching phone's poll (the viewer link)."""
    path = f"/t/{table_id}"
    scorer, watcher = Conn(port), Conn(port)
    try:
        cookie, page = open_page(scorer, path)
        csrf = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
        fields = form_fields(page)
        board_shown = etag_of(page)  # the version the scorer's page shows: its Save says so (X-Board)
        watcher_cookie, watched = open_page(watcher, f"/v/{viewer}")
        # what the phone's service worker fetches at install: the offline page (with any cookie it sets)
        watcher_cookie = open_page(watcher, "/offline")[0] or watcher_cookie
        seen = etag_of(watched)
        board = f"/t/{viewer}/board"
        # what the page's poll sends (static/board.js drops htmx's HX-Current-URL and HX-Trigger from it), with the
        # cookie the phone was given, if any, and the page's address unless the page says no-referrer
        says_none = '<meta name="referrer" content="no-referrer">' in watched
        poll = {**CHROME, "Accept": "*/*", "HX-Request": "true",
                **({} if says_none else {"Referer": f"http://127.0.0.1:{port}/v/{viewer}"}),
                **({"Cookie": watcher_cookie} if watcher_cookie else {})}
        status, head, _b, idle_up, idle_down, _ms = watcher.request("GET", board, {**poll, "If-None-Match": seen})
        assert status == 304, status
        out = {"idle_up": idle_up, "idle_down": idle_down, "up": [], "down": [], "save_ms": [], "poll_up": [],
               "poll_down": [], "poll_ms": []}
        hands = random.Random(f"save{n}")
        for i in range(RUNS):
            # hands as an evening has them (seeded): each its partner, side and points, so the chart's lines, the
            # totals and the games differ from hand to hand as they do at a table (the same hand again compresses better)
            values = {**fields, "partner": hands.choice(["Ben", "Cla", "Zoë"]), "side": hands.choice(["first", "other"]),
                      "points": str(hands.randint(0, 72)), "action": "save"}
            body = urllib.parse.urlencode(values).encode()
            status, head, _answer, up, down, ms = scorer.request("POST", path + "/hands", {
                **CHROME, "Accept": "*/*", "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8",
                "Origin": f"http://127.0.0.1:{port}", "HX-Request": "true", "HX-Target": "hand-form",
                "HX-Trigger": "hand-form", "HX-Current-URL": f"http://127.0.0.1:{port}{path}", "X-CSRFToken": csrf,
                "X-Board": board_shown, "Cookie": cookie}, body)
            assert status == 200 and head.get("content-encoding") == "br", (status, head)
            assert b'id="said"' in brotli.decompress(_answer) and head.get("etag"), "the save was refused"
            out["up"].append(up), out["down"].append(down), out["save_ms"].append(ms)
            fields = {**fields, "token": f"bench{i}x{time.monotonic_ns()}"}  # the next form's own token
            board_shown = head["etag"].split(":")[0].rstrip('"') + '"'  # the page shows what the answer brought
            status, head, _b, up, down, ms = watcher.request("GET", board, {**poll, "If-None-Match": seen})
            assert status == 200, status
            seen = head["etag"].split(":")[0] + ('"' if not head["etag"].split(":")[0].endswith('"') else "")
            out["poll_up"].append(up), out["poll_down"].append(down), out["poll_ms"].append(ms)
        return {**{k: statistics.median(v) if isinstance(v, list) else v for k, v in out.items()},
                "down_max": max(out["down"]), "poll_down_max": max(out["poll_down"])}
    finally:
        scorer.close()
        watcher.close()


LUA = """
-- Each of wrk's threads saves on its own half of the tables, round robin, so that a table's saves come one
-- after another as from one phone; with X-Board, each Save says the version its page shows (the table's
-- version before it: this phone is the table's only scorer), as static/board.js does.
local threads = 0
function setup(thread)
  thread:set("part", threads)
  threads = threads + 1
end
local mine, saves, counter = {}, {}, 0
function init(args)
  for i, t in ipairs(tables) do
    if (i - 1) %% 2 == part then table.insert(mine, t); saves[t] = versions[i] end
  end
end
request = function()
  counter = counter + 1
  local t = mine[(counter %% #mine) + 1]
  local headers = {["Content-Type"] = "application/x-www-form-urlencoded", ["Cookie"] = "%(cookie)s",
                   ["HX-Request"] = "true", ["HX-Target"] = "hand-form", ["Accept-Encoding"] = "br"}
  if board then headers["X-Board"] = string.format(board, saves[t]) end
  saves[t] = saves[t] + 1
  local partner = ({"Ben", "Cla", "Zo%%C3%%AB"})[(counter %% 3) + 1]
  local side = ({"first", "other"})[(counter %% 2) + 1]
  local body = "csrf_token=%(csrf)s&token=" .. run .. part .. "x" .. counter .. "&partner=" .. partner .. "&side=" .. side
               .. "&points=" .. (counter * 29 %% 73)
  return wrk.format("POST", "/t/" .. t .. "/hands", headers, body)
end
"""


def load(tmp: Path, app, port: int, proc, bare) -> None:
    """Saving 50 hands at once through htmx, against the bare Flask app (bench/bare.py) under the same
    server, in interleaved slices (bench/server.py against_bare): as phones save (X-Board: only the new hand's row
    comes back), and the worst case (no X-Board: the whole list)."""
    if not shutil.which("wrk"):
        print("load: wrk not installed; skipped")
        return
    with app.app_context():
        ids = [store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id for _ in range(200)]
    import urllib.request
    resp = urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{ids[0]}")
    page = resp.read().decode()
    cookie = resp.headers["Set-Cookie"].split(";")[0]
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    shown = re.search(r"data-etag='\"v0(\.[^\"]+)\"'", page).group(1)  # "v<version>.<role>.<language>"
    runs = iter(range(1000))

    def saves(name, part, board, seconds):
        with app.app_context():  # each phone's page shows its table's version (X-Board) when it saves
            before = [store.get_table(t).version for t in part]
        run = f"{name}{next(runs)}"  # its tokens are its own: a token used before saves nothing
        script = tmp / f"save_{run}.lua"
        script.write_text("tables = {" + ",".join(f'"{i}"' for i in part) + "}\n"
                          + "versions = {" + ",".join(map(str, before)) + "}\n"
                          + (f"board = '{board}'\n" if board else "board = nil\n")
                          + f"run = '{run}'\n"
                          + LUA % {"csrf": csrf, "cookie": cookie})
        result = server.wrk(f"http://127.0.0.1:{port}/", str(script), seconds, proc)
        with app.app_context():  # every save moves its table's version on by one
            saved = sum(store.get_table(t).version for t in part) - sum(before)
        assert saved >= result["requests"], (name, saved, result["requests"])  # each answer a hand saved
        return result

    saves("warm", ids[150:], None, 5)  # the database file grows on the first saves (later ones are faster): not counted
    for name, part, board, what in (
            # 100 tables: each table's saves one after another, as from its one phone (with 50, a wrk thread's 25
            # connections could have two saves of one table on their way at once, which no phone does)
            ("phone", ids[:100], f'"v%d{shown}"', "as phones save (X-Board: the new row comes back)"),
            ("whole", ids[100:150], None, "without X-Board (the whole list comes back)")):
        ratio = server.against_bare(lambda seconds: saves(name, part, board, seconds), bare.port, bare)
        print(ratio.said(f"saving hands through htmx on {len(part)} tables, 50 at once, {what} (wrk, 50 connections)",
                         "save"))
        if name == "phone":  # issue 40's goal is a Save's as phones save
            print(f"  a bare request's CPU over a Save's, median: "
                  f"{statistics.median(1 / x for x in ratio.by_cpu):.3f} (goal >= 0.15; "
                  f"{last('bare / save by CPU', statistics.median(1 / x for x in ratio.by_cpu), 3)})")


SWAP_JS = """() => { window.swapped = new Promise(resolve => {
  const live = document.getElementById("live");
  let got = null;
  const on = (name, f) => document.body.addEventListener(name, f);
  on("htmx:beforeOnLoad", e => { if (e.detail.elt === live && e.detail.xhr.status === 200) got = performance.now(); });
  on("htmx:afterSettle", e => { if (got !== null) { resolve(performance.now() - got); got = null; } });
}); }"""


def swap_time(port: int, app, table_id: str, viewer: str) -> list[float]:
    """Time a changed poll's swap on a watching phone (Chromium at 4x CPU throttling, as a phone's CPU): from its
    answer arriving to the page settled, median of 5 hands saved on another phone."""
    from playwright.sync_api import sync_playwright

    from . import CHROMIUM_ARGS
    times = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"http://127.0.0.1:{port}/v/{viewer}")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        with app.app_context():
            facts = store.list_hands(table_id)[-1].facts
        for _ in range(5):
            page.evaluate(SWAP_JS)
            with app.app_context():
                store.add_hand(table_id, facts)
            times.append(page.evaluate("() => window.swapped"))
        browser.close()
    return times


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-save-"))
    url = f"sqlite:///{tmp / 'save.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url, "RATELIMIT_ENABLED": False,
                      "WTF_CSRF_ENABLED": False})
    tables = fill(app, SIZES)
    port = server.free_port()
    proc = server.start(tmp, url, "bench", port, server="waitress")  # as `make run` serves (scorekeeper/serve.py)
    bare = server.start(tmp, url, "bench", server.free_port(), app=server.BARE, server="waitress")
    try:
        for n, (table_id, viewer) in tables.items():
            m = measure(port, table_id, viewer, n)
            print(f"{n:>5} hands: a Save {m['up']:.0f} B up, {m['down']:.0f} B down ({last(f'save down {n}', m['down'])}),"
                  f" largest {m['down_max']} ({last(f'save down largest {n}', m['down_max'])}) (goal <= 2048 each),"
                  f" {m['save_ms']:.1f} ms; the watcher's changed poll {m['poll_up']:.0f} B up, {m['poll_down']:.0f} B"
                  f" down, largest {m['poll_down_max']} (goal <= 2048),"
                  f" {m['poll_ms']:.1f} ms; end to end {m['save_ms'] + m['poll_ms']:.1f} ms (goal <= 20 at 100)")
        print(f"a watcher's idle poll (a 304, HTTP/1.1, the headers a phone's Chromium sends, with any cookie the watch"
              f" page or the worker's /offline set, and a Referer unless the page says no-referrer): {m['idle_up']} B up (goal <= 500), {m['idle_down']} B down")
        table_id, viewer = tables[1000]
        times = swap_time(port, app, table_id, viewer)
        print(f"a changed poll's swap on a watching phone, 1,000-hand table, Chromium at 4x CPU throttling:"
              f" median {statistics.median(times):.0f} ms, slowest {max(times):.0f} ms of {len(times)} (goal < 100)")
        load(tmp, app, port, proc, bare)
    finally:
        server.stop(proc)
        server.stop(bare)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
