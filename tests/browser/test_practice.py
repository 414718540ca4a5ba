"""Learn by playing in a real browser, on a phone (390×844, touch): Ana starts a
practice game from the home page, reads the coach's note, peeks at the tips for her role behind
a tap, turns the notes off and plays on into round 2 against the bots; then turns them on
again. Screenshots in tests/artifacts/."""

from __future__ import annotations

import re

import pytest

from games import engine, services
from games.engine import state_from_json
from games.engine.view import waiting_for
from games.models import Game
from tests.browser.conftest import PHONE, WAIT_MS
from tests.browser.pages import Phone

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips these tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def bots_then_me(game: Game, ana: Phone) -> None:
    """One step of the table: a bot the game waits on moves (services.bot_act, as the Celery
    task does); when only Ana is waited on, she makes her first legal move on the page."""
    game.refresh_from_db()
    state = state_from_json(game.state)
    seats = waiting_for(state)
    if any(services.bot_act(game_id=game.id, seat=s) for s in seats if s != 1):
        return
    if 1 not in seats:
        services.game_expire(game_id=game.id, now=state.deadline + 1)
        return
    version = game.version
    expect(ana.page.locator("#game")).to_have_attribute("data-version", str(version))
    move = engine.view(state, 1)["pending"][0]
    target = move["options"]["targets"][0]
    if move["action"] == "place_token":
        ana.place(move["options"]["tokens"][0], target)
    else:
        ana.dial(move["action"], target)


def test_learn_by_playing_with_the_coach_then_without(browser, server, artifacts):
    context = browser.new_context(**PHONE, base_url=server.url)
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        ana = Phone(page, "Ana")
        page.goto("/")
        start = page.locator("form[action='/practice']")
        start.get_by_label("Your name").fill("Ana")
        page.locator("section.practice").screenshot(path=str(artifacts / "practice-home.png"))
        start.get_by_role("button", name="Learn by playing").click()
        page.wait_for_url(re.compile(r"/g/[A-Z0-9]{6}/$"))
        ana.seat = 1
        game = Game.objects.get(code=ana.code)
        assert game.options["practice"] is True and game.players.filter(is_bot=True).count() == 5

        # The role reveal first, as in any game opened on the page: the coach says what it is;
        # the bots are ready (as the Celery task makes them), and Ana's Ready opens round 1.
        coach = page.locator("[data-coach]")
        notes = coach.locator(".coach-note:visible")
        expect(notes.first).to_have_text(re.compile(r"^This is your Secret Role"))
        expect(page.locator("#game")).to_contain_text("You are")
        ana.check_fits_the_phone()
        page.screenshot(path=str(artifacts / "practice-reveal.png"))
        for seat in range(2, 7):
            assert services.bot_act(game_id=game.id, seat=seat)
        ana.ready()

        # The coach explains the hand and round 1; the role's tips wait behind a tap.
        expect(notes.first).to_have_text(re.compile(r"^You have 2 Stakes and a Feast to place\."))
        expect(notes.nth(1)).to_contain_text("Everyone sees who placed on whom")
        secret = coach.locator(".coach-secret")
        expect(secret.locator(".coach-note").first).to_be_hidden()
        ana.check_fits_the_phone()
        page.screenshot(path=str(artifacts / "practice-coach.png"))
        secret.locator("summary").click()
        expect(secret.locator(".coach-note").first).to_contain_text(re.compile(r"^You are "))
        secret.locator("summary").click()
        expect(secret.locator(".coach-note").first).to_be_hidden()

        # A new moment, a new note: one token placed, two left.
        game.refresh_from_db()
        targets = engine.view(state_from_json(game.state), 1)["pending"][0]["options"]["targets"]
        ana.place("stake", targets[0])
        expect(notes.first).to_have_text(re.compile(r"^You have a Stake and a Feast to place\."))

        # Notes off: the page keeps only the switch to turn them on again.
        coach.get_by_role("button", name="Turn notes off").click()
        expect(coach.get_by_role("button", name="Turn coach notes on")).to_be_visible()
        expect(coach.locator(".coach-note")).to_have_count(0)

        # Playing on into round 2 with the bots: still no note.
        for _ in range(200):
            game.refresh_from_db()
            if game.round >= 2 or game.status != Game.Status.RUNNING:
                break
            bots_then_me(game, ana)
        assert game.round == 2, (game.round, game.phase)
        ana.wait_for_round(2)
        expect(coach.locator(".coach-note")).to_have_count(0)
        ana.check_fits_the_phone()
        page.screenshot(path=str(artifacts / "practice-notes-off.png"), full_page=True)

        # And on again: round 2's notes, starting with what round 1 decided.
        coach.get_by_role("button", name="Turn coach notes on").click()
        expect(coach.locator(".coach-note").first).to_be_visible()
        expect(coach).to_contain_text("to place.")
        page.screenshot(path=str(artifacts / "practice-round-2.png"))
    finally:
        context.close()
