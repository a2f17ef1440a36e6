"""`python -m scorekeeper serve`: gunicorn or waitress, the same settings, and a sentence for what can't work."""
from __future__ import annotations

import html
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from scorekeeper.serve import Refused, check_bind, settings
from bench.server import free_port
from tests.phone import Phone

TROCCAS = {"players-0": "Anna", "players-1": "Ben", "players-2": "Cla", "players-3": "Zoë",
           "first_dealer": "0", "stake": "0.05", "currency": "CHF", "rule_all_tricks_take_scart": "y"}


def test_settings_default_to_waitress_on_127_0_0_1_port_5000_with_2_workers_everywhere():
    assert settings({}, [], "linux") == settings({}, [], "darwin") == settings({}, [], "win32")
    chosen = settings({}, [], "linux")
    assert (chosen.host, chosen.port, chosen.workers, chosen.server) == ("127.0.0.1", 5000, 2, "waitress")
    assert settings({}, ["--server", "gunicorn"], "linux").server == "gunicorn"


def test_windows_refuses_gunicorn():
    with pytest.raises(Refused, match="gunicorn does not run on Windows"):
        settings({}, ["--server", "gunicorn"], "win32")
    assert settings({"HOST": "0.0.0.0", "PORT": "8080"}, ["--server=waitress"], "linux").port == 8080


@pytest.mark.parametrize("env, argv, words", [
    ({"PORT": "http"}, [], "PORT='http' is not a number from 1 to 65535."),
    ({"PORT": "70000"}, [], "PORT='70000' is not a number from 1 to 65535."),
    ({"WORKERS": "0"}, [], "WORKERS='0' is not a number from 1 to 64."),
    ({}, ["--server", "uwsgi"], "--server must be gunicorn or waitress, not 'uwsgi'"),
    ({}, ["--verbose"], "unknown argument '--verbose'"),
])
def test_bad_settings_are_a_sentence(env, argv, words):
    with pytest.raises(Refused) as refused:
        settings(env, argv, "linux")
    assert words in str(refused.value)


def test_a_port_in_use_and_a_bad_host_are_sentences():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(Refused, match=f"Port {port} is already in use on 127.0.0.1: stop the other server"):
            check_bind("127.0.0.1", port)
    with pytest.raises(Refused, match="HOST='no-such-host.invalid' is not an address of this computer"):
        check_bind("no-such-host.invalid", free_port())
    with pytest.raises(Refused, match="HOST must be an address of this computer"):
        check_bind("192.0.2.1", free_port())  # TEST-NET-1 (RFC 5737): never this machine's address


