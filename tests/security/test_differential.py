"""The differential no-leak test: play one game twice with its secrets swapped, and
no observer may tell the two apart, until the game ends and every role is public (R1.4).

Random twin games (6–12 seats; relics, Last Wills, spectators and their chat on or off):
- at every step, the engine-level comparison (tests/security/differential.py): the views and
  events of a Hunter, a Ghost and the public, and the answers to moves the Hunter and the Ghost
  try;
- at a few steps of each game (one just after a swapped seat's card was examined, where there
  is one), the whole Django stack (tests/security/stack.py): five observers (the Hunter, the
  Ghost, a signed-in spectator, a logged-out browser, a staff organiser who is no superuser) ask
  the API, the pages, the table display, the chat and the admin, and every answer (status,
  headers with the ETag, cookies, body) must be byte for byte the same. The organiser also
  acts: at each checkpoint they ask the admin to give them a swapped seat, then read the game.

Seeds are fixed, so CI plays the same games on every run; set DIFFERENTIAL_SEED to explore
others locally. The suite plays 40 of them; `make test-long` plays all 200.
"""

from __future__ import annotations

import difflib
import os
import random
from collections import Counter

import pytest

from tests.conftest import examples
from tests.security.differential import compare_opening, compare_step
from tests.security.stack import fixed_csrf_mask, make_cast, play_through_the_stack
from tests.security.twins import Step, Twins

GAMES = examples(suite=40, long=200)
CHUNKS = examples(suite=4, long=8)  # tests that run side by side in pytest-xdist workers
SEED = int(os.environ.get("DIFFERENTIAL_SEED", "0"))
MOVE_BY_MOVE = 4  # of the games, also played move by move through the services


def configs() -> list[dict]:
    rng = random.Random(f"differential:{SEED}")
    return [
        {
            "seed": SEED * GAMES + i,
            "seats": rng.randint(6, 12),
            "relics": rng.random() < 0.5,
            "last_wills": rng.random() < 0.6,
            "spectators": rng.random() < 0.5,
            "spectator_chat": rng.random() < 0.5,
            "den_chat": rng.random() < 0.8,
        }
        for i in range(GAMES)
    ]


@pytest.mark.long(14)
@pytest.mark.django_db
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_no_observer_can_tell_twin_games_apart(chunk, monkeypatch):
    monkeypatch.setattr("django.middleware.csrf._get_new_csrf_string", fixed_csrf_mask)
    cast = make_cast()
    seen = Counter()
    for config in configs()[chunk::CHUNKS]:
        twins = Twins(**config)
        steps = play_and_compare(twins, seen)
        marks = checkpoints(twins, steps, seen)
        answers_a, answers_b = play_through_the_stack(twins, steps, marks, cast)
        compare_answers(twins, answers_a, answers_b)
        seen["games"] += 1
        seen["answers"] += len(answers_a)
    # the games reached the secrets the test is about (else it could not fail)
    games = GAMES // CHUNKS
    assert seen["games"] == games
    assert seen["mesmerism differs"] >= games // 5, seen
    assert seen["checked at a mesmerism"] >= games // 5, seen
    assert seen["box card differs"] >= games // 5, seen
    assert seen["ghost observer died"] >= games // 2, seen
    assert seen["relic choice probed"] >= 1, seen
    assert seen["refused"] >= games, seen  # refusals are checked for hidden seats' numbers
    assert seen["compared to the end"] >= games * 3 // 4, seen


