"""Every event kind carries machine-readable `data` (ids, seats, enums)
declared once in games/engine/events.py, and whole games' events match it, undeclared properties
forbidden. The texts name seats only through placeholders into that data, so the
pages put names there without reading the words."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

import relics.rules  # noqa: F401 - registers the Sacred Relics module
from games.bots.strategies.randomly import random_choice
from games.engine import IllegalAction, Options, apply, opening_events, setup, timeout, view
from games.engine.events import DATA, render, seats_in
from games.engine.state import Action, Timers
from games.engine.view import waiting_for
from games.engine.vocabulary import EventKind
from games.simulate.config import Config
from games.simulate.runner import play
from games.simulate.statistics import Tally
from tests.event_schemas import problems

ROOT = Path(__file__).resolve().parents[2]
ENGINE_SOURCES = [*ROOT.glob("games/engine/*.py"), *ROOT.glob("relics/rules/*.py")]
# Too rare for a few dozen random games; the scenario tests that make them
# (tests/relics/test_r11_cards.py, through tests/engine/table.py) check their data too.
RARE = {EventKind.TIE_RECOUNT, EventKind.TOKENS_SET_ASIDE}


def test_every_event_kind_has_a_declared_data_schema():
    assert set(DATA) == set(EventKind)
    for kind, schema in DATA.items():
        assert schema["type"] == "object" and schema["additionalProperties"] is False, kind


def test_every_event_kind_the_engine_writes_is_one_of_the_vocabulary():
    """The engine and the relic rules name an event's kind only as `EventKind.X` (no string a
    schema could miss), and every kind of the vocabulary is written somewhere."""
    used = set()
    for path in ENGINE_SOURCES:
        text = path.read_text()
        assert not re.search(r"\b(public|private)\(\s*state,\s*(\[[^\]]*\],\s*)?[\"']", text), path
        used |= set(re.findall(r"EventKind\.([A-Z_]+)", text))
    assert used == {k.name for k in EventKind}


def _dawdling_game(players: int, seed: int, events: list) -> None:
    """Random moves, and often nobody moves: every window's timer runs out at times. Odd seeds
    open with the role reveal (R2's ruling)."""
    timers = Timers(reveal=30 if seed % 2 else 0)
    options = Options(relics=True, last_wills=True, expansion=players > 10, timers=timers)
    state = setup(options, players, seed)
    events.extend(opening_events(state))
    rng = random.Random(seed)
    for _ in range(20_000):
        if state.outcome is not None:
            return
        seats = waiting_for(state)
        choice = None
        if seats and rng.random() > 0.3:
            seat = rng.choice(seats)
            seen = view(state, seat)
            choice = random_choice(rng, seen["pending"], seen)
        more = None
        if choice is not None:
            try:
                state, more = apply(state, Action(choice[0], seat, choice[1]))
            except IllegalAction:
                pass
        if more is None:
            state, more = timeout(state, state.deadline or 0.0)
        events.extend(more)
    raise AssertionError(f"game {seed} did not end")


def test_events_of_whole_simulated_games_match_their_declared_data_schemas():
    events: list = []
    for players in (7, 10, 12):
        for strategy, relics_on in (("sensible", True), ("random", True), ("random", False)):
            config = Config(players=players, relics=relics_on, last_wills=True, strategy=strategy)
            for i in range(5):
                play(config, i, Tally(), events.extend)
        for seed in range(8):
            _dawdling_game(players, seed, events)
    found = [p for e in events for p in problems(e)]
    assert not found, "\n".join(found[:20])
    seen = Counter(e.kind for e in events)
    assert set(EventKind) - RARE <= set(seen), set(EventKind) - RARE - set(seen)


@pytest.mark.parametrize("relics", [True, False])
def test_no_event_text_writes_a_seat_number_by_hand(relics):
    """Every seat a line names is a placeholder into its data (the pages show a name there)."""
    events: list = []
    config = Config(players=10, relics=relics, last_wills=True, strategy="random")
    for i in range(10):
        play(config, i, Tally(), events.extend)
    for e in events:
        assert not re.search(r"\b[Ss]eats? \d", e.template or e.text), (e.kind, e.text)
        assert "the The" not in e.text and " a Investigation" not in e.text, e.text
        if e.audience is None:  # third person (a card's own words, quoted, aside)
            words = re.sub(r"“[^”]*”", "", e.text)
            assert not re.search(r"\b(you|your)\b", words, re.I), (e.kind, e.text)


def test_a_template_renders_seats_for_the_api_and_names_for_the_pages():
    data = {"seat": 5, "votes": [{"voter": 2, "target": 7}], "seats": [4, 1]}
    template = "{seat:Seat} ends it; {votes.0.voter:seat} → {votes.0.target:seat}; {seats:seats}."
    assert render(template, data) == "Seat 5 ends it; seat 2 → seat 7; seats 1 and 4."
    names = {1: "Ana", 2: "Ben", 4: "Cleo", 5: "Dan", 7: "Eve"}
    assert render(template, data, lambda s, _: names[s]) == "Dan ends it; Ben → Eve; Ana and Cleo."
    assert seats_in(EventKind.TIE_SETTLED, {"votes": [{"voter": 2, "target": 7}], "winner": 7}) == {
        2,
        7,
    }
