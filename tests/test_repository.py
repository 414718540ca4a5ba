"""The repository explains itself: no tracked file points outside it to the team's shared notes,
and the documents the code names (the rules, the voice, the API guide) are in docs/."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tracked_text_files() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / n for n in names if n.endswith((".py", ".md", ".html", ".toml", ".js", ".txt"))]


# The path of the team's shared folder beside the repository, spelled in two parts so that not
# even this file names it.
OUTSIDE = "../" + "shared"


def test_no_tracked_file_points_to_the_shared_folder_outside_the_repository():
    files = tracked_text_files()
    assert len(files) > 100  # the premise: git listed the repository
    pointing = [
        str(f.relative_to(ROOT))
        for f in files
        if f.exists() and OUTSIDE in f.read_text(errors="replace")
    ]
    assert pointing == []


def test_the_documents_the_code_names_are_in_docs():
    for name in ("rules.md", "rulings.md", "voice.md", "api.md", "architecture.md"):
        assert (ROOT / "docs" / name).stat().st_size > 1000, name
    assert "R13" in (ROOT / "docs" / "rules.md").read_text()


def test_the_readme_stays_short_and_links_every_document_in_docs():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    for doc in sorted((ROOT / "docs").glob("*.md")):
        if doc.name != "balance-notes.md":  # a part of balance.md, linked from benchmarks.md
            assert f"](docs/{doc.name})" in readme, doc.name
