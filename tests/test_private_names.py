"""No module uses another module's underscore names: a name that starts with `_` is
its module's own, so it can change without breaking anyone. Import-linter sees modules, not
names, so this reads the code: `from m import _x` and `m._x` where `m` is a module of the site."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "relics", "staked")

DJANGO_PUBLIC = {"_meta"}  # a model's `_meta` is Django's documented API


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in DJANGO_PUBLIC


def _site_module(module: str | None, level: int) -> bool:
    return level > 0 or (module or "").split(".")[0] in PACKAGES


def _reaches(path: Path) -> set[str]:
    """`module._name` for each private name this file takes from another module of the site."""
    tree = ast.parse(path.read_text(), filename=str(path))
    modules: set[str] = set()  # local names bound to a module of the site
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _site_module(alias.name, 0):
                    modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and _site_module(node.module, node.level):
            for alias in node.names:
                if _is_private(alias.name):
                    found.add(f"{node.module}.{alias.name}")
                else:
                    modules.add(alias.asname or alias.name)  # maybe a module: checked below
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and _is_private(node.attr)
        ):
            found.add(f"{node.value.id}.{node.attr}")
    return found


def _all_reaches() -> set[tuple[str, str]]:
    out = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for reach in _reaches(path):
                out.add((str(path.relative_to(ROOT)), reach))
    return out


def test_no_module_uses_another_modules_underscore_names():
    assert _all_reaches() == set()


def test_a_reach_into_another_module_is_found(tmp_path):
    path = tmp_path / "edge.py"
    path.write_text(
        "from games import views\nfrom games.services import _locked\nviews._home(None)\n"
    )
    assert _reaches(path) == {"views._home", "games.services._locked"}
