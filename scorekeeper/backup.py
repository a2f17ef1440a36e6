"""`python -m scorekeeper backup DEST_DIR [--keep N]`: a consistent copy of the database while the app runs.

SQLite: `scorekeeper-YYYYMMDD-HHMMSS.sqlite` (UTC), made with SQLite's online backup API (Python's
`Connection.backup`). Why that and not `VACUUM INTO`: both copy one consistent snapshot inside a single read
transaction, and in WAL mode neither stops the app's writers; the backup API copies the pages as they are,
while `VACUUM INTO` rebuilds every table and index (more CPU on a small server, for a file that is only a
little smaller), and the backup API has been in every Python 3 since 3.7. A plain `cp` is not safe: it can
catch the file halfway through a checkpoint, without the committed hands still in the `-wal` file.

PostgreSQL: `scorekeeper-YYYYMMDD-HHMMSS.dump`, from `pg_dump --format=custom` (one consistent snapshot too).
The password goes to pg_dump in PGPASSWORD, never on its command line (which `ps` shows to every user) and
never in a message.

Each backup is written under a hidden temporary name and renamed into place once complete, so DEST_DIR never
holds half a backup under a backup's name; then only the newest N backups of that kind are kept (default 14).
Any failure is one sentence on stderr and exit code 2. Restoring is a drill in docs/deploy.md ("Backups").
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from . import create_app
from .store.db import Unusable

KEEP = 14  # two weeks of daily backups
USAGE = "usage: python -m scorekeeper backup DEST_DIR [--keep N]"
SUFFIX = {"sqlite": ".sqlite", "postgresql": ".dump"}


class Failed(Exception):
    """The backup can't be made; its message is the one sentence to print."""


def main(args: list[str]) -> int:
    """Back up the app's database (DATABASE_URL, as the app reads it) into DEST_DIR; return the exit code."""
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    dest = None
    try:
        dest, keep = _arguments(args)
        url = database_url()
        if url.get_backend_name() not in SUFFIX:
            raise Failed(f"DATABASE_URL is a {url.get_backend_name()} database: only SQLite and PostgreSQL "
                         f"can be backed up.")
        suffix = SUFFIX[url.get_backend_name()]
        _make_folder(dest)
        final = dest / f"scorekeeper-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}{suffix}"
        partial = dest / f".{final.name}.partial"  # hidden, and never matched by the pruning below
        try:
            _create_private(partial)
            if suffix == ".sqlite":
                _copy_sqlite(url.database, partial)
            else:
                _dump_postgres(url, partial)
            _sync(partial)
            os.replace(partial, final)  # atomic: the name appears only once the backup is whole
            _sync(dest)
        finally:
            partial.unlink(missing_ok=True)
        size = final.stat().st_size
        removed = _prune(dest, suffix, keep)
    except Failed as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # anything else the disk refuses (a full disk, a folder made read-only meanwhile)
        print(f"error: {e.filename or dest}: {e.strerror or e}.", file=sys.stderr)
        return 2
    print(f"Backed up to {final} ({size} bytes); removed {len(removed)} older backup(s), "
          f"keeping the newest {keep}.")
    return 0


def _arguments(args: list[str]) -> tuple[Path, int]:
    """Read DEST_DIR and --keep N (or --keep=N); N is a whole number from 1 up."""
    rest, keep = list(args), str(KEEP)
    dest = None
    while rest:
        arg = rest.pop(0)
        if arg == "--keep" and rest:
            keep = rest.pop(0)
        elif arg.startswith("--keep="):
            keep = arg.split("=", 1)[1]
        elif arg.startswith("-") or dest is not None:
            raise Failed(f"unexpected argument {arg!r} ({USAGE}).")
        else:
            dest = arg
    if dest is None:
        raise Failed(f"say where the backups go ({USAGE}).")
    if not keep.isdigit() or int(keep) < 1:
        raise Failed(f"--keep must be a whole number from 1 up, not {keep!r}.")
    return Path(dest), int(keep)


def database_url():
    """Return the app's database address (SQLAlchemy's URL) exactly as the app reads it: instance/config.py,
    then the environment, with postgres:// read as postgresql+psycopg://.

    The app is opened without migrating (AUTO_MIGRATE off): a backup taken before an upgrade must be of the
    database as it was. A SECRET_KEY is given so that opening it never writes instance/secret_key (as another
    user than the app's, e.g. root's timer, it would be a file the app can't read)."""
    try:
        app = create_app({"SECRET_KEY": "not-used-by-backup", "AUTO_MIGRATE": False})
    except Unusable as e:
        raise Failed(str(e)) from None
    return app.extensions["store"].url


def _make_folder(dest: Path) -> None:
    """Create DEST_DIR if it is missing (owner-only: every table's address is its key)."""
    if dest.exists() and not dest.is_dir():
        raise Failed(f"{dest} is not a folder: give a folder for the backups.")
    try:
        dest.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as e:
        raise Failed(f"can't create the backup folder {dest}: {e.strerror}.") from None


