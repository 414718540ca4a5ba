"""Property-based: thousands of random legal games, with the invariants checked after EVERY action.

A driver plays random moves taken from `pending` (now and then it lets the open window time out,
and now and then it tries a random, probably illegal, move: it must be refused exactly when
`pending` does not offer it). After each step it checks:

- the token rules (R3.1, R7.1): never on oneself, never two of one owner's tokens on one seat,
  only living owners and targets; hands only shrink during Mingling, and are dealt as R1.5, R3.5
  and R9 say;
- at most one player is eliminated per round, Ghosts are the dead in order of death (R2, R5.2);
- every game ends with the right winner (R12) within MAX_ROUNDS rounds, and not before;
- the state stays JSON and round-trips;
- what each seat is shown (`view`, and the events addressed to it) holds nothing it is not entitled
  to: no other player's role except night knowledge, its own examinations and the end-of-game
  roles; no token type during Mingling; no Ghost's dial before the reveal; no tie vote's target
  before it is settled; no placement for a Ghost who has not voted (R1.3, R3.2, R5.5, R7.2, R8.2).
  Secrets are checked by difference too: changing a secret the viewer may not know (a token's
  type, a Ghost's dial, a tie vote's target) must leave the viewer's view unchanged.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Action,
    IllegalAction,
    Options,
    apply,
    pending,
    setup,
    state_from_json,
    timeout,
    to_json,
    view,
)
from games.engine.state import Vote, evolve
from games.engine.view import waiting_for
from tests.conftest import examples
from tests.engine.table import random_args

MAX_ROUNDS = 60
FUZZ_RATE = 0.05

HUNTER, VAMPIRE, LORD = "hunter", "vampire", "vampire_lord"
# R1.2, written out again here rather than read from the engine: (Vampires, Lord knows them?)
DECK = {6: (1, False), 7: (1, True), 8: (2, False), 9: (2, False), 10: (2, True)}
DECK |= {11: (2, True), 12: (2, True)}
DEALT = {"normal": ["stake", "stake", "feast"], "alpha": ["double_stake", "feast", "investigation"]}
TOKENS = ("stake", "feast", "double_stake", "investigation")
ACTIONS = ("place_token", "intervention_vote", "tiebreak_vote", "choose_examiner", "nonsense")
ROLE_WORDS = re.compile(r'"(hunter|vampire|vampire_lord)"')
TOKEN_WORDS = re.compile(r'"(stake|feast|double_stake|investigation)"')
# "tallies": the votes each tied player has, public once Dining revealed the tokens
TIE_KEYS = {"kind", "candidates", "voters", "voted", "decider", "tallies"}


def vampire_side(role):
    return role in (VAMPIRE, LORD)


class Game:
    """One random game. `look` is the share of steps after which one random seat's view is
    checked (and a secret changed behind its back, R3.2/R5.5/R7.2); `deep` checks every seat's
    view whenever the phase changes; `roundtrip` is the share of states sent through JSON (the
    final state always is). `view` costs about 0.7 ms, hence the sampling in the big run."""

    last_wills = False  # the core rules alone; test_properties_last_wills.py subclasses Game

    def __init__(self, players, seed, timeout_rate, *, look=1.0, deep=False, roundtrip=0.2):
        self.n = players
        self.rng = random.Random(seed)
        self.timeout_rate = timeout_rate
        self.look, self.deep, self.roundtrip = look, deep, roundtrip
        self.now = 0.0
        options = Options(expansion=players > 10, last_wills=self.last_wills)
        self.state = setup(options, players, seed, now=self.now)
        self.roles = {p.seat: p.role for p in self.state.players}
        self.steps = 0
        self.deaths = Counter()
        self.alpha_of = {}
        self.examinations = set()  # (round, examiner, target)
        self.checked = Counter()  # which conditional checks had something to check (see CHECKS)
        vampires, lord_knows = DECK[players]
        roles = Counter(self.roles.values())
        assert roles == Counter({HUNTER: players - vampires - 1, VAMPIRE: vampires, LORD: 1})
        # what each seat may know of others' roles: R1.3 night information
        self.allowed = {s: set() for s in self.roles}
        for seat, role in self.roles.items():
            if role == VAMPIRE or (role == LORD and lord_knows):
                self.allowed[seat] = {
                    (o, r) for o, r in self.roles.items() if vampire_side(r) and o != seat
                }
        self.check_state(None, self.state)
        self.check_deal(self.state)
        for seat in [None, *self.roles]:
            self.check_view(self.state, seat)

    # -- driving ---------------------------------------------------------------------------------
    def play(self):
        while self.state.outcome is None:
            self.step()
        self.check_end()

    def step(self):
        old = self.state
        rng = self.rng
        seats = waiting_for(old)
        roll = rng.random()
        action = None
        if not seats or roll < self.timeout_rate:
            assert old.deadline is not None, f"stuck: nobody to wait for in {old.phase}"
            assert timeout(old, old.deadline - 0.5) == (old, []), "a window closed early"
            self.now = old.deadline
            new, events = timeout(old, self.now)
        elif roll < self.timeout_rate + FUZZ_RATE:
            action, legal = self.random_move(old)
            if not legal:
                try:
                    apply(old, action, now=self.now)
                except IllegalAction:
                    self.checked["an illegal move refused"] += 1
                    return
                raise AssertionError(f"accepted a move pending does not offer: {action}")
            new, events = apply(old, action, now=self.now)
        else:
            seat = rng.choice(seats)
            offered = pending(old, seat)
            assert offered, f"waiting for seat {seat}, who has nothing to do"
            chosen = rng.choice(offered)
            action = Action(chosen["action"], seat, random_args(rng, chosen))
            new, events = apply(old, action, now=self.now)  # pending offered it: it is legal
        self.steps += 1
        self.state = new
        self.check_transition(old, new, action, events)

    def random_move(self, state):
        """A random move, and whether `pending` offers it (it is legal exactly then)."""
        rng = self.rng
        seat = rng.randint(0, self.n + 1)
        name = rng.choice(ACTIONS)
        args = {"target": rng.randint(0, self.n + 1)}
        if rng.random() < 0.05:
            args["target"] = str(args["target"])
        if name == "place_token":
            args["token"] = rng.choice((*TOKENS, "dagger"))
        action = Action(name, seat, args)
        if not 1 <= seat <= self.n or isinstance(args["target"], str):
            return action, False
        for offer in pending(state, seat):
            options = offer["options"]
            if (
                offer["action"] == name
                and "count" not in options  # a several-seat choice takes "targets", not "target"
                and args["target"] in options["targets"]
                and ("tokens" not in options or args.get("token") in options["tokens"])
            ):
                return action, True
        return action, False

    # -- invariants --------------------------------------------------------------------------------
    def check_transition(self, old, new, action, events):
        self.check_state(old, new)
        self.learn(old, new)
        if new.round != old.round and new.outcome is None:
            self.check_deal(new)
        if new.outcome is not None or self.rng.random() < self.roundtrip:
            data = json.loads(json.dumps(to_json(new)))
            assert state_from_json(data) == new
        self.check_events(old, new, action, events)
        everyone = [None, *self.roles]
        if self.deep and (new.phase != old.phase or new.round != old.round):
            viewers = everyone
        elif new.outcome is not None or self.rng.random() < self.look:
            viewers = [self.rng.choice(everyone)]
            self.check_secrets(old, new, action)
        else:
            viewers = []
        for seat in viewers:
            self.check_view(new, seat)

    def check_state(self, old, new):
        assert new.round <= MAX_ROUNDS, "the game does not end"
        # R3.1 / R7.1: the token rules
        pairs = [(p.owner, p.target) for p in new.placements]
        assert len(pairs) == len(set(pairs)), "two of one owner's tokens on one seat"
        assert all(o != t for o, t in pairs), "a token on its own owner"
        dead = {p.seat for p in new.players if not p.alive}
        assert set(new.ghosts) == dead and len(new.ghosts) == len(dead)
        if old is None:
            return
        was_dead = {p.seat for p in old.players if not p.alive}
        assert was_dead <= dead, "a Ghost came back to life"
        assert new.ghosts[: len(old.ghosts)] == old.ghosts, "Ghosts out of order of death"
        died = len(dead - was_dead)
        self.deaths[old.round] += died
        assert self.deaths[old.round] <= self.max_deaths(new, old.round), (
            f"two players eliminated in round {old.round}"
        )
        for p in old.players:  # Mesmerism is permanent (R8.1)
            assert new.player(p.seat).mesmerized or not p.mesmerized
        if new.round == old.round and old.phase == "mingling":
            assert new.placements[: len(old.placements)] == old.placements, "a token was moved"
            added = new.placements[len(old.placements) :]
            assert len(added) <= 1
            for p in added:
                assert old.player(p.owner).alive and old.player(p.target).alive
                self.checked["a token placed in Mingling"] += 1
            owners = {p.owner for p in added}
            for i, (was, now) in enumerate(zip(old.hands, new.hands, strict=True)):
                if was == now and i + 1 not in owners:
                    continue
                before, after = Counter(was), Counter(now)
                assert after <= before, "a hand grew during Mingling"
                assert before - after == Counter(p.token for p in added if p.owner == i + 1)
                self.checked["a hand shrank by the token placed"] += 1
        if new.round != old.round:
            self.checked["a new round"] += 1
            assert new.round == old.round + 1
            # the game goes on only while nobody has won (R12)
            assert new.outcome is not None or self.expected_winner(new) is None
        if new.phase == "mingling":
            assert waiting_for(new), "Mingling stays open with nothing left to do (R3.3)"
            assert new.deadline is not None

    def check_deal(self, state):
        """R1.5, R3.5, R9: the hands at the start of a round's Mingling."""
        if state.phase != "mingling" or state.placements:
            return
        living = [s for s in self.roles if state.player(s).alive]
        three = len(living) == 3
        assert state.three_living == three
        if state.alpha is not None:
            assert state.player(state.alpha).alive and not three
        for seat in self.roles:
            hand = list(state.hands[seat - 1])
            if seat not in living:
                assert hand == []
                self.checked["a Ghost dealt nothing"] += 1
            elif three:
                assert hand == self.dealt(state, seat, ["stake", "feast"])
                self.checked["a hand of three living"] += 1
            elif seat == state.alpha:
                assert hand == self.dealt(state, seat, DEALT["alpha"])
                self.checked["the Alpha's hand"] += 1
            else:
                assert hand == self.dealt(state, seat, DEALT["normal"])
                self.checked["a normal hand"] += 1

    def max_deaths(self, state, round_):
        """How many players may die in one round (R2: one; a module may say more)."""
        return 1

    def dealt(self, state, seat, hand):
        """The hand `seat` must be dealt this round (a module may change it)."""
        return hand

    def shown(self, state, seat):
        """The view checked for leaks (a module may check and take out what it may reveal)."""
        return view(state, seat)

    def learn(self, old, new):
        """Who examined whom, from the public Dining record: the examiner may know that role."""
        for state in (old, new):
            if state.outcome is None:
                self.alpha_of.setdefault(state.round, state.alpha)
        for dining in (new.dining, new.last_dining):
            if dining is None:
                continue
            found = []
            if dining.investigated is not None:
                found.append((self.alpha_of[dining.round], dining.investigated))
            if dining.examiner is not None:
                found.append((dining.examiner, dining.examined))
            for examiner, target in found:
                if (dining.round, examiner, target) in self.examinations:
                    continue
                self.examinations.add((dining.round, examiner, target))
                self.allowed[examiner].add((target, self.roles[target]))
                if self.roles[target] == LORD and self.roles[examiner] == HUNTER:
                    assert new.player(examiner).mesmerized, "R8.1: not Mesmerized"
                    self.checked["a Hunter who examined the Lord"] += 1

    def expected_winner(self, state):
        living = [self.roles[p.seat] for p in state.players if p.alive]
        if not any(vampire_side(r) for r in living):
            return "hunters"
        if living.count(HUNTER) <= 1:
            return "vampires"
        return None

    def check_end(self):
        state = self.state
        assert state.outcome.winner == self.expected_winner(state)
        assert state.phase == "finished" and state.deadline is None
        for seat in self.roles:
            assert pending(state, seat) == []
        try:
            apply(state, Action("place_token", 1, {"token": "stake", "target": 2}))
        except IllegalAction as e:
            assert e.code == "game_over"
        else:
            raise AssertionError("a move after the end")
        roles = view(state, None)["roles"]
        assert [(r["seat"], r["role"]) for r in roles] == sorted(self.roles.items())

    def entitled(self, seat, fact):
        if "role" in fact and (fact["seat"], fact["role"]) not in self.allowed[seat]:
            return False
        if fact.get("mesmerized"):
            victim = self.state.player(fact["seat"])
            return victim.mesmerized and (fact["seat"] == seat or vampire_side(self.roles[seat]))
        return True

    def check_view(self, state, seat):
        v = self.shown(state, seat)
        finished = state.outcome is not None
        public = {k: x for k, x in v.items() if k not in ("me", "pending", "roles", "outcome")}
        text = json.dumps(public)
        if not finished:
            assert v["roles"] is None and v["winner"] is None
            assert not ROLE_WORDS.search(text), f"a role leaks to seat {seat}: {text}"
            self.checked["a view before the end"] += 1
        if seat is None:
            assert "me" not in v and v["pending"] == []
        else:
            me = v["me"]
            player = state.player(seat)
            assert me["role"] == player.role and me["mesmerized"] == player.mesmerized
            assert me["tokens"] == list(state.hands[seat - 1])
            mine = [p for p in state.placements if p.owner == seat]
            assert me["placed"] == [{"target": p.target, "token": p.token} for p in mine]
            dial = next((x.target for x in state.intervention if x.voter == seat), None)
            assert me["intervention_vote"] == dial
            for fact in me["knowledge"]:
                assert self.entitled(seat, fact), f"seat {seat} knows {fact}"
                self.checked["a fact a seat knows"] += 1
            assert not ROLE_WORDS.search(json.dumps(v["pending"]))
        if v["tie"] is not None:
            assert set(v["tie"]) == TIE_KEYS
            self.checked["a view of a tie"] += 1
        if state.phase == "mingling":
            last = v["last_dining"]
            assert last is None or last["round"] < state.round
            rest = {k: x for k, x in public.items() if k != "last_dining"}
            assert not TOKEN_WORDS.search(json.dumps(rest)), "a token type leaks in Mingling"
            self.checked["a view in Mingling"] += 1
            if (
                seat in state.ghosts
                and not state.three_living
                and all(x.voter != seat for x in state.intervention)
            ):
                assert all(s["placed_by"] == [] for s in v["seats"]), "R3.2: Ghost sees tokens"
                self.checked["an unvoted Ghost's view in Mingling"] += 1

    def check_events(self, old, new, action, events):
        mingling = old.phase == "mingling" and new.phase == "mingling" and old.round == new.round
        for e in events:
            data = json.dumps(e.data)
            if e.audience is None:
                assert not ROLE_WORDS.search(data), f"a public event tells a role: {e}"
                if mingling:  # (the core game logs nothing public mid-Mingling: a guard only)
                    assert not TOKEN_WORDS.search(data) and "voter" not in data, e
                continue
            assert e.audience, e
            if e.kind == "examined":
                (examiner,) = e.audience
                assert (e.data["seat"], e.data["role"]) in self.allowed[examiner]
                self.checked["an examination's private line"] += 1
            elif e.kind == "mesmerized":
                for s in e.audience:
                    assert self.state.player(s).mesmerized or vampire_side(self.roles[s])
                self.checked["a Mesmerism's private line"] += 1
            elif e.kind in ("token_placed", "intervention_vote", "tie_vote"):
                assert e.audience == (action.seat,), e
                self.checked["a move's private receipt"] += 1
            elif e.kind != "night":
                raise AssertionError(f"an unexpected private event: {e}")

    def check_secrets(self, old, new, action):
        """A secret changed in a copy of the state must not change what others see."""
        if action is None:
            return
        alt = None
        if action.name == "place_token" and new.phase == "mingling" and new.round == old.round:
            last = new.placements[-1]
            other = self.rng.choice([t for t in TOKENS if t != last.token])
            alt = evolve(new, placements=new.placements[:-1] + (evolve(last, token=other),))
            # R3.2: a Ghost who has not voted sees nothing of it, not even who still places
            for g in new.ghosts:
                if not new.three_living and all(x.voter != g for x in new.intervention):
                    assert view(old, g) == view(new, g), f"R3.2: unvoted Ghost {g} sees a placement"
                    self.checked["an unvoted Ghost after a placement"] += 1
        elif (
            action.name == "intervention_vote"
            and new.phase == "mingling"
            and new.round == old.round
        ):
            vote = new.intervention[-1]
            others = [s for s in new.living if s != vote.target]
            if others:
                changed = Vote(vote.voter, self.rng.choice(others))
                alt = evolve(new, intervention=new.intervention[:-1] + (changed,))
        elif (
            action.name == "tiebreak_vote"
            and new.phase == "tiebreak"
            and old.tie is not None
            and new.tie is not None
            and new.tie.kind == old.tie.kind
            and new.tie.decider is None
            and len(new.tie.votes) == len(old.tie.votes) + 1
        ):
            vote = new.tie.votes[-1]
            others = [c for c in new.tie.candidates if c != vote.target]
            changed = Vote(vote.voter, self.rng.choice(others))
            alt = evolve(new, tie=evolve(new.tie, votes=new.tie.votes[:-1] + (changed,)))
        if alt is None:
            return
        viewers = [s for s in [None, *self.roles] if s != action.seat]
        seat = self.rng.choice(viewers)
        assert view(new, seat) == view(alt, seat), f"seat {seat} sees {action}"
        self.checked[f"a changed secret after {action.name}"] += 1


