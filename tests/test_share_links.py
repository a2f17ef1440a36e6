"""A table is made with its two share links (a viewer's, a scorer's), however it comes to exist, so a page that is
only looked at never writes one; migration 0009 made them for the tables (and circles) from before."""
from __future__ import annotations

import io
import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa
from sqlalchemy import event, select

from scorekeeper import create_app, store
from scorekeeper.store.db import MIGRATIONS, is_key, make_engine, now
from scorekeeper.store.schema import circle_links
from tests.opening import TROCCAS, open_table

WRITES = ("INSERT", "UPDATE", "DELETE")


def keys_in_database(app, links, owner, owner_id) -> dict[str, str]:
    """The working keys as the database holds them, read without the app's code (which could make them)."""
    with app.extensions["store"].connect() as conn:
        return {r.role: r.key for r in conn.execute(select(links.c.role, links.c.key).where(
            links.c[owner] == owner_id, links.c.active.is_(True)))}


def links_of(app, table_id) -> list[tuple[str, bool]]:
    """The table's links as (role, active), sorted: what a table has, read from the database itself."""
    with app.app_context(), app.extensions["store"].connect() as conn:
        return sorted((r.role, r.active) for r in conn.execute(
            select(store.links.c.role, store.links.c.active).where(store.links.c.table_id == table_id)))


# add_links makes one of each, active: what every table has from its first moment
BOTH = [(store.SCORER, True), (store.VIEWER, True)]


def key_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


def new_circle(client) -> str:
    r = client.post("/circles/new", data={"name": "Thursdays at the Krone"})
    assert r.status_code == 303
    return r.headers["Location"]


def open_evening(client, circle_url) -> str:
    r = client.post(f"/tables/new/troccas?circle={key_of(circle_url)}", data=TROCCAS)
    assert r.status_code == 303
    return r.headers["Location"]


def in_threads(app, n, work) -> list:
    """Run `work` on n threads at once, each in the app's context (n phones at the same moment)."""
    def run(_i):
        with app.app_context():
            return work()
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(run, range(n)))


