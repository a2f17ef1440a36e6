"""A database outage during an evening, in Chromium at phone size (issue 25): the hands typed while PostgreSQL is
stopped, or while SQLite's disk is full, wait on the phone, and arrive once the database is back, each once."""
import pytest
from playwright.sync_api import expect

from scorekeeper import create_app
from test_offline_browser import open_troccas, phones, points_on_server, save_online, serve_on, troccas_hand  # noqa: F401
from test_outage import fill, tiny_disk  # noqa: F401
from test_tables_browser import WAIT

pytestmark = pytest.mark.browser


@pytest.mark.postgres
def test_hands_saved_while_postgresql_is_stopped_arrive_once_it_is_back(phones, own_postgres):  # noqa: F811
    app = create_app({"SECRET_KEY": "outage-secret", "DATABASE_URL": own_postgres.database("evening"),
                      "RATELIMIT_ENABLED": False})
    server = serve_on(app, 0)
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        anna = phones()
        table = open_troccas(anna, base)
        troccas_hand(anna, 40)
        save_online(anna)
        own_postgres.stop()  # every connection cut, as when the database machine goes down
        for points in (30, 45):
            troccas_hand(anna, points)
            anna.locator("button.save").click()
            # the Save's answer was a 503: the hand waits on the phone, and the form is ready for the next one
            expect(anna.locator("#waiting li")).to_have_count(1 if points == 30 else 2, timeout=WAIT)
            expect(anna.locator("input[name=points]")).to_have_value("")
        expect(anna.locator("#waiting li").first).to_contain_text("30")
        expect(anna.locator("#hands .hand-list > li")).to_have_count(1)  # nothing claims they were saved
        own_postgres.start()
        expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)  # sent by itself, in order
        # 40 before the outage, then 30 and 45 typed during it: each once (their tokens keep a resend single)
        assert points_on_server(anna, table) == [40, 30, 45]
        anna.reload()
        expect(anna.locator("#hands .hand-list > li")).to_have_count(3, timeout=WAIT)
    finally:
        server.shutdown()
        app.extensions["store"].dispose()


def test_hands_saved_while_the_sqlite_disk_is_full_arrive_once_there_is_room(phones, tiny_disk):  # noqa: F811
    app = create_app({"SECRET_KEY": "disk-secret", "DATABASE_URL": f"sqlite:///{tiny_disk / 'db.sqlite'}",
                      "RATELIMIT_ENABLED": False})
    server = serve_on(app, 0)
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        anna = phones()
        table = open_troccas(anna, base)
        troccas_hand(anna, 40)
        save_online(anna)
        filler = fill(tiny_disk)  # the disk is full: SQLite can write nothing more ("database or disk is full")
        for n, points in enumerate((30, 45), 1):
            troccas_hand(anna, points)
            anna.locator("button.save").click()
            expect(anna.locator("#waiting li")).to_have_count(n, timeout=WAIT)  # kept on the phone
        expect(anna.locator("#hands .hand-list > li")).to_have_count(1)
        filler.unlink()  # room again
        expect(anna.locator("#waiting li")).to_have_count(0, timeout=WAIT)
        assert points_on_server(anna, table) == [40, 30, 45]  # each once, in order
    finally:
        server.shutdown()
        app.extensions["store"].dispose()
