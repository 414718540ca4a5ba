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

# The whole suite: two pytest runs side by side, to keep it well under 30 minutes on two cores.
# One runs what mostly waits on other processes (a real browser, whole deployments stopped and
# restarted: tests/browser, tests/faults, tests/load); the other runs everything else. Each has
# its own test database and Redis databases, so they never see each other's data. Both must pass.
# STAKED_SERIAL_TESTS=1 runs everything in one process instead.
shifted() {  # shifted URL N: a redis://.../<db> URL with its database number raised by N
    local url="$1" n="$2"
    if [[ "$url" =~ ^(redis://.*/)([0-9]+)$ ]]; then
        echo "${BASH_REMATCH[1]}$((BASH_REMATCH[2] + n))"
    else
        echo "$url"
    fi
}
processes_log="$(mktemp)"
trap 'rm -f "$processes_log"' EXIT
(
    [[ "${DATABASE_URL:-}" == postgres* ]] && export DATABASE_URL="${DATABASE_URL}_processes"
    [[ -n "${REDIS_URL:-}" ]] && export REDIS_URL="$(shifted "$REDIS_URL" 2)"
    [[ -n "${CELERY_BROKER_URL:-}" ]] && export CELERY_BROKER_URL="$(shifted "$CELERY_BROKER_URL" 2)"
    exec .venv/bin/python -m pytest tests/browser tests/faults tests/load
) >"$processes_log" 2>&1 &
processes=$!
status=0
.venv/bin/python -m pytest --ignore=tests/browser --ignore=tests/faults --ignore=tests/load || status=$?
wait "$processes" || status=$?
echo
echo "===== tests/browser, tests/faults and tests/load (run beside the rest) ====="
cat "$processes_log"
exit "$status"
