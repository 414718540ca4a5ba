"""The pre- and post-mingling windows (R10.3), the last call after the reveal and the Scales' window
on a Dining tie (R11 amended), and what each relic does when its holder uses it."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.engine import dining, ties
from games.engine.common import private, public
from games.engine.errors import IllegalAction
from games.engine.offers import offer
from games.engine.state import (
    Action,
    Placement,
    State,
    evolve,
)
from games.engine.vocabulary import ActionName, EventKind, RelicId, TieKind

from .cards import BY_ID, CHOICE, MARKED, PRE, WINDOW, Stage, kind
from .holdings import (
    Copy,
    KeyUse,
    Marker,
    Negation,
    Window,
    acting_as,
    active_cards,
    bangle_partner,
    cards_of,
    close_choice,
    close_window,
    data_of,
    discard_card,
    holder,
    is_active,
    moved,
    open_window,
    seat_targets,
    update,
    used,
)
from .passives import blood, blood_at_any_time


def next_window(state: State, board: tuple[str, ...], now: float):
    if state.round == 1 or state.three_living or not data_of(state).distributed:
        return None
    state = _new_round(state)
    done = data_of(state).done
    stage = Stage.PRE if board is PRE else Stage.POST
    for relic in board:
        for seat in sorted(state.living):
            for card in cards_of(state, seat):
                spent = used(card, stage) in done
                if acting_as(state, card) != relic or spent or not is_active(state, card):
                    continue
                if relic == RelicId.BANGLE_OF_OATHS and (
                    kind(card) != relic or bangle_partner(state, card) is None
                ):
                    continue  # a copied Bangle does nothing; a Bangle needs a living partner
                return open_window(state, card, relic, stage, now)
    return None


def last_call(state: State, now: float):
    """R11 amended: right after the reveal, before anything is counted, each living holder of
    Blood of the One may still use it (a timed window, once a round)."""
    if state.three_living or not data_of(state).distributed:
        return None
    done = data_of(state).done
    for card in active_cards(state, RelicId.BLOOD_OF_THE_ONE):
        if used(card, Stage.REVEAL) not in done:
            return open_window(state, card, RelicId.BLOOD_OF_THE_ONE, Stage.REVEAL, now)
    return None


def scales_window(state: State, now: float):
    """R11 amended: a tie for the most Stakes or Feasts arises; before its vote opens, each living
    Scales of Justice holder gets a timed window on it (decide or pass), once per tie."""
    tie = state.tie
    if tie.kind not in (TieKind.ELIMINATION, TieKind.ELECTION) or state.three_living:
        return None
    done = data_of(state).done
    for card in active_cards(state, RelicId.SCALES_OF_JUSTICE):
        if used(card, f"{Stage.TIE}:{tie.kind}") in done:
            continue
        seat = holder(state, card)
        how = "choose the outcome" if seat in tie.candidates else "discard them to decide it"
        event = public(
            state,
            EventKind.RELIC_SCALES,
            f"{{candidates:Seats}} are tied for {ties.KIND_WORDS[tie.kind]}: "
            f"{{seat:seat}} may {how} with the Scales of Justice before anyone votes (R11).",
            seat=seat,
            kind=tie.kind,
            candidates=list(tie.candidates),
        )
        return open_window(state, card, RelicId.SCALES_OF_JUSTICE, Stage.TIE, now, [event])
    return None


def _new_round(state: State) -> State:
    """Forget last round's used windows (and discard stale per-round data)."""
    if data_of(state).done_round == state.round:
        return state
    return update(state, done=(), done_round=state.round)


def pass_window(state: State, action: Action):
    data = data_of(state)
    if state.phase == WINDOW and data.window.seat == action.seat:
        return close_window(state, data.window.card), [], False
    if state.phase == CHOICE and data.choice.seat == action.seat:
        return close_choice(state, data.choice, declined=True), [], False
    raise IllegalAction("wrong_phase", "You have nothing to pass on now.")


