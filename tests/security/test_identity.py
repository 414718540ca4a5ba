"""A logged-out browser was the first bot (`player.user_id == user.id`,
both None). Now one mapping of a user to a seat (games/domain/identity.py): someone with no
identity, or who is no seat's human player, is a spectator (or is turned away where spectators are
off).

Every route a logged-out browser, or an API client without a token, can reach is asked about a
game with bots, with spectators off: nothing there may be a seat's view.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from games import services
from games.models import Game, Player
from games.selectors import game as selectors
from games.web.display import display_key
from tests.api.conftest import guest
from tests.security.stack import fixed_csrf_mask

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# What a seat's page and view carry, and a spectator's never do.
SEAT_MARKERS = re.compile(
    r'data-secret-role|You are <strong>|"me":|night information|Vampire Lord|is a Vampire'
)


def a_game_with_bots(*, spectators: bool) -> Game:
    """A host at seat 1 and five bots; the Lord is seat 2, the first bot (R1.2 deck for 6)."""
    host = get_user_model().objects.create_user("host", first_name="Host")
    roles = {"1": "hunter", "2": "vampire_lord", "3": "vampire", "4": "hunter", "5": "hunter"}
    options = {"roles": {**roles, "6": "hunter"}, "spectators": spectators, "den_chat": True}
    game = services.game_create(host=host, options=options, name="Host")
    services.game_add_bots(code=game.code, user=host, count=5)
    return services.game_start(code=game.code, user=host)


def test_a_logged_out_browser_is_never_a_bots_seat():
    game = a_game_with_bots(spectators=True)
    page = Client().get(f"/g/{game.code}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "You are watching this game" in html
    assert not SEAT_MARKERS.search(html), SEAT_MARKERS.search(html)
    changed = Client().get(f"/g/{game.code}/changed?v=0").content.decode()
    assert "You are watching this game" in changed and not SEAT_MARKERS.search(changed)


def test_a_logged_out_browser_is_turned_away_where_spectators_are_off(monkeypatch):
    monkeypatch.setattr("django.middleware.csrf._get_new_csrf_string", fixed_csrf_mask)
    game = a_game_with_bots(spectators=False)
    browser = Client()
    assert browser.get(f"/g/{game.code}/").status_code == 404
    # the same 404 whatever version the poll names (a 204 would confirm the current one)
    answers = {
        (r.status_code, r.content)
        for v in ("", "0", str(game.version), str(game.version + 1), "x")
        for r in [browser.get(f"/g/{game.code}/changed?v={v}")]
    }
    assert len(answers) == 1 and answers.pop()[0] == 404


def test_no_one_but_a_seats_own_person_gets_its_view():
    from games.domain import identity

    game = a_game_with_bots(spectators=True)
    players = list(game.players.all())
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    for nobody in (None, AnonymousUser(), get_user_model()(username="unsaved"), staff):
        assert identity.player_in(players, nobody) is None
        assert identity.seat_of(game, nobody) is None
        assert "me" not in selectors.game_view(game, nobody)
        assert not identity.is_host(game, nobody)
    # a bot's seat is nobody's, even if a row still named a user
    bot = game.players.get(seat=2)
    Player.objects.filter(pk=bot.pk).update(user=staff)
    assert identity.seat_of(game, staff) is None
    host = game.host
    assert identity.seat_of(game, host) == 1 and selectors.game_view(game, host)["me"]["seat"] == 1


def test_a_private_tables_api_answers_a_stranger_the_same_for_every_etag():
    """The API's 304 path, like the page's poll: no version is confirmed to a stranger."""
    game = a_game_with_bots(spectators=False)
    stranger = guest("Eve")
    url = f"/api/v1/games/{game.code}/"
    answers = set()
    for held in (None, f'"{game.version}"', f'"{game.version}"', '"0"', "*"):
        headers = {"HTTP_IF_NONE_MATCH": held} if held else {}
        response = stranger.get(url, **headers)
        answers.add((response.status_code, response.content, response.get("ETag")))
    (answer,) = answers
    assert answer[0] == 403 and answer[2] is None  # no ETag either


def test_a_stranger_posting_a_move_learns_neither_version_nor_status():
    """A move from someone with no seat is refused as such first: "stale" named the version."""
    game = a_game_with_bots(spectators=False)
    stranger = guest("Eve")
    url = f"/api/v1/games/{game.code}/actions/pass/"
    answers = {
        stranger.post(url, {}, format="json", HTTP_IF_MATCH=held).content
        for held in ("0", str(game.version), "999")
    }
    (answer,) = answers
    assert b'"code":"forbidden"' in answer and str(game.version).encode() not in answer


def page_routes(code: str) -> list[str]:
    """Every page route that takes a game code, its other arguments filled in."""
    return sorted(_routes(get_resolver(), "", _fill(code), skip=("api/", "admin/")))


def api_routes(code: str) -> list[str]:
    routes = _routes(get_resolver(), "", _fill(code), skip=())
    return sorted(r for r in routes if r.startswith("/api/"))


def _fill(code: str) -> dict:
    return {
        "code": code,
        "action": "resolve_choice",
        "channel": "den",
        "seat": "2",
        "message_id": "1",
        "token": "not-a-token",
        "number": "1",
    }


def _routes(resolver, prefix: str, fill: dict, skip: tuple) -> set[str]:
    out = set()
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if any(route.startswith(s) for s in skip):
            continue
        if isinstance(pattern, URLResolver):
            out |= _routes(pattern, route, fill, skip)
        elif isinstance(pattern, URLPattern) and re.search(r"<(?:\w+:)?code>", route):
            path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: fill[m.group(1)], route)
            out.add("/" + path)
    return out


@pytest.mark.parametrize("method", ["get", "post"])
def test_every_page_route_shows_a_logged_out_browser_no_seat(method):
    game = a_game_with_bots(spectators=False)
    routes = page_routes(game.code)
    assert len(routes) >= 15, routes  # the game, its poll, actions, chat, seats, display...
    for route in routes:
        browser = Client()  # a fresh private window for each (some posts sign a guest in)
        response = getattr(browser, method)(route, {"name": "Eve", "text": "hi", "targets": "3"})
        body = response.content.decode()
        assert response.status_code in (302, 403, 404, 405), (route, response.status_code)
        assert not SEAT_MARKERS.search(body), (route, SEAT_MARKERS.search(body))
    keyed = Client().get(f"/t/{game.code}/?key={display_key(game)}")
    assert keyed.status_code == 200 and not SEAT_MARKERS.search(keyed.content.decode())


@pytest.mark.parametrize("method", ["get", "post"])
def test_every_api_route_refuses_a_client_without_a_token(method):
    game = a_game_with_bots(spectators=False)
    routes = api_routes(game.code)
    assert len(routes) >= 12, routes
    for route in routes:
        response = getattr(APIClient(), method)(route, {}, format="json")
        assert response.status_code == 401, (route, response.status_code)
        assert response.json()["code"] == "not_authenticated"


# --- no comparison of ids that can both be None, anywhere else ---------------------------------

IDS = re.compile(r"(^|\.)(user_id|host_id|user\.id|user\.pk)$")
USER_KEYWORDS = {"user", "user_id"}


def test_no_module_compares_user_ids_outside_games_identity():
    """`a.user_id == b.id` is true for a bot and a logged-out visitor (None == None), and
    `players.filter(user=None)` finds the bots: such questions go through
    games/domain/identity.py."""
    found = []
    for path in sorted(ROOT.glob("games/**/*.py")) + sorted(ROOT.glob("relics/**/*.py")):
        if path.name == "identity.py" or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare) and any(
                isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops
            ):
                sides = [node.left, *node.comparators]
                if any(IDS.search(ast.unparse(side)) for side in sides):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                receiver = ast.unparse(node.func.value)
                by_user = {k.arg for k in node.keywords} & USER_KEYWORDS
                if by_user and "player" in receiver.lower() and node.func.attr != "create":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert found == [], "\n".join(found)
