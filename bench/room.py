"""A cup night's room (issue 37): 150 phones that looked once keep their connections open, quiet (HTTP/1.1
keep-alive, as a browser keeps them), while a new phone comes every 2 s, opens a table's page and saves a hand.

Served as `make run` serves it (`python -m scorekeeper serve`: waitress, 2 workers x 2 threads, SQLite), first with
serve's connection limit (CONNECTIONS, 1000), then with waitress's own default (100, as before issue 37:
CONNECTIONS=98, waitress counting its listening socket and wake-up pipe too). Says how many new phones failed
(no answer within 5 s, or not a 303) and the median and slowest Save, and page, of those that got in.
"""
from __future__ import annotations

import http.client
import os
import re
import shutil
import statistics
import tempfile
import time
import urllib.parse
from pathlib import Path

from scorekeeper import create_app, store

from . import server

QUIET_PHONES = 150
EVERY = 2.0  # seconds between two new phones
NEW_PHONES = 25  # 50 s: the quiet connections stay open all along (serve closes one after 60 s of silence)
WAITS = 5  # seconds a new phone waits for an answer before it counts as failed


def quiet(port: int, n: int) -> list[http.client.HTTPConnection]:
    """`n` connections that asked once and stay open; fewer if the server stops taking them."""
    out = []
    for _ in range(n):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAITS)
        try:
            conn.request("GET", "/healthz")
            conn.getresponse().read()
        except OSError:
            conn.close()
            break
        out.append(conn)
    return out


def new_phone(port: int, table: str, n: int) -> tuple[float, float] | None:
    """A phone that comes in: the table's page (its cookie and form), then a Save; (page ms, save ms) or None."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAITS)
        started = time.perf_counter()
        conn.request("GET", f"/t/{table}")
        page = conn.getresponse()
        text = page.read().decode()
        paged = time.perf_counter()
        cookie = (page.getheader("Set-Cookie") or "").split(";")[0]
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', text).group(1)
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAITS)  # a phone's next request: a new one
        body = urllib.parse.urlencode({"csrf_token": csrf, "token": f"room-{port}-{n}", "partner": "Cla",
                                       "side": "first", "points": "40"})
        saving = time.perf_counter()
        conn.request("POST", f"/t/{table}/hands", body, {"Cookie": cookie,
                                                        "Content-Type": "application/x-www-form-urlencoded"})
        answer = conn.getresponse()
        answer.read()
        saved = time.perf_counter()
        conn.close()
    except (OSError, AttributeError):  # no answer in time, or a page without its form
        return None
    if page.status != 200 or answer.status != 303:
        return None
    return (paged - started) * 1000, (saved - saving) * 1000


def measure(tmp: Path, connections: int | None, phones: int) -> str:
    url = f"sqlite:///{tmp / f'room-{connections}.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id
    app.extensions["store"].dispose()
    if connections is not None:
        os.environ["CONNECTIONS"] = str(connections)
    try:
        proc = server.start(tmp, url, "bench", server.free_port(), server="waitress")
    finally:
        os.environ.pop("CONNECTIONS", None)
    held = []
    try:
        held = quiet(proc.port, QUIET_PHONES)
        results = []
        start = time.monotonic()
        for n in range(phones):
            time.sleep(max(0.0, start + n * EVERY - time.monotonic()))
            results.append(new_phone(proc.port, table, n))
    finally:
        for conn in held:
            conn.close()
        server.stop(proc)
    got = [r for r in results if r is not None]
    said = (f"CONNECTIONS={connections or 'default'}: {len(held)} of {QUIET_PHONES} quiet phones held open; "
            f"{phones - len(got)} of {phones} new phones failed (no answer within {WAITS} s)")
    if got:
        pages, saves = [p for p, _s in got], [s for _p, s in got]
        said += (f"; Save median {statistics.median(saves):.0f} ms, slowest {max(saves):.0f} ms; "
                 f"page median {statistics.median(pages):.0f} ms, slowest {max(pages):.0f} ms")
    return said


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-room-"))
    try:
        print("room: " + measure(tmp, None, NEW_PHONES))
        print("room, waitress's own limit as before: " + measure(tmp, 98, 5))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
