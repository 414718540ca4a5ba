"""Relic controls offer only what the rules accept, and a refused move's error
shows beside the control that sent it, with the player's choice kept.

The play-through found the Bangle of Oaths offering "token from Hana" (the partner's own token,
which may never end on its owner's seat) and a token whose owner already had one on the
partner's seat: both were refused. Here seat 4 holds a Bangle, seat 5 the other (the partner),
and tokens from 1, 2, 3, 5 and 6 lie on seat 4; 6 also has a token on seat 5.
"""

from __future__ import annotations

import re

import pytest

from games.engine import pending
from games.engine.offers import moves
from tests.web.test_relic_pages import (  # noqa: F401 - relic_game is a fixture
    WINDOWS,
    form,
    pass_window,
    relic_game,
    state,
)

pytestmark = pytest.mark.django_db

PLAN = {  # round 2 (Alpha 5 holds the Double-Stake, Feast and Investigation)
    1: "S2 S4 F3",
    2: "S3 S4 F6",
    3: "S2 S4 F6",
    4: "S2 S3 F6",
    5: "D4 F6 I3",
    6: "S4 S5 F1",
}


@pytest.fixture
def bangle_window(relic_game):  # noqa: F811 - the fixture imported above
    t = relic_game(WINDOWS)
    while state(t).phase == "relic_window":  # the pre-mingling windows
        pass_window(t)
    t.play(PLAN)
    pass_window(t)  # the Candle (seat 3)
    assert state(t).ext["relics"]["window"]["seat"] == 4
    return t


def owners_offered(html: str) -> list[str]:
    return re.findall(r'name="owners" value="(\d+)"', form(html, "use_relic"))


def test_bangle_form_lists_only_tokens_the_rules_let_move(bangle_window):
    t = bangle_window
    on_me = sorted({p.owner for p in state(t).placements if p.target == 4})
    assert on_me == [1, 2, 3, 5, 6]
    # 5's token may not end on 5's own seat; 6 already has a token on seat 5 (R3.1, R11).
    assert owners_offered(t.page(4)) == ["1", "2", "3"]
    # The page offers what the API's pending offers, from the same legality.
    (use,) = [p for p in pending(state(t), 4) if p["action"] == "use_relic"]
    legal = {o for m in moves(use) for o in m["owners"]}
    assert {int(o) for o in owners_offered(t.page(4))} == legal


def test_every_bangle_choice_the_page_offers_is_accepted(bangle_window):
    t = bangle_window
    offered = owners_offered(t.page(4))
    t.phone(4).act(t.code, "use_relic", relic="bangle_of_oaths", owners=offered[:2])
    assert {1, 2} <= {p.owner for p in state(t).placements if p.target == 5}


def test_a_refused_relic_move_shows_its_error_beside_the_form_and_keeps_the_pick(
    bangle_window,
):
    t = bangle_window
    before = t.game.version
    response = t.phone(4).act(
        t.code, "use_relic", expect=400, relic="bangle_of_oaths", owners=["1", "6"]
    )
    html = response.content.decode()
    assert t.game.version == before  # nothing changed
    use = form(html, "use_relic")
    error = re.search(r'<p class="alert form-error"[^>]*>([^<]+)</p>', use)
    assert error and "share a seat" in error[1]  # beside the Bangle's own control
    assert re.search(r'name="owners" value="1"[^>]* checked', use)  # the pick is kept
    assert not re.search(r'name="owners" value="2"[^>]* checked', use)
    assert "(R3.1" not in use and "R11)" not in use  # no rule IDs for players
