"""Benchmarks of counting: the page's first load, one tap, and POST /api/v1/count under gunicorn.

Figures are printed, never asserted. The machine is shared and noisy, so the load test sets the count endpoint
against the bare Flask app under the same server, in interleaved slices, as ratios (bench/server.py).
"""
from __future__ import annotations

import json
import shutil
import statistics
import tempfile
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


def load(url: str, tmp: Path, proc, bare) -> None:
    """POST /api/v1/count against the bare Flask app under the same server (bench/server.py against_bare)."""
    check = urllib.request.Request(f"{url}/api/v1/count", COUNT_BODY.encode(), {"Content-Type": "application/json"})
    answer = json.loads(urllib.request.urlopen(check).read())
    assert answer["points"] + answer["rest"]["points"] == 72, answer  # the same arithmetic as the tests
    if not shutil.which("wrk"):
        print("load: wrk not installed (apt-get install -y --no-install-recommends wrk); skipped")
        return
    script = tmp / "count.lua"
    script.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                      f"wrk.body = {json.dumps(COUNT_BODY)}\n")
    ratio = server.against_bare(lambda seconds: server.wrk(f"{url}/api/v1/count", str(script), seconds, proc),
                                bare.port, bare)
    print(ratio.said(f"POST /api/v1/count, a {len(PILE)}-card Troccas pile (wrk, 50 connections)", "count"))


def main() -> None:
    """Run the counting benchmarks and print the figures."""
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        proc = server.start(Path(tmp), database, "bench-secret", server.free_port())
        bare = server.start(Path(tmp), database, "bench-secret", server.free_port(), app=server.BARE)
        url = f"http://127.0.0.1:{proc.port}"
        try:
            page_weight(url)
            load(url, Path(tmp), proc, bare)
        finally:
            server.stop(proc)
            server.stop(bare)


if __name__ == "__main__":
    main()
