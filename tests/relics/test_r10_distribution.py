"""R10.2: the distribution of Sacred Relics after round 1's Dining, for every table size."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.engine import pending
from relics.rules.cards import BY_ID
from tests.engine.table import Table
from tests.relics.conftest import (
    ALL,
    ROLES,
    data,
    deck_for,
    give_all,
    giver_order,
    holdings,
    offers,
    relic_count,
    relic_table,
    round_one,
)

SIX = {
    1: "ritual_bell",
    2: "signet_ring",
    3: "seers_orb",
    4: "crown_of_solomon",
    5: "false_idol",
    6: "scales_of_justice",
}
# The printed names of SIX's cards (R10.1), written out here rather than read from relics.rules.
SIX_NAMES = {
    1: "Ritual Bell",
    2: "Signet Ring",
    3: "Seer's Orb",
    4: "Crown of Solomon",
    5: "The False Idol",
    6: "Scales of Justice",
}


def the(name: str) -> str:
    """A card's name after a verb, in plain English: "the False Idol", not "the The False Idol"."""
    return "the False Idol" if name == "The False Idol" else f"the {name}"


def wanted_for(n: int) -> dict[int, str]:
    pool = [r for r in ALL if r != "bangle_of_oaths"]
    return {s: pool[s - 1] for s in range(1, n + 1)}


def at_distribution(roles, wanted, *, elect=4, spare="effigy_of_innocence", extra=(), **options):
    n = len(roles)
    deck = deck_for(giver_order(n, elect), wanted, spare) + tuple(extra)
    t = Table(roles, relics=True, relic_deck=deck, **options)
    round_one(t, elect=elect)
    assert t.state.phase == "give_relic"
    return t


# -- giver order ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(6, 13))
def test_r10_2_givers_start_with_the_new_alpha_and_go_clockwise(n):
    wanted = wanted_for(n)
    spare = next(r for r in ALL if r not in wanted.values() and r != "bangle_of_oaths")
    t = at_distribution(ROLES[n], wanted, elect=4, spare=spare)
    assert t.state.round == 1
    expected = giver_order(n, 4)
    assert expected[:3] == [4, 5, 6] and expected[-1] == 3
    assert t.state.ext["relics"]["giving"]["order"] == expected  # every seat, clockwise
    givers = []
    for i, giver in enumerate(expected):
        assert t.view(None)["relics"]["giver"] == giver
        for seat in range(1, n + 1):
            assert bool(offers(t, seat, "give_relic")) == (seat == giver)
        givers.append(giver)
        target = expected[(i + 1) % n]
        args = {"card": wanted[target]} if i == n - 1 else {}
        t.do(giver, "give_relic", target=target, **args)
    given = [e for e in t.events if e.kind == "relic_given"]
    assert [f"Seat {g} has given" in e.text for g, e in zip(givers, given, strict=True)]
    assert all(f"Seat {g} " in e.text for g, e in zip(givers, given, strict=True))
    assert holdings(t) == {s: [wanted[s]] for s in range(1, n + 1)}
    assert t.state.round == 2
    assert data(t)["box"] == [spare]


@pytest.mark.parametrize("n", [6, 9, 12])
def test_r10_2_seat_one_gives_first_when_nobody_was_elected(n):
    wanted = wanted_for(n)
    t = at_distribution(ROLES[n], wanted, elect=None)
    assert t.state.dining.alpha_elected is None
    assert data(t)["giving"]["order"] == list(range(1, n + 1))
    assert offers(t, 1, "give_relic") and not offers(t, 4, "give_relic")
    give_all(t, wanted)
    assert holdings(t) == {s: [wanted[s]] for s in range(1, n + 1)}


