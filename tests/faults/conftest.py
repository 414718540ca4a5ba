"""Fault injection on real services: every test runs its own deployment, on private
PostgreSQL and Redis (tests/stack_fixture.py), which it may stop, kill and restart."""

from tests.stack_fixture import pytest_runtest_makereport, stack  # noqa: F401
