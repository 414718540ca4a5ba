"""R13 Last Will cards: one test per card, and every interaction docs/rules.md R13 names.

Most tests use seven players (seat 1 the Vampire Lord, 2 a Vampire, 3–7 Hunters) with Last Wills
on. Round 1 (`lw`): seat 3 has the most Stakes and is examined by seat 4, who is elected Alpha for
round 2. A card is put on top of the deck (`stack`) before the Dining that draws it; the rest of
the deck stays a legal 18-card deck.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from games.engine import pending, timeout
from games.engine.last_wills import BY_ID, CARDS, EMPTY_DATA, result_lines
from games.engine.state import evolve
from games.engine.view import waiting_for
from tests.engine.table import Table
from tests.engine.test_r5_ties import LETTER, ORDER, STAKE_VOTES, play_round, rig

FULL_DECK = Counter({c.id: c.copies for c in CARDS})
CHOICE = "last_will"  # the phase of a Last Will choice


# -- helpers --------------------------------------------------------------------------------------


def lw(roles="LVHHHHH", seed=1, **options):
    """Round 2 of a game with Last Wills on: seat 4 (a Hunter) is the Alpha, nobody is dead."""
    t = Table(roles, seed=seed, last_wills=True, **options)
    play_round(t, 3, 4, examiner=4)
    assert t.state.round == 2 and t.state.alpha == 4 and not t.state.ghosts
    assert not t.state.ext.get("last_wills", {}).get("draws")  # round 1 kills nobody: no draw
    return t


def data(t):
    return t.state.ext["last_wills"]


def stack(t, *cards):
    """Put `cards` on top of the deck; the rest of the 18 cards (less the discards) below."""
    current = t.state.ext.get("last_wills") or EMPTY_DATA
    rest = FULL_DECK - Counter(current["discard"]) - Counter(cards)
    deck = list(cards) + sorted(rest.elements())
    ext = {**t.state.ext, "last_wills": {**current, "deck": deck, "deck_made": True}}
    t.state = evolve(t.state, ext=ext)
    return t


def dine(t, kill, elect=None, *, ghosts=None, investigate=None, card=None):
    """Mingle so that `kill` has the most Stakes and `elect` the most Feasts; `card` is drawn."""
    if card is not None:
        stack(t, card)
    protected = Counter(ghosts.values()).most_common(1)[0][0] if ghosts else None
    plan = rig(
        t.state, most_stakes=kill, most_feasts=elect, protected=protected, investigate=investigate
    )
    t.mingle(plan, ghosts=ghosts)
    return t


def plan_for(state, pred, *, aim=None, protected=None, seed=0, tries=300_000):
    """A full placement plan whose raw tallies (placed tokens only, no automatic votes) satisfy
    pred(stakes, feasts); `aim` biases a token type towards some seats."""
    rng = random.Random(seed)
    living = list(state.living)
    aim = aim or {}
    for _ in range(tries):
        plan, stakes, feasts = {}, Counter(), Counter()
        for seat in living:
            used, words = set(), []
            for token in sorted(state.hands[seat - 1], key=ORDER.get):
                options = [s for s in living if s != seat and s not in used]
                if token == "investigation":  # never look at the Lord by chance
                    options = [s for s in options if state.player(s).role != "vampire_lord"]
                kind = "stake" if token == "double_stake" else token
                wish = [s for s in aim.get(kind, ()) if s in options]
                target = rng.choice(wish) if wish and rng.random() < 0.7 else rng.choice(options)
                used.add(target)
                words.append(f"{LETTER[token]}{target}")
                if token in STAKE_VOTES and target != protected:
                    stakes[target] += STAKE_VOTES[token]
                if token == "feast" and target not in (protected, state.alpha):
                    feasts[target] += 1
            plan[seat] = " ".join(words)
        if pred(stakes, feasts):
            return plan
    raise AssertionError("no plan found")


def leaders(counter):
    top = max(counter.values(), default=0)
    return tuple(sorted(s for s, n in counter.items() if n == top)) if top else ()


def choose(t, *targets):
    """The open Last Will's drawer resolves it."""
    draw = open_draw(t)
    return t.do(draw["seat"], "resolve_choice", choice=draw["card"], targets=list(targets))


def open_draw(t):
    return next(d for d in data(t)["draws"] if not d["resolved"])


def events_of(t, round_, kind=None):
    return [e for e in t.events if e.round == round_ and (kind is None or e.kind == kind)]


def kinds_of(t, round_):
    return [e.kind for e in events_of(t, round_)]


def stakers(t, seat):
    dining = t.state.dining
    return sorted(
        {p.owner for p in dining.tokens if p.target == seat and p.token in STAKE_VOTES}
        & set(t.state.living)
    )


def dumps(obj):
    return json.dumps(obj, sort_keys=True)


# Round 2 of `lw`: seat 5 places nothing (3 unplaced tokens = 3 Stake votes, R3.4), every other
# seat gets exactly 2 Stake votes and nobody puts a Stake on seat 5. Seat 6 has the most Feasts.
NOBODY_STAKES_FIVE = {
    1: "S2 S3 F6",
    2: "S1 S3 F6",
    3: "S4 S6 F7",
    4: "D7 F6 I3",
    6: "S2 S4 F1",
    7: "S1 S6 F3",
}


# -- the draw: when, and when not -----------------------------------------------------------------


