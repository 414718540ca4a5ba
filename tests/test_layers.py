"""The layer contracts of `make lint` (pyproject.toml, [tool.importlinter]; docs/architecture.md)
hold on the code, and each kind of forbidden import breaks them: lint-imports runs on a copy of
the packages with one import added, so a contract that could never fail would show here."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _copy(tmp_path: Path) -> Path:
    """The three packages and the contracts, where lint-imports finds them before the install."""
    for package in ("games", "relics", "staked"):
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "migrations", "static", "templates"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _add_import(root: Path, module: str, line: str) -> None:
    path = root / module
    path.write_text(path.read_text() + f"\n{line}\n")


def test_the_code_keeps_every_layer_contract(tmp_path):
    result = _lint(_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        (
            "games/engine/table.py",
            "import django.conf  # noqa",
            "The engine imports no Django, no library and nothing of the site",
        ),
        (
            "games/engine/ties.py",
            "from games import names  # noqa",
            "The engine imports no Django, no library and nothing of the site",
        ),
        (
            "relics/rules/cards.py",
            "from games import models  # noqa",
            "Sacred Relics' rules import only the engine (Last Wills are part of it)",
        ),
        ("games/models.py", "from games import services  # noqa", "Models import no service"),
        (
            "games/services/seats.py",
            "from games import display  # noqa",
            "Services import no view, API or admin",
        ),
        (
            "games/notify/services.py",
            "from django.template.loader import render_to_string  # noqa",
            "Services render no template and answer no request",
        ),
        (
            "games/chat/selectors.py",
            "from games import views  # noqa",
            "Reminders and chat import none of the game's pages",
        ),
        ("games/api/games.py", "from games.web import game  # noqa", "The API imports no page"),
        (
            "games/web/display.py",
            "from games.api import serializers  # noqa",
            "The pages import no API",
        ),
        (
            "games/domain/identity.py",
            "from games import selectors  # noqa",
            "No import cycle inside games/",
        ),
    ],
)
def test_a_forbidden_import_fails_lint_imports(tmp_path, module, line, contract):
    root = _copy(tmp_path)
    _add_import(root, module, line)
    result = _lint(root)
    assert result.returncode != 0
    report = " ".join(result.stdout.split())  # the report wraps long contract names
    assert f"{contract} BROKEN" in report, result.stdout
