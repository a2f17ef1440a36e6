# The two commands a new user needs: `make run` and `make test` (README.md).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= 2

UV_VERSION ?= 0.13.9
LOCK := uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
	--constraint requirements/constraints.txt --custom-compile-command "make lock" --upgrade --quiet

.PHONY: install install-test run test test-fast bench chromium postgres translations lock audit clean

# Exactly the lock (requirements/*.txt, every package with its hashes), nothing resolved on the day.
# make run installs what running needs; make test adds pytest, Hypothesis and Playwright.
$(VENV)/.run: requirements/run.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --require-hashes --no-deps -r requirements/run.txt
	@# the checkout on the venv's path (what an editable install does, without building anything): the app,
	@# gunicorn's workers and the tests import scorekeeper from here, whatever their working folder
	$(PY) -c 'import os, sysconfig; open(os.path.join(sysconfig.get_paths()["purelib"], "scorekeeper-checkout.pth"), "w").write(os.getcwd() + "\n")'
	touch $@

$(VENV)/.test: requirements/test.txt $(VENV)/.run
	$(PY) -m pip install -q --require-hashes --no-deps -r requirements/test.txt
	touch $@

install: $(VENV)/.run
install-test: $(VENV)/.test

# Serve the app (scorekeeper/serve.py: waitress, which reads each request whole before a thread sees it, so
# phones on a weak signal hold no thread); HOST=0.0.0.0 serves phones on the same Wi-Fi. Ctrl-C stops it.
run: install
	$(PY) -m scorekeeper init-db
	HOST=$(HOST) PORT=$(PORT) WORKERS=$(WORKERS) $(PY) -m scorekeeper serve

# Upgrade every package to its newest release within pyproject.toml's ranges and requirements/constraints.txt,
# with uv (it resolves once for every Python, OS and CPU: one lock for all). Review the diff, run make test.
lock: install
	$(PY) -m pip install -q "uv==$(UV_VERSION)"
	$(VENV)/bin/$(LOCK) -o requirements/run.txt
	$(VENV)/bin/$(LOCK) --extra test -o requirements/test.txt

# Known vulnerabilities in the locked packages (pip-audit asks the PyPI/OSV advisory database: run it where the
# network reaches it; these development machines can't). Its own venv: nothing it needs enters the app's.
audit:
	test -x .venv-audit/bin/python || $(PYTHON) -m venv .venv-audit
	.venv-audit/bin/python -m pip install -q "pip-audit==2.10.1"
	.venv-audit/bin/pip-audit --strict --require-hashes --disable-pip -r requirements/run.txt
	.venv-audit/bin/pip-audit --strict --require-hashes --disable-pip -r requirements/test.txt

# Debian's Chromium for the browser tests (Playwright drives it; no browser download).
chromium:
	@command -v chromium >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends chromium; }

# Debian's PostgreSQL server binaries, for the store tests' throwaway cluster (no service is started).
postgres:
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends postgresql; }

# The whole suite, browser and PostgreSQL tests included. pytest's 5 (no test ran) is a failure.
test: install-test chromium postgres
	$(PY) -m pytest -q -p no:cacheprovider $(PYTEST_ARGS); rc=$$?; \
		if [ $$rc -eq 5 ]; then echo "no tests ran"; exit 1; fi; exit $$rc

test-fast: install-test
	$(PY) -m pytest -q -p no:cacheprovider -m "not browser and not postgres" $(PYTEST_ARGS); rc=$$?; \
		if [ $$rc -eq 5 ]; then echo "no tests ran"; exit 1; fi; exit $$rc

bench: install-test chromium
	$(PY) -m bench

translations: install-test
	$(VENV)/bin/pybabel extract -F babel.cfg -k line -k nline:1,2 -k _l -k N_ -k Option:2 -o scorekeeper/translations/messages.pot .
	$(VENV)/bin/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations --no-fuzzy-matching --ignore-obsolete
	$(VENV)/bin/pybabel compile -d scorekeeper/translations

clean:
	rm -rf $(VENV) .pytest_cache
