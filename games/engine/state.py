"""The game state: frozen dataclasses, plain JSON underneath (see serialize.py).

The state is the whole truth of a running game. Every change goes through `apply` or `timeout`
and produces a new state; nothing is ever mutated in place, so a state handed out is safe to keep.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field
from typing import Any

from .events import render
from .vocabulary import Phase, Role, Token

# Module-level aliases of the vocabulary's members, for the hot paths (vocabulary.py).
HUNTER = Role.HUNTER
VAMPIRE = Role.VAMPIRE
LORD = Role.VAMPIRE_LORD
ROLES = tuple(Role)

STAKE = Token.STAKE
FEAST = Token.FEAST
DOUBLE_STAKE = Token.DOUBLE_STAKE
INVESTIGATION = Token.INVESTIGATION
TOKENS = tuple(Token)

ROLE_REVEAL = Phase.ROLE_REVEAL
MINGLING = Phase.MINGLING
TIEBREAK = Phase.TIEBREAK
CHOOSE_EXAMINER = Phase.CHOOSE_EXAMINER
DINING = Phase.DINING
FINISHED = Phase.FINISHED
LAST_WILL = Phase.LAST_WILL


_new = object.__new__
_DICT_SETTERS: dict[type, Any] = {}


def dict_setter(cls: type):
    """What sets the `__dict__` of `cls`'s instances, called directly: `object.__setattr__(obj,
    "__dict__", d)` looks it up by name on every call, and a record is made on every move."""
    setter = _DICT_SETTERS.get(cls)
    if setter is None:
        owner = next(c for c in cls.__mro__ if "__dict__" in vars(c))
        setter = _DICT_SETTERS[cls] = vars(owner)["__dict__"].__set__
    return setter


def evolve(obj, **changes):
    """A copy of a frozen dataclass with some fields changed: `dataclasses.replace` without
    re-running `__init__`, because the engine replaces its state on every move (the hot path)."""
    values = obj.__dict__.copy()
    known = len(values)
    values.update(changes)
    assert len(values) == known, f"unknown fields {set(values) - set(obj.__dict__)}"
    if "players" in changes:
        values.pop("living", None)  # State.living, a memo
    cls = type(obj)
    new = _new(cls)
    (_DICT_SETTERS.get(cls) or dict_setter(cls))(new, values)
    return new


def record(cls):
    """`@dataclass(frozen=True)` with an `__init__` that gives the instance its dict in one step.

    The engine builds several of these on every move, and the generated frozen `__init__` pays an
    `object.__setattr__` per field: a tenth of a move's cost before this. The dict is a plain one
    built from a literal, not `self.__dict__` filled in: that one shares its keys with the class
    (a split table), on which Python 3.11 cannot specialise attribute reads, and every read of a
    field went the slow way (about 2.5 times as long).
    """
    cls = dataclass(frozen=True)(cls)
    params, items, namespace = [], [], {"_unset": _UNSET, "_set_dict": dict_setter(cls)}
    for f in cls.__dataclass_fields__.values():
        if f.default_factory is not MISSING:
            namespace[f"_f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_unset")
            items.append(f"{f.name!r}: _f_{f.name}() if {f.name} is _unset else {f.name}")
        elif f.default is not MISSING:
            namespace[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
            items.append(f"{f.name!r}: {f.name}")
        else:
            params.append(f.name)
            items.append(f"{f.name!r}: {f.name}")
    fields = ", ".join(items)
    exec(
        f"def __init__(self, {', '.join(params)}):\n    _set_dict(self, {{{fields}}})",
        namespace,
    )
    namespace["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = namespace["__init__"]
    return cls


_UNSET = object()


class memo:
    """`functools.cached_property` without its lock (Python 3.11 takes one on every first read,
    and every new state reads `living` afresh): computed once, then a plain instance attribute."""

    def __init__(self, func):
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


@record
class Timers:
    """Seconds each timed window lasts (R3.3, R5.5, R10.3; "choice" = mandatory choices;
    "reveal" = the role reveal before round 1, 0 for none: round 1 starts at once)."""

    mingling: int = 180
    relic: int = 30
    tiebreak: int = 60
    choice: int = 60
    reveal: int = 0


@record
class Options:
    relics: bool = False
    last_wills: bool = True
    expansion: bool = False
    timers: Timers = Timers()
    relic_deck: tuple[str, ...] = ()  # staff: the relic draw order (the rest follows, shuffled)


@record
class Knowledge:
    """Something one seat has learned: a role it examined, or who was Mesmerized."""

    seat: int
    source: str
    round: int
    role: str | None = None
    mesmerized: bool | None = None


@record
class Player:
    seat: int
    role: str
    alive: bool = True
    mesmerized: bool = False
    knowledge: tuple[Knowledge, ...] = ()


@record
class Placement:
    owner: int
    target: int
    token: str


@record
class Unplaced:
    """A token still in hand when Mingling timed out: 1 Stake vote against its owner (R3.4)."""

    owner: int
    token: str


@record
class Vote:
    voter: int
    target: int


@record
class Tie:
    """An open tie procedure (R5, R7.4): who may vote among which candidates."""

    kind: str  # "elimination" | "election" | "examination" | "intervention"
    candidates: tuple[int, ...]
    voters: tuple[int, ...]
    by_ghosts: bool
    votes: tuple[Vote, ...] = ()
    decider: int | None = None  # set when one player alone settles what is still tied
    decided_by: str = "vote"  # how the result will be recorded: "vote", "latest_ghost", a relic


@record
class TieResult:
    kind: str
    candidates: tuple[int, ...]
    votes: tuple[Vote, ...]
    result: int | None
    decided_by: str  # "vote" | "latest_ghost" | "random" | "no_result" | a module's name


@record
class Dining:
    """What one round's Dining has revealed so far; public once revealed (R4)."""

    round: int
    tokens: tuple[Placement, ...] = ()
    unplaced: tuple[Unplaced, ...] = ()
    intervention: tuple[Vote, ...] = ()
    protected: int | None = None
    investigated: int | None = None
    examined: int | None = None  # round 1: the most-staked player (R6.1)
    examiner: int | None = None
    eliminated: int | None = None
    alpha_elected: int | None = None
    ties: tuple[TieResult, ...] = ()
    complete: bool = False
    deaths: tuple[int, ...] = ()  # everyone who died since the reveal, in order (R13 amended)
    settled: int = 0  # how many of `deaths` have had their aftermath (Last Will, Journal)


@record
class Outcome:
    winner: str  # "hunters" | "vampires"
    reason: str


@record
class State:
    options: Options
    seed: int
    players: tuple[Player, ...]
    lord_knows_vampires: bool
    round: int = 1
    phase: str = MINGLING
    step: str = "mingling"  # where the round's flow resumes (flow.py)
    deadline: float | None = None
    three_living: bool = False  # R9: this round started with exactly 3 living players
    round_ghosts: int = 0  # how many Ghosts there were when this round's Mingling opened (R7.2)
    alpha: int | None = None  # this round's Alpha Hunter
    ghosts: tuple[int, ...] = ()  # in order of elimination, most recent last
    hands: tuple[tuple[str, ...], ...] = ()  # tokens still in hand, index seat - 1
    placements: tuple[Placement, ...] = ()
    intervention: tuple[Vote, ...] = ()
    dining: Dining | None = None  # this round's Dining, once revealed
    last_dining: Dining | None = None  # the previous complete Dining
    tie: Tie | None = None
    outcome: Outcome | None = None
    rng_draws: int = 0
    ready: tuple[int, ...] = ()  # the role reveal: the seats that tapped Ready, in order
    ext: dict[str, Any] = field(default_factory=dict)  # module state, JSON; replaced, never mutated

    def player(self, seat: int) -> Player:
        return self.players[seat - 1]

    @property
    def last_protected(self) -> int | None:
        """R7.3: the player Protected last round may not be Protected again this round."""
        return self.last_dining.protected if self.last_dining else None

    @memo
    def living(self) -> tuple[int, ...]:
        return tuple([p.seat for p in self.players if p.alive])


@record
class Action:
    """One player's move: `name` as in docs/api.md, its arguments as the request body gave them."""

    name: str
    seat: int
    args: dict[str, Any] = field(default_factory=dict)


@record
class Event:
    """A log line. `audience` None means public; otherwise only those seats may see it.

    A line made by `from_template` writes its `text` when first read, from its `data`: neither is
    changed after it is made, and a line is never `evolve`d (its `text` may not be written yet)."""

    kind: str
    text: str
    round: int
    data: dict[str, Any] = field(default_factory=dict)
    audience: tuple[int, ...] | None = None
    # `text` with its seats as placeholders into `data` (engine/events.py); "" when it names none.
    template: str = ""

    @classmethod
    def from_template(cls, kind, template, round, data, audience=None) -> Event:
        """A line whose `text` is written from `template` when first read: a driver of the engine
        alone (the benchmark, the simulator) reads few lines, and writing them all on every move
        cost it about a twentieth of a game. The site reads each as it saves the move."""
        event = _new(cls)
        _set_event_dict(
            event,
            {
                "kind": kind,
                "round": round,
                "data": data,
                "audience": audience,
                "template": template,
            },
        )
        return event

    def __getattr__(self, name: str):
        """Only for the `text` of a line made by `from_template`, not yet read."""
        if name != "text":
            raise AttributeError(name)
        text = self.__dict__["text"] = render(self.template, self.data)
        return text


_set_event_dict = dict_setter(Event)
