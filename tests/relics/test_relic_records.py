"""The module's data is frozen records (relics/rules/holdings.py), and games saved
before the records (the data as plain dicts) load, save, show and play unchanged.

tests/relics/data/relic_states_before_records.json was made by main's code before the records
(tests/relics/data/make_relic_states.py): states with each part of the data in use, each with the
views and offers that code showed for them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import relics.rules as R
from games.engine import pending, state_from_json, timeout, to_json, view
from games.engine.serialize import from_json
from games.engine.vocabulary import RelicId
from relics.rules.holdings import Choice, Giving, Window

SAVED = json.loads(
    (Path(__file__).parent / "data" / "relic_states_before_records.json").read_text()
)
# What each saved state was chosen for, as make_relic_states.py tells it from the data.
FEATURES = {
    "giving_drawn2": lambda s, d: s["phase"] == "give_relic" and len(d["giving"]["drawn"]) == 2,
    "giving": lambda s, d: s["phase"] == "give_relic" and d["giving"]["drawn"],
    "window_pre": lambda s, d: s["phase"] == "relic_window" and d["window"]["stage"] == "pre",
    "window_post": lambda s, d: s["phase"] == "relic_window" and d["window"]["stage"] == "post",
    "window_reveal": lambda s, d: s["phase"] == "relic_window" and d["window"]["stage"] == "reveal",
    "window_tie": lambda s, d: s["phase"] == "relic_window" and d["window"]["stage"] == "tie",
    "copy": lambda s, d: d["copy"] and d["copy"]["round"] == s["round"],
    "markers": lambda s, d: d["markers"],
    "negated": lambda s, d: any(n["round"] == s["round"] for n in d["negated"]),
    "key_used": lambda s, d: d["key_used"],
    "choice_idol": lambda s, d: s["phase"] == "relic_choice" and d["choice"]["card"],
    "choice_journal": lambda s, d: s["phase"] == "relic_choice" and d["choice"]["card"] is None,
    "pending_deaths": lambda s, d: d["pending_deaths"],
    "cross": lambda s, d: d.get("cross"),
    "offered": lambda s, d: d["offered"],
    "done_round": lambda s, d: "done_round" in d,
    "discarded": lambda s, d: any(h["discarded"] for h in d["holdings"]),
}


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)


def test_the_saved_states_cover_every_part_of_the_relics_data():
    covered = {f for entry in SAVED for f in entry["features"]}
    assert covered == set(FEATURES)
    for entry in SAVED:  # each state really has what it was chosen for
        state = entry["state"]
        for feature in entry["features"]:
            assert FEATURES[feature](state, state["ext"]["relics"]), feature


@pytest.mark.parametrize("entry", SAVED, ids=lambda e: "+".join(e["features"]))
def test_a_state_saved_before_the_records_loads_saves_shows_and_plays_unchanged(entry):
    stored = entry["state"]
    state = state_from_json(stored)
    assert _dumps(_before_reveal(to_json(state))) == _dumps(stored)
    for seat, shown in entry["views"].items():
        assert _dumps(view(state, None if seat == "None" else int(seat))) == _dumps(shown), seat
    for seat, offered in entry["pending"].items():
        assert _dumps(pending(state, int(seat))) == _dumps(offered), seat
    if state.deadline is not None:  # its window's timeout leads where it led before
        later, _ = timeout(state, state.deadline)
        assert _dumps(_before_lines(_before_reveal(to_json(later)))) == _dumps(
            entry["after_timeout"]
        )
        again = to_json(state_from_json(to_json(later)))
        assert _dumps(_before_lines(_before_reveal(again))) == _dumps(entry["after_timeout"])


def _before_reveal(saved: dict) -> dict:
    """`saved` without the role reveal's fields (a later addition), which a game saved before it
    gets at their defaults: nobody `ready`, `timers.reveal` 0."""
    assert saved["ready"] == [] and saved["options"]["timers"]["reveal"] == 0
    timers = {k: v for k, v in saved["options"]["timers"].items() if k != "reveal"}
    rest = {k: v for k, v in saved.items() if k != "ready"}
    return {**rest, "options": {**saved["options"], "timers": timers}}


def _before_lines(saved: dict) -> dict:
    """`saved` as the code of the saved states wrote it: a Last Will resolved since then also
    keeps its result's lines as templates (`result_lines`, for the narrator), a later addition."""
    wills = saved["ext"].get("last_wills")
    if not wills:
        return saved
    draws = [{k: v for k, v in d.items() if k != "result_lines"} for d in wills["draws"]]
    return {**saved, "ext": {**saved["ext"], "last_wills": {**wills, "draws": draws}}}


@pytest.mark.parametrize("entry", SAVED, ids=lambda e: "+".join(e["features"]))
def test_the_relics_data_reads_as_frozen_records_with_enum_ids(entry):
    state = state_from_json(entry["state"])
    data = R.data_of(state)
    raw = entry["state"]["ext"]["relics"]
    assert isinstance(data, R.Relics)
    assert all(isinstance(h, R.Holding) and isinstance(h.card, R.Card) for h in data.holdings)
    assert all(isinstance(c, R.Card) for c in (*data.deck, *data.box))
    assert all(isinstance(r, RelicId) for r in data.markers)
    with pytest.raises(AttributeError):
        data.holdings = ()  # frozen
    if raw.get("window"):
        assert isinstance(data.window, Window) and isinstance(data.window.stage, R.Stage)
        assert data.window.as_ == raw["window"]["as"] and isinstance(data.window.as_, RelicId)
    if raw.get("giving"):
        assert isinstance(data.giving, Giving) and list(data.giving.order) == raw["giving"]["order"]
    if raw.get("choice"):
        assert isinstance(data.choice, Choice) and data.choice.key in data.offered
    # The record writes the same JSON back (only the fields a game had not reached yet are null).
    written = to_json(data)
    assert {k: v for k, v in written.items() if k in raw} == raw
    assert all(written[k] is None for k in written.keys() - raw.keys())
    assert _dumps(to_json(from_json(R.Relics, written))) == _dumps(written)


def test_a_key_no_record_field_reads_stays_in_the_saved_json():
    """A key some older code wrote is kept as it was, not lost on the next save."""
    stored = SAVED[0]["state"]
    relics = {**stored["ext"]["relics"], "retired_key": [1, 2]}
    state = state_from_json({**stored, "ext": {**stored["ext"], "relics": relics}})
    assert R.data_of(state).holdings  # read as usual
    later, _ = timeout(state, state.deadline)
    assert later.ext["relics"]["retired_key"] == [1, 2]
    assert later.ext["relics"] != relics  # the timeout did change the relics' data
