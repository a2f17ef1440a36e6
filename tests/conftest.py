"""Shared fixtures: a fresh app per test, a live server for the browser, Chromium at phone size."""
from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def app(tmp_path):
    """An app with its own instance folder and database."""
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}",
        "WTF_CSRF_ENABLED": False,
    })
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def csrf_app(tmp_path):
    """An app with CSRF protection on, as in production."""
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret",
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}"})


@pytest.fixture
def live_server(tmp_path):
    """Serve a fresh app (CSRF on, as in production) from a thread; yield its base URL."""
    app = create_app({"SECRET_KEY": "live-secret",
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite'}"})
    init = getattr(__import__("scorekeeper"), "store", None)
    if init is not None and hasattr(init, "upgrade"):
        with app.app_context():
            init.upgrade(app)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium (no Playwright browser download here)."""
    return {**browser_type_launch_args, "executable_path": "/usr/bin/chromium", "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Every page is a phone held upright."""
    return {**browser_context_args, "viewport": PHONE, "is_mobile": True, "has_touch": True,
            "device_scale_factor": 2}
