"""The role reveal before round 1 on six phones (R2's ruling in docs/rulings.md): each
phone shows its own role and what that role knows, with Ready on the first screen; once ready, a
phone says whom the table still waits for and hides the role again; the last Ready starts round
1's Mingling everywhere. And the grace window alone starts it too."""

from __future__ import annotations

import pytest

from games import services
from games.engine import state_from_json
from games.models import Game
from tests.browser.pages import NAMES, Phone, seat_six

try:
    from playwright.sync_api import expect
except ImportError:  # conftest.py skips the browser tests (or fails them in CI) with the reason
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LABELS = {"hunter": "Hunter", "vampire": "Vampire", "vampire_lord": "Vampire Lord"}


def roles_of(code: str) -> dict[int, str]:
    state = state_from_json(Game.objects.get(code=code).state)
    return {p.seat: p.role for p in state.players}


@pytest.mark.long(24)
def test_each_phone_sees_its_role_and_the_last_ready_starts_round_1(phones, artifacts):
    table = seat_six(phones(6), ready=False)
    code = table[0].code
    for phone in table:
        phone.page.wait_for_selector('form[data-action="ready"]')
    roles = roles_of(code)
    names = {phone.seat: phone.name for phone in table}
    shot = set()
    for phone in table:
        role = roles[phone.seat]
        face = phone.page.locator("[data-reveal-role]")
        assert face.get_attribute("data-reveal-role") == role
        expect(face.locator(".role-name")).to_have_text(LABELS[role])
        knows = face.locator("[data-role-knows]").inner_text()
        if role == "vampire":  # R1.3: the Vampire sees the Lord
            (lord,) = [s for s, r in roles.items() if r == "vampire_lord"]
            assert f"{names[lord]} is the Vampire Lord" in knows, knows
        elif role == "vampire_lord":  # six players: the Lord does not know the Vampire (R1.2)
            assert "you do not know who they are" in knows, knows
        else:  # a Hunter learns nobody's role
            assert "You know nobody's role" in knows and " is " not in knows, knows
        phone.check_in_first_screen("[data-ready]")
        assert phone.page.locator("[data-ready]").bounding_box()["height"] >= 44
        phone.check_fits_the_phone()
        phone.check_words_for_people()
        phone.check_hidden_information(roles)
        if role not in shot:
            shot.add(role)
            phone.check_accessibility()
            phone.screenshot(artifacts / f"reveal-{role}.png")
    assert shot == {"hunter", "vampire", "vampire_lord"}

    for phone in table[:3]:
        phone.ready()
    ana = table[0]
    expect(ana.page.locator("#game [data-waiting]")).to_contain_text(
        "Waiting for Dev, Eli and Fay to look at their role"
    )
    ana.check_in_first_screen("#game [data-waiting]")
    assert ana.page.locator("[data-reveal-role]").count() == 0  # the role hides again
    expect(ana.page.locator(".role-face")).to_be_hidden()
    ana.screenshot(artifacts / "reveal-waiting.png")
    dev = table[3]
    dev.page.reload()
    expect(dev.page.locator("#log-region .log")).to_contain_text("Ana is ready.")
    assert dev.page.locator('form[data-action="ready"]').count() == 1  # still Dev's to tap

    for phone in table[3:]:
        phone.ready()
    for phone in table:
        phone.page.wait_for_selector('form[data-action="place_token"]')
        expect(phone.page.locator("#game .status-bar .phase")).to_have_text("Mingling")
    assert Game.objects.get(code=code).phase == "mingling"


def test_the_grace_window_alone_starts_round_1(phones):
    (page,) = phones(1)
    ana = Phone(page, NAMES[0])
    code = ana.open_table()
    game = Game.objects.get(code=code)
    services.game_add_bots(code=code, user=game.host, count=5)  # no worker: they never tap
    ana.page.reload()
    ana.page.get_by_role("button", name="Start the game").click()
    ana.page.wait_for_selector('form[data-action="ready"]')
    expect(ana.page.locator("#game .status-bar .phase")).to_have_text("Role reveal")
    deadline = state_from_json(Game.objects.get(code=code).state).deadline
    # The window's timer runs out (the timeout path the ETA task and the sweeper run): nobody
    # tapped Ready, round 1 begins all the same.
    assert services.game_expire(game_id=game.id, now=deadline + 1)
    ana.page.wait_for_selector('form[data-action="place_token"]')
    expect(ana.page.locator("#log-region .log")).to_contain_text("Time is up for looking at roles.")
    assert Game.objects.get(code=code).phase == "mingling"
