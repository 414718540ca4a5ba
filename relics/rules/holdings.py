"""The module's data: who holds which card, what is negated, the open window or choice, as
frozen records (like the core's, games/engine/state.py), and the questions every part asks of
them (is this card active? what is it acting as?).

`state.ext["relics"]` keeps their JSON (the hooks' contract: a module's data in `state.ext` is
JSON), in the form stored games have always had; `data_of` reads it as a `Relics` record and
`update` writes changed fields back."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from games.engine.errors import IllegalAction
from games.engine.serialize import from_json, to_json
from games.engine.state import (
    DINING,
    Action,
    State,
    evolve,
    record,
)
from games.engine.vocabulary import Phase, RelicId

from .cards import BY_ID, CHOICE, WINDOW, Card, Stage, kind

AS = {"json": "as"}  # the JSON name of `as_` (what a card acts as)


@record
class Holding:
    """A card face-up under a seat's tile (R10.2a), discarded or not (R10.5)."""

    card: Card
    seat: int
    discarded: bool = False


@record
class Marker:
    """The marker of a Bell, Ring or Glass (R10.4): the card it last targeted, and when."""

    card: Card
    round: int


@record
class Negation:
    """A card negated for one round (the Ritual Bell, a Sealed Reliquary)."""

    card: Card
    round: int


@record
class Copy:
    """What a Hindsight Looking Glass copied this round."""

    round: int
    as_: RelicId = field(metadata=AS)
    card: Card


@record
class Window:
    """One holder's open window (R10.3): the card, acting as `as_` (a Glass: what it copied)."""

    card: Card
    seat: int
    as_: RelicId = field(metadata=AS)
    stage: Stage


@record
class Giving:
    """The relics handed out after round 1 (R10.2): the givers in turn, and what one drew."""

    order: tuple[int, ...]
    index: int
    drawn: tuple[Card, ...] = ()


@record
class Choice:
    """An open optional choice (the False Idol's hand-over, Van Helsing's Journal)."""

    relic: RelicId
    seat: int
    targets: tuple[int, ...]
    card: Card | None
    key: tuple[str | int, ...]  # in `Relics.offered` once offered (`idol_key`, `journal_key`)


@record
class KeyUse:
    """A Key of Quick Passage used: every token on `seat` is ignored that round."""

    seat: int
    round: int


@record
class Cross:
    """The Cross of Saint John decided the game (R11, R12.3): the count that did it."""

    round: int
    seat: int
    stake_votes: int
    from_vampires: int


@record
class Relics:
    """Everything the module keeps (`state.ext["relics"]`)."""

    deck: tuple[Card, ...] = ()
    box: tuple[Card, ...] = ()
    holdings: tuple[Holding, ...] = ()
    markers: dict[RelicId, Marker] = field(default_factory=dict)  # by relic: Bell, Ring, Glass
    negated: tuple[Negation, ...] = ()
    done: tuple[str, ...] = ()  # the windows used this round (`used`)
    copy: Copy | None = None
    window: Window | None = None
    giving: Giving | None = None
    distributed: bool = False
    key_used: tuple[KeyUse, ...] = ()
    pending_deaths: tuple[int, ...] = ()  # a negated Bangle's partner, dying next round
    idol_handovers: int = 0
    offered: tuple[tuple[str | int, ...], ...] = ()  # the choices' keys once offered
    choice: Choice | None = None
    public: tuple[Any, ...] = ()
    done_round: int | None = None  # the round `done` is about (absent until the first window)
    cross: Cross | None = None  # absent unless the Cross decided the game


NONE_YET = Relics()  # a relic game before the relics are handed out
EMPTY_JSON = {
    name: value
    for name, value in to_json(NONE_YET).items()
    if name not in ("done_round", "cross")  # written only once they happen, as stored games have
}


def used(card: str, stage: str) -> str:
    """The entry of `Relics.done` for a card that acted in a stage ("tie:elimination")."""
    return f"{card}@{stage}"


def idol_key(card: str, seat: int) -> tuple[str | int, ...]:
    """The key of a False Idol's hand-over, offered once per card and holder."""
    return (card, seat)


def journal_key(seat: int, round_: int, eliminated: int) -> tuple[str | int, ...]:
    """The key of Van Helsing's Journal offered to `seat` after one death."""
    return (RelicId.VAN_HELSINGS_JOURNAL, seat, round_, eliminated)


# Decoded records by the JSON they were read from (ext is replaced, never mutated): `data_of`
# runs on every hook call of a relic game. The JSON is kept too, so its id is not reused.
_decoded: dict[int, tuple[dict, Relics]] = {}


def stored(state: State) -> dict:
    """The module's data as `state.ext` keeps it (JSON)."""
    return state.ext.get("relics") or EMPTY_JSON


def data_of(state: State) -> Relics:
    raw = stored(state)
    hit = _decoded.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    # A key some older code wrote and no field reads stays in the JSON (`update` keeps it).
    data = from_json(Relics, {k: v for k, v in raw.items() if k in _FIELDS})
    _remember(raw, data)
    return data


_FIELDS = frozenset(Relics.__dataclass_fields__)


def _remember(raw: dict, data: Relics) -> None:
    if len(_decoded) > 256:
        _decoded.clear()
    _decoded[id(raw)] = (raw, data)


def update(state: State, **changes) -> State:
    """`state` with some of the module's fields changed (records, tuples, enum members)."""
    data = evolve(data_of(state), **changes)
    raw = {**stored(state), **{name: to_json(value) for name, value in changes.items()}}
    _remember(raw, data)
    return evolve(state, ext={**state.ext, "relics": raw})


