"""Sacred Relics (R10–R11, game option `relics`): the 16 cards and their rulings, plugged into
the pure rules engine through its hook points (games/engine/hooks.py). Standard library only.

The module's data lives in `state.ext["relics"]`: who holds which card, the draw pile, the
marker tokens, what is negated, the open window or choice. Holders are secret: the public view
names the relics in play, never who holds them, unless an effect tells the table.

Rulings where R10/R11 and the glossary are silent (the project's own):
- A seat may hold several cards (False Idol hand-over, Heirloom). A relic that targets "a
  player's relic" takes `card` (a relic id) when that player holds several; else their first.
- Windows of the same slot (the two Bangles) open in seat order.
- The Ritual Bell, Signet Ring and Hindsight Looking Glass say which card, not only which seat,
  so their marker rule (R10.4) follows the card wherever it goes.
- A Hindsight copy of the False Idol gives its automatic Stake but no hand-over (the Glass is not
  the Idol); a copy of the Bangle does nothing (glossary).
- Key of Quick Passage ignores placed tokens on your seat (Investigation included); automatic
  votes (unplaced tokens, the False Idol, Last Wills) still count.
- Van Helsing's Journal and the False Idol hand-over are optional: a timed choice; silence declines.
- Blood of the One: the victim's Last Will is drawn when Dining opens, before anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import dining, hooks, last_wills, mingling, ties
from games.engine.common import draw_rng, private, public
from games.engine.errors import IllegalAction
from games.engine.state import (
    DOUBLE_STAKE,
    MINGLING,
    STAKE,
    TIEBREAK,
    Action,
    Outcome,
    Placement,
    State,
    evolve,
)
from games.engine.table import on_vampire_side

GIVING = "give_relic"  # phase: a player gives the relic they drew (R10.2)
WINDOW = "relic_window"  # phase: one holder's pre/post-mingling window (R10.3)
CHOICE = "relic_choice"  # phase: an optional passive choice (Van Helsing, False Idol)


@dataclass(frozen=True)
class Relic:
    id: str
    name: str
    kind: str  # "pre" | "post" | "passive"
    text: str
    copies: int = 1


RELICS = (
    Relic("ritual_bell", "Ritual Bell", "pre", "Negate one living player's relic this round."),
    Relic("signet_ring", "Signet Ring", "pre", "Swap the Ring with a living player's relic."),
    Relic(
        "hindsight_looking_glass",
        "Hindsight Looking Glass",
        "pre",
        "Choose a Ghost's relic and act as it this round.",
    ),
    Relic(
        "whisper_wick_candle",
        "Whisper-Wick Candle",
        "post",
        "Swap one placed token between two living players' seats.",
    ),
    Relic(
        "bangle_of_oaths",
        "Bangle of Oaths",
        "post",
        "Move up to 2 tokens from your seat to the other Bangle holder's. If one holder dies, "
        "so does the other.",
        copies=2,
    ),
    Relic(
        "key_of_quick_passage",
        "Key of Quick Passage",
        "post",
        "Discard: ignore every token on your seat this round, Investigation included.",
    ),
    Relic(
        "blood_of_the_one",
        "Blood of the One",
        "post",
        "During Mingling, discard and name a living player: if Mesmerized, they die.",
    ),
    Relic(
        "ceremonial_dagger",
        "Ceremonial Dagger",
        "passive",
        "Both your Stakes may go on one player.",
    ),
    Relic(
        "seers_orb",
        "Seer's Orb",
        "passive",
        "Vote in Ghostly Intervention while alive; you decide its ties.",
    ),
    Relic(
        "effigy_of_innocence",
        "Effigy of Innocence",
        "passive",
        "You cannot be investigated or examined; 1 fewer Stake vote.",
    ),
    Relic(
        "false_idol",
        "The False Idol",
        "passive",
        "1 automatic Stake vote each Dining. When killed, you may give it to a living player.",
    ),
    Relic(
        "scales_of_justice",
        "Scales of Justice",
        "passive",
        "Tied for most Stakes or Feasts: you choose. Or discard it to decide any one Dining tie.",
    ),
    Relic(
        "crown_of_solomon", "Crown of Solomon", "passive", "You cannot be Mesmerized or swapped."
    ),
    Relic(
        "van_helsings_journal",
        "Van Helsing's Journal",
        "passive",
        "After an elimination, if none of your Stakes is on that seat, examine their role.",
    ),
    Relic(
        "cross_of_saint_john",
        "Cross of Saint John",
        "passive",
        "Killed in Dining with at least half the Stakes from Vampires: the Hunters win.",
    ),
)
BY_ID = {r.id: r for r in RELICS}
PRE = ("ritual_bell", "signet_ring", "hindsight_looking_glass")  # R10.1 board order
POST = ("whisper_wick_candle", "bangle_of_oaths", "key_of_quick_passage", "blood_of_the_one")
MARKED = ("ritual_bell", "signet_ring", "hindsight_looking_glass")  # R10.4
CARDS = tuple(
    f"{r.id}#{n}" if r.copies > 1 else r.id for r in RELICS for n in range(1, r.copies + 1)
)


def kind(card: str) -> str:
    """The relic a card is: "bangle_of_oaths#2" -> "bangle_of_oaths"."""
    return card.split("#")[0]


# --- the module's data -------------------------------------------------------------------------


def _data(state: State) -> dict:
    return state.ext.get("relics") or {
        "deck": [],
        "box": [],
        "holdings": [],
        "markers": {},
        "negated": [],
        "done": [],
        "copy": None,
        "window": None,
        "giving": None,
        "distributed": False,
        "key_used": [],
        "pending_deaths": [],
        "idol_handovers": 0,
        "offered": [],
        "choice": None,
        "public": [],
    }


def _update(state: State, **changes) -> State:
    return evolve(state, ext={**state.ext, "relics": {**_data(state), **changes}})


def cards_of(state: State, seat: int, *, discarded: bool = False) -> list[str]:
    return [
        h["card"]
        for h in _data(state)["holdings"]
        if h["seat"] == seat and (discarded or not h["discarded"])
    ]


def holder(state: State, card: str) -> int | None:
    return next((h["seat"] for h in _data(state)["holdings"] if h["card"] == card), None)


def _holding(state: State, card: str) -> dict | None:
    return next((h for h in _data(state)["holdings"] if h["card"] == card), None)


def negated(state: State, card: str) -> bool:
    return any(n["card"] == card and n["round"] == state.round for n in _data(state)["negated"])


def is_active(state: State, card: str) -> bool:
    """R10.3/R10.5/R9: only a living holder's card works, not discarded, not negated, and never
    in a three-living round."""
    h = _holding(state, card)
    return (
        h is not None
        and not state.three_living
        and not h["discarded"]
        and state.player(h["seat"]).alive
        and not negated(state, card)
    )


def acting_as(state: State, card: str) -> str:
    """What a card is this round: a Hindsight Looking Glass acts as the relic it copied."""
    copy = _data(state)["copy"]
    if kind(card) == "hindsight_looking_glass" and copy and copy["round"] == state.round:
        return copy["as"]
    return kind(card)


def has(state: State, seat: int, relic: str) -> bool:
    """Whether `seat` has an active card acting as `relic` this round."""
    return any(acting_as(state, c) == relic and is_active(state, c) for c in cards_of(state, seat))


def _with_card(state: State, relic: str) -> list[int]:
    return sorted({s for s in state.living if has(state, s, relic)})


# --- the module --------------------------------------------------------------------------------


class SacredRelics(hooks.Module):
    name = "relics"
    action_names = frozenset({"give_relic", "use_relic", "pass", "resolve_choice"})
    at_steps = frozenset(
        {"round_start", "pre_mingling", "post_mingling", "after_elimination", "round_end"}
    )

    def enabled(self, state: State) -> bool:
        return state.options.relics

    def owns(self, state: State, action: Action) -> bool:
        if action.name == "resolve_choice":
            return state.phase == CHOICE
        return action.name in self.action_names

    # -- flow steps --------------------------------------------------------------------------

    def at_step(self, state: State, step: str, now: float):
        if step == "round_start":
            return _deferred_deaths(state)
        if step in ("pre_mingling", "post_mingling"):
            return _next_window(state, PRE if step == "pre_mingling" else POST, now)
        if step == "after_elimination":
            return _offer_idol(state, now) or _offer_journal(state, now)
        if step == "round_end":
            if state.round == 1 and not _data(state)["distributed"]:
                return _distribution_turn(state, now)
            return _offer_idol(state, now)
        return None

    def act(self, state: State, action: Action, now: float):
        if action.name == "give_relic":
            return _give(state, action, now)
        if action.name == "pass":
            return _pass(state, action)
        if action.name == "resolve_choice":
            return _resolve_choice(state, action)
        return _use(state, action, now)

    def timeout(self, state: State, now: float):
        data = _data(state)
        if state.phase == GIVING:
            rng, state = draw_rng(state)
            giving = _data(state)["giving"]
            card = rng.choice(giving["drawn"])
            target = rng.choice(_give_targets(state))
            events = [public(state, "relic_timeout", "Time is up: the relic is given at random.")]
            return _hand_over(state, giving, card, target, events, now)
        if state.phase == WINDOW:
            window = data["window"]
            events = [
                public(state, "relic_timeout", f"Time is up for the {BY_ID[window['as']].name}.")
            ]
            return _close_window(state, window["card"]), events, False
        if state.phase == CHOICE:
            return _close_choice(state, data["choice"], declined=True), [], False
        return None

    # -- what players see and may do --------------------------------------------------------

    def pending(self, state: State, seat: int) -> list[dict[str, Any]]:
        data = _data(state)
        if state.phase == GIVING and data["giving"] and _giver(data) == seat:
            options = {"targets": _give_targets(state)}
            if len(data["giving"]["drawn"]) > 1:
                options["cards"] = [kind(c) for c in data["giving"]["drawn"]]
            return [{"action": "give_relic", "options": options}]
        if state.phase == WINDOW and data["window"]["seat"] == seat:
            window = data["window"]
            use = {"relic": window["as"], **_use_options(state, window["as"], seat, window["card"])}
            return [{"action": "use_relic", "options": use}, {"action": "pass", "options": {}}]
        if state.phase == CHOICE and data["choice"]["seat"] == seat:
            choice = data["choice"]
            return [
                {
                    "action": "resolve_choice",
                    "options": {
                        "choice": choice["relic"],
                        "targets": choice["targets"],
                        "count": 1,
                    },
                },
                {"action": "pass", "options": {}},
            ]
        actions = []
        if state.phase == MINGLING and has(state, seat, "blood_of_the_one"):
            actions.append(
                {
                    "action": "use_relic",
                    "options": {"relic": "blood_of_the_one", "targets": list(state.living)},
                }
            )
        tie = state.tie
        if (
            state.phase == TIEBREAK
            and tie.kind in ("elimination", "election")
            and tie.decider != seat
        ):
            if has(state, seat, "scales_of_justice"):
                actions.append(
                    {
                        "action": "use_relic",
                        "options": {"relic": "scales_of_justice", "targets": list(tie.candidates)},
                    }
                )
        return actions

    def hides_waiting(self, state: State, seat: int, viewer: int | None) -> bool:
        """Whose relic window or choice is open tells who holds which relic: only they know."""
        data = _data(state)
        if state.phase == WINDOW:
            return seat == data["window"]["seat"] and viewer != seat
        if state.phase == CHOICE:
            return seat == data["choice"]["seat"] and viewer != seat
        return False

    def waiting(self, state: State) -> set[int]:
        data = _data(state)
        if state.phase == GIVING and data["giving"]:
            return {_giver(data)}
        if state.phase == WINDOW:
            return {data["window"]["seat"]}
        if state.phase == CHOICE:
            return {data["choice"]["seat"]}
        return set()

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        data = _data(state)
        window = data["window"] if state.phase == WINDOW else None
        giving = data["giving"] if state.phase == GIVING else None
        out = {
            "relics": {
                "in_play": sorted(BY_ID[kind(h["card"])].name for h in data["holdings"]),
                "window": {
                    "relic": window["as"],
                    "stage": window["stage"],
                    "deadline": state.deadline,
                }
                if window
                else None,
                "giver": _giver(data) if giving else None,
                "public": data["public"],
            }
        }
        if seat is not None:
            mine = [
                {
                    "id": kind(c),
                    "name": BY_ID[kind(c)].name,
                    "text": BY_ID[kind(c)].text,
                    "negated": negated(state, c),
                    "discarded": _holding(state, c)["discarded"],
                    "acting_as": acting_as(state, c) if acting_as(state, c) != kind(c) else None,
                }
                for c in cards_of(state, seat, discarded=True)
            ]
            me = {"relic": mine[0] if mine else None, "relics": mine}
            if giving and _giver(data) == seat:
                me["drawn"] = [
                    {"id": kind(c), "name": BY_ID[kind(c)].name} for c in giving["drawn"]
                ]
            out["me"] = me
        return out

    # -- passive relics --------------------------------------------------------------------

    def may_stack(self, state: State, owner: int, token: str) -> bool:
        return token == STAKE and has(state, owner, "ceremonial_dagger")

    def adjust_tally(self, state: State, kind_: str, tally: dict[int, int]) -> dict[int, int]:
        if kind_ != STAKE:
            return tally
        tally = dict(tally)
        for seat in tally:
            if has(state, seat, "false_idol"):
                tally[seat] += 1
            if has(state, seat, "effigy_of_innocence"):
                tally[seat] = max(0, tally[seat] - 1)
        return tally

    def blocks_examination(self, state: State, examiner: int, target: int) -> bool:
        return has(state, target, "effigy_of_innocence")

    def resists_mesmerism(self, state: State, seat: int) -> bool:
        return has(state, seat, "crown_of_solomon")

    def ignores_tokens(self, state: State, seat: int) -> bool:
        return any(
            k["seat"] == seat and k["round"] == state.round for k in _data(state)["key_used"]
        )

    def optional_intervention_voters(self, state: State) -> tuple[int, ...]:
        if not state.ghosts or state.three_living:
            return ()
        return tuple(_with_card(state, "seers_orb"))

    def decide_tie(self, state: State, kind_: str, tied: tuple[int, ...]) -> int | None:
        if kind_ == "intervention":
            orbs = _with_card(state, "seers_orb")
            return orbs[0] if orbs else None
        if kind_ in ("elimination", "election"):
            scales = [s for s in _with_card(state, "scales_of_justice") if s in tied]
            return scales[0] if scales else None
        return None

    # -- what Last Will cards ask of the relics (R13: Heirloom, Shattered, Sealed Reliquary) ---

    def holds_active_relic(self, state: State, seat: int) -> bool:
        return bool(cards_of(state, seat))

    def give_away(self, state: State, seat: int, target: int, events: list) -> State:
        mine = set(cards_of(state, seat))
        if not mine:
            return state
        holdings = [
            {**h, "seat": target} if h["card"] in mine else h for h in _data(state)["holdings"]
        ]
        events.append(
            private(
                state, [target], "relic_received", "You receive a Sacred Relic, beside your own."
            )
        )
        return _update(state, holdings=holdings)

    def discard(self, state: State, seat: int, events: list) -> State:
        for card in cards_of(state, seat):
            state = _discard(state, card)
        return state

    def negate_next_round(self, state: State, seat: int, events: list) -> State:
        negations = [{"card": c, "round": state.round + 1} for c in cards_of(state, seat)]
        return _update(state, negated=_data(state)["negated"] + negations)

    def on_eliminated(self, state: State, seat: int, cause: str, events: list) -> State:
        if state.three_living:
            return state
        state = _cross(state, seat, cause, events)
        return _bangle_link(state, seat, events)


MODULE = hooks.register(SacredRelics())


# --- distribution after round 1 (R10.2) -------------------------------------------------------


def _distribution_turn(state: State, now: float):
    data = _data(state)
    if data["giving"] is None:
        state = _draw_for_giver(_start_distribution(state))
        data = _data(state)
    giving = data["giving"]
    if giving["index"] >= len(giving["order"]):
        return _after_distribution(state)
    return evolve(state, phase=GIVING, deadline=now + state.options.timers.relic), [], True


def _start_distribution(state: State) -> State:
    deck = [c for c in state.options.relic_deck if c in BY_ID]
    pile = list(CARDS)
    chosen = []
    for relic in deck:  # staff-fixed order first, by relic id (a second Bangle takes its #2)
        card = next((c for c in pile if kind(c) == relic), None)
        if card:
            pile.remove(card)
            chosen.append(card)
    rng, state = draw_rng(state)
    rng.shuffle(pile)
    alpha = state.dining.alpha_elected or 1  # R10.2 ruling: seat 1 if nobody was elected
    n = len(state.players)
    order = [(alpha - 1 + i) % n + 1 for i in range(n)]
    state = _update(state, deck=chosen + pile)
    return _update(state, giving={"order": order, "index": 0, "drawn": []})


def _giver(data: dict) -> int:
    giving = data["giving"]
    return giving["order"][giving["index"]]


def _draw_for_giver(state: State) -> State:
    data = _data(state)
    giving = dict(data["giving"])
    if giving["drawn"]:
        return state
    last = giving["index"] == len(giving["order"]) - 1
    deck = list(data["deck"])
    giving["drawn"] = deck[:2] if last else deck[:1]
    return _update(state, deck=deck[len(giving["drawn"]) :], giving=giving)


def _give_targets(state: State) -> list[int]:
    """R10.2: another player who has none; never leaving the last giver as the only one without."""
    data = _data(state)
    order = data["giving"]["order"]
    giver, last = _giver(data), order[-1]
    without = [s for s in order if not cards_of(state, s, discarded=True)]
    options = [t for t in without if t != giver]
    if giver != last:
        options = [t for t in options if [s for s in without if s != t] != [last]]
    return options


def _give(state: State, action: Action, now: float):
    if state.phase != GIVING:
        raise IllegalAction("wrong_phase", "Nobody is giving out Sacred Relics now.")
    data = _data(state)
    if action.seat != _giver(data):
        raise IllegalAction(
            "wrong_phase", f"It is seat {_giver(data)}'s turn to give a relic (R10.2)."
        )
    giving = data["giving"]
    target = action.args.get("target")
    if isinstance(target, bool) or not isinstance(target, int):
        raise IllegalAction("bad_request", "'target' must be a seat number.")
    if target not in _give_targets(state):
        raise IllegalAction(
            "illegal_target", "Give it to another player who has no relic yet (R10.2)."
        )
    card = giving["drawn"][0]
    if len(giving["drawn"]) > 1:
        wanted = action.args.get("card")
        picks = [c for c in giving["drawn"] if kind(c) == wanted]
        if not picks:
            raise IllegalAction(
                "bad_request", "Name the 'card' you give: one of the two you drew (R10.2)."
            )
        card = picks[0]
    return _hand_over(state, giving, card, target, [], now)


def _hand_over(state: State, giving: dict, card: str, target: int, events: list, now: float):
    giver = giving["order"][giving["index"]]
    others = [c for c in giving["drawn"] if c != card]
    data = _data(state)
    holdings = data["holdings"] + [{"card": card, "seat": target, "discarded": False}]
    state = _update(
        state,
        holdings=holdings,
        box=data["box"] + others,
        giving={**giving, "index": giving["index"] + 1, "drawn": []},
    )
    events.append(public(state, "relic_given", f"Seat {giver} has given a Sacred Relic."))
    events.append(
        private(state, [target], "relic_received", f"You receive the {BY_ID[kind(card)].name}.")
    )
    if _data(state)["giving"]["index"] < len(giving["order"]):
        state = _draw_for_giver(state)
        return evolve(state, deadline=now + state.options.timers.relic), events, True
    state, more, paused = _after_distribution(state)
    return state, events + more, paused


def _after_distribution(state: State):
    """R10.2: a lone Bangle of Oaths is discarded and its holder draws a replacement."""
    events: list = []
    data = _data(state)
    bangles = [h for h in data["holdings"] if kind(h["card"]) == "bangle_of_oaths"]
    holdings = data["holdings"]
    box = list(data["box"])
    deck = list(data["deck"])
    if len(bangles) == 1:
        lone = bangles[0]
        box += [lone["card"]] + [c for c in deck if kind(c) == "bangle_of_oaths"]
        deck = [c for c in deck if kind(c) != "bangle_of_oaths"]  # the other is not drawable
        replacement = deck.pop(0)
        holdings = [h for h in holdings if h is not lone] + [
            {"card": replacement, "seat": lone["seat"], "discarded": False}
        ]
        events.append(public(state, "relic_bangle", "A lone Bangle of Oaths goes back to the box."))
        events.append(
            private(
                state,
                [lone["seat"]],
                "relic_received",
                f"You receive the {BY_ID[kind(replacement)].name}.",
            )
        )
    state = _update(state, holdings=holdings, deck=deck, box=box, giving=None, distributed=True)
    events.append(public(state, "relics_ready", "Every player holds a Sacred Relic."))
    return evolve(state, phase="dining", deadline=None), events, False


# --- pre- and post-mingling windows (R10.3) -------------------------------------------------------


def _next_window(state: State, board: tuple[str, ...], now: float):
    if state.round == 1 or state.three_living or not _data(state)["distributed"]:
        return None
    state = _new_round(state)
    done = _data(state)["done"]
    for relic in board:
        for seat in sorted(state.living):
            for card in cards_of(state, seat):
                used = f"{card}@{'pre' if board is PRE else 'post'}" in done
                if acting_as(state, card) != relic or used or not is_active(state, card):
                    continue
                if relic == "bangle_of_oaths" and (
                    kind(card) != relic or _partner(state, card) is None
                ):
                    continue  # a copied Bangle does nothing; a Bangle needs a living partner
                return _open_window(state, card, relic, "pre" if board is PRE else "post", now)
    return None


def _open_window(state: State, card: str, relic: str, stage: str, now: float):
    window = {"card": card, "seat": holder(state, card), "as": relic, "stage": stage}
    state = _update(state, window=window)
    return evolve(state, phase=WINDOW, deadline=now + state.options.timers.relic), [], True


def _new_round(state: State) -> State:
    """Forget last round's used windows (and discard stale per-round data)."""
    data = _data(state)
    if data.get("done_round") == state.round:
        return state
    return _update(state, done=[], done_round=state.round)


