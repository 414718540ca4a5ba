"""The `stack` fixture: a fresh deployment on private PostgreSQL and Redis (loadtest/stack.py).

Used by the fault tests (tests/faults/) and the load harness's short run (tests/load/). These
services are the test's own, on free ports, never the machine's shared ones: the fault tests stop,
kill and restart them. Each deployment is removed when its test ends, passed or not. They need the
PostgreSQL server binaries and redis-server installed; without them the tests are skipped, except
with CI=true, where that is an error. A conftest imports both names below.
"""

from __future__ import annotations

import shutil

import pytest

from loadtest.stack import PG_BIN, Stack
from tests.conftest import in_ci


def _missing() -> str | None:
    if not (PG_BIN[0] / "initdb").exists():
        return "the PostgreSQL server binaries (initdb) are not installed"
    if not shutil.which("redis-server"):
        return "redis-server is not installed"
    return None


@pytest.fixture
def stack(request):
    """A fresh deployment on private PostgreSQL and Redis; its logs are shown if the test fails."""
    reason = _missing()
    if reason:
        if in_ci():
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)
    with Stack() as deployment:
        yield deployment
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            print(deployment.logs())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