def statements(app):
    """Record the first word of every statement the app's engine runs from here on."""
    seen = []
    event.listen(app.extensions["store"], "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: seen.append(statement.split()[0].upper()))
    return seen


# ---- every way a table comes to exist ----

def test_a_table_opened_through_its_form_has_both_links(app, client):
    url = open_table(client)
    assert links_of(app, key_of(url)) == BOTH


def test_a_table_made_by_the_store_has_both_links_from_the_same_transaction(app):
    with app.app_context():
        seen = statements(app)
        event.listen(app.extensions["store"], "commit", lambda conn: seen.append("COMMIT"))  # not a statement
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
    # one BEGIN (IMMEDIATE: store.db.writing), the table's INSERT and its two links' (add_links), one COMMIT,
    # then get_table's read: one transaction made the table and its links
    assert seen[:seen.index("COMMIT") + 1] == ["BEGIN", "INSERT", "INSERT", "INSERT", "COMMIT"]
    assert links_of(app, table.id) == BOTH


def test_an_imported_table_has_both_links_of_its_own(app, client):
    url = open_table(client)
    exported = client.get(url + "/export.json").data
    r = client.post("/tables/import", data={"file": (io.BytesIO(exported), "table.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    imported = key_of(r.headers["Location"])
    assert imported != key_of(url) and links_of(app, imported) == BOTH
    with app.app_context():  # new keys, none of the exported table's
        assert set(store.share_links(imported).values()).isdisjoint(store.share_links(key_of(url)).values())


def test_an_evening_a_circle_starts_is_in_the_circle_with_both_links(app, client):
    circle = new_circle(client)
    evening = key_of(open_evening(client, circle))
    assert links_of(app, evening) == BOTH
    with app.app_context():
        assert store.circle_of(evening) == store.find_circle(key_of(circle)).id


def test_a_circle_and_its_imported_evenings_have_all_their_links(app, client):
    circle = new_circle(client)
    open_evening(client, circle)
    open_evening(client, circle)
    r = client.post("/circles/import", data={"file": (io.BytesIO(client.get(circle + "/export.json").data), "c.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    with app.app_context():
        imported = store.find_circle(key_of(r.headers["Location"]))
        evenings = [t.id for t in store.circle_tables(imported.id)]
        assert len(evenings) == 2  # the two evenings opened above
        assert [links_of(app, t) for t in evenings] == [BOTH, BOTH]
        with app.extensions["store"].connect() as conn:  # the circle's own two, made with it (create_circle)
            roles = sorted(conn.execute(select(circle_links.c.role).where(
                circle_links.c.circle_id == imported.id, circle_links.c.active.is_(True))).scalars())
        assert roles == [store.SCORER, store.VIEWER]


# ---- a page that is only looked at writes nothing ----

def test_the_first_look_at_a_tables_pages_writes_nothing(app, client):
    url = open_table(client)
    table_id = key_of(url)
    seen = statements(app)
    for path in (url, url + "/share", url + "/settle"):  # the creator's first looks, each page carrying a link
        assert client.get(path).status_code == 200, path
    keys = keys_in_database(app, store.links, "table_id", table_id)
    for path in (f"/t/{keys[store.SCORER]}", f"/t/{keys[store.SCORER]}/share", f"/v/{keys[store.VIEWER]}",
                 f"/t/{keys[store.VIEWER]}/share", f"/t/{keys[store.VIEWER]}/settle"):
        assert client.get(path).status_code == 200, path
    assert "SELECT" in seen  # the listener sees the pages' reads: a write would be seen too
    assert [s for s in seen if s in WRITES] == []
    assert links_of(app, table_id) == BOTH  # still the two made with the table


def test_the_first_look_at_a_circles_pages_writes_nothing(app, client):
    circle = new_circle(client)
    for _ in range(2):
        open_evening(client, circle)
    with app.app_context():
        circle_id = store.find_circle(key_of(circle)).id
    watch = keys_in_database(app, circle_links, "circle_id", circle_id)[store.VIEWER]
    seen = statements(app)
    for path in (circle, circle + "/share", circle + "/evenings", f"/c/{watch}", f"/c/{watch}/evenings"):
        assert client.get(path).status_code == 200, path
    page = client.get(circle).get_data(as_text=True)
    assert len(re.findall(r'href="/t/([^"]+)"', page)) >= 2  # both evenings listed, each by its scorer link
    assert "SELECT" in seen
    assert [s for s in seen if s in WRITES] == []


def test_two_phones_making_a_new_circle_scorer_link_at_once_leave_one_working(db_app):
    key = store.create_circle("Thursday")
    circle_id = store.find_circle(key).id
    # The first phone's new link waits, uncommitted, until the second has turned links off too, or could not (it
    # waits for the circle's lock): without the lock, the second's turning off misses the first's new link, which
    # stays working beside its own (PostgreSQL; SQLite takes one write at a time anyway).
    both = threading.Barrier(2)

    def meet(conn, cursor, statement, *args):
        if statement.lstrip().upper().startswith("INSERT INTO CIRCLE_LINKS"):
            try:
                both.wait(timeout=2)  # the other phone never comes while it waits for the lock: go on
            except threading.BrokenBarrierError:
                pass
    engine = db_app.extensions["store"]
    event.listen(engine, "before_cursor_execute", meet)
    try:
        made = in_threads(db_app, 2, lambda: store.new_scorer_link(circle_id, store.CIRCLE))
    finally:
        event.remove(engine, "before_cursor_execute", meet)
    working = keys_in_database(db_app, circle_links, "circle_id", circle_id)
    # under the circle's lock, one after another: each turns the last one's off, so the last one made is the one
    assert working[store.SCORER] in made and len(set(made)) == 2
    with db_app.extensions["store"].connect() as conn:
        active = conn.execute(select(circle_links.c.key).where(circle_links.c.circle_id == circle_id,
                                                               circle_links.c.role == store.SCORER,
                                                               circle_links.c.active.is_(True))).all()
    assert len(active) == 1  # 1 working scorer link, not one per phone


# ---- the fallback: a table without links (a row written outside the app) ----

def test_a_table_without_links_gets_one_pair_when_shared_and_a_warning(db_app, caplog):
    table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
    with db_app.extensions["store"].begin() as conn:
        conn.execute(sa.delete(store.links).where(store.links.c.table_id == table.id))
    with caplog.at_level(logging.WARNING, logger="scorekeeper.store.links"):
        pairs = in_threads(db_app, 4, lambda: store.share_links(table.id))
    assert all(p == pairs[0] for p in pairs)  # four phones at once: one pair, under the table's lock
    assert links_of(db_app, table.id) == BOTH
    assert "had no viewer or scorer link" in caplog.text


# ---- the migration ----

@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_migration_makes_the_links_tables_and_circles_from_before_lacked(request, tmp_path, backend):
    from alembic import command
    from alembic.config import Config

    url = f"sqlite:///{tmp_path / 'old.sqlite'}" if backend == "sqlite" else request.getfixturevalue("postgres_server")()
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    engine = make_engine(url)
    # the rows as a database at 0008 held them, written with the columns of the day (not the app's schema)
    old_tables = sa.table("tables", *(sa.column(c) for c in ("id", "game", "stake", "currency", "first_dealer",
                                                              "version")),
                          sa.column("players", sa.JSON), sa.column("rules", sa.JSON),
                          sa.column("created_at", sa.DateTime(timezone=True)), sa.column("circle_id"))
    old_links = sa.table("links", sa.column("key"), sa.column("table_id"), sa.column("role"),
                         sa.column("active", sa.Boolean), sa.column("created_at", sa.DateTime(timezone=True)))
    old_circles = sa.table("circles", sa.column("id"), sa.column("name"),
                           sa.column("created_at", sa.DateTime(timezone=True)))
    old_circle_links = sa.table("circle_links", sa.column("key"), sa.column("circle_id"), sa.column("role"),
                                sa.column("active", sa.Boolean), sa.column("created_at", sa.DateTime(timezone=True)))
    when = now()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0008")
        conn.execute(sa.insert(old_circles).values(id="old-circle", name="Krone", created_at=when))
        # its scorer link, made with it; its viewer's was made on first share, which this one never had
        conn.execute(sa.insert(old_circle_links).values(key="circle-scorer", circle_id="old-circle", role="scorer",
                                                        active=True, created_at=when))
        for table_id in ("never-shared", "shared", "rotated"):
            conn.execute(sa.insert(old_tables).values(
                id=table_id, game="troccas", players=["Anna", "Ben", "Cla", "Zoë"], rules={}, stake=5,
                currency="CHF", first_dealer=0, version=0, created_at=when,
                circle_id="old-circle" if table_id == "never-shared" else None))
        conn.execute(sa.insert(old_links), [
            dict(key="shared-viewer", table_id="shared", role="viewer", active=True, created_at=when),
            dict(key="shared-scorer", table_id="shared", role="scorer", active=True, created_at=when),
            # shared, then its scorer link turned off with the viewer kept: no working scorer link is left
            # (not a state the app made, which made the new one in the same transaction: one a repair must mend)
            dict(key="rotated-viewer", table_id="rotated", role="viewer", active=True, created_at=when),
            dict(key="rotated-old-scorer", table_id="rotated", role="scorer", active=False, created_at=when)])
    engine.dispose()

    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": url})  # migrates to head: 0009 runs
    try:
        assert links_of(app, "never-shared") == BOTH  # both made
        assert links_of(app, "shared") == BOTH  # nothing added: it had both
        assert links_of(app, "rotated") == [(store.SCORER, False), (store.SCORER, True), (store.VIEWER, True)]
        with app.app_context():
            assert store.share_links("shared") == {store.VIEWER: "shared-viewer", store.SCORER: "shared-scorer"}
            assert store.share_links("rotated")[store.VIEWER] == "rotated-viewer"
            made = [store.share_links("never-shared")[store.VIEWER], store.share_links("never-shared")[store.SCORER],
                    store.share_links("rotated")[store.SCORER]]
            # keys as _new_link makes them: secrets.token_urlsafe(16) is 16 random bytes, 22 URL-safe characters
            assert all(is_key(k) and len(k) == 22 for k in made) and len(set(made)) == 3
            assert store.find_link(made[0]) == store.Access("never-shared", store.VIEWER, True)
            circle = store.share_links("old-circle", store.CIRCLE)
            assert circle[store.SCORER] == "circle-scorer" and is_key(circle[store.VIEWER])
        client = app.test_client()
        seen = statements(app)
        for path in ("/t/never-shared", "/t/never-shared/share", "/t/never-shared/settle", "/c/circle-scorer"):
            assert client.get(path).status_code == 200, path
        assert "SELECT" in seen and [s for s in seen if s in WRITES] == []  # the links were there before the looks
    finally:
        app.extensions["store"].dispose()


def test_a_circle_without_its_viewer_link_gets_one_when_shared_and_a_warning(app, client, caplog):
    circle = new_circle(client)
    with app.app_context():
        circle_id = store.find_circle(key_of(circle)).id
    with app.extensions["store"].begin() as conn:
        conn.execute(sa.delete(circle_links).where(circle_links.c.circle_id == circle_id,
                                                   circle_links.c.role == store.VIEWER))
    with caplog.at_level(logging.WARNING, logger="scorekeeper.store.circles"):
        assert client.get(circle + "/share").status_code == 200
    watch = keys_in_database(app, circle_links, "circle_id", circle_id)
    assert sorted(watch) == [store.SCORER, store.VIEWER] and watch[store.SCORER] == key_of(circle)  # scorer kept
    assert "had no viewer link" in caplog.text