def _close_window(state: State, card: str) -> State:
    """A card acts once a round in each stage it has a slot in (a Glass copying a post-mingling
    relic acts again after Mingling)."""
    data = _data(state)
    stage = data["window"]["stage"] if data["window"] else "pre"
    done = data["done"] + [f"{card}@{stage}"]
    return evolve(_update(state, window=None, done=done), phase="relics", deadline=None)


def _pass(state: State, action: Action):
    data = _data(state)
    if state.phase == WINDOW and data["window"]["seat"] == action.seat:
        return _close_window(state, data["window"]["card"]), [], False
    if state.phase == CHOICE and data["choice"]["seat"] == action.seat:
        return _close_choice(state, data["choice"], declined=True), [], False
    raise IllegalAction("wrong_phase", "You have nothing to pass on now.")


def _use_options(state: State, relic: str, seat: int, card: str) -> dict[str, Any]:
    living = list(state.living)
    if relic in ("ritual_bell", "signet_ring"):
        return {"targets": [s for s in living if _target_cards(state, relic, s, card)]}
    if relic == "hindsight_looking_glass":
        return {"targets": [g for g in state.ghosts if _target_cards(state, relic, g, card)]}
    if relic == "whisper_wick_candle":
        owners = {
            str(s): sorted(p.owner for p in state.placements if p.target == s) for s in living
        }
        owners = {k: v for k, v in owners.items() if v}
        return {"targets": sorted(map(int, owners)), "count": 2, "owners_by_seat": owners}
    if relic == "bangle_of_oaths":
        return {"owners": sorted({p.owner for p in state.placements if p.target == seat}), "max": 2}
    if relic in ("key_of_quick_passage",):
        return {}
    return {"targets": living}


