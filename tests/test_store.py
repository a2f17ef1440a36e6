"""store.py on SQLite and on a throwaway PostgreSQL: migrations, hands, idempotency, versions, undo."""
import json
import os
import sqlite3
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import inspect

from scorekeeper import create_app, store

HAND = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 40}
OTHER = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 30}


def new_table():
    return store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {"all_tricks_take_scart": True}, 5, "CHF", 1)


def test_migrations_create_the_schema_from_an_empty_database(db_app):
    names = set(inspect(db_app.extensions["store"]).get_table_names())
    assert {"tables", "hands", "changes", "alembic_version"} <= names
    store.upgrade(db_app)  # a second run is a no-op, not an error
    assert set(inspect(db_app.extensions["store"]).get_table_names()) == names


def test_sqlite_runs_in_wal_mode_and_a_commit_is_on_the_disk(tmp_path):
    """WAL, and synchronous FULL (2): each commit is flushed to the disk before the Save is answered, whatever a
    system's SQLite defaults to in WAL mode (docs/deploy.md)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{tmp_path / 'w.sqlite'}"})
    with app.extensions["store"].connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2


def test_the_wal_is_copied_back_after_a_write_has_left_the_writers_queue_not_inside_its_commit(tmp_path, monkeypatch):
    """SQLite's own checkpoint runs inside the commit of the write that crossed its mark, holding every write queued
    behind it (store.db._checkpoint): here it is off (wal_autocheckpoint 0) and the WAL is copied back after the
    write, outside the queue. With the mark at 1 byte, each write's WAL is copied back at once: the database file
    holds the hands (it grows), and a checkpoint finds nothing left to copy. Taken while the queue is held, the copy
    would find the writers' lock taken by this thread: it is not."""
    from scorekeeper.store import db

    path = tmp_path / "c.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{path}"})
    with app.extensions["store"].connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    copied_when = []
    real = db._checkpoint

    def spy(eng, conn):
        lock, _file = db._WRITERS.get((os.getpid(), str(path)), (None, None))
        copied_when.append(lock is None or not lock.locked())  # the writers' queue is free
        real(eng, conn)

    monkeypatch.setattr(db, "_checkpoint", spy)
    monkeypatch.setattr(db, "CHECKPOINT_BYTES", 1)
    with app.app_context():
        before = path.stat().st_size
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        for n in range(30):
            store.add_hand(table.id, {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 30 + n},
                           f"c{n}")
    assert copied_when and all(copied_when)
    assert path.stat().st_size > before  # the hands' pages are in the database file, not only in the WAL
    raw = sqlite3.connect(path)
    try:
        busy, frames, done = raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and frames == done  # nothing was left behind in the WAL
    finally:
        raw.close()
    app.extensions["store"].dispose()


def test_the_wal_is_copied_back_when_it_has_grown_past_the_mark_again_not_after_every_later_write(tmp_path, monkeypatch):
    """The mark is the WAL file's size (store.db._checkpoint). SQLite keeps the file at the most it ever held and
    writes the log again from its start after a copy, so without journal_size_limit every write after the first
    copy found the file past the mark and copied (an fsync of the database file each Save). With the mark at
    64 KB and 60 hands of a few 4 KB pages each, a copy comes every few writes, not after each one."""
    from scorekeeper.store import db

    path = tmp_path / "m.sqlite"
    monkeypatch.setattr(db, "CHECKPOINT_BYTES", 64 * 1024)
    copies = []
    real = db._checkpoint

    def spy(eng, conn):
        wal = path.with_name(path.name + "-wal")
        copies.append(wal.exists() and wal.stat().st_size >= db.CHECKPOINT_BYTES)
        real(eng, conn)

    monkeypatch.setattr(db, "_checkpoint", spy)
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{path}"})
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        for n in range(60):
            store.add_hand(table.id, {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna", "points": 30 + n % 40},
                           f"m{n}")
    first = copies.index(True)  # the WAL crossed the mark once
    assert 0 < sum(copies[first + 1:]) < len(copies[first + 1:]) / 2, copies
    app.extensions["store"].dispose()


def test_a_lone_read_on_sqlite_runs_without_begin_and_rollback(tmp_path):
    """The key's look-up that every request makes, and the hands a board is built from, are one statement each:
    on SQLite they run outside a transaction (store.db.reading), with no BEGIN before them. A write still
    takes the writer's lock up front."""
    from sqlalchemy import event
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'r.sqlite'}"})
    seen = []
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        event.listen(app.extensions["store"], "before_cursor_execute",
                     lambda conn, cursor, statement, *rest: seen.append(statement.split()[0]))
        assert store.find_link(table.id).table_id == table.id
        assert store.hands_at(table.id) == (0, [])
        assert seen == ["SELECT", "SELECT"]
        store.add_hand(table.id, HAND, "r1")
        assert seen[2] == "BEGIN"  # BEGIN IMMEDIATE: a write still queues for the lock first
        at, hands = store.hands_at(table.id)
        assert at == 1 and [h.facts["points"] for h in hands] == [40]