def test_r13_dying_accusation_is_drawn_after_the_elimination_and_before_the_alpha_election():
    t = lw()
    dine(t, kill=5, elect=6, card="dying_accusation")
    # Dining waits on the eliminated player's choice: the election has not happened yet
    assert t.state.phase == CHOICE and t.state.round == 2
    assert not t.alive(5) and t.dining["eliminated"] == 5
    assert t.dining["alpha_elected"] is None
    kinds = kinds_of(t, 2)
    assert kinds.index("eliminated") < kinds.index("last_will")
    assert "alpha_elected" not in kinds and "no_alpha" not in kinds
    (drawn,) = events_of(t, 2, "last_will")
    assert drawn.audience is None and drawn.data == {"seat": 5, "card": "dying_accusation"}
    # a timed, mandatory choice for the eliminated player (now a Ghost) alone
    assert pending(t.state, 5) == [
        {
            "action": "resolve_choice",
            "options": {
                "choice": "dying_accusation",
                "targets": [1, 2, 3, 4, 6, 7],
                "count": 1,
                "min": 1,
                "max": 1,
            },
        }
    ]
    assert all(pending(t.state, s) == [] for s in (1, 2, 3, 4, 6, 7))
    assert waiting_for(t.state) == [5]
    assert t.state.deadline == t.now + 60
    assert timeout(t.state, t.now + 59) == (t.state, [])
    choose(t, 2)
    kinds = kinds_of(t, 2)
    assert kinds.index("last_will") < kinds.index("last_will_effect") < kinds.index("alpha_elected")
    assert t.state.round == 3 and t.dining["alpha_elected"] == 6 and t.state.alpha == 6
    effect = [e for e in events_of(t, 2, "last_will_effect")][0]
    assert effect.audience is None and "Seat 2" in effect.text


def test_r13_dying_accusation_gives_one_automatic_stake_vote_next_round_only():
    t = lw()
    dine(t, kill=5, elect=6, card="dying_accusation")
    choose(t, 2)
    # round 3: seats 2 and 3 tie on placed Stakes; the accusation breaks the tie against seat 2
    assert all(
        v["effects"]
        == [{"card": "dying_accusation", "name": "Dying Accusation", "seat": 2, "by": 5}]
        for v in (t.view(s) for s in (None, 1, 2, 3, 5))
    )
    plan = plan_for(
        t.state,
        lambda st, fe: leaders(st) == (2, 3) and len(leaders(fe)) == 1,
        aim={"stake": [2, 3], "feast": [4]},
        protected=7,
    )
    stack(t, "nothing_to_say")
    t.mingle(plan, ghosts={5: 7})
    assert not t.alive(2) and t.alive(3)
    assert "tie" not in kinds_of(t, 3)
    assert t.state.round == 4 and t.view(None)["effects"] == []


def test_r13_dying_accusation_ends_with_its_round():
    t = lw()
    dine(t, kill=5, elect=6, card="dying_accusation")
    choose(t, 2)
    # round 3: seat 7 is eliminated, seat 2 is far behind
    plan = plan_for(
        t.state,
        lambda st, fe: leaders(st) == (7,) and st[7] >= st[2] + 2 and len(leaders(fe)) == 1,
        aim={"stake": [7], "feast": [4]},
    )
    stack(t, "nothing_to_say")
    t.mingle(plan, ghosts={5: 3})
    assert not t.alive(7) and t.state.round == 4
    # round 4: seats 2 and 3 tie on placed Stakes and nothing is added: the tie vote opens
    assert t.view(2)["effects"] == []
    plan = plan_for(
        t.state,
        lambda st, fe: leaders(st) == (2, 3) and len(leaders(fe)) == 1,
        aim={"stake": [2, 3], "feast": [6]},
        protected=4,
    )
    t.mingle(plan, ghosts={5: 4, 7: 4})
    assert t.state.phase == "tiebreak" and t.view(None)["tie"]["candidates"] == [2, 3]


def test_r13_no_last_will_in_round_one_where_nobody_is_eliminated():
    t = Table("LVHHHHH", last_wills=True)
    play_round(t, 3, 4, examiner=4)
    assert "last_will" not in t.kinds()
    assert t.view(None)["last_wills"] == [] and t.dining.get("last_will") is None


def test_r13_no_last_will_when_nobody_is_eliminated():
    t = Table("LVHHHH", last_wills=True)
    t.mingle(
        {1: "S3 S4 F5", 2: "S3 S4 F5", 3: "S4 S5 F6", 4: "S3 S5 F6", 5: "S3 S6 F4", 6: "S3 S4 F5"}
    )
    t.do(3, "choose_examiner", target=4)
    # round 2: seats 3 and 4 tie; the living vote ties again: nobody is eliminated (R5.3)
    t.mingle(
        {
            1: "S3 S4 F2",
            2: "S3 S4 F1",
            3: "S4 S6 F1",
            4: "S3 S6 F1",
            5: "D1 F6 I2",
            6: "S2 S5 F3",
        }
    )
    t.vote({1: 3, 2: 3, 3: 4, 4: 3, 5: 4, 6: 4})
    assert t.state.round == 3 and not t.state.ghosts
    assert "last_will" not in t.kinds()


def test_r13_the_draw_follows_an_elimination_settled_by_a_tie_vote():
    t = Table("LVHHHH", last_wills=True)
    t.mingle(
        {1: "S3 S4 F5", 2: "S3 S4 F5", 3: "S4 S5 F6", 4: "S3 S5 F6", 5: "S3 S6 F4", 6: "S3 S4 F5"}
    )
    t.do(3, "choose_examiner", target=4)
    stack(t, "parting_glance")
    t.mingle(
        {
            1: "S3 S4 F2",
            2: "S3 S4 F1",
            3: "S4 S6 F1",
            4: "S3 S6 F1",
            5: "D1 F6 I2",
            6: "S2 S5 F3",
        }
    )
    t.vote({1: 4, 2: 4, 3: 4, 4: 3, 5: 3, 6: 4})
    assert not t.alive(4) and t.state.phase == CHOICE
    assert pending(t.state, 4)[0]["options"]["targets"] == [1, 2, 3, 5, 6]


