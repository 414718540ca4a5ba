"""Property: no refusal, and no offer, depends on a hidden fact (R3.2, R11 amended).

Until Dining, the table sees who placed a token on whom, never what the token is. Pairs of
states that differ only in that (each owner's tokens dealt out over the same seats in another
order, as a player could have placed them) must answer every Whisper-Wick Candle and Bangle of
Oaths move alike: both take it, or both refuse it with the same code and the same words; and
both offer the same moves. A Ceremonial Dagger's holder is among the owners, with both Stakes
on one seat or not. (The engine used to take a Candle or Bangle move that stacked a Dagger
holder's two Stakes, and refuse the same move when one of them was a Feast.)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Action, IllegalAction, apply, pending
from games.engine.state import DOUBLE_STAKE, FEAST, INVESTIGATION, STAKE, Placement, evolve
from tests.conftest import examples
from tests.relics.test_r11_cards import TIE, table, to_post, until_window

SEATS = range(1, 7)
ALPHA = 4  # round 2's Alpha Hunter in these tables
DAGGER = 1  # the Ceremonial Dagger's holder
HANDS = {
    s: (DOUBLE_STAKE, FEAST, INVESTIGATION) if s == ALPHA else (STAKE, STAKE, FEAST) for s in SEATS
}


@cache
def candle_window():
    """Round 2's post-mingling window of seat 4's Whisper-Wick Candle."""
    t = table(s4="whisper_wick_candle", s1="ceremonial_dagger")
    to_post(t, TIE)
    return until_window(t, 4).state, 4


@cache
def bangle_window():
    """Round 2's post-mingling window of seat 3's Bangle of Oaths (seat 6 the other)."""
    t = table(s3="bangle_of_oaths", s6="bangle_of_oaths", s1="ceremonial_dagger")
    to_post(t, TIE)
    return until_window(t, 3).state, 3


@st.composite
def twin_placements(draw):
    """Two placements that differ only in the hidden token types: the same owners on the same
    seats in the same order, each owner's hand shuffled over its seats (a Dagger holder's two
    Stakes on one seat stay the Stakes: a Feast never lies beside them)."""
    a, b = [], []
    for owner in SEATS:
        seats = list(draw(st.permutations([s for s in SEATS if s != owner])))[:3]
        if owner == DAGGER and draw(st.booleans()):
            slots = [seats[0], seats[0], seats[1]]
            kinds_a = kinds_b = (STAKE, STAKE, FEAST)
        else:
            slots = seats
            kinds_a = draw(st.permutations(HANDS[owner]))
            kinds_b = draw(st.permutations(HANDS[owner]))
        placed = draw(st.integers(1, 3))  # tokens left unplaced lie nowhere
        a += [Placement(owner, s, k) for s, k in zip(slots, kinds_a, strict=True)][:placed]
        b += [Placement(owner, s, k) for s, k in zip(slots, kinds_b, strict=True)][:placed]
    order = draw(st.permutations(range(len(a))))  # the order they were placed in, the same
    return tuple(a[i] for i in order), tuple(b[i] for i in order)


seat = st.integers(0, 7)  # a seat number, or none at this table
candle_moves = st.builds(
    lambda a, b, oa, ob: {
        "relic": "whisper_wick_candle",
        "targets": [a, b],
        "owners": [oa, ob],
    },
    seat,
    seat,
    seat,
    seat,
)
bangle_moves = st.builds(
    lambda owners: {"relic": "bangle_of_oaths", "owners": owners},
    st.lists(seat, max_size=3),
)


def candidates(window: str, holder: int, placements) -> list[dict]:
    """Every move the table could think of from what it sees (who placed on whom): the Candle
    swapping any two placed tokens, the Bangle moving any 1 to 3 owners' tokens off its seat."""
    if window == "candle":
        return [
            {
                "relic": "whisper_wick_candle",
                "targets": [p.target, q.target],
                "owners": [p.owner, q.owner],
            }
            for i, p in enumerate(placements)
            for q in placements[i + 1 :]
        ]
    owners = sorted({p.owner for p in placements if p.target == holder})
    return [
        {"relic": "bangle_of_oaths", "owners": list(chosen)}
        for n in (1, 2, 3)
        for chosen in combinations(owners, n)
    ]


def answer(state, holder: int, args: dict):
    """What the engine answers to `holder`'s move: taken (with the line the table reads), or
    refused (code and words)."""
    try:
        after, events = apply(state, Action("use_relic", holder, args), now=state.deadline - 1)
    except IllegalAction as refused:
        return ("refused", refused.code, refused.detail)
    if after.round > state.round:  # the round went on to its end
        tokens = after.last_dining.tokens
    else:  # another window is open, or Dining waits on someone
        tokens = after.dining.tokens if after.dining else after.placements
    assert len(tokens) == len(state.placements)  # a token moves, none is lost
    return ("taken", events[0].text, events[0].data)


@settings(max_examples=examples(suite=40, long=2000), deadline=None)
@given(
    twins=twin_placements(),
    window=st.sampled_from(["candle", "bangle"]),
    moves=st.data(),
)
def test_r11_a_candle_or_bangle_move_is_answered_alike_whatever_the_hidden_tokens_are(
    twins, window, moves
):
    base, holder = candle_window() if window == "candle" else bangle_window()
    a, b = (evolve(base, placements=p) for p in twins)
    assert pending(a, holder) == pending(b, holder)  # the same offers
    offered = [
        {"relic": e["options"]["relic"], **m}
        for e in pending(a, holder)
        if e["action"] == "use_relic"
        for m in e["options"].get("moves", [])
    ]
    junk = moves.draw(st.lists(candle_moves if window == "candle" else bangle_moves, max_size=4))
    for args in candidates(window, holder, twins[0]) + junk:
        assert answer(a, holder, args) == answer(b, holder, args), args
    for args in offered:  # and what is offered is taken
        assert answer(a, holder, args)[0] == "taken", args