def test_a_table_keeps_unicode_names_and_an_unguessable_id(db_app):
    table = new_table()
    assert len(table.id) >= 20
    again = store.get_table(table.id)
    assert again.players == ("Anna", "Ben", "Cla", "Zoë")
    assert (again.stake, again.currency, again.first_dealer, again.version) == (5, "CHF", 1, 0)
    with pytest.raises(store.NotFound):
        store.get_table("no-such-table")


def test_hands_are_numbered_in_order_and_keep_their_facts(db_app):
    table = new_table()
    first = store.add_hand(table.id, HAND, "t1")
    second = store.add_hand(table.id, OTHER, "t2")
    assert (first.number, second.number) == (1, 2)
    assert [h.facts for h in store.list_hands(table.id)] == [HAND, OTHER]
    assert store.get_table(table.id).version == 2  # every change moves the table's version on


def test_the_same_token_twice_records_one_hand(db_app):
    table = new_table()
    a = store.add_hand(table.id, HAND, "same")
    b = store.add_hand(table.id, HAND, "same")
    assert a.number == b.number == 1
    assert len(store.list_hands(table.id)) == 1


def test_a_saved_hand_says_the_table_and_change_as_reading_them_back_would(db_app):
    # a Save's answer uses what save_hand returns instead of reading the table and the last change again
    table = new_table()
    store.add_hand(table.id, OTHER, "before")
    done = store.save_hand(table.id, HAND, "s1")
    assert done.table == store.get_table(table.id) and done.table.version == 2
    last = store.last_hand(table.id)
    fields = lambda h: (h.id, h.number, h.facts, h.version, h.dealer, h.setup)  # noqa: E731
    assert fields(done.hand) == fields(last) and done.hand.number == 2
    change = store.last_change(table.id)
    assert (done.change.id, done.change.hand_number, done.change.kind) == (change.id, 2, "add")
    assert done.change.created_at.replace(tzinfo=None) == change.created_at.replace(tzinfo=None)
    again = store.save_hand(table.id, HAND, "s1")  # the same form again: nothing written, nothing to say of it
    assert (again.hand.number, again.table, again.change) == (2, None, None)


def test_after_the_last_hand_is_deleted_the_deal_follows_the_last_live_hand(db_app):
    table = new_table()  # Anna, Ben, Cla, Zoë; first dealer 1: Ben, and the deal passes down the list
    dealt = [store.add_hand(table.id, HAND, f"d{i}").dealer for i in range(3)]
    assert dealt == ["Ben", "Cla", "Zoë"]
    store.delete_hand(table.id, 3, "del3")  # Zoë's deal taken back: the last live hand is Cla's
    again = store.save_hand(table.id, HAND, "d3")
    assert (again.hand.number, again.hand.dealer) == (4, "Zoë")  # after Cla; numbers are never reused


def test_hands_at_reads_the_version_with_its_hands(db_app):
    table = new_table()
    assert store.hands_at(table.id) == (0, [])  # no hands yet: the table's row alone
    store.add_hand(table.id, HAND, "h1")
    store.add_hand(table.id, OTHER, "h2")
    store.delete_hand(table.id, 1, "h1-del")  # live hands only
    at, hands = store.hands_at(table.id)
    assert at == 3 and [(h.number, h.facts) for h in hands] == [(2, OTHER)] == \
        [(h.number, h.facts) for h in store.list_hands(table.id)]
    assert store.hands_at("no-such-table") == (None, [])


def test_edit_checks_the_version_and_counts_up(db_app):
    table = new_table()
    store.add_hand(table.id, HAND, "a")
    edited = store.edit_hand(table.id, 1, OTHER, "b", version=1)
    assert edited.version == 2 and store.get_hand(table.id, 1).facts == OTHER
    with pytest.raises(store.Stale) as stale:
        store.edit_hand(table.id, 1, HAND, "c", version=1)  # a second phone still holding version 1
    assert stale.value.hand.facts == OTHER
    assert store.get_hand(table.id, 1).facts == OTHER


def test_undo_walks_back_delete_edit_and_add(db_app):
    table = new_table()
    store.add_hand(table.id, HAND, "a")
    store.add_hand(table.id, HAND, "b")
    store.edit_hand(table.id, 1, OTHER, "c")
    store.delete_hand(table.id, 2, "d")
    assert [h.number for h in store.list_hands(table.id)] == [1]
    assert store.undo(table.id).kind == "delete"
    assert [h.number for h in store.list_hands(table.id)] == [1, 2]
    assert store.undo(table.id).kind == "edit"
    assert store.get_hand(table.id, 1).facts == HAND
    assert store.undo(table.id).kind == "add"
    assert store.undo(table.id).kind == "add"
    assert store.list_hands(table.id) == []
    assert store.undo(table.id) is None
    # numbers are never reused: the next hand is 3 even though 1 and 2 were undone
    assert store.add_hand(table.id, HAND, "e").number == 3