def test_r13_no_draw_in_a_three_living_round_and_next_round_effects_are_cancelled_by_r9():
    t = lw("LVHHHH")  # six players: round 2 Alpha seat 4
    dine(t, kill=3, card="nothing_to_say")
    dine(t, kill=2, card="nothing_to_say")
    assert t.state.living == (1, 4, 5, 6)
    dine(t, kill=4, card="dying_accusation")
    choose(t, 5)
    # round 5 starts with 3 living players: the accusation is cancelled (R9)
    assert t.state.round == 5 and t.state.three_living and t.state.living == (1, 5, 6)
    assert t.view(5)["effects"] == [] and t.view(None)["effects"] == []
    # one Stake each, all on different players: a three-way tie, no automatic vote on seat 5
    t.mingle({1: "S5 F6", 5: "S6 F1", 6: "S1 F5"})
    assert t.state.phase == "tiebreak" and t.view(None)["tie"]["candidates"] == [1, 5, 6]
    t.vote({3: 6, 2: 6, 4: 6})
    assert not t.alive(6)
    # the eliminated player of a three-living round draws nothing
    assert "last_will" not in kinds_of(t, 5)
    assert [d["round"] for d in data(t)["draws"]] == [2, 3, 4]
    assert t.state.outcome is not None and t.state.outcome.winner == "vampires"


# -- the deck -------------------------------------------------------------------------------------


def test_r13_the_first_draw_shuffles_the_whole_deck_reproducibly():
    a, b = lw(seed=7), lw(seed=7)
    for t in (a, b):
        dine(t, kill=5, elect=6)
        if t.state.phase == CHOICE:
            t.expire()
    assert data(a) == data(b)
    d = data(a)
    (draw,) = d["draws"]
    assert Counter(d["deck"]) + Counter(d["discard"]) == FULL_DECK
    assert draw["card"] in d["discard"] and d["deck_made"]
    assert not BY_ID[draw["card"]].names_relics  # relics are off


def test_r13_relic_cards_are_redrawn_when_relics_are_off():
    t = lw()
    stack(t, "heirloom", "shattered_relic", "sealed_reliquary", "nothing_to_say")
    dine(t, kill=5, elect=6)
    redraws = events_of(t, 2, "last_will_redraw")
    assert len(redraws) == 3 and all(e.audience is None for e in redraws)
    (drawn,) = events_of(t, 2, "last_will")
    assert drawn.data["card"] == "nothing_to_say"
    assert [d["card"] for d in data(t)["draws"]] == ["nothing_to_say"]
    assert data(t)["discard"] == [
        "heirloom",
        "shattered_relic",
        "sealed_reliquary",
        "nothing_to_say",
    ]
    assert t.state.round == 3


def test_r13_the_discards_are_reshuffled_when_the_deck_runs_out():
    t = lw()
    stack(t, "nothing_to_say")
    d = data(t)
    discard = sorted((FULL_DECK - Counter(["nothing_to_say"])).elements())
    t.state = evolve(
        t.state,
        ext={**t.state.ext, "last_wills": {**d, "deck": ["nothing_to_say"], "discard": discard}},
    )
    dine(t, kill=5, elect=6)  # the last card of the deck
    assert data(t)["deck"] == [] and Counter(data(t)["discard"]) == FULL_DECK
    before = t.state
    dine(t, kill=7, ghosts={5: 3})  # the deck is empty: the 18 discards are shuffled
    d = data(t)
    drawn = d["draws"][-1]["card"]
    in_hand = [] if d["draws"][-1]["resolved"] else [drawn]
    assert Counter(d["deck"]) + Counter(d["discard"]) + Counter(in_hand) == FULL_DECK
    redrawn = [c for c in d["discard"] if BY_ID[c].names_relics]
    assert len(d["deck"]) == 17 - len(redrawn)
    assert not BY_ID[drawn].names_relics
    assert d["deck"] != sorted(d["deck"])  # shuffled, not the discard order
    # reproducible: the same position draws the same card and leaves the same deck
    again = Table.__new__(Table)
    again.state, again.events, again.now = before, [], t.now
    dine(again, kill=7, ghosts={5: 3})
    assert data(again)["deck"] == d["deck"] and data(again)["draws"][-1]["card"] == drawn


# -- the timed, mandatory choice ------------------------------------------------------------------


def test_r13_kindred_or_not_on_timeout_is_a_random_legal_choice_reproducible_from_the_seed():
    results = []
    for _ in range(2):
        t = lw(seed=11, timers={"choice": 25})
        dine(t, kill=5, elect=6, card="kindred_or_not")
        assert t.state.phase == CHOICE and t.state.deadline == t.now + 25
        assert pending(t.state, 5)[0]["options"]["count"] == 2
        t.expire()
        (draw,) = data(t)["draws"]
        assert draw["resolved"] and len(set(draw["targets"])) == 2
        assert set(draw["targets"]) <= {1, 2, 3, 4, 6, 7}
        assert "last_will_timeout" in kinds_of(t, 2)
        assert t.state.round == 3 and t.state.phase == "mingling"
        results.append((draw["targets"], t.state))
    assert results[0][0] == results[1][0] and results[0][1] == results[1][1]


def test_r13_another_seats_refusal_is_the_same_whoever_holds_the_last_will():
    """Errors say nothing the asker's view does not show ("It is not your choice.",
    never "Only seat 5 ...")."""
    t = lw()
    dine(t, kill=5, elect=6, card="kingmaker")
    for seat in (1, 6, 7):
        assert t.illegal("wrong_phase", seat, "resolve_choice", targets=[7]).detail == (
            "It is not your choice."
        )