def serve(tmp_path, *args, env=None) -> subprocess.Popen:
    log = open(tmp_path / "serve.log", "w")
    return subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", *args], cwd=tmp_path,
                            env={**os.environ, "INSTANCE_PATH": str(tmp_path / "instance"), **(env or {})},
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def wait_for(url: str, proc: subprocess.Popen, seconds: float = 60) -> None:
    """Wait until the server answers (or has died): a state, with a generous deadline for a loaded machine."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert proc.poll() is None, "the server stopped before it answered"
        try:
            get(url)
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"{url} did not answer")


@pytest.mark.parametrize("server", ["gunicorn", "waitress"])
def test_serve_answers_pages_and_health_and_logs_no_health_checks(tmp_path, server):
    port = free_port()
    proc = serve(tmp_path, "--server", server, env={"PORT": str(port), "WORKERS": "2"})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/healthz", proc)
        assert get(base + "/healthz") == (200, "ok\n")
        assert get(base + "/readyz") == (200, "ready\n")
        phone = Phone(port)
        assert phone.request("GET", "/")[0].status == 200
        phone.request("GET", "/tables/new/troccas")
        opened, _ = phone.request("POST", "/tables/new/troccas", TROCCAS)
        assert opened.status == 303
        table = opened.getheader("Location")
        page, text = phone.request("GET", table)
        assert page.status == 200 and "Anna" in text
        saved, _ = phone.request("POST", table + "/hands", {"partner": "Cla", "side": "first", "points": "40",
                                                            "token": "serve-test-hand-1"})
        assert saved.status == 303
        page, text = phone.request("GET", table)
        assert "Hand 1" in text and "Hand 2" in text  # hand 1 in the history, hand 2's form
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    log = (tmp_path / "serve.log").read_text()
    assert f"Scorekeeper on http://127.0.0.1:{port}/ ({server})" in log
    assert "Traceback" not in log
    assert (tmp_path / "instance" / "scorekeeper.sqlite").exists()  # INSTANCE_PATH holds the database
    # the access log: the pages, not the health checks (gunicorn's own; waitress has none: serve.AccessLog)
    assert '"GET / HTTP/1.1" 200' in log and '"POST /tables/new/troccas HTTP/1.1" 303' in log
    assert "/healthz" not in log and "/readyz" not in log


def test_serve_on_a_port_in_use_says_so_without_a_traceback(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = serve(tmp_path, env={"PORT": str(port)})
        assert proc.wait(timeout=60) == 2
    log = (tmp_path / "serve.log").read_text()
    assert log == (f"error: Port {port} is already in use on 127.0.0.1: stop the other server, or choose another "
                   f"port, e.g. PORT={port + 1}.\n")


def test_a_malformed_database_url_is_a_sentence_naming_it_without_the_password(tmp_path):
    proc = serve(tmp_path, env={"PORT": str(free_port()), "DATABASE_URL": "postgresql://bob:hunter2@db:notaport/x"})
    assert proc.wait(timeout=60) == 2
    log = (tmp_path / "serve.log").read_text()
    assert log.startswith("error: DATABASE_URL ") and "Traceback" not in log
    assert "hunter2" not in log


def test_a_database_that_is_down_is_a_sentence_without_the_password(tmp_path):
    # nothing listens on port 1 of this machine: as a stopped PostgreSQL
    proc = serve(tmp_path, env={"PORT": str(free_port()), "DATABASE_URL": "postgresql://bob:hunter2@127.0.0.1:1/x"})
    assert proc.wait(timeout=60) == 2
    log = (tmp_path / "serve.log").read_text()
    assert log.startswith("error: The database in DATABASE_URL (postgresql+psycopg://bob:***@127.0.0.1:1/x) "
                          "can't be used: ")
    assert "hunter2" not in log and "Traceback" not in log


def test_twenty_slow_phones_do_not_keep_a_save_waiting(tmp_path):
    """Phones on one bar of signal send their requests slowly. The server `make run` starts (serve's default)
    reads each request whole before a thread sees it, so 20 half-sent requests hold no thread and a normal Save
    is answered while they are still hanging (with gunicorn's 2 workers x 2 threads, 4 of them stalled it)."""
    port = free_port()
    proc = serve(tmp_path, env={"PORT": str(port), "WORKERS": "2"})
    slow = []
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc)
        phone = Phone(port)
        phone.request("GET", "/tables/new/troccas")
        table = phone.request("POST", "/tables/new/troccas", TROCCAS)[0].getheader("Location")
        phone.request("GET", table)
        for n in range(20):  # headers and part of a body sent; the rest never comes
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(f"POST {table}/hands HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-"
                      f"urlencoded\r\nContent-Length: 400\r\n\r\npoints=4".encode())
            slow.append(s)
        started = time.monotonic()
        saved, _ = phone.request("POST", table + "/hands", {"partner": "Cla", "side": "first", "points": "40",
                                                              "token": "fast-phone-1"})
        took = time.monotonic() - started
        assert saved.status == 303
        assert all(s.fileno() != -1 for s in slow)  # still connected, still not answered
        print(f"a Save beside 20 slow requests: {took * 1000:.0f} ms")  # the figure for the note
    finally:
        for s in slow:
            s.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def quiet_phones(port: int, n: int) -> list[http.client.HTTPConnection]:
    """`n` phones that asked once and keep their connection open, quiet (HTTP/1.1 keep-alive), as a room's
    phones do between two looks at the table."""
    phones = []
    for _ in range(n):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)  # a hang, not a time: 0.1 s when let in
        conn.request("GET", "/healthz")
        answer = conn.getresponse()
        assert answer.status == 200 and answer.read() == b"ok\n" and not answer.will_close
        phones.append(conn)
    return phones


