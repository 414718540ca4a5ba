"""The room screen fits the room's screen: `/t/{code}/` on a 1280×720 laptop and a
1920×1080 TV, side by side, through a whole ten-seat game with Sacred Relics and Last Wills: the
lobby, the role reveal with three seats ready, an empty Mingling, a tie vote of all ten (R3.4:
nobody placed a token), a Dining's reveal, a relic turn, a Mingling with tokens down and the end
screen with every role. At each phase neither page scrolls, the Dining's outcome is never cut
off (round 2's Dining of ten players' tokens included), and a screenshot of each goes to
tests/artifacts/room-<phase>-<w>x<h>.png."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game, Player
from games.selectors import game as selectors
from tests.browser.conftest import WAIT_MS
from tests.browser.test_narrated_room import one_move

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips these tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1280, 720), (1920, 1080)]
NAMES = "Anastasia Benedikt Cleo Devendra Eli Fay Gwendolyn Hal Ines Jo".split()
SEED = 20261201


def ten_seat_lobby() -> Game:
    users = [get_user_model().objects.create_user(f"{n.lower()}-{SEED}") for n in NAMES]
    options = {"seed": SEED, "relics": True, "last_wills": True, "timers": {"reveal": 30}}
    game = services.game_create(host=users[0], options=options, name=NAMES[0])
    for user, name in zip(users[1:], NAMES[1:], strict=True):
        services.game_join(code=game.code, user=user, name=name)
    game.users = users
    return game


def fits(screens: dict, game: Game, phase: str, artifacts) -> list[str]:
    """Both screens show the game's current version and are photographed; returns how either
    would scroll (nothing when both fit)."""
    over = []
    game.refresh_from_db()
    for (w, h), page in screens.items():
        expect(page.locator("#display")).to_have_attribute("data-version", str(game.version))
        page.screenshot(path=str(artifacts / f"room-{phase}-{w}x{h}.png"), animations="disabled")
        tall, wide = page.evaluate(
            "() => [document.documentElement.scrollHeight - window.innerHeight,"
            " document.documentElement.scrollWidth - window.innerWidth]"
        )
        if tall > 0 or wide > 0:
            over.append(f"{phase} at {w}×{h}: {tall}px too tall, {wide}px too wide")
        # The Dining's outcome (who was eliminated or examined) is never cut off by the side
        # column, however many tokens the round had.
        cut = page.evaluate(
            """() => {
              const outcome = document.querySelector(".display .dining .step-3");
              if (!outcome) return 0;
              const side = outcome.closest(".display-side").getBoundingClientRect();
              return Math.max(0, outcome.getBoundingClientRect().bottom - side.bottom);
            }"""
        )
        if cut > 0:
            over.append(f"{phase} at {w}×{h}: the Dining's outcome is cut by {cut}px")
    return over


def play_until(game: Game, reached, what: str) -> None:
    for _ in range(400):
        game.refresh_from_db()
        if reached(selectors.game_view(game, None)):
            return
        one_move(game)
    pytest.fail(f"the bots never reached {what}")


def relic_turn(view: dict) -> bool:
    relics = view.get("relics") or {}
    return bool(relics.get("window") or relics.get("choice"))


def second_dining(view: dict) -> bool:
    dining = view.get("last_dining") or {}
    return dining.get("round", 0) >= 2 and not view.get("tie")


def tokens_down(view: dict) -> bool:
    placed = sum(len(s.get("placed_by", [])) for s in view["seats"])
    return view["phase"] == "mingling" and placed >= 8


@pytest.mark.long(24)
def test_the_room_screen_fits_720p_and_1080p_at_every_phase_without_scrolling(
    browser, server, artifacts
):
    game = ten_seat_lobby()
    screens, contexts, over = {}, [], []
    try:
        for w, h in SIZES:
            context = browser.new_context(base_url=server.url, viewport={"width": w, "height": h})
            context.set_default_timeout(WAIT_MS)
            contexts.append(context)
            screens[(w, h)] = page = context.new_page()
            page.goto(f"/t/{game.code}/")
        over += fits(screens, game, "lobby", artifacts)

        services.game_start(code=game.code, user=game.users[0])
        for user in game.users[:3]:
            services.action_apply(code=game.code, user=user, name="ready", args={})
        for page in screens.values():
            expect(page.locator(".display-seat .badge.ready")).to_have_count(3)
        over += fits(screens, game, "reveal", artifacts)

        game.refresh_from_db()  # the rest never tap Ready: the grace window starts round 1
        services.game_expire(game_id=game.id, now=game.state["deadline"] + 1)
        over += fits(screens, game, "mingling", artifacts)

        game.refresh_from_db()  # nobody places a token: all ten tie (R3.4)
        services.game_expire(game_id=game.id, now=game.state["deadline"] + 1)
        for page in screens.values():
            expect(page.locator(".display-tie strong")).to_have_count(10)
        over += fits(screens, game, "tie", artifacts)

        Player.objects.filter(game=game).update(is_bot=True)
        play_until(game, lambda v: v.get("last_dining") and not v.get("tie"), "a Dining")
        for page in screens.values():
            expect(page.locator(".dining")).to_be_visible()
        over += fits(screens, game, "dining", artifacts)

        play_until(game, relic_turn, "a relic turn")
        for page in screens.values():
            expect(page.locator("[data-relic-board]")).to_be_visible()
        over += fits(screens, game, "relic", artifacts)

        play_until(game, tokens_down, "a Mingling with tokens placed")
        over += fits(screens, game, "mingling-tokens", artifacts)

        play_until(game, second_dining, "round 2's Dining")
        for page in screens.values():
            expect(page.locator(".dining .step-3")).to_contain_text("Eliminated")
        over += fits(screens, game, "dining-round-2", artifacts)

        play_until(game, lambda v: v["status"] == Game.Status.FINISHED, "the end")
        for page in screens.values():
            expect(page.locator(".display-roles li")).to_have_count(10)
        over += fits(screens, game, "end", artifacts)
    finally:
        for context in contexts:
            context.close()
    assert not over, over
