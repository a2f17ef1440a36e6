"""Two phones writing at once, made deterministic: the first to reach a chosen statement is held there, inside its
transaction, until the other phone has tried (it is waiting for a lock) or is done; then it goes on.

What "waiting" is, is read from the database's own state, never guessed from time: on PostgreSQL a backend of the
test's database whose wait_event_type is 'Lock' (pg_stat_activity); on an SQLite file a phone queued for the one
writer (store.db._one_writer, which every write transaction passes). So a write that takes the row lock of what it
changes lets the other phone wait and then read what the first wrote; a write that doesn't lets the other phone
read, write and commit while the first holds its stale reading: the lost update the test is there to catch.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from sqlalchemy import event, text

from scorekeeper.store import db

LONGEST = 60  # seconds: a phone that neither waits nor finishes by then is a hang, failed, never waited out


def two_phones(app, first, second, hold: tuple[str, ...]) -> list:
    """Run `first()` and `second()` in two threads (each in an app context); return what each returned or raised.

    `hold`: the beginnings of the statements (e.g. "INSERT INTO pot_entries") at which the first phone to reach one
    waits, inside its transaction, until the other phone waits for a lock or has finished."""
    engine = app.extensions["store"]
    holds = tuple(h.upper() for h in hold)
    phone_of: dict[int, int] = {}
    done: set[int] = set()
    queued: set[int] = set()  # SQLite: phones waiting for the one writer, or holding it
    held: list[int] = []
    state = threading.Lock()

    def waiting(other: int) -> bool:
        if other in done:
            return True
        if engine.dialect.name == "postgresql":
            with engine.connect() as conn:
                return conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                                         " AND wait_event_type = 'Lock'")).scalar() > 0
        return other in queued

    def meet(conn, cursor, statement, *args):
        if not statement.lstrip().upper().startswith(holds):
            return
        me = phone_of.get(threading.get_ident())
        with state:
            if me is None or held:
                return
            held.append(me)
        deadline = time.monotonic() + LONGEST
        while not waiting(1 - me):
            if time.monotonic() > deadline:
                raise AssertionError(f"phone {1 - me} neither waited for a lock nor finished")
            time.sleep(0.002)  # polling the database's state, not waiting out a time

    original = db._one_writer

    @contextmanager
    def queue(eng):
        me = phone_of.get(threading.get_ident())
        if me is not None:
            with state:
                queued.add(me)
        try:
            with original(eng):
                yield
        finally:
            with state:
                queued.discard(me)

    def run(i, work):
        phone_of[threading.get_ident()] = i
        try:
            with app.app_context():
                return work()
        except Exception as e:  # what the phone was told: the test looks at it
            return e
        finally:
            with state:
                done.add(i)

    out: list = [None, None]
    threads = [threading.Thread(target=lambda i=i, w=w: out.__setitem__(i, run(i, w)))
               for i, w in enumerate((first, second))]
    event.listen(engine, "before_cursor_execute", meet)
    db._one_writer = queue
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(LONGEST * 2)
        assert not any(t.is_alive() for t in threads), "a phone hung"
    finally:
        db._one_writer = original
        event.remove(engine, "before_cursor_execute", meet)
    return out
