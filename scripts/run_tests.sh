#!/usr/bin/env bash
# `make test`: run the whole suite with PostgreSQL and Redis when they can be had.
#
# DATABASE_URL and REDIS_URL default to the local services, which are started if need be
# (scripts/ensure_services.sh). Outside CI, a service that cannot be had is left out: the suite
# then runs on SQLite / the embedded broker and skips the tests marked postgres / redis.
# With CI=true, a missing service is an error. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

is_ci() { [[ "${CI:-}" == "true" || "${CI:-}" == "1" ]]; }

use_service() {  # use_service NAME VARIABLE DEFAULT_URL
    local name="$1" var="$2" url="$3"
    if [[ -n "${!var:-}" ]]; then
        echo "run_tests: using $var from the environment" >&2
    elif scripts/ensure_services.sh "$name"; then
        export "$var=$url"
    elif is_ci; then
        echo "run_tests: CI=true and $name cannot be reached: failing instead of skipping its tests" >&2
        exit 1
    else
        echo "run_tests: $name unavailable; $var left unset, tests marked '$name' will be skipped" >&2
    fi
}

use_service postgres DATABASE_URL "postgres://postgres@127.0.0.1:5432/staked"
use_service redis REDIS_URL "redis://127.0.0.1:6379/0"
# Tests clear the cache (FLUSHDB): keep the broker in a database of its own.
if [[ -n "${REDIS_URL:-}" && -z "${CELERY_BROKER_URL:-}" && "$REDIS_URL" == "redis://127.0.0.1:6379/0" ]]; then
    export CELERY_BROKER_URL="redis://127.0.0.1:6379/1"
fi

# The browser tests need Debian's Chromium; in CI its absence is an error (tests/conftest.py).
if ! scripts/ensure_browser.sh; then
    if is_ci; then
        echo "run_tests: CI=true and Chromium cannot be installed" >&2
        exit 1
    fi
    echo "run_tests: no Chromium; the tests marked 'browser' will be skipped" >&2
fi

# pytest exits 5 when it collected no test: that stays a failure.
if [[ $# -gt 0 || "${STAKED_SERIAL_TESTS:-}" == "1" ]]; then
    exec .venv/bin/python -m pytest "$@"
fi

# The whole suite, in pytest-xdist workers that each take the next test as they finish one
# (--dist worksteal), so the long tests that mostly wait on other processes (a real browser,
# deployments stopped and restarted) overlap the ones that keep a core busy. Each worker has a
# test database and Redis databases of its own (tests/conftest.py, staked/pytest_plugin.py).
# Three workers on two cores: one of them is usually waiting. STAKED_TEST_WORKERS sets another
# number (at most 7: Redis has 16 databases); STAKED_SERIAL_TESTS=1 runs everything in one process.
exec .venv/bin/python -m pytest -n "${STAKED_TEST_WORKERS:-3}" --dist worksteal