@pytest.mark.parametrize("n", range(6, 13))
def test_r10_2_every_player_ends_with_exactly_one_relic_and_nobody_gives_to_themselves(n):
    t = at_distribution(ROLES[n], wanted_for(n))
    while t.state.phase == "give_relic":
        giver = data(t)["giving"]["order"][data(t)["giving"]["index"]]
        (opts,) = offers(t, giver, "give_relic")
        assert giver not in opts["targets"]
        have = set(holdings(t))
        assert not have & set(opts["targets"]), "a seat that already holds a relic is offered"
        t.illegal("illegal_target", giver, "give_relic", target=giver)
        for s in have:
            t.illegal("illegal_target", giver, "give_relic", target=s)
        args = {"card": opts["cards"][0]} if "cards" in opts else {}
        t.do(giver, "give_relic", target=opts["targets"][-1], **args)
    assert sorted(holdings(t)) == list(range(1, n + 1))
    assert all(len(v) == 1 for v in holdings(t).values())


def test_r10_2_only_the_giver_may_give_and_only_now():
    t = at_distribution("LVHHHH", SIX)
    t.illegal("wrong_phase", 5, "give_relic", target=6)
    t.illegal("illegal_target", 4, "give_relic", target=99)
    t2 = relic_table("LVHHHH", SIX)
    t2.illegal("wrong_phase", 1, "give_relic", target=2)


def test_r10_2_the_last_giver_draws_two_gives_one_and_the_other_goes_to_the_box():
    t = at_distribution("LVHHHH", SIX, spare="van_helsings_journal")
    order = data(t)["giving"]["order"]
    for i, giver in enumerate(order[:-1]):
        t.do(giver, "give_relic", target=order[i + 1])
        assert len(data(t)["giving"]["drawn"]) == (2 if i == len(order) - 2 else 1)
    last = order[-1]
    (opts,) = offers(t, last, "give_relic")
    assert opts["targets"] == [order[0]]
    assert sorted(opts["cards"]) == sorted([SIX[order[0]], "van_helsings_journal"])
    me = t.view(last)["me"]
    assert sorted(d["id"] for d in me["drawn"]) == sorted(opts["cards"])
    assert "drawn" not in t.view(order[0])["me"]
    t.illegal("bad_request", last, "give_relic", target=order[0])
    t.illegal("bad_request", last, "give_relic", target=order[0], card="ritual_bell")
    t.do(last, "give_relic", target=order[0], card="van_helsings_journal")
    assert holdings(t)[order[0]] == ["van_helsings_journal"]
    assert data(t)["box"] == [SIX[order[0]]]


def test_r10_2_ruling_a_choice_leaving_the_last_giver_alone_without_a_relic_is_not_offered():
    # order 4 5 6 1 2 3: seat 3 gives last. Make seat 2 (second to last) face {1, 3} without.
    t = at_distribution("LVHHHH", SIX)
    t.do(4, "give_relic", target=5)
    t.do(5, "give_relic", target=6)
    t.do(6, "give_relic", target=2)
    t.do(1, "give_relic", target=4)
    (opts,) = offers(t, 2, "give_relic")
    assert opts["targets"] == [3]  # giving to seat 1 would leave seat 3 alone without a relic
    t.illegal("illegal_target", 2, "give_relic", target=1)
    t.do(2, "give_relic", target=3)
    (opts,) = offers(t, 3, "give_relic")
    assert opts["targets"] == [1]
    t.do(3, "give_relic", target=1, card=opts["cards"][0])
    assert sorted(holdings(t)) == [1, 2, 3, 4, 5, 6]


def test_r10_2_the_ruling_still_offers_the_last_giver_when_others_remain():
    t = at_distribution("LVHHHH", SIX)
    t.do(4, "give_relic", target=5)
    (opts,) = offers(t, 5, "give_relic")
    assert sorted(opts["targets"]) == [1, 2, 3, 4, 6]


# -- the lone Bangle -----------------------------------------------------------------------------


def lone_bangle_table():
    wanted = {**SIX, 6: "bangle_of_oaths"}
    # after the six drawn cards and the spare: the other Bangle, then the Key
    return at_distribution(
        "LVHHHH",
        wanted,
        spare="effigy_of_innocence",
        extra=("bangle_of_oaths", "key_of_quick_passage"),
    ), wanted