def test_150_quiet_phones_lock_no_new_phone_out(tmp_path):
    """A cup night: 150 phones that looked once keep their connections open. waitress's own default limit (100)
    took no new connection then until quiet ones were closed (60 to 90 s later): the 101st phone, and every one
    after it, waited (issue 37). serve's limit (CONNECTIONS, 1000) lets them all in, and a new phone's Save too."""
    port = free_port()
    proc = serve(tmp_path, env={"PORT": str(port), "WORKERS": "2"})
    phones = []
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc)
        phones = quiet_phones(port, 150)
        phone = Phone(port)  # a new phone: opens a table and saves a hand, each request on a new connection
        phone.request("GET", "/tables/new/troccas")
        table = phone.request("POST", "/tables/new/troccas", TROCCAS)[0].getheader("Location")
        saved, _ = phone.request("POST", table + "/hands", {"partner": "Cla", "side": "first", "points": "40",
                                                              "token": "room-phone-1"})
        assert saved.status == 303
        for conn in phones[:3]:  # and the quiet ones are still there, answered on their own connection
            conn.request("GET", "/healthz")
            assert conn.getresponse().read() == b"ok\n"
    finally:
        for conn in phones:
            conn.close()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert "connection limit" not in (tmp_path / "serve.log").read_text()  # waitress's warning when it is reached


def test_connections_is_a_setting_and_a_bad_one_is_a_sentence():
    assert settings({}, [], "linux").connections == 1000
    assert settings({"CONNECTIONS": "5000"}, [], "linux").connections == 5000
    with pytest.raises(Refused, match="CONNECTIONS='many' is not a number from 10 to 100000."):
        settings({"CONNECTIONS": "many"}, [], "linux")


def test_gunicorn_believes_forwarded_headers_only_with_proxy_fix(tmp_path):
    # gunicorn's own default trusts X-Forwarded-Proto from 127.0.0.1; serve turns that off unless PROXY_FIX says
    # a proxy is in front: an https claim from anyone else must not make the session cookie Secure-only
    port = free_port()
    proc = serve(tmp_path, "--server", "gunicorn", env={"PORT": str(port), "PROXY_FIX": "0"})
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc)
        phone = Phone(port)
        answer, _ = phone.request("GET", "/tables/new/troccas", headers={"X-Forwarded-Proto": "https"})
        assert answer.status == 200
        assert "Secure" not in (answer.getheader("Set-Cookie") or "")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def too_large_then_next(port: int) -> tuple[bytes, bytes]:
    """Post 300 KB to a form (over MAX_FORM_SIZE, refused with 413 before it is read), then ask for /healthz on
    the same connection; return both answers' bytes (b"" for the second if the server closed the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        size = 300 * 1024
        s.sendall(f"POST /tables/new/troccas HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-"
                  f"urlencoded\r\nContent-Length: {size}\r\n\r\n".encode() + b"x" * size)
        first = b""
        while b"\r\n\r\n" not in first:
            first += s.recv(65536)
        head, _, body = first.partition(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
        while len(body) < length:
            body += s.recv(65536)
        try:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            second = s.recv(65536)
        except OSError:
            second = b""
    return head, second


@pytest.mark.parametrize("server", ["waitress", "gunicorn"])
def test_a_request_after_a_refused_large_upload_is_answered_on_the_same_connection(tmp_path, server):
    port = free_port()
    proc = serve(tmp_path, "--server", server, env={"PORT": str(port)})
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc)
        head, second = too_large_then_next(port)
        assert head.startswith(b"HTTP/1.1 413")
        # the refused body is not read as the next request (waitress reads every body first; with gunicorn
        # serve.DrainRefusedBody reads it after the app refused it): the health check on the same connection answers
        assert second.startswith(b"HTTP/1.1 200 OK")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def oversize(port: int, path: str, language: str) -> tuple[bytes, bytes]:
    """Send the headers of a 3 MB body (over MAX_CONTENT_LENGTH, 2 MB, and over waitress's own limit, 2 MB + 64 KB)
    and as much of it as the server takes; return the answer's head and body."""
    size = 3 * 1024 * 1024
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  f"Accept-Language: {language}\r\nContent-Length: {size}\r\n\r\n".encode())
        try:
            s.sendall(b"x" * size)
        except OSError:
            pass  # the server answered and closed without reading it all
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            found = re.search(rb"(?i)content-length: (\d+)", head)
            if found and len(body) >= int(found.group(1)):
                break
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


@pytest.mark.parametrize("server", ["waitress", "gunicorn"])
def test_a_body_over_the_limit_gets_the_apps_own_answer_whatever_the_server(tmp_path, server):
    """Issue 37: waitress refused a body over 2 MB itself, with an English text/plain 413 the phone can't show in
    its language nor read as JSON; the app answers it instead, as it answers one it refuses itself."""
    port = free_port()
    proc = serve(tmp_path, "--server", server, env={"PORT": str(port)})
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc)
        head, body = oversize(port, "/api/v1/score", "en")
        assert head.startswith(b"HTTP/1.1 413") and b"application/json" in head
        assert json.loads(body) == {"error": {"code": "bad_request",
                                              "message": "That is far too much data for one request."}}
        head, body = oversize(port, "/tables/import", "de")
        assert head.startswith(b"HTTP/1.1 413") and b"text/html" in head
        assert "Das sind viel zu viele Daten für eine Anfrage." in html.unescape(body.decode())
        assert get(f"http://127.0.0.1:{port}/healthz") == (200, "ok\n")  # and the server goes on
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert "Traceback" not in (tmp_path / "serve.log").read_text()


