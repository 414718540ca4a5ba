"""The lobby on phones: someone who opens the invite link sees "Take a seat" and the
name field on the first screen; once enough players sit, the host's Start is in a bar at the
bottom of the first screen; the options form looks like the rest of the app; every control is at
least 44×44 px."""

from __future__ import annotations

import pytest

from games import services
from games.chat import services as chat
from games.models import Game
from tests.browser.pages import Phone

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_invitee_sits_down_from_the_first_screen_and_the_host_starts_from_a_bottom_bar(
    phones, artifacts
):
    host_page, guest_page = phones(2)
    ana, ben = Phone(host_page, "Ana"), Phone(guest_page, "Ben")
    code = ana.open_table()
    ana.check_fits_the_phone()
    assert ana.page.locator(".start-bar").count() == 0  # not enough players yet
    ana.screenshot(artifacts / "lobby-host-alone.png")

    ben.page.goto(f"/g/{code}/")
    expect(ben.page.locator("#sit-title")).to_have_text("Take a seat")
    ben.check_in_first_screen("#sit-title")
    ben.check_in_first_screen(".take-seat button")
    ben.check_fits_the_phone()
    ben.screenshot(artifacts / "lobby-invitee.png")
    ben.join_by_link(f"/g/{code}/")
    expect(ben.page.locator("#game .waiting")).to_contain_text("Waiting for the host")

    ana.page.locator("#bot-count").select_option("4")  # a live refresh keeps it (data-keep-value)
    ana.page.get_by_role("button", name="Add bots").click()
    expect(ana.page.locator(".lobby-seat")).to_have_count(6)
    bar = ana.page.locator(".start-bar")
    expect(bar).to_be_visible()
    ana.page.evaluate("window.scrollTo(0, 0)")
    box = bar.get_by_role("button", name="Start the game").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box  # on the first screen
    ana.check_fits_the_phone()
    ana.screenshot(artifacts / "lobby-host-ready.png")

    ana.page.locator(".options-edit summary").click()
    relics = ana.page.locator(".options-edit label.check", has_text="Sacred Relics")
    expect(relics).to_be_visible()
    assert relics.bounding_box()["height"] >= 44
    size = relics.locator("input").bounding_box()
    assert size["width"] >= 20 and size["height"] >= 20  # not the browser's 13 px box
    ana.check_tap_targets()
    ana.screenshot(artifacts / "lobby-options.png", full_page=True)
    relics.click()
    ana.page.get_by_role("button", name="Save the options").click()
    expect(ana.page.locator("#game .deck")).to_be_visible()
    expect(ana.page.locator("#game")).to_contain_text("Sacred Relics ·")

    bar.get_by_role("button", name="Start the game").click()
    # The role reveal first: the two phones tap Ready, the bots too (as the Celery task would).
    ana.ready()
    ben.ready()
    game = Game.objects.get(code=code)
    for seat in range(3, 7):
        assert services.bot_act(game_id=game.id, seat=seat)
    for phone in (ana, ben):
        phone.page.wait_for_selector('form[data-action="place_token"]')


def test_a_choice_made_after_a_quiet_poll_survives_a_chat_refresh(phones):
    """A poll that finds nothing new (204) swaps nothing, so it must not remember the form: a
    later swap elsewhere on the page (a chat message arriving) would put back the choice it
    saw over the one the player has made since."""
    host_page, guest_page = phones(2)
    ana, ben = Phone(host_page, "Ana"), Phone(guest_page, "Ben")
    code = ana.open_table()
    ben.join_by_link(f"/g/{code}/")
    expect(ana.page.locator(".lobby-seat")).to_have_count(2)
    with ana.page.expect_response(lambda r: "/changed" in r.url and r.status == 204):
        pass  # the lobby's poll came back with nothing new
    # No later poll may pass (one would remember the new choice and hide the fault).
    ana.page.route("**/changed*", lambda route: route.abort())
    ana.page.locator("#bot-count").select_option("4")
    game = Game.objects.get(code=code)
    chat.message_post(
        game=game, user=game.players.get(seat=2).user, channel="table", text="Ready when you are"
    )
    expect(ana.page.locator("#chat")).to_contain_text("Ready when you are")
    expect(ana.page.locator("#bot-count")).to_have_value("4")