def use_options(state: State, window: Window, seat: int) -> dict[str, Any] | None:
    """The options of `use_relic` in this window (games/engine/offers.py), built from the checks
    the relic's effect makes; None when no use is legal (the holder may only pass)."""
    relic, card = window.as_, window.card
    living = list(state.living)
    if relic in MARKED:  # R10.2a: the cards are face-up, so each seat's targetable ones are named
        seats = state.ghosts if relic == RelicId.HINDSIGHT_LOOKING_GLASS else living
        cards = {s: _target_cards(state, relic, s, card) for s in seats}
        targets = [s for s in seats if cards[s]]
        by_seat = {str(s): [kind(c) for c in cards[s]] for s in targets}
        return _use(relic, targets, cards_by_seat=by_seat) if targets else None
    if relic == RelicId.WHISPER_WICK_CANDLE:
        legal = candle_moves(state, seat, card)
        if not legal:
            return None
        owners: dict[str, set[int]] = {}
        for m in legal:
            for s, o in zip(m["targets"], m["owners"], strict=True):
                owners.setdefault(str(s), set()).add(o)
        by_seat = {k: sorted(v) for k, v in sorted(owners.items(), key=lambda i: int(i[0]))}
        targets = sorted(map(int, by_seat))
        # `count` and `owners_by_seat` are the older, looser form of `moves`.
        return _use(relic, targets, 2, moves=legal, count=2, owners_by_seat=by_seat)
    if relic == RelicId.BANGLE_OF_OATHS:
        legal = bangle_moves(state, seat, card)
        if not legal:
            return None
        owners = sorted({o for m in legal for o in m["owners"]})
        return _use(relic, (), 0, moves=legal, owners=owners, partner=bangle_partner(state, card))
    if relic in (RelicId.KEY_OF_QUICK_PASSAGE,):
        return _use(relic, (), 0)
    if relic == RelicId.SCALES_OF_JUSTICE:
        tied = list(state.tie.candidates)
        return _use(relic, tied, discard=seat not in state.tie.candidates)
    return _use(relic, living) if living else None


def _use(relic: str, targets, n: int = 1, **extra) -> dict[str, Any]:
    return offer(ActionName.USE_RELIC, targets, min=n, relic=relic, **extra)["options"]


def candle_moves(state: State, seat: int, card: str) -> list[dict[str, list[int]]]:
    """Every swap the Whisper-Wick Candle may make now (seat a < seat b): the ones
    `_candle_move` accepts."""
    on: dict[int, list[int]] = {}
    for p in state.placements:
        if state.player(p.target).alive and p.owner not in on.get(p.target, ()):
            on.setdefault(p.target, []).append(p.owner)
    out = []
    seats = sorted(on)
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            for oa in sorted(on[a]):
                for ob in sorted(on[b]):
                    args = {"targets": [a, b], "owners": [oa, ob]}
                    if _legal(_candle_move, state, seat, args):
                        out.append(args)
    return out


def bangle_moves(state: State, seat: int, card: str) -> list[dict[str, list[int]]]:
    """Every set of 1 or 2 token owners the Bangle of Oaths may move from `seat` now: the ones
    `_bangle_move` accepts."""
    if bangle_partner(state, card) is None:
        return []
    owners = sorted({p.owner for p in state.placements if p.target == seat})
    out = []
    for n in (1, 2):
        for chosen in combinations(owners, n):
            args = {"owners": list(chosen)}
            if _legal(_bangle_move, state, seat, args, card):
                out.append(args)
    return out


def _legal(check, state: State, seat: int, args: dict, *more) -> bool:
    """Whether `check` (the move's own check) accepts `args`: what is offered is exactly what
    is taken."""
    try:
        check(state, Action(ActionName.USE_RELIC, seat, args), seat, *more)
    except IllegalAction:
        return False
    return True


def _target_cards(state: State, relic: str, seat: int, own_card: str) -> list[str]:
    """The cards at `seat` this relic may target (R10.4 marker, R11 Crown, R10.5 discards)."""
    marker = data_of(state).markers.get(relic)
    ghost = not state.player(seat).alive
    cards = cards_of(state, seat, discarded=ghost and relic == RelicId.HINDSIGHT_LOOKING_GLASS)
    out = []
    for c in cards:
        if c == own_card:
            continue
        if marker and marker.card == c and marker.round == state.round - 1:
            continue
        if relic == RelicId.SIGNET_RING and kind(c) == RelicId.CROWN_OF_SOLOMON:
            continue
        if relic == RelicId.HINDSIGHT_LOOKING_GLASS and kind(c) == RelicId.HINDSIGHT_LOOKING_GLASS:
            continue
        out.append(c)
    return out


