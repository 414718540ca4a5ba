"""The engine-level half of the differential no-leak test: what each observer of a
pair of twin games (tests/security/twins.py) is shown must be the same in both.

At every step, for the Hunter, the Ghost and the public (`seat` None, which is what a spectator,
a logged-out browser, the room's display and an organiser are built from):
- `engine.view`, whole;
- the events the viewer may see, in order (the selectors number them by their place in this
  list, so equal lists mean equal numbers, ids and cursors);
- for the two seated observers, the answer to moves they may not make (or may): the refusal's
  code and words, or what a legal one shows them. And a refusal names no seat whose turn the
  observer's own view hides (`waiting_for`), which is how a secret choice's holder leaked.
"""

from __future__ import annotations

from collections import Counter
from pprint import pformat

from games.engine import Action, IllegalAction, apply, view
from games.engine.view import waiting_for
from tests.security.twins import Step, Twins, seats_named, visible

VIEWERS_NAMES = {None: "the public"}


def compare_opening(twins: Twins) -> None:
    for seat in (twins.hunter, twins.ghost, None):
        _same(
            twins,
            "opening events",
            seat,
            visible(twins.opening_a, seat),
            visible(twins.opening_b, seat),
        )
        _same(twins, "opening view", seat, view(twins.a, seat), view(twins.b, seat))


def compare_step(twins: Twins, step: Step, seen: Counter) -> None:
    viewers = (twins.hunter, twins.ghost, None)
    # all of A's views, then all of B's: the engine keeps the last Dining it serialized
    views_a = {seat: view(step.a, seat) for seat in viewers}
    views_b = {seat: view(step.b, seat) for seat in viewers}
    for seat in viewers:
        _same(twins, "view", seat, views_a[seat], views_b[seat])
        _same(twins, "events", seat, visible(step.events_a, seat), visible(step.events_b, seat))
    for seat in twins.observers:
        hidden = set(waiting_for(step.a)) - set(views_a[seat]["waiting_for"])
        # an observer's legal move must not examine a swapped seat, nor ask Blood of the One
        # (a public verdict) about a Mesmerism that differs: aim at another seat
        target = min(
            s
            for s in range(1, twins.seats + 1)
            if s not in (*twins.swapped, seat)
            and step.a.player(s).mesmerized == step.b.player(s).mesmerized
        )
        for probe in probes(step.a, seat, target):
            answer_a = _answer(twins, step.a, probe, step.now)
            answer_b = _answer(twins, step.b, probe, step.now)
            _same(twins, f"answer to {probe}", seat, answer_a, answer_b)
            seen[answer_a[0]] += 1
            if answer_a[0] == "refused":
                named = seats_named(answer_a[2]) & hidden
                assert not named, (
                    f"seed {twins.seed}: seat {seat} is told about seat(s) {named}, whose turn "
                    f"its view hides: {answer_a}"
                )


def probes(state, seat: int, target: int) -> list[Action]:
    """Moves an observer might try at any moment (most of them refused)."""
    window = (state.ext.get("relics") or {}).get("window")
    relic = window["as"] if window and state.phase == "relic_window" else "blood_of_the_one"
    return [
        Action("resolve_choice", seat, {"targets": [target]}),
        Action("pass", seat, {}),
        Action("give_relic", seat, {"target": target}),
        Action("use_relic", seat, {"relic": relic, "targets": [target]}),
        Action("use_relic", seat, {"relic": "scales_of_justice", "targets": [target]}),
        Action("choose_examiner", seat, {"target": target}),
        Action("tiebreak_vote", seat, {"target": target}),
        Action("intervention_vote", seat, {"target": target}),
    ]


def _answer(twins: Twins, state, probe: Action, now: float) -> tuple:
    try:
        new, events = apply(state, probe, now)
    except IllegalAction as e:
        return ("refused", e.code, e.detail)
    if new.outcome is not None or twins.reveals_a_swapped_role(events):
        return ("done", "and every role is told by design")
    return ("done", visible(events, probe.seat), view(new, probe.seat))


def _same(twins: Twins, what: str, seat, a, b) -> None:
    if a != b:
        who = VIEWERS_NAMES.get(seat, f"seat {seat}")
        raise AssertionError(
            f"seed {twins.seed} ({twins.seats} seats, step {twins.steps}): {who} can tell the "
            f"twins apart by the {what}.\nA: {pformat(a)[:3000]}\nB: {pformat(b)[:3000]}"
        )
