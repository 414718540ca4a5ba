"""The engine's vocabulary (games/engine/vocabulary.py) is what every layer names,
and a state saves exactly as it did when these words were plain strings."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from games.engine import Options, flow, setup, to_json
from games.engine.vocabulary import ActionName, EventKind, Phase, Role, Token
from tests.engine.test_r13_last_wills import choose, mesmerized_three

ROOT = Path(__file__).resolve().parents[2]


def _strings(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)
    elif isinstance(obj, str):
        yield obj


def test_a_saved_state_holds_plain_strings_equal_to_the_words():
    state = setup(Options(), 8, seed=3)
    assert state.phase == Phase.MINGLING and state.phase == "mingling"
    assert {p.role for p in state.players} == set(Role)
    saved = to_json(state)
    assert all(type(s) is str for s in _strings(saved))
    assert json.loads(json.dumps(saved)) == saved
    assert saved["phase"] == "mingling" and saved["hands"][0][0] in {t.value for t in Token}


def test_the_engine_knows_exactly_the_actions_of_the_vocabulary():
    assert flow.ACTIONS == tuple(ActionName)


def test_every_log_line_names_its_kind_from_the_vocabulary():
    """No `public(state, "some_kind", ...)`: a renamed kind would silently change the log."""
    files = [*(ROOT / "games/engine").glob("*.py"), *(ROOT / "relics/rules").glob("*.py")]
    calls = 0
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "public",
                "private",
            ):
                kind = node.args[1 if node.func.id == "public" else 2]
                assert isinstance(kind, ast.Attribute) and kind.value.id == "EventKind", (
                    f"{path.name}:{node.lineno}"
                )
                assert kind.attr in EventKind.__members__
                calls += 1
    assert calls > 50


def test_r13_kindred_or_not_gives_its_verdict_as_data_in_every_view():
    t = mesmerized_three()
    choose(t, 3, 2)  # a Mesmerized Hunter and a Vampire: different sides
    for seat in (None, 1, 6):
        (will,) = t.view(seat)["last_wills"]
        assert will["same_side"] is False and will["result"].endswith("different sides.")
    t = mesmerized_three()
    choose(t, 4, 3)
    assert t.view(None)["last_wills"][0]["same_side"] is True


def test_r13_a_last_will_that_compares_nobody_has_no_verdict():
    t = mesmerized_three()
    assert "same_side" not in t.view(None)["last_wills"][0]  # drawn, not yet resolved