def test_r13_illegal_choices_are_refused_with_codes_and_change_nothing():
    t = lw()
    # no choice is open during Mingling
    t.illegal("wrong_phase", 5, "resolve_choice", choice="kingmaker", targets=[6])
    dine(t, kill=5, elect=6, card="kingmaker")
    assert pending(t.state, 5)[0]["options"]["targets"] == [1, 2, 3, 6, 7]  # not 4, the Alpha
    t.illegal("wrong_phase", 6, "resolve_choice", choice="kingmaker", targets=[7])  # wrong seat
    t.illegal("wrong_phase", 1, "resolve_choice", choice="kingmaker", targets=[7])
    t.illegal("illegal_target", 5, "resolve_choice", choice="kingmaker", targets=[])  # count
    t.illegal("illegal_target", 5, "resolve_choice", choice="kingmaker", targets=[6, 7])
    t.illegal("illegal_target", 5, "resolve_choice", choice="kingmaker", targets=[4])  # Alpha
    t.illegal("illegal_target", 5, "resolve_choice", choice="kingmaker", targets=[5])  # a Ghost
    t.illegal("illegal_target", 5, "resolve_choice", choice="kingmaker", targets=[99])
    t.illegal("bad_request", 5, "resolve_choice", choice="toast", targets=[6])  # another card
    t.illegal("bad_request", 5, "resolve_choice", choice="kingmaker", targets="6")
    t.illegal("bad_request", 5, "resolve_choice", choice="kingmaker", targets=[True])
    t.illegal("wrong_phase", 6, "place_token", token="stake", target=7)
    t.illegal("wrong_phase", 6, "tiebreak_vote", target=7)
    assert t.state.phase == CHOICE
    choose(t, 7)
    # once resolved, nothing is open any more
    t.illegal("wrong_phase", 5, "resolve_choice", choice="kingmaker", targets=[7])


def test_r13_resolve_choice_with_last_wills_off_is_the_wrong_phase():
    t = Table("LVHHHHH")
    play_round(t, 3, 4, examiner=4)
    play_round(t, 5, 6)
    assert "last_will" not in t.kinds() and "last_wills" not in t.view(None)
    t.illegal("wrong_phase", 5, "resolve_choice", choice="toast", targets=[6])


def test_r13_two_living_choice_needs_two_different_offered_seats():
    t = lw()
    dine(t, kill=5, elect=6, card="kindred_or_not")
    assert pending(t.state, 5)[0]["options"] == {
        "choice": "kindred_or_not",
        "targets": [1, 2, 3, 4, 6, 7],
        "count": 2,
        "min": 2,
        "max": 2,
    }
    t.illegal("illegal_target", 5, "resolve_choice", choice="kindred_or_not", targets=[3])
    t.illegal("illegal_target", 5, "resolve_choice", choice="kindred_or_not", targets=[3, 3])
    t.illegal("illegal_target", 5, "resolve_choice", choice="kindred_or_not", targets=[3, 5])
    t.illegal("illegal_target", 5, "resolve_choice", choice="kindred_or_not", targets=[3, 4, 6])


# -- 1. Parting Glance ----------------------------------------------------------------------------


def test_r13_parting_glance_on_the_lord_mesmerizes_the_eliminated_hunter():
    t = lw()
    dine(t, kill=5, elect=6, card="parting_glance")
    choose(t, 1)
    me = t.view(5)["me"]
    assert me["mesmerized"] is True and not me["alive"]
    assert t.state.player(5).mesmerized
    assert {"seat": 1, "role": "vampire_lord", "source": "last_will", "round": 2} in me["knowledge"]
    told = [e for e in t.events if e.kind == "mesmerized"]
    assert sorted(e.audience for e in told) == [(1, 2), (5,)]  # R8.2: the Lord and the Vampire
    fact = {"seat": 5, "source": "mesmerism", "round": 2, "mesmerized": True}
    for seat in (1, 2):
        assert fact in t.view(seat)["me"]["knowledge"]
    for seat in (3, 4, 6, 7):
        assert all(k.get("mesmerized") is None for k in t.view(seat)["me"]["knowledge"])
        seen = t.seen_by(seat)
        assert not [e for e in seen if e.kind == "mesmerized" or e.data.get("seat") == 1]
    # the result is private, the fact of looking is public
    (looked,) = events_of(t, 2, "last_will_effect")
    assert looked.audience is None and looked.text == "Seat 5 looks at seat 1's Secret Role."
    (seen,) = [e for e in events_of(t, 2, "examined") if e.data["seat"] == 1]
    assert seen.audience == (5,) and seen.data == {"seat": 1, "role": "vampire_lord"}


def test_r13_parting_glance_result_is_private_to_the_drawer():
    t = lw()
    dine(t, kill=5, elect=6, card="parting_glance")
    choose(t, 2)  # the Vampire
    assert not t.state.player(5).mesmerized
    assert {"seat": 2, "role": "vampire", "source": "last_will", "round": 2} in t.view(5)["me"][
        "knowledge"
    ]
    (draw,) = t.view(None)["last_wills"]
    assert draw["targets"] == [2] and draw["result"] == "Seat 5 looks at seat 2's Secret Role."
    for seat in (None, 3, 4, 6, 7):  # Hunters who never learned seat 2's role
        v = t.view(seat)
        assert '"vampire"' not in dumps({k: x for k, x in v.items() if k != "me"})
        if seat is not None:
            assert all(k.get("role") != "vampire" for k in v["me"]["knowledge"])
            seen = t.seen_by(seat)
            assert not any("Vampire" in e.text and e.round == 2 for e in seen), seat
            assert not any(e.data.get("role") == "vampire" for e in seen)