def _create_private(path: Path) -> None:
    """Create the empty file, readable by its owner only, before anything is written into it."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600))
    except OSError as e:
        raise Failed(f"can't write in the backup folder {path.parent}: {e.strerror}.") from None


def _copy_sqlite(database: str | None, partial: Path) -> None:
    """Copy the SQLite database into `partial` with the online backup API, then check the copy."""
    if not database or database == ":memory:":
        raise Failed("DATABASE_URL names an in-memory SQLite database: there is nothing on disk to back up.")
    path = Path(database).resolve()
    if not path.is_file():
        raise Failed(f"there is no database at {path} (DATABASE_URL): check the path, or run "
                     f"`python -m scorekeeper init-db` first.")
    try:
        # mode=rw: open the app's file, never create an empty one; the timeout rides out the moment a
        # checkpoint or a recovery holds the file.
        source = sqlite3.connect(f"{path.as_uri()}?mode=rw", uri=True, timeout=30)
        target = sqlite3.connect(partial)
        try:
            # pages=-1: the whole database in one step, inside one read transaction, so the copy is one
            # moment of the database. In WAL mode a reader doesn't hold up the app's writers: they go on, and
            # what they commit meanwhile is in the next backup.
            source.backup(target, pages=-1)
            # One self-contained file (the source's WAL mode would be copied too): the app turns WAL back on
            # when it opens a restored copy.
            target.execute("PRAGMA journal_mode=DELETE")
            check = target.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            target.close()
            source.close()
    except sqlite3.Error as e:
        raise Failed(f"can't back up the database at {path}: {e}.") from None
    if check != "ok":
        raise Failed(f"the copy of {path} fails SQLite's quick_check ({check}): the database itself may be "
                     f"damaged; run `sqlite3 {path} 'PRAGMA integrity_check'`.")


def find_pg_tool(name: str) -> str | None:
    """Find pg_dump or pg_restore: on PATH, else in Debian's /usr/lib/postgresql/<version>/bin (newest first),
    where the server packages put them."""
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True)
    return shutil.which(name) or shutil.which(name, path=os.pathsep.join(dirs))


def _version(folder: str) -> tuple:
    number = Path(folder).parent.name
    return tuple(int(part) for part in number.split(".") if part.isdigit())


def _dump_postgres(url, partial: Path) -> None:
    """Run pg_dump --format=custom into `partial`; the password only in its environment."""
    from psycopg import ProgrammingError
    from psycopg.conninfo import make_conninfo

    pg_dump = find_pg_tool("pg_dump")
    if not pg_dump:
        raise Failed("pg_dump was not found: install PostgreSQL's client programs (Debian: apt-get install "
                     "postgresql-client, of the server's major version or newer).")
    # Everything of the address but the password, as a libpq connection string (query options such as
    # sslmode or a socket folder as host= included).
    options = {"host": url.host, "port": url.port, "user": url.username, "dbname": url.database}
    options.update({key: value if isinstance(value, str) else value[-1] for key, value in url.query.items()})
    try:
        conninfo = make_conninfo(**{key: str(value) for key, value in options.items() if value is not None})
    except ProgrammingError as e:  # an option in the address's query that libpq doesn't know
        raise Failed(f"DATABASE_URL has an option pg_dump can't take: {e}") from None
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = url.password
    env.setdefault("PGCONNECT_TIMEOUT", "10")  # a server that doesn't answer is an error, not a hung timer
    try:
        done = subprocess.run([pg_dump, "--format=custom", "--no-password", f"--file={partial}",
                               f"--dbname={conninfo}"], env=env, capture_output=True, text=True)
    except OSError as e:
        raise Failed(f"can't run {pg_dump}: {e.strerror}.") from None
    if done.returncode != 0:
        shown = url.render_as_string(hide_password=True)
        reason = _pg_reason(done.stderr) or f"it exited with code {done.returncode}"
        if url.password:
            reason = reason.replace(url.password, "***")
        raise Failed(f"pg_dump could not back up the database {shown}: {reason}")


def _pg_reason(stderr: str) -> str:
    """pg_dump's error and detail lines as one line, without their "pg_dump: error:" prefixes."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    kept = [re.sub(r"^pg_dump: (error|detail): ", "", line) for line in lines
            if line.startswith(("pg_dump: error:", "pg_dump: detail:"))]
    return " ".join(kept or lines[:1])


def _sync(path: Path) -> None:
    """Flush a file, or a folder's new entry, to the disk: a backup should outlive a power cut."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # a folder can't be opened for syncing on some systems (Windows): the rename stands anyway
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _prune(dest: Path, suffix: str, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups of this kind in dest; the names sort by time (UTC stamps).

    Only names this command writes are touched: other files in the folder are left alone."""
    pattern = re.compile(r"scorekeeper-\d{8}-\d{6}" + re.escape(suffix))
    backups = sorted(p for p in dest.iterdir() if pattern.fullmatch(p.name))
    old = backups[:-keep]
    for path in old:
        try:
            path.unlink()
        except OSError as e:
            raise Failed(f"the backup was made, but the old backup {path} can't be removed: {e.strerror}.") \
                from None
    return old
