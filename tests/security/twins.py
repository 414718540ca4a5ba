"""Twin games for the differential no-leak tests: one game played twice, A and B,
with its secret parts swapped and every step the same move (or the same timeout) in both.

The secrets swapped, each outcome-neutral (R12 counts the Lord and a Vampire alike):
- the Vampire Lord and a fellow Vampire trade seats: seat `lord` holds the Lord in A and a
  Vampire in B, seat `vampire` the other way round;
- so every examination of either seat hits the Lord in one game and a Vampire in the other
  (Mesmerism, R8.1, differs): the driver steers round-1 examinations, Investigations, Parting
  Glances and Van Helsing's Journal onto them;
- with relics, the card the last giver puts back in the box (R10.2): the staff-fixed deck
  (`relic_deck`) differs in that one card.

Two Hunters observe (`hunter`, and `ghost`, whom the driver stakes until they die) and are kept
out of the secret: they never examine a swapped seat, never give the last relic (round 1's
Feasts make a seat Alpha whose left neighbour is not one of them), and Blood of the One never
names a player whose Mesmerism differs (its verdict is public by design). A Public Confession
by a swapped seat tells its role by design (R13): from there on, as at the end of the game
(R1.4), the twins are no longer compared (`comparable` is False).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from games.bots.strategies.randomly import random_choice
from games.domain.options import engine_options, normalized
from games.engine import Action, IllegalAction, apply, opening_events, pending, setup, timeout
from games.engine import view as engine_view
from games.engine.state import HUNTER, LORD, MINGLING, VAMPIRE, State
from games.engine.table import role_deck
from games.engine.view import waiting_for
from relics.rules import CARDS, kind

T0 = 1_800_000_000.0  # the twins' clock starts here (a frozen clock, the same for both)
MAX_STEPS = 4000
TIMEOUT_RATE = 0.03  # per step: a Mingling of ~30 placements still times out now and then


@dataclass
class Step:
    """One step of both twins: the move (or None for a timeout), the time it ran at, the new
    states and the events each produced."""

    action: Action | None
    now: float
    before_a: State
    before_b: State
    a: State
    b: State
    events_a: list = field(default_factory=list)
    events_b: list = field(default_factory=list)


class Divergence(AssertionError):
    """The same move was legal in one twin only: the engine let a secret change the game."""


class Twins:
    def __init__(self, seed: int, seats: int, *, relics: bool, last_wills: bool, **options):
        self.rng = random.Random(seed)
        self.seed = seed
        self.seats = seats
        deck = role_deck(seats)
        self.rng.shuffle(deck)
        roles = dict(enumerate(deck, start=1))
        self.lord = next(s for s, r in roles.items() if r == LORD)
        self.vampire = self.rng.choice([s for s, r in roles.items() if r == VAMPIRE])
        self.hunter, self.ghost = self.rng.sample([s for s, r in roles.items() if r == HUNTER], 2)
        self.observers = (self.hunter, self.ghost)
        self.swapped = (self.lord, self.vampire)
        swapped = {**roles, self.lord: VAMPIRE, self.vampire: LORD}
        common = {
            "relics": relics,
            "last_wills": last_wills,
            "expansion": seats > 10,
            "seed": seed,
            **options,
        }
        self.options_a = {**common, "roles": {str(s): r for s, r in roles.items()}}
        self.options_b = {**common, "roles": {str(s): r for s, r in swapped.items()}}
        self.first_alpha = None
        if relics:
            self._swap_the_box_card()
        self.now = T0
        self.a = self.initial_a = self._setup(self.options_a)
        self.b = self.initial_b = self._setup(self.options_b)
        self.opening_a, self.opening_b = opening_events(self.a), opening_events(self.b)
        self.comparable = True
        self.stopped_because = ""
        self.steps = 0

    # --- setup --------------------------------------------------------------------------------

    def _setup(self, options: dict) -> State:
        normal = normalized(options)
        roles = {int(s): r for s, r in normal["roles"].items()}
        return setup(engine_options(normal), self.seats, self.seed, roles=roles, now=T0)

    def _swap_the_box_card(self) -> None:
        """The last giver draws the deck's cards n and n+1 and keeps the first (the driver gives
        it), so the box gets card n+1: c2 in A, c3 in B (c3 last in A's deck, c2 last in B's).
        A plain card after them stays the lone Bangle's replacement in both."""
        n = self.seats
        cards = list(CARDS)
        self.rng.shuffle(cards)
        plain = [c for c in cards if kind(c) != "bangle_of_oaths"]
        c2, c3, after = plain[:3]
        rest = [c for c in cards if c not in (c2, c3, after)]
        order_a = rest[:n] + [c2, after] + rest[n:] + [c3]
        order_b = rest[:n] + [c3, after] + rest[n:] + [c2]
        self.options_a["relic_deck"] = [kind(c) for c in order_a]
        self.options_b["relic_deck"] = [kind(c) for c in order_b]
        self.kept_by_last_giver = kind(rest[n - 1])
        # Round 1's Alpha gives first; the seat before them gives last (R10.2).
        choices = [s for s in range(1, n + 1) if (s - 2) % n + 1 not in self.observers]
        self.first_alpha = self.rng.choice(choices)

    # --- playing --------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.a.outcome is not None or self.steps >= MAX_STEPS

    def step(self) -> Step:
        """Both twins move on by the same move, or the same timeout."""
        self.steps += 1
        move = self._move()
        if move is None:  # a timeout, at the open window's deadline
            self.now = max(self.now, self.a.deadline)
            a, events_a = timeout(self.a, self.now)
            b, events_b = timeout(self.b, self.now)
        else:
            self.now += 1.0
            a, events_a = self._apply(self.a, move, "A")
            b, events_b = self._apply(self.b, move, "B")
        step = Step(move, self.now, self.a, self.b, a, b, events_a, events_b)
        self._check_still_comparable(step)
        self.a, self.b = a, b
        return step

    def _apply(self, state: State, move: Action, which: str):
        try:
            return apply(state, move, self.now)
        except IllegalAction as e:
            raise Divergence(f"seed {self.seed}: {move} refused in {which}: {e}") from None

    def _check_still_comparable(self, step: Step) -> None:
        if self.reveals_a_swapped_role(step.events_a):
            self._stop("a swapped seat's Public Confession (R13)")
        if step.a.outcome is not None:
            self._stop("the game is over (R1.4)")

    def reveals_a_swapped_role(self, events: list) -> bool:
        return any(
            e.kind == "last_will"
            and e.data.get("card") == "public_confession"
            and e.data["seat"] in self.swapped
            for e in events
        )

    def _stop(self, why: str) -> None:
        if self.comparable:
            self.comparable, self.stopped_because = False, why

    def _move(self) -> Action | None:
        """A move, or None: let the open window time out."""
        state = self.a
        seats = waiting_for(state)
        may_time_out = self._may_time_out(state)
        late = self.now + 1 >= state.deadline if state.deadline is not None else False
        if may_time_out and (late or self.rng.random() < TIMEOUT_RATE):
            return None
        for seat in self.rng.sample(seats, len(seats)):
            move = self._move_of(seat)
            if move is not None:
                return move
        if state.deadline is None:
            raise AssertionError(f"seed {self.seed}: nobody can move and no timer runs")
        if not may_time_out:  # the timer's random choice may now involve an observer
            self._stop(f"a {state.phase} window the driver could not close itself")
        return None

    def _may_time_out(self, state: State) -> bool:
        """Timeouts that would choose at random where the driver must choose itself."""
        if state.phase == "give_relic":  # the last giver keeps the planned card
            return False
        if state.phase == "choose_examiner":
            return state.dining.examined not in self.swapped
        if state.phase == "last_will":
            draw = _open_will(state)
            return not (draw["seat"] in self.observers and draw["card"] == "parting_glance")
        if state.phase == MINGLING and state.round == 1 and self.first_alpha is not None:
            return False  # every Feast of round 1 goes to the planned Alpha
        return True

    def _move_of(self, seat: int) -> Action | None:
        offered = pending(self.a, seat)
        view = engine_view(self.a, seat)
        for _ in range(4):
            choice = random_choice(self.rng, offered, view)
            if choice is None:
                return None
            name, args = choice
            args = self._steer(seat, name, dict(args), offered)
            if args is not None and self._keeps_observers_out(Action(name, seat, args)):
                return Action(name, seat, args)
        return None

    def _keeps_observers_out(self, move: Action) -> bool:
        """Whether `move` leaves the observers out of the secret however it was reached (a
        relic can move an observer's Investigation token onto a swapped seat): no observer's
        Investigation lies on a swapped seat, and no observer examines one now."""
        try:
            new, events = apply(self.a, move, self.now + 1.0)
        except IllegalAction:
            return False  # a move the engine refuses (an option superset): try another
        if any(
            p.owner in self.observers and p.token == "investigation" and p.target in self.swapped
            for p in new.placements
        ):
            return False
        return not any(
            e.kind == "examined"
            and set(e.audience) & set(self.observers)
            and e.data["seat"] in self.swapped
            for e in events
        )

    def _steer(self, seat: int, name: str, args: dict, offered: list) -> dict | None:
        """Bend a random legal move towards the secrets (or away from an observer), or drop it
        (None)."""
        a, b, rng = self.a, self.b, self.rng
        observer = seat in self.observers
        if name == "place_token":
            options = next(p["options"] for p in offered if p["action"] == name)
            return self._steer_token(seat, args, options)
        if name == "choose_examiner" and a.dining.examined in self.swapped:
            targets = pending(a, seat)[0]["options"]["targets"]
            allowed = [t for t in targets if t not in self.observers]
            return {"target": rng.choice(allowed)} if allowed else None
        if name == "resolve_choice" and a.phase == "last_will":
            draw = _open_will(a)
            if draw["card"] == "parting_glance":
                options = draw["options"]
                if observer:
                    options = [t for t in options if t not in self.swapped] or options
                    if set(options) <= set(self.swapped):
                        self._stop("an observer's only Parting Glance is a swapped seat")
                else:
                    options = [t for t in options if t in self.swapped] or options
                return {**args, "targets": [rng.choice(options)]}
            return args
        if name == "resolve_choice" and a.phase == "relic_choice":
            choice = a.ext["relics"]["choice"]
            if choice["relic"] == "van_helsings_journal" and observer:
                if set(choice["targets"]) & set(self.swapped):
                    return None  # an observer never reads a swapped seat (they pass instead)
            return args
        if name == "use_relic" and args.get("relic") == "blood_of_the_one":
            target = args["targets"][0]
            if a.player(target).mesmerized != b.player(target).mesmerized:
                return None  # its verdict is public: it would tell the table the secret
            return args if rng.random() < 0.3 else None  # now and then, not at every move
        if name == "give_relic" and a.ext["relics"]["giving"]["drawn"][1:]:
            return {**args, "card": self.kept_by_last_giver}  # the other goes to the box
        return args

    def _steer_token(self, seat: int, args: dict, options: dict) -> dict:
        a, rng = self.a, self.rng
        token, targets = args["token"], options["targets"]

        def towards(wanted) -> dict:
            good = [t for t in targets if t in wanted]
            return {"token": token, "target": rng.choice(good)} if good else args

        if a.round == 1 and self.first_alpha is not None and "feast" in options["tokens"]:
            if seat != self.first_alpha and self.first_alpha in targets:
                return {"token": "feast", "target": self.first_alpha}
        if token == "investigation":
            if seat in self.observers:
                return towards([t for t in targets if t not in self.swapped])
            return towards(self.swapped) if rng.random() < 0.7 else args
        if token in ("stake", "double_stake") and rng.random() < 0.5:
            if a.round == 1:
                return towards(self.swapped)  # the most-staked chooses who examines them
            if a.player(self.ghost).alive:
                return towards([self.ghost])
        return args


def _open_will(state: State) -> dict:
    return next(d for d in state.ext["last_wills"]["draws"] if not d["resolved"])


def visible(events: list, seat: int | None) -> list[tuple]:
    """The events `seat` (None: the public) may see, as the API would show them (no numbers)."""
    return [
        (e.kind, e.text, e.round, e.data)
        for e in events
        if e.audience is None or (seat is not None and seat in e.audience)
    ]


SEATS_NAMED = re.compile(r"\b[Ss]eats? ((?:\d+(?:, | and )?)+)")


def seats_named(text: str) -> set[int]:
    """Every seat number a message names ("seat 4", "seats 2, 3 and 5")."""
    return {int(n) for group in SEATS_NAMED.findall(text) for n in re.findall(r"\d+", group)}