def _target_cards(state: State, relic: str, seat: int, own_card: str) -> list[str]:
    """The cards at `seat` this relic may target (R10.4 marker, R11 Crown, R10.5 discards)."""
    data = _data(state)
    marker = data["markers"].get(relic)
    ghost = not state.player(seat).alive
    cards = cards_of(state, seat, discarded=ghost and relic == "hindsight_looking_glass")
    out = []
    for c in cards:
        if c == own_card:
            continue
        if marker and marker["card"] == c and marker["round"] == state.round - 1:
            continue
        if relic == "signet_ring" and kind(c) == "crown_of_solomon":
            continue
        if relic == "hindsight_looking_glass" and kind(c) == "hindsight_looking_glass":
            continue
        out.append(c)
    return out


def _use(state: State, action: Action, now: float):
    relic = action.args.get("relic")
    data = _data(state)
    seat = action.seat
    if relic == "blood_of_the_one" and state.phase == MINGLING:
        card = next(
            (
                c
                for c in cards_of(state, seat)
                if acting_as(state, c) == relic and is_active(state, c)
            ),
            None,
        )
        if card is None:
            raise IllegalAction("wrong_phase", "You hold no usable Blood of the One.")
        state, events, _ = _blood(state, seat, card, _targets(action, 1), [])
        if mingling.mingling_done(state):  # R3.3: the victim's tokens were the last ones
            events.append(
                public(state, "mingling_over", "Every token is placed: Mingling is over.")
            )
            state = evolve(state, deadline=None, step="post_mingling")
        return state, events, False
    if relic == "scales_of_justice" and state.phase == TIEBREAK:
        return _scales(state, seat, action)
    window = data["window"] if state.phase == WINDOW else None
    if window is None or window["seat"] != seat:
        raise IllegalAction("wrong_phase", "It is not your relic's window (R10.3).")
    if relic != window["as"]:
        raise IllegalAction(
            "bad_request", f"The open window is for the {BY_ID[window['as']].name}."
        )
    card = window["card"]
    handler = WINDOW_EFFECTS[relic]
    state, events, paused = handler(state, seat, card, action, now)
    return state, events, paused


