"""Benchmarks of counting: the page's first load, one tap, and POST /api/v1/count under gunicorn.

Figures are printed, never asserted. The machine is shared and noisy, so the load test reports the
count endpoint beside a bare endpoint (GET /api/v1/ping) of the same app in the same run, as a ratio.
"""
from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from bench import CHROMIUM_ARGS
from bench import server

ROOT = Path(__file__).resolve().parent.parent
# A Troccas team's pile of 38 cards (4k+2): the API's typical work.
PILE = ["T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12", "T11", "T10", "T1", "FOOL",
        "SW-K", "SW-Q", "SW-C", "SW-J", "SW-10", "SW-9", "SW-8", "SW-7", "SW-6", "SW-5",
        "CU-K", "CU-Q", "CU-C", "CU-J", "CU-1", "CU-2", "CU-3", "CU-4", "CU-5", "CU-6", "CO-K", "CO-Q", "CO-C", "CO-J"]
COUNT_BODY = json.dumps({"game": "troccas", "cards": PILE})
SECONDS = 8


def page_weight(url: str) -> None:
    """Load the counting page once in Chromium at phone size; print bytes on the wire and requests; then taps."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        seen = []
        page.on("requestfinished", lambda request: seen.append(request))
        page.goto(f"{url}/count/troccas", wait_until="networkidle")
        body = sum(r.sizes()["responseBodySize"] for r in seen)
        headers = sum(r.sizes()["responseHeadersSize"] for r in seen)
        print(f"counting page first load: {len(seen)} requests, {body / 1024:.1f} KB compressed bodies "
              f"+ {headers / 1024:.1f} KB headers = {(body + headers) / 1024:.1f} KB on the wire (goal ≤ 40 KB)")
        for r in seen:
            resp = r.response()
            print(f"  {r.url.replace(url, '')}: {r.sizes()['responseBodySize']} B body "
                  f"({resp.headers.get('content-encoding', 'identity') if resp else '-'})")
        taps, sizes, down, server = ["SW-K", "CU-Q", "BA-J", "CO-5", "T21", "T5", "FOOL", "SW-2", "CU-C", "CO-9",
                               "BA-K", "T1", "T3", "SW-J", "CU-7", "CO-Q", "BA-10", "T12", "T17", "SW-Q"], [], [], []
        for code in taps:
            seen.clear()
            with page.expect_request_finished(lambda r: r.method == "POST"):
                page.locator(f"label:has(input[value='{code}'])").tap()
            request = seen[-1]
            s = request.sizes()
            down.append(s["responseBodySize"] + s["responseHeadersSize"])
            sizes.append(s["responseBodySize"] + s["responseHeadersSize"] + s["requestBodySize"] + s["requestHeadersSize"])
            timing = request.timing
            server.append(timing["responseStart"] - timing["requestStart"])
        points = page.locator("#result .score strong").inner_text()
        print(f"one tap ({len(taps)} taps, pile ends at {points} points): response median {statistics.median(down)} B, "
              f"max {max(down)} B; request + response median {statistics.median(sizes)} B, max {max(sizes)} B "
              f"(goal ≤ 3 KB); server time median {statistics.median(server):.1f} ms, "
              f"max {max(server):.1f} ms")
        browser.close()


def wrk(url: str, path: str, script: Path | None) -> dict:
    """Run wrk for SECONDS against one endpoint; return requests/s and p50/p99 in ms."""
    cmd = ["wrk", "-t2", "-c16", f"-d{SECONDS}s", "--latency"] + (["-s", str(script)] if script else []) + [url + path]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {m[0]: to_ms(m[1]) for m in re.findall(r"\s(50|99)%\s+([\d.]+\w+)", out)}
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50": lat["50"], "p99": lat["99"], "errors": int(errors.group(1)) if errors else 0}


def to_ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def python_load(url: str, path: str, body: str | None) -> dict:
    """A plain Python load loop (16 threads) when wrk is not installed."""
    import http.client
    from urllib.parse import urlsplit

    host = urlsplit(url)
    latencies, errors, stop = [], [0], time.monotonic() + SECONDS

    def worker():
        conn = http.client.HTTPConnection(host.hostname, host.port)
        while time.monotonic() < stop:
            t = time.perf_counter()
            if body:
                conn.request("POST", path, body, {"Content-Type": "application/json"})
            else:
                conn.request("GET", path)
            answer = conn.getresponse()
            answer.read()
            latencies.append((time.perf_counter() - t) * 1000)
            errors[0] += answer.status != 200

    threads = [threading.Thread(target=worker) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies.sort()
    return {"rps": len(latencies) / SECONDS, "p50": latencies[len(latencies) // 2],
            "p99": latencies[int(len(latencies) * 0.99)], "errors": errors[0]}


def load(url: str, tmp: Path) -> None:
    """Compare POST /api/v1/count with GET /api/v1/ping under the same gunicorn."""
    check = urllib.request.Request(f"{url}/api/v1/count", COUNT_BODY.encode(), {"Content-Type": "application/json"})
    answer = json.loads(urllib.request.urlopen(check).read())
    assert answer["points"] + answer["rest"]["points"] == 72, answer  # the same arithmetic as the tests
    if shutil.which("wrk"):
        script = tmp / "count.lua"
        script.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                          f"wrk.body = {json.dumps(COUNT_BODY)}\n")
        tool = "wrk -t2 -c16"
        ping, count = wrk(url, "/api/v1/ping", None), wrk(url, "/api/v1/count", script)
    else:
        tool = "a Python loop, 16 threads"
        ping, count = python_load(url, "/api/v1/ping", None), python_load(url, "/api/v1/count", COUNT_BODY)
    print(f"load ({tool}, {SECONDS} s each, gunicorn 2 workers; a {len(PILE)}-card Troccas pile):")
    for name, r in (("GET /api/v1/ping (bare)", ping), ("POST /api/v1/count", count)):
        print(f"  {name}: {r['rps']:.0f} req/s, p50 {r['p50']:.2f} ms, p99 {r['p99']:.2f} ms, non-2xx {r['errors']}")
    print(f"  count / bare: throughput {count['rps'] / ping['rps']:.2f}×, p50 {count['p50'] / ping['p50']:.2f}×, "
          f"p99 {count['p99'] / ping['p99']:.2f}×")


def main() -> None:
    """Run the counting benchmarks and print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        port = server.free_port()
        proc = server.start(Path(tmp), f"sqlite:///{Path(tmp) / 'bench.sqlite'}", "bench-secret", port)
        url = f"http://127.0.0.1:{port}"
        try:
            page_weight(url)
            load(url, Path(tmp))
        finally:
            server.stop(proc)


if __name__ == "__main__":
    main()