def test_versions_keep_counting_up_through_undo(db_app):
    table = new_table()
    store.add_hand(table.id, HAND, "a")
    store.edit_hand(table.id, 1, OTHER, "b")
    store.undo(table.id)
    assert store.get_hand(table.id, 1).version == 3  # add 1, edit 2, undo 3: a stale form can't slip through


def test_concurrent_saves_all_land_with_distinct_numbers(db_app):
    table = new_table()

    def save(i):
        with db_app.app_context():
            return store.add_hand(table.id, {**HAND, "points": i}, f"tok-{i}").number

    with ThreadPoolExecutor(8) as pool:
        numbers = list(pool.map(save, range(24)))
    assert sorted(numbers) == list(range(1, 25))
    assert sorted(h.facts["points"] for h in store.list_hands(table.id)) == list(range(24))


def test_import_keeps_numbers_versions_and_facts(db_app):
    table = new_table()
    store.add_hand(table.id, HAND, "a")
    store.add_hand(table.id, OTHER, "b")
    store.edit_hand(table.id, 2, HAND, "c")
    store.delete_hand(table.id, 1, "d")
    hands = store.list_hands(table.id)
    copy = store.import_table(store.get_table(table.id), hands)
    assert copy.id != table.id
    assert [(h.number, h.version, h.facts) for h in store.list_hands(copy.id)] == [(2, 2, HAND)]


def test_a_repeated_edit_is_one_edit_not_a_stale_one(db_app):
    table = new_table()
    store.add_hand(table.id, HAND, "a")
    first = store.edit_hand(table.id, 1, OTHER, "b", version=1)
    again = store.edit_hand(table.id, 1, OTHER, "b", version=1)  # the same form, tapped twice
    assert first.version == again.version == 2
    assert store.get_table(table.id).version == 2


def test_the_pages_work_on_each_backend_and_export_round_trips(db_app):
    client = db_app.test_client()
    r = client.post("/tables/new/troccas", data={"players-0": "Anna", "players-1": "Ben", "players-2": "Cla",
                                                 "players-3": "Zoë", "first_dealer": "0", "stake": "0.05",
                                                 "currency": "CHF", "rule_all_tricks_take_scart": "y"})
    url = r.headers["Location"]
    for i, points in enumerate(["40", "30", "50"]):
        assert client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": points,
                                                 "token": f"t{i}"}).status_code == 303
    client.post(url + "/hands/2", data={"partner": "Cla", "side": "first", "points": "36", "token": "e", "version": "1"})
    client.post(url + "/hands/3/delete", data={"token": "d"})
    client.post(url + "/undo", data={"token": "u"})
    exported = client.get(url + "/export.json").get_json()
    # 40 - 36 = +4, 36 - 36 = 0, 50 - 36 = +14 (the delete undone): Anna +18 (docs/rules.md §1)
    assert exported["totals"]["units"]["Anna"] == 18
    r = client.post("/tables/import", data={"file": (__import__("io").BytesIO(json.dumps(exported).encode()), "t.json")},
                    content_type="multipart/form-data")
    assert client.get(r.headers["Location"] + "/export.json").get_json() == exported


@pytest.mark.parametrize("forged", ["x" * 100, "nul\x00"])
def test_a_forged_token_still_saves_the_hand(db_app, forged):
    t = new_table()
    # longer than changes.token's 64 characters, or with a NUL byte: PostgreSQL refused them, a 500
    hand = store.add_hand(t.id, HAND, "a" + forged)
    assert [(h.number, h.facts) for h in store.list_hands(t.id)] == [(1, HAND)]
    store.edit_hand(t.id, hand.number, OTHER, "e" + forged)
    assert store.list_hands(t.id)[0].facts == OTHER
    assert store.undo(t.id, "u" + forged) is not None
    assert store.list_hands(t.id)[0].facts == HAND
    assert store.by_token("a" + forged) is None  # not kept, so never found


@pytest.mark.parametrize("key", ["x" * 100, "nul\x00", "ü"])
def test_a_key_the_store_never_made_opens_nothing(db_app, key):
    client = db_app.test_client()
    assert store.find_link(key) is None
    for path in (f"/t/{key}", f"/v/{key}", f"/t/{key}/board", f"/t/{key}/share", f"/t/{key}/export.json"):
        assert client.get(path).status_code == 404, path
    assert client.post(f"/t/{key}/hands", data={"points": "40"}).status_code == 404
