"""Hook points where optional modules (Sacred Relics, Last Wills) plug into the core rules.

A module subclasses `Module`, overrides only the hooks it needs, and is registered once with
`register`. The core asks `active(state)` for the modules a game has switched on and calls them at
fixed points of the round. A module keeps its own data in `state.ext[module.name]` (JSON), and owns
any phase it opens (its actions, pending list, timeout and view fragment).

Modules never call each other by name: what one asks of another is a declared hook here (every
module may answer it) or a `Protocol` (`RelicKeeper`: what the Last Wills ask of the relics), found
with `provider`. A game whose options ask for a module that is not registered is refused at
`setup` (`ModuleMissing`), never played without it.

Step hooks must be re-entrant: the core calls `at_step` again when a module's window closes, and a
module that has already done its work for this step must return `None` at once.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .state import Action, Event, State

StepResult = tuple["State", list["Event"], bool]  # (state, events, paused: waiting for input)

# Flow steps at which modules are called, in round order (flow.py).
STEPS = (
    "round_start",
    "pre_mingling",
    "post_mingling",
    "after_reveal",
    "after_intervention",  # Protection settled (R7.2), nothing counted yet
    "before_tie",  # a tie for the most Stakes or Feasts, before its vote opens (`state.tie`)
    "after_elimination",
    "after_death",  # each death in Dining in turn (`dining.dying(state)`), R13 amended
    "round_end",
)


class Module:
    name = ""
    action_names: frozenset[str] = frozenset()
    at_steps: frozenset[str] | None = None  # the STEPS whose `at_step` does anything; None: all
    # The phases in which `pending` and `waiting` may name anyone; None: any. The core asks both
    # on every move (`using_in`), so a module whose window is one phase of its own says so.
    waits_in: frozenset[str] | None = None

    def enabled(self, state: State) -> bool:
        """Whether the game uses this module; decided by `state.options` alone (cached)."""
        return False

    def hand(self, state: State, seat: int, tokens: tuple[str, ...]) -> tuple[str, ...]:
        """The tokens `seat` holds at the start of the round (Broken Stake, Spilled Wine)."""
        return tokens

    def may_stack(self, state: State, owner: int, token: str) -> bool:
        """Whether `owner` may put this token on a seat that already has one of theirs (Dagger)."""
        return False

    def adjust_tally(self, state: State, kind: str, tally: dict[int, int]) -> dict[int, int]:
        """Change the Dining vote counts; kind is "stake" or "feast" (automatic votes, Effigy)."""
        return tally

    def blocks_examination(self, state: State, examiner: int, target: int) -> bool:
        """True when `target` cannot be examined (Effigy of Innocence, Key of Quick Passage)."""
        return False

    def resists_mesmerism(self, state: State, seat: int) -> bool:
        """True when `seat` cannot be Mesmerized (Crown of Solomon)."""
        return False

    def vote_weight(self, state: State, voter: int) -> int:
        """How many votes a Ghost's dial is worth in intervention and ties (Restless Spirit)."""
        return 1

    def optional_intervention_voters(self, state: State) -> tuple[int, ...]:
        """Living players who may also vote in Ghostly Intervention, never holding it open."""
        return ()

    def decide_tie(self, state: State, kind: str, tied: tuple[int, ...]) -> int | None:
        """Who settles a tie instead of the Ghosts (Scales of Justice, Seer's Orb); None: nobody."""
        return None

    def owns(self, state: State, action: Action) -> bool:
        """Whether this module takes `action` now (two modules may share a name: resolve_choice)."""
        return action.name in self.action_names

    def ignores_tokens(self, state: State, seat: int) -> bool:
        """True when every token on `seat` is ignored this round (Key of Quick Passage)."""
        return False

    def on_eliminated(self, state: State, seat: int, cause: str, events: list) -> State:
        """React at once to a death (Bangle of Oaths, Cross of Saint John); `cause` is
        `dining.BY_DINING` or the id of the card that killed."""
        return state

    def on_killed_before_dining(self, state: State, seat: int) -> State:
        """`seat` was killed by a card before this round's Dining (Blood of the One): what a death
        in Dining brings comes in Dining, once Protection is settled (their Last Will, R11 and R13
        amended)."""
        return state

    def forget_the_dead(self, state: State, dead: list[int], events: list) -> State:
        """`dead` were just killed by a card while this module's choice is open: they are no
        longer offered in it."""
        return state

    def act(self, state: State, action: Action, now: float) -> StepResult:
        """Apply one of this module's `action_names`."""
        raise NotImplementedError

    def at_step(self, state: State, step: str, now: float) -> StepResult | None:
        """Act at a flow step; return None when there is nothing (more) to do here."""
        return None

    def pending(self, state: State, seat: int) -> list[dict[str, Any]]:
        return []

    def waiting(self, state: State) -> set[int]:
        """The seats this module waits on now (a faster answer than asking `pending` of all)."""
        return {p.seat for p in state.players if self.pending(state, p.seat)}

    def timeout(self, state: State, now: float) -> StepResult | None:
        """Close this module's own expired window; None when the open window is not its own."""
        return None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {}


