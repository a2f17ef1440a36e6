"""`backup DEST_DIR [--keep N]` (scorekeeper/backup.py): a copy taken while hands are being saved holds every hand
that was saved before it began, and restores into a new instance that the app opens (docs/deploy.md, "Backups").

Nothing here waits on time: the saver thread says how many hands it has confirmed (a save whose answer had come
back), and the test waits for those counts. The deadlines in Saver.wait_for only stop a hung test.
"""
from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import threading

import pytest

from scorekeeper import backup, create_app
from scorekeeper.backup import find_pg_tool
from scorekeeper.backup import main as run_backup

TROCCAS = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
           "first_dealer": "0", "stake": "0.05", "currency": "CHF", "rule_all_tricks_take_scart": "y"}
# Hands confirmed before the backup starts: more than one page of the database's hands table, so the copy must
# take many pages from one moment, while few enough to take a second or two to save on a loaded 2-core machine.
BEFORE = 40
NAME = re.compile(r"scorekeeper-\d{8}-\d{6}\.(sqlite|dump)")


@pytest.fixture(autouse=True)
def own_environment(tmp_path, monkeypatch):
    """The backup reads the app's settings from the environment: each test sets its own, and no test's app
    writes into the checkout's instance/."""
    for name in ("DATABASE_URL", "SECRET_KEY", "PGPASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path / "instance"))


def open_app(url: str, migrate: bool = True):
    """An app on `url`, as the tests' apps are (conftest.py), with no limit on one table's hands: the saver may
    save more than MAX_HANDS (2,000) on a slow machine before it is told to stop."""
    return create_app({"TESTING": True, "SECRET_KEY": "backup-test", "DATABASE_URL": url,
                       "WTF_CSRF_ENABLED": False, "MAX_HANDS": 1_000_000, "AUTO_MIGRATE": migrate})


class Saver(threading.Thread):
    """Saves hands on one table through the app's test client, one after another, until stopped.

    Hand n (from 1) is saved with the points points(n), so each hand found later can be checked; `confirmed`
    lists the points of the hands whose save had answered 303 (saved), in order."""

    def __init__(self, app):
        super().__init__(daemon=True)
        self.client = app.test_client()
        answer = self.client.post("/tables/new/troccas", data=TROCCAS)
        assert answer.status_code == 303, answer.get_data(as_text=True)
        self.table = answer.headers["Location"]
        self.confirmed: list[int] = []
        self.error: BaseException | None = None
        self.stop = threading.Event()
        self.changed = threading.Condition()

    @staticmethod
    def points(n: int) -> int:
        return 20 + n % 40  # 20 to 59: Anna & Cla's side, a valid Troccas count (docs/rules.md §1)

    def run(self):
        try:
            n = 0
            while not self.stop.is_set():
                n += 1
                answer = self.client.post(f"{self.table}/hands", data={
                    "token": f"saver-{n}", "partner": "Cla", "side": "first", "points": str(self.points(n)),
                    "action": "save"})
                assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
                with self.changed:
                    self.confirmed.append(self.points(n))
                    self.changed.notify_all()
        except BaseException as e:  # reported by wait_for, in the test's thread
            with self.changed:
                self.error = e
                self.changed.notify_all()

    def wait_for(self, count: int) -> list[int]:
        """Wait until at least `count` hands are confirmed; return the confirmed hands' points at that moment."""
        with self.changed:
            done = self.changed.wait_for(lambda: len(self.confirmed) >= count or self.error, timeout=300)
            assert self.error is None, f"saving a hand failed: {self.error!r}"
            assert done, f"only {len(self.confirmed)} of {count} hands were saved in 5 minutes"
            return list(self.confirmed)

    def finish(self):
        self.stop.set()
        self.join(timeout=60)


def back_up_while_saving(app, url: str, dest, monkeypatch) -> tuple[Saver, list[int], str]:
    """Save hands on `app` from a thread; once BEFORE are confirmed, back up `url` while the saver goes on.

    Return the saver, the points of the hands confirmed before the backup began, and the backup's path."""
    saver = Saver(app)
    saver.start()
    try:
        confirmed = saver.wait_for(BEFORE)
        monkeypatch.setenv("DATABASE_URL", url)
        assert run_backup([str(dest)]) == 0
        # the app went on saving through the backup: the next hand after it is confirmed too
        saver.wait_for(len(saver.confirmed) + 1)
    finally:
        saver.finish()
    assert saver.error is None
    made = list(dest.iterdir())
    assert len(made) == 1 and NAME.fullmatch(made[0].name), made  # one backup, no temporary file left behind
    return saver, confirmed, str(made[0])


def check_restored(url: str, saver: Saver, confirmed: list[int]) -> None:
    """Open the restored database with a new app that does not migrate: /readyz says its schema is complete, and
    the table holds hands 1, 2, 3 … with their points, at least every hand confirmed before the backup."""
    app = open_app(url, migrate=False)
    try:
        client = app.test_client()
        assert client.get("/readyz").get_data(as_text=True) == "ready\n"
        exported = client.get(f"{saver.table}/export.json").get_json()
        numbers = [hand["number"] for hand in exported["hands"]]
        points = [hand["hand"]["points"] for hand in exported["hands"]]
        assert numbers == list(range(1, len(numbers) + 1))  # one moment of the table: no hand missing between
        assert len(numbers) >= len(confirmed)
        assert points == [Saver.points(n) for n in numbers]
        assert points[:len(confirmed)] == confirmed
    finally:
        app.extensions["store"].dispose()


def test_a_sqlite_backup_taken_while_hands_are_saved_restores_into_a_new_instance(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'live' / 'scorekeeper.sqlite'}"
    (tmp_path / "live").mkdir()
    app = open_app(url)
    saver, confirmed, made = back_up_while_saving(app, url, tmp_path / "backups", monkeypatch)
    app.extensions["store"].dispose()
    assert made.endswith(".sqlite")
    assert oct(os.stat(made).st_mode & 0o777) == "0o600"  # every table's address is its key: owner only

    # the restore drill (docs/deploy.md): the copy becomes the database of a new instance, no -wal/-shm beside it
    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copyfile(made, restored / "scorekeeper.sqlite")
    assert sorted(p.name for p in restored.iterdir()) == ["scorekeeper.sqlite"]
    with sqlite3.connect(restored / "scorekeeper.sqlite") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    monkeypatch.setenv("INSTANCE_PATH", str(restored))
    monkeypatch.delenv("DATABASE_URL")
    check_restored(f"sqlite:///{restored / 'scorekeeper.sqlite'}", saver, confirmed)


def pg_tool(name: str) -> str:
    """pg_dump or pg_restore, found as backup.py finds them; missing is a failure in CI (as in conftest.py)."""
    found = find_pg_tool(name)
    if not found:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is required in CI")
        pytest.skip(f"{name} not installed")
    return found


def libpq(url: str) -> str:
    """The address for pg_restore and psql: without SQLAlchemy's +psycopg."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@pytest.mark.postgres
def test_a_postgres_backup_taken_while_hands_are_saved_restores_into_a_new_database(tmp_path, monkeypatch,
                                                                                   postgres_server):
    pg_tool("pg_dump")
    url = postgres_server()
    app = open_app(url)
    saver, confirmed, made = back_up_while_saving(app, url, tmp_path / "backups", monkeypatch)
    app.extensions["store"].dispose()
    assert made.endswith(".dump")

    # the restore drill (docs/deploy.md): pg_restore --clean --if-exists into the database, here a new, empty one
    target = postgres_server()
    done = subprocess.run([pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--exit-on-error",
                           f"--dbname={libpq(target)}", made], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    check_restored(target, saver, confirmed)


def test_keep_leaves_exactly_the_newest_n_backups_of_that_kind(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    open_app(url).extensions["store"].dispose()
    dest = tmp_path / "backups"
    dest.mkdir()
    older = [f"scorekeeper-2024010{day}-030000.sqlite" for day in range(1, 6)]  # five older backups, 1 to 5 Jan
    others = ["scorekeeper-20240101-030000.dump", "notes.txt", "scorekeeper-latest.sqlite"]  # not this kind
    for name in older + others:
        (dest / name).write_text("")
    monkeypatch.setenv("DATABASE_URL", url)

    assert run_backup([str(dest), "--keep", "3"]) == 0

    new = [p.name for p in dest.iterdir() if p.name not in older + others]
    assert len(new) == 1 and NAME.fullmatch(new[0])
    # 3 kept: the new one and the two newest older ones (4 and 5 Jan); the other kinds' files are untouched
    assert sorted(p.name for p in dest.iterdir()) == sorted([new[0], older[3], older[4], *others])
    assert run_backup([str(dest), "--keep=1"]) == 0  # --keep=N is read too
    kept = [p.name for p in dest.iterdir() if p.name not in others]
    assert len(kept) == 1 and kept[0] >= new[0]  # the newest (two backups in one second share a name)


def one_sentence(capsys) -> str:
    """What a failed backup printed: nothing on stdout, one line on stderr that is no traceback."""
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_a_destination_that_is_no_folder_is_a_sentence(tmp_path, monkeypatch, capsys):
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    open_app(url).extensions["store"].dispose()
    monkeypatch.setenv("DATABASE_URL", url)
    afile = tmp_path / "afile"
    afile.write_text("not a folder")

    assert run_backup([str(afile)]) == 2
    assert f"{afile} is not a folder" in one_sentence(capsys)
    assert run_backup([str(afile / "backups")]) == 2  # a folder can't be made inside a file
    assert f"can't create the backup folder {afile / 'backups'}: Not a directory." in one_sentence(capsys)


def test_bad_arguments_a_missing_database_and_a_bad_url_are_sentences(tmp_path, monkeypatch, capsys):
    dest = str(tmp_path / "backups")
    assert run_backup([]) == 2
    assert "say where the backups go" in one_sentence(capsys)
    assert run_backup([dest, "--keep", "0"]) == 2
    assert "--keep must be a whole number from 1 up, not '0'." in one_sentence(capsys)

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'nothing-here.sqlite'}")
    assert run_backup([dest]) == 2
    assert f"there is no database at {tmp_path / 'nothing-here.sqlite'}" in one_sentence(capsys)
    assert not (tmp_path / "nothing-here.sqlite").exists()  # the backup never creates an empty database

    monkeypatch.setenv("DATABASE_URL", "postgresql://bob:hunter2@db:notaport/x")
    assert run_backup([dest]) == 2
    err = one_sentence(capsys)
    assert "DATABASE_URL is not a database address" in err and "hunter2" not in err


def test_the_password_goes_to_pg_dump_in_its_environment_never_its_arguments(tmp_path, monkeypatch, capsys):
    calls = []

    def refused(argv, env, **options):  # pg_dump as a server refusing the password would answer
        calls.append((argv, env))
        return subprocess.CompletedProcess(argv, 1, "", 'pg_dump: error: connection to server at "db" failed: '
                                                        'FATAL:  password authentication failed for user "bob"\n')

    monkeypatch.setattr(backup, "find_pg_tool", lambda name: "/usr/bin/pg_dump")
    monkeypatch.setattr(backup.subprocess, "run", refused)
    monkeypatch.setenv("DATABASE_URL", "postgresql://bob:s3cret-Pw@db:5432/club?sslmode=require")
    assert run_backup([str(tmp_path / "backups")]) == 2

    (argv, env), = calls
    assert env["PGPASSWORD"] == "s3cret-Pw"
    assert not any("s3cret-Pw" in arg for arg in argv)
    assert argv[1] == "--format=custom"
    assert "dbname=club" in argv[-1] and "host=db" in argv[-1] and "sslmode=require" in argv[-1]
    err = one_sentence(capsys)
    assert "password authentication failed" in err and "s3cret-Pw" not in err
    assert list((tmp_path / "backups").iterdir()) == []  # the partial file is gone


def test_pg_dump_missing_is_a_sentence(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(backup, "find_pg_tool", lambda name: None)
    monkeypatch.setenv("DATABASE_URL", "postgresql://bob:s3cret-Pw@db:5432/club")
    assert run_backup([str(tmp_path / "backups")]) == 2
    err = one_sentence(capsys)
    assert "pg_dump was not found" in err and "s3cret-Pw" not in err


@pytest.mark.postgres
def test_an_unreachable_postgres_is_a_sentence_without_the_password(tmp_path, monkeypatch, capsys):
    pg_tool("pg_dump")
    import socket
    with socket.socket() as s:  # a port nothing listens on: as a stopped PostgreSQL
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("DATABASE_URL", f"postgresql://bob:s3cret-Pw@127.0.0.1:{port}/club")
    assert run_backup([str(tmp_path / "backups")]) == 2
    err = one_sentence(capsys)
    assert f"pg_dump could not back up the database postgresql+psycopg://bob:***@127.0.0.1:{port}/club" in err
    assert "s3cret-Pw" not in err
    assert list((tmp_path / "backups").iterdir()) == []
