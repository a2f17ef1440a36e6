"""Nothing lost: kill -9 a gunicorn server while phones are saving hands (in an evening of a circle); every confirmed
hand is there, and the circle's standings count every one of them."""
import http.client
import json
import re
import signal
import sqlite3
import threading
import time
import urllib.parse

from bench import server
from scorekeeper import create_app, store


def test_kill_9_while_saving_loses_no_confirmed_hand(tmp_path):
    db = tmp_path / "crash.sqlite"
    url = f"sqlite:///{db}"
    app = create_app({"SECRET_KEY": "crash-secret", "DATABASE_URL": url})
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        circle_key = store.create_circle("Krone")  # each save moves the circle's standings too
        store.join_circle(table.id, store.find_circle(circle_key).id)
    port = server.free_port()
    proc = server.start(tmp_path, url, "crash-secret", port)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/t/{table.id}")
        resp = conn.getresponse()
        page = resp.read().decode()
        cookie = resp.getheader("Set-Cookie").split(";")[0]
        csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
        confirmed, sent, stop = [], [], threading.Event()

        def phone(n):
            i = 0
            while not stop.is_set():
                token = f"p{n}-{i}"
                i += 1
                body = urllib.parse.urlencode({"csrf_token": csrf, "token": token, "partner": "Cla",
                                               "side": "first", "points": str(i % 73)})
                try:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    sent.append(token)
                    c.request("POST", f"/t/{table.id}/hands", body, {
                        "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
                    if c.getresponse().status == 303:  # the player was told the hand is saved
                        confirmed.append(token)
                except OSError:
                    pass

        threads = [threading.Thread(target=phone, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        deadline = time.time() + 60
        while len(confirmed) < 40 and time.time() < deadline:
            time.sleep(0.01)
        server.stop(proc, signal.SIGKILL)  # mid-save: eight phones are posting right now
        stop.set()
        for t in threads:
            t.join(15)
    finally:
        server.stop(proc, signal.SIGKILL)
    assert len(sent) > len(confirmed) >= 40  # some saves were cut off by the kill

    db_conn = sqlite3.connect(db)
    assert db_conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    saved = dict(db_conn.execute("SELECT c.token, h.facts FROM changes c JOIN hands h ON h.id = c.hand_id "
                                 "WHERE c.kind = 'add'").fetchall())
    assert set(confirmed) <= set(saved)  # no confirmed hand lost
    # none half-saved: every hand has its change and its facts, and the table's version counted each one
    n_hands = db_conn.execute("SELECT count(*) FROM hands WHERE facts IS NOT NULL").fetchone()[0]
    assert n_hands == len(saved) == db_conn.execute("SELECT version FROM tables").fetchone()[0]
    assert sorted(r[0] for r in db_conn.execute("SELECT number FROM hands")) == list(range(1, n_hands + 1))
    db_conn.close()

    # the server comes back and shows them all
    proc = server.start(tmp_path, url, "crash-secret", port)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/t/{table.id}/export.json")  # every hand (the table page shows the latest 20)
        exported = json.loads(conn.getresponse().read())
        assert len(exported["hands"]) == n_hands
        # the circle's standings are the evening's totals, every saved hand counted: Anna's units, signed
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/c/{circle_key}")
        page = conn.getresponse().read().decode()
        anna = re.search(r'<tr><th scope="row">Anna</th>(.*?)</tr>', page, re.S).group(1)
        shown = re.search(r'data-label="Points · Troccas">([^<]+)<', anna).group(1)  # "−1,330": sign, separators
        assert int(re.sub(r"[^0-9]", "", shown) or 0) * (-1 if shown.startswith("−") else 1) == \
            exported["totals"]["units"]["Anna"]
    finally:
        server.stop(proc, signal.SIGKILL)