def _targets(action: Action, count: int) -> list[int]:
    targets = action.args.get("targets") or []
    if (
        not isinstance(targets, list)
        or len(targets) != count
        or not all(isinstance(t, int) and not isinstance(t, bool) for t in targets)
    ):
        raise IllegalAction("bad_request", f"'targets' must list {count} seat number(s).")
    return targets


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
    markers = {**_data(state)["markers"], relic: {"card": card, "round": state.round}}
    return _update(state, markers=markers)


def _bell(state, seat, card, action, now):
    (target,) = _targets(action, 1)
    if target not in state.living:
        raise IllegalAction("illegal_target", "The Ritual Bell targets a living player's relic.")
    hit = _pick_card(state, "ritual_bell", target, card, action)
    state = _mark(state, "ritual_bell", hit)
    state = _update(state, negated=_data(state)["negated"] + [{"card": hit, "round": state.round}])
    events = [
        public(state, "relic_used", f"The Ritual Bell silences seat {target}'s relic this round.")
    ]
    events.append(
        private(
            state, [target], "relic_negated", f"Your {BY_ID[kind(hit)].name} is negated this round."
        )
    )
    return _close_window(state, card), events, False


def _ring(state, seat, card, action, now):
    (target,) = _targets(action, 1)
    if target not in state.living:
        raise IllegalAction("illegal_target", "The Signet Ring targets a living player's relic.")
    hit = _pick_card(state, "signet_ring", target, card, action)
    state = _mark(state, "signet_ring", hit)
    holdings = [
        {**h, "seat": target}
        if h["card"] == card
        else {**h, "seat": seat}
        if h["card"] == hit
        else h
        for h in _data(state)["holdings"]
    ]
    state = _update(state, holdings=holdings)
    events = [
        public(
            state,
            "relic_used",
            f"The Signet Ring swaps relics between two players, one at seat {target}.",
        )
    ]
    events.append(
        private(state, [seat], "relic_received", f"You now hold the {BY_ID[kind(hit)].name}.")
    )
    events.append(
        private(state, [target], "relic_received", f"You now hold the {BY_ID[kind(card)].name}.")
    )
    return _close_window(state, card), events, False


