"""The rules engine stays pure: standard library only, no Django (docs/architecture.md)."""

import ast
import pathlib
import subprocess
import sys

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "games" / "engine"
FORBIDDEN = ("django", "rest_framework", "celery", "redis")


def test_engine_imports_nothing_but_the_standard_library_and_itself():
    paths = sorted(ENGINE.rglob("*.py"))
    assert ENGINE / "__init__.py" in paths and len(paths) > 5, ENGINE
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "games", (
                    f"{path.name} imports {name}"
                )


def test_engine_runs_without_django_loaded():
    code = (
        "import sys, games.engine as e;"
        "e.setup(e.Options(), 6, 1);"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parents[1])
