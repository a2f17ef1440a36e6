"""A circle's page as its season grows (issue 26): 10 evenings against 100 evenings of 100 hands each.

Server time is the median of 7 GETs of the circle's page after a first one (the test client, one process): what a
phone opening the circle costs once its evenings were seen. "after a save" is the page right after one hand was
saved in one evening (that evening alone is scored again). Bytes are Brotli-compressed as the app sends them.
A changed poll is the watching phone's answer after that save. Goals: 100 evenings within 1.5x the server time of
10; the page at most 10 KB compressed; a changed poll at most 2 KB.
"""
from __future__ import annotations

import re
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone

import brotli

from scorekeeper import create_app, store

from . import figures

HAND = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna"}
SEATS = ("Anna", "Ben", "Cla", "Zoë")


def season(app, evenings: int, hands: int) -> str:
    """Store a circle of `evenings` Troccas evenings of `hands` hands each; return its scorer key."""
    start = datetime(2026, 1, 1, 20, tzinfo=timezone.utc)
    with app.app_context():
        key = store.create_circle(f"{evenings} evenings")
        circle = store.find_circle(key)
        for n in range(evenings):
            when = start + timedelta(days=7 * n)
            table = store.TableInfo("", "troccas", SEATS, {}, 5, "CHF", 0, hands, when)
            played = [store.Hand(0, i + 1, {**HAND, "points": 20 + (i * 7 + n) % 33}, 1, when, when, SEATS[i % 4],
                                 None) for i in range(hands)]
            store.join_circle(store.import_table(table, played).id, circle.id)
    return key


def timed(client, url: str) -> tuple[float, str]:
    times, page = [], ""
    for _ in range(7):
        began = time.perf_counter()
        page = client.get(url).get_data(as_text=True)
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), page


def main() -> None:
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/c.sqlite",
                      "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    print(f"{'evenings':>9} {'hands':>6} {'first ms':>9} {'page ms':>8} {'after a save ms':>16} {'page KB':>8} "
          f"{'poll KB':>8}")
    base = None
    for evenings, hands in ((10, 100), (100, 100)):
        key = season(app, evenings, hands)
        url = f"/c/{key}"
        began = time.perf_counter()
        page = client.get(url).get_data(as_text=True)
        first = (time.perf_counter() - began) * 1000
        page_ms, page = timed(client, url)
        live = re.search(r'<div id="live" class="live" hx-get="([^"]+)"[^>]*data-etag=\'([^\']+)\'', page)
        poll, tag = live.group(1).replace("&amp;", "&"), live.group(2)
        last = re.findall(r'href="(/t/[^"]+)"[ >]', page)[0]  # the newest evening, by its scorer link
        client.post(last + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": f"s{evenings}"})
        changed = client.get(poll, headers={"If-None-Match": tag}).get_data()
        began = time.perf_counter()
        client.get(url)
        after = (time.perf_counter() - began) * 1000
        size = len(brotli.compress(page.encode()))
        print(f"{evenings:9d} {hands:6d} {first:9.0f} {page_ms:8.1f} {after:16.1f} {size / 1024:8.1f} "
              f"{len(brotli.compress(changed)) / 1024:8.1f}")
        base = base or page_ms
    print(f"100 evenings / 10 evenings, page server time: {page_ms / base:.2f}x (goal: at most 1.5x;"
          f" {figures.last('circle page 100 / 10', page_ms / base, 2)})")


if __name__ == "__main__":
    main()