def _hindsight(state, seat, card, action, now):
    (target,) = _targets(action, 1)
    if target not in state.ghosts:
        raise IllegalAction(
            "illegal_target", "The Hindsight Looking Glass copies a Ghost's relic (R11)."
        )
    copied = _pick_card(state, "hindsight_looking_glass", target, card, action)
    state = _mark(state, "hindsight_looking_glass", copied)
    relic = kind(copied)
    state = _update(state, copy={"round": state.round, "as": relic, "card": copied})
    events = [
        public(state, "relic_used", f"The Hindsight Looking Glass copies the {BY_ID[relic].name}.")
    ]
    if relic in ("ritual_bell", "signet_ring"):  # earlier in the order: it acts at once
        state = _update(state, window={**_data(state)["window"], "as": relic})
        return evolve(state, deadline=now + state.options.timers.relic), events, True
    return _close_window(state, card), events, False


def _candle(state, seat, card, action, now):
    a, b = _targets(action, 2)
    owners = action.args.get("owners") or []
    if not isinstance(owners, list) or len(owners) != 2 or a == b:
        raise IllegalAction(
            "bad_request",
            "Name two seats in 'targets' and the owner of the token on each in 'owners'.",
        )
    oa, ob = owners
    placements = list(state.placements)
    pa = next((p for p in placements if p.target == a and p.owner == oa), None)
    pb = next((p for p in placements if p.target == b and p.owner == ob), None)
    if pa is None or pb is None:
        raise IllegalAction("illegal_target", "Choose a token placed on each of the two seats.")
    rest = [p for p in placements if p not in (pa, pb)]
    moved = [Placement(oa, b, pa.token), Placement(ob, a, pb.token)]
    _check_token_rules(state, rest, moved)
    state = evolve(state, placements=tuple(rest + moved))
    events = [
        public(
            state, "relic_used", f"The Whisper-Wick Candle swaps a token between seats {a} and {b}."
        )
    ]
    return _close_window(state, card), events, False


