"""The browser suite leaves pictures to look at: a run of the whole tests/browser directory
writes at least 25 screenshots, per phase and per role, into tests/artifacts/.

This is checked once the run is over, by the process that started it (tests/conftest.py's
pytest_sessionfinish): under pytest-xdist the browser tests run in several workers at once, and
no test in any one of them can know that the others are done. A short count fails the run
(exit status 1) with the list of what was written. When only some browser tests were chosen (a
file, a test id, -k or -m), fewer pictures are expected and the count is only reported.
"""

from __future__ import annotations

import time
from pathlib import Path

AT_LEAST = 25
BROWSER_TESTS = Path(__file__).resolve().parent
ARTIFACTS = BROWSER_TESTS.parent / "artifacts"
STARTED = time.time()  # imported by the process that starts the run, before any test


def not_the_whole_directory(collected: set[str]) -> str | None:
    """Why this run held fewer than all the browser tests (None when it held them all), from
    the node ids it collected."""
    files = {f"tests/browser/{path.name}" for path in BROWSER_TESTS.glob("test_*.py")}
    if not any(node.startswith("tests/browser/") for node in collected):
        return "no browser test ran"
    missing = files - {node.split("::")[0] for node in collected}
    return f"{len(missing)} of {len(files)} browser test files not collected" if missing else None


def written() -> list[Path]:
    """The screenshots this run wrote."""
    return [png for png in ARTIFACTS.rglob("*.png") if png.stat().st_mtime >= STARTED]


def narrowed(config) -> str | None:
    """How the command line chose only part of the tests (-k, -m, --deselect, a test id)."""
    if any(
        getattr(config.option, name, None) for name in ("keyword", "markexpr", "deselect", "lf")
    ):
        return "-k, -m, --deselect or --lf chose some tests"
    if any("::" in arg for arg in config.args):
        return "only some tests of a file were chosen"
    return None


def check(config, collected: set[str]) -> tuple[bool, str]:
    """(passed, what to print) once the run is over."""
    partial = narrowed(config) or not_the_whole_directory(collected)
    pictures = written()
    if partial:
        return True, f"browser screenshots: {len(pictures)} written (not counted: {partial})"
    if len(pictures) >= AT_LEAST:
        return True, f"browser screenshots: {len(pictures)} written (at least {AT_LEAST})"
    names = sorted(p.name for p in pictures)
    return False, (
        f"FAILED browser screenshots: {len(pictures)} written in tests/artifacts/ by this run, "
        f"fewer than {AT_LEAST}: {names}"
    )
