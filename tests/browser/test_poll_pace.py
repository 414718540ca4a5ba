"""The page polls at the pace the server sets (games/domain/polls.py): every 2 s
in the lobby, every second once a live game runs, every 10 s in an asynchronous game, and not at all
while the tab is hidden (it polls at once when shown again)."""

from __future__ import annotations

import statistics
import time

import pytest

from games import services
from games.models import Game
from tests.browser.pages import Phone, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


HIDE = """() => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "hidden"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => "visible"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


class Polls:
    """When the page sent its game polls (seconds on this process's clock)."""

    def __init__(self, page):
        self.sent: list[float] = []
        page.on(
            "request", lambda r: self.sent.append(time.monotonic()) if "/changed" in r.url else None
        )

    def during(self, page, seconds: float) -> list[float]:
        start = len(self.sent)
        page.wait_for_timeout(seconds * 1000)
        return self.sent[start:]


def gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in zip(times, times[1:], strict=False)]


@pytest.mark.long(19)
def test_the_page_polls_faster_in_a_live_window_and_stops_while_hidden(phones):
    (page,) = phones(1)
    ana = Phone(page, "Ana")
    code = ana.open_table()
    host = Game.objects.get(code=code).host
    services.game_add_bots(code=code, user=host, count=5)
    polls = Polls(page)

    lobby = polls.during(page, 6.5)
    assert "every 2s" in page.get_attribute("#game", "hx-trigger")
    assert len(lobby) >= 2 and min(gaps(lobby)) >= 1.5, gaps(lobby)

    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#game")).to_have_attribute(
        "hx-trigger", "every 1s, visibilitychange from:document"
    )
    live = polls.during(page, 5)
    assert len(live) >= 3 and statistics.median(gaps(live)) < 1.5, gaps(live)

    page.evaluate(HIDE)
    assert polls.during(page, 3.5) == []  # a hidden tab sends nothing
    page.evaluate(SHOW)
    assert polls.during(page, 0.8), "no poll when the tab was shown again"


def test_an_asynchronous_game_polls_every_ten_seconds(phones, django_user_model):
    (page,) = phones(1)
    host = django_user_model.objects.create_user("host", first_name="Host")
    game = services.game_create(host=host, options={"preset": "async"}, name="Host")
    services.game_add_bots(code=game.code, user=host, count=5)
    services.game_start(code=game.code, user=host)
    polls = Polls(page)
    page.goto(f"/g/{game.code}/")  # a spectator's page: spectators are on
    assert page.get_attribute("#game", "hx-trigger").startswith("every 10s")
    assert polls.during(page, 4) == []
