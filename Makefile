# Two commands: `make run` (install the app, migrate, first admin, serve on 127.0.0.1:5000 with
# waitress; `make run PORT=8000` for another port) and `make test` (install the test tools, lint,
# type-check the rules engine and the whole package, check the layer contracts with
# import-linter, run every test and every benchmark's smoke run).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# one stamp per set of requirements: `make run` installs the app alone, `make test` the test
# tools and the benchmarks' peers on top (a changed pyproject.toml reinstalls)
APP_STAMP := $(VENV)/.stamp-app-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
TEST_STAMP := $(VENV)/.stamp-test-$(shell cat pyproject.toml benchmarks/requirements.txt | cksum | cut -d' ' -f1)
FLASK := $(BIN)/flask --app dealer_assist

.PHONY: run dev test install install-app lint bench clean translations

# `make run` serves with waitress (a production WSGI server, threads; docs/operations.md says why);
# `make run WORKERS=N` (N > 1) with gunicorn: N app processes on one database (issue 25)
HOST ?= 127.0.0.1
PORT ?= 5000
THREADS ?= 8
WORKERS ?= 1

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# the application's own dependencies only: what serving needs
$(APP_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e .
	rm -f $(VENV)/.stamp-app-*
	touch $(APP_STAMP)

# the test tools (pytest, ruff, mypy, Playwright...) and the peers the benchmarks time us against
# (`make test` runs every benchmark once in its smoke mode)
$(TEST_STAMP): $(APP_STAMP) benchmarks/requirements.txt
	$(BIN)/pip install -q -e '.[test]' -r benchmarks/requirements.txt
	rm -f $(VENV)/.stamp-test-*
	touch $(TEST_STAMP)

# the tablet's Python runtime (issue 34): the npm `pyodide` package pinned in package-lock.json,
# served by the app itself at /tablet/pyodide/ (no CDN); reinstalled when the lock is newer
NODE_STAMP := node_modules/.stamp-npm
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing: run scripts/system-deps.sh as root (Debian's nodejs and npm)" >&2; exit 1; }
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

install-app: $(APP_STAMP) $(NODE_STAMP)

# a developer's .venv: the app, the test tools and the benchmarks' peers
install: $(TEST_STAMP) $(NODE_STAMP)

# init-db applies pending Alembic migrations (idempotent); create-admin --if-none prints the first
# administrator's one-time password once and stays quiet on later runs.
run: install-app
	$(FLASK) init-db
	$(FLASK) create-admin --if-none --host $(HOST) --port $(PORT)
ifeq ($(WORKERS),1)
	$(BIN)/waitress-serve --host $(HOST) --port $(PORT) --threads $(THREADS) \
	  --call dealer_assist.wsgi:production_app
else
	$(BIN)/gunicorn -c python:dealer_assist.gunicorn_conf --workers $(WORKERS) \
	  --threads $(THREADS) --bind $(HOST):$(PORT) 'dealer_assist.wsgi:production_app()'
endif

# development: Flask's own server with the reloader and the debugger (never on a floor)
dev: install-app
	$(FLASK) init-db
	$(FLASK) create-admin --if-none --host 127.0.0.1 --port $(PORT)
	$(FLASK) run --debug --host 127.0.0.1 --port $(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy --strict dealer_assist/rules
	$(BIN)/mypy --strict dealer_assist
	$(BIN)/lint-imports

test: install
	@bash scripts/system-deps.sh || echo "make test: system packages missing (see above); browser/PostgreSQL tests will fail"
	$(BIN)/ruff check .
	$(BIN)/mypy --strict dealer_assist/rules
	$(BIN)/mypy --strict dealer_assist
	$(BIN)/lint-imports  # the layering (pyproject.toml [tool.importlinter], docs/architecture.md)
	$(BIN)/pytest -n 2 --dist loadfile  # each worker starts its own throwaway PostgreSQL

# every benchmark script, each timing us against its peers in one run; headline figures last
# (`make test` runs each once in its --smoke mode: tests/test_benchmarks.py)
bench: install
	@for b in evaluator settle settle_house_games http profile_step report poker lab load floor floor_watch hold tablet_engine; do \
	  if [ -f benchmarks/$$b.py ]; then echo "== benchmarks/$$b.py"; $(BIN)/python benchmarks/$$b.py || exit 1; fi; \
	done

# re-extract every message (pages, edge, the engine's phrases), merge into the ru/en catalogs and
# compile them; the .mo files are committed so a clean clone needs no build step (i18n/locale.py)
KEYWORDS := -k _ -k gettext -k ngettext:1,2 -k lazy_gettext -k N_ -k Phrase -k counted:1,2 \
	-k RulesError -k IllegalActionError -k StakeError -k HouseRulesError -k RequestError \
	-k ServiceError \
	-k ValidationError -k NotFound -k Conflict -k PermissionDenied -k AuthenticationFailed \
	-k Throttled -k _fail -k problem:3 -k whole_number:2 -k optional_date:2 -k _signed:2
translations: install-app
	$(BIN)/pybabel extract -F babel.cfg $(KEYWORDS) --no-location --sort-output -w 100 \
	  -o dealer_assist/translations/messages.pot .
	$(BIN)/pybabel update -w 100 -i dealer_assist/translations/messages.pot -d dealer_assist/translations \
	  --no-fuzzy-matching
	$(BIN)/pybabel compile -d dealer_assist/translations

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
