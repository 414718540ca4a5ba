"""Sacred Relics (R10–R11, game option `relics`): the 16 cards and their rulings, plugged into
the pure rules engine through its hook points (games/engine/hooks.py). Standard library only.

The module's data lives in `state.ext["relics"]`: who holds which card, the draw pile, the
marker tokens, what is negated, the open window or choice. Holdings are public (R10.2a amended:
the card lies face-up under its holder's seating tile): every view, spectators' included, shows
each seat's relics, discarded ones, what is negated, the markers, and whose window is open. Only
the card a giver has drawn (until given), the draw pile and the box stay secret.

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
  The Journal is offered after each death in Dining (its Last Will first), in the order they died.
- Scales of Justice: when a tie for the most Stakes or Feasts arises, each living holder who may
  act on it gets a timed window before its vote opens (R11 amended), once per tie: decide (a tied
  holder keeps the card, another discards it) or pass; passing or silence leaves the usual vote.
- Blood of the One: usable whenever the game waits on a player, except while relics are handed
  out (they are not in play yet); plus its post-mingling slot and a last call right after the
  reveal (R11 amended). A victim killed before Dining draws their Last Will when Dining opens; one
  killed in Dining draws at once, in the order of deaths. What Dining has settled stays settled; a
  tie not yet settled is counted again without the victim's tokens (its votes so far are void).
  A window or choice of the victim's own closes; a Last Will choice no longer offers them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import dining, hooks, last_wills, mingling, ties
from games.engine.common import draw_rng, private, public, seat_list
from games.engine.errors import IllegalAction
from games.engine.state import (
    DINING,
    DOUBLE_STAKE,
    LAST_WILL,
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
from games.engine.vocabulary import STAKE_VOTES, EventKind

GIVING = "give_relic"  # phase: a player gives the relic they drew (R10.2)
WINDOW = "relic_window"  # phase: one holder's window (R10.3; a Dining tie or last call, R11)
CHOICE = "relic_choice"  # phase: an optional passive choice (Van Helsing, False Idol)
# Blood of the One may be used whenever the game waits on someone (R11 amended), not while the
# relics are handed out: they are in play once every player holds one (R10.2). (Round 1's
# examiner choice comes before that.)
BLOOD_PHASES = frozenset({MINGLING, WINDOW, TIEBREAK, CHOICE, LAST_WILL})


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
        "At any time, discard and name a living player: if Mesmerized, they die.",
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


def _active_cards(state: State, relic: str) -> list[str]:
    """The cards acting as `relic` that work now, in seat order (a Glass may copy it)."""
    return [
        c
        for s in _with_card(state, relic)
        for c in cards_of(state, s)
        if acting_as(state, c) == relic and is_active(state, c)
    ]


def _public_holdings(state: State, data: dict) -> list[dict[str, Any]]:
    """R10.2a: every seat's relics, face-up for the whole table, with their markers (R10.4)."""
    markers: dict[str, list[dict]] = {}
    for relic, marker in data["markers"].items():
        markers.setdefault(marker["card"], []).append({"relic": relic, "round": marker["round"]})
    out = []
    for h in sorted(data["holdings"], key=lambda h: h["seat"]):
        card = h["card"]
        relic = kind(card)
        copy = acting_as(state, card)
        out.append(
            {
                "seat": h["seat"],
                "relic": relic,
                "name": BY_ID[relic].name,
                "discarded": h["discarded"],
                "negated": negated(state, card),
                "acting_as": copy if copy != relic else None,
                "markers": markers.get(card, []),
            }
        )
    return out


def _public_window(state: State, window: dict) -> dict[str, Any]:
    """The open window, its holder named (R10.2a); a Dining tie's window names the tie."""
    out = {
        "relic": window["as"],
        "stage": window["stage"],
        "deadline": state.deadline,
        "seat": window["seat"],
    }
    if window["stage"] == "tie":
        out["tie"] = {"kind": state.tie.kind, "candidates": list(state.tie.candidates)}
    return out


# --- the module --------------------------------------------------------------------------------


