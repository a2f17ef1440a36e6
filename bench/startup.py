"""A new release's first phones: the time of each first request after the server has started, against the same
request once the server has answered a few (issue 29, item 6).

The app is served as production serves it (bench/server.py: `python -m scorekeeper serve --server gunicorn`, 2
workers). Nothing is asked until the server has started and gone quiet (its processes' CPU time no longer rising:
what start-up does is done); then, each on a new connection (gunicorn gives it to either worker), the first table
page (100 hands), the app's files a first visit fetches, a watcher's page, a Save, the count and home pages. Times are
the client's on 127.0.0.1; "later" is the median of the same request asked 5 more times.
"""
from __future__ import annotations

import http.client
import statistics
import tempfile
import time
import urllib.parse
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.web.assets import PRECACHE

from . import server
from .figures import last
from .save import CHROME, fill, form_fields

HANDS = 100


def quiet(proc, still: float = 1.0, limit: float = 120.0) -> float:
    """Wait until the server answers connections and its CPU time has risen by under 20 ms for `still` seconds;
    return the seconds since it was started."""
    began = proc.started
    end = time.monotonic() + limit
    last, since = None, time.monotonic()
    while time.monotonic() < end:
        try:
            http.client.HTTPConnection("127.0.0.1", proc.port, timeout=1).connect()
        except OSError:
            time.sleep(0.05)
            continue
        used = server.server_cpu(proc)
        if last is None or used - last > 0.02:
            last, since = used, time.monotonic()
        elif time.monotonic() - since >= still:
            return since - began
        time.sleep(0.1)
    raise RuntimeError("the server did not settle")


def ask(port: int, method: str, path: str, headers: dict, body: bytes = b"") -> tuple[int, float]:
    """One request on a new connection; return (status, ms to the whole answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started = time.perf_counter()
    conn.request(method, path, body or None, headers)
    answer = conn.getresponse()
    answer.read()
    ms = (time.perf_counter() - started) * 1000
    conn.close()
    return answer.status, ms


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    url = f"sqlite:///{tmp / 'startup.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False})
    table, viewer = fill(app, [HANDS])[HANDS]
    # another table of as many hands, of its own (the engine keeps each hand's score by its facts: not these)
    other = fill(app, [HANDS], seed="another table")[HANDS][0]
    with app.test_request_context():
        from flask import url_for
        files = [url_for("static", filename=f) for f in PRECACHE]
    app.extensions["store"].dispose()
    port = server.free_port()
    started = time.monotonic()
    proc = server.start(tmp, url, "bench", port, ready="")
    proc.started = started
    try:
        settled = quiet(proc)
        page = {**CHROME, "Accept": "text/html", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
        file = {**CHROME, "Accept": "*/*", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script"}
        # the scorer's page (its session and its form's fields), on a connection of its own
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        first_page = time.perf_counter()
        conn.request("GET", f"/t/{table}", headers={**page, "Accept-Encoding": "identity"})
        answer = conn.getresponse()
        html = answer.read().decode()
        times = {"the table page (100 hands)": [(time.perf_counter() - first_page) * 1000]}
        conn.close()
        cookie = answer.getheader("Set-Cookie", "").split(";")[0]
        fields = form_fields(html)
        asks = [(f"{f.split('?')[0].rsplit('/', 1)[-1]}", "GET", f, file, b"") for f in files]
        asks += [("a watcher's page", "GET", f"/v/{viewer}", page, b""), ("the count page", "GET", "/count/troccas",
                                                                          page, b""),
                 ("the home page", "GET", "/", page, b"")]
        for round_ in range(6):
            if round_:
                times["the table page (100 hands)"].append(ask(port, "GET", f"/t/{table}", page)[1])
            for name, method, path, headers, body in asks:
                status, ms = ask(port, method, path, headers, body)
                assert status == 200, (path, status)
                times.setdefault(name, []).append(ms)
            body = urllib.parse.urlencode({**fields, "token": f"startup{round_}", "partner": "Cla", "side": "first",
                                           "points": str(40 + round_), "action": "save"}).encode()
            status, ms = ask(port, "POST", f"/t/{table}/hands", {
                **CHROME, "Cookie": cookie, "HX-Request": "true", "HX-Target": "hand-form",
                "Content-Type": "application/x-www-form-urlencoded"}, body)
            assert status == 200, status
            times.setdefault("a Save", []).append(ms)
        # a table this server has not shown yet, once warm: its evening is built from its hands, as the first table's
        # was; what the first page costs beyond it is the start-up's
        status, other_first = ask(port, "GET", f"/t/{other}", page)
        assert status == 200, status
    finally:
        server.stop(proc)
    print(f"start-up (`serve --server gunicorn`, 2 workers) until its processes were quiet: {settled:.1f} s")
    print("the first request of each after start-up, each on a new connection, ms (later: median of the next 5):")
    for name, ms in times.items():
        print(f"  {name}: first {ms[0]:.0f} ms, later {statistics.median(ms[1:]):.0f} ms")
    table = times["the table page (100 hands)"]
    print(f"  another 100-hand table's page, the first time it is asked, once the server is warm: {other_first:.0f} ms")
    print(f"  the table page, first over later: {table[0] / statistics.median(table[1:]):.1f}x (the later ones' evening"
          f" is kept); first after start-up over another table's first once warm: {table[0] / other_first:.1f}x (issue"
          f" 40's goal: at most 2x; {last('first table page / warm', table[0] / other_first, 1)})")
    print(f"  all of the above, first time: {sum(ms[0] for ms in times.values()):.0f} ms, later"
          f" {sum(statistics.median(ms[1:]) for ms in times.values()):.0f} ms")


if __name__ == "__main__":
    main()
