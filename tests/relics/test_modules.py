"""The Sacred Relics and the Last Wills are modules that know each other only
through the hook interface (games/engine/hooks.py), and a relic game never runs without relics."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import relics.rules
from games.engine import Options, hooks, pending, setup, state_from_json, timeout, to_json
from games.engine.view import waiting_for

STORED = Path(__file__).parent / "data" / "stored_game_round3.json"
ROOT = Path(__file__).resolve().parents[2]


def test_setup_refuses_relics_when_the_relics_module_is_not_registered():
    hooks.unregister("relics")
    try:
        with pytest.raises(hooks.ModuleMissing, match="relics"):
            setup(Options(relics=True), 8, seed=1)
        assert setup(Options(relics=False), 8, seed=1).options.relics is False
    finally:
        hooks.register(relics.rules.MODULE)
    assert setup(Options(relics=True), 8, seed=1).options.relics


def test_the_relics_module_is_what_the_last_wills_ask_for_and_the_last_wills_are_not():
    state = setup(Options(relics=True, last_wills=True), 8, seed=1)
    assert hooks.provider(state, hooks.RelicKeeper) is relics.rules.MODULE
    assert isinstance(relics.rules.MODULE, hooks.RelicKeeper)
    no_relics = setup(Options(relics=False, last_wills=True), 8, seed=1)
    assert hooks.provider(no_relics, hooks.RelicKeeper) is None


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_relics_and_last_wills_do_not_import_each_other():
    last_wills = _imports(ROOT / "games/engine/last_wills.py")
    assert not any("relics" in name for name in last_wills)
    for path in (ROOT / "relics/rules").glob("*.py"):
        names = _imports(path)
        assert not any("last_wills" in name for name in names), path.name
        assert all(not n.startswith("django") for n in names), path.name


def test_a_relic_game_stored_before_the_split_loads_and_saves_unchanged():
    """tests/relics/data: a relic game in round 3 (an open relic window, a Last Will drawn) as the
    single-file relics/rules.py saved it."""
    stored = json.loads(STORED.read_text())
    state = state_from_json(stored)
    assert state.phase == "relic_window" and state.ext["relics"]["holdings"]
    # Saved again, it is the same but for fields added since, at their defaults (the role
    # reveal's `ready` and `timers.reveal`: none, as a game stored before it had none).
    options = {**stored["options"], "timers": {**stored["options"]["timers"], "reveal": 0}}
    expected = {**stored, "ready": [], "options": options}
    assert json.dumps(to_json(state), sort_keys=True) == json.dumps(expected, sort_keys=True)
    (seat,) = waiting_for(state)
    assert {p["action"] for p in pending(state, seat)} >= {"use_relic", "pass"}
    later, _ = timeout(state, state.deadline)
    assert later.ext["relics"]["done"] != stored["ext"]["relics"]["done"]
