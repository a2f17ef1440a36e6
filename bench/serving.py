"""Which server `serve` uses (docs/deploy.md): waitress (the default) and gunicorn, each set up by
scorekeeper.serve.run with 2 workers x 2 threads (waitress: one process, 4 threads), on SQLite WAL.

For each: saving hands with the plain form post (answered 303, as a phone without JS or the offline queue posts;
the page it loads next not counted) on 50 tables at once (wrk, 50 connections), against the bare Flask app
(bench/bare.py) under the very same server, in interleaved slices, by requests and by server CPU
(bench/server.py); and a normal Save beside 20 phones that send their requests slowly (half-sent, never finished).
"""
from __future__ import annotations

import re
import shutil
import socket
import statistics
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from scorekeeper import create_app, store

from . import server

SERVERS = ("waitress", "gunicorn")
LUA = """
local n = 0
local counter = 0
function setup(thread) n = n + 1; thread:set("id", n) end
request = function()
  counter = counter + 1
  local t = tables[(counter %% #tables) + 1]
  local body = "csrf_token=%(csrf)s&token=" .. run .. "w" .. id .. "-" .. counter .. "&partner=Cla&side=first&points=" .. (counter %% 73)
  return wrk.format("POST", "/t/" .. t .. "/hands",
    {["Content-Type"] = "application/x-www-form-urlencoded", ["Cookie"] = "%(cookie)s"}, body)
end
"""


def slow_save(port: int, table: str, cookie: str, csrf: str, runs: int = 5) -> float | None:
    """Median ms of a Save while 20 connections hold half-sent requests; None if it timed out (10 s)."""
    slow = []
    try:
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(f"POST /t/{table}/hands HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-"
                      f"urlencoded\r\nContent-Length: 400\r\n\r\npoints=4".encode())
            slow.append(s)
        times = []
        for n in range(runs):
            body = f"csrf_token={csrf}&token=slow-{port}-{n}&partner=Cla&side=first&points=40".encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/t/{table}/hands", data=body, method="POST",
                                             headers={"Cookie": cookie})
            start_at = time.perf_counter()
            try:
                urllib.request.urlopen(request, timeout=10).read()
            except urllib.error.HTTPError:
                pass  # the 303's page: answered
            except OSError:
                return None
            times.append((time.perf_counter() - start_at) * 1000)
        return statistics.median(times)
    finally:
        for s in slow:
            s.close()


def measure(kind: str, tmp: Path) -> None:
    url = f"sqlite:///{tmp / f'{kind}.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    with app.app_context():
        ids = [store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id for _ in range(50)]
    app.extensions["store"].dispose()
    proc = server.start(tmp, url, "bench", server.free_port(), server=kind)
    bare = server.start(tmp, url, "bench", server.free_port(), app=server.BARE, server=kind)
    try:
        base = f"http://127.0.0.1:{proc.port}"
        resp = urllib.request.urlopen(f"{base}/t/{ids[0]}")
        page = resp.read().decode()
        cookie = resp.headers["Set-Cookie"].split(";")[0]
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        runs = iter(range(1000))

        def saves(seconds):
            run = next(runs)  # each run's tokens are its own: a token used before saves nothing (answered all the same)
            script = tmp / f"save-{kind}-{run}.lua"
            script.write_text("tables = {" + ",".join(f'"{i}"' for i in ids) + "}\n" + f"run = 'r{run}'\n"
                              + LUA % {"csrf": csrf, "cookie": cookie})
            return server.wrk(base + "/", str(script), seconds, proc)
        warm = saves(3)  # the database file grows on the first saves: not counted
        ratio = server.against_bare(saves, bare.port, bare)
        beside_slow = slow_save(proc.port, ids[1], cookie, csrf)
    finally:
        server.stop(proc)
        server.stop(bare)
    with app.app_context():
        saved = sum(len(store.list_hands(i)) for i in ids)
    posted = warm["requests"] + sum(r["requests"] for r in ratio.runs) + 5  # and slow_save's 5
    print(ratio.said(f"{kind}: saving hands with the plain form post on 50 tables at once (wrk, 50 connections;"
                     f" {saved} hands stored of {posted} posted)", "save"))
    print(f"{kind}: a Save beside 20 half-sent requests: "
          + (f"{beside_slow:.0f} ms (median of 5)" if beside_slow is not None else "no answer within 10 s"))


def main() -> None:
    if not shutil.which("wrk"):
        print("serving: wrk not installed (apt-get install -y --no-install-recommends wrk); skipped")
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench-serving-"))
    try:
        for kind in SERVERS:
            measure(kind, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
