"""Web test cast: phones (Django test clients with a session) at a table.

A table with a fixed deal is opened by a staff member through games.services (only staff may fix
the deal), the phones' guests sit down, the staff member leaves, and seat 1 starts it, all through
the services (tests/factories.py): a phone is then signed in to its session as the invite link
leaves it. Sitting down by the invite link itself (`sit`) has its tests in test_lobby.py and
test_home.py."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from games import services
from games.models import Game
from tests import factories

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lou"]
LETTERS = {"H": "hunter", "V": "vampire", "L": "vampire_lord"}
TOKENS = {"S": "stake", "F": "feast", "D": "double_stake", "I": "investigation"}


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # poll keys must not leak between tests
    yield
    cache.clear()


class Phone:
    """One friend's phone: a browser session, seen through the pages only."""

    def __init__(self, name: str):
        self.name = name
        self.client = Client()
        self.seat: int | None = None
        self.user = None

    def sign_up(self):
        """A guest signed in on this phone, as the first page that asks for a name leaves it."""
        self.user = factories.guest(self.name)
        self.client.force_login(self.user, backend=factories.SESSION_BACKEND)
        return self.user

    def page(self, code: str) -> str:
        response = self.client.get(f"/g/{code}/")
        assert response.status_code == 200, response.status_code
        return response.content.decode()

    def post(self, url: str, data=None, *, htmx: bool = True, expect: int | None = 200):
        headers = {"HX-Request": "true"} if htmx else {}
        response = self.client.post(url, data or {}, headers=headers)
        if expect is not None:
            assert response.status_code == expect, (
                response.status_code,
                _alert(response.content.decode()),
            )
        return response

    def act(self, code: str, action: str, expect: int = 200, **fields):
        return self.post(f"/g/{code}/act/{action}", fields, expect=expect)

    def place(self, code: str, plan: str):
        """`plan` like "S3 S4 F5": a Stake on seat 3, a Stake on 4, a Feast on 5."""
        for word in plan.split():
            self.act(code, "place_token", token=TOKENS[word[0]], target=word[1:])


def _alert(page: str) -> str:
    """The words of the page's alert (the rule that refused a move), unescaped."""
    found = re.search(r'role="alert">(.*?)</div>', page, re.S)
    return html.unescape(found.group(1).strip()) if found else ""


alert_text = _alert


class Table:
    def __init__(self, code: str, phones: list[Phone]):
        self.code = code
        self.phones = phones

    def phone(self, seat: int) -> Phone:
        return self.phones[seat - 1]

    def page(self, seat: int) -> str:
        return self.phone(seat).page(self.code)

    def play(self, plans: dict[int, str], *, on_the_phones: bool = False):
        """Place the plans' tokens through the service the pages call, as the setting of a test;
        `on_the_phones` places them through the pages (Phone.place), for the tests about what
        the answer to a move shows or records."""
        for seat, plan in plans.items():
            if on_the_phones:
                self.phone(seat).place(self.code, plan)
                continue
            user = self.phone(seat).user
            for word in plan.split():
                services.action_apply(
                    code=self.code,
                    user=user,
                    name="place_token",
                    args={"token": TOKENS[word[0]], "target": int(word[1:])},
                )

    @property
    def game(self) -> Game:
        return Game.objects.get(code=self.code)


@pytest.fixture
def staff():
    return get_user_model().objects.create_user("staffer", password="pw-staffer-1", is_staff=True)


@pytest.fixture
def phones():
    def make(n: int) -> list[Phone]:
        return [Phone(NAMES[i]) for i in range(n)]

    return make


def sit(phone: Phone, code: str) -> None:
    response = phone.client.post(f"/g/{code}/join", {"name": phone.name})
    assert response.status_code == 302, response.content.decode()[:500]


@pytest.fixture
def lobby(staff, phones):
    """A lobby with a fixed deal (staff opened it and left): phones in seats 1..N, not started."""

    def make(roles: str, **options) -> Table:
        deal = {str(i + 1): LETTERS[c] for i, c in enumerate(roles)}
        options = {"roles": deal, "last_wills": False, "expansion": len(roles) > 10, **options}
        game = services.game_create(host=staff, options=options, name="Staff")
        table = Table(game.code, phones(len(roles)))
        users = [phone.sign_up() for phone in table.phones]
        factories.seat_all(game.code, users, [phone.name for phone in table.phones])
        factories.hand_over(game.code, staff, users, start=False)
        for seat, phone in enumerate(table.phones, start=1):
            phone.seat = seat
        return table

    return make


@pytest.fixture
def table(lobby):
    """A running game with a fixed deal: "LVHHHH" deals seat 1 the Lord, seat 2 a Vampire..."""

    def make(roles: str, **options) -> Table:
        t = lobby(roles, **options)
        services.game_start(code=t.code, user=t.phone(1).user)
        assert t.game.status == Game.Status.RUNNING
        return t

    return make
