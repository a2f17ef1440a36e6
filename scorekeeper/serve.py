"""`python -m scorekeeper serve`: one way to serve the app on any laptop or server.

waitress by default, on every OS (`make run`, the laptop at the table, a club server without a proxy): it reads
each request whole in its own loop before a thread sees it, so phones on one bar of signal, sending a request
slowly, hold no thread, and a normal Save is answered meanwhile (tests/test_serve.py, docs/deploy.md). One
process, WORKERS × 2 threads. `--server gunicorn` (not on Windows): WORKERS processes of 2 threads each, every
core used, for a server behind nginx, which buffers slow clients itself. Both read HOST, PORT and WORKERS.
"""
from __future__ import annotations

import os
import socket
import sys
import time
from dataclasses import dataclass

from . import create_app
from .store.db import Unusable
from .web.site import TOO_LARGE
from .web.startup import warm

THREADS = 2  # per gunicorn worker: one answers while the other waits on the disk or a phone (docs/deploy.md)
# Connections held open at once. A room's phones keep theirs open between requests (a browser keeps up to 6 per
# site, quiet, for minutes), and a server that has reached its limit takes no new one until a quiet one is closed:
# waitress's default of 100 locked every new phone out for up to 90 s when 110 phones had been in (issue 37).
# An open, quiet connection costs a file descriptor and a few KB: 1000 is 150 phones with 6 each, and more.
CONNECTIONS = 1000
QUIET = 60  # seconds a connection may stay silent (waitress's channel_timeout); a phone reconnects when it needs to
QUIET_PATHS = ("/healthz", "/readyz")  # asked every few seconds by a proxy or orchestrator: not logged


class Refused(Exception):
    """A setting the server can't start with; its message is the sentence to print."""


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    workers: int
    server: str  # "gunicorn" or "waitress"
    connections: int = CONNECTIONS  # connections open at once (per gunicorn worker)


def settings(env=os.environ, argv: list[str] | None = None, platform: str = sys.platform) -> Settings:
    """Read HOST, PORT, WORKERS and --server; raise Refused with a sentence for a value that can't work."""
    argv = list(argv or [])
    server = "auto"
    while argv:
        arg = argv.pop(0)
        if arg.startswith("--server="):
            server = arg.split("=", 1)[1]
        elif arg == "--server" and argv:
            server = argv.pop(0)
        else:
            raise Refused(f"serve: unknown argument {arg!r} (usage: serve [--server gunicorn|waitress])")
    if server == "auto":
        server = "waitress"
    if server not in ("gunicorn", "waitress"):
        raise Refused(f"serve: --server must be gunicorn or waitress, not {server!r}")
    if server == "gunicorn" and platform == "win32":
        raise Refused("serve: gunicorn does not run on Windows; use waitress (the default)")
    host = env.get("HOST") or "127.0.0.1"
    port = _whole(env, "PORT", "5000", 1, 65535)
    workers = _whole(env, "WORKERS", "2", 1, 64)
    connections = _whole(env, "CONNECTIONS", str(CONNECTIONS), 10, 100_000)
    return Settings(host, port, workers, server, connections)


def _whole(env, name: str, default: str, low: int, high: int) -> int:
    text = (env.get(name) or default).strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise Refused(f"{name}={text!r} is not a number from {low} to {high}.")
    return int(text)


