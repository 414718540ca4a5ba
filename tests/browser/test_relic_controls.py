"""In a real browser (Chromium, 390x844): relic controls offer only what the
rules accept. The Whisper-Wick Candle's form, once one token is ticked, leaves only the tokens
that make a legal swap with it; the Bangle of Oaths' form lists only tokens that may move, and
what it offers is accepted.

Round 1 and the relics' distribution are played through games.services (the deal of
tests/web/test_relic_pages.py: seat 3 holds the Candle, seats 4 and 5 the Bangles); round 2's
tokens are tests/web/test_relic_controls_legal.py's PLAN, so tokens from 5 (the partner) and 6
(who already has a token on seat 5) lie on seat 4 and may not move.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.engine import Action, IllegalAction, apply, pending, state_from_json
from games.engine.offers import moves
from games.models import Game
from tests.browser.pages import NAMES, Phone
from tests.web.conftest import LETTERS, TOKENS
from tests.web.test_play import ROUND_1
from tests.web.test_relic_controls_legal import PLAN
from tests.web.test_relic_pages import GIVERS, WINDOWS, deck

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seated(pages) -> tuple[str, dict[int, Phone]]:
    staff = get_user_model().objects.create_user("staffer", password="pw-staffer-1", is_staff=True)
    options = {
        "roles": {str(i): LETTERS[r] for i, r in enumerate("LVHHHH", start=1)},
        "relics": True,
        "relic_deck": deck(WINDOWS),
        "last_wills": False,
        "timers": {"relic": 600},
    }
    game = services.game_create(host=staff, options=options, name="Staff")
    phones = {}
    for seat, (page, name) in enumerate(zip(pages, NAMES, strict=True), start=1):
        phones[seat] = Phone(page, name)
        phones[seat].join_by_link(f"/g/{game.code}/")
        phones[seat].seat = seat
    services.game_leave(code=game.code, user=staff)
    host = Game.objects.get(code=game.code).players.get(seat=1).user
    services.game_start(code=game.code, user=host)
    return game.code, phones


def move(code: str, seat: int, name: str, **args) -> None:
    user = Game.objects.get(code=code).players.get(seat=seat).user
    services.action_apply(code=code, user=user, name=name, args=args)


def to_the_candle(code: str) -> None:
    for seat, plan in ROUND_1.items():
        for word in plan.split():
            move(code, seat, "place_token", token=TOKENS[word[0]], target=int(word[1:]))
    move(code, 3, "choose_examiner", target=4)
    for i, giver in enumerate(GIVERS):
        card = {"card": WINDOWS[5]} if i == len(GIVERS) - 1 else {}
        move(code, giver, "give_relic", target=GIVERS[(i + 1) % len(GIVERS)], **card)
    for seat in (1, 2):  # the Ritual Bell's and the Signet Ring's windows
        move(code, seat, "pass")
    for seat, plan in PLAN.items():
        for word in plan.split():
            move(code, seat, "place_token", token=TOKENS[word[0]], target=int(word[1:]))


def state(code: str):
    return state_from_json(Game.objects.get(code=code).state)


@pytest.mark.long(31)
def test_relic_forms_offer_only_moves_the_rules_accept(phones, artifacts):
    code, by_seat = seated(phones(6))
    to_the_candle(code)
    assert state(code).ext["relics"]["window"]["seat"] == 3

    # --- the Candle: one token ticked leaves only its legal partners enabled ---------------
    cleo = by_seat[3]
    cleo.page.reload()
    candle = cleo.page.locator('form[data-action="use_relic"]')
    expect(candle).to_contain_text("Use the Whisper-Wick Candle")
    (use,) = [p for p in pending(state(code), 3) if p["action"] == "use_relic"]
    pairs = {
        frozenset((f"{a}:{oa}", f"{b}:{ob}"))
        for m in moves(use)
        for (a, b), (oa, ob) in [(m["targets"], m["owners"])]
    }
    boxes = candle.locator('input[name="moves"]')
    values = [boxes.nth(i).get_attribute("value") for i in range(boxes.count())]
    first = values[0]
    candle.locator(f'label:has(input[name="moves"][value="{first}"])').click()
    enabled = {
        v for v in values if v != first and candle.locator(f'input[value="{v}"]').is_enabled()
    }
    legal = {v for v in values if frozenset((first, v)) in pairs}
    assert enabled == legal and len(enabled) < len(values) - 1  # some were really taken away
    cleo.screenshot(artifacts / "relic-candle-pairs.png")
    candle.locator(f'label:has(input[name="moves"][value="{first}"])').click()  # untick
    assert all(candle.locator(f'input[value="{v}"]').is_enabled() for v in values)
    cleo.confirm("pass")

    # --- the Bangle: only tokens that may move are offered, and each is accepted ------------
    dev = by_seat[4]
    bangle = dev.page.locator('form[data-action="use_relic"]')
    expect(bangle).to_contain_text("Use the Bangle of Oaths")
    offered = bangle.locator('input[name="owners"]')
    owners = [offered.nth(i).get_attribute("value") for i in range(offered.count())]
    assert owners == ["1", "2", "3"]  # not 5 (the partner) nor 6 (already on seat 5)
    now = state(code)
    for owner in owners:  # each offered token, moved alone, is a legal move
        apply(now, Action("use_relic", 4, {"relic": "bangle_of_oaths", "owners": [int(owner)]}))
    for refused in (5, 6):
        with pytest.raises(IllegalAction):
            apply(now, Action("use_relic", 4, {"relic": "bangle_of_oaths", "owners": [refused]}))
    for owner in ("1", "2"):
        bangle.locator(f'label:has(input[name="owners"][value="{owner}"])').click()
    expect(bangle.locator('input[name="owners"][value="3"]')).to_be_disabled()  # 2 at most
    dev.check_fits_the_phone()
    dev.confirm("use_relic")
    expect(dev.page.locator("#log-region .log")).to_contain_text("Bangle of Oaths moves 2 tokens")
    assert {1, 2} <= {p.owner for p in state(code).placements if p.target == 5}
