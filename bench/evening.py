"""The evening's story on the table page: what the chart and the running totals cost at 10 and 100 hands.

Bytes are Brotli-compressed as the app sends them (flask-compress); the chart's share is the page with
its <section id="chart"> minus the page without it. Server time is the median of 5 GETs (test client).
Goal (issue 9): the chart adds at most 3 KB compressed at 100 hands.
"""
from __future__ import annotations

import re
import statistics
import tempfile
import time

import brotli

from scorekeeper import create_app, store

HAND = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna"}


def main() -> None:
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/e.sqlite",
                      "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    print(f"{'hands':>6} {'page KB':>8} {'chart KB':>9} {'after-it KB':>12} {'server ms':>10}")
    for n in (10, 100):
        with app.app_context():
            table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
            for i in range(n):
                store.add_hand(table.id, {**HAND, "points": 20 + (i * 7) % 33}, f"e{n}-{i}")
        times = []
        for _ in range(5):
            start = time.perf_counter()
            page = client.get(f"/t/{table.id}").get_data(as_text=True)
            times.append((time.perf_counter() - start) * 1000)
        size = len(brotli.compress(page.encode()))
        no_chart = re.sub(r'<section id="chart".*?</section>', "", page, flags=re.S)
        no_after = re.sub(r'<p class="after">.*?</p>', "", page, flags=re.S)
        chart = size - len(brotli.compress(no_chart.encode()))
        after = size - len(brotli.compress(no_after.encode()))
        print(f"{n:6d} {size / 1024:8.1f} {chart / 1024:9.2f} {after / 1024:12.2f} {statistics.median(times):10.1f}")


if __name__ == "__main__":
    main()
