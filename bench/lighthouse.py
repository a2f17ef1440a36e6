"""Lighthouse (12.8.2, from npm), mobile (its default: a mid-range phone, 4x CPU slowdown, slow 4G, simulated), on the
home, count (Troccas) and table (20 hands) pages, served as `serve` serves them (gunicorn): each category's score and
Total Blocking Time, the median of 3 runs (issue 29: performance >= 98 on the table page in every run, TBT < 100 ms;
SEO 90+ everywhere). Every run is a first visit (a fresh browser profile).

Lighthouse comes through npx (`npx --yes lighthouse@12.8.2`: fetched from the npm registry once, then from npm's
cache), with Debian's Chromium (CHROME_PATH). Where neither can run (no Node, no Chromium, no registry and nothing
cached), this says so and is skipped: make bench goes on.
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from scorekeeper import create_app, store

from . import server

VERSION = "12.8.2"
RUNS = 3
CHROME = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FLAGS = "--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-sync"


def command() -> list[str] | None:
    """Return the command that runs Lighthouse here, or None (and why, printed) if it can't."""
    if not shutil.which("npx"):
        print("lighthouse: skipped: Node's npx is not installed (apt-get install nodejs npm)")
        return None
    if not Path(CHROME).exists():
        print(f"lighthouse: skipped: no Chromium at {CHROME} (make chromium)")
        return None
    run = ["npx", "--yes", f"lighthouse@{VERSION}"]
    try:
        found = subprocess.run([*run, "--version"], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        found = None
    if found is None or found.returncode != 0 or VERSION not in found.stdout:
        print(f"lighthouse: skipped: npx could not run lighthouse@{VERSION} (no npm registry and nothing cached?)")
        return None
    return run


def audit(run: list[str], url: str, out: Path) -> dict:
    """Run Lighthouse once on url; return {category: score 0-100, "tbt": ms, "lcp": ms}."""
    subprocess.run([*run, url, "--quiet", "--output=json", f"--output-path={out}", f"--chrome-flags={FLAGS}",
                    f"--only-categories={','.join(CATEGORIES)}"], check=True, timeout=300,
                   env={**os.environ, "CHROME_PATH": CHROME}, capture_output=True)
    report = json.loads(out.read_text())
    got = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    got["tbt"] = report["audits"]["total-blocking-time"]["numericValue"]
    got["lcp"] = report["audits"]["largest-contentful-paint"]["numericValue"]
    return got


def main() -> None:
    run = command()
    if run is None:
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench-lighthouse-"))
    url = f"sqlite:///{tmp / 'lighthouse.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        for k in range(20):
            store.add_hand(table.id, {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 30 + k})
    app.extensions["store"].dispose()
    proc = server.start(tmp, url, "bench", server.free_port())
    base = f"http://127.0.0.1:{proc.port}"
    try:
        pages = {"home": "/", "count (Troccas)": "/count/troccas", "table (20 hands)": f"/t/{table.id}"}
        results = {name: [audit(run, base + path, tmp / "report.json") for _ in range(RUNS)]
                   for name, path in pages.items()}
    finally:
        server.stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"Lighthouse {VERSION}, mobile (simulated slow 4G, 4x CPU slowdown), Chromium headless, gunicorn as `serve`"
          f" starts it; median of {RUNS} runs (each run's figure in brackets):")
    for name, runs in results.items():
        said = []
        for figure in (*CATEGORIES, "tbt", "lcp"):
            each = "/".join(f"{r[figure]:.0f}" for r in runs)
            median = statistics.median(r[figure] for r in runs)
            label = {"tbt": "Total Blocking Time", "lcp": "Largest Contentful Paint"}.get(figure, figure)
            said.append(f"{label} {median:.0f}{' ms' if figure in ('tbt', 'lcp') else ''} [{each}]")
        print(f"  {name}: " + ", ".join(said))


if __name__ == "__main__":
    main()