@settings(
    max_examples=examples(suite=200, long=2000),  # whole games; views checked one step in 20
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=6, max_value=12),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    timeout_rate=st.sampled_from([0.0, 0.02, 0.1, 0.3]),
)
def test_properties_random_legal_games_keep_every_invariant(players, seed, timeout_rate):
    Game(players, seed, timeout_rate, look=1 / 20, roundtrip=1 / 80).play()


@settings(
    max_examples=examples(suite=30, long=60),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=6, max_value=12),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    timeout_rate=st.sampled_from([0.0, 0.02, 0.1, 0.3]),
)
def test_properties_no_view_ever_leaks_a_secret(players, seed, timeout_rate):
    """Fewer games, every step looked at, and every seat's view at each change of phase."""
    Game(players, seed, timeout_rate, look=1.0, deep=True, roundtrip=0.2).play()


def test_properties_driver_plays_whole_games_for_every_table_size():
    """The driver itself: it reaches the end, with both winners seen over a few seeds, and every
    conditional check above had something to check (none passes because its case never came)."""
    winners, checked = Counter(), Counter()
    for players in range(6, 13):
        for seed in range(4):
            game = Game(players, seed, 0.05, look=0.1)
            game.play()
            winners[game.state.outcome.winner] += 1
            checked += game.checked
            assert game.steps > 10
    assert set(winners) == {"hunters", "vampires"}
    assert set(CHECKS) - set(checked) == set()


CHECKS = (
    "an illegal move refused",
    "a token placed in Mingling",
    "a hand shrank by the token placed",
    "a new round",
    "a Ghost dealt nothing",
    "a hand of three living",
    "the Alpha's hand",
    "a normal hand",
    "a Hunter who examined the Lord",
    "a view before the end",
    "a fact a seat knows",
    "a view of a tie",
    "a view in Mingling",
    "an unvoted Ghost's view in Mingling",
    "an examination's private line",
    "a Mesmerism's private line",
    "a move's private receipt",
    "an unvoted Ghost after a placement",
    "a changed secret after place_token",
    "a changed secret after intervention_vote",
    "a changed secret after tiebreak_vote",
)