def use_relic(state: State, action: Action, now: float):
    relic = action.args.get("relic")
    data = data_of(state)
    seat = action.seat
    window = data.window if state.phase == WINDOW else None
    own = window is not None and window.seat == seat and window.as_ == relic
    if relic == RelicId.BLOOD_OF_THE_ONE and not own:
        return blood_at_any_time(state, seat, action)
    if window is None or window.seat != seat:
        raise IllegalAction("wrong_phase", "It is not your relic's window (R10.3).")
    if relic != window.as_:
        raise IllegalAction("bad_request", f"The open window is for {BY_ID[window.as_].the_name}.")
    card = window.card
    handler = WINDOW_EFFECTS[relic]
    state, events, paused = handler(state, seat, card, action, now)
    return state, events, paused


def _pick_card(state: State, relic: str, seat: int, own: str, action: Action) -> str:
    cards = _target_cards(state, relic, seat, own)
    wanted = action.args.get("card")
    if wanted is not None:
        cards = [c for c in cards if kind(c) == wanted]
    if not cards:
        raise IllegalAction(
            "illegal_target",
            "That relic cannot be targeted (not the same one two rounds running, R10.4).",
        )
    return cards[0]


def _mark(state: State, relic: str, card: str) -> State:
    markers = {**data_of(state).markers, relic: Marker(card, state.round)}
    return update(state, markers=markers)


def _bell(state, seat, card, action, now):
    (target,) = seat_targets(action, 1)
    if target not in state.living:
        raise IllegalAction("illegal_target", "The Ritual Bell targets a living player's relic.")
    hit = _pick_card(state, RelicId.RITUAL_BELL, target, card, action)
    state = _mark(state, RelicId.RITUAL_BELL, hit)
    state = update(state, negated=(*data_of(state).negated, Negation(hit, state.round)))
    events = [
        public(
            state,
            EventKind.RELIC_USED,
            f"{{seat:Seat}} rings the Ritual Bell: {{target:seat}}'s {BY_ID[kind(hit)].bare_name} "
            "is negated this round.",
            relic=RelicId.RITUAL_BELL,
            seat=seat,
            target=target,
            affects=kind(hit),
        )
    ]
    events.append(
        private(
            state,
            [target],
            EventKind.RELIC_NEGATED,
            f"Your {BY_ID[kind(hit)].bare_name} is negated this round.",
            relic=kind(hit),
        )
    )
    return close_window(state, card), events, False


def _ring(state, seat, card, action, now):
    (target,) = seat_targets(action, 1)
    if target not in state.living:
        raise IllegalAction("illegal_target", "The Signet Ring targets a living player's relic.")
    hit = _pick_card(state, RelicId.SIGNET_RING, target, card, action)
    state = _mark(state, RelicId.SIGNET_RING, hit)
    state = update(state, holdings=moved(state, {card: target, hit: seat}))
    events = [
        public(
            state,
            EventKind.RELIC_USED,
            f"{{seat:Seat}}'s Signet Ring swaps with {{target:seat}}'s "
            f"{BY_ID[kind(hit)].bare_name}.",
            relic=RelicId.SIGNET_RING,
            seat=seat,
            target=target,
            affects=kind(hit),
        )
    ]
    events.append(
        private(
            state,
            [seat],
            EventKind.RELIC_RECEIVED,
            f"You now hold {BY_ID[kind(hit)].the_name}.",
            relics=[kind(hit)],
            giver=target,
        )
    )
    events.append(
        private(
            state,
            [target],
            EventKind.RELIC_RECEIVED,
            f"You now hold {BY_ID[kind(card)].the_name}.",
            relics=[kind(card)],
            giver=seat,
        )
    )
    return close_window(state, card), events, False


