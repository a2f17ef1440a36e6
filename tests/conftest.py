"""Shared fixtures: a fresh app per test, a live server for the browser, Chromium at phone size."""
from __future__ import annotations

import shutil
import sqlite3
import threading

import pytest
from hypothesis import settings
from werkzeug.serving import make_server

from scorekeeper import create_app

# The machine is shared and noisy: properties are about results, never about time.
settings.register_profile("scorekeeper", deadline=None, print_blob=True)
settings.load_profile("scorekeeper")

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def migrated(tmp_path_factory):
    """A SQLite database the migrations have brought to head, made once per test session: each test's database
    is a copy of it (migrating afresh cost a third of a second per test), and the app still checks its head."""
    path = tmp_path_factory.mktemp("migrated") / "head.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{path}"})
    app.extensions["store"].dispose()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the one file: a copy is the whole database
    conn.close()
    return path


@pytest.fixture
def sqlite_url(migrated, tmp_path):
    """Return a function that makes a database of this test's own, migrated (a copy), and gives its URL."""
    def make(name: str = "test.sqlite") -> str:
        shutil.copyfile(migrated, tmp_path / name)
        return f"sqlite:///{tmp_path / name}"
    return make


@pytest.fixture
def app(sqlite_url):
    """An app with its own instance folder and database."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": sqlite_url(),
        "WTF_CSRF_ENABLED": False,
    })
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def csrf_app(sqlite_url):
    """An app with CSRF protection on, as in production."""
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": sqlite_url()})


@pytest.fixture
def live_server(sqlite_url):
    """Serve a fresh app (CSRF on, as in production) from a thread; yield its base URL."""
    app = create_app({"SECRET_KEY": "live-secret", "DATABASE_URL": sqlite_url("live.sqlite")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


# ran, or never will: no #later on this page, or no script runs on it (JavaScript off: static/page.js never said
# they were coming)
LATER_RAN = ("() => !document.getElementById('later') || document.documentElement.dataset.later === 'ran'"
             " || (document.readyState === 'complete' && !document.documentElement.dataset.later)")


def in_use(page):
    """Wait until the page a tap opened has run its later scripts (the outbox, this phone's list of tables...), as
    a page opened with goto or reload does by itself (below)."""
    page.wait_for_function(LATER_RAN)


@pytest.fixture(scope="session", autouse=True)
def pages_used_once_their_later_scripts_ran():
    """A page a browser test opens (goto, reload) is used once its later scripts have run (app/base.html's #later,
    fetched after the load event: static/page.js), as a player's page is, a moment after it has loaded: the test
    waits on that state, not on Playwright's load event alone."""
    try:
        from playwright.sync_api import Page
    except ImportError:  # no browser here: nothing opens a page
        yield
        return
    goto, reload = Page.goto, Page.reload

    def used(method):
        def opened(self, *args, **kwargs):
            response = method(self, *args, **kwargs)
            in_use(self)
            return response
        return opened
    Page.goto, Page.reload = used(goto), used(reload)
    yield
    Page.goto, Page.reload = goto, reload


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium (no Playwright browser download here)."""
    return {**browser_type_launch_args, "executable_path": "/usr/bin/chromium", "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Every page is a phone held upright."""
    return {**browser_context_args, "viewport": PHONE, "is_mobile": True, "has_touch": True,
            "device_scale_factor": 2}


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory):
    """Start a throwaway PostgreSQL cluster (TOOLING.md); yield a function that makes a fresh database URL.

    Under CI=true a cluster that can't start is a failure, never a silent skip.
    """
    from tests.pgcluster import Cluster, Unavailable

    try:
        cluster = Cluster()
    except Unavailable as e:
        give_up(str(e))
    counter = iter(range(1, 1_000_000))
    yield lambda: cluster.database(f"test_{next(counter)}")
    cluster.remove()


@pytest.fixture
def own_postgres():
    """A PostgreSQL cluster of this test's own, which it may stop and start (a database outage)."""
    from tests.pgcluster import Cluster, Unavailable

    try:
        cluster = Cluster()
    except Unavailable as e:
        give_up(str(e))
    yield cluster
    cluster.remove()


def give_up(why):
    """A PostgreSQL test that can't run: under CI=true a failure, never a silent skip."""
    import os
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required in CI: {why}")
    pytest.skip(f"PostgreSQL not available: {why}")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_app(request, sqlite_url):
    """An app on a fresh, migrated database of each backend."""
    if request.param == "sqlite":
        url = sqlite_url("db.sqlite")
    else:
        url = request.getfixturevalue("postgres_server")()
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False})
    with app.app_context():
        yield app
    app.extensions["store"].dispose()
