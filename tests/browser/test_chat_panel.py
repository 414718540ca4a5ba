"""The chat panel in a real browser (Chromium, phone-sized): a message being typed survives the
game's refreshes, the other phone's message arrives by the poll, the controls are touch-sized."""

from __future__ import annotations

import re

import pytest

from tests.browser.pages import Phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_chat_a_message_being_typed_survives_the_game_refresh_and_news_arrive(phones, artifacts):
    from playwright.sync_api import expect

    ana, ben = (Phone(page, name) for page, name in zip(phones(2), ["Ana", "Ben"], strict=True))
    code = ana.open_table(last_wills=False)
    ana.page.locator("#chat-section > summary").click()  # one tap away, then kept open
    box = ana.page.locator("#chat-text")
    box.fill("half-typed thought")
    ben.join_by_link(f"/g/{code}/")
    expect(ana.page.locator("#game")).to_contain_text("Ben")  # the game div refreshed
    ben.page.locator("#chat-section > summary").click()
    ben.page.locator("#chat-text").fill("Hello from Ben <b>bold?</b>")
    ben.page.get_by_role("button", name="Send").click()
    expect(ben.page.locator("#chat-list")).to_contain_text("Hello from Ben <b>bold?</b>")
    expect(ben.page.locator("#chat-text")).to_have_value("")
    # By Ana's chat poll (every 2 s); the default wait (WAIT_MS) allows for a loaded machine.
    expect(ana.page.locator("#chat-list")).to_contain_text("Hello from Ben <b>bold?</b>")
    assert ana.page.locator("#chat-list b").count() == 0  # shown as text, never as markup
    expect(box).to_have_value("half-typed thought")
    ana.page.get_by_role("button", name="Send").click()
    expect(ben.page.locator("#chat-list")).to_contain_text("half-typed thought")
    for control in (
        ana.page.locator(".chat-tab").first,
        ana.page.get_by_role("button", name="Send"),
        ana.page.locator("#chat-text"),
        ana.page.get_by_role("button", name=re.compile("^Hide")).first,  # Ana hosts
    ):
        assert control.bounding_box()["height"] >= 44
    ana.page.locator("#chat").screenshot(path=str(artifacts / "chat-panel.png"))
