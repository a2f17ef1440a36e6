"""Live sharing benchmark: 100 phones watching 20 tables while hands are entered, against gunicorn
(2 workers x 2 threads, SQLite WAL). Each watcher polls its table's scoreboard every 2 s with
If-None-Match, as htmx does on the viewer page; each table's scorer saves a hand every 10 s.

The issue asks for a minute; the run is LIVE_BENCH_SECONDS long (30 s by default, to keep `make bench`
short: every figure is a rate or a per-request size, so the length only changes the sample).
The client is plain asyncio over keep-alive connections, sending the headers a phone's Chromium sends.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from scorekeeper import create_app, store

from . import server

TABLES, WATCHERS, POLL, HAND_EVERY = 20, 100, 2.0, 10.0
PLAYERS = ["Anna", "Ben", "Cla", "Zoë"]
LANGUAGE = "de-CH,de;q=0.9,en;q=0.8"  # the page and its polls agree (the ETag names the language)
UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/131.0.0.0 Mobile Safari/537.36")


class Conn:
    """One keep-alive HTTP/1.1 connection that counts the bytes it sends and receives."""

    def __init__(self, port: int):
        self.port, self.reader, self.writer, self.reconnects = port, None, None, 0

    async def request(self, method: str, path: str, headers: dict, body: bytes = b""):
        """Send one request; return (status, headers, body, bytes sent, bytes received)."""
        reused = self.writer is not None
        try:
            return await self._request(method, path, headers, body)
        except (asyncio.IncompleteReadError, ConnectionError):
            if not reused:
                raise
            self.writer = None  # the server closed the idle keep-alive connection: open a new one, as browsers do
            self.reconnects += 1
            return await self._request(method, path, headers, body)

    async def _request(self, method, path, headers, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: keep-alive"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        self.writer.write(raw)
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        got = {}
        for line in head.decode("latin-1").split("\r\n")[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                got[k.strip().lower()] = v.strip()
        data = await self.reader.readexactly(int(got.get("content-length", 0)))
        if got.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        return status, got, data, len(raw), len(head) + len(data)


def browser_headers(referer_path: str | None, cookie: str, csrf: str | None) -> dict:
    """The headers Chromium sends with the viewer page's poll: no CSRF token on a GET, and no HX-Current-URL or
    HX-Trigger (static/board.js drops them); the page's address unless the page says no-referrer (`referer_path`
    None: see referer()); the cookie the phone was given, if any."""
    return {"User-Agent": UA, "Accept": "*/*", "Accept-Encoding": "gzip, deflate, br, zstd",
            "Accept-Language": LANGUAGE, "HX-Request": "true",
            **({"Referer": f"http://127.0.0.1{referer_path}"} if referer_path else {}),
            **({"Cookie": cookie} if cookie else {}),
            "sec-ch-ua": '"Chromium";v="131", "Not_A Brand";v="24"', "sec-ch-ua-mobile": "?1",
            "sec-ch-ua-platform": '"Android"', "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors",
            "Sec-Fetch-Dest": "empty"}


def referer(path: str, page: str) -> str | None:
    """The Referer a page's requests carry: its address, unless it says no-referrer (as a browser reads it)."""
    return None if '<meta name="referrer" content="no-referrer">' in page else path


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))] if values else float("nan")


async def open_page(conn: Conn, path: str):
    """GET a page like a browser; return (cookie, csrf token, ETag to poll with, page)."""
    status, headers, body, _s, _r = await conn.request("GET", path, {"User-Agent": UA, "Accept": "text/html",
                                                                  "Accept-Language": LANGUAGE})
    assert status == 200, (path, status)
    page = body.decode()
    cookie = headers.get("set-cookie", "").split(";", 1)[0]
    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
    csrf = found.group(1) if found else None  # a viewer's page has none (it makes no session)
    etag = re.search(r"""id="live"[^>]*data-etag='"([^"]+)"'""", page).group(1)
    return cookie, csrf, f'"{etag}"', page


async def worker_install(conn: Conn) -> str:
    """Fetch what the phone's service worker fetches at install besides the app's files (the offline page); return
    the cookie it set, if any."""
    status, headers, _body, _s, _r = await conn.request("GET", "/offline", {"User-Agent": UA, "Accept": "text/html",
                                                                          "Accept-Language": LANGUAGE})
    assert status == 200, status
    return headers.get("set-cookie", "").split(";", 1)[0]


