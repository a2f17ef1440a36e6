"""Serve the app with gunicorn (2 workers x 2 threads, as `make run` does) for the benchmarks and the crash test."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

GUNICORN = Path(sys.executable).with_name("gunicorn")
# A load test is one client sending thousands of requests: lift the per-client rate limits (the limiter
# still runs, so its cost is measured).
NO_LIMITS = {"RATELIMIT_API": "1000000 per minute", "RATELIMIT_TABLES": "1000000 per minute"}


def free_port() -> int:
    """Return a local TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(cwd: Path, database_url: str, secret: str, port: int) -> subprocess.Popen:
    """Start gunicorn on 127.0.0.1:port in its own process group; return once one of its workers answers.

    An answer, not a connection: a connection could also reach a killed server's worker still dying
    on the same port (its socket is closed only once it is gone), which then resets it.
    """
    proc = subprocess.Popen([str(GUNICORN), "--workers", "2", "--threads", "2", "--bind", f"127.0.0.1:{port}",
                             "--no-control-socket", "scorekeeper:create_app()"], cwd=cwd,
                            env={**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secret, **NO_LIMITS},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    proc.port = port
    end = time.monotonic() + 30
    while time.monotonic() < end and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/ping", timeout=2) as answer:
                if answer.status == 200:
                    return proc
        except OSError:  # refused, reset, or not answering yet
            pass
        time.sleep(0.1)
    stop(proc, signal.SIGKILL)
    raise RuntimeError("gunicorn did not start")


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    """Signal gunicorn and its workers (its whole process group) and wait for it to end."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass  # already gone
    proc.wait(10)
    # the master is gone; wait until its workers are too (the port refuses), so that a server started next
    # on this port is the only one answering there
    end = time.monotonic() + 10
    while time.monotonic() < end and getattr(proc, "port", None):
        try:
            socket.create_connection(("127.0.0.1", proc.port), timeout=0.5).close()
        except ConnectionRefusedError:
            return
        except OSError:
            pass
        time.sleep(0.05)