def _hindsight(state, seat, card, action, now):
    (target,) = seat_targets(action, 1)
    if target not in state.ghosts:
        raise IllegalAction(
            "illegal_target", "The Hindsight Looking Glass copies a Ghost's relic (R11)."
        )
    copied = _pick_card(state, RelicId.HINDSIGHT_LOOKING_GLASS, target, card, action)
    state = _mark(state, RelicId.HINDSIGHT_LOOKING_GLASS, copied)
    relic = kind(copied)
    state = update(state, copy=Copy(state.round, relic, copied))
    events = [
        public(
            state,
            EventKind.RELIC_USED,
            f"{{seat:Seat}}'s Hindsight Looking Glass copies {{target:seat}}'s "
            f"{BY_ID[relic].bare_name}.",
            relic=RelicId.HINDSIGHT_LOOKING_GLASS,
            seat=seat,
            target=target,
            affects=relic,
        )
    ]
    if relic in (RelicId.RITUAL_BELL, RelicId.SIGNET_RING):  # earlier in the order: it acts at once
        state = update(state, window=evolve(data_of(state).window, as_=relic))
        return evolve(state, deadline=now + state.options.timers.relic), events, True
    return close_window(state, card), events, False


def _candle(state, seat, card, action, now):
    return _tokens_moved(state, card, *_candle_move(state, action, seat))


def _candle_move(state: State, action: Action, seat: int):
    """The Candle's swap as (the tokens left, the tokens moved, the line and its data), or
    IllegalAction:
    the one check of both the move and its offer (`candle_moves`)."""
    a, b = seat_targets(action, 2)
    owners = action.args.get("owners") or []
    if not isinstance(owners, list) or len(owners) != 2 or a == b:
        raise IllegalAction(
            "bad_request",
            "Name two seats in 'targets' and the owner of the token on each in 'owners'.",
        )
    oa, ob = owners
    placements = list(state.placements)
    ia = next((i for i, p in enumerate(placements) if p.target == a and p.owner == oa), None)
    ib = next((i for i, p in enumerate(placements) if p.target == b and p.owner == ob), None)
    if ia is None or ib is None:
        raise IllegalAction("illegal_target", "Choose a token placed on each of the two seats.")
    pa, pb = placements[ia], placements[ib]
    rest = [p for i, p in enumerate(placements) if i not in (ia, ib)]  # by place: equal ones too
    moved = [Placement(oa, b, pa.token), Placement(ob, a, pb.token)]
    _check_token_rules(state, rest, moved)
    text = "{seat:Seat}'s Whisper-Wick Candle swaps a token between {targets:seats}."
    data = {"relic": RelicId.WHISPER_WICK_CANDLE, "seat": seat, "targets": [a, b], "moved": 2}
    return rest, moved, text, data


def _bangle(state, seat, card, action, now):
    return _tokens_moved(state, card, *_bangle_move(state, action, seat, card))


def _bangle_move(state: State, action: Action, seat: int, card: str):
    """The Bangle's move as (the tokens left, the tokens moved, the line and its data), or
    IllegalAction:
    the one check of both the move and its offer (`bangle_moves`)."""
    partner = bangle_partner(state, card)
    if partner is None:
        raise IllegalAction("illegal_target", "The other Bangle of Oaths has no living holder.")
    owners = action.args.get("owners") or []
    if not isinstance(owners, list) or len(owners) > 2 or len(set(owners)) != len(owners):
        raise IllegalAction("bad_request", "Name up to 2 token owners in 'owners'.")
    if not owners:  # moving nothing is passing
        raise IllegalAction("illegal_target", "Name 1 or 2 token owners, or pass to move none.")
    placements = list(state.placements)
    # One token of each owner named: of a Dagger's two Stakes on this seat, the first (both are
    # Stakes, so which one tells nothing).
    first = {}
    for i, p in enumerate(placements):
        if p.target == seat:
            first.setdefault(p.owner, i)
    taken = [first[o] for o in owners if o in first]
    if len(taken) != len(owners):
        raise IllegalAction("illegal_target", "Move only tokens that lie on your own seat.")
    moving = [placements[i] for i in taken]
    rest = [p for i, p in enumerate(placements) if i not in taken]  # by place: equal tokens too
    moved = [Placement(p.owner, partner, p.token) for p in moving]
    _check_token_rules(state, rest, moved)
    count = f"{len(moved)} token" + ("s" if len(moved) != 1 else "")
    text = f"{{seat:Seat}}'s Bangle of Oaths moves {count} to {{target:seat}}."
    data = {"relic": RelicId.BANGLE_OF_OATHS, "seat": seat, "target": partner, "moved": len(moved)}
    return rest, moved, text, data


