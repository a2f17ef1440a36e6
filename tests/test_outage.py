"""A database that can't be reached, is read-only or out of space (issue 25): 503 with Retry-After and a sentence,
never a 500; a form post comes back with what was posted, ready to send again; nothing confirmed is lost."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from sqlalchemy.exc import OperationalError

from scorekeeper import create_app, store
from scorekeeper.store.db import make_engine
from tests.opening import open_table

HAND = {"partner": "Cla", "side": "first", "points": "40", "token": "outage-hand-1", "action": "save"}


def down(app):
    """Point the app at a database nobody answers: nothing listens on port 1, as with a stopped PostgreSQL."""
    app.extensions["store"] = make_engine("postgresql+psycopg://app:secret@127.0.0.1:1/gone")


def test_a_save_while_the_database_is_down_is_a_503_with_the_hand_to_send_again(app, client):
    url = open_table(client)
    working = app.extensions["store"]
    down(app)
    r = client.post(url + "/hands", data=HAND)
    assert r.status_code == 503 and r.headers["Retry-After"] == "10"
    page = r.get_data(as_text=True)
    assert "The database isn&#39;t answering just now, so this wasn&#39;t saved yet." in page
    assert "secret" not in page and "Traceback" not in page
    # what was posted is on the page, as it was (the token too), in a form that posts it again to the same address
    resend = re.search(r'<form method="post" action="([^"]+)" class="resend">(.*?)</form>', page, re.S)
    assert resend.group(1) == url + "/hands"
    posted = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', resend.group(2)))
    assert posted == HAND
    app.extensions["store"] = working  # the database is back: Try again saves it, once
    assert client.post(resend.group(1), data=posted).status_code == 303
    assert client.post(resend.group(1), data=posted).status_code == 303  # tapped twice: still one hand
    with app.app_context():
        assert [h.facts["points"] for h in store.list_hands(url.rsplit("/", 1)[1])] == [40]


def test_every_kind_of_request_says_503_while_the_database_is_down(app, client):
    url = open_table(client)
    down(app)
    htmx = client.post(url + "/hands", data=HAND, headers={"HX-Request": "true", "HX-Target": "hand-form"})
    assert htmx.status_code == 503  # static/outbox.js keeps the hand and sends it when the server can take it
    page = client.get(url)
    assert page.status_code == 503 and "The database isn&#39;t answering just now. Wait a moment" in page.get_data(as_text=True)
    assert 'class="resend"' not in page.get_data(as_text=True)  # a page asked for: nothing to send again
    api = client.get("/api/v1/games")  # the engine alone: still answers
    assert api.status_code == 200
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.text.startswith("not ready: the database does not answer")
    assert client.get("/healthz").status_code == 200


def test_an_operational_error_anywhere_is_a_503_not_a_500(app, client, monkeypatch):
    # "database is locked" past the busy timeout, "attempt to write a readonly database", "disk I/O error":
    # SQLite's transient failures are OperationalErrors too
    url = open_table(client)

    def locked(*args, **kwargs):
        raise OperationalError("INSERT", {}, Exception("attempt to write a readonly database"))

    monkeypatch.setattr(store, "save_hand", locked)
    r = client.post(url + "/hands", data=HAND)
    assert r.status_code == 503 and 'class="resend"' in r.get_data(as_text=True)


def test_a_server_error_on_a_post_gives_back_what_was_posted_and_claims_nothing_false(app, client, monkeypatch):
    url = open_table(client)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production: the 500 handler answers

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(store, "save_hand", broken)
    r = client.post(url + "/hands", data=HAND)
    page = r.get_data(as_text=True)
    assert r.status_code == 500
    assert "so this may not have been saved. What you entered is kept below: try again." in page
    assert 'name="points" value="40"' in page


@pytest.fixture
def tiny_disk(tmp_path):
    """A 2 MB tmpfs (as root): a filesystem the test can fill to the last byte."""
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"this machine can't mount a tmpfs: {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill(disk):
    """Write zeros until the filesystem is full; return the file to delete to make room again. Unbuffered: a
    buffered file's last partial write stays in its buffer and fails again when the file is closed."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 65536)
    except OSError:
        pass  # no room left: full
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_keeps_the_hand_and_saves_it_once_there_is_room(tiny_disk, tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False,
                      "DATABASE_URL": f"sqlite:///{tiny_disk / 'db.sqlite'}"})
    client = app.test_client()
    url = open_table(client)
    first = {**HAND, "points": "30", "token": "before-full"}
    assert client.post(url + "/hands", data=first).status_code == 303
    filler = fill(tiny_disk)
    # a hand's facts, its change and the WAL's pages: some write now finds no room ("database or disk is full")
    answers = [client.post(url + "/hands", data={**HAND, "points": str(41 + n), "token": f"full-{n}"})
               for n in range(20)]
    refused = [r for r in answers if r.status_code != 303]
    assert refused and all(r.status_code == 503 for r in refused)
    assert all("so this wasn&#39;t saved yet" in r.get_data(as_text=True) for r in refused)
    filler.unlink()  # room again: each refused hand sent again is saved, once
    for r in refused:
        resend = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', r.get_data(as_text=True)))
        assert client.post(url + "/hands", data=resend).status_code == 303
    with app.app_context():
        points = [h.facts["points"] for h in store.list_hands(url.rsplit("/", 1)[1])]
        assert points == [30] + [41 + n for n in range(20)]  # every hand, in order, none twice
        with app.extensions["store"].connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    app.extensions["store"].dispose()
