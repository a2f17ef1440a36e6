# The two commands a new user needs: `make run` and `make test` (README.md).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= 2

.PHONY: install run test test-fast bench chromium postgres translations clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed

# Serve the app with gunicorn; HOST=0.0.0.0 serves phones on the same Wi-Fi. Ctrl-C stops it.
# Two threads a worker: one answers while the other waits on the disk or a phone; with four, the threads
# hand Python's lock back and forth so often that a saved hand cost ~20% more CPU (make bench, docs/deploy.md).
run: install
	$(PY) -m scorekeeper init-db
	HOST=$(HOST) PORT=$(PORT) $(VENV)/bin/gunicorn --workers $(WORKERS) --threads 2 --bind $(HOST):$(PORT) \
		--keep-alive 5 --no-control-socket --access-logfile - 'scorekeeper:create_app()'

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
test: install chromium postgres
	$(PY) -m pytest -q -p no:cacheprovider $(PYTEST_ARGS); rc=$$?; \
		if [ $$rc -eq 5 ]; then echo "no tests ran"; exit 1; fi; exit $$rc

test-fast: install
	$(PY) -m pytest -q -m "not browser and not postgres" $(PYTEST_ARGS)

bench: install chromium
	$(PY) -m bench

translations: install
	$(VENV)/bin/pybabel extract -F babel.cfg -k line -k nline:1,2 -k _l -k N_ -k Option:2 -o scorekeeper/translations/messages.pot .
	$(VENV)/bin/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations --no-fuzzy-matching --ignore-obsolete
	$(VENV)/bin/pybabel compile -d scorekeeper/translations

clean:
	rm -rf $(VENV) .pytest_cache
