"""The load harness (loadtest/): its phones against the real pages, and a short run on a
production-like deployment of its own (tests/stack_fixture.py)."""

from tests.stack_fixture import pytest_runtest_makereport, stack  # noqa: F401