class SacredRelics(hooks.Module):
    name = "relics"
    action_names = frozenset({"give_relic", "use_relic", "pass", "resolve_choice"})
    at_steps = frozenset(
        {
            "round_start",
            "pre_mingling",
            "post_mingling",
            "after_reveal",
            "before_tie",
            "after_death",
            "round_end",
        }
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
        if step == "after_reveal":
            return _last_call(state, now)
        if step == "before_tie":
            return _scales_window(state, now)
        if step == "after_death":
            return _after_death(state, now)
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
            events = [
                public(state, EventKind.RELIC_TIMEOUT, "Time is up: the relic is given at random.")
            ]
            return _hand_over(state, giving, card, target, events, now)
        if state.phase == WINDOW:
            window = data["window"]
            events = [
                public(
                    state,
                    EventKind.RELIC_TIMEOUT,
                    f"Time is up for the {BY_ID[window['as']].name}.",
                )
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
        actions = []
        if state.phase == WINDOW and data["window"]["seat"] == seat:
            window = data["window"]
            use = {"relic": window["as"], **_use_options(state, window, seat)}
            actions = [{"action": "use_relic", "options": use}, {"action": "pass", "options": {}}]
            if window["as"] == "blood_of_the_one":
                return actions
        elif state.phase == CHOICE and data["choice"]["seat"] == seat:
            choice = data["choice"]
            actions = [
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
        if state.phase in BLOOD_PHASES and has(state, seat, "blood_of_the_one"):
            actions.append(
                {
                    "action": "use_relic",
                    "options": {"relic": "blood_of_the_one", "targets": list(state.living)},
                }
            )
        return actions

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
        choice = data["choice"] if state.phase == CHOICE else None
        out = {
            "relics": {
                "in_play": sorted(BY_ID[kind(h["card"])].name for h in data["holdings"]),
                "holdings": _public_holdings(state, data),
                "window": _public_window(state, window) if window else None,
                "choice": {"relic": choice["relic"], "seat": choice["seat"]} if choice else None,
                "giver": _giver(data) if giving else None,
                "public": data["public"],
            }
        }
        cross = data.get("cross")
        shown = state.dining or state.last_dining
        if cross and shown is not None and cross["round"] == shown.round:
            out["last_dining_extra"] = {"cross": cross}
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
        """The Seer's Orb votes in an intervention that is open this round: none when the first
        Ghost appears mid-Mingling (Blood of the One), since that Ghost has no dial yet (R7.2)."""
        if not mingling.intervention_open(state):
            return ()
        return tuple(_with_card(state, "seers_orb"))

    def decide_tie(self, state: State, kind_: str, tied: tuple[int, ...]) -> int | None:
        """The Seer's Orb settles an intervention tie; the Scales of Justice act before a tie's
        vote instead (`before_tie`, R11 amended)."""
        if kind_ == "intervention":
            orbs = _with_card(state, "seers_orb")
            return orbs[0] if orbs else None
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
                state,
                [target],
                EventKind.RELIC_RECEIVED,
                "You receive a Sacred Relic, beside your own.",
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
    name = BY_ID[kind(card)].name
    events.append(  # R10.2a: the card goes face-up under the recipient's tile
        public(
            state,
            EventKind.RELIC_GIVEN,
            f"Seat {giver} gives the {name} to seat {target}.",
            giver=giver,
            target=target,
            relic=kind(card),
        )
    )
    events.append(
        private(
            state, [target], EventKind.RELIC_RECEIVED, f"You receive the {BY_ID[kind(card)].name}."
        )
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
        events.append(
            public(
                state,
                EventKind.RELIC_BANGLE,
                f"A lone Bangle of Oaths goes back to the box: seat {lone['seat']} draws the "
                f"{BY_ID[kind(replacement)].name} instead.",
            )
        )
        events.append(
            private(
                state,
                [lone["seat"]],
                EventKind.RELIC_RECEIVED,
                f"You receive the {BY_ID[kind(replacement)].name}.",
            )
        )
    state = _update(state, holdings=holdings, deck=deck, box=box, giving=None, distributed=True)
    events.append(public(state, EventKind.RELICS_READY, "Every player holds a Sacred Relic."))
    return evolve(state, phase=DINING, deadline=None), events, False


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


def _open_window(state: State, card: str, relic: str, stage: str, now: float, events=()):
    window = {"card": card, "seat": holder(state, card), "as": relic, "stage": stage}
    state = _update(state, window=window)
    state = evolve(state, phase=WINDOW, deadline=now + state.options.timers.relic)
    return state, list(events), True


def _last_call(state: State, now: float):
    """R11 amended: right after the reveal, before anything is counted, each living holder of
    Blood of the One may still use it (a timed window, once a round)."""
    if state.three_living or not _data(state)["distributed"]:
        return None
    done = _data(state)["done"]
    for card in _active_cards(state, "blood_of_the_one"):
        if f"{card}@reveal" not in done:
            return _open_window(state, card, "blood_of_the_one", "reveal", now)
    return None


def _scales_window(state: State, now: float):
    """R11 amended: a tie for the most Stakes or Feasts arises; before its vote opens, each living
    Scales of Justice holder gets a timed window on it (decide or pass), once per tie."""
    tie = state.tie
    if tie.kind not in ("elimination", "election") or state.three_living:
        return None
    done = _data(state)["done"]
    for card in _active_cards(state, "scales_of_justice"):
        if f"{card}@tie:{tie.kind}" in done:
            continue
        seat = holder(state, card)
        how = "choose the outcome" if seat in tie.candidates else "discard them to decide it"
        event = public(
            state,
            EventKind.RELIC_SCALES,
            f"{seat_list(tie.candidates).capitalize()} are tied for {ties.KIND_WORDS[tie.kind]}: "
            f"seat {seat} may {how} with the Scales of Justice before anyone votes (R11).",
            seat=seat,
            kind=tie.kind,
            candidates=list(tie.candidates),
        )
        return _open_window(state, card, "scales_of_justice", "tie", now, [event])
    return None


def _new_round(state: State) -> State:
    """Forget last round's used windows (and discard stale per-round data)."""
    data = _data(state)
    if data.get("done_round") == state.round:
        return state
    return _update(state, done=[], done_round=state.round)


def _close_window(state: State, card: str) -> State:
    """A card acts once a round in each stage it has a slot in (a Glass copying a post-mingling
    relic acts again after Mingling), and the Scales once per Dining tie."""
    data = _data(state)
    stage = data["window"]["stage"] if data["window"] else "pre"
    if stage == "tie":
        stage = f"tie:{state.tie.kind}"
    done = data["done"] + [f"{card}@{stage}"]
    phase = "relics" if stage in ("pre", "post") else "dining"
    return evolve(_update(state, window=None, done=done), phase=phase, deadline=None)


def _pass(state: State, action: Action):
    data = _data(state)
    if state.phase == WINDOW and data["window"]["seat"] == action.seat:
        return _close_window(state, data["window"]["card"]), [], False
    if state.phase == CHOICE and data["choice"]["seat"] == action.seat:
        return _close_choice(state, data["choice"], declined=True), [], False
    raise IllegalAction("wrong_phase", "You have nothing to pass on now.")


def _use_options(state: State, window: dict, seat: int) -> dict[str, Any]:
    relic, card = window["as"], window["card"]
    living = list(state.living)
    if relic in MARKED:  # R10.2a: the cards are face-up, so each seat's targetable ones are named
        seats = state.ghosts if relic == "hindsight_looking_glass" else living
        cards = {s: _target_cards(state, relic, s, card) for s in seats}
        return {
            "targets": [s for s in seats if cards[s]],
            "cards_by_seat": {str(s): [kind(c) for c in cs] for s, cs in cards.items() if cs},
        }
    if relic == "whisper_wick_candle":
        owners = {
            str(s): sorted(p.owner for p in state.placements if p.target == s) for s in living
        }
        owners = {k: v for k, v in owners.items() if v}
        return {"targets": sorted(map(int, owners)), "count": 2, "owners_by_seat": owners}
    if relic == "bangle_of_oaths":
        return {
            "owners": sorted({p.owner for p in state.placements if p.target == seat}),
            "max": 2,
            "partner": _partner(state, card),
        }
    if relic in ("key_of_quick_passage",):
        return {}
    if relic == "scales_of_justice":
        return {"targets": list(state.tie.candidates), "discard": seat not in state.tie.candidates}
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
    window = data["window"] if state.phase == WINDOW else None
    own = window is not None and window["seat"] == seat and window["as"] == relic
    if relic == "blood_of_the_one" and not own:
        return _blood_at_any_time(state, seat, action)
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
        public(
            state,
            EventKind.RELIC_USED,
            f"Seat {seat} rings the Ritual Bell: seat {target}'s {BY_ID[kind(hit)].name} is "
            "negated this round.",
        )
    ]
    events.append(
        private(
            state,
            [target],
            EventKind.RELIC_NEGATED,
            f"Your {BY_ID[kind(hit)].name} is negated this round.",
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
            EventKind.RELIC_USED,
            f"Seat {seat}'s Signet Ring swaps with seat {target}'s {BY_ID[kind(hit)].name}.",
        )
    ]
    events.append(
        private(
            state, [seat], EventKind.RELIC_RECEIVED, f"You now hold the {BY_ID[kind(hit)].name}."
        )
    )
    events.append(
        private(
            state, [target], EventKind.RELIC_RECEIVED, f"You now hold the {BY_ID[kind(card)].name}."
        )
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
        public(
            state,
            EventKind.RELIC_USED,
            f"Seat {seat}'s Hindsight Looking Glass copies seat {target}'s {BY_ID[relic].name}.",
        )
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
            state,
            EventKind.RELIC_USED,
            f"The Whisper-Wick Candle swaps a token between seats {a} and {b}.",
        )
    ]
    return _close_window(state, card), events, False


def _bangle(state, seat, card, action, now):
    partner = _partner(state, card)
    owners = action.args.get("owners") or []
    if not isinstance(owners, list) or len(owners) > 2 or len(set(owners)) != len(owners):
        raise IllegalAction("bad_request", "Name up to 2 token owners in 'owners'.")
    if not owners:  # moving nothing is passing
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
            EventKind.RELIC_USED,
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
            EventKind.RELIC_USED,
            f"Seat {seat} uses the Key of Quick Passage: their tokens are ignored.",
        )
    ]
    return _close_window(state, card), events, False


