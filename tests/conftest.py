"""Shared test setup: the service markers and the Hypothesis profiles.

Tests marked ``postgres`` or ``redis`` need that service. Without it they are skipped with the
reason, except when CI=true: there a missing service stops the run with an error, so CI can never
pass by skipping them.
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests import scheduling
from tests.browser import screenshot_count
from tests.browser import session as browser_session

# A shared 2-core machine makes wall-clock deadlines flaky. CI plays the same examples on every
# run (derandomized), so that a verdict on a commit never depends on luck; local runs explore new
# examples each time, which is where a rare case turns up (and becomes a named test).
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


# `make test-long`: the sampled tests at full size (random examples, like dev).
hypothesis_settings.register_profile(
    "long", deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci" if in_ci() else "dev")
hypothesis_settings.load_profile(HYPOTHESIS_PROFILE)


def examples(suite: int, long: int) -> int:
    """How many examples a property test plays: `suite` in the suite (profiles ci and dev, sized
    so that `make test` stays short), `long` with HYPOTHESIS_PROFILE=long (`make
    test-long`: thousands of whole games, minutes each, where a rare case turns up)."""
    return long if HYPOTHESIS_PROFILE == "long" else suite


def postgres_missing() -> str | None:
    """Why PostgreSQL cannot be used, or None when it can."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL is not a postgres:// URL"
    import psycopg

    try:
        psycopg.connect(
            host=database.get("HOST") or None,
            port=database.get("PORT") or None,
            user=database.get("USER") or None,
            password=database.get("PASSWORD") or None,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except psycopg.Error as exc:
        return f"PostgreSQL at DATABASE_URL cannot be reached: {exc}".strip()
    return None


def redis_missing() -> str | None:
    """Why Redis cannot be used, or None when it can."""
    if not settings.REDIS_URL:
        return "REDIS_URL is not set"
    import redis

    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=3, socket_timeout=3
        )
        client.ping()
        client.close()
    except redis.RedisError as exc:
        return f"Redis at REDIS_URL cannot be reached: {exc}"
    return None


SERVICE_CHECKS = {"postgres": postgres_missing, "redis": redis_missing}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test that drives no browser runs with none alive in its process (tests/browser/
    session.py says why), stopped before any of the test's fixtures, its database's among them."""
    if not item.get_closest_marker("browser"):
        browser_session.stop()


@pytest.fixture(autouse=True)
def _no_log_index_kept_between_tests():
    """The log indexes a test's reads kept (games/selectors/log_index.py) never serve the next
    test, whose database may give its games the same ids."""
    yield
    from games.selectors import log_index

    log_index.forget()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Give this process a PostgreSQL test database of its own, test_<name>_<pid>.

    Several checkouts (and people) share one PostgreSQL server, and `make test` runs several
    pytest-xdist workers; with one fixed name (or xdist's test_<name>_gw0, the same in every
    checkout), a second run fails to create, or drops, the test database another one is using.
    """
    for database in settings.DATABASES.values():
        if database["ENGINE"] == "django.db.backends.postgresql":
            database.setdefault("TEST", {})["NAME"] = f"test_{database['NAME']}_{os.getpid()}"


@pytest.hookimpl(trylast=True)  # after -k, -m and --deselect: the order is the run's
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for marker, check in SERVICE_CHECKS.items():
        marked = [item for item in items if item.get_closest_marker(marker)]
        if not marked:
            continue
        reason = check()
        if reason is None:
            continue
        if in_ci():
            raise pytest.UsageError(
                f"CI=true and {len(marked)} test(s) marked {marker!r} cannot run: {reason}"
            )
        skip = pytest.mark.skip(reason=f"needs {marker}: {reason}")
        for item in marked:
            item.add_marker(skip)
    items[:] = scheduling.spread(items, scheduling.workers(config))


# The browser suite's screenshots are counted once the whole run is over, by the process that
# started it (tests/browser/screenshot_count.py): the ids every worker (or this process) collected.
COLLECTED: set[str] = set()


def pytest_collection_finish(session: pytest.Session) -> None:
    COLLECTED.update(item.nodeid for item in session.items)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids: list[str]) -> None:
    COLLECTED.update(ids)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    browser_session.stop()
    if hasattr(session.config, "workerinput"):
        return  # a pytest-xdist worker: the process that started the run counts
    passed, said = screenshot_count.check(session.config, COLLECTED)
    session.config.get_terminal_writer().line(said, red=not passed)
    if not passed and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
