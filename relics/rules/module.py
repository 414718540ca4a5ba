"""The Sacred Relics module as the engine sees it: the hooks (games/engine/hooks.py) it
implements."""

from __future__ import annotations

from typing import Any

from games.engine import hooks, mingling
from games.engine.common import draw_rng, private, public
from games.engine.offers import nothing, offer
from games.engine.serialize import to_json
from games.engine.state import (
    STAKE,
    Action,
    State,
)
from games.engine.vocabulary import ActionName, EventKind, RelicId, TieKind

from .cards import BLOOD_PHASES, BY_ID, CHOICE, GIVING, POST, PRE, WINDOW, kind
from .choices import after_death, offer_idol, resolve_choice
from .distribution import distribution_turn, give, give_targets, giver_of, hand_over
from .holdings import (
    Negation,
    acting_as,
    cards_of,
    close_choice,
    close_window,
    data_of,
    discard_card,
    has,
    holding,
    moved,
    negated,
    public_holdings,
    public_window,
    update,
    with_card,
)
from .passives import bangle_link, check_cross, deferred_deaths
from .windows import last_call, next_window, pass_window, scales_window, use_options, use_relic


class SacredRelics(hooks.Module):
    name = "relics"
    action_names = frozenset(
        {ActionName.GIVE_RELIC, ActionName.USE_RELIC, ActionName.PASS, ActionName.RESOLVE_CHOICE}
    )
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
        if action.name == ActionName.RESOLVE_CHOICE:
            return state.phase == CHOICE
        return action.name in self.action_names

    # -- flow steps --------------------------------------------------------------------------

    def at_step(self, state: State, step: str, now: float):
        if step == "round_start":
            return deferred_deaths(state)
        if step in ("pre_mingling", "post_mingling"):
            return next_window(state, PRE if step == "pre_mingling" else POST, now)
        if step == "after_reveal":
            return last_call(state, now)
        if step == "before_tie":
            return scales_window(state, now)
        if step == "after_death":
            return after_death(state, now)
        if step == "round_end":
            if state.round == 1 and not data_of(state).distributed:
                return distribution_turn(state, now)
            return offer_idol(state, now)
        return None

    def act(self, state: State, action: Action, now: float):
        if action.name == ActionName.GIVE_RELIC:
            return give(state, action, now)
        if action.name == ActionName.PASS:
            return pass_window(state, action)
        if action.name == ActionName.RESOLVE_CHOICE:
            return resolve_choice(state, action)
        return use_relic(state, action, now)

    def timeout(self, state: State, now: float):
        data = data_of(state)
        if state.phase == GIVING:
            rng, state = draw_rng(state)
            giving = data_of(state).giving
            card = rng.choice(giving.drawn)
            target = rng.choice(give_targets(state))
            giver = giving.order[giving.index]
            events = [
                public(
                    state,
                    EventKind.RELIC_TIMEOUT,
                    "Time is up for {seat:seat}: the relic is given at random.",
                    seat=giver,
                )
            ]
            return hand_over(state, giving, card, target, events, now)
        if state.phase == WINDOW:
            window = data.window
            events = [
                public(
                    state,
                    EventKind.RELIC_TIMEOUT,
                    f"Time is up for {{seat:seat}}'s {BY_ID[window.as_].bare_name}.",
                    seat=window.seat,
                    relic=window.as_,
                )
            ]
            return close_window(state, window.card), events, False
        if state.phase == CHOICE:
            return close_choice(state, data.choice, declined=True), [], False
        return None

    # -- what players see and may do --------------------------------------------------------

    def pending(self, state: State, seat: int) -> list[dict[str, Any]]:
        data = data_of(state)
        if state.phase == GIVING and data.giving and giver_of(data) == seat:
            more = {}
            if len(data.giving.drawn) > 1:
                more["cards"] = [kind(c) for c in data.giving.drawn]
            return [offer(ActionName.GIVE_RELIC, give_targets(state), **more)]
        actions = []
        if state.phase == WINDOW and data.window.seat == seat:
            window = data.window
            use = use_options(state, window, seat)
            if use is not None:  # else nobody can be aimed at: only pass
                actions.append({"action": ActionName.USE_RELIC, "options": use})
            actions.append(nothing(ActionName.PASS))
            if window.as_ == RelicId.BLOOD_OF_THE_ONE:
                return actions
        elif state.phase == CHOICE and data.choice.seat == seat:
            choice = data.choice
            if choice.targets:
                actions.append(
                    offer(
                        ActionName.RESOLVE_CHOICE,
                        choice.targets,
                        choice=choice.relic,
                        count=1,  # the older name of min and max
                    )
                )
            actions.append(nothing(ActionName.PASS))
        if state.phase in BLOOD_PHASES and has(state, seat, RelicId.BLOOD_OF_THE_ONE):
            living = list(state.living)
            actions.append(offer(ActionName.USE_RELIC, living, relic=RelicId.BLOOD_OF_THE_ONE))
        return actions

    def waiting(self, state: State) -> set[int]:
        data = data_of(state)
        if state.phase == GIVING and data.giving:
            return {giver_of(data)}
        if state.phase == WINDOW:
            return {data.window.seat}
        if state.phase == CHOICE:
            return {data.choice.seat}
        return set()

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        data = data_of(state)
        window = data.window if state.phase == WINDOW else None
        giving = data.giving if state.phase == GIVING else None
        choice = data.choice if state.phase == CHOICE else None
        out = {
            "relics": {
                "in_play": sorted(kind(h.card) for h in data.holdings),  # relic ids
                "holdings": public_holdings(state, data),
                "window": public_window(state, window) if window else None,
                "choice": {"relic": choice.relic, "seat": choice.seat} if choice else None,
                "giver": giver_of(data) if giving else None,
                "public": to_json(data.public),
            }
        }
        cross = data.cross
        shown = state.dining or state.last_dining
        if cross and shown is not None and cross.round == shown.round:
            out["last_dining_extra"] = {"cross": to_json(cross)}
        if seat is not None:
            mine = [
                {
                    "id": kind(c),
                    "name": BY_ID[kind(c)].name,
                    "text": BY_ID[kind(c)].text,
                    "negated": negated(state, c),
                    "discarded": holding(state, c).discarded,
                    "acting_as": acting_as(state, c) if acting_as(state, c) != kind(c) else None,
                }
                for c in cards_of(state, seat, discarded=True)
            ]
            me = {"relic": mine[0] if mine else None, "relics": mine}
            if giving and giver_of(data) == seat:
                me["drawn"] = [{"id": kind(c), "name": BY_ID[kind(c)].name} for c in giving.drawn]
            out["me"] = me
        return out

    # -- passive relics --------------------------------------------------------------------

    def may_stack(self, state: State, owner: int, token: str) -> bool:
        return token == STAKE and has(state, owner, RelicId.CEREMONIAL_DAGGER)

    def adjust_tally(self, state: State, kind_: str, tally: dict[int, int]) -> dict[int, int]:
        if kind_ != STAKE:
            return tally
        tally = dict(tally)
        for seat in tally:
            if has(state, seat, RelicId.FALSE_IDOL):
                tally[seat] += 1
            if has(state, seat, RelicId.EFFIGY_OF_INNOCENCE):
                tally[seat] = max(0, tally[seat] - 1)
        return tally

    def blocks_examination(self, state: State, examiner: int, target: int) -> bool:
        return has(state, target, RelicId.EFFIGY_OF_INNOCENCE)

    def resists_mesmerism(self, state: State, seat: int) -> bool:
        return has(state, seat, RelicId.CROWN_OF_SOLOMON)

    def ignores_tokens(self, state: State, seat: int) -> bool:
        return any(k.seat == seat and k.round == state.round for k in data_of(state).key_used)

    def optional_intervention_voters(self, state: State) -> tuple[int, ...]:
        """The Seer's Orb votes in an intervention that is open this round: none when the first
        Ghost appears mid-Mingling (Blood of the One), since that Ghost has no dial yet (R7.2)."""
        if not mingling.intervention_open(state):
            return ()
        return tuple(with_card(state, RelicId.SEERS_ORB))

    def decide_tie(self, state: State, kind_: str, tied: tuple[int, ...]) -> int | None:
        """The Seer's Orb settles an intervention tie; the Scales of Justice act before a tie's
        vote instead (`before_tie`, R11 amended)."""
        if kind_ == TieKind.INTERVENTION:
            orbs = with_card(state, RelicId.SEERS_ORB)
            return orbs[0] if orbs else None
        return None

    # -- what Last Will cards ask of the relics (R13: Heirloom, Shattered, Sealed Reliquary) ---

    def holds_active_relic(self, state: State, seat: int) -> bool:
        return bool(cards_of(state, seat))

    def give_away(self, state: State, seat: int, target: int, events: list) -> State:
        mine = set(cards_of(state, seat))
        if not mine:
            return state
        holdings = moved(state, dict.fromkeys(mine, target))
        events.append(
            private(
                state,
                [target],
                EventKind.RELIC_RECEIVED,
                "You receive {giver:seat}'s Sacred Relic, beside your own.",
                relics=[kind(c) for c in sorted(mine)],
                giver=seat,
            )
        )
        return update(state, holdings=holdings)

    def discard(self, state: State, seat: int, events: list) -> State:
        for card in cards_of(state, seat):
            state = discard_card(state, card)
        return state

    def negate_next_round(self, state: State, seat: int, events: list) -> State:
        negations = tuple(Negation(c, state.round + 1) for c in cards_of(state, seat))
        return update(state, negated=data_of(state).negated + negations)

    def on_eliminated(self, state: State, seat: int, cause: str, events: list) -> State:
        if state.three_living:
            return state
        state = check_cross(state, seat, cause, events)
        return bangle_link(state, seat, events)


MODULE = hooks.register(SacredRelics())