def _blood_window(state, seat, card, action, now):
    state, events = _blood(state, seat, card, _targets(action, 1), [])
    if _data(state)["window"] is not None:  # else the death already closed it
        state = _close_window(state, card)
    return state, events, False


def _scales(state, seat, card, action, now):
    """R11: settle the Dining tie whose window is open: a tied holder chooses the outcome and keeps
    the Scales; any other holder discards them to decide it."""
    tie = state.tie
    (winner,) = _targets(action, 1)
    if winner not in tie.candidates:
        raise IllegalAction("illegal_target", "Choose one of the tied players.")
    state = _close_window(state, card)
    if seat in tie.candidates:
        text = f"Seat {seat} holds the Scales of Justice and settles the tie: seat {winner}."
    else:
        state = _discard(state, card)
        text = f"Seat {seat} discards the Scales of Justice to settle the tie: seat {winner}."
    events = [public(state, EventKind.RELIC_USED, text)]
    state, resolution = ties._settled(state, tie, winner, "scales_of_justice", events)
    return dining.settle(state, resolution, events, now), events, False


WINDOW_EFFECTS = {
    "ritual_bell": _bell,
    "signet_ring": _ring,
    "hindsight_looking_glass": _hindsight,
    "whisper_wick_candle": _candle,
    "bangle_of_oaths": _bangle,
    "key_of_quick_passage": _key,
    "blood_of_the_one": _blood_window,
    "scales_of_justice": _scales,
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
    die, their placed tokens this round are removed (even revealed ones), and their Last Will is
    drawn as usual: when Dining opens, or at once in Dining (flow._aftermath)."""
    (target,) = targets
    if target not in state.living:
        raise IllegalAction("illegal_target", "Blood of the One names a living player.")
    state = _discard(state, card)
    mesmerized = state.player(target).mesmerized
    verdict = (
        "is Mesmerized: they die, and their tokens this round are removed"
        if mesmerized
        else "is not Mesmerized"
    )
    events.append(
        public(
            state,
            EventKind.RELIC_USED,
            f"Seat {seat} uses Blood of the One: seat {target} {verdict}.",
            target=target,
        )
    )
    if not mesmerized:
        return state, events
    state = evolve(state, placements=tuple(p for p in state.placements if p.owner != target))
    in_dining = state.dining is not None and not state.dining.complete
    if in_dining:
        state = evolve(
            state,
            dining=evolve(
                state.dining, tokens=tuple(p for p in state.dining.tokens if p.owner != target)
            ),
        )
    living = state.living
    state = dining.eliminate(state, target, events, cause="blood_of_the_one")
    if not in_dining:
        state = last_wills.owe(state, target)
    dead = [s for s in living if not state.player(s).alive]
    return _without_the_dead(state, dead, events), events


def _blood_at_any_time(state: State, seat: int, action: Action):
    """R11 amended: Blood of the One outside its own windows, whenever the game waits on someone."""
    card = next(
        (c for c in _active_cards(state, "blood_of_the_one") if holder(state, c) == seat), None
    )
    if card is None or state.phase not in BLOOD_PHASES:
        raise IllegalAction("wrong_phase", "You hold no usable Blood of the One now.")
    state, events = _blood(state, seat, card, _targets(action, 1), [])
    if state.phase == MINGLING and mingling.mingling_done(state):  # R3.3: the last tokens
        events.append(
            public(state, EventKind.MINGLING_OVER, "Every token is placed: Mingling is over.")
        )
        return evolve(state, deadline=None, step="post_mingling"), events, False
    # Whatever still waits on a player goes on as it was (its deadline too); else the flow goes on.
    return state, events, state.phase in (MINGLING, WINDOW, CHOICE, TIEBREAK, LAST_WILL)


RECOUNT = {  # the step that counts again a tie not yet settled
    "intervention": "intervention",
    "examination": "stakes",
    "elimination": "stakes",
    "election": "election",
}


def _without_the_dead(state: State, dead: list[int], events: list) -> State:
    """What the deaths by Blood of the One change in whatever is open (module docstring)."""
    data = _data(state)
    if state.tie is not None:  # in Dining, a tie not yet settled: counted again without them
        kind_ = state.tie.kind
        events.append(
            public(
                state,
                EventKind.TIE_RECOUNT,
                f"The tie for {ties.KIND_WORDS[kind_]} is counted again without the dead; "
                "its votes so far are void.",
                kind=kind_,
            )
        )
        state = _update(state, window=None)
        return evolve(state, tie=None, phase=DINING, deadline=None, step=RECOUNT[kind_])
    if state.phase == WINDOW and data["window"]["seat"] in dead:
        return _close_window(state, data["window"]["card"])
    if state.phase == CHOICE:
        choice = data["choice"]
        if choice["relic"] == "van_helsings_journal":  # it reads a dead player for a living one
            if choice["seat"] in dead:
                return _close_choice(state, choice, declined=True)
            return state
        targets = [t for t in choice["targets"] if t not in dead]  # the Idol goes to the living
        if not targets:
            return _close_choice(state, choice, declined=True)
        return _update(state, choice={**choice, "targets": targets})
    if state.phase == LAST_WILL:
        for seat in dead:
            state = last_wills.forget(state, seat, events)
    return state


def _cross(state: State, seat: int, cause: str, events: list) -> State:
    """R11/R12.3: checked by the app at the moment of death in Dining."""
    card = next(
        (c for c in cards_of(state, seat) if acting_as(state, c) == "cross_of_saint_john"), None
    )
    if cause != "dining" or card is None or negated(state, card):
        return state
    stakes = [
        (p.owner, STAKE_VOTES[p.token])
        for p in state.dining.tokens
        if p.target == seat and p.token in (STAKE, DOUBLE_STAKE)
    ]
    total = sum(n for _, n in stakes)
    vampire = sum(n for owner, n in stakes if on_vampire_side(state.player(owner).role))
    if total == 0 or 2 * vampire < total:
        return state
    cross = {"round": state.round, "seat": seat, "stake_votes": total, "from_vampires": vampire}
    events.append(
        public(
            state,
            EventKind.RELIC_CROSS,
            f"Seat {seat} held the Cross of Saint John: {vampire} of the {total} Stake votes "
            "placed on them came from the Vampires and the Lord (automatic votes do not count), "
            "at least half: the Hunters win at once.",
            **cross,
        )
    )
    state = _update(state, cross=cross)  # shown in the Dining's recap (view: last_dining.cross)
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
            state,
            EventKind.RELIC_BANGLE,
            f"Bound by the Bangle of Oaths, seat {other['seat']} dies too.",
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
            public(
                state, EventKind.RELIC_BANGLE, f"The Bangle of Oaths claims seat {seat} at last."
            )
        )
        state = dining.eliminate(state, seat, events, cause="bangle_of_oaths")
    return state, events, False


def _after_death(state: State, now: float):
    """After a death in Dining and its Last Will: the False Idol's hand-over, then the Journal."""
    if state.phase == CHOICE:  # a choice on this death is still open
        return state, [], True
    result = _offer_idol(state, now)
    if result is not None and result[2]:
        return result
    silenced = result is not None  # a negated Idol, marked as offered
    if silenced:
        state = result[0]
    result = _offer_journal(state, dining.dying(state), now)
    if result is None and silenced:
        return state, [], False
    return result


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


def _offer_journal(state: State, eliminated: int, now: float):
    """R11: after a death in Dining and its Last Will, each Journal holder none of whose Stakes
    lies on that seat may examine them (R13 amended: after each death, in order)."""
    data = _data(state)
    if data["choice"] or state.three_living:
        return None
    for seat in _with_card(state, "van_helsings_journal"):
        key = ["van_helsings_journal", seat, state.round, eliminated]
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
    return evolve(_update(state, choice=None), phase=DINING, deadline=None)


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
                state,
                EventKind.RELIC_USED,
                f"Seat {choice['seat']} hands The False Idol to seat {target}.",
            )
        )
        events.append(
            private(
                state,
                [target],
                EventKind.RELIC_RECEIVED,
                "You receive The False Idol, beside your own relic.",
            )
        )
    else:
        events.append(
            public(
                state,
                EventKind.RELIC_USED,
                f"Seat {choice['seat']} reads Van Helsing's Journal on seat {target}.",
            )
        )
        state = dining.examine(state, choice["seat"], target, "van_helsing", events)
    return _close_choice(state, choice, declined=False), events, False