def idle_polls(port: int, proc, bare, viewer: str, tmp: Path) -> None:
    """Watching phones while nothing changes: wrk sends the poll a watcher's page sends (the headers a phone's
    Chromium sends, If-None-Match, any cookie the watch page or the worker's install gave it), answered 304, against
    the bare Flask app under the same server (bench/server.py against_bare). A phone polls every POLL seconds, so a
    core answers 1000 / (its CPU ms a poll) x POLL phones."""
    if not shutil.which("wrk"):
        print("idle polls: wrk not installed; skipped")
        return

    async def phone():
        conn = Conn(port)
        cookie, csrf, etag, page = await open_page(conn, viewer)
        cookie = await worker_install(conn) or cookie
        headers = {**browser_headers(referer(viewer, page), cookie, csrf), "If-None-Match": etag}
        status, *_ = await conn.request("GET", viewer.replace("/v/", "/t/") + "/board", headers)
        assert status == 304, status
        return headers
    headers = asyncio.run(phone())
    script = tmp / "idle.lua"
    script.write_text("".join(f"wrk.headers[{json.dumps(k)}] = {json.dumps(v)}\n" for k, v in headers.items()))
    url = f"http://127.0.0.1:{port}" + viewer.replace("/v/", "/t/") + "/board"
    ratio = server.against_bare(lambda seconds: server.wrk(url, str(script), seconds, proc), bare.port, bare)
    print("  " + ratio.said("idle polls, every one a 304 (wrk, 50 connections)", "poll"))
    app_ms = statistics.median(r["cpu_ms"] for r in ratio.runs)
    bare_ms = statistics.median(r["cpu_ms"] for r in ratio.bares)
    print(f"  watching phones per core on idle polls (one every {POLL:.0f} s; 1000 / server CPU ms a poll x {POLL:.0f}):"
          f" {1000 / app_ms * POLL:.0f} (goal >= 1,000); the bare app's requests at that rate: {1000 / bare_ms * POLL:.0f}"
          f" per core")


async def run(port: int, tables: list, seconds: float) -> dict:
    stats = {"poll": [], "poll304": 0, "poll200": 0, "save": [], "idle_sent": [], "idle_recv": [], "errors": 0,
             "seen": [], "lat304": [], "reconnects": 0}
    saved_at = {}  # (table, version) -> when the save that made it returned
    opened, everyone = asyncio.Event(), [0]
    stop = float("inf")

    async def ready():
        """Wait until every phone has loaded its page, so the figures are the steady state, not the opening rush."""
        nonlocal stop
        everyone[0] += 1
        if everyone[0] == WATCHERS + TABLES:
            stop = time.monotonic() + seconds
            opened.set()
        await opened.wait()

    async def watcher(i: int):
        table = tables[i % TABLES]
        conn = Conn(port)
        cookie, csrf, etag, page = await open_page(conn, table["viewer"])
        cookie = await worker_install(conn) or cookie
        headers = browser_headers(referer(table["viewer"], page), cookie, csrf)
        poll = table["viewer"].replace("/v/", "/t/") + "/board"
        await ready()
        await asyncio.sleep(random.uniform(0, POLL))
        while time.monotonic() < stop:
            t0 = time.monotonic()
            status, got, _body, sent, recv = await conn.request("GET", poll, {**headers, "If-None-Match": etag})
            t1 = time.monotonic()
            stats["poll"].append(t1 - t0)
            if status == 304:
                if "head304" not in stats:
                    stats["head304"] = got
                stats["poll304"] += 1
                stats["lat304"].append(t1 - t0)
                stats["idle_sent"].append(sent)
                stats["idle_recv"].append(recv)
            elif status == 200:
                stats["poll200"] += 1
                etag = got["etag"]
                version = int(re.match(r'"v(\d+)\.', etag).group(1))
                if (table["id"], version) in saved_at:
                    stats["seen"].append(t1 - saved_at[(table["id"], version)])
            else:
                stats["errors"] += 1
            await asyncio.sleep(max(0.0, POLL - (time.monotonic() - t0)))
        stats["reconnects"] += conn.reconnects

    async def scorer(k: int):
        table = tables[k]
        conn = Conn(port)
        cookie, csrf, _etag, _page = await open_page(conn, table["scorer"])
        await ready()
        await asyncio.sleep(random.uniform(0, HAND_EVERY))
        n = 0
        while time.monotonic() < stop - 3:  # the last hands get 3 s to reach every watcher
            n += 1
            form = (f"csrf_token={csrf}&partner=Cla&side=first&points={30 + n % 20}"
                    f"&token={secrets.token_urlsafe(16)}&action=save").encode()
            t0 = time.monotonic()
            status, _h, _b, _s, _r = await conn.request(
                "POST", table["scorer"] + "/hands",
                {"User-Agent": UA, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}, form)
            t1 = time.monotonic()
            if status != 303:
                stats["errors"] += 1
            else:
                stats["save"].append(t1 - t0)
                saved_at[(table["id"], n)] = t1  # each save moves the table's version on by one
            await asyncio.sleep(max(0.0, HAND_EVERY - (t1 - t0)))

    await asyncio.gather(*(watcher(i) for i in range(WATCHERS)), *(scorer(k) for k in range(TABLES)))
    stats["elapsed"] = seconds
    return stats


