"""A real TLS endpoint: gunicorn with a throwaway certificate, Chromium at phone size. Browsers decide what
to send (Referer, Secure cookies) on the real scheme, so this is where HTTPS is proven to work."""
import os
import re
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from tests.conftest import in_use
from playwright.sync_api import expect

from bench import server

pytestmark = pytest.mark.browser
WAIT = 20_000  # ms: a shared, busy machine can take seconds per page; behaviour is checked, never time
ROOT = Path(__file__).resolve().parent.parent


def certificate(tmp_path):
    """Make a one-day self-signed certificate for 127.0.0.1 (TOOLING.md); return (cert, key) paths."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@pytest.fixture
def https_server(tmp_path):
    """Serve the app over HTTPS with gunicorn (--certfile/--keyfile: TLS at the app server, as a club might run
    it without nginx) on a fresh SQLite database; yield the base URL."""
    cert, key = certificate(tmp_path)
    port = server.free_port()
    env = {k: v for k, v in os.environ.items() if k != "PROXY_FIX"}  # TLS ends at gunicorn: no proxy here
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'https.sqlite'}", SECRET_KEY="https-secret",
               PYTHONPATH=str(ROOT))  # serve this checkout, the code the tests import
    # as `make run` does: the database is made (migrated) once, before the workers start
    subprocess.run([sys.executable, "-m", "scorekeeper", "init-db"], cwd=tmp_path, env=env, check=True, timeout=120)
    log = open(tmp_path / "gunicorn.log", "w")  # read it if this test ever fails
    # 8 threads a worker, not make run's setup: gunicorn 27 gives each accepted connection a thread at once, and the
    # thread then waits for its TLS handshake; Chromium opens up to 6 connections to a host, some of them idle
    # (speculative), which with 2 threads a worker held every thread: the page didn't load about one run in three
    proc = subprocess.Popen([str(Path(sys.executable).with_name("gunicorn")), "--workers", "2", "--threads", "8",
                             "--bind", f"127.0.0.1:{port}", "--certfile", str(cert), "--keyfile", str(key),
                             "--no-control-socket", "scorekeeper:create_app()"],
                            cwd=tmp_path, env=env, stdout=log, stderr=log, start_new_session=True)
    base = f"https://127.0.0.1:{port}"
    trust = ssl.create_default_context(cafile=str(cert))  # and check the certificate names 127.0.0.1
    end = time.monotonic() + 60
    try:
        while True:  # ready when a worker answers over TLS
            try:
                with urllib.request.urlopen(base + "/api/v1/ping", context=trust, timeout=5) as r:
                    assert r.status == 200
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError("gunicorn did not start over HTTPS") from None
                time.sleep(0.2)
        yield base
    finally:
        server.stop(proc, signal.SIGKILL)
        log.close()


@pytest.fixture
def tls_browser(browser_type, browser_type_launch_args):
    """Chromium that takes the throwaway certificate at its own level. A context's ignore_https_errors alone lost a
    race about one run in three here: Chromium refused the certificate on every connection of the first page
    ("alert certificate unknown" in gunicorn's log) and the page never loaded. The scheme is still https."""
    args = [*browser_type_launch_args.get("args", []), "--ignore-certificate-errors"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()


def test_a_troccas_table_works_over_https(tls_browser, browser_context_args, https_server):
    context = tls_browser.new_context(**browser_context_args, ignore_https_errors=True)
    page = context.new_page()
    refused = []  # any 4xx/5xx of ours (a CSRF refusal is a 400)
    page.on("response", lambda r: refused.append((r.status, r.url)) if r.status >= 400 else None)
    try:
        page.goto(f"{https_server}/tables/new/troccas")
        for i, name in enumerate(["Anna", "Ben", "Cla", "Zoë"]):
            page.fill(f"#players-{i}", name)
        page.get_by_role("button", name="Open the table").click()  # POST 1: the form
        expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)
        assert page.url.startswith(https_server + "/t/")
        in_use(page)  # the hand form's script (it asks for the preview) has run: a tap now is a player's

        page.locator("fieldset", has=page.locator("legend", has_text="Anna plays with")).get_by_text(
            "Cla", exact=True).click()
        page.fill("input[name=points]", "40")
        # POST 2: htmx's preview (its X-CSRFToken header and the page's Referer)
        expect(page.locator("#preview .sentence")).to_be_visible(timeout=WAIT)
        page.locator("button.save").click()  # POST 3: save
        expect(page.locator(".hand-list > li")).to_have_count(1, timeout=WAIT)

        page.get_by_role("button", name="Undo: hand 1 added").click()  # POST 4: undo
        expect(page.locator(".hand-list > li")).to_have_count(0, timeout=WAIT)

        page.get_by_role("link", name="Share").click()
        expect(page.locator("[data-link=viewer]")).to_have_value(
            re.compile(rf"^{https_server}/v/[A-Za-z0-9_-]{{20,}}$"), timeout=WAIT)
        page.screenshot(path="/tmp/https-share.png", full_page=True)

        assert refused == []
        cookies = {c["name"]: c for c in context.cookies(https_server)}
        assert cookies["session"]["secure"] and cookies["session"]["httpOnly"]
        assert cookies["session"]["sameSite"] == "Lax"
    finally:
        context.close()