def test_r10_2_a_lone_bangle_is_discarded_and_its_holder_draws_a_replacement():
    t, wanted = lone_bangle_table()
    give_all(t, wanted)
    assert holdings(t)[6] == ["key_of_quick_passage"]  # the other Bangle is not drawable
    assert all("bangle_of_oaths" not in v for v in holdings(t, discarded=True).values())
    assert not any(c.startswith("bangle") for c in data(t)["deck"][:1])
    received = [e for e in t.events if e.kind == "relic_received" and e.audience == (6,)]
    assert "Key of Quick Passage" in received[-1].text
    assert t.view(6)["me"]["relic"]["id"] == "key_of_quick_passage"
    lone = [e for e in t.events if e.kind == "relic_bangle"]
    assert lone and lone[0].audience is None  # R10.2a: the replacement lies face-up too
    assert "seat 6 draws the Key of Quick Passage" in lone[0].text


def test_r10_2_a_lone_bangle_keeps_the_sixteen_cards_accounted_for():
    t, wanted = lone_bangle_table()
    give_all(t, wanted)
    # held + box + deck (+ discarded, held with a flag) = 16 (R10.1)
    assert relic_count(t.state) == 16


def test_r10_2_with_no_bangle_dealt_the_sixteen_cards_stay_accounted_for():
    t = at_distribution("LVHHHH", SIX)
    give_all(t, SIX)
    assert relic_count(t.state) == 16


def test_r10_2_two_bangles_dealt_both_stay():
    wanted = {**SIX, 2: "bangle_of_oaths", 6: "bangle_of_oaths"}
    t = at_distribution("LVHHHH", wanted)
    give_all(t, wanted)
    assert holdings(t)[2] == ["bangle_of_oaths"] and holdings(t)[6] == ["bangle_of_oaths"]
    assert not [e for e in t.events if e.kind == "relic_bangle"]
    assert relic_count(t.state) == 16  # both Bangles held: nothing filtered out


def test_r10_2_a_bangle_left_in_the_box_by_the_last_giver_still_makes_the_other_lone():
    wanted = {**SIX, 5: "bangle_of_oaths"}
    t = at_distribution("LVHHHH", wanted, spare="bangle_of_oaths", extra=("seers_orb",))
    give_all(t, wanted)
    assert "bangle_of_oaths" not in sum(holdings(t).values(), [])
    assert holdings(t)[5] != ["bangle_of_oaths"]


# -- secrecy -------------------------------------------------------------------------------------


def test_r10_2a_the_public_log_names_each_recipient_and_the_card_once_given():
    t = at_distribution("LVHHHH", SIX)
    give_all(t, SIX)
    given = [e for e in t.events if e.kind == "relic_given"]
    assert len(given) == 6 and all(e.audience is None for e in given)
    for e in given:
        giver, target = e.data["giver"], e.data["target"]
        assert e.text.startswith(f"Seat {giver} gives "), e.text
        assert e.text.endswith(f" {the(SIX_NAMES[target])} to seat {target}."), e.text
        assert e.data["relic"] == SIX[target]
    received = [e for e in t.events if e.kind == "relic_received"]
    assert sorted(e.audience for e in received) == [(seat,) for seat in range(1, 7)]
    for e in received:
        (seat,) = e.audience
        assert e.text.endswith(f" {the(SIX_NAMES[seat])}."), e.text


def test_r10_2a_every_seat_and_spectators_see_who_holds_which_relic():
    t = relic_table("LVHHHH", SIX)
    for seat in (None, 1, 2, 3, 4, 5, 6):
        v = t.view(seat)
        shown = {h["seat"]: (h["relic"], h["name"]) for h in v["relics"]["holdings"]}
        assert shown == {s: (r, SIX_NAMES[s]) for s, r in SIX.items()}, seat
        if seat is not None:  # my own card, with its text, as before
            assert v["me"]["relic"]["id"] == SIX[seat]
            assert [r["id"] for r in v["me"]["relics"]] == [SIX[seat]]