def check_bind(host: str, port: int) -> None:
    """Try the address before the server does, so a port in use or a bad HOST is a sentence, not a traceback."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        raise Refused(f"HOST={host!r} is not an address of this computer: use 127.0.0.1 (this computer only) "
                      f"or 0.0.0.0 (phones on the same Wi-Fi).") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        if sys.platform != "win32":
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as both servers do
        try:
            s.bind(address)
        except OSError as e:
            if e.errno in (48, 98, 10048):  # EADDRINUSE on macOS, Linux, Windows
                raise Refused(f"Port {port} is already in use on {host}: stop the other server, or choose "
                              f"another port, e.g. PORT={port + 1 if port < 65535 else 5000}.") from None
            if e.errno in (13, 10013):  # EACCES
                raise Refused(f"Port {port} needs administrator rights on this computer: choose one from "
                              f"1024 up, e.g. PORT=5000.") from None
            raise Refused(f"Can't listen on {host}:{port} ({e.strerror}): HOST must be an address of this "
                          f"computer, e.g. 127.0.0.1 or 0.0.0.0.") from None


def main(argv: list[str]) -> int:
    """Check the settings and the address, open the app (which brings the database up to date), serve."""
    try:
        chosen = settings(argv=argv)
        check_bind(chosen.host, chosen.port)
        app = _app(chosen)  # here, not first in a worker: the database is brought up to date before serving
    except Refused as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    shown = "127.0.0.1" if chosen.host in ("0.0.0.0", "::") else chosen.host
    print(f"Scorekeeper on http://{shown}:{chosen.port}/ ({chosen.server}); Ctrl-C stops it.", flush=True)
    trusted = app.config["PROXY_FIX"] > 0
    app.extensions["store"].dispose()  # gunicorn's workers open their own app and connections after the fork
    return run(lambda: app if chosen.server == "waitress" else _app(chosen), chosen, trusted)


def run(make_app, chosen: Settings, proxied: bool = False) -> int:
    """Serve the WSGI app `make_app()` makes, as `chosen` says: the one way both servers are set up (make bench
    serves a bare Flask app through it too, so its baseline runs under the very same server). `proxied`: a proxy
    in front, whose X-Forwarded-* headers gunicorn may believe."""
    if chosen.server == "waitress":
        return _waitress(make_app(), chosen)
    return _gunicorn(make_app, chosen, proxied)


def _app(chosen: Settings):
    """Open the app with the settings the pages need (the LAN address and its QR come from HOST and PORT), warmed:
    what its first requests would do once is done now (web/startup.py). In the process that serves it, and first in
    gunicorn's master, whose work its workers inherit."""
    try:
        app = create_app({"SERVE_HOST": chosen.host, "SERVE_PORT": str(chosen.port)})
    except Unusable as e:
        raise Refused(str(e)) from None
    warm(app)
    return app