def test_r13_parting_glance_may_not_name_a_protected_player():
    """R13 amended / R7.2: the Protected cannot be investigated this round, so Parting Glance
    does not offer them (it used to examine them, and Mesmerize the examiner if it was the
    Lord)."""
    t = lw()
    dine(t, kill=5, elect=6, card="nothing_to_say")
    dine(t, kill=7, elect=3, ghosts={5: 1}, card="parting_glance")
    assert t.dining["protected"] == 1 and not t.alive(7)
    (opts,) = [p["options"] for p in pending(t.state, 7) if p["action"] == "resolve_choice"]
    assert opts["targets"] == [2, 3, 4, 6]
    t.illegal("illegal_target", 7, "resolve_choice", choice="parting_glance", targets=[1])
    assert not t.state.player(7).mesmerized


# -- 2. Dying Accusation: above. 3. Toast to a Friend ---------------------------------------------


def test_r13_toast_gives_one_automatic_feast_vote_next_round():
    t = lw()
    dine(t, kill=5, elect=6, card="toast")
    assert pending(t.state, 5)[0]["options"]["targets"] == [1, 2, 3, 4, 6, 7]
    choose(t, 7)
    assert t.view(3)["effects"] == [
        {"card": "toast", "name": "Toast to a Friend", "seat": 7, "by": 5}
    ]
    # round 3 (Alpha seat 6): seats 3 and 7 tie on placed Feasts; the toast elects seat 7
    plan = plan_for(
        t.state,
        lambda st, fe: (
            len(leaders(st)) == 1 and leaders(st)[0] not in (3, 7) and leaders(fe) == (3, 7)
        ),
        aim={"stake": [2], "feast": [3, 7]},
        protected=1,
    )
    stack(t, "nothing_to_say")
    t.mingle(plan, ghosts={5: 1})
    assert "tie" not in kinds_of(t, 3)
    assert t.dining["alpha_elected"] == 7 and t.state.alpha == 7


# -- 4. Spilled Wine, 5. Broken Stake -------------------------------------------------------------


def test_r13_spilled_wine_takes_the_feast_token_which_does_not_count_as_unplaced():
    t = lw()
    dine(t, kill=5, elect=6, card="spilled_wine")
    choose(t, 7)
    assert t.state.round == 3 and t.state.alpha == 6
    assert t.view(7)["me"]["tokens"] == ["stake", "stake"]
    (place,) = [p for p in pending(t.state, 7) if p["action"] == "place_token"]
    assert place["options"]["tokens"] == ["stake"]
    assert t.view(7)["effects"] == [
        {"card": "spilled_wine", "name": "Spilled Wine", "seat": 7, "by": 5}
    ]
    plan = rig(t.state, most_stakes=2, most_feasts=3, protected=4)
    assert plan[7].count("F") == 0 and len(plan[7].split()) == 2
    stack(t, "nothing_to_say")
    t.mingle(plan, ghosts={5: 4})
    # every token was placed: Mingling ended without the timer, nothing counts as unplaced
    assert "Every token is placed" in [e for e in events_of(t, 3, "mingling_over")][0].text
    assert t.dining["unplaced"] == []
    # the next round, the hand is whole again
    assert t.view(7)["me"]["tokens"] == ["stake", "stake", "feast"]


def test_r13_spilled_wine_leaves_an_unplacing_player_only_two_unplaced_tokens():
    t = lw()
    dine(t, kill=5, elect=6, card="spilled_wine")
    choose(t, 7)
    plan = rig(t.state, most_stakes=2, most_feasts=3, protected=4)
    del plan[7]
    stack(t, "nothing_to_say")
    t.mingle(plan, ghosts={5: 4})
    assert t.dining["unplaced"] == [
        {"owner": 7, "token": "stake"},
        {"owner": 7, "token": "stake"},
    ]


def test_r13_spilled_wine_on_the_next_alpha_leaves_double_stake_and_investigation():
    t = lw()
    dine(t, kill=5, elect=6, card="spilled_wine")
    choose(t, 6)
    assert t.state.alpha == 6
    assert t.view(6)["me"]["tokens"] == ["double_stake", "investigation"]


def test_r13_broken_stake_leaves_one_stake_next_round():
    t = lw()
    dine(t, kill=5, elect=6, card="broken_stake")
    choose(t, 7)
    assert t.view(7)["me"]["tokens"] == ["stake", "feast"]
    assert t.view(3)["me"]["tokens"] == ["stake", "stake", "feast"]
    assert t.view(None)["effects"] == [
        {"card": "broken_stake", "name": "Broken Stake", "seat": 7, "by": 5}
    ]
    plan = rig(t.state, most_stakes=2, most_feasts=3, protected=4)
    assert len(plan[7].split()) == 2
    stack(t, "nothing_to_say")
    t.mingle(plan, ghosts={5: 4})
    assert t.dining["unplaced"] == []
    assert t.view(7)["me"]["tokens"] == ["stake", "stake", "feast"]


def test_r13_broken_stake_leaves_an_alphas_hand_unchanged():
    t = lw()
    dine(t, kill=5, elect=6, card="broken_stake")
    choose(t, 6)
    assert t.state.alpha == 6
    assert t.view(6)["me"]["tokens"] == ["double_stake", "feast", "investigation"]


# -- 6. Grudge ------------------------------------------------------------------------------------


def test_r13_grudge_gives_a_staker_two_automatic_stake_votes_next_round():
    t = lw()
    dine(t, kill=5, elect=6, card="grudge")
    offered = pending(t.state, 5)[0]["options"]["targets"]
    assert offered == stakers(t, 5) and offered
    grudge = 2 if 2 in offered else offered[0]
    for seat in (s for s in (1, 2, 3, 4, 6, 7) if s not in offered):
        t.illegal("illegal_target", 5, "resolve_choice", choice="grudge", targets=[seat])
    choose(t, grudge)
    assert t.view(None)["effects"] == [
        {"card": "grudge", "name": "Grudge", "seat": grudge, "by": 5}
    ]
    other = 3 if grudge != 3 else 7
    protected = 1 if grudge != 1 else 4
    plan = plan_for(
        t.state,
        lambda st, fe: leaders(st) == tuple(sorted((grudge, other))) and len(leaders(fe)) == 1,
        aim={"stake": [grudge, other]},
        protected=protected,
    )
    stack(t, "nothing_to_say")
    t.mingle(plan, ghosts={5: protected})
    assert not t.alive(grudge) and t.alive(other)
    assert "tie" not in kinds_of(t, 3)


