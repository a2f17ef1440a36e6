"""Serve an app for the benchmarks and the tests that need a real server, and load it with wrk.

The app is served as production serves it (`python -m scorekeeper serve`: scorekeeper.serve, 2 workers x 2 threads);
the bare Flask app (bench/bare.py: one route answering "ok") by the very same setup (scorekeeper.serve.run), the
baseline every ratio in `make bench` is set against. This machine's speed drifts by up to 2x within a minute, so a
ratio comes from slices taken in turns (`against_bare`: bare, app, bare, ..., app, bare), each of the app's set
against the bare slices just before and after it, and by the servers' CPU time per request as well as by requests
per second (CPU per request is the steadier on a shared machine: it doesn't count the time the server waited).
"""
from __future__ import annotations

import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

# A load test is one client sending thousands of requests: lift the per-client rate limits (the limiter
# still runs, so its cost is measured).
NO_LIMITS = {"RATELIMIT_API": "1000000 per minute", "RATELIMIT_TABLES": "1000000 per minute"}
BARE = "bare"  # start()'s `app` for bench/bare.py


def free_port() -> int:
    """Return a local TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(cwd: Path, database_url: str, secret: str, port: int, app: str = "scorekeeper",
          server: str = "gunicorn", ready: str | None = None) -> subprocess.Popen:
    """Serve `app` ("scorekeeper", or BARE) with `server` on 127.0.0.1:port, in its own process group, its instance
    folder in `cwd`; return once a worker answers `ready` (the app's /api/v1/ping, the bare app's /), or at once
    when `ready` is "" (bench/startup.py asks nothing before it measures).

    An answer, not a connection: a connection could also reach a killed server's worker still dying
    on the same port (its socket is closed only once it is gone), which then resets it.
    """
    command = ["scorekeeper", "serve"] if app == "scorekeeper" else ["bench.bare"]
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "WORKERS": "2", "DATABASE_URL": database_url,
           "SECRET_KEY": secret, "INSTANCE_PATH": str(cwd / "instance"), **NO_LIMITS}
    proc = subprocess.Popen([sys.executable, "-m", *command, "--server", server], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    proc.port = port
    ready = ("/api/v1/ping" if app == "scorekeeper" else "/") if ready is None else ready
    end = time.monotonic() + 60
    while ready and time.monotonic() < end and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{ready}", timeout=2) as answer:
                if answer.status == 200:
                    return proc
        except OSError:  # refused, reset, or not answering yet
            pass
        time.sleep(0.1)
    if not ready and proc.poll() is None:
        return proc
    stop(proc, signal.SIGKILL)
    raise RuntimeError(f"{app} under {server} did not start")


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    """Signal the server and its workers (its whole process group) and wait for it to end."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass  # already gone
    proc.wait(20)
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


def server_cpu(proc) -> float:
    """Return the CPU seconds the server `proc` and its workers have used so far (Linux /proc)."""
    total, tick = 0, os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        pid, ppid = int(stat.parent.name), int(fields[1])
        if proc.pid in (pid, ppid):
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def wrk(url: str, script: str | None, seconds: int = 10, proc=None, connections: int = 50) -> dict:
    """Run wrk (2 threads); return requests/s, p50 and p99 in ms, and the non-2xx/3xx count; with the server's
    `proc`, also its CPU milliseconds per request."""
    cmd = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency", "--timeout", "10s"]
    if script:
        cmd += ["-s", str(script)]
    cpu = server_cpu(proc) if proc is not None else None
    done = subprocess.run(cmd + [url], capture_output=True, text=True)
    if done.returncode != 0:  # seen once in a long make bench, unexplained: said, and tried once more
        print(f"  (wrk failed, {done.returncode}: {done.stderr.strip() or done.stdout.strip()}; again)")
        cpu = server_cpu(proc) if proc is not None else None
        done = subprocess.run(cmd + [url], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    out = done.stdout
    count = int(re.search(r"(\d+) requests in", out).group(1))
    cpu_ms = (server_cpu(proc) - cpu) * 1000 / max(count, 1) if proc is not None else None

    def ms(label):
        m = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)", out)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "p50": ms("50"), "p99": ms("99"),
            "bad": int(bad.group(1)) if bad else 0, "cpu_ms": cpu_ms, "requests": count}


def spread(values, digits: int = 2) -> str:
    """A figure over slices: "median (lowest-highest)"."""
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


@dataclass
class Ratio:
    """The app's slices and the bare app's (one more: before the first and after each), and per app slice its
    ratio to the mean of the bare slices around it."""
    runs: list
    bares: list
    by_requests: list  # the app's requests/s over the bare app's
    by_cpu: list  # the app's server CPU per request over the bare app's (how many bare requests one costs)
    seconds: int

    def said(self, what: str, unit: str = "request") -> str:
        """The figures in words: what was measured, its rate and latency, and the two ratios."""
        r, b = self.runs, self.bares
        return (f"{what}: {spread([x['rps'] for x in r], 0)} req/s, p50 {spread([x['p50'] for x in r], 1)} ms, p99"
                f" {spread([x['p99'] for x in r], 1)} ms, {sum(x['bad'] for x in r)} errors, server CPU"
                f" {spread([x['cpu_ms'] for x in r])} ms a {unit}; the bare Flask app under the same server:"
                f" {spread([x['rps'] for x in b], 0)} req/s, {spread([x['cpu_ms'] for x in b])} ms CPU a request."
                f" By requests, the app's rate is {spread(self.by_requests, 3)} x the bare app's; by server CPU, a"
                f" {unit} costs {spread(self.by_cpu, 1)} x a bare request (median (range) of {len(r)} slices of"
                f" {self.seconds} s, each against the bare slices just before and after it); a bare request's CPU over"
                f" a {unit}'s: {spread([1 / x for x in self.by_cpu], 3)} (issue 40's goal: at least 0.15)")


def against_bare(app_slice, bare_port: int, bare_proc, slices: int = 8, seconds: int = 3) -> Ratio:
    """Run `app_slice(seconds)` (a wrk result of the app) and wrk on the bare app's / in turns, `slices` of each,
    the bare app first and last; each app slice is set against the mean of the bare slices around it."""
    bare = f"http://127.0.0.1:{bare_port}/"
    wrk(bare, None, 2)  # a server's first seconds are slower: not counted
    bares = [wrk(bare, None, seconds, bare_proc)]
    runs = []
    for _ in range(slices):
        runs.append(app_slice(seconds))
        bares.append(wrk(bare, None, seconds, bare_proc))
    by_requests = [r["rps"] / ((a["rps"] + b["rps"]) / 2) for r, a, b in zip(runs, bares, bares[1:])]
    by_cpu = [r["cpu_ms"] / ((a["cpu_ms"] + b["cpu_ms"]) / 2) for r, a, b in zip(runs, bares, bares[1:])]
    return Ratio(runs, bares, by_requests, by_cpu, seconds)
