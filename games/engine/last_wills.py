"""Last Will cards (R13, game option `last_wills`): the deck as data, each card's effect, and the
module that plugs them into the round (hooks.py).

Every player who dies in Dining draws one card and resolves it before Dining goes on, in the
order they died (R13 amended: a Bangle of Oaths partner too; not Last Stand's victim, and nobody
in a three-living round, R9). A card that needs a choice opens a timed, mandatory window for the
drawer (`resolve_choice`); on timeout a random legal choice is made. "Next round" effects last
exactly that round and are cancelled by R9.

Rulings where R13 is silent (the project's own, see docs/rules.md's style):
- Broken Stake leaves an Alpha's hand as it is: their Double-Stake is already their only Stake.
- Kindred or Not compares roles, it examines nobody: no Mesmerism, and the Effigy does not stop it.
- Grudge and Last Stand choose among the living players who put a Stake or Double-Stake on you.
- Parting Glance offers only the players it can examine: not the Protected (R7.2), not the
  Effigy of Innocence's holder (R11); R13 amended.
- Kingmaker names one of the players this round's election could elect (living, not Protected,
  not this round's Alpha); the Feast tally is then ignored.
- Cards resolve in the order drawn; when two decide the next Alpha (Kingmaker, Overturned Table)
  in one Dining, the later one stands and its line says that it replaces the earlier (R13
  amended).
- A player killed while a Last Will choice is open (Blood of the One) is no longer offered; a
  card left with nobody to choose has no effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import dining, hooks
from .common import ROLE_NAMES, draw_rng, public
from .errors import IllegalAction
from .events import line as public_line
from .offers import offer
from .state import DINING, DOUBLE_STAKE, FEAST, LAST_WILL, STAKE, Action, Event, State, evolve
from .table import on_vampire_side
from .vocabulary import ActionName, EventKind, LastWillId

# A module-level alias: asked of every vote counted (an enum member read through its class costs a
# lookup, vocabulary.py).
RESTLESS_SPIRIT = LastWillId.RESTLESS_SPIRIT


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    text: str
    copies: int
    timing: str  # "now" | "this_round" | "next_round"
    choice: str | None  # who may be chosen (CHOICES), None when the card asks for nothing
    names_relics: bool = False


CARDS = (
    Card(
        LastWillId.PARTING_GLANCE,
        "Parting Glance",
        "Examine one living player's Secret Role (not a Protected one).",
        2,
        "now",
        "living",
    ),
    Card(
        LastWillId.DYING_ACCUSATION,
        "Dying Accusation",
        "A living player of your choice gets 1 automatic Stake vote next round.",
        2,
        "next_round",
        "living",
    ),
    Card(
        LastWillId.TOAST,
        "Toast to a Friend",
        "A living player gets 1 automatic Feast vote next round.",
        1,
        "next_round",
        "living",
    ),
    Card(
        LastWillId.SPILLED_WINE,
        "Spilled Wine",
        "A living player has no Feast token next round.",
        1,
        "next_round",
        "living",
    ),
    Card(
        LastWillId.BROKEN_STAKE,
        "Broken Stake",
        "A living player has only 1 Stake token next round.",
        1,
        "next_round",
        "living",
    ),
    Card(
        LastWillId.GRUDGE,
        "Grudge",
        "One player who put a Stake on you gets 2 automatic Stake votes next round.",
        1,
        "next_round",
        "stakers",
    ),
    Card(
        LastWillId.OVERTURNED_TABLE,
        "Overturned Table",
        "No Alpha Hunter is elected this round.",
        1,
        "this_round",
        None,
    ),
    Card(
        LastWillId.KINGMAKER,
        "Kingmaker",
        "You choose next round's Alpha Hunter among the eligible living players.",
        1,
        "this_round",
        "electable",
    ),
    Card(
        LastWillId.PUBLIC_CONFESSION,
        "Public Confession",
        "Your own Secret Role is revealed to everyone.",
        1,
        "now",
        None,
    ),
    Card(
        LastWillId.RESTLESS_SPIRIT,
        "Restless Spirit",
        "Your intervention and tie-break votes count double next round.",
        1,
        "next_round",
        None,
    ),
    Card(
        LastWillId.KINDRED_OR_NOT,
        "Kindred or Not",
        "Choose two living players: everyone learns whether their roles are on the same side.",
        1,
        "now",
        "two_living",
    ),
    Card(
        LastWillId.LAST_STAND,
        "Last Stand",
        "Choose a player who put a Stake on you: if their role is on the other side from yours, "
        "they are eliminated too (no Last Will).",
        1,
        "now",
        "stakers",
    ),
    Card(
        LastWillId.HEIRLOOM,
        "Heirloom",
        "Give your Sacred Relic to a living player, in addition to theirs.",
        1,
        "now",
        "living",
        names_relics=True,
    ),
    Card(
        LastWillId.SHATTERED_RELIC,
        "Shattered Relic",
        "Discard one living player's Sacred Relic.",
        1,
        "now",
        "relic_holders",
        names_relics=True,
    ),
    Card(
        LastWillId.SEALED_RELIQUARY,
        "Sealed Reliquary",
        "A living player's Sacred Relic is negated next round.",
        1,
        "next_round",
        "relic_holders",
        names_relics=True,
    ),
    Card(LastWillId.NOTHING_TO_SAY, "Nothing to Say", "No effect.", 1, "now", None),
)
BY_ID = {c.id: c for c in CARDS}

# card id -> effect(state, drawer, targets, events) -> state. Filled by @effect below.
EFFECTS: dict[str, Callable[[State, int, list[int], list], State]] = {}


def effect(card_id: str):
    def register(func):
        EFFECTS[card_id] = func
        return func

    return register


# --- the module ------------------------------------------------------------------------------


class LastWills(hooks.Module):
    name = "last_wills"
    action_names = frozenset({ActionName.RESOLVE_CHOICE})
    at_steps = frozenset({"after_intervention", "after_death"})
    waits_in = frozenset({LAST_WILL})  # its only window: the drawer's choice

    def enabled(self, state: State) -> bool:
        return state.options.last_wills

    def at_step(self, state: State, step: str, now: float):
        if state.three_living:  # R9: no Last Will
            return None
        if step == "after_intervention":  # killed before Dining (Blood of the One): R11 amended
            owed = [
                s for s in _data(state).get("owed", []) if _draw_of(state, state.round, s) is None
            ]
            return draw(_update(state, owed=owed[1:]), owed[0], now) if owed else None
        if step != "after_death":
            return None
        seat = dining.dying(state)
        if seat in _data(state).get("no_will", ()):  # Last Stand's victim (R13)
            return None
        current = _draw_of(state, state.round, seat)
        if current is not None:
            return None if current["resolved"] else (state, [], True)
        return draw(state, seat, now)

    def act(self, state: State, action: Action, now: float):
        draw_ = _open_draw(state)
        if draw_ is None or state.phase != LAST_WILL:
            raise IllegalAction("wrong_phase", "There is no Last Will choice to make now.")
        if action.seat != draw_["seat"]:  # errors name no seat (docs/rulings.md)
            raise IllegalAction("wrong_phase", "It is not your choice.")
        if action.args.get("choice") not in (None, draw_["card"]):
            raise IllegalAction(
                "bad_request", f"The open choice is the Last Will '{draw_['card']}'."
            )
        targets = action.args.get("targets") or []
        if not isinstance(targets, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) for t in targets
        ):
            raise IllegalAction("bad_request", "'targets' must be a list of seat numbers.")
        need = 2 if BY_ID[draw_["card"]].choice == "two_living" else 1
        options = draw_["options"]
        if len(targets) != need or len(set(targets)) != need or not set(targets) <= set(options):
            raise IllegalAction(
                "illegal_target",
                f"Choose {need} of {{options:seats}} (R13).",
                options=list(options),
            )
        return _resolve(state, draw_, targets, [])

    def timeout(self, state: State, now: float):
        if state.phase != LAST_WILL:
            return None
        draw_ = _open_draw(state)
        rng, state = draw_rng(state)
        need = 2 if BY_ID[draw_["card"]].choice == "two_living" else 1
        targets = rng.sample(draw_["options"], need)
        events = [
            public(
                state,
                EventKind.LAST_WILL_TIMEOUT,
                "Time is up: the Last Will is resolved at random.",
                seat=draw_["seat"],
                card=draw_["card"],
            )
        ]
        return _resolve(state, draw_, targets, events)

    def pending(self, state: State, seat: int) -> list[dict[str, Any]]:
        draw_ = _open_draw(state) if state.phase == LAST_WILL else None
        if draw_ is None or draw_["seat"] != seat:
            return []
        count = 2 if BY_ID[draw_["card"]].choice == "two_living" else 1
        if len(draw_["options"]) < count:
            return []
        return [
            offer(
                ActionName.RESOLVE_CHOICE,
                draw_["options"],
                min=count,
                choice=draw_["card"],
                count=count,  # the older name of min and max
            )
        ]

    def owns(self, state: State, action: Action) -> bool:
        return action.name == ActionName.RESOLVE_CHOICE and state.phase == LAST_WILL

    def waiting(self, state: State) -> set[int]:
        draw_ = _open_draw(state) if state.phase == LAST_WILL else None
        return {draw_["seat"]} if draw_ else set()

    def on_killed_before_dining(self, state: State, seat: int) -> State:
        """Their Last Will is drawn once Dining has settled Protection, before anything is counted
        (`at_step("after_intervention")`, R11 amended)."""
        return _update(state, owed=_data(state).get("owed", []) + [seat])

    def forget_the_dead(self, state: State, dead: list[int], events: list) -> State:
        for seat in dead:
            state = _forget(state, seat, events)
        return state

    def hand(self, state: State, seat: int, tokens: tuple[str, ...]) -> tuple[str, ...]:
        for e in _in_force(state, seat):
            if e["card"] == LastWillId.SPILLED_WINE and FEAST in tokens:
                tokens = _without(tokens, FEAST)
            if e["card"] == LastWillId.BROKEN_STAKE and tokens.count(STAKE) > 1:
                tokens = _without(tokens, STAKE)
        return tokens

    def adjust_tally(self, state: State, kind: str, tally: dict[int, int]) -> dict[int, int]:
        tally = dict(tally)
        in_force = _in_force(state)
        for e in in_force:
            seat = e["target"]
            if (
                kind == STAKE
                and e["card"] in (LastWillId.DYING_ACCUSATION, LastWillId.GRUDGE)
                and seat in tally
            ):
                tally[seat] += 2 if e["card"] == LastWillId.GRUDGE else 1
            if kind == FEAST and e["card"] == LastWillId.TOAST and seat in tally:
                tally[seat] += 1
        decided = _alpha_decided(in_force) if kind == FEAST else None
        if decided is None:
            return tally
        if decided["card"] == LastWillId.OVERTURNED_TABLE:
            return {}
        return {decided["target"]: 1} if decided["target"] in tally else {}  # Kingmaker

    def vote_weight(self, state: State, voter: int) -> int:
        restless = any(e["card"] == RESTLESS_SPIRIT for e in _in_force(state, voter))
        return 2 if restless else 1

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        data = state.ext.get(self.name, {})
        draws = [d for d in data.get("draws", []) if d["round"] == _shown_round(state)]
        shown = [
            {
                "round": d["round"],
                "seat": d["seat"],
                "card": {
                    "id": d["card"],
                    "name": BY_ID[d["card"]].name,
                    "text": BY_ID[d["card"]].text,
                },
                "targets": d["targets"],
                "resolved": d["resolved"],
                "result": d["result"],
                **_verdict(state, d),
            }
            for d in draws
        ]
        return {
            "last_wills": shown,
            "last_dining_extra": {"last_will": shown[0] if shown else None},
            "effects": [
                {
                    "card": e["card"],
                    "name": BY_ID[e["card"]].name,
                    "seat": e["target"],
                    "by": e["by"],
                }
                for e in _in_force(state)
            ],
            "public_roles": data.get("revealed", []),
        }


MODULE = hooks.register(LastWills())


def result_lines(state: State) -> list[dict[str, Any]]:
    """The resolved Last Wills of the Dining a view shows (`last_wills`), each with its public
    lines as templates and the seats they name (`_finish`): for a reader that names the seats
    (the room's narrator), never from the words of `result`. Not in the view itself: a line's
    words may name a role (a Public Confession), which the view gives only as `public_roles`;
    a card resolved before these lines were kept has none."""
    draws = state.ext.get("last_wills", {}).get("draws", [])
    return [
        {"round": d["round"], "seat": d["seat"], "lines": d["result_lines"]}
        for d in draws
        if d["round"] == _shown_round(state) and d.get("result_lines")
    ]


# --- drawing and resolving ---------------------------------------------------------------------


def draw(state: State, seat: int, now: float):
    """Draw for `seat` (redrawing relic cards when relics are off) and resolve or ask."""
    events: list = []
    for _ in range(len(CARDS) * 3):
        state, card = _take_top(state)
        if not card.names_relics or state.options.relics:
            break
        events.append(
            public(
                state,
                EventKind.LAST_WILL_REDRAW,
                f"{card.name} names Sacred Relics: drawn again.",
                seat=seat,
                card=card.id,
            )
        )
        state = _discard(state, card.id)
    events.append(
        public(
            state,
            EventKind.LAST_WILL,
            f"{{seat:Seat}} draws a Last Will: {card.name}. “{card.text}”",
            seat=seat,
            card=card.id,
        )
    )
    options = _options(state, card, seat)
    draw_ = {
        "round": state.round,
        "seat": seat,
        "card": card.id,
        "options": options or [],
        "targets": [],
        "resolved": False,
        "result": None,
    }
    state = _update(state, draws=_data(state)["draws"] + [draw_])
    if options is None:
        return _resolve(state, draw_, [], events)
    if len(options) < (2 if card.choice == "two_living" else 1):
        events.append(
            public(
                state,
                EventKind.LAST_WILL_VOID,
                f"{card.name}: nobody can be chosen, no effect.",
                seat=seat,
                card=card.id,
            )
        )
        return _finish(state, draw_, [], NO_EFFECT, events)
    state = evolve(state, phase=LAST_WILL, deadline=now + state.options.timers.choice)
    return state, events, True


def _resolve(state: State, draw_: dict, targets: list[int], events: list):
    card = BY_ID[draw_["card"]]
    before = len(events)
    state = EFFECTS[card.id](state, draw_["seat"], targets, events)
    said = [e for e in events[before:] if e.audience is None]
    result = " ".join(e.text for e in said) or None
    return _finish(state, draw_, targets, result, events, [public_line(e) for e in said])


NO_EFFECT = "No effect: nobody could be chosen."


def _finish(state: State, draw_: dict, targets, result, events, result_lines=None):
    """The draw resolved: `result` is its public lines' words, `result_lines` the same lines as
    templates and seats (`events.line`), so no reader takes seats from the words."""
    if result_lines is None:
        result_lines = [{"template": result, "data": {}}] if result else []
    done = {
        **draw_,
        "targets": list(targets),
        "resolved": True,
        "result": result,
        "result_lines": result_lines,
    }
    draws = [done if d is draw_ or _same(d, draw_) else d for d in _data(state)["draws"]]
    state = _update(state, draws=draws)
    state = _discard(state, draw_["card"])
    return evolve(state, phase=DINING, deadline=None), events, False


def _options(state: State, card: Card, seat: int) -> list[int] | None:
    living = list(state.living)
    if card.choice is None:
        return None
    if card.choice in ("living", "two_living"):
        if card.id == LastWillId.PARTING_GLANCE:  # R13 amended: only those it can examine
            return [s for s in living if _can_examine(state, seat, s)]
        return [s for s in living if s != seat] if card.id == LastWillId.HEIRLOOM else living
    if card.choice == "stakers":
        return sorted(
            {
                p.owner
                for p in state.dining.tokens
                if p.target == seat and p.token in (STAKE, DOUBLE_STAKE)
            }
            & set(living)
        )
    if card.choice == "electable":
        return [s for s in living if s not in (state.dining.protected, state.alpha)]
    if card.choice == "relic_holders":
        relics = _relics(state)
        return [s for s in living if relics and relics.holds_active_relic(state, s)]
    raise ValueError(card.choice)


def _can_examine(state: State, seat: int, target: int) -> bool:
    """Whether `seat`'s Parting Glance may look at `target`: not the Protected (R7.2), not a
    player a module shields from examination (the Effigy of Innocence, R11)."""
    if target == state.dining.protected:
        return False
    blockers = hooks.using(state, "blocks_examination")
    return not any(m.blocks_examination(state, seat, target) for m in blockers)


def _take_top(state: State) -> tuple[State, Card]:
    data = _data(state)
    deck, discard = list(data["deck"]), list(data["discard"])
    if not deck:  # first draw of the game, or the deck ran out: shuffle (the discards)
        deck = discard if data["deck_made"] else [c.id for c in CARDS for _ in range(c.copies)]
        discard = []
        rng, state = draw_rng(state)
        rng.shuffle(deck)
    card = BY_ID[deck.pop(0)]
    return _update(state, deck=deck, discard=discard, deck_made=True), card


def _discard(state: State, card_id: str) -> State:
    return _update(state, discard=_data(state)["discard"] + [card_id])


EMPTY_DATA = {  # before the first draw; read-only, like everything in the state (see _update)
    "deck": [],
    "discard": [],
    "deck_made": False,
    "draws": [],
    "effects": [],
    "revealed": [],
    "owed": [],
    "no_will": [],
}


def _data(state: State) -> dict:
    return state.ext.get("last_wills", EMPTY_DATA)


def _forget(state: State, seat: int, events: list) -> State:
    """`seat` has just died (Blood of the One) while a Last Will choice is open: it is no longer
    offered, and a card left with nobody to choose has no effect."""
    draw_ = _open_draw(state) if state.phase == LAST_WILL else None
    if draw_ is None or seat not in draw_["options"]:
        return state
    options = [s for s in draw_["options"] if s != seat]
    draws = [{**d, "options": options} if d is draw_ else d for d in _data(state)["draws"]]
    state = _update(state, draws=draws)
    draw_ = _open_draw(state)
    if len(options) >= (2 if BY_ID[draw_["card"]].choice == "two_living" else 1):
        return state
    card = BY_ID[draw_["card"]]
    events.append(
        public(
            state,
            EventKind.LAST_WILL_VOID,
            f"{card.name}: nobody can be chosen, no effect.",
            seat=draw_["seat"],
            card=card.id,
        )
    )
    state, _, _ = _finish(state, draw_, [], NO_EFFECT, events)
    return state


def _update(state: State, **changes) -> State:
    return evolve(state, ext={**state.ext, "last_wills": {**_data(state), **changes}})


def _draw_of(state: State, round_: int, seat: int) -> dict | None:
    return next(
        (d for d in _data(state)["draws"] if d["round"] == round_ and d["seat"] == seat), None
    )


def _open_draw(state: State) -> dict | None:
    return next((d for d in _data(state)["draws"] if not d["resolved"]), None)


def _same(a: dict, b: dict) -> bool:
    return a["round"] == b["round"] and a["seat"] == b["seat"] and a["card"] == b["card"]


def _add_effect(state: State, card: str, by: int, target: int, round_: int) -> State:
    effects = _data(state)["effects"] + [
        {"card": card, "by": by, "target": target, "round": round_}
    ]
    return _update(state, effects=effects)


def _in_force(state: State, seat: int | None = None) -> list[dict]:
    """Effects for this round; none in a three-living round (R9 cancels them)."""
    if state.three_living:
        return []
    effects = _this_round(_data(state)["effects"], state.round)
    if not effects:  # most rounds: asked for every hand dealt and every vote counted
        return []
    if seat is None:
        return list(effects)
    return [e for e in effects if e["target"] == seat]


_kept: tuple = (None, 0, ())  # (effects list, round, that round's effects): see `_this_round`


def _this_round(effects: list[dict], round_: int) -> tuple[dict, ...]:
    """The effects of `round_`, kept for the last list asked (by identity: a list in the state
    is replaced, never changed): every hand dealt and every vote counted asks it again."""
    global _kept
    kept, kept_round, answer = _kept
    if kept is not effects or kept_round != round_:
        answer = tuple([e for e in effects if e["round"] == round_])
        _kept = (effects, round_, answer)
    return answer


def _shown_round(state: State) -> int:
    shown = state.dining or state.last_dining
    return shown.round if shown else 0


def _without(tokens: tuple[str, ...], token: str) -> tuple[str, ...]:
    rest = list(tokens)
    rest.remove(token)
    return tuple(rest)


def _verdict(state: State, draw_: dict) -> dict[str, bool]:
    """A resolved Kindred or Not's public verdict as data (`same_side`), besides its words in
    `result`, so that no reader (a bot) parses the sentence. Computed from the roles, which never
    change, so games stored before this field existed show it too."""
    if draw_["card"] != LastWillId.KINDRED_OR_NOT or not draw_["resolved"] or not draw_["targets"]:
        return {}
    a, b = draw_["targets"]
    return {"same_side": _same_side(state, a, b)}


def _same_side(state: State, a: int, b: int) -> bool:
    return on_vampire_side(state.player(a).role) == on_vampire_side(state.player(b).role)


def _relics(state: State) -> hooks.RelicKeeper | None:
    return hooks.provider(state, hooks.RelicKeeper)


# --- the effects, one per card -----------------------------------------------------------------


@effect(LastWillId.PARTING_GLANCE)
def _parting_glance(state, seat, targets, events):
    target = targets[0]
    blockers = hooks.using(state, "blocks_examination")
    if any(m.blocks_examination(state, seat, target) for m in blockers):
        events.append(
            _effect(
                state,
                LastWillId.PARTING_GLANCE,
                seat,
                "{target:Seat}'s role cannot be examined.",
                target=target,
                outcome="blocked",
            )
        )
        return state
    events.append(
        _effect(
            state,
            LastWillId.PARTING_GLANCE,
            seat,
            "{seat:Seat} looks at {target:seat}'s Secret Role.",
            target=target,
        )
    )
    return dining.examine(state, seat, target, "last_will", events)


def _effect(state: State, card: str, seat: int, text: str, /, **data) -> Event:
    """A Last Will's public effect: `seat` is the dead player whose card it is."""
    return public(state, EventKind.LAST_WILL_EFFECT, text, card=card, seat=seat, **data)


def _next_round(card: str, text: str):
    def apply(state, seat, targets, events):
        events.append(_effect(state, card, seat, text, target=targets[0]))
        return _add_effect(state, card, seat, targets[0], state.round + 1)

    return apply


effect(LastWillId.DYING_ACCUSATION)(
    _next_round(
        LastWillId.DYING_ACCUSATION, "{target:Seat} gets 1 automatic Stake vote next round."
    )
)
effect(LastWillId.TOAST)(
    _next_round(LastWillId.TOAST, "{target:Seat} gets 1 automatic Feast vote next round.")
)
effect(LastWillId.SPILLED_WINE)(
    _next_round(LastWillId.SPILLED_WINE, "{target:Seat} has no Feast token next round.")
)
effect(LastWillId.BROKEN_STAKE)(
    _next_round(LastWillId.BROKEN_STAKE, "{target:Seat} has only 1 Stake token next round.")
)
effect(LastWillId.GRUDGE)(
    _next_round(LastWillId.GRUDGE, "{target:Seat} gets 2 automatic Stake votes next round.")
)


ALPHA_CARDS = (LastWillId.OVERTURNED_TABLE, LastWillId.KINGMAKER)  # they decide the next Alpha


def _alpha_decided(in_force: list[dict]) -> dict | None:
    """R13 amended: of the cards that decide this round's election, the one drawn last stands."""
    return next((e for e in reversed(in_force) if e["card"] in ALPHA_CARDS), None)


def _replacing(state: State) -> tuple[str, dict]:
    """The words and data a card that decides the next Alpha adds when an earlier one of this
    Dining did too: it replaces it (R13 amended)."""
    earlier = _alpha_decided([e for e in _data(state)["effects"] if e["round"] == state.round])
    if earlier is None:
        return "", {}
    name = BY_ID[earlier["card"]].name
    return f" This replaces {{replaces_seat:seat}}'s {name}.", {
        "replaces": earlier["card"],
        "replaces_seat": earlier["by"],
    }


@effect(LastWillId.OVERTURNED_TABLE)
def _overturned_table(state, seat, targets, events):
    more, data = _replacing(state)
    events.append(
        _effect(
            state,
            LastWillId.OVERTURNED_TABLE,
            seat,
            "No Alpha Hunter is elected this round." + more,
            **data,
        )
    )
    return _add_effect(state, LastWillId.OVERTURNED_TABLE, seat, seat, state.round)


@effect(LastWillId.KINGMAKER)
def _kingmaker(state, seat, targets, events):
    more, data = _replacing(state)
    events.append(
        _effect(
            state,
            LastWillId.KINGMAKER,
            seat,
            "{seat:Seat} makes {target:seat} the next Alpha Hunter." + more,
            target=targets[0],
            **data,
        )
    )
    return _add_effect(state, LastWillId.KINGMAKER, seat, targets[0], state.round)


@effect(LastWillId.PUBLIC_CONFESSION)
def _public_confession(state, seat, targets, events):
    role = state.player(seat).role
    events.append(
        _effect(
            state,
            LastWillId.PUBLIC_CONFESSION,
            seat,
            f"{{seat:Seat}} was {ROLE_NAMES[role]}.",
            role=role,
        )
    )
    return _update(state, revealed=_data(state)["revealed"] + [{"seat": seat, "role": role}])


@effect(LastWillId.RESTLESS_SPIRIT)
def _restless_spirit(state, seat, targets, events):
    events.append(
        _effect(
            state, LastWillId.RESTLESS_SPIRIT, seat, "{seat:Seat}'s votes count double next round."
        )
    )
    return _add_effect(state, LastWillId.RESTLESS_SPIRIT, seat, seat, state.round + 1)


@effect(LastWillId.KINDRED_OR_NOT)
def _kindred_or_not(state, seat, targets, events):
    a, b = sorted(targets)
    same = _same_side(state, a, b)
    verdict = "on the same side" if same else "on different sides"
    events.append(
        _effect(
            state,
            LastWillId.KINDRED_OR_NOT,
            seat,
            f"{{targets:Seats}} are {verdict}.",
            targets=[a, b],
            same_side=same,
        )
    )
    return state


@effect(LastWillId.LAST_STAND)
def _last_stand(state, seat, targets, events):
    target = targets[0]
    if target == state.dining.protected:  # R7.2: the Protected cannot be eliminated this round
        events.append(
            _effect(
                state,
                LastWillId.LAST_STAND,
                seat,
                "{target:Seat} is Protected from the Last Stand.",
                target=target,
                outcome="protected",
            )
        )
        return state
    mine = on_vampire_side(state.player(seat).role)
    if on_vampire_side(state.player(target).role) == mine:
        events.append(
            _effect(
                state,
                LastWillId.LAST_STAND,
                seat,
                "{target:Seat} survives the Last Stand.",
                target=target,
                outcome="survives",
            )
        )
        return state
    events.append(
        _effect(
            state,
            LastWillId.LAST_STAND,
            seat,
            "{target:Seat} falls in the Last Stand.",
            target=target,
            outcome="falls",
        )
    )
    state = _update(state, no_will=_data(state).get("no_will", []) + [target])
    return dining.eliminate(state, target, events, cause=LastWillId.LAST_STAND)


@effect(LastWillId.HEIRLOOM)
def _heirloom(state, seat, targets, events):
    events.append(
        _effect(
            state,
            LastWillId.HEIRLOOM,
            seat,
            "{seat:Seat} leaves their Sacred Relic to {target:seat}.",
            target=targets[0],
        )
    )
    return _relics(state).give_away(state, seat, targets[0], events)


@effect(LastWillId.SHATTERED_RELIC)
def _shattered_relic(state, seat, targets, events):
    events.append(
        _effect(
            state,
            LastWillId.SHATTERED_RELIC,
            seat,
            "{target:Seat}'s Sacred Relic is shattered.",
            target=targets[0],
        )
    )
    return _relics(state).discard(state, targets[0], events)


@effect(LastWillId.SEALED_RELIQUARY)
def _sealed_reliquary(state, seat, targets, events):
    events.append(
        _effect(
            state,
            LastWillId.SEALED_RELIQUARY,
            seat,
            "{target:Seat}'s Sacred Relic is negated next round.",
            target=targets[0],
        )
    )
    return _relics(state).negate_next_round(state, targets[0], events)


@effect(LastWillId.NOTHING_TO_SAY)
def _nothing_to_say(state, seat, targets, events):
    events.append(_effect(state, LastWillId.NOTHING_TO_SAY, seat, "Nothing happens."))
    return state