def _tokens_moved(state, card, rest, moved, text, data):
    """The Candle's and the Bangle's end (their tokens checked): the table is told, and the
    window closes."""
    state = evolve(state, placements=tuple(rest + moved))
    return close_window(state, card), [public(state, EventKind.RELIC_USED, text, **data)], False


def _key(state, seat, card, action, now):
    state = discard_card(state, card)
    state = update(state, key_used=(*data_of(state).key_used, KeyUse(seat, state.round)))
    events = [
        public(
            state,
            EventKind.RELIC_USED,
            "{seat:Seat} uses the Key of Quick Passage: their tokens are ignored.",
            relic=RelicId.KEY_OF_QUICK_PASSAGE,
            seat=seat,
        )
    ]
    return close_window(state, card), events, False


def _blood_window(state, seat, card, action, now):
    state, events = blood(state, seat, card, seat_targets(action, 1), [])
    if data_of(state).window is not None:  # else the death already closed it
        state = close_window(state, card)
    return state, events, False


def _scales(state, seat, card, action, now):
    """R11: settle the Dining tie whose window is open: a tied holder chooses the outcome and keeps
    the Scales; any other holder discards them to decide it."""
    tie = state.tie
    (winner,) = seat_targets(action, 1)
    if winner not in tie.candidates:
        raise IllegalAction("illegal_target", "Choose one of the tied players.")
    state = close_window(state, card)
    kept = seat in tie.candidates
    if kept:
        text = "{seat:Seat} holds the Scales of Justice and settles the tie: {target:seat}."
    else:
        state = discard_card(state, card)
        text = "{seat:Seat} discards the Scales of Justice to settle the tie: {target:seat}."
    data = {"relic": RelicId.SCALES_OF_JUSTICE, "seat": seat, "target": winner, "kept": kept}
    events = [public(state, EventKind.RELIC_USED, text, **data)]
    state, resolution = ties.settled(state, tie, winner, RelicId.SCALES_OF_JUSTICE, events)
    return dining.settle(state, resolution, events, now), events, False


WINDOW_EFFECTS = {
    RelicId.RITUAL_BELL: _bell,
    RelicId.SIGNET_RING: _ring,
    RelicId.HINDSIGHT_LOOKING_GLASS: _hindsight,
    RelicId.WHISPER_WICK_CANDLE: _candle,
    RelicId.BANGLE_OF_OATHS: _bangle,
    RelicId.KEY_OF_QUICK_PASSAGE: _key,
    RelicId.BLOOD_OF_THE_ONE: _blood_window,
    RelicId.SCALES_OF_JUSTICE: _scales,
}


def _check_token_rules(state: State, rest: list[Placement], moved: list[Placement]) -> None:
    """R11 ruling: a move may not put a token on its own owner, nor two of one owner's tokens on
    one seat, nor on a Ghost. Amended: the Ceremonial Dagger's exception is for its holder's own
    placing only; a move never stacks, so that no refusal depends on what a token is (R3.2: the
    types are hidden until Dining). Every check here reads only what the table sees: who placed
    a token on whom, who lives."""
    for p in moved:
        if p.owner == p.target:
            raise IllegalAction(
                "illegal_target", "A token may not end on its own owner's seat (R11)."
            )
        if not state.player(p.target).alive:
            raise IllegalAction("illegal_target", "Tokens lie only on living players (R7.1).")
        if any(q is not p and q.owner == p.owner and q.target == p.target for q in rest + moved):
            raise IllegalAction(
                "illegal_target", "Two of one owner's tokens may not share a seat (R3.1, R11)."
            )