def _bangle(state, seat, card, action, now):
    partner = _partner(state, card)
    owners = action.args.get("owners") or []
    if not isinstance(owners, list) or len(owners) > 2 or len(set(owners)) != len(owners):
        raise IllegalAction("bad_request", "Name up to 2 token owners in 'owners'.")
    if not owners:  # moving nothing would only name the partner's seat to the table
        raise IllegalAction("illegal_target", "Name 1 or 2 token owners, or pass to move none.")
    placements = list(state.placements)
    moving = [p for p in placements if p.target == seat and p.owner in owners]
    if len(moving) != len(owners):
        raise IllegalAction("illegal_target", "Move only tokens that lie on your own seat.")
    rest = [p for p in placements if p not in moving]
    moved = [Placement(p.owner, partner, p.token) for p in moving]
    _check_token_rules(state, rest, moved)
    state = evolve(state, placements=tuple(rest + moved))
    events = [
        public(
            state,
            "relic_used",
            f"The Bangle of Oaths moves {len(moved)} token(s) to seat {partner}.",
        )
    ]
    return _close_window(state, card), events, False


def _key(state, seat, card, action, now):
    state = _discard(state, card)
    state = _update(
        state, key_used=_data(state)["key_used"] + [{"seat": seat, "round": state.round}]
    )
    events = [
        public(
            state,
            "relic_used",
            f"Seat {seat} uses the Key of Quick Passage: their tokens are ignored.",
        )
    ]
    return _close_window(state, card), events, False


