"""One Sacred Relics round in a real browser (Chromium): six phones receive their relics from
each other through the pages after round 1 (R10.2), then the first window of round 2 — the
Ritual Bell's — is used through the page while every phone shows the board's countdown and whose
window it is (R10.2a), and the effect shows on the silenced player's relic card and in everyone's
log (R10.3, R11).

A staff member deals the roles and fixes the relic draw (games/domain/options.py `roles`,
`relic_deck`) and leaves; round 1 is played through games.services (tests/web/test_play.py's
ROUND_1 elects seat 5 Alpha, so seats 5, 6, 1, 2, 3, 4 give in turn), the relic round through
the pages alone.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game
from tests.browser.pages import NAMES, Phone
from tests.web.conftest import LETTERS, TOKENS
from tests.web.test_play import ROUND_1
from tests.web.test_relic_pages import GIVERS, WINDOWS, deck

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seated_table(pages) -> tuple[str, list[Phone]]:
    staff = get_user_model().objects.create_user("staffer", password="pw-staffer-1", is_staff=True)
    options = {
        "roles": {str(i): LETTERS[r] for i, r in enumerate("LVHHHH", start=1)},
        "relics": True,
        "relic_deck": deck(WINDOWS),
        "last_wills": False,
        "timers": {"relic": 120},
    }
    game = services.game_create(host=staff, options=options, name="Staff")
    table = [Phone(page, name) for page, name in zip(pages, NAMES, strict=True)]
    for seat, phone in enumerate(table, start=1):
        phone.join_by_link(f"/g/{game.code}/")
        phone.seat = seat
    services.game_leave(code=game.code, user=staff)
    ana = table[0]
    ana.page.reload()
    ana.page.get_by_role("button", name="Start the game").click()
    for phone in table:
        phone.page.wait_for_selector('form[data-action="place_token"]')
    return game.code, table


def _round_one_by_services(code: str) -> None:
    users = {p.seat: p.user for p in Game.objects.get(code=code).players.all()}
    for seat, plan in ROUND_1.items():
        for word in plan.split():
            args = {"token": TOKENS[word[0]], "target": int(word[1:])}
            services.action_apply(code=code, user=users[seat], name="place_token", args=args)
    services.action_apply(code=code, user=users[3], name="choose_examiner", args={"target": 4})


@pytest.mark.long(41)
def test_r10_a_relic_round_distribution_and_the_bell_window_through_the_pages(phones, artifacts):
    code, table = _seated_table(phones(6))
    _round_one_by_services(code)
    by_seat = {p.seat: p for p in table}

    # --- R10.2: each giver in turn draws in secret and gives through the page ------------------
    for i, seat in enumerate(GIVERS):
        giver = by_seat[seat]
        giver.page.wait_for_selector('form[data-action="give_relic"]')
        form = giver.page.locator('form[data-action="give_relic"]')
        expect(form).to_contain_text("You drew:")
        if i == len(GIVERS) - 1:  # the last giver drew two and gives one
            form.locator('label:has(input[name="card"][value="bangle_of_oaths"])').click()
        else:
            other = by_seat[GIVERS[i + 1]]
            expect(other.page.locator("[data-relic-board]")).to_contain_text("is giving one")
            expect(other.page.locator('form[data-action="give_relic"]')).to_have_count(0)
        giver.choose_target(GIVERS[(i + 1) % len(GIVERS)], "give_relic")
        if i == 0:
            giver.check_fits_the_phone()
            giver.screenshot(artifacts / "relic-give.png")
        giver.confirm("give_relic")
    for phone in table:
        expect(phone.page.locator(".relic-mine").first).to_contain_text("Your relic:")
        expect(phone.page.locator(f'[data-my-relic="{WINDOWS[phone.seat]}"]')).to_have_count(1)

    # --- R10.3: round 2 opens with the Ritual Bell's window; everyone sees its countdown ------
    for phone in table:
        phone.open_section("table-section")  # one tap
        board = phone.page.locator("[data-relic-board]")
        expect(board.locator('[data-relic-window="ritual_bell"]')).to_be_visible()
        expect(board.locator(".countdown-value")).to_have_text(re.compile(r"⏱ [01]:\d\d"))
        expect(board).to_contain_text("Ana chooses or passes.")  # R10.2a: public
        expect(board.locator('[data-holder="2"]')).to_contain_text("Signet Ring")
    ana, ben = by_seat[1], by_seat[2]
    bell = ana.page.locator('form[data-action="use_relic"]')
    expect(bell).to_contain_text("Use the Ritual Bell")
    bell.locator('label:has(input[name="pick"][value="2:signet_ring"])').click()
    ana.check_fits_the_phone()
    ana.screenshot(artifacts / "relic-window.png", full_page=True)
    ana.confirm("use_relic")

    # --- R11: Ben's Signet Ring is silenced (its window is skipped); everyone reads it ---------
    expect(ben.page.locator('[data-my-relic="signet_ring"]')).to_contain_text("negated this round")
    for phone in table:
        expect(phone.page.locator("#game .status-bar .phase")).to_have_text("Mingling")
        expect(phone.page.locator("#log-region .log")).to_contain_text(
            "Ana rings the Ritual Bell: Ben's Signet Ring is negated this round."
        )
    expect(ana.page.locator('[data-my-relic="ritual_bell"]')).not_to_contain_text("negated")
