"""Game words on a phone (docs/phone-screens.md "Game words"): the first Mingling
screen explains Stake and Feast open, once; a live refresh keeps each term as the player left it;
a reload shows them closed; a tap opens one on the first screen, and its "More" lands on the
rules page at that word."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game
from tests.browser.pages import Phone

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEEN = "staked:words-seen"


def one_phone_at_a_table(page) -> tuple[str, Phone, dict]:
    """Ana's phone takes seat 1 by the invite link; five friends sit through the services (they
    never look); a staff member dealt Ana a Hunter and left; Ana starts. Returns the code, Ana's
    phone and the users by seat."""
    staff = get_user_model().objects.create_user("staffer", password="pw-staffer-1", is_staff=True)
    deal = {"1": "hunter", "2": "vampire_lord", "3": "hunter", "4": "hunter", "5": "hunter"}
    deal["6"] = "vampire"
    game = services.game_create(
        host=staff, options={"roles": deal, "last_wills": False}, name="Staff"
    )
    ana = Phone(page, "Ana")
    ana.join_by_link(f"/g/{game.code}/")
    for name in ("Ben", "Cleo", "Dev", "Eli", "Fay"):
        services.game_join(code=game.code, user=services.guest_create(name=name), name=name)
    services.game_leave(code=game.code, user=staff)
    users = {p.seat: p.user for p in Game.objects.get(code=game.code).players.all()}
    ana.seat = 1
    services.game_start(code=game.code, user=users[1])
    ana.page.wait_for_selector('form[data-action="place_token"]')
    return game.code, ana, users


def seen_words(phone: Phone) -> list[str]:
    return phone.page.evaluate(f"() => JSON.parse(localStorage.getItem('{SEEN}') || '[]')")


def test_stake_and_feast_are_explained_on_first_sight_then_a_tap_away(phones, artifacts):
    code, ana, users = one_phone_at_a_table(phones(1)[0])
    stake, feast = (
        ana.page.locator("#term-stake-tokens-r1"),
        ana.page.locator("#term-feast-tokens-r1"),
    )

    # First sight: both explained, open, on the first screen; then they count as seen.
    expect(stake).to_have_attribute("open", "")
    expect(feast).to_have_attribute("open", "")
    expect(feast.locator(".term-says")).to_contain_text("the most Feasts is the Alpha Hunter")
    ana.check_in_first_screen("#term-stake-tokens-r1 .term-says")
    ana.check_in_first_screen("#term-feast-tokens-r1 .term-says")
    ana.page.wait_for_function(
        f"() => ['stake', 'feast'].every(w => (localStorage.getItem('{SEEN}') || '').includes(w))"
    )
    ana.check_fits_the_phone()
    ana.check_accessibility()
    ana.screenshot(artifacts / "game-words.png")

    # The player closes Feast; a live refresh (Ben's move) keeps Feast closed and Stake open.
    feast.locator("summary").click()
    expect(feast).not_to_have_attribute("open", "")
    before = ana.version()
    services.action_apply(
        code=code, user=users[2], name="place_token", args={"token": "stake", "target": 3}
    )
    ana.page.wait_for_function(f"() => +document.querySelector('#game').dataset.version > {before}")
    expect(ana.page.locator("#term-stake-tokens-r1")).to_have_attribute("open", "")
    expect(ana.page.locator("#term-feast-tokens-r1")).not_to_have_attribute("open", "")

    # A reload: seen words stay closed, a tap away.
    ana.page.reload()
    ana.page.wait_for_selector('form[data-action="place_token"]')
    assert {"stake", "feast"} <= set(seen_words(ana))
    expect(stake).not_to_have_attribute("open", "")
    expect(feast).not_to_have_attribute("open", "")
    expect(feast.locator(".term-says")).to_be_hidden()
    feast.locator("summary").click()
    expect(feast.locator(".term-says")).to_be_visible()
    ana.check_in_first_screen("#term-feast-tokens-r1 .term-says")
    ana.check_tap_targets()

    feast.get_by_role("link", name="More about Feast").click()
    ana.page.wait_for_url(re.compile(rf"/rules/dining/\?game={code}#election$"))
    expect(ana.page.locator("#election")).to_be_in_viewport()
    expect(ana.page.locator("#election")).to_contain_text("most Feasts")


def test_a_tap_just_before_a_live_refresh_keeps_the_player_s_choice(phones):
    """A tap sets a term's `open` at once but its toggle event fires a task later: a live refresh
    swapped in between rebuilt the term from the page's record, not yet told, and reopened what the
    player had just closed. The page itself is now read before each swap."""
    code, ana, users = one_phone_at_a_table(phones(1)[0])
    feast = ana.page.locator("#term-feast-tokens-r1")
    expect(feast).to_have_attribute("open", "")
    # The player's tap lands in the swap's own task, before the page's script hears of it.
    ana.page.evaluate(
        """() => window.addEventListener("htmx:beforeSwap", function tap(e) {
            if (!e.detail.target || e.detail.target.id !== "game") return;
            window.removeEventListener("htmx:beforeSwap", tap, true);
            document.querySelector("#term-feast-tokens-r1").open = false;
        }, true)"""
    )
    before = ana.version()
    services.action_apply(
        code=code, user=users[2], name="place_token", args={"token": "stake", "target": 3}
    )
    ana.page.wait_for_function(f"() => +document.querySelector('#game').dataset.version > {before}")
    expect(ana.page.locator("#term-stake-tokens-r1")).to_have_attribute("open", "")
    ana.page.wait_for_timeout(300)  # the toggle events have run: still as tapped
    expect(feast).not_to_have_attribute("open", "")
