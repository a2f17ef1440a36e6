"""The installable package: `pip wheel .` gives a wheel that runs outside the checkout, with its templates,
static files, translations and migrations (pyproject.toml's [tool.setuptools] puts them inside the package)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

from tests.phone import Phone
from tests.test_serve import TROCCAS, free_port, wait_for

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "scorekeeper", "templates", "static", "migrations")


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_wheel_installed_in_an_empty_venv_serves_a_table(tmp_path):
    # build from a copy of what the repository tracks for the package, so the checkout gets no build/ folder
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, source / name)
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(source))
    wheel = next((tmp_path / "dist").glob("scorekeeper-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("scorekeeper/templates/table/page.html", "scorekeeper/static/vendor/htmx-2.0.11.min.js",
                   "scorekeeper/translations/de/LC_MESSAGES/messages.mo", "scorekeeper/migrations/env.py",
                   "scorekeeper/migrations/versions/0001_tables_hands_changes.py", "scorekeeper/engine/games/troccas.py"):
        assert needed in names

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    run(str(python), "-m", "pip", "install", "-q", "--require-hashes", "--no-deps", "-r",
        str(ROOT / "requirements" / "run.txt"))
    run(str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel))

    elsewhere = tmp_path / "elsewhere"  # not the checkout: nothing can come from the repository's folders
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL")}
    env["INSTANCE_PATH"] = str(tmp_path / "instance")
    found = run(str(python), "-c", "import scorekeeper; print(scorekeeper.__file__)", cwd=elsewhere, env=env)
    assert str(env_dir) in found.stdout  # the installed package, not the checkout
    run(str(bin_dir / "scorekeeper"), "init-db", cwd=elsewhere, env=env)
    assert (tmp_path / "instance" / "scorekeeper.sqlite").exists()

    port = free_port()
    log = open(tmp_path / "serve.log", "w")
    proc = subprocess.Popen([str(bin_dir / "scorekeeper"), "serve"], cwd=elsewhere, stdout=log,
                            stderr=subprocess.STDOUT, env={**env, "PORT": str(port)}, start_new_session=True)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz", proc)
        phone = Phone(port)
        home, text = phone.request("GET", "/?lang=de")
        assert home.status == 200 and 'lang="de"' in text
        static = phone.request("GET", "/static/vendor/htmx-2.0.11.min.js")[0]
        assert static.status == 200
        phone.request("GET", "/tables/new/troccas")
        opened, _ = phone.request("POST", "/tables/new/troccas", TROCCAS)
        assert opened.status == 303
        page, text = phone.request("GET", opened.getheader("Location") + "?lang=de")
        assert page.status == 200 and "Zoë" in text
        assert "Runde 1" in text  # the German catalogue came with the wheel (de: "Hand" is "Runde")
        assert phone.request("GET", "/readyz")[0].status == 200  # the wheel's migrations reached the newest
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
