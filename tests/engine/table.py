"""A small driver for engine tests: a table with a fixed deal, moves by seat, clocks by hand.

    t = Table("LVHHHH")                  # seat 1 the Vampire Lord, seat 2 a Vampire, 3–6 Hunters
    t.mingle({1: "S3 S4 F5", 2: "S3 S5 F4", ...}, ghosts={7: 3})  # then Mingling ends
    t.view(3)["last_dining"]["eliminated"]

Tokens in `mingle`: S = stake, F = feast, D = double_stake, I = investigation. A seat left out (or
a token left out) stays unplaced; `mingle` then lets the timer run out, as R3.4 describes.
"""

from __future__ import annotations

import pytest

from games.engine import Action, IllegalAction, Options, apply, opening_events, setup, timeout, view
from games.engine.state import HUNTER, LORD, VAMPIRE, Timers
from tests.event_schemas import check

LETTERS = {"H": HUNTER, "V": VAMPIRE, "L": LORD}
TOKENS = {"S": "stake", "F": "feast", "D": "double_stake", "I": "investigation"}


def random_args(rng, entry: dict) -> dict:
    """Random legal arguments for one `pending` entry (its options name the legal values)."""
    options = entry["options"]
    if "count" in options:  # a choice of several seats at once (resolve_choice)
        return {
            "choice": options["choice"],
            "targets": rng.sample(options["targets"], options["count"]),
        }
    args = {"target": rng.choice(options["targets"])}
    if "tokens" in options:
        args["token"] = rng.choice(options["tokens"])
    return args


class Table:
    def __init__(self, roles: str, seed: int = 1, **options):
        deal = {i + 1: LETTERS[c] for i, c in enumerate(roles)}
        options.setdefault("expansion", len(roles) > 10)
        options.setdefault("last_wills", False)  # the core rules alone; Last Will tests turn it on
        timers = Timers(**options.pop("timers", {}))
        self.now = 1000.0
        self.state = setup(
            Options(timers=timers, **options), len(roles), seed, roles=deal, now=self.now
        )
        self.events = list(opening_events(self.state))
        check(self.events)  # every event matches the data schema of its kind

    # moves -------------------------------------------------------------------------------
    def do(self, seat: int, name: str, **args) -> Table:
        self.state, events = apply(self.state, Action(name, seat, args), now=self.now)
        check(events)
        self.events.extend(events)
        return self

    def illegal(self, code: str, seat: int, name: str, **args) -> IllegalAction:
        """Assert the move is refused with `code` and changes nothing."""
        before = self.state
        with pytest.raises(IllegalAction) as caught:
            apply(self.state, Action(name, seat, args), now=self.now)
        assert caught.value.code == code, caught.value
        assert self.state == before
        return caught.value

    def place(self, seat: int, plan: str) -> Table:
        for word in plan.split():
            self.do(seat, "place_token", token=TOKENS[word[0]], target=int(word[1:]))
        return self

    def mingle(self, plan: dict[int, str], ghosts: dict[int, int] | None = None) -> Table:
        """Cast the Ghosts' dials, place the tokens; if Mingling is still open, let time run out."""
        round_ = self.state.round
        for ghost, target in (ghosts or {}).items():
            self.do(ghost, "intervention_vote", target=target)
        for seat, words in plan.items():
            self.place(seat, words)
        if self.state.round == round_ and self.state.phase == "mingling":
            self.expire()
        return self

    def vote(self, votes: dict[int, int]) -> Table:
        for seat, target in votes.items():
            self.do(seat, "tiebreak_vote", target=target)
        return self

    def expire(self) -> Table:
        """Let the open window's timer run out."""
        self.now = self.state.deadline
        self.state, events = timeout(self.state, self.now)
        check(events)
        self.events.extend(events)
        return self

    # reading -----------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        return view(self.state, seat)

    @property
    def dining(self) -> dict:
        """The latest revealed Dining, as everyone sees it."""
        return view(self.state, None)["last_dining"]

    def alive(self, seat: int) -> bool:
        return self.state.player(seat).alive

    def seen_by(self, seat: int) -> list:
        """The event log as `seat` may see it."""
        return [e for e in self.events if e.audience is None or seat in e.audience]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]
