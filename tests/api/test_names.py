"""Through the API: names are cleaned wherever they enter (guest sign-in,
registration, join, claim), a name with nothing visible is a 400 `bad_request`, two seats of a
game never share a name (409 `name_taken`, bots' "Bot N" included), and the log's lines quote a
name and carry it as data instead of splicing it into the sentence (games.domain.names)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.domain import names
from games.models import Player
from tests.api.conftest import guest

pytestmark = pytest.mark.django_db

# Unicode Cc and Cf, the ranges the audit named: zero-width U+200B-U+200F, embeddings and
# overrides U+202A-U+202E, isolates U+2066-U+2069, the BOM; a bell, escape, soft hyphen, word
# joiner. (A NUL is refused by DRF itself, a 400 too.)
INVISIBLE = "".join(
    [chr(c) for c in range(0x200B, 0x2010)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\ufeff", "\x07", "\x1b", "\u00ad", "\u2060"]
)
DIRTY = " E\u200b\u202ev\u2066e \t\n\u2028 Smith\ufeff\u200f\x1b "  # within the 40 characters


def lobby(host: APIClient) -> str:
    response = host.post("/api/v1/games/", {}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["code"]


def join(client: APIClient, code: str, name: str):
    return client.post(f"/api/v1/games/{code}/join/", {"name": name}, format="json")


def seat_names(code: str) -> list[str]:
    return list(
        Player.objects.filter(game__code=code).order_by("seat").values_list("name", flat=True)
    )


def test_guest_sign_in_strips_invisible_characters_and_collapses_whitespace():
    response = APIClient().post("/api/v1/auth/guest/", {"name": DIRTY}, format="json")
    assert response.status_code == 201
    assert response.json()["name"] == "Eve Smith"


def test_registration_strips_invisible_characters_from_the_name():
    body = {"username": "eve", "password": "a-long-passphrase-1", "name": DIRTY}
    response = APIClient().post("/api/v1/auth/register/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Eve Smith"


@pytest.mark.parametrize("route", ["guest", "register", "join", "create"])
def test_a_name_with_nothing_visible_is_a_400_bad_request_everywhere(route):
    empty = INVISIBLE + " \u3164\u2800 "
    ana = guest("Ana")
    code = lobby(ana)
    if route == "guest":
        response = APIClient().post("/api/v1/auth/guest/", {"name": empty}, format="json")
    elif route == "register":
        body = {"username": "eve", "password": "a-long-passphrase-1", "name": empty}
        response = APIClient().post("/api/v1/auth/register/", body, format="json")
    elif route == "join":
        response = join(guest("Ben"), code, empty)
    else:
        response = ana.post("/api/v1/games/", {"name": empty}, format="json")
    assert response.status_code == 400, response.content
    assert response.json() == {
        "code": "bad_request",
        "detail": "A name needs at least one visible letter.",
    }
    assert seat_names(code) == ["Ana"]


def test_joining_strips_invisible_characters_from_the_seats_name():
    code = lobby(guest("Ana"))
    assert join(guest("Ben"), code, DIRTY).status_code == 200
    assert seat_names(code) == ["Ana", "Eve Smith"]


@pytest.mark.parametrize("name", ["ana", "ANA", "Ana\u200b", "\u202eAna", "  Ana ", "\uff21na"])
def test_two_seats_of_a_game_cannot_share_a_name(name):
    code = lobby(guest("Ana"))
    response = join(guest("Ben"), code, name)
    assert response.status_code == 409
    assert response.json()["code"] == "name_taken"
    assert response.json()["detail"].startswith("Someone at this table is already called")
    assert seat_names(code) == ["Ana"]


def test_bots_take_the_first_bot_names_no_seat_has():
    host = guest("Bot 1")
    code = lobby(host)
    assert join(guest("Ben"), code, "bot 3").status_code == 200
    response = host.post(f"/api/v1/games/{code}/bots/", {"count": 3}, format="json")
    assert response.status_code == 200, response.content
    assert seat_names(code) == ["Bot 1", "bot 3", "Bot 2", "Bot 4", "Bot 5"]
    assert join(guest("Cy"), code, "BOT 4").json()["code"] == "name_taken"


def test_a_seat_handed_to_a_bot_gets_a_bot_name_no_other_seat_has():
    assert names.bot_name(["Ana", "Ben"], 6) == "Bot 6"
    assert names.bot_name(["Ana", "bot 6", "Bot 1"], 6) == "Bot 2"


def test_claiming_a_seat_cleans_the_name_and_refuses_a_taken_one():
    host = guest("Ana")
    code = lobby(host)
    host.post(f"/api/v1/games/{code}/bots/", {"count": 5}, format="json")
    assert host.post(f"/api/v1/games/{code}/start/").status_code == 200

    def claim(name: str):
        invite = host.post(f"/api/v1/games/{code}/seats/6/invite/")
        assert invite.status_code in (200, 201), invite.content
        body = {"token": invite.json()["token"], "name": name}
        return guest("Zed").post(f"/api/v1/games/{code}/claim/", body, format="json")

    taken = claim("bot 2")
    assert (taken.status_code, taken.json()["code"]) == (409, "name_taken")
    empty = claim(INVISIBLE)
    assert (empty.status_code, empty.json()["code"]) == (400, "bad_request")
    assert claim("Zed\u200b\u202e").status_code == 200
    assert seat_names(code)[5] == "Zed"


def test_the_log_quotes_a_name_and_carries_it_as_data():
    forged = "Eve\u201d sat down at seat 9. \u201cX"  # tries to close the log's quotes
    code = lobby(guest("Ana"))
    ben = guest("Ben")
    assert join(ben, code, forged).status_code == 200
    events = ben.get(f"/api/v1/games/{code}/events/").json()["events"]
    line = events[-1]
    stored = 'Eve" sat down at seat 9. "X'
    assert line["text"] == f"\u201c{stored}\u201d sat down at seat 2."
    assert line["data"] == {"name": stored, "seat": 2}


def test_name_cleaning_keeps_visible_letters_of_every_script():
    assert names.clean("  Zoë  Ólafsdóttir ") == "Zoë Ólafsdóttir"
    assert names.clean("李 小龍") == "李 小龍"
    assert names.clean("עִבְרִית\u200f") == "עִבְרִית"
    assert names.clean("👩\u200d🚀 Ada") == "👩🚀 Ada"  # the joiner is Cf: the emoji come apart
