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


ANNE_EVENINGS, HANDS_EACH = 12, 60  # a merge rewrites 720 hands, its Undo as many: long enough to be cut off


def test_kill_9_during_merges_and_paid_marks_leaves_each_whole_or_not_at_all(tmp_path):
    """Issue 36: one phone merges Anne into Anna and undoes it, again and again; another marks the season's lines
    paid and takes the marks back. Killed mid-way, the database holds each merge, Undo and mark wholly or not at
    all: Anne's evenings (their players, every hand's seats, dealer and teams, their lines paid, the pot) say one
    name, the one the circle's last change left, and every confirmed change is there."""
    db = tmp_path / "crash.sqlite"
    url = f"sqlite:///{db}"
    app = create_app({"SECRET_KEY": "crash-secret", "DATABASE_URL": url})
    with app.app_context():
        circle_key = store.create_circle("Krone")
        circle_id = store.find_circle(circle_key).id
        anna = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        store.add_hand(anna.id, {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 40})
        store.join_circle(anna.id, circle_id)
        anne = []
        for _n in range(ANNE_EVENINGS):
            t = store.create_table("troccas", ["Anne", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
            for i in range(HANDS_EACH):
                store.add_hand(t.id, {"teams": [["Anne", "Cla"], ["Ben", "Zoë"]], "side": "Anne",
                                      "points": 30 + i % 15})
            store.join_circle(t.id, circle_id)
            store.mark_paid("Ben", "Anne", 5, "CHF", table_id=t.id)  # a line paid on the night
            anne.append(t.id)
        store.pot_add(circle_id, 50, "CHF", "a solo lost", "Anne")
    port = server.free_port()
    proc = server.start(tmp_path, url, "crash-secret", port)
    done = {"merge": [], "undo": [], "mark": [], "unmark": []}
    sent = []
    try:
        page, cookie = _get(port, f"/c/{circle_key}")
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        stop = threading.Event()
        # a write on its way from either phone: a merge or its Undo, a mark or its Undo (a merge whose Undo was refused,
        # a line paid since, leaves the merging phone with nothing to write: the other phone still writes)
        changing = {"merger": threading.Event(), "payer": threading.Event()}

        def merger():
            i = 0
            while not stop.is_set():
                i += 1
                sent.append(("merge", i))
                changing["merger"].set()
                answer = _post(port, f"/c/{circle_key}/people", cookie, {"csrf_token": csrf, "person": "Anne",
                                                                          "name": "Anna", "confirm": "yes",
                                                                          "token": f"merge-{i}"})
                changing["merger"].clear()
                if answer != 303:
                    continue
                done["merge"].append(i)
                page, _c = _get(port, f"/c/{circle_key}", cookie)
                found = re.search(r'class="undo-rename">.*?name="change" value="(\d+)"', page, re.S)
                if found is None:
                    continue  # the server is gone
                change = found.group(1)
                sent.append(("undo", change))
                changing["merger"].set()
                answer = _post(port, f"/c/{circle_key}/people/undo", cookie, {"csrf_token": csrf, "change": change})
                changing["merger"].clear()
                if answer == 303:
                    done["undo"].append(int(change))

        def payer():
            i = 0
            while not stop.is_set():
                i += 1
                page, _c = _get(port, f"/c/{circle_key}", cookie)
                form = re.search(r'<form[^>]*class="mark-paid"[^>]*>(.*?)</form>', page, re.S)
                if form is not None:
                    fields = {**dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(1))),
                              "token": f"mark-{i}"}
                    sent.append(("mark", i))
                    changing["payer"].set()
                    answer = _post(port, f"/c/{circle_key}/paid", cookie, fields)
                    changing["payer"].clear()
                    if answer == 303:
                        done["mark"].append(f"mark-{i}")
                page, _c = _get(port, f"/c/{circle_key}", cookie)
                for payment in re.findall(r'name="payment" value="(\d+)"', page)[:1]:
                    sent.append(("unmark", payment))
                    changing["payer"].set()
                    answer = _post(port, f"/c/{circle_key}/unpaid", cookie, {"csrf_token": csrf, "payment": payment})
                    changing["payer"].clear()
                    if answer == 303:
                        done["unmark"].append(int(payment))

        threads = [threading.Thread(target=merger), threading.Thread(target=payer)]
        for t in threads:
            t.start()
        deadline = time.time() + 120
        while (len(done["merge"]) + len(done["undo"]) < 5 or len(done["mark"]) < 3) and time.time() < deadline:
            time.sleep(0.01)
        # then killed while a change is on its way and the database is inside a write transaction
        deadline = time.time() + 120  # (the first changes' time on a loaded machine is not taken from this wait)
        on_its_way = lambda: any(e.is_set() for e in changing.values())  # noqa: E731
        while time.time() < deadline and not (on_its_way() and _writing(db)):
            time.sleep(0.001)
        mid_write = on_its_way() and _writing(db)
        server.stop(proc, signal.SIGKILL)
        stop.set()
        for t in threads:
            t.join(30)
    finally:
        server.stop(proc, signal.SIGKILL)
    assert len(done["merge"]) + len(done["undo"]) >= 5 and len(done["mark"]) >= 3, done
    assert mid_write and len(sent) > sum(len(v) for v in done.values())  # a write was cut off by the kill

    db_conn = sqlite3.connect(db)
    assert db_conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = db_conn.execute("SELECT id, undone FROM circle_changes ORDER BY id").fetchall()
    # every confirmed merge and Undo is there (one more of either may have been written but not yet answered)
    assert len(kept) >= len(done["merge"]) and {i for i, undone in kept if undone} >= set(done["undo"])
    merged = any(not undone for _i, undone in kept)
    assert sum(not undone for _i, undone in kept) <= 1  # each merge was undone before the next
    names = set()
    marks = "?, " * (len(anne) - 1) + "?"
    for players, in db_conn.execute(f"SELECT players FROM tables WHERE id IN ({marks})", anne):
        names |= set(json.loads(players))
    for setup, dealer, facts in db_conn.execute(
            f"SELECT setup, dealer, facts FROM hands WHERE table_id IN ({marks})", anne):
        names |= set(json.loads(setup)["players"]) | {dealer} | {p for t in json.loads(facts)["teams"] for p in t}
    for payer, payee in db_conn.execute(f"SELECT payer, payee FROM payments WHERE table_id IN ({marks})", anne):
        names |= {payer, payee}
    names |= {who for who, in db_conn.execute("SELECT who FROM pot_entries")}
    # the evenings say one name, the one the last change written left: never a merge or an Undo half-applied
    assert names & {"Anne", "Anna"} == ({"Anna"} if merged else {"Anne"}), (names, kept)
    hands_at = db_conn.execute(f"SELECT count(*) FROM hands WHERE table_id IN ({marks})", anne).fetchone()[0]
    assert hands_at == ANNE_EVENINGS * HANDS_EACH
    # every confirmed mark is there, whole; every confirmed Undo of one took it back
    rows = {token: (payer, payee, amount) for token, payer, payee, amount in db_conn.execute(
        "SELECT token, payer, payee, amount FROM payments WHERE circle_id IS NOT NULL")}
    assert set(done["mark"]) <= set(rows) and all(a > 0 and p and q for p, q, a in rows.values())
    undone = {i for i, in db_conn.execute("SELECT id FROM payments WHERE undone")}
    assert set(done["unmark"]) <= undone
    db_conn.close()

    proc = server.start(tmp_path, url, "crash-secret", port)  # back up, the circle's page reads as it was left
    try:
        page, _c = _get(port, f"/c/{circle_key}")
        standing = set(re.findall(r'<tr><th scope="row">([^<]+)</th>', page))
        assert ("Anne" in standing) is not merged and "Anna" in standing
    finally:
        server.stop(proc, signal.SIGKILL)


def _get(port: int, path: str, cookie: str | None = None) -> tuple[str, str | None]:
    """GET a page; its text and its session cookie (if it sets one); an empty page if the server is gone."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        c.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        resp = c.getresponse()
    except OSError:
        return "", cookie
    set_cookie = resp.getheader("Set-Cookie")
    return resp.read().decode(), (set_cookie.split(";")[0] if set_cookie else cookie)


def _post(port: int, path: str, cookie: str, fields: dict) -> int | None:
    """POST a form as a phone does; the status (a redirect told "no longer owed", ?stale=1, is 409 here), or None if
    the server was gone before it answered."""
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("POST", path, urllib.parse.urlencode(fields), {
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
        resp = c.getresponse()
        return 409 if "stale=1" in (resp.getheader("Location") or "") else resp.status
    except OSError:
        return None


def _writing(db) -> bool:
    """Whether a write transaction holds the SQLite database now (another can't begin)."""
    conn = sqlite3.connect(db, timeout=0)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.rollback()
        return False
    except sqlite3.OperationalError:
        return True
    finally:
        conn.close()