def _waitress(app, chosen: Settings) -> int:
    import logging
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt  # waitress finishes the requests under way, then serve returns: exit 0
    signal.signal(signal.SIGTERM, stop)  # docker stop, systemctl stop (a container's PID 1 has no default action)
    # One process: waitress reads each request whole before a thread takes it, so a slow phone holds no thread.
    # X-Forwarded-* headers are left to the app, which believes them only with PROXY_FIX (docs/deploy.md).
    body = (getattr(app, "config", {}).get("MAX_CONTENT_LENGTH") or 4 * 1024 * 1024) + 64 * 1024
    room_for(chosen.connections)
    logging.basicConfig()  # as waitress.serve: its warnings on stderr
    server = _app_answers_too_large(
        AccessLog(app), host=chosen.host, port=chosen.port, threads=chosen.workers * THREADS,
        ident="",  # no Server header: 21 bytes on every answer that tell a phone nothing (RFC 9110 makes it optional)
        clear_untrusted_proxy_headers=False,
        max_request_body_size=body,  # the app refuses more anyway (and answers for waitress beyond it: below)
        connection_limit=chosen.connections + 2,  # waitress counts its listening socket and wake-up pipe too
        asyncore_use_poll=True,  # select() can't watch a descriptor numbered 1024 or more; poll() can
        channel_timeout=QUIET, cleanup_interval=QUIET // 4)
    server.run()
    return 0


def _app_answers_too_large(app, **kw):
    """waitress's server, whose refusal of a body over max_request_body_size is the app's own answer: waitress
    refuses it before a thread sees it, with an English text/plain 413 of its own; here the app is asked instead,
    without the body, and answers with its sentence, in the phone's language, as JSON under /api/ (web/site.py:
    TOO_LARGE). The connection is closed after it, as waitress does: the rest of the body is never read.

    And a connection stays open after an answer that has no body (a 304, the answer of every quiet poll: waitress
    3.0.2 closes the connection after any answer without a Content-Length, though HTTP/1.1 sends none for a 304 and
    the next request can follow at once), so a watching phone polling every 2 s keeps one connection, not a new one
    (and over HTTPS a new handshake) a poll."""
    import io

    from waitress import create_server
    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask, WSGITask
    from waitress.utilities import RequestEntityTooLarge

    class TooLarge(WSGITask):
        def get_environment(self):
            environ = dict(super().get_environment())
            environ.update({TOO_LARGE: True, "wsgi.input": io.BytesIO(), "CONTENT_LENGTH": "0"})
            return environ

        def execute(self):
            self.set_close_on_finish()
            super().execute()

    class KeptOpen(WSGITask):
        def set_close_on_finish(self):
            bodiless = not self.has_body and self.version == "1.1" and not self.wrote_header
            if bodiless and self.request.headers.get("CONNECTION", "").lower() != "close":
                return  # (a 304 or 204: its end is its headers' end; the phone's next request can follow)
            super().set_close_on_finish()

    class Channel(HTTPChannel):
        task_class = KeptOpen

        @staticmethod
        def error_task_class(channel, request):
            if isinstance(request.error, RequestEntityTooLarge) and request.command:
                return TooLarge(channel, request)
            return ErrorTask(channel, request)

    server = create_server(app, **kw)
    for one in [server, *getattr(server, "map", {}).values()]:  # one listening socket, or several (MultiSocket)
        if hasattr(one, "channel_class"):
            one.channel_class = Channel
    return server


def room_for(connections: int) -> None:
    """Let this process open a file descriptor per connection, and some for the database and files: raise its
    soft limit (often 1024) up to the hard one if need be, and say so if even that is too few."""
    try:
        import resource
    except ImportError:  # Windows: no such limit per process
        return
    needed = connections + 64
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        if target < needed:
            print(f"warning: CONNECTIONS={connections} needs {needed} open files, and this system lets this process "
                  f"open {target}: raise its limit (LimitNOFILE= in a systemd unit, ulimit -n) or lower "
                  f"CONNECTIONS.", file=sys.stderr, flush=True)


class AccessLog:
    """One line per request on stdout, as gunicorn's access log writes it (waitress has none); not the health
    checks a proxy sends every few seconds."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") in QUIET_PATHS:
            return self.app(environ, start_response)
        seen = {}

        def logging_start_response(status, headers, exc_info=None):
            seen["status"] = status.split(" ", 1)[0]
            return start_response(status, headers, exc_info)

        body = self.app(environ, logging_start_response)
        path = environ.get("PATH_INFO", "") + ("?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else "")
        print(f'{environ.get("REMOTE_ADDR", "-")} - - [{time.strftime("%d/%b/%Y:%H:%M:%S %z")}] '
              f'"{environ.get("REQUEST_METHOD")} {path} {environ.get("SERVER_PROTOCOL")}" {seen.get("status", "-")}',
              flush=True)
        return body


class DrainRefusedBody:
    """gunicorn: the body of a request the app refused unread (a 413: over MAX_CONTENT_LENGTH) is read to its end
    and dropped, so the next request on the same keep-alive connection is read as a request and answered, not
    taken from the middle of that body. Up to DRAIN bytes; a body longer than that closes the connection (gunicorn
    ignores an app's Connection header). waitress reads each body whole before the app sees it: not needed there."""

    DRAIN = 16 * 1024 * 1024

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        refused = {}

        def noting(status, headers, exc_info=None):
            refused["413"] = status.startswith("413")
            return start_response(status, headers, exc_info)

        body = self.app(environ, noting)
        if refused.get("413"):
            stream, left = environ["wsgi.input"], min(int(environ.get("CONTENT_LENGTH") or 0), self.DRAIN)
            while left > 0 and (chunk := stream.read(min(left, 65536))):
                left -= len(chunk)
        return body


def _gunicorn(make_app, chosen: Settings, proxied: bool) -> int:
    from gunicorn.app.base import BaseApplication
    from gunicorn.glogging import Logger

    class QuietHealthLogger(Logger):
        """gunicorn's access log, without the health checks a proxy sends every few seconds."""

        def access(self, resp, req, environ, request_time):
            if environ.get("PATH_INFO") not in QUIET_PATHS:
                super().access(resp, req, environ, request_time)

    options = {
        "bind": f"[{chosen.host}]:{chosen.port}" if ":" in chosen.host else f"{chosen.host}:{chosen.port}",
        "workers": chosen.workers,
        "threads": THREADS,
        "worker_connections": chosen.connections,  # gthread workers: connections open at once, per worker
        "keepalive": 5,
        "accesslog": "-",
        "logger_class": QuietHealthLogger,
        "control_socket_disable": True,  # gunicorn 27's --no-control-socket: two servers may run side by side
        # gunicorn itself believes X-Forwarded-Proto from 127.0.0.1 by default; here only with PROXY_FIX, as the app
        "forwarded_allow_ips": "127.0.0.1,::1" if proxied else "",
    }
    if os.path.isdir("/dev/shm"):
        options["worker_tmp_dir"] = "/dev/shm"  # the workers' heartbeat in memory, not on a (container's) disk

    class Server(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)
            # GUNICORN_CMD_ARGS adds or overrides settings, as for the gunicorn command (docs/deploy.md)
            parsed = self.cfg.parser().parse_args(self.cfg.get_cmd_args_from_env())
            for key, value in vars(parsed).items():
                if value is not None and key.lower() in self.cfg.settings:
                    self.cfg.set(key.lower(), value)

        def load(self):
            return DrainRefusedBody(make_app())  # in each worker: its own connections

    Server().run()
    return 0
