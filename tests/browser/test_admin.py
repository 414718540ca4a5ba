"""The admin in a real browser: an organiser's jobs as a laptop (1366×768) and a phone
(390×844) do them. The export downloads a file that imports; a bulk action shows its
confirmation page; a stale page is refused; the columns and the log fit the screen.

The game page's screenshot with the "waiting on" column goes to tests/artifacts/ on every run;
with UPDATE_DOCS_SCREENSHOTS=1 also to docs/admin-game.png, which docs/admin.md shows.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Action, Game, Player
from games.services.seats import seen
from tests.admin.conftest import play
from tests.browser.conftest import WAIT_MS
from tests.factories import running_game

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips these tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def admin_browser(browser, server):
    """open(user, screen) -> a page signed in to the admin as `user` (Django's test client makes
    the session), in a context of its own."""
    contexts = []

    def open_(user, screen=LAPTOP, **options):
        client = Client()
        client.force_login(user)
        context = browser.new_context(base_url=server.url, **screen, **options)
        context.set_default_timeout(WAIT_MS)
        context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": server.url}]
        )
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture
def root(db):
    return get_user_model().objects.create_superuser("root", "root@example.com", "pw")


def test_export_downloads_a_file_that_imports(admin_browser, root, tmp_path):
    game = play(running_game(6), 3)
    page = admin_browser(root, accept_downloads=True)
    page.goto(f"/admin/games/game/{game.id}/change/")
    page.get_by_role("link", name="Export replay").click()
    expect(page.locator("#content")).to_contain_text("holds every secret")
    with page.expect_download() as caught:
        page.get_by_role("button", name="Download the replay").click()
    download = caught.value
    assert download.suggested_filename == f"staked-{game.code}.json"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)

    page.goto("/admin/games/game/")
    page.get_by_role("link", name="Import a replay").click()
    page.set_input_files('input[name="file"]', str(saved))
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#content")).to_contain_text(f"Imported replay of game {game.code}")
    copy = Game.objects.exclude(id=game.id).get()
    assert copy.state == Game.objects.get(id=game.id).state


def test_a_bulk_action_shows_a_confirmation_page_first(admin_browser, root):
    games = [running_game(6), running_game(6)]
    page = admin_browser(root)
    page.goto("/admin/games/game/")
    for game in games:
        page.locator(f'input[name="_selected_action"][value="{game.id}"]').check()
    page.locator('select[name="action"]').select_option("abandon_games")
    page.get_by_role("button", name="Go").click()
    content = page.locator("#content")
    expect(content).to_contain_text("End each game below as abandoned?")
    for game in games:
        expect(content).to_contain_text(game.code)
    assert not Game.objects.filter(status=Game.Status.ABANDONED).exists()
    page.get_by_role("button", name="Yes, I’m sure").click()
    expect(page.locator(".messagelist")).to_contain_text(f"{games[0].code}: abandoned.")
    assert Game.objects.filter(status=Game.Status.ABANDONED).count() == 2


def test_a_stale_form_is_refused(admin_browser, root):
    """Two tabs on one "Expire" page: the first closes the window, the second is refused."""
    game = play(running_game(6), 3)
    first = admin_browser(root)
    second = first.context.new_page()
    for tab in (first, second):
        tab.goto(f"/admin/games/game/{game.id}/expire/")
        expect(tab.locator("#content")).to_contain_text("The Mingling window of round 1")
    first.get_by_role("button", name="Expire").click()
    expect(first.locator(".messagelist")).to_contain_text("Window expired")
    second.get_by_role("button", name="Expire").click()
    expect(second.locator(".errornote")).to_contain_text("is closed")
    expect(second.locator(".errornote")).to_contain_text("Nothing was done")
    assert Action.objects.filter(game=game, name="timeout").count() == 1


def test_the_columns_and_the_log_fit_a_laptop_and_a_phone(admin_browser, root, artifacts):
    from games.chat.models import Message

    game = play(running_game(7), 5)
    Message.objects.create(
        game=game,
        channel="table",
        number=1,
        author_name="p1",
        text="I think seat four is the one we should all be watching this round, honestly",
    )
    laptop = admin_browser(root)
    laptop.goto("/admin/games/game/")
    deadline = laptop.locator("th.column-deadline_shown")  # the deadline, or the paused clock
    expect(deadline).to_be_visible()
    box = deadline.bounding_box()
    assert box["x"] + box["width"] <= 1366, box
    laptop.goto("/admin/chat/message/")
    text = laptop.locator("td.field-short_text").first.bounding_box()
    assert text["width"] >= 250, text  # not one word a line

    phone = admin_browser(root, PHONE)
    phone.goto(f"/admin/games/game/{game.id}/change/")
    line = phone.locator(".staked-log li").first
    expect(line).to_be_visible()
    assert line.bounding_box()["width"] >= 300  # the log reads across the phone
    phone.screenshot(path=str(artifacts / "admin-game-phone.png"), full_page=True)


def test_screenshot_of_the_game_page_with_who_is_waiting(admin_browser, root, artifacts):
    """The picture in docs/admin.md (look at it when the page changes)."""
    game = play(running_game(7), 6)
    Player.objects.filter(game=game, seat=6).update(missed_windows=2, afk=True)
    for seat in (1, 2, 4):
        seen(game, seat)
    page = admin_browser(root)
    page.goto(f"/admin/games/game/{game.id}/change/")
    seats = page.locator("table.staked-seats")
    expect(seats).to_contain_text("waiting")
    expect(seats.locator("tr.away")).to_contain_text("2 (away)")
    page.locator("fieldset", has=seats).scroll_into_view_if_needed()
    shot = artifacts / "admin-game.png"
    page.screenshot(path=str(shot), full_page=True)
    assert re.search(r"waiting", seats.inner_text())
    if os.environ.get("UPDATE_DOCS_SCREENSHOTS") == "1":
        shutil.copyfile(shot, DOCS / "admin-game.png")