def test_r13_grudge_with_nobody_who_staked_you_has_no_effect():
    t = lw()
    stack(t, "grudge")
    t.mingle(NOBODY_STAKES_FIVE)
    assert not t.alive(5) and t.dining["eliminated"] == 5
    assert t.state.round == 3 and t.state.phase == "mingling"  # no choice was asked
    assert "last_will_void" in kinds_of(t, 2)
    (draw,) = data(t)["draws"]
    assert draw["card"] == "grudge" and draw["resolved"] and draw["targets"] == []
    assert data(t)["effects"] == [] and t.view(None)["effects"] == []


# -- 7. Overturned Table, 8. Kingmaker ------------------------------------------------------------


def test_r13_overturned_table_no_alpha_is_elected_this_round():
    t = lw()
    dine(t, kill=5, elect=6, card="overturned_table")
    assert t.state.round == 3  # no choice to make
    assert t.dining["alpha_elected"] is None and t.state.alpha is None
    assert "no_alpha" in kinds_of(t, 2) and "alpha_elected" not in kinds_of(t, 2)
    assert all(t.view(s)["me"]["tokens"] == ["stake", "stake", "feast"] for s in (1, 2, 3, 4, 6, 7))


def test_r13_kingmaker_chooses_the_alpha_over_the_feast_vote():
    t = lw()
    dine(t, kill=5, elect=6, card="kingmaker")
    assert pending(t.state, 5)[0]["options"] == {
        "choice": "kingmaker",
        "targets": [1, 2, 3, 6, 7],  # living, not this round's Alpha (4), not the eliminated
        "count": 1,
        "min": 1,
        "max": 1,
    }
    choose(t, 3)
    assert t.dining["alpha_elected"] == 3 and t.state.alpha == 3
    assert t.view(3)["me"]["tokens"] == ["double_stake", "feast", "investigation"]
    assert "Seat 5 makes seat 3 the next Alpha Hunter." in [e.text for e in t.events]


def test_r13_kingmaker_offers_only_eligible_players_not_the_protected_one():
    t = lw()
    dine(t, kill=5, elect=6, card="nothing_to_say")
    # round 3: Alpha seat 6, seat 7 Protected by the Ghost
    dine(t, kill=3, elect=2, ghosts={5: 7}, card="kingmaker")
    assert t.dining["protected"] == 7
    assert pending(t.state, 3)[0]["options"]["targets"] == [1, 2, 4]
    t.illegal("illegal_target", 3, "resolve_choice", choice="kingmaker", targets=[7])
    t.illegal("illegal_target", 3, "resolve_choice", choice="kingmaker", targets=[6])
    choose(t, 1)
    assert t.dining["alpha_elected"] == 1


# -- 9. Public Confession -------------------------------------------------------------------------


def test_r13_public_confession_reveals_the_role_to_everyone():
    t = lw()
    dine(t, kill=2, elect=6, card="public_confession")
    assert t.state.round == 3
    for seat in (None, 1, 2, 3, 4, 5, 6, 7):
        assert t.view(seat)["public_roles"] == [{"seat": 2, "role": "vampire"}]
    (said,) = events_of(t, 2, "last_will_effect")
    assert said.audience is None
    assert said.data == {"card": "public_confession", "seat": 2, "role": "vampire"}
    assert said.text == "Seat 2 was a Vampire."
    assert t.dining["last_will"]["result"] == "Seat 2 was a Vampire."


def test_r13_public_confession_of_the_lord_mesmerizes_nobody():
    t = lw()
    dine(t, kill=1, elect=6, card="public_confession")
    assert t.view(None)["public_roles"] == [{"seat": 1, "role": "vampire_lord"}]
    assert not any(p.mesmerized for p in t.state.players)
    assert "mesmerized" not in t.kinds()
    assert t.state.outcome is None  # seat 2, a Vampire, lives on (R12.1)


def test_r13_public_confession_is_not_an_examination():
    t = lw("LVVHHHHH")  # eight players: seat 1 the Lord, 2–3 Vampires
    dine(t, kill=1, elect=6, card="public_confession")
    assert t.state.outcome is None and t.state.round == 3
    assert t.view(None)["public_roles"] == [{"seat": 1, "role": "vampire_lord"}]
    assert not any(p.mesmerized for p in t.state.players)
    assert "mesmerized" not in t.kinds()
    for seat in range(4, 9):
        assert all(k.get("role") is None or k["seat"] != 1 for k in t.view(seat)["me"]["knowledge"])


# -- 10. Restless Spirit --------------------------------------------------------------------------


def restless(card):
    """Nine players (seat 1 the Lord, 2–3 Vampires, 4–9 Hunters): seats 9, 8 and 7 die in rounds
    2–4; seat 7 draws `card`. Round 5 has three Ghosts, seat 7 the latest."""
    t = Table("LVVHHHHHH", last_wills=True)
    play_round(t, 4, 5, examiner=6)
    dine(t, kill=9, elect=6, card="nothing_to_say")
    dine(t, kill=8, elect=4, ghosts={9: 3}, card="nothing_to_say")
    dine(t, kill=7, elect=5, ghosts={9: 2, 8: 2}, card=card)
    assert t.state.round == 5 and t.state.ghosts == (9, 8, 7)
    return t


