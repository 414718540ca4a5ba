# Staked! - developer commands. See README.md.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: run test lint format bench bench-page bench-api fuzz-api load soak test-long

# A fresh clone has no .venv: create it, then (re)install whenever pyproject.toml changes.
$(PY):
	python3 -m venv $(VENV)

$(VENV)/.installed-run: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	@touch $@

# Web server, Celery worker and Celery beat in one terminal; Ctrl-C stops all three.
# DEBUG=1 unless you set DEBUG yourself, so no SECRET_KEY is needed locally.
run: export DEBUG ?= 1
run: export PORT := $(PORT)
run: export STREAM_PORT ?= $(shell echo $$(($(PORT) + 1)))
run: export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
run: $(VENV)/.installed-run
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v 0
	exec $(PY) scripts/run_all.py Procfile.dev

# The whole suite, against PostgreSQL and Redis when they can be reached (started if need be).
test: $(VENV)/.installed-test
	scripts/run_tests.sh

# The sampled tests at full size (HYPOTHESIS_PROFILE=long; tests/conftest.py `examples`): 2,000
# random whole games of the engine, 500 with Last Wills, 300 of each relic check, new ones each
# run; the 200 differential twin games; every hidden-information and pending-schema game; 10
# schemathesis examples per operation, with its coverage phase; the words of every seat's page in six random relic games;
# every phone checked at every phase of the six- and eight-phone browser games; 120 simulated
# games on one worker and on two; every seat's first screen after every second change of an 8-
# and a 10-seat random relic game. `make test`
# plays a fifth to a tenth of them, the same ones every CI run. About half an hour on two cores.
LONG_TESTS := tests/engine/test_properties.py tests/engine/test_properties_last_wills.py \
	tests/relics/test_properties_relics.py tests/security/test_differential.py \
	tests/api/test_hidden_information.py tests/api/test_pending_schema.py \
	tests/api/test_schemathesis.py tests/web/test_words.py tests/browser/test_whole_game.py \
	tests/browser/test_whole_game_eight.py tests/test_event_words.py tests/test_simulate.py \
	tests/browser/test_first_screen_random.py
test-long: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=long scripts/run_tests.sh -n 3 --dist worksteal $(LONG_TESTS) -q

# ruff, then the layer contracts of pyproject.toml ([tool.importlinter], docs/architecture.md).
lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

format: $(VENV)/.installed-test
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(VENV)/.installed-test
	$(PY) -m games.engine.bench

# The game page in-process (PostgreSQL + Redis): a poll after a change, per phone and over a
# 10-seat relic table in round 2, beside the seat's API view and /healthz.
bench-page: $(VENV)/.installed-test
	@[[ -n "$${DATABASE_URL:-}" ]] || scripts/ensure_services.sh postgres
	@[[ -n "$${REDIS_URL:-}" ]] || scripts/ensure_services.sh redis
	$(PY) scripts/bench_page.py $(BENCH_ARGS)

# The API under gunicorn with PostgreSQL and Redis: the poll path against a bare view, and
# place_token latency with 50 games at once (needs wrk, installed here from Debian if missing).
bench-api: $(VENV)/.installed-test
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk >/dev/null)
	scripts/ensure_services.sh postgres && scripts/ensure_services.sh redis
	$(PY) scripts/bench_api.py

# schemathesis against a live server with every check on, 200 examples per operation and phase
# (the suite runs the same test with 10: tests/api/test_schemathesis.py).
fuzz-api: $(VENV)/.installed-test
	STAKED_FUZZ_EXAMPLES=$${STAKED_FUZZ_EXAMPLES:-200} \
	STAKED_FUZZ_PHASES=$${STAKED_FUZZ_PHASES:-examples,coverage,fuzzing,stateful} \
	scripts/run_tests.sh tests/api/test_schemathesis.py -q

# Capacity of this machine under simulated phones (loadtest/): gunicorn + PostgreSQL + Redis +
# a Celery worker and beat, all private instances. LOAD_ARGS="--quick" for one short step.
load: $(VENV)/.installed-test
	$(PY) -m loadtest.capacity $(LOAD_ARGS)

# Bot games without a pause on the zero-setup default of `make run` (SOAK_MINUTES, default 30).
soak: $(VENV)/.installed-test
	$(PY) -m loadtest.soak