@runtime_checkable
class RelicKeeper(Protocol):
    """What the Last Wills ask of the module that deals Sacred Relics (R13: Heirloom, Shattered
    Relic, Sealed Reliquary); `provider(state, RelicKeeper)` finds it in a relic game."""

    def holds_active_relic(self, state: State, seat: int) -> bool: ...

    def give_away(self, state: State, seat: int, target: int, events: list) -> State: ...

    def discard(self, state: State, seat: int, events: list) -> State: ...

    def negate_next_round(self, state: State, seat: int, events: list) -> State: ...


class ModuleMissing(LookupError):
    """The game's options ask for a module nobody registered (a set-up error, not a player's)."""


# Options that switch a module on -> the name that module registers under.
MODULE_OPTIONS = {"relics": "relics", "last_wills": "last_wills"}

_registry: dict[str, Module] = {}
# Answers are kept on the game's (immutable) options object, outside its fields (`_hooks`), with
# a key that every (un)registration changes, so that answers kept before it are never read again.
_generations = itertools.count()
_cache_key = f"_hooks_{next(_generations)}"
_shared: dict[tuple, dict[str, Any]] = {}


def register(module: Module) -> Module:
    _registry[module.name] = module
    _new_generation()
    return module


def unregister(name: str) -> None:
    _registry.pop(name, None)
    _new_generation()


def _new_generation() -> None:
    global _cache_key
    _cache_key = f"_hooks_{next(_generations)}"


def active(state: State) -> tuple[Module, ...]:
    """The game's modules in registration order."""
    return using(state, "*")


def using(state: State, hook: str) -> tuple[Module, ...]:
    """The game's modules that implement `hook` (override the do-nothing default): the core
    skips the others on its hot paths, e.g. every token placement asks `may_stack`.
    `at_step:<step>` narrows `at_step` to the modules whose `at_steps` include that step."""
    try:
        key, cache = state.options._hooks  # a plain attribute read: asked several times a move
        if key is _cache_key:
            return cache[hook]
    except (AttributeError, KeyError):
        pass
    return _remember(state, hook)


def _answers(options) -> dict:
    """The answers kept for `options` under this generation of the registry (`_hooks`, outside
    its fields), made on first use."""
    kept = options.__dict__.get("_hooks")
    if kept is not None and kept[0] is _cache_key:
        return kept[1]
    # games with equal options share their answers (`enabled` reads only them)
    if len(_shared) > 1000:
        _shared.clear()
    try:
        cache = _shared.setdefault((_cache_key, options), {})
    except TypeError:  # options holding a list (built by hand): keep its own answers
        cache = {}
    options.__dict__["_hooks"] = (_cache_key, cache)
    return cache


def _remember(state: State, hook: str) -> tuple[Module, ...]:
    cache = _answers(state.options)
    if hook in cache:
        return cache[hook]
    modules = tuple(m for m in _registry.values() if m.enabled(state))
    if hook == "*":
        cache[hook] = modules
        return modules
    name, _, step = hook.partition(":")
    own = _IMPLIED_BY.get(name, (name,))
    found = tuple(
        m
        for m in modules
        if any(getattr(type(m), h) is not getattr(Module, h) for h in own)
        and (not step or m.at_steps is None or step in m.at_steps)
    )
    cache[hook] = found
    return found


# A module that only overrides `pending` is still waited on (the default `waiting` asks it).
_IMPLIED_BY = {"waiting": ("waiting", "pending")}


def using_in(state: State, hook: str, phase: str) -> tuple[Module, ...]:
    """`using(state, hook)` without the modules that say they wait on nobody in `phase`
    (`Module.waits_in`): for `pending` and `waiting`, asked on every move."""
    try:
        key, cache = state.options._hooks
        if key is _cache_key:
            return cache[hook, phase]
    except (AttributeError, KeyError):
        pass
    found = tuple(m for m in using(state, hook) if m.waits_in is None or phase in m.waits_in)
    _answers(state.options)[hook, phase] = found
    return found


def require(options) -> None:
    """Refuse options that switch on a module which is not registered (e.g. `relics=True` before
    `relics.rules` is imported): the game would otherwise be played silently without it."""
    for option, name in MODULE_OPTIONS.items():
        if getattr(options, option) and name not in _registry:
            raise ModuleMissing(
                f"Options({option}=True) needs the '{name}' module registered (hooks.register)."
            )


def provider(state: State, protocol: type) -> Any:
    """The game's active module that implements `protocol`, or None."""
    return next((m for m in active(state) if isinstance(m, protocol)), None)


def owner_of(state: State, action: Action) -> Module | None:
    return next((m for m in active(state) if m.owns(state, action)), None)