def _blood_window(state, seat, card, action, now):
    state, events, _ = _blood(state, seat, card, _targets(action, 1), [])
    return _close_window(state, card), events, False


WINDOW_EFFECTS = {
    "ritual_bell": _bell,
    "signet_ring": _ring,
    "hindsight_looking_glass": _hindsight,
    "whisper_wick_candle": _candle,
    "bangle_of_oaths": _bangle,
    "key_of_quick_passage": _key,
    "blood_of_the_one": _blood_window,
}


def _check_token_rules(state: State, rest: list[Placement], moved: list[Placement]) -> None:
    """R11 ruling: a move may not put a token on its own owner, nor two of one owner's tokens on
    one seat (unless the owner's Dagger allows it), nor on a Ghost."""
    for p in moved:
        if p.owner == p.target:
            raise IllegalAction(
                "illegal_target", "A token may not end on its own owner's seat (R11)."
            )
        if not state.player(p.target).alive:
            raise IllegalAction("illegal_target", "Tokens lie only on living players (R7.1).")
        same = [q for q in rest + moved if q.owner == p.owner and q.target == p.target]
        dagger = (
            p.token == STAKE
            and all(q.token == STAKE for q in same)
            and has(state, p.owner, "ceremonial_dagger")
        )
        if len(same) > 1 and not dagger:
            raise IllegalAction(
                "illegal_target", "Two of one owner's tokens may not share a seat (R3.1, R11)."
            )


def _discard(state: State, card: str) -> State:
    holdings = [
        {**h, "discarded": True} if h["card"] == card else h for h in _data(state)["holdings"]
    ]
    return _update(state, holdings=holdings)


def _partner(state: State, card: str) -> int | None:
    other = next(
        (
            h
            for h in _data(state)["holdings"]
            if kind(h["card"]) == "bangle_of_oaths" and h["card"] != card
        ),
        None,
    )
    if other is None or other["discarded"] or not state.player(other["seat"]).alive:
        return None
    return other["seat"]


# --- passive effects with a moment of their own --------------------------------------------------


def _blood(state: State, seat: int, card: str, targets: list[int], events: list):
    """R11: discard, name a living player; the app tells whether they are Mesmerized; if so they
    die, their placed tokens this round are removed, and their Last Will is drawn as usual."""
    (target,) = targets
    if target not in state.living:
        raise IllegalAction("illegal_target", "Blood of the One names a living player.")
    state = _discard(state, card)
    mesmerized = state.player(target).mesmerized
    verdict = "is Mesmerized" if mesmerized else "is not Mesmerized"
    events.append(
        public(state, "relic_used", f"Blood of the One: seat {target} {verdict}.", target=target)
    )
    if not mesmerized:
        return state, events, False
    state = evolve(state, placements=tuple(p for p in state.placements if p.owner != target))
    if state.dining is not None:
        state = evolve(
            state,
            dining=evolve(
                state.dining, tokens=tuple(p for p in state.dining.tokens if p.owner != target)
            ),
        )
    state = dining.eliminate(state, target, events, cause="blood_of_the_one")
    return last_wills.owe(state, target), events, False


def _scales(state: State, seat: int, action: Action):
    """R11: discard the Scales to decide any one elimination or election tie."""
    tie = state.tie
    card = next(
        (
            c
            for c in cards_of(state, seat)
            if acting_as(state, c) == "scales_of_justice" and is_active(state, c)
        ),
        None,
    )
    if card is None or tie.kind not in ("elimination", "election"):
        raise IllegalAction("wrong_phase", "You hold no usable Scales of Justice for this tie.")
    (winner,) = _targets(action, 1)
    if winner not in tie.candidates:
        raise IllegalAction("illegal_target", "Choose one of the tied players.")
    state = _discard(state, card)
    events = [
        public(
            state,
            "relic_used",
            f"The Scales of Justice are discarded to settle the tie: seat {winner}.",
        )
    ]
    state, resolution = ties._settled(state, tie, winner, "scales_of_justice", events)
    state = dining.settle(state, resolution, events, 0.0)
    return state, events, False


