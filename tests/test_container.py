"""What the container image runs, run here outside a container (the development machine has no Docker daemon, so
the image itself is never built by the tests: docs/deploy.md, "Container").

docker/entrypoint.sh is started as the image starts it (the same environment: INSTANCE_PATH, PYTHONPATH, the
default HOST and PORT), docker/healthcheck.py is run against it as Docker's HEALTHCHECK runs it, and SIGTERM
stops it as `docker stop` does. The Dockerfile, .dockerignore and compose.yaml are checked as text (PyYAML is
not installed). Waiting is on the server's answers, with deadlines only against a hung test.
"""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"
HEALTHCHECK = ROOT / "docker" / "healthcheck.py"
# Settings a developer's shell may hold, which the image's environment does not.
NOT_IN_THE_IMAGE = ("DATABASE_URL", "SECRET_KEY", "HOST", "PORT", "WORKERS", "GUNICORN_CMD_ARGS", "PROXY_FIX",
                    "INSTANCE_PATH", "PYTHONPATH")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(tmp_path: Path, port: int, **env: str) -> subprocess.Popen:
    """Start docker/entrypoint.sh as the image does: `python` is this venv's (the image's is /opt/venv's), the
    app is found on PYTHONPATH, the instance folder is INSTANCE_PATH; HOST is left to the entrypoint's default."""
    environ = {key: value for key, value in os.environ.items() if key not in NOT_IN_THE_IMAGE}
    environ.update({"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
                    "PYTHONPATH": str(ROOT), "INSTANCE_PATH": str(tmp_path / "instance"), "PORT": str(port),
                    "PYTHONUNBUFFERED": "1", **env})
    log = open(tmp_path / "container.log", "w")
    return subprocess.Popen([str(ENTRYPOINT)], cwd=ROOT, env=environ, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def stop(proc: subprocess.Popen) -> int:
    """SIGTERM, as `docker stop` sends it to the container's main process; return its exit code."""
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # only this test's server: its own process group
        proc.wait()
        raise


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def wait_for(url: str, proc: subprocess.Popen, status: int = 200, seconds: float = 120) -> None:
    """Ask `url` until it answers `status`: init-db first, then the workers start; stop if the server died."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert proc.poll() is None, f"the entrypoint stopped with {proc.returncode} before {url} answered"
        try:
            if get(url)[0] == status:
                return
        except OSError:
            pass  # not listening yet
        time.sleep(0.05)
    raise AssertionError(f"{url} did not answer {status}")


def healthcheck(port: int) -> subprocess.CompletedProcess:
    """Run docker/healthcheck.py as the HEALTHCHECK does: with the container's PORT, no argument."""
    env = {key: value for key, value in os.environ.items() if key not in NOT_IN_THE_IMAGE}
    return subprocess.run([sys.executable, str(HEALTHCHECK)], env={**env, "PORT": str(port)},
                          capture_output=True, text=True, timeout=60)


def test_the_entrypoint_makes_the_database_serves_answers_the_health_check_and_stops_on_sigterm(tmp_path):
    port = free_port()
    proc = start(tmp_path, port)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc)
        checked = healthcheck(port)
        assert checked.returncode == 0, checked.stderr
        assert get(f"http://127.0.0.1:{port}/readyz") == (200, "ready\n")  # init-db made it at the newest migration
        status, home = get(f"http://127.0.0.1:{port}/")
        assert status == 200 and home.startswith("<!doctype html>")  # a page, with its templates and static files
    finally:
        code = stop(proc)
    assert code == 0  # a clean stop on SIGTERM
    log = (tmp_path / "container.log").read_text()
    assert f"Scorekeeper on http://127.0.0.1:{port}/ (waitress)" in log  # on HOST 0.0.0.0, shown as 127.0.0.1
    assert "Traceback" not in log
    assert '"GET / HTTP/1.1" 200' in log  # the access log goes to stdout, which `docker logs` shows
    instance = tmp_path / "instance"
    assert (instance / "scorekeeper.sqlite").is_file()  # SQLite in the volume when DATABASE_URL is not set
    assert (instance / "secret_key").is_file()  # and the secret key made once, when SECRET_KEY is not set


def test_the_health_check_fails_when_nothing_listens():
    checked = healthcheck(free_port())
    assert checked.returncode == 1
    assert checked.stderr.startswith("unhealthy: http://127.0.0.1:") and checked.stderr.count("\n") == 1