def cards_of(state: State, seat: int, *, discarded: bool = False) -> list[Card]:
    return [
        h.card for h in data_of(state).holdings if h.seat == seat and (discarded or not h.discarded)
    ]


def holder(state: State, card: str) -> int | None:
    return next((h.seat for h in data_of(state).holdings if h.card == card), None)


def holding(state: State, card: str) -> Holding | None:
    return next((h for h in data_of(state).holdings if h.card == card), None)


def negated(state: State, card: str) -> bool:
    return any(n.card == card and n.round == state.round for n in data_of(state).negated)


def is_active(state: State, card: str) -> bool:
    """R10.3/R10.5/R9: only a living holder's card works, not discarded, not negated, and never
    in a three-living round."""
    h = holding(state, card)
    return (
        h is not None
        and not state.three_living
        and not h.discarded
        and state.player(h.seat).alive
        and not negated(state, card)
    )


def acting_as(state: State, card: str) -> RelicId:
    """What a card is this round: a Hindsight Looking Glass acts as the relic it copied."""
    copy = data_of(state).copy
    if kind(card) == RelicId.HINDSIGHT_LOOKING_GLASS and copy and copy.round == state.round:
        return copy.as_
    return kind(card)


def has(state: State, seat: int, relic: str) -> bool:
    """Whether `seat` has an active card acting as `relic` this round."""
    return any(acting_as(state, c) == relic and is_active(state, c) for c in cards_of(state, seat))


def with_card(state: State, relic: str) -> list[int]:
    return sorted({s for s in state.living if has(state, s, relic)})


def active_cards(state: State, relic: str) -> list[Card]:
    """The cards acting as `relic` that work now, in seat order (a Glass may copy it)."""
    return [
        c
        for s in with_card(state, relic)
        for c in cards_of(state, s)
        if acting_as(state, c) == relic and is_active(state, c)
    ]


def public_holdings(state: State, data: Relics) -> list[dict[str, Any]]:
    """R10.2a: every seat's relics, face-up for the whole table, with their markers (R10.4)."""
    markers: dict[str, list[dict]] = {}
    for relic, marker in data.markers.items():
        markers.setdefault(marker.card, []).append({"relic": relic, "round": marker.round})
    out = []
    for h in sorted(data.holdings, key=lambda h: h.seat):
        card = h.card
        relic = kind(card)
        copy = acting_as(state, card)
        out.append(
            {
                "seat": h.seat,
                "relic": relic,
                "name": BY_ID[relic].name,
                "discarded": h.discarded,
                "negated": negated(state, card),
                "acting_as": copy if copy != relic else None,
                "markers": markers.get(card, []),
            }
        )
    return out


def public_window(state: State, window: Window) -> dict[str, Any]:
    """The open window, its holder named (R10.2a); a Dining tie's window names the tie."""
    out = {
        "relic": window.as_,
        "stage": window.stage,
        "deadline": state.deadline,
        "seat": window.seat,
    }
    if window.stage == Stage.TIE:
        out["tie"] = {"kind": state.tie.kind, "candidates": list(state.tie.candidates)}
    return out


def open_window(state: State, card: str, relic: str, stage: Stage, now: float, events=()):
    window = Window(card, holder(state, card), relic, stage)
    state = update(state, window=window)
    state = evolve(state, phase=WINDOW, deadline=now + state.options.timers.relic)
    return state, list(events), True


def close_window(state: State, card: str) -> State:
    """A card acts once a round in each stage it has a slot in (a Glass copying a post-mingling
    relic acts again after Mingling), and the Scales once per Dining tie."""
    data = data_of(state)
    stage = data.window.stage if data.window else Stage.PRE
    if stage == Stage.TIE:
        stage = f"{Stage.TIE}:{state.tie.kind}"
    done = (*data.done, used(card, stage))
    phase = Phase.RELICS if stage in (Stage.PRE, Stage.POST) else DINING
    return evolve(update(state, window=None, done=done), phase=phase, deadline=None)


def seat_targets(action: Action, count: int) -> list[int]:
    targets = action.args.get("targets") or []
    if (
        not isinstance(targets, list)
        or len(targets) != count
        or not all(isinstance(t, int) and not isinstance(t, bool) for t in targets)
    ):
        raise IllegalAction("bad_request", f"'targets' must list {count} seat number(s).")
    return targets


def moved(state: State, moves: dict[str, int]) -> tuple[Holding, ...]:
    """The holdings with some cards under another seat: `moves` is {card: its new seat}."""
    return tuple(
        evolve(h, seat=moves[h.card]) if h.card in moves else h for h in data_of(state).holdings
    )


def discard_card(state: State, card: str) -> State:
    holdings = tuple(
        evolve(h, discarded=True) if h.card == card else h for h in data_of(state).holdings
    )
    return update(state, holdings=holdings)


def bangle_partner(state: State, card: str) -> int | None:
    other = next(
        (
            h
            for h in data_of(state).holdings
            if kind(h.card) == RelicId.BANGLE_OF_OATHS and h.card != card
        ),
        None,
    )
    if other is None or other.discarded or not state.player(other.seat).alive:
        return None
    return other.seat


def open_choice(
    state: State,
    relic: str,
    seat: int,
    targets: list[int],
    now: float,
    card: str | None = None,
    key: tuple[str | int, ...] | None = None,
):
    key = key or idol_key(card, seat)
    choice = Choice(relic, seat, tuple(targets), card, key)
    state = update(state, choice=choice, offered=(*data_of(state).offered, key))
    return evolve(state, phase=CHOICE, deadline=now + state.options.timers.choice), [], True


def close_choice(state: State, choice: Choice, declined: bool) -> State:
    return evolve(update(state, choice=None), phase=DINING, deadline=None)
