"""Every line the game writes, as a page shows it (games.presenters.wording.for_people) to the
seat it names, to another seat and to a shared screen, and every line the room screen's narrator
says (games.presenters.narration): a person by name, never "Seat N"; the reader as "you"; no
rule ID; no name in quotes; no doubled word (docs/voice.md).

The lines come from random whole engine games at 6 to 12 seats with Sacred Relics and Last Wills
on, every kind of line they wrote (fast: no database). tests/web/test_words.py reads the pages.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

from games.bots.moves import random_move
from games.engine import Options, apply, pending, setup, timeout, view
from games.engine.events import named
from games.engine.last_wills import result_lines
from games.engine.view import waiting_for
from games.presenters import narration
from games.presenters.wording import for_people
from tests.conftest import examples
from tests.words import DOUBLED, RULE_ID, SEAT_NUMBER

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lou"]
QUOTED = re.compile(r"[\"“”](?:" + "|".join(NAMES) + r")[\"“”]")
GAMES = [(seats, seed) for seed in range(examples(4, 16)) for seats in (6, 8, 10, 12)]


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", "", str(html)).replace("&#x27;", "'")


def faults(said: str) -> list[str]:
    found = [f"seat number in {said!r}" for _ in SEAT_NUMBER.finditer(said)]
    found += [f"rule ID in {said!r}" for _ in RULE_ID.finditer(said)]
    found += [f"doubled word in {said!r}" for _ in DOUBLED.finditer(said)]
    found += [f"quoted name in {said!r}" for _ in QUOTED.finditer(said)]
    return found


def play(seats: int, seed: int):
    """A random whole game: every event it wrote, and the public view after each step."""
    rng = random.Random(seed)
    options = Options(relics=True, last_wills=True, expansion=seats > 10)
    state = setup(options, seats, seed, now=0.0)
    for _ in range(3000):
        if state.outcome is not None:
            return
        waiting = waiting_for(state)
        move = None
        if waiting and rng.random() > 0.1:  # now and then a window runs out instead
            seat = rng.choice(waiting)
            move = random_move(rng, seat, pending(state, seat))
        if move is None:
            state, events = timeout(state, state.deadline or 0.0)
        else:
            state, events = apply(state, move)
        yield state, events
    raise AssertionError("the game did not end")


def test_every_line_names_people_and_speaks_to_its_reader_in_random_relic_games():
    found: dict[str, str] = {}
    kinds: dict[str, int] = defaultdict(int)
    for seats, seed in GAMES:
        names = dict(enumerate(NAMES[:seats], start=1))
        for state, events in play(seats, seed):
            for event in events:
                if not event.template:
                    continue
                kinds[event.kind] += 1
                about = named(event.template, event.data)
                readers = {None, *about, next((s for s in names if s not in about), None)}
                if event.audience is not None:  # a private line: only its audience reads it
                    readers = {r for r in readers if r in event.audience}
                for reader in readers:
                    said = text_of(for_people("", names, event.data, event.template, reader))
                    problems = faults(said)
                    if reader in about and len(about) == 1 and names[reader] in said:
                        problems.append(f"the reader named, not 'you': {said!r}")
                    if reader in about and not re.search(r"\b[Yy]ou", said):
                        problems.append(f"no 'you' for the reader: {said!r}")
                    for problem in problems:
                        found.setdefault(f"{event.kind}: {problem}", f"{seats} seats, seed {seed}")
            public = view(state, None)
            for seat in public["seats"]:
                seat["name"] = names[seat["seat"]]
            public["last_will_lines"] = result_lines(state)
            public["status"] = "running" if state.outcome is None else "finished"  # as stored
            for line in narration.narration(public)["lines"]:
                for problem in faults(line["text"]):
                    found.setdefault(f"narrator: {problem}", f"{seats} seats, seed {seed}")
    assert len(kinds) >= 20, sorted(kinds)  # the random games reached most kinds of line
    assert not found, "\n".join(f"{where}: {what}" for what, where in found.items())
