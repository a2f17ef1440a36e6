"""A cup night of 120 players (issue 38): 30 tables of Troccas saving at once, with the room's phones polling the
cup's info page and the projector, on the server `make run` starts (`python -m scorekeeper serve`: waitress, SQLite);
then the director's page and the standings at round 1 against 3 rounds x 16 games.

The load: one thread a table saves its round's 16 hands as a phone does (the table's page for its cookie and form,
then each Save, an idempotency token each), all 30 at once; meanwhile 120 phones poll the watch page's board and the
projector's every 2 s with the version they show (If-None-Match), as static/board.js does (a thread a phone).
Each phone polls at its own moment in the 2 s (a seeded draw), as phones whose pages were opened at different
moments do; then once more with all 121 in lockstep, in the same millisecond every 2 s (the worst case: their
burst queues ahead of the Saves). Reported: errors (no answer within 5 s, or not the status expected), and the
Saves' median, p99 and slowest (goal: no error, p99 under 1 s).

The pages: the director's page and the standings (the watch page's poll answer: the board a phone gets when a table
saves) at round 1 drawn (no hand yet), round 1 played (16 games a table: the baseline) and after 3 rounds x 16 games
(1,440 hands), each the median of 7 GETs after
a first (the test client, one process; each rendered anew, not the answer kept for the room's phones), and its
size Brotli-compressed as the app sends it. Goals: within 1.5x the time at round 1 played, at most 15 KB
compressed.
"""
from __future__ import annotations

import http.client
import random
import re
import shutil
import statistics
import tempfile
import threading
import time
import urllib.parse
from datetime import date
from pathlib import Path

import brotli

from scorekeeper import create_app, store
from scorekeeper.engine.games import get_game, resolve_rules

from . import server

PLAYERS = 120
GAMES = 16
ROUNDS = 3
WATCHERS = 120  # phones on the info page; the projector polls too
PER_THREAD = 1  # a thread a phone, as each phone polls on its own
EVERY = 2.0  # seconds between two polls of one phone
WAITS = 5  # seconds a request may take before it counts as failed


def new_cup(app) -> tuple[str, str]:
    """A cup of 120 players at Troccas (tables of 4: 30 a round), round 1 drawn; return (director's key, watch
    key)."""
    with app.app_context():
        key = store.create_tournament("Bench cup", date(2026, 11, 28), "troccas",
                                      resolve_rules(get_game("troccas"), None), ROUNDS, GAMES, 38,
                                      [f"Player {n}" for n in range(1, PLAYERS + 1)])
        cup = store.find_tournament(key)
        store.draw_next_round(cup.id)
        return key, store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]


def hand(players) -> dict:
    return {"teams": [[players[0], players[2]], [players[1], players[3]]], "side": players[0], "points": 40}


def play_round(app, cup_id: str, round_no: int) -> None:
    """Save every table's 16 hands of the round (in-process), close it, and draw the next if any."""
    with app.app_context():
        for t in store.cup_tables(cup_id):
            if t.round == round_no:
                players = store.get_table(t.table_id).players
                for i in range(GAMES):
                    store.save_hand(t.table_id, {**hand(players), "points": 20 + (i * 7) % 33})
        store.close_round(cup_id, round_no)
        if round_no < ROUNDS:
            store.draw_next_round(cup_id)


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.saves: list[float] = []
        self.errors: list[str] = []
        self.polls = 0

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