def test_r10_2_the_box_stays_secret_whatever_the_last_giver_put_back():
    """Two games that differ only in the card the last giver put back in the box: no seat and no
    spectator can tell them apart, in the view or in the log they see."""
    ta = relic_table("LVHHHH", SIX, spare="effigy_of_innocence")
    tb = relic_table("LVHHHH", SIX, spare="false_idol")
    assert data(ta)["box"] != data(tb)["box"]
    for seat in (None, 1, 2, 3, 4, 5, 6):
        assert ta.view(seat) == tb.view(seat), seat
        if seat is not None:
            assert [e.text for e in ta.seen_by(seat)] == [e.text for e in tb.seen_by(seat)]


def test_r10_2_the_drawn_card_is_shown_to_its_giver_only():
    t = at_distribution("LVHHHH", SIX)
    assert [d["id"] for d in t.view(4)["me"]["drawn"]] == [SIX[5]]
    for seat in (1, 2, 3, 5, 6):
        assert "drawn" not in t.view(seat)["me"]
        assert SIX[5] not in json.dumps(t.view(seat))
    assert SIX[5] not in json.dumps(t.view(None))


# -- timeouts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [6, 8, 12])
def test_r10_2_a_timeout_gives_at_random_among_the_legal_recipients(n):
    t = at_distribution(ROLES[n], wanted_for(n))
    assert t.state.deadline == t.now + t.state.options.timers.relic
    checked = 0
    while t.state.phase == "give_relic":
        giver = data(t)["giving"]["order"][data(t)["giving"]["index"]]
        (opts,) = offers(t, giver, "give_relic")
        before = Counter(s for s, v in holdings(t).items() for _ in v)
        t.expire()
        after = Counter(s for s, v in holdings(t).items() for _ in v)
        (got,) = (after - before).elements() if t.state.phase == "give_relic" else [None]
        if got is not None:
            assert got in opts["targets"]
            checked += 1
    assert checked == n - 1  # every gift but the last, which ends the distribution
    assert sorted(holdings(t)) == list(range(1, n + 1))
    assert "relic_timeout" in t.kinds()


def test_r10_2_timeouts_are_reproducible_from_the_seed():
    runs = []
    for _ in range(2):
        t = at_distribution("LVHHHHHH"[:7], wanted_for(7))
        while t.state.phase == "give_relic":
            t.expire()
        runs.append(holdings(t))
    assert runs[0] == runs[1]


def test_r10_2_relics_enter_only_after_round_ones_dining():
    t = Table("LVHHHH", relics=True)
    assert t.view(3)["me"]["relic"] is None
    assert not offers(t, 1, "use_relic")
    round_one(t)
    assert t.state.round == 1 and t.state.phase == "give_relic"
    assert t.state.dining.examiner is not None and t.state.dining.alpha_elected == 4
    assert pending(t.state, 4)[0]["action"] == "give_relic"


def test_r10_2a_no_log_line_doubles_the_article_of_the_false_idol():
    """Seat 5 receives The False Idol: "gives the False Idol", "Seat 4 gives you the False Idol"."""
    t = at_distribution("LVHHHH", SIX)
    give_all(t, SIX)
    texts = [e.text for e in t.events if e.kind in ("relic_given", "relic_received")]
    assert any("False Idol" in text for text in texts)
    assert not [text for text in texts if "the The" in text or "'s The" in text]
    assert "Seat 4 gives you the False Idol." in texts


def test_r10_2_a_relic_named_after_its_owner_is_given_without_the():
    """A giver "gives Van Helsing's Journal", never "gives the Van Helsing's Journal" (seen on the
    eight phones of tests/browser/test_whole_game_eight.py); other names keep their article."""
    assert BY_ID["van_helsings_journal"].the_name == "Van Helsing's Journal"
    assert BY_ID["false_idol"].the_name == "the False Idol"
    assert BY_ID["ritual_bell"].the_name == "the Ritual Bell"
    assert BY_ID["seers_orb"].the_name == "the Seer's Orb"
