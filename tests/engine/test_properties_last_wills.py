"""Property-based: random legal games with the Last Will deck on (R13), every invariant checked.

The driver is test_properties.py's `Game`, with Last Wills on. It keeps every invariant of the core
rules and relaxes exactly what Last Wills legitimately change:

- Last Stand may eliminate a second player in a round (only its target, only on the other side);
- Public Confession makes the drawer's role public (`public_roles`, a public event);
- Parting Glance gives the drawer knowledge of one role (R8.1 applies);
- Spilled Wine and Broken Stake change a hand for one round (not in a three-living round).
It adds R7.2 for the second death: a Protected player is never eliminated, by a Last Stand neither.

On top it checks R13 itself after every step: at most one draw per round, only by the player
eliminated in that Dining, never in a three-living round, never for a chained death; no card
naming Sacred Relics resolves with relics off; the 18 cards are all in the deck, the discards or
the open draw; the open choice offers only legal seats; effects in force are this round's only,
none in a three-living round; the view shows exactly the draw of the Dining on screen.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Action, pending, view
from games.engine.last_wills import CARDS
from tests.conftest import examples
from tests.engine.test_properties import CHECKS, LORD, ROLE_WORDS, Game, vampire_side

FULL_DECK = Counter({c.id: c.copies for c in CARDS})
RELIC_CARDS = {c.id for c in CARDS if c.names_relics}
STAKES = ("stake", "double_stake")


def wills(state):
    return state.ext.get(
        "last_wills", {"deck": [], "discard": [], "deck_made": False, "draws": [], "effects": []}
    )


class LastWillGame(Game):
    last_wills = True

    # -- the relaxed invariants --------------------------------------------------------------
    def max_deaths(self, state, round_):
        """R13.12: a resolved Last Stand on the other side takes its target along."""
        for d in wills(state)["draws"]:
            if d["round"] == round_ and d["card"] == "last_stand" and d["targets"]:
                (target,) = d["targets"]
                if vampire_side(self.roles[target]) != vampire_side(self.roles[d["seat"]]):
                    return 2
        return 1

    def dealt(self, state, seat, hand):
        hand = list(hand)
        if state.three_living:  # R9: effects carried over are cancelled
            return hand
        for d in wills(state)["draws"]:
            if d["round"] != state.round - 1 or not d["targets"] or d["targets"][0] != seat:
                continue
            if d["card"] == "spilled_wine" and "feast" in hand:
                hand.remove("feast")
            if d["card"] == "broken_stake" and hand.count("stake") > 1:
                hand.remove("stake")
        return hand

    def confessions(self, state):
        return [
            {"seat": d["seat"], "role": self.roles[d["seat"]]}
            for d in wills(state)["draws"]
            if d["card"] == "public_confession" and d["resolved"]
        ]

    def shown(self, state, seat):
        v = view(state, seat)
        # Public Confession: the only roles shown before the end, and the true ones
        assert v["public_roles"] == self.confessions(state)
        v = {k: x for k, x in v.items() if k != "public_roles"}
        self.check_last_will_view(state, v)
        return v

    def learn(self, old, new):
        super().learn(old, new)
        for d in wills(new)["draws"]:
            if d["card"] == "parting_glance" and d["resolved"]:
                (target,) = d["targets"]
                self.allowed[d["seat"]].add((target, self.roles[target]))
                if self.roles[target] == LORD and self.roles[d["seat"]] == "hunter":
                    assert new.player(d["seat"]).mesmerized, "R8.1: Parting Glance on the Lord"
                    self.checked["a Hunter's Parting Glance at the Lord"] += 1

    def check_events(self, old, new, action, events):
        rest = []
        for e in events:
            if e.audience is None and "role" in e.data:
                assert e.kind == "last_will_effect", e
                assert {"seat": e.data["seat"], "role": e.data["role"]} in self.confessions(new)
                assert set(e.data) == {"card", "seat", "role"}
                self.checked["a Public Confession's line"] += 1
            else:
                rest.append(e)
            if e.audience is None and e.kind == "last_will_effect" and "same_side" in e.data:
                a, b = e.data["targets"]  # Kindred or Not: the truth, Mesmerism ignored
                same = vampire_side(self.roles[a]) == vampire_side(self.roles[b])
                assert e.data["same_side"] == same
                self.checked["a Kindred or Not answer"] += 1
            assert "last_will_redraw" != e.kind or not new.options.relics
        super().check_events(old, new, action, rest)

    # -- R13 itself --------------------------------------------------------------------------
    def check_transition(self, old, new, action, events):
        super().check_transition(old, new, action, events)
        self.check_wills(old, new)

    def check_wills(self, old, new):
        data = wills(new)
        draws = data["draws"]
        rounds = [d["round"] for d in draws]
        assert len(rounds) == len(set(rounds)), "two Last Wills in one round"
        before = wills(old)["draws"]
        assert len(draws) >= len(before)
        for was, now in zip(before, draws[: len(before)], strict=True):  # resolved only once
            assert (was["round"], was["seat"], was["card"]) == (
                now["round"],
                now["seat"],
                now["card"],
            )
            assert now == was or (not was["resolved"] and now["resolved"])
        for d in draws:
            assert d["card"] not in RELIC_CARDS or new.options.relics, "a relic card resolved"
            assert not new.player(d["seat"]).alive, "a living player drew a Last Will"
        if draws and draws[-1]["round"] == new.round and new.dining is not None:
            d = draws[-1]
            assert new.dining.eliminated == d["seat"], "the drawer is not the eliminated player"
            assert not new.three_living, "R9: a Last Will in a three-living round"
            self.checked["this round's draw by the eliminated player"] += 1
        open_ = [d for d in draws if not d["resolved"]]
        assert len(open_) <= 1
        if data["deck_made"]:
            held = Counter(d["card"] for d in open_)
            assert Counter(data["deck"]) + Counter(data["discard"]) + held == FULL_DECK
            self.checked["the Last Will deck counted"] += 1
        if new.phase == "last_will":
            (d,) = open_
            assert new.deadline is not None and d["round"] == new.round
            offers = pending(new, d["seat"])
            (offer,) = offers
            options = offer["options"]
            assert options["choice"] == d["card"]
            assert set(options["targets"]) <= set(new.living) and d["seat"] not in new.living
            assert options["count"] == (2 if d["card"] == "kindred_or_not" else 1)
            self.checked["an open Last Will choice"] += 1
            if d["card"] in ("grudge", "last_stand"):
                stakers = {
                    p.owner
                    for p in new.dining.tokens
                    if p.target == d["seat"] and p.token in STAKES
                }
                assert set(options["targets"]) == stakers & set(new.living)
                self.checked["a Grudge or Last Stand aimed at stakers"] += 1
            for seat in self.roles:
                if seat != d["seat"]:
                    assert pending(new, seat) == []
        else:
            assert not open_ or new.outcome is not None
        # every elimination draws (not in a three-living round); a second death in a round
        # only by Last Stand, and it draws nothing
        died = [s for s in new.ghosts if s not in old.ghosts]
        if died and old.dining is not None:  # R7.2, Last Stand's victim included (relics off)
            assert old.dining.protected not in died, "R7.2: a Protected player was eliminated"
            self.checked["a death at Dining"] += 1
        if died:
            this = [d for d in draws if d["round"] == old.round]
            if old.three_living:
                assert this == [], "R9: a Last Will in a three-living round"
                self.checked["a death with three living draws nothing"] += 1
            elif old.phase == "last_will":
                (victim,) = died
                (d,) = this
                assert d["card"] == "last_stand" and d["targets"] == [victim]
                assert d["seat"] != victim
                self.checked["a Last Stand's victim"] += 1
            else:
                (d,) = this
                assert d["seat"] == died[0], "the eliminated player did not draw"
                self.checked["an eliminated player drew"] += 1
                if len(died) == 2:
                    assert d["card"] == "last_stand" and d["targets"] == [died[1]]
        # effects in force: this round's only, none in a three-living round
        if new.phase == "mingling":
            effects = view(new, None)["effects"]
            if new.three_living:
                assert effects == []
                self.checked["no effect with three living"] += 1
            for e in effects:
                (d,) = [x for x in draws if x["seat"] == e["by"]]
                assert e["card"] == d["card"] and d["round"] == new.round - 1
                assert e["seat"] == (d["targets"] or [d["seat"]])[0]
                self.checked["an effect in force"] += 1

    def check_last_will_view(self, state, v):
        shown = state.dining or state.last_dining
        draws = [d for d in wills(state)["draws"] if shown and d["round"] == shown.round]
        assert [d["card"]["id"] for d in v["last_wills"]] == [d["card"] for d in draws]
        if v["last_dining"] is not None:
            expected = v["last_wills"][0] if v["last_wills"] else None
            assert v["last_dining"]["last_will"] == expected
            self.checked["a last Dining's Last Will shown"] += 1
        text = json.dumps(v["last_wills"])
        assert not ROLE_WORDS.search(text)

    def random_move(self, state):
        """Now and then a Last Will choice with random seats: legal exactly when offered."""
        if self.rng.random() < 0.5:
            return super().random_move(state)
        rng = self.rng
        seat = rng.randint(1, self.n)
        targets = rng.sample(range(0, self.n + 2), rng.choice((0, 1, 1, 2, 3)))
        card = rng.choice([c.id for c in CARDS])
        for offer in pending(state, seat):
            if offer["action"] == "resolve_choice" and rng.random() < 0.7:
                card = offer["options"]["choice"]
        action = Action("resolve_choice", seat, {"choice": card, "targets": targets})
        for offer in pending(state, seat):
            options = offer["options"]
            if (
                offer["action"] == "resolve_choice"
                and options["choice"] == card
                and len(targets) == options["count"]
                and set(targets) <= set(options["targets"])
            ):
                return action, True
        return action, False


@settings(
    max_examples=examples(suite=100, long=500),  # whole games, a view checked after one step in 40
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=6, max_value=12),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    timeout_rate=st.sampled_from([0.0, 0.02, 0.1, 0.3]),
)
def test_properties_last_wills_random_legal_games_keep_every_invariant(players, seed, timeout_rate):
    LastWillGame(players, seed, timeout_rate, look=1 / 40, roundtrip=1 / 100).play()


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=6, max_value=12),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    timeout_rate=st.sampled_from([0.0, 0.02, 0.1, 0.3]),
)
def test_properties_last_wills_no_view_ever_leaks_a_secret(players, seed, timeout_rate):
    LastWillGame(players, seed, timeout_rate, look=1.0, deep=True, roundtrip=0.2).play()


def test_properties_last_wills_driver_sees_most_cards_and_both_winners():
    """The driver itself: over a few dozen games most of the (non-relic) cards are drawn, and
    every conditional check, the core's and R13's, had something to check."""
    winners, cards, checked = Counter(), Counter(), Counter()
    for players in range(6, 13):
        for seed in range(4):
            game = LastWillGame(players, seed, 0.05, look=0.05)
            game.play()
            winners[game.state.outcome.winner] += 1
            cards.update(d["card"] for d in wills(game.state)["draws"])
            checked += game.checked
    assert set(winners) == {"hunters", "vampires"}
    assert not set(cards) & RELIC_CARDS
    assert len(cards) >= 10, cards
    assert set(CHECKS + LAST_WILL_CHECKS) - set(checked) == set()


LAST_WILL_CHECKS = (
    "a Hunter's Parting Glance at the Lord",
    "a Public Confession's line",
    "a Kindred or Not answer",
    "this round's draw by the eliminated player",
    "the Last Will deck counted",
    "an open Last Will choice",
    "a Grudge or Last Stand aimed at stakers",
    "a death at Dining",
    "a death with three living draws nothing",
    "a Last Stand's victim",
    "an eliminated player drew",
    "no effect with three living",
    "an effect in force",
    "a last Dining's Last Will shown",
)