def test_r13_restless_spirit_doubles_the_ghosts_intervention_and_tie_votes_next_round():
    for card, protected, eliminated in (("restless_spirit", 6, 3), ("nothing_to_say", 4, 2)):
        t = restless(card)
        if card == "restless_spirit":
            assert t.view(None)["effects"] == [
                {"card": "restless_spirit", "name": "Restless Spirit", "seat": 7, "by": 7}
            ]
            assert "Seat 7's votes count double next round." in [e.text for e in t.events]
        # intervention: seats 9 and 8 name seat 4, seat 7 names seat 6
        plan = plan_for(
            t.state,
            lambda st, fe, p=protected: (
                leaders(st) == (2, 3) and len(leaders(fe)) == 1 and 4 not in st and 6 not in st
            ),
            aim={"stake": [2, 3]},
            protected=protected,
        )
        t.mingle(plan, ghosts={9: 4, 8: 4, 7: 6})
        assert t.dining["protected"] == protected, card
        # elimination tie 2–3: seats 9 and 8 vote seat 2, seat 7 votes seat 3
        assert t.view(None)["tie"]["candidates"] == [2, 3]
        stack(t, "nothing_to_say")
        t.vote({9: 2, 8: 2, 7: 3})
        assert not t.alive(eliminated), card
        assert t.state.round == 6 and t.view(None)["effects"] == []


# -- 11. Kindred or Not ---------------------------------------------------------------------------


def mesmerized_three():
    """Seven players; round 1 the Lord (seat 1) is examined by seat 3, a Hunter: Mesmerized.
    Round 2: Alpha seat 5; seat 6 is eliminated and draws Kindred or Not."""
    t = Table("LVHHHHH", last_wills=True)
    play_round(t, 1, 5, examiner=3)
    assert t.state.player(3).mesmerized
    dine(t, kill=6, elect=4, card="kindred_or_not")
    return t


def test_r13_kindred_or_not_tells_everyone_whether_two_roles_are_on_one_side_ignoring_mesmerism():
    t = mesmerized_three()
    choose(t, 3, 2)  # a Mesmerized Hunter and a Vampire: different sides
    (said,) = events_of(t, 2, "last_will_effect")
    assert said.audience is None
    assert said.data == {
        "card": "kindred_or_not",
        "seat": 6,
        "targets": [2, 3],
        "same_side": False,
    }
    assert said.text == "Seats 2 and 3 are on different sides."
    assert t.dining["last_will"]["targets"] == [3, 2]
    assert not t.state.player(6).mesmerized  # a comparison, not an examination
    t = mesmerized_three()
    choose(t, 4, 3)  # a Mesmerized Hunter and a Hunter: the same side
    (said,) = events_of(t, 2, "last_will_effect")
    assert said.data["targets"] == [3, 4] and said.data["same_side"] is True
    t = mesmerized_three()
    choose(t, 1, 2)
    (said,) = events_of(t, 2, "last_will_effect")
    assert said.data["targets"] == [1, 2] and said.data["same_side"] is True
    assert all(
        k.get("seat") not in (1, 2) or k["source"] == "night" for k in t.view(6)["me"]["knowledge"]
    )


# -- 12. Last Stand -------------------------------------------------------------------------------


def test_r13_last_stand_on_the_other_side_eliminates_the_staker_who_draws_no_last_will():
    t = lw()
    dine(t, kill=5, elect=6, card="last_stand")
    offered = pending(t.state, 5)[0]["options"]["targets"]
    assert offered == stakers(t, 5) and 2 in offered
    stack(t, "toast")  # would be drawn if the second death drew
    choose(t, 2)  # seat 2, a Vampire, staked the Hunter seat 5
    assert not t.alive(2) and not t.alive(5)
    assert t.state.ghosts == (5, 2)
    assert [e.data["seat"] for e in events_of(t, 2, "eliminated")] == [5, 2]
    assert len(events_of(t, 2, "last_will")) == 1
    assert [d["seat"] for d in data(t)["draws"]] == [5]
    assert data(t)["deck"][0] == "toast"
    assert t.state.round == 3 and t.state.alpha == 6
    assert "Seat 2 falls in the Last Stand." in [e.text for e in t.events]
    assert t.dining["eliminated"] == 5


def test_r13_last_stand_by_a_vampire_takes_a_hunter_staker_along():
    t = lw()
    dine(t, kill=2, elect=6, card="last_stand")
    offered = pending(t.state, 2)[0]["options"]["targets"]
    hunter = next(s for s in offered if s >= 3)
    choose(t, hunter)  # the Vampire's staker is a Hunter: on the other side
    assert not t.alive(hunter) and not t.alive(2)
    assert len(events_of(t, 2, "last_will")) == 1


def test_r13_last_stand_on_the_same_side_does_nothing():
    t = lw()
    dine(t, kill=5, elect=6, card="last_stand")
    offered = pending(t.state, 5)[0]["options"]["targets"]
    hunter = next(s for s in offered if s >= 3)
    choose(t, hunter)
    assert t.alive(hunter) and t.state.ghosts == (5,)
    assert f"Seat {hunter} survives the Last Stand." in [e.text for e in t.events]


def test_r13_last_stand_ignores_mesmerism():
    t = Table("LVHHHHH", last_wills=True)
    play_round(t, 1, 5, examiner=3)  # seat 3 is Mesmerized
    dine(t, kill=6, elect=4, card="last_stand")
    offered = pending(t.state, 6)[0]["options"]["targets"]
    assert 3 in offered
    choose(t, 3)
    assert t.alive(3)  # a Mesmerized Hunter is still a Hunter for the Last Stand