@pytest.mark.postgres
def test_the_entrypoint_on_an_empty_postgres_database_migrates_it_and_is_ready(tmp_path, monkeypatch,
                                                                              postgres_server):
    from scorekeeper import create_app
    url = postgres_server()
    # the new database is empty: an app that does not migrate is not ready there
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path / "check"))
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "DATABASE_URL": url, "AUTO_MIGRATE": False})
    answer = app.test_client().get("/readyz")
    assert answer.status_code == 503 and "at migration none" in answer.get_data(as_text=True)
    app.extensions["store"].dispose()

    port = free_port()
    # written as compose.yaml writes it: postgresql://, without SQLAlchemy's +psycopg
    proc = start(tmp_path, port, DATABASE_URL=url.replace("postgresql+psycopg://", "postgresql://"),
                 SECRET_KEY="container-test")
    try:
        wait_for(f"http://127.0.0.1:{port}/readyz", proc)
        assert get(f"http://127.0.0.1:{port}/readyz") == (200, "ready\n")
    finally:
        code = stop(proc)
    assert code == 0
    assert "Traceback" not in (tmp_path / "container.log").read_text()


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined, comments left out."""
    joined = re.sub(r"\\\n(\s*#.*\n)*", " ", dockerfile)
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def test_the_dockerfile_installs_the_lock_with_hashes_and_runs_as_a_user_other_than_root():
    steps = instructions((ROOT / "Dockerfile").read_text())
    froms = [rest for keyword, rest in steps if keyword == "FROM"]
    assert len(froms) == 1 and froms[0].startswith("python:3.12-slim")  # a tag, not latest
    installs = [rest for keyword, rest in steps if keyword == "RUN" and "pip install" in rest]
    assert len(installs) == 1
    assert "--require-hashes" in installs[0] and "-r requirements/run.txt" in installs[0]
    assert ("COPY", "requirements/run.txt requirements/run.txt") in steps
    users = [index for index, (keyword, _) in enumerate(steps) if keyword == "USER"]
    assert users, "the image must name a USER"
    last_user = steps[users[-1]][1]
    assert last_user not in ("root", "0") and not last_user.startswith(("root:", "0:"))
    assert all(keyword != "RUN" for keyword, _ in steps[users[-1]:])  # nothing after it runs as root
    env = " ".join(rest for keyword, rest in steps if keyword == "ENV")
    instance = re.search(r"INSTANCE_PATH=(\S+)", env).group(1)
    assert ("VOLUME", f'["{instance}"]') in steps  # the instance folder is the volume
    assert any(k == "HEALTHCHECK" and "/app/docker/healthcheck.py" in rest for k, rest in steps)
    assert ("ENTRYPOINT", '["/app/docker/entrypoint.sh"]') in steps
    assert os.access(ENTRYPOINT, os.X_OK)  # COPY keeps the mode: the image runs it directly
    # every COPY source exists, and .dockerignore (everything out, then these back in) lets it into the context
    ignore = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert ignore[0] == "*"
    for keyword, rest in steps:
        if keyword == "COPY":
            source = rest.split()[0]
            assert (ROOT / source).exists(), source
            assert f"!{source}" in ignore, source
    assert not any(line.startswith("!") and (".env" in line or "instance" in line) for line in ignore)


def test_compose_runs_the_app_on_postgres_16_once_it_is_healthy_with_settings_from_env_example():
    compose = (ROOT / "compose.yaml").read_text()
    assert "\t" not in compose  # YAML indents with spaces only
    top = {line.split(":")[0] for line in compose.splitlines() if re.match(r"[a-z]", line)}
    assert top == {"name", "services", "volumes"}
    services = re.findall(r"^  ([a-z]+):$", compose, re.M)
    assert services[:2] == ["app", "db"]
    assert re.search(r"^    image: postgres:16$", compose, re.M)
    assert re.search(r"^      db:\n        condition: service_healthy", compose, re.M)
    assert 'test: ["CMD-SHELL", "pg_isready -U scorekeeper -d scorekeeper"]' in compose
    volumes = compose.split("\nvolumes:\n")[1]
    assert set(re.findall(r"^  ([a-z]+):", volumes, re.M)) == {"instance", "pgdata"}  # named volumes, declared
    assert "- instance:/var/lib/scorekeeper" in compose and "- pgdata:/var/lib/postgresql/data" in compose
    assert "DATABASE_URL: postgresql://scorekeeper:${POSTGRES_PASSWORD" in compose
    # every variable compose.yaml reads is set in .env.example
    example = (ROOT / ".env.example").read_text()
    defined = set(re.findall(r"^([A-Z_]+)=", example, re.M))
    assert {"SECRET_KEY", "POSTGRES_PASSWORD", "PROXY_FIX"} <= defined
    assert set(re.findall(r"\$\{([A-Z_]+)", compose)) <= defined
