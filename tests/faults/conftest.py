"""Fault injection on real services (issue 17): every test runs its own deployment.

PostgreSQL and Redis here are private instances on free ports (loadtest/stack.py), never the
machine's shared ones: these tests stop, kill and restart them. So are the gunicorn servers,
Celery workers and beat. Each test's deployment is removed when the test ends, passed or not.
The tests need the PostgreSQL server binaries and redis-server installed; without them they are
skipped, except with CI=true, where that is an error.
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
    env = getattr(request, "param", None)
    with Stack(env=env) as deployment:
        yield deployment
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            print(deployment.logs())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
