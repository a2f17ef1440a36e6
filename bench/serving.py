"""Which server `serve` uses (docs/deploy.md): waitress (the default) and gunicorn, each set up by
scorekeeper.serve.run with 2 workers x 2 threads (waitress: one process, 4 threads), on SQLite WAL.

For each: saving hands with the plain form post on 50 tables at once (wrk, 50 connections, 10 s), against a
bare Flask app (bench/bare.py: one route, "ok") under the very same server setup, by requests and by server CPU;
and a normal Save beside 20 phones that send their requests slowly (half-sent, never finished).
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from scorekeeper import create_app, store

from .server import NO_LIMITS, free_port
from .tables import LUA, wrk

SERVERS = ("waitress", "gunicorn")


def start(kind: str, server: str, tmp: Path, env: dict) -> subprocess.Popen:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "bench.serve_app", kind, server, str(port)], cwd=tmp,
                            env={**os.environ, **env, **NO_LIMITS}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    proc.port = port
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return proc
        except OSError:
            time.sleep(0.1)
    stop(proc)
    raise RuntimeError(f"{kind} under {server} did not start")


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    proc.wait(20)


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


def measure(server: str, tmp: Path) -> None:
    db = tmp / f"{server}.sqlite"
    env = {"DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": "bench", "INSTANCE_PATH": str(tmp / server)}
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": env["DATABASE_URL"]})
    with app.app_context():
        ids = [store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id for _ in range(50)]
    bare = start("bare", server, tmp, env)
    try:
        wrk(f"http://127.0.0.1:{bare.port}/", None, 3)  # warm up
        before = wrk(f"http://127.0.0.1:{bare.port}/", None, 5, bare)
    finally:
        stop(bare)
    proc = start("scorekeeper", server, tmp, env)
    try:
        base = f"http://127.0.0.1:{proc.port}"
        resp = urllib.request.urlopen(f"{base}/t/{ids[0]}")
        page = resp.read().decode()
        cookie = resp.headers["Set-Cookie"].split(";")[0]
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        script = tmp / f"save-{server}.lua"
        script.write_text("tables = {" + ",".join(f'"{i}"' for i in ids) + "}\n" + LUA % {"csrf": csrf, "cookie": cookie})
        wrk(base + "/", str(script), 3)  # warm up
        save = wrk(base + "/", str(script), 10, proc)
        beside_slow = slow_save(proc.port, ids[1], cookie, csrf)
    finally:
        stop(proc)
    bare_again = start("bare", server, tmp, env)  # the machine drifts: the baseline before and after
    try:
        after = wrk(f"http://127.0.0.1:{bare_again.port}/", None, 5, bare_again)
    finally:
        stop(bare_again)
    rps, cpu = (before["rps"] + after["rps"]) / 2, (before["cpu_ms"] + after["cpu_ms"]) / 2
    print(f"{server}: saving on 50 tables {save['rps']:.0f} req/s (p50 {save['p50']:.1f} ms, p99 {save['p99']:.1f} ms,"
          f" {save['bad']} errors), {save['cpu_ms']:.2f} ms server CPU a save; the bare Flask app under the same"
          f" server {before['rps']:.0f} and {after['rps']:.0f} req/s before and after, {cpu:.2f} ms CPU a request;"
          f" saving runs at {save['rps'] / rps:.3f} x the bare app's rate, {cpu / save['cpu_ms']:.3f} x by CPU;"
          f" a Save beside 20 half-sent requests: "
          + (f"{beside_slow:.0f} ms (median of 5)" if beside_slow is not None else "no answer within 10 s"))


def main() -> None:
    if not shutil.which("wrk"):
        print("serving: wrk not installed (apt-get install -y --no-install-recommends wrk); skipped")
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench-serving-"))
    try:
        for server in SERVERS:
            measure(server, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
