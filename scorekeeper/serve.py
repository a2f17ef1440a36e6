"""`python -m scorekeeper serve`: one way to serve the app on any laptop or server.

gunicorn where it runs (Linux, macOS), as `make run` always did; waitress on Windows, where gunicorn does not
run, or anywhere with `--server waitress`. Both read the same settings from the environment: HOST, PORT,
WORKERS (gunicorn's processes; waitress runs one process with WORKERS × 2 threads).
"""
from __future__ import annotations

import os
import socket
import sys
from dataclasses import dataclass

THREADS = 2  # per gunicorn worker: one answers while the other waits on the disk or a phone (docs/deploy.md)
QUIET_PATHS = ("/healthz", "/readyz")  # asked every few seconds by a proxy or orchestrator: not logged


class Refused(Exception):
    """A setting the server can't start with; its message is the sentence to print."""


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    workers: int
    server: str  # "gunicorn" or "waitress"


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
        server = "waitress" if platform == "win32" else "gunicorn"
    if server not in ("gunicorn", "waitress"):
        raise Refused(f"serve: --server must be gunicorn or waitress, not {server!r}")
    if server == "gunicorn" and platform == "win32":
        raise Refused("serve: gunicorn does not run on Windows; use --server waitress (the default there)")
    host = env.get("HOST") or "127.0.0.1"
    port = _whole(env, "PORT", "5000", 1, 65535)
    workers = _whole(env, "WORKERS", "2", 1, 64)
    return Settings(host, port, workers, server)


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
    if chosen.server == "waitress":
        return _waitress(app, chosen)
    return _gunicorn(app, chosen)


def _app(chosen: Settings):
    """Open the app with the settings the pages need (the LAN address and its QR come from HOST and PORT)."""
    from . import create_app
    from .store.db import Unusable
    try:
        return create_app({"SERVE_HOST": chosen.host, "SERVE_PORT": str(chosen.port)})
    except Unusable as e:
        raise Refused(str(e)) from None


def _waitress(app, chosen: Settings) -> int:
    import waitress
    # One process: waitress reads each request whole before a thread takes it, so a slow phone holds no thread.
    waitress.serve(app, host=chosen.host, port=chosen.port, threads=chosen.workers * THREADS,
                   ident="scorekeeper", clear_untrusted_proxy_headers=True)
    return 0


def _gunicorn(app, chosen: Settings) -> int:
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
        "keepalive": 5,
        "accesslog": "-",
        "logger_class": QuietHealthLogger,
        "control_socket_disable": True,  # gunicorn 27's --no-control-socket: two servers may run side by side
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
            return _app(chosen)  # in each worker: its own connections

    app.extensions["store"].dispose()  # each worker opens its own app and connections after the fork
    Server().run()
    return 0
