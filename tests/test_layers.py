"""The layer contracts of `make lint` (pyproject.toml, [tool.importlinter]; docs/architecture.md)
hold on the code, and each of them can fail: lint-imports runs once on a copy of the packages with
one forbidden import added per contract, each in a module of its own, and its report must name
every contract broken by the very import added for it. A contract that could never fail, or a new
contract with no forbidden import here, shows as a failure."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
LAYERS = "Layers: the edges, the faces, services and selectors, presenters, domain, models, engine"

# (module, the import added to it, the contract it must break, what the report must say there)
FORBIDDEN = [
    (
        "games/services/seats.py",
        "from games.web import game",
        LAYERS,  # a page imported by a service
        "games.services.seats -> games.web.game",
    ),
    (
        "games/engine/table.py",
        "import django.conf",
        "The engine imports no Django, no library and nothing of the site",
        "games.engine.table -> django.conf",
    ),
    (
        "relics/rules/cards.py",
        "from games import models",
        "Sacred Relics' rules import only the engine (Last Wills are part of it)",
        "relics.rules.cards -> games.models",
    ),
    (
        "games/notify/services.py",
        "from django.template.loader import render_to_string",
        "Writers and readers render no template and answer no request",
        "games.notify.services -> django.template.loader",
    ),
    (
        "games/history/story.py",
        "from games.history import models",
        "A finished game's story is computed in pure Python from the lines it is given",
        "games.history.story -> games.history.models",
    ),
    (
        "games/presenters/times.py",
        "from games import models",
        "Presenters never query: no model, no service, no selector",
        "games.presenters.times -> games.models",
    ),
    (
        "games/history/records.py",
        "from games.history import views",
        "The apps' writers and readers import none of the faces",
        "games.history.records -> games.history.views",
    ),
    (
        "games/chat/selectors.py",
        "from games.web import news",
        "Reminders and chat import none of the game's pages",
        "games.chat.selectors -> games.web.news",
    ),
    (
        "games/api/games.py",
        "from games.web import display",
        "The API imports no page",
        "games.api.games -> games.web.display",
    ),
    (
        "games/web/vacation.py",
        "from games.api import serializers",
        "The pages import no API",
        "games.web.vacation -> games.api.serializers",
    ),
    (
        "games/domain/identity.py",
        "from games import selectors",
        "No import cycle inside games/",
        ".domain -> .selectors",
    ),
]


def _contracts() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [c["name"] for c in config["tool"]["importlinter"]["contracts"]]


def _lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _sections(report: str, names: list[str]) -> dict[str, str]:
    """Each broken contract's part of the report (after "Broken contracts"), whitespace
    collapsed: the report wraps long contract names."""
    text = " ".join(report.split())
    text = text[text.index("Broken contracts") :]
    starts = sorted((text.find(f" {name} -"), name) for name in names if f" {name} -" in text)
    ends = [start for start, _ in starts[1:]] + [len(text)]
    return {name: text[start:end] for (start, name), end in zip(starts, ends, strict=True)}


def test_the_code_keeps_every_layer_contract():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_contract_names_its_forbidden_import(tmp_path):
    """One run for all: each added import must show in its own contract's part of the report."""
    assert sorted({contract for _, _, contract, _ in FORBIDDEN}) == sorted(_contracts()), (
        "every contract of pyproject.toml needs a forbidden import here"
    )
    assert len({module for module, *_ in FORBIDDEN}) == len(FORBIDDEN), "one module each"
    for package in ("games", "relics", "staked"):
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "migrations", "static", "templates"),
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for module, line, _, _ in FORBIDDEN:
        path = tmp_path / module
        path.write_text(path.read_text() + f"\n{line}  # noqa\n")

    result = _lint(tmp_path)

    assert result.returncode != 0, result.stdout + result.stderr
    assert f"0 kept, {len(_contracts())} broken" in result.stdout, result.stdout
    sections = _sections(result.stdout, _contracts())
    for module, line, contract, shown in FORBIDDEN:
        assert contract in sections, f"{contract!r} not reported broken ({module}: {line})"
        assert shown in sections[contract], (
            f"{contract!r} is not broken by {module}: {line}\n{sections[contract]}"
        )
