# Two commands on a fresh machine: `make run` and `make test`. Everything else is set up on the way.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Links in emails follow the port `make run` serves on, unless SITE_URL is set.
SITE_URL ?= http://127.0.0.1:$(PORT)
INSTALLED := $(VENV)/.installed
# npm tools the tests use (Redocly, openapi-typescript, tsc, axe-core), pinned by the lock file.
NODE_TOOLS := tools/node
NODE_INSTALLED := $(NODE_TOOLS)/node_modules/.installed

.PHONY: install run test test-slow test-fast fuzz migrate lint bench clean

$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@

$(NODE_INSTALLED): $(NODE_TOOLS)/package.json $(NODE_TOOLS)/package-lock.json
	@if command -v npm >/dev/null; then \
		cd $(NODE_TOOLS) && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else echo "npm not found: the API schema and accessibility checks will skip (CI installs it)"; fi

install: $(INSTALLED) $(NODE_INSTALLED)
	@$(PY) -m config.catalogs

migrate: install
	$(PY) manage.py migrate --noinput

# Web, game worker, mail worker and Celery beat in one process group; Ctrl-C (or SIGTERM) stops
# them all.
run: migrate
	PATH="$(CURDIR)/$(VENV)/bin:$$PATH" WEB_PORT=$(PORT) SITE_URL="$(SITE_URL)" \
		exec $(VENV)/bin/honcho -f Procfile.dev start

# pytest-xdist workers (one per core; TEST_WORKERS=0 runs in one process). Each has its own test
# database, Redis databases, event channel prefix, data folder and ports (tests/isolation.py).
# The slow tests come first (tests/conftest.py) and `load` with chunks of one hands each worker
# the next test as it finishes one, so that no worker is left with a queue while another idles.
# One worker more than cores: the whole-game tests spend much of their time waiting on the
# processes they start (Celery workers, Chromium, gunicorn); 3 workers on 2 cores took 15 min for
# the whole suite where 2 took 19.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
XDIST = -n $(TEST_WORKERS) --maxprocesses=4 --dist load --maxschedchunk=1

# Every test file but tests/perf (`make bench`), with a few random games per engine and player
# count (`make fuzz` plays thousands) and Hypothesis' `dev` profile (HYPOTHESIS_PROFILE=ci in CI).
# pytest rewrites the asserts of ~340 test modules in every worker (half of its collection time)
# and caches the result in __pycache__/ unless PYTHONDONTWRITEBYTECODE is set (as in many
# containers): let it.
test: install
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest $(XDIST) -m "not slow" $(PYTEST_ARGS)

# The tests marked slow: whole games of every shipped engine through the API, the generated
# client, email and the board, and the longest random-game runs (`make test` plays the toy
# engine's and a few random games of each). CI runs both.
test-slow: install
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest $(XDIST) -m slow $(PYTEST_ARGS)

# Engines only, without Django: the quick loop while working on rules.
test-fast: install
	$(PY) -m pytest tests/engines -p no:django -o addopts="" -q

# Thousands of random full games per engine and player count, twenty times the Hypothesis examples,
# and a quarter as many games checked against the API's JSON Schemas (CI: `make fuzz FUZZ_GAMES=50
# CAVERNA_GAMES=30 FUZZ_PROFILE=ci`).
FUZZ_GAMES ?= 2000
CAVERNA_GAMES ?= $(FUZZ_GAMES)
FUZZ_PROFILE ?= fuzz
fuzz: install
	TURNPOST_RANDOM_GAMES=$(FUZZ_GAMES) TURNPOST_CAVERNA_GAMES=$(CAVERNA_GAMES) \
		HYPOTHESIS_PROFILE=$(FUZZ_PROFILE) \
		PYTHONDONTWRITEBYTECODE= $(PY) -m pytest tests/engines -p no:django -o addopts="" -q $(XDIST) \
		$(PYTEST_ARGS)
	TURNPOST_RANDOM_GAMES=$(FUZZ_GAMES) PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q $(XDIST) \
		tests/api/test_schema_matches_behaviour.py -k random_games

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# tests/perf, which `make test` leaves out: benchmarks with statistics, load tests and the perf
# checks, in one process. `make bench PYTEST_ARGS=tests/perf/test_request_costs.py` runs one
# bench; BENCHMARKS=--benchmark-disable runs each check once and skips the load tests (CI).
BENCHMARKS ?= --benchmark-enable
bench: install
	$(PY) -m pytest $(or $(PYTEST_ARGS),tests/perf) $(BENCHMARKS) -p no:randomly

clean:
	rm -rf $(VENV) var .pytest_cache
