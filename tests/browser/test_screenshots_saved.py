"""The browser suite leaves pictures to look at: a run of the whole tests/browser
directory writes at least 25 screenshots, per phase and per role, into tests/artifacts/.

Moved to the very end of the run by conftest.py. It counts the PNGs written since the session
started (by modification time). When only some browser tests were chosen (a file, a test id, -k
or -m), fewer pictures are expected, so it skips and says why; for the whole directory it
asserts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import conftest

pytestmark = pytest.mark.browser

AT_LEAST = 25
BROWSER_TESTS = Path(conftest.__file__).resolve().parent


def not_the_whole_directory(session: pytest.Session) -> str | None:
    """Why this run holds fewer than all the browser tests (None when it holds them all)."""
    if conftest.DESELECTED:
        return f"{len(conftest.DESELECTED)} browser test(s) deselected"
    if any("::" in arg for arg in session.config.args):
        return "only some tests of a file were chosen"
    files = set(BROWSER_TESTS.glob("test_*.py"))
    collected = {Path(item.path).resolve() for item in session.items}
    missing = files - collected
    return f"{len(missing)} of {len(files)} browser test files not collected" if missing else None


def test_the_whole_browser_suite_saves_at_least_25_screenshots(request):
    partial = not_the_whole_directory(request.session)
    if partial:
        pytest.skip(f"only part of tests/browser ran ({partial}): the count needs them all")
    written = [
        png
        for png in conftest.ARTIFACTS.rglob("*.png")
        if png.stat().st_mtime >= conftest.SESSION_STARTED
    ]
    assert len(written) >= AT_LEAST, (
        f"{len(written)} screenshot(s) written in tests/artifacts/ by this run: "
        f"{sorted(p.name for p in written)}"
    )