def _cross(state: State, seat: int, cause: str, events: list) -> State:
    """R11/R12.3: checked by the app at the moment of death in Dining."""
    card = next(
        (c for c in cards_of(state, seat) if acting_as(state, c) == "cross_of_saint_john"), None
    )
    if cause != "dining" or card is None or negated(state, card):
        return state
    stakes = [
        (p.owner, 2 if p.token == DOUBLE_STAKE else 1)
        for p in state.dining.tokens
        if p.target == seat and p.token in (STAKE, DOUBLE_STAKE)
    ]
    total = sum(n for _, n in stakes)
    vampire = sum(n for owner, n in stakes if on_vampire_side(state.player(owner).role))
    if total == 0 or 2 * vampire < total:
        return state
    events.append(
        public(
            state,
            "relic_cross",
            f"Seat {seat} held the Cross of Saint John, staked mostly by Vampires.",
        )
    )
    return evolve(state, outcome=Outcome("hunters", "The Cross of Saint John (R11, R12.3)."))


def _bangle_link(state: State, seat: int, events: list) -> State:
    """R11: if one Bangle holder dies, the other dies too, even if Protected; a negated Bangle's
    holder dies at the start of the next round instead."""
    mine = next((c for c in cards_of(state, seat) if kind(c) == "bangle_of_oaths"), None)
    if mine is None:
        return state
    other = next(
        (
            h
            for h in _data(state)["holdings"]
            if kind(h["card"]) == "bangle_of_oaths" and h["card"] != mine
        ),
        None,
    )
    if other is None or other["discarded"] or not state.player(other["seat"]).alive:
        return state
    if negated(state, other["card"]):
        return _update(state, pending_deaths=_data(state)["pending_deaths"] + [other["seat"]])
    events.append(
        public(
            state, "relic_bangle", f"Bound by the Bangle of Oaths, seat {other['seat']} dies too."
        )
    )
    return dining.eliminate(state, other["seat"], events, cause="bangle_of_oaths")


def _deferred_deaths(state: State):
    pending = _data(state)["pending_deaths"]
    if not pending:
        return None
    events: list = []
    state = _update(state, pending_deaths=[])
    for seat in pending:
        events.append(
            public(state, "relic_bangle", f"The Bangle of Oaths claims seat {seat} at last.")
        )
        state = dining.eliminate(state, seat, events, cause="bangle_of_oaths")
    return state, events, False


def _offer_idol(state: State, now: float):
    data = _data(state)
    if data["idol_handovers"] >= 2 or data["choice"]:
        return None
    for h in data["holdings"]:
        key = [h["card"], h["seat"]]
        if (
            kind(h["card"]) != "false_idol"
            or h["discarded"]
            or state.player(h["seat"]).alive
            or key in data["offered"]
        ):
            continue
        if negated(state, h["card"]) or state.three_living:  # silent at the moment of death
            return _update(state, offered=data["offered"] + [key]), [], False
        return _open_choice(state, "false_idol", h["seat"], list(state.living), now, card=h["card"])
    return None


def _offer_journal(state: State, now: float):
    eliminated = state.dining.eliminated
    data = _data(state)
    if eliminated is None or data["choice"]:
        return None
    for seat in _with_card(state, "van_helsings_journal"):
        key = ["van_helsings_journal", seat, state.round]
        if key in data["offered"] or seat == eliminated:
            continue
        if any(
            p.owner == seat and p.target == eliminated and p.token in (STAKE, DOUBLE_STAKE)
            for p in state.dining.tokens
        ):
            continue
        if any(m.blocks_examination(state, seat, eliminated) for m in hooks.active(state)):
            continue
        return _open_choice(state, "van_helsings_journal", seat, [eliminated], now, key=key)
    return None


def _open_choice(
    state: State,
    relic: str,
    seat: int,
    targets: list[int],
    now: float,
    card: str | None = None,
    key=None,
):
    key = key or [card, seat]
    choice = {"relic": relic, "seat": seat, "targets": targets, "card": card, "key": key}
    state = _update(state, choice=choice, offered=_data(state)["offered"] + [key])
    return evolve(state, phase=CHOICE, deadline=now + state.options.timers.choice), [], True


def _close_choice(state: State, choice: dict, declined: bool) -> State:
    return evolve(_update(state, choice=None), phase="dining", deadline=None)


def _resolve_choice(state: State, action: Action):
    choice = _data(state)["choice"]
    if action.seat != choice["seat"]:
        raise IllegalAction("wrong_phase", "It is not your choice.")
    if action.args.get("choice") not in (None, choice["relic"]):
        raise IllegalAction(
            "bad_request", f"The open choice is the {BY_ID[choice['relic']].name}'s."
        )
    (target,) = _targets(action, 1)
    if target not in choice["targets"]:
        raise IllegalAction("illegal_target", f"Choose one of seats {choice['targets']}.")
    events: list = []
    if choice["relic"] == "false_idol":
        holdings = [
            {**h, "seat": target} if h["card"] == choice["card"] else h
            for h in _data(state)["holdings"]
        ]
        state = _update(state, holdings=holdings, idol_handovers=_data(state)["idol_handovers"] + 1)
        events.append(
            public(
                state, "relic_used", f"Seat {choice['seat']} hands The False Idol to seat {target}."
            )
        )
        events.append(
            private(
                state,
                [target],
                "relic_received",
                "You receive The False Idol, beside your own relic.",
            )
        )
    else:
        events.append(
            public(
                state,
                "relic_used",
                f"Seat {choice['seat']} reads Van Helsing's Journal on seat {target}.",
            )
        )
        state = dining.examine(state, choice["seat"], target, "van_helsing", events)
    return _close_choice(state, choice, declined=False), events, False