def report(s: dict) -> None:
    requests = len(s["poll"]) + len(s["save"])
    sent, recv = statistics.mean(s["idle_sent"]), statistics.mean(s["idle_recv"])
    print(f"{WATCHERS} phones watching {TABLES} tables for {s['elapsed']:.0f} s (scaled down from a minute),"
          f" a hand every {HAND_EVERY:.0f} s per table; gunicorn 2 workers x 2 threads, SQLite WAL")
    print(f"  {requests / s['elapsed']:.0f} requests/s: {len(s['poll'])} polls ({s['poll304']} x 304,"
          f" {s['poll200']} x 200), {len(s['save'])} hands saved, {s['errors']} errors;"
          f" {s['reconnects']} polls found their keep-alive connection closed (gunicorn's keep-alive, 5 s under serve)")
    print(f"  poll latency p50 {pct(s['poll'], 50) * 1000:.1f} ms, p99 {pct(s['poll'], 99) * 1000:.1f} ms"
          f" (the 304s alone: p50 {pct(s['lat304'], 50) * 1000:.1f} ms, p99 {pct(s['lat304'], 99) * 1000:.1f} ms);"
          f" save p50 {pct(s['save'], 50) * 1000:.1f} ms, p99 {pct(s['save'], 99) * 1000:.1f} ms")
    print(f"  a saved hand reached the watchers after p50 {pct(s['seen'], 50):.2f} s, p99 {pct(s['seen'], 99):.2f} s,"
          f" max {max(s['seen'], default=float('nan')):.2f} s ({len(s['seen'])} sightings)")
    print(f"  bytes per idle poll (304): {recv:.0f} received + {sent:.0f} sent (Chromium-like headers);"
          f" per idle minute at one poll / {POLL:.0f} s: {60 / POLL * recv / 1000:.1f} KB down +"
          f" {60 / POLL * sent / 1000:.1f} KB up")
    print("  a 304 as served: " + "; ".join(f"{k}: {v}" for k, v in s["head304"].items()))


def main() -> None:
    seconds = float(os.environ.get("LIVE_BENCH_SECONDS", "30"))
    tmp = Path(tempfile.mkdtemp(prefix="bench-live-"))
    url = f"sqlite:///{tmp / 'live.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    tables = []
    with app.app_context():
        for _ in range(TABLES):
            t = store.create_table("troccas", PLAYERS, {}, 1, "CHF", 0)
            keys = store.share_links(t.id)
            tables.append({"id": t.id, "viewer": f"/v/{keys['viewer']}", "scorer": f"/t/{keys['scorer']}"})
    with app.app_context():
        quiet = store.create_table("troccas", PLAYERS, {}, 1, "CHF", 0)  # no one scores on it: every poll a 304
        quiet_viewer = f"/v/{store.share_links(quiet.id)['viewer']}"
    app.extensions["store"].dispose()
    port = server.free_port()
    proc = server.start(tmp, url, "bench", port)
    try:
        report(asyncio.run(run(port, tables, seconds)))
        bare = server.start(tmp, url, "bench", server.free_port(), app=server.BARE)
        try:
            idle_polls(port, proc, bare, quiet_viewer, tmp)
        finally:
            server.stop(bare)
    finally:
        server.stop(proc)


if __name__ == "__main__":
    main()