def test_the_served_app_is_warmed_before_its_first_request(tmp_path, monkeypatch, sqlite_url):
    """Issue 29, item 6: the app serve opens has done what a new release's first requests used to wait for (every
    template loaded, every script and style sheet compressed): after it, a table's page, a Save, a poll, the count
    and home pages and the app's files are answered without reading a template's source or compressing a file."""
    from scorekeeper import serve as serving
    from scorekeeper.web import precompressed
    monkeypatch.setattr(precompressed, "_kept", {})  # nothing compressed by an earlier test in this process
    monkeypatch.setenv("DATABASE_URL", sqlite_url())
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SECRET_KEY", "warm")
    app = serving._app(settings({}, ["--server", "gunicorn"], "linux"))
    app.config["WTF_CSRF_ENABLED"] = False

    def never(*args, **kwargs):
        raise AssertionError("done on a request, not at the start")
    monkeypatch.setattr(app.jinja_env.loader, "get_source", never)  # a template not loaded yet would be read
    monkeypatch.setattr(precompressed, "encodings", never)
    phone = app.test_client()
    opened = phone.post("/tables/new/troccas", data=TROCCAS)
    table = opened.headers["Location"]
    assert phone.get(table, headers={"Accept-Language": "de-CH"}).status_code == 200
    assert phone.post(table + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": "w1"},
                      headers={"HX-Request": "true", "HX-Target": "hand-form"}).status_code == 200
    assert phone.get(table + "/board").status_code == 200
    for path in ("/", "/count/troccas", "/offline", "/sw.js", "/static/app.css", "/static/vendor/htmx-2.0.11.min.js"):
        assert phone.get(path, headers={"Accept-Encoding": "br"}).status_code == 200, path


def test_the_warm_up_scores_a_hand_of_each_game(app):
    """Issue 40, item 5: what a game works out once and keeps (French Tarot's table of the piles real cards give,
    ~70 ms) is worked out at the start, not on the first table page: scoring the rules page's hand of each game
    afterwards finds it kept."""
    from scorekeeper.engine import examples
    from scorekeeper.engine.games import all_games, french_tarot
    from scorekeeper.web.startup import warm
    french_tarot._possible.cache_clear()
    warm(app)
    kept = french_tarot._possible.cache_info()
    assert kept.currsize >= 1
    for game in all_games().values():
        example = examples.example(game)
        if example is not None:
            examples.engine_result(game, example)
    assert french_tarot._possible.cache_info().misses == kept.misses  # nothing worked out again


def test_a_quiet_poll_answered_304_keeps_its_connection_under_waitress(tmp_path):
    """A watching phone polls every 2 s and is mostly answered 304 (nothing new). waitress 3.0.2 closes the connection
    after any answer without a Content-Length, a 304 too (serve.py KeptOpen keeps it open), so every quiet poll
    cost a new connection: over HTTPS a new handshake. Here three 304s come on one connection."""
    port = free_port()
    proc = serve(tmp_path, "--server", "waitress", env={"PORT": str(port), "WORKERS": "1"})
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc)
        phone = Phone(port)
        phone.request("GET", "/tables/new/troccas")
        table = phone.request("POST", "/tables/new/troccas", TROCCAS)[0].getheader("Location")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", table, headers={"Cookie": phone.cookie})
        first = conn.getresponse()
        first.read()
        tag, sock = first.getheader("ETag"), conn.sock
        assert first.status == 200 and tag
        for _ in range(3):
            conn.request("GET", table, headers={"Cookie": phone.cookie, "If-None-Match": tag})
            again = conn.getresponse()
            again.read()
            assert again.status == 304 and again.getheader("Connection") != "close" and not again.will_close
            assert conn.sock is sock  # the same connection: http.client opened no new one
        conn.request("GET", table, headers={"Cookie": phone.cookie, "If-None-Match": tag, "Connection": "close"})
        last = conn.getresponse()
        assert last.status == 304 and last.will_close  # a phone that asks to close is closed
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