@pytest.mark.django_db
def test_no_observer_can_tell_twin_games_apart_played_move_by_move(monkeypatch):
    """A few of the games again, each move through `services.action_apply` and each timeout
    through `services.game_expire` (the versions, ETags and log lines they write themselves,
    the away flags among them), observed at four phase changes."""
    monkeypatch.setattr("django.middleware.csrf._get_new_csrf_string", fixed_csrf_mask)
    cast = make_cast()
    seen = Counter()
    chosen = [c for c in configs() if c["relics"]][:2] + [c for c in configs() if not c["relics"]][
        :2
    ]
    for config in chosen:
        twins = Twins(**config)
        steps = play_and_compare(twins, seen)
        rng = random.Random(f"{twins.seed}:move by move")
        changes = [i for i in range(1, len(steps)) if steps[i].a.phase != steps[i - 1].a.phase]
        marks = sorted(rng.sample(changes, min(4, len(changes))))
        answers_a, answers_b = play_through_the_stack(twins, steps, marks, cast, move_by_move=True)
        compare_answers(twins, answers_a, answers_b)
        seen["answers"] += len(answers_a)
    assert seen["answers"] >= 4 * 4 * 10, seen


def play_and_compare(twins: Twins, seen: Counter) -> list[Step]:
    """Play the twins to the end, comparing every step while they are comparable; return the
    comparable steps."""
    compare_opening(twins)
    steps = []
    while not twins.over:
        step = twins.step()
        if not twins.comparable:
            break
        compare_step(twins, step, seen)
        steps.append(step)
        _count(twins, step, seen)
    seen["compared to the end"] += twins.stopped_because == "the game is over (R1.4)"
    return steps


def _count(twins: Twins, step: Step, seen: Counter) -> None:
    if mesmerism_differs(step) and not getattr(twins, "_counted_mesmerism", False):
        twins._counted_mesmerism = True
        seen["mesmerism differs"] += 1
    if step.a.phase == "relic_choice":
        seen["relic choice probed"] += 1
    relics_a = step.a.ext.get("relics") or {}
    if relics_a.get("distributed") and not getattr(twins, "_counted_box", False):
        twins._counted_box = True
        seen["box card differs"] += relics_a["box"] != step.b.ext["relics"]["box"]
    if not step.a.player(twins.ghost).alive and not getattr(twins, "_counted_ghost", False):
        twins._counted_ghost = True
        seen["ghost observer died"] += 1


def checkpoints(twins: Twins, steps: list[Step], seen: Counter) -> list[int]:
    """Where the Django stack is asked (step indexes, in order): just after the first
    examination that Mesmerized someone in one twin only (three private lines, whose gaps
    once numbered the public events: tests/security/test_event_numbers.py)
    if there is one, else a phase change at random; and in one game out of four, another."""
    rng = random.Random(f"{twins.seed}:checkpoints")
    changes = [i for i in range(1, len(steps)) if steps[i].a.phase != steps[i - 1].a.phase]
    changes = changes or [len(steps) - 1]
    marks = {rng.choice(changes)}
    for i, step in enumerate(steps):
        if mesmerism_differs(step):
            marks = {i}
            seen["checked at a mesmerism"] += 1
            break
    if rng.random() < 1 / 4:
        marks.add(rng.choice(changes))
    return sorted(marks)


def mesmerism_differs(step: Step) -> bool:
    return any(
        p.mesmerized != q.mesmerized for p, q in zip(step.a.players, step.b.players, strict=True)
    )


def compare_answers(twins: Twins, answers_a: list[tuple], answers_b: list[tuple]) -> None:
    assert [a[0] for a in answers_a] == [b[0] for b in answers_b]
    for a, b in zip(answers_a, answers_b, strict=True):
        if a != b:
            raise AssertionError(
                f"seed {twins.seed} ({twins.seats} seats; the Lord at {twins.lord} in A, at "
                f"{twins.vampire} in B): {a[0]} tells the twins apart:\n{_difference(a, b)}"
            )


def _difference(a: tuple, b: tuple) -> str:
    if a[1:4] != b[1:4]:
        return f"A: {a[1:4]}\nB: {b[1:4]}"
    lines_a = a[4].decode(errors="replace").splitlines()
    lines_b = b[4].decode(errors="replace").splitlines()
    diff = difflib.unified_diff(lines_a, lines_b, "A", "B", lineterm="", n=2)
    return "\n".join(list(diff)[:80])
