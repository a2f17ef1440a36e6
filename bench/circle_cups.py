"""A circle's poll with its season of cups (issue 38 item 9): a circle of 10 evenings of 100 hands and 3 cups of 3
rounds of 16 players (4 tables of 4, 16 games each), played but for the last hand of one table.

Server times are medians of 300 polls (50 for the changed one) (the test client, one process): the poll answered 304 (nothing changed: what
every watching phone asks every 2 s), and the poll after one hand saved at a cup table of the circle (its answer:
the board made again, the season's ranking with it). Bytes are Brotli-compressed as the app sends them.
"""
from __future__ import annotations

import re
import statistics
import tempfile
import time
from datetime import date

import brotli

from scorekeeper import create_app, store
from bench.circle import season

PLAYERS = [f"P{n:02d}" for n in range(1, 17)]


def cups(app, circle_id: str, count: int = 3, rounds: int = 3, games: int = 16) -> list:
    """Store `count` Troccas cups of the circle, every round drawn, played and closed; return the last round's
    tables of the last cup."""
    placed = []
    with app.app_context():
        for c in range(count):
            key = store.create_tournament(f"Cup {c + 1}", date(2026, 3 + c, 1), "troccas", {}, rounds, games, c + 1,
                                          PLAYERS, circle_id=circle_id)
            cup = store.find_tournament(key)
            for r in range(1, rounds + 1):
                store.draw_next_round(cup.id)
                placed = [t for t in store.cup_tables(cup.id) if t.round == r]
                for t in placed:
                    left = 1 if (c, r, t.number) == (count - 1, rounds, 1) else 0  # one hand to save in the bench
                    seated = list(store.get_table(t.table_id).players)
                    for i in range(games - left):
                        store.add_hand(t.table_id, {"teams": [[seated[0], seated[2]], [seated[1], seated[3]]],
                                                    "side": seated[0], "points": 20 + (i * 7 + r) % 33})
                if r < rounds:
                    store.close_round(cup.id, r)
            if c < count - 1:
                store.close_round(cup.id, rounds)
    return placed


def polled(client, poll: str, tag: str, times: int = 50) -> tuple[float, int, bytes]:
    got, status, body = [], 0, b""
    for _ in range(times):
        began = time.perf_counter()
        r = client.get(poll, headers={"If-None-Match": tag})
        got.append((time.perf_counter() - began) * 1000)
        status, body = r.status_code, r.get_data()
    return statistics.median(got), status, body


def main() -> None:
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/c.sqlite",
                      "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    key = season(app, 10, 100)
    with app.app_context():
        circle = store.find_circle(key)
    last = cups(app, circle.id)
    page = client.get(f"/c/{key}").get_data(as_text=True)
    live = re.search(r'<div id="live" class="live" hx-get="([^"]+)"[^>]*data-etag=\'([^\']+)\'', page)
    poll, tag = live.group(1).replace("&amp;", "&"), live.group(2)
    same_ms, same_status, _ = polled(client, poll, tag, 300)
    with app.app_context():
        seated = list(store.get_table(last[0].table_id).players)
        store.add_hand(last[0].table_id, {"teams": [[seated[0], seated[2]], [seated[1], seated[3]]],
                                          "side": seated[0], "points": 50})
    changed_ms, changed_status, body = polled(client, poll, tag)
    print(f"{'poll':>28} {'status':>6} {'ms':>7} {'KB':>6}")
    print(f"{'nothing changed':>28} {same_status:6d} {same_ms:7.2f} {0:6.1f}")
    print(f"{'a hand at a cup table':>28} {changed_status:6d} {changed_ms:7.2f} "
          f"{len(brotli.compress(body)) / 1024:6.1f}")


if __name__ == "__main__":
    main()