def test_r13_last_stand_with_nobody_who_staked_you_has_no_effect():
    t = lw()
    stack(t, "last_stand")
    t.mingle(NOBODY_STAKES_FIVE)
    assert t.state.ghosts == (5,) and t.state.round == 3
    assert "last_will_void" in kinds_of(t, 2)
    assert data(t)["draws"][0]["result"] == "No effect: nobody could be chosen."


# -- 16. Nothing to Say, and the view -------------------------------------------------------------


def test_r13_nothing_to_say_has_no_effect():
    t = lw()
    dine(t, kill=5, elect=6, card="nothing_to_say")
    assert t.state.round == 3 and t.state.alpha == 6
    (said,) = events_of(t, 2, "last_will_effect")
    assert said.text == "Nothing happens."
    assert data(t)["effects"] == [] and data(t)["revealed"] == []
    assert not any(p.mesmerized for p in t.state.players)
    assert all(
        t.view(s)["me"]["tokens"] == ["double_stake", "feast", "investigation"] for s in (6,)
    )


def test_r13_the_view_shows_this_rounds_card_and_the_effects_in_force_on_each_seat():
    t = lw()
    dine(t, kill=5, elect=6, card="broken_stake")
    card = {
        "id": "broken_stake",
        "name": "Broken Stake",
        "text": "A living player has only 1 Stake token next round.",
    }
    shown = {
        "round": 2,
        "seat": 5,
        "card": card,
        "targets": [],
        "resolved": False,
        "result": None,
    }
    for seat in (None, 1, 3, 5, 7):
        v = t.view(seat)
        assert v["last_wills"] == [shown] and v["last_dining"]["last_will"] == shown
        assert v["phase"] == CHOICE and v["effects"] == []
    choose(t, 7)
    done = {**shown, "targets": [7], "resolved": True}
    done["result"] = "Seat 7 has only 1 Stake token next round."
    for seat in (None, 2, 5, 7):
        v = t.view(seat)  # round 3's Mingling still shows round 2's Dining and its card
        assert v["round"] == 3 and v["last_dining"]["round"] == 2
        assert v["last_wills"] == [done] and v["last_dining"]["last_will"] == done
        assert v["effects"] == [
            {"card": "broken_stake", "name": "Broken Stake", "seat": 7, "by": 5}
        ]
    dine(t, kill=3, elect=2, ghosts={5: 1}, card="nothing_to_say")
    v = t.view(4)
    assert v["round"] == 4 and v["effects"] == []
    assert v["last_wills"][0]["card"]["id"] == "nothing_to_say"
    assert v["last_dining"]["last_will"]["seat"] == 3


def test_r13_the_view_before_any_draw_shows_no_card_effect_or_public_role():
    v = Table("LVHHHHH", last_wills=True).view(None)
    assert v["last_wills"] == [] and v["effects"] == [] and v["public_roles"] == []
    assert v["last_dining"] is None


# -- secrecy of the choice window -----------------------------------------------------------------


def test_r13_a_pending_choice_leaks_no_role_to_anyone():
    t = lw()
    dine(t, kill=5, elect=6, card="parting_glance")
    for seat in (None, 1, 2, 3, 4, 5, 6, 7):
        v = t.view(seat)
        public = {k: x for k, x in v.items() if k not in ("me",)}
        assert '"vampire' not in dumps(public) and '"hunter"' not in dumps(public)


def test_r13_last_stand_cannot_eliminate_a_protected_staker():
    """R7.2: the Protected player cannot be eliminated this round (only the Bangle says "even if
    Protected", R11). A Protected Vampire who staked the Hunter survives the Hunter's Last Stand
    (or is not offered at all)."""
    t = lw()
    dine(t, kill=5, elect=6, card="nothing_to_say")
    plan = next(
        p
        for seed in range(200)
        if "S7"
        in (p := rig(t.state, most_stakes=7, most_feasts=3, protected=2, seed=seed))[2].split()
    )
    stack(t, "last_stand")
    t.mingle(plan, ghosts={5: 2})
    assert t.dining["protected"] == 2 and not t.alive(7)
    offered = pending(t.state, 7)[0]["options"]["targets"]
    if 2 in offered:
        choose(t, 2)
    else:
        choose(t, offered[0])
    assert t.alive(2), "the Protected seat 2 was eliminated by the Last Stand (R7.2)"


def test_r13_last_stand_emptying_the_vampire_side_still_lets_the_round_finish():
    """R12: a death mid-round does not end the game before the round ends: the election still
    happens, then the Hunters win."""
    t = lw("LVHHHH")
    dine(t, kill=2, elect=5, card="nothing_to_say")
    plan = next(
        p
        for seed in range(200)
        if "S3" in (p := rig(t.state, most_stakes=3, most_feasts=6, seed=seed))[1].split()
    )
    stack(t, "last_stand")
    t.mingle(plan)
    choose(t, 1)  # the Lord staked the Hunter seat 3
    assert not t.alive(1) and not t.alive(3)
    kinds = kinds_of(t, 3)
    assert kinds.index("eliminated") < kinds.index("alpha_elected") < kinds.index("game_over")
    assert t.state.outcome.winner == "hunters"


def test_r13_a_resolved_last_will_keeps_its_result_as_lines_with_seat_placeholders():
    """A reader names the seats of a Last Will's result from `result_lines` (the
    public lines' templates and the seats they name), never from the words of `result`."""
    t = lw()
    dine(t, kill=5, elect=6, card="broken_stake")
    assert result_lines(t.state) == []  # drawn, not resolved yet
    choose(t, 7)
    line = {"template": "{target:Seat} has only 1 Stake token next round.", "data": {"target": 7}}
    assert result_lines(t.state) == [{"round": 2, "seat": 5, "lines": [line]}]
    assert "last_will_lines" not in t.view(None)  # not in the view: the API's view is as it was
