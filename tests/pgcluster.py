"""A throwaway PostgreSQL cluster for tests (TOOLING.md): initdb as postgres, on 127.0.0.1 and a free port, trust
auth. The session's shared cluster (conftest's postgres_server) and the tests that stop and start their own (a
database outage) use it."""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile


class Unavailable(Exception):
    """PostgreSQL can't be started here; the message says why."""


class Cluster:
    def __init__(self):
        # Debian keeps the server binaries off PATH, in /usr/lib/postgresql/<version>/bin.
        path = os.pathsep.join([os.environ.get("PATH", ""),
                                *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)])
        self.path = path
        self.initdb, self.pg_ctl = shutil.which("initdb", path=path), shutil.which("pg_ctl", path=path)
        if not self.initdb or not self.pg_ctl:
            raise Unavailable("initdb/pg_ctl not on PATH")
        self.as_user = []
        self.workdir = tempfile.mkdtemp(prefix="sk-pg-")
        if os.geteuid() == 0:  # initdb refuses root: run it as postgres in a directory postgres owns
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("no postgres user") from None
            os.chown(self.workdir, pw.pw_uid, pw.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.data = os.path.join(self.workdir, "data")
        self._run([self.initdb, "-D", self.data, "--auth=trust", "-U", "app", "-E", "UTF8", "--no-sync"])
        self.start()

    def tool(self, name: str) -> str:
        """The path of one of the server's programs (pg_basebackup, pg_receivewal), found as initdb is."""
        found = shutil.which(name, path=self.path)
        if not found:
            raise Unavailable(f"{name} not on PATH")
        return found

    def _run(self, args):
        try:
            subprocess.run(self.as_user + args, check=True, capture_output=True, timeout=120)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
            raise Unavailable(f"{e}: {getattr(e, 'stderr', b'')!r}") from None

    def start(self):
        """Start the server and return once it accepts connections (pg_ctl -w waits for that)."""
        self._run([self.pg_ctl, "-D", self.data, "-l", os.path.join(self.workdir, "log"), "-w", "-o",
                   f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"])

    def stop(self):
        """Stop the server at once (every connection is cut, as when the database machine goes down)."""
        self._run([self.pg_ctl, "-D", self.data, "-m", "immediate", "-w", "stop"])

    def database(self, name: str) -> str:
        import psycopg
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=app dbname=postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://app@127.0.0.1:{self.port}/{name}"

    def remove(self):
        subprocess.run(self.as_user + [self.pg_ctl, "-D", self.data, "-m", "fast", "-w", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(self.workdir, ignore_errors=True)
