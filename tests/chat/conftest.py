"""Chat test cast: the API's guests and tables (tests/api/conftest.py), phones at a table
through the pages (tests/web/conftest.py), and the rounds that make seat 2 a Ghost and end the
game (tests/web/test_play.py: with "LVHHHH", seat 2 is the Vampire, Staked in round 2)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games import services
from tests import factories
from tests.api.conftest import NAMES, guest, guests, staff, table  # noqa: F401 - shared cast
from tests.api.conftest import Table as ApiTable
from tests.web.conftest import LETTERS, Phone
from tests.web.conftest import Table as PageTable
from tests.web.test_play import ROUND_1, ROUND_2, ROUND_3


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # rate limits, stamps and poll keys must not leak between tests
    yield
    cache.clear()


def chat_url(code: str, channel: str, suffix: str = "") -> str:
    return f"/api/v1/games/{code}/chat/{channel}/{suffix}"


def say(client: APIClient, code: str, channel: str, text: str, expect: int = 201) -> dict:
    response = client.post(chat_url(code, channel), {"text": text}, format="json")
    assert response.status_code == expect, (response.status_code, response.content)
    return response.json()


def read(client: APIClient, code: str, channel: str, expect: int = 200, **params) -> dict:
    response = client.get(chat_url(code, channel), params)
    assert response.status_code == expect, (response.status_code, response.content)
    return response.json()


def everything_seen_by(client: APIClient, code: str) -> str:
    """Every API answer a client may ask for about this game, as one text: the game view, the
    events, and each chat channel it may read."""
    parts = [
        client.get(f"/api/v1/games/{code}/").content.decode(),
        client.get(f"/api/v1/games/{code}/events/").content.decode(),
    ]
    for channel in ("table", "ghosts", "den"):
        parts.append(client.get(chat_url(code, channel)).content.decode())
    return "\n".join(parts)


def make_ghost_of_seat_2(t) -> None:
    """Rounds 1 and 2 of tests/web/test_play.py (last_wills off): seat 2 is Staked."""
    if isinstance(t, ApiTable):
        for seat, plan in ROUND_1.items():
            t.place(seat, plan)
        t.act(3, "choose_examiner", target=4)
        for seat, plan in ROUND_2.items():
            t.place(seat, plan)
    else:
        t.play(ROUND_1)
        t.phone(3).act(t.code, "choose_examiner", target="4")
        t.play(ROUND_2)


def finish(t) -> None:
    """From make_ghost_of_seat_2: round 3 ends the game (the Hunters win)."""
    if isinstance(t, ApiTable):
        t.act(2, "intervention_vote", target=3)
        for seat, plan in ROUND_3.items():
            t.place(seat, plan)
    else:
        t.phone(2).act(t.code, "intervention_vote", target="3")
        t.play(ROUND_3)


@pytest.fixture
def stranger() -> APIClient:
    """Signed in, seated nowhere: a spectator."""
    return guest("Zed")


@pytest.fixture
def staff_user(staff):  # noqa: F811 - the shared API fixture
    return staff.user


@pytest.fixture
def phones_at(staff_user):
    """A table through the pages with a fixed deal (like tests/web/conftest.py `table`); seat 1
    hosts. `start=False` leaves it in the lobby."""

    def make(roles: str, *, start: bool = True, **options) -> PageTable:
        deal = {str(i + 1): LETTERS[c] for i, c in enumerate(roles)}
        options = {"roles": deal, "last_wills": False, "expansion": len(roles) > 10, **options}
        game = services.game_create(host=staff_user, options=options, name="Staff")
        t = PageTable(game.code, [Phone(NAMES[i]) for i in range(len(roles))])
        users = [phone.sign_up() for phone in t.phones]
        factories.seat_all(game.code, users, [phone.name for phone in t.phones])
        for seat, phone in enumerate(t.phones, start=1):
            phone.seat = seat
        factories.hand_over(game.code, staff_user, users, start=start)
        return t

    return make