def table_phone(port: int, table_key: str, players, tally: Tally, go: threading.Event) -> None:
    """One table's scorer: its page (cookie, CSRF token), then its 16 Saves as fast as the answers come."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAITS)
        conn.request("GET", f"/t/{table_key}")
        page = conn.getresponse()
        text = page.read().decode()
        cookie = (page.getheader("Set-Cookie") or "").split(";")[0]
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', text).group(1)
    except (OSError, AttributeError) as e:
        tally.error(f"table page: {e!r}")
        return
    go.wait()
    for i in range(GAMES):
        body = urllib.parse.urlencode({"csrf_token": csrf, "token": f"cup-{table_key}-{i}", "partner": players[2],
                                       "side": "first", "points": str(20 + (i * 7) % 33)})
        began = time.perf_counter()
        try:
            conn.request("POST", f"/t/{table_key}/hands", body,
                         {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
            answer = conn.getresponse()
            answer.read()
        except OSError as e:
            tally.error(f"save: {e!r}")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAITS)
            continue
        took = time.perf_counter() - began
        if answer.status != 303:
            tally.error(f"save: {answer.status}")
        with tally.lock:
            tally.saves.append(took)


def watchers(port: int, paths: list[str], tally: Tally, stop: threading.Event, offset: float = 0.0) -> None:
    """PER_THREAD phones, each polling its path every EVERY s with the version it shows, the first poll `offset` s
    from the start."""
    stop.wait(offset)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAITS)
    tags = {i: None for i in range(len(paths))}
    while not stop.is_set():
        began = time.monotonic()
        for i, path in enumerate(paths):
            headers = {"If-None-Match": tags[i]} if tags[i] else {}
            try:
                conn.request("GET", path, headers=headers)
                answer = conn.getresponse()
                answer.read()
            except OSError as e:
                tally.error(f"poll: {e!r}")
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=WAITS)
                continue
            if answer.status not in (200, 304):
                tally.error(f"poll: {answer.status}")
            tags[i] = answer.getheader("ETag") or tags[i]
            with tally.lock:
                tally.polls += 1
        stop.wait(max(0.0, began + EVERY - time.monotonic()))


def load(tmp: Path, lockstep: bool = False) -> str:
    tmp.mkdir(exist_ok=True)
    url = f"sqlite:///{tmp / 'cup.sqlite'}"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url})
    key, watch = new_cup(app)
    with app.app_context():
        cup = store.find_tournament(key)
        placed = store.cup_tables(cup.id)
        keys = store.share_links_of([t.table_id for t in placed])
        tables = [(keys[t.table_id][store.SCORER], store.get_table(t.table_id).players) for t in placed]
    app.extensions["store"].dispose()
    proc = server.start(tmp, url, "bench", server.free_port(), server="waitress")
    tally, go, stop = Tally(), threading.Event(), threading.Event()
    try:
        paths = [f"/k/{watch}/live"] * WATCHERS + [f"/k/{watch}/projector/live"]
        moments = random.Random(PLAYERS)  # each phone's own moment in the 2 s, the same each run
        pollers = [threading.Thread(target=watchers, args=(proc.port, paths[i:i + PER_THREAD], tally, stop,
                                                           0.0 if lockstep else moments.uniform(0, EVERY)))
                   for i in range(0, len(paths), PER_THREAD)]
        scorers = [threading.Thread(target=table_phone, args=(proc.port, k, p, tally, go)) for k, p in tables]
        for t in pollers + scorers:
            t.start()
        began = time.monotonic()
        go.set()
        for t in scorers:
            t.join()
        took = time.monotonic() - began
        stop.set()
        for t in pollers:
            t.join()
    finally:
        server.stop(proc)
    saves = sorted(tally.saves)
    p99 = saves[min(len(saves) - 1, int(len(saves) * 0.99))] if saves else float("nan")
    polling = "in lockstep" if lockstep else "each at its own moment"
    return (f"{len(tables)} tables x {GAMES} Saves at once ({len(saves)} Saves in {took:.1f} s) with {WATCHERS} "
            f"phones and the projector polling {polling} ({tally.polls} polls): {len(tally.errors)} errors"
            f"{' (' + '; '.join(sorted(set(tally.errors))[:3]) + ')' if tally.errors else ''}; Save median "
            f"{statistics.median(saves) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, slowest {saves[-1] * 1000:.0f} ms "
            f"(goal: no error, p99 < 1000 ms)")


def timed(app, client, url: str) -> tuple[float, bytes]:
    """The median of 7 GETs after a first, each rendered anew (the watch link's kept poll answers dropped first:
    what the first phone to ask after a Save costs)."""
    client.get(url)
    times, body = [], b""
    for _ in range(7):
        app.extensions.pop("cup-polls", None)
        began = time.perf_counter()
        body = client.get(url).get_data()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), body


def pages(tmp: Path) -> list[str]:
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tmp / 'pages.sqlite'}"})
    client = app.test_client()
    key, watch = new_cup(app)
    with app.app_context():
        cup_id = store.find_tournament(key).id
    said, first = [], {}
    for label in ("round 1 drawn", f"round 1 x {GAMES} games", f"{ROUNDS} rounds x {GAMES} games"):
        if label == f"round 1 x {GAMES} games":
            play_round(app, cup_id, 1)
        elif label != "round 1 drawn":
            for r in range(2, ROUNDS + 1):
                play_round(app, cup_id, r)
        for page, url in (("director's page", f"/k/{key}"), ("standings (the watch page's board)",
                                                             f"/k/{watch}/live")):
            ms, body = timed(app, client, url)
            kb = len(brotli.compress(body)) / 1024
            ratio = f", {ms / first[page]:.2f}x round 1's with its games (goal <= 1.5x)" if page in first else ""
            if label != "round 1 drawn":
                first.setdefault(page, ms)
            said.append(f"{page} at {label}: {ms:.0f} ms{ratio}, {kb:.1f} KB compressed (goal <= 15 KB)")
    return said


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-cup-"))
    try:
        for line in pages(tmp):
            print("cup: " + line)
        print("cup: " + load(tmp))
        print("cup: " + load(tmp / "lockstep", lockstep=True))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
