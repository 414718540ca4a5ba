"""The Django half of the differential no-leak test: twin games (tests/security/
twins.py) written to the database as the services write them, then asked about through the real
URL routes by five observers, whose answers must be the same byte for byte in both games.

The observers: a Hunter and a Ghost (seated), a spectator (signed in, no seat), a logged-out
browser, and an organiser who is staff but no superuser (the API, the pages and the admin's
game page), who also acts: they try to take a swapped seat for themselves through the admin.
Each answer is compared whole: status, every header (ETag included), cookies, body.

Nothing is masked. What differs between two runs for reasons other than the game is made
equal instead:
- both twins are played at the same frozen times (time-machine): deadlines, `server_now`,
  `created_at` and `updated_at`, the chat's poll stamp;
- they are played one after the other in the same database state (a savepoint rolled back,
  sequences reset), under the same game code: every id an observer could see (the admin's
  URLs and rows, chat numbers) is the same in both;
- each client holds its session and CSRF cookie from before, and Django's random CSRF mask is
  one fixed string (`fixed_csrf_mask`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import time_machine
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.sessions.backends.db import SessionStore
from django.core.cache import cache
from django.core.management.color import no_style
from django.db import connection, transaction
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.chat import services as chat
from games.engine import to_json
from games.models import Game, Player
from games.services import GameError, lobby
from games.services.api_tokens import issue_token
from games.services.organiser import stamp as admin_stamp
from games.web.display import display_key
from tests.security.twins import T0, Step, Twins

CODE = "TWXNAC"  # every twin game gets this code (they never exist at the same time)
OBSERVERS = ("hunter", "ghost", "spectator", "logged_out", "organiser")
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Ivo", "Jun", "Kit", "Lou", "Max"]


@dataclass
class Cast:
    """The same people at every twin game: two seated observers, a spectator, an organiser,
    and friends for the other seats; each with an API client (a token) and a browser (a
    session). The logged-out browser has neither."""

    users: dict[str, object]
    friends: list
    api: dict[str, APIClient] = field(default_factory=dict)
    web: dict[str, Client] = field(default_factory=dict)


def make_cast() -> Cast:
    with time_machine.travel(T0, tick=False):  # sessions last two weeks from the twins' clock
        return _make_cast()


def _make_cast() -> Cast:
    model = get_user_model()
    users = {
        "hunter": model.objects.create_user("hana", first_name="Hana"),
        "ghost": model.objects.create_user("gil", first_name="Gil"),
        "spectator": model.objects.create_user("sam", first_name="Sam"),
        "organiser": model.objects.create_user("ola", first_name="Ola", is_staff=True),
    }
    users["organiser"].user_permissions.set(
        Permission.objects.filter(content_type__app_label="games")
    )
    friends = [model.objects.create_user(n.lower(), first_name=n) for n in NAMES]
    cast = Cast(users, friends)
    for who, user in users.items():
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(user)}")
        cast.api[who] = api
        cast.web[who] = Client()
        cast.web[who].force_login(user)
    cast.web["logged_out"] = Client()
    for client in cast.web.values():
        client.get("/")  # the CSRF cookie, once and for all
    return cast


def fixed_csrf_mask() -> str:
    """Django masks the CSRF token with a new random string on every page; here, one string."""
    return "m" * 32


@dataclass
class Seating:
    """Who sits where at one twin game (the same in both): the observers at the Twins' seats,
    friends or bots elsewhere, the host at seat 1."""

    users: dict[int, object]  # seat -> user; bots' seats are missing
    names: dict[int, str]

    @classmethod
    def of(cls, twins: Twins, cast: Cast, *, bots: bool = True) -> Seating:
        rng = random.Random(f"{twins.seed}:seating")
        users, names, bots_seated = {}, {}, 0
        friends = iter(cast.friends)
        for seat in range(1, twins.seats + 1):
            if seat == twins.hunter:
                users[seat] = cast.users["hunter"]
            elif seat == twins.ghost:
                users[seat] = cast.users["ghost"]
            elif seat == 1 or not bots or rng.random() < 0.5:
                users[seat] = next(friends)
            else:
                bots_seated += 1
                names[seat] = f"Bot {bots_seated}"
                continue
            names[seat] = users[seat].first_name
        return cls(users, names)


def play_through_the_stack(
    twins: Twins, steps: list[Step], marks: list[int], cast: Cast, *, move_by_move=False
):
    """Both twins, one after the other in the same database state, observed after each step
    index in `marks`. Returns the observations of A and of B, in the same order.

    The steps are written as one save per checkpoint (`_write`), or `move_by_move` through the
    services themselves (`action_apply` for each move, `game_expire` for each timeout: their
    own log lines too, such as "Seat 3 seems to be away."), every seat a person's."""
    seating = Seating.of(twins, cast, bots=not move_by_move)
    seen = {}
    for variant in ("a", "b"):
        point = transaction.savepoint()
        try:
            seen[variant] = _play(twins, variant, steps, marks, seating, cast, move_by_move)
        finally:
            transaction.savepoint_rollback(point)
    return seen["a"], seen["b"]


def _play(twins, variant, steps, marks, seating, cast, move_by_move) -> list[tuple]:
    _reset_sequences()
    cache.clear()
    with time_machine.travel(T0, tick=False):
        game = _open(twins, variant, seating)
    start = game.version
    seen = []
    done = 0
    for mark in marks:
        if move_by_move:
            _play_moves(game, variant, steps[done : mark + 1], seating)
        step = steps[mark]
        with time_machine.travel(step.now, tick=False):
            if not move_by_move:
                _write(game, twins, variant, steps[done : mark + 1], start + mark + 1)
            if done == 0:
                _talk(game, twins, seating, step)
            done = mark + 1
            seen.extend(observe(game, twins, variant, seating, cast, mark))
    return seen


def _play_moves(game: Game, variant: str, steps: list[Step], seating: Seating) -> None:
    for step in steps:
        with time_machine.travel(step.now, tick=False):
            if step.action is None:
                assert services.game_expire(game_id=game.id, now=step.now)
            else:
                move = step.action
                user = seating.users[move.seat]
                services.action_apply(code=CODE, user=user, name=move.name, args=move.args)
        game.refresh_from_db()
        assert game.state == to_json(step.a if variant == "a" else step.b)


def _reset_sequences() -> None:
    """Ids restart where they did for the other twin (a rolled-back insert still used its id)."""
    statements = connection.ops.sequence_reset_sql(no_style(), apps.get_models())
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def _open(twins: Twins, variant: str, seating: Seating) -> Game:
    """The lobby and the start, through the services (the deal is fixed by the options)."""
    options = twins.options_a if variant == "a" else twins.options_b
    original, lobby.new_code = lobby.new_code, lambda: CODE
    try:
        game = services.game_create(host=seating.users[1], options=options, name=seating.names[1])
    finally:
        lobby.new_code = original
    for seat in range(2, twins.seats + 1):
        user = seating.users.get(seat)
        Player.objects.create(
            game=game, seat=seat, user=user, name=seating.names[seat], is_bot=user is None
        )
    game = services.game_start(code=CODE, user=seating.users[1])
    initial = twins.initial_a if variant == "a" else twins.initial_b
    assert game.state == to_json(initial), "the services dealt another game than the twin's"
    return game


def _write(game: Game, twins: Twins, variant: str, steps: list[Step], version: int) -> None:
    """What the services write for these engine steps, as one save at the version the game
    would have by then (one per step)."""
    old = _state_before(twins, variant, steps[0])
    new = steps[-1].a if variant == "a" else steps[-1].b
    events = [e for s in steps for e in (s.events_a if variant == "a" else s.events_b)]
    Game.objects.filter(pk=game.pk).update(version=version - 1)
    game.version = version - 1
    services.GameWrite(game).advance(old, new, events)
    services.publish_version(game.code, game.version, spectators=_spectators(game))


def _state_before(twins: Twins, variant: str, step: Step):
    return step.before_a if variant == "a" else step.before_b


def _spectators(game: Game) -> bool:
    return game.options.get("spectators", True)


def _talk(game: Game, twins: Twins, seating: Seating, step: Step) -> None:
    """Table talk where the secret decides who may speak: both swapped seats try the den (a
    Vampire is in it, the Lord only where R1.3 lets them know the Vampires); a Ghost talks."""
    tries = [(twins.vampire, "den"), (twins.lord, "den")]
    tries += [(seat, "ghosts") for seat in step.a.ghosts[:1]]
    for seat, channel in tries:
        user = seating.users.get(seat)
        if user is None:
            continue
        try:
            chat.message_post(game=game, user=user, channel=channel, text=f"{channel} {step.now}")
        except GameError:
            pass


# --- what the observers ask ---------------------------------------------------------------------


def observe(game, twins, variant, seating, cast, mark) -> list[tuple]:
    """Every observer asks a sample of everything they could ask (the same sample in both
    twins): the whole answer of each is kept."""
    rng = random.Random(f"{twins.seed}:{mark}:observe")
    version = game.version
    key = "" if _spectators(game) else f"?key={display_key(game)}"
    target = min(s for s in range(1, twins.seats + 1) if s not in twins.swapped)
    api = f"/api/v1/games/{CODE}/"
    page = f"/g/{CODE}/"
    api_asks = [
        ("GET", api, None, {}),
        ("GET", api, None, {"HTTP_IF_NONE_MATCH": f'"{version}"'}),
        ("GET", f"{api}events/", None, {}),
        ("GET", f"{api}events/?after=5", None, {}),
        ("GET", f"{api}chat/table/", None, {}),
        ("GET", f"{api}chat/ghosts/", None, {}),
        ("GET", f"{api}chat/den/", None, {}),
        ("POST", f"{api}chat/den/", {"text": ""}, {}),
        ("POST", f"{api}chat/den/1/hide/", {}, {}),
        ("POST", f"{api}chat/ghosts/1/hide/", {}, {}),
        ("POST", f"{api}actions/resolve_choice/", {"targets": [target]}, {}),
        ("POST", f"{api}actions/pass/", {}, {}),
    ]
    web_asks = [
        ("GET", page, None, {}),
        ("GET", f"{page}changed?v={version}", None, {}),
        ("GET", f"{page}changed?v=1", None, HTMX),
        ("GET", f"/t/{CODE}/", None, {}),
        ("GET", f"/t/{CODE}/{key}", None, {}),
        ("GET", f"/t/{CODE}/changed?v={version}{key.replace('?', '&')}", None, {}),
        ("GET", f"{page}chat/den/", None, {}),
        ("GET", f"{page}chat/table/messages", None, HTMX),
        (
            "POST",
            f"{page}act/resolve_choice",
            {"targets": str(target)},
            HTMX,
        ),
        ("POST", f"{page}act/pass", {}, {}),
    ]
    admin = ("GET", f"/admin/games/game/{game.pk}/change/", None, {})
    # The organiser also acts: "Replace a seat's player" with their own username for the first
    # swapped seat (the same request in both twins: the Lord's seat in one, a Vampire's in the
    # other), then reads the game through the API. Were the seat theirs, its role and its den
    # would tell the twins apart.
    take_a_seat = (
        "POST",
        f"/admin/games/game/{game.pk}/replace-seat/",
        {"seat": min(twins.swapped), "username": "ola", "name": "", "stamp": admin_stamp(game)},
        {},
    )
    for who in OBSERVERS:  # the browsers are still signed in at this hour (or never were)
        cookie = cast.web[who].cookies.get(settings.SESSION_COOKIE_NAME)
        signed_in = cookie is not None and SessionStore(cookie.value).get("_auth_user_id")
        assert bool(signed_in) == (who != "logged_out"), who
    out = []
    for who in OBSERVERS:
        if who == "logged_out":  # a browser, and an API client without a token
            asks = [("web", a) for a in web_asks] + [("anonymous api", api_asks[0])]
        else:
            asks = [("web", a) for a in web_asks] + [("api", a) for a in api_asks]
        always = {
            "logged_out": [asks[0]],
            "organiser": [("web", admin), ("web", take_a_seat), ("api", api_asks[0])],
        }.get(who, [])
        for face, (method, url, body, headers) in always + rng.sample(asks, SAMPLE):
            client = _client(cast, who, face)
            if method == "GET":
                response = client.get(url, **headers)
            elif face == "web":
                response = client.post(url, body, **headers)
            else:
                response = client.post(url, body, format="json", **headers)
            out.append(_answer(f"step {mark}: {who} {method} {url}", response))
    return out


SAMPLE = 2  # asks per observer and checkpoint (and the logged-out page, the admin's page)
HTMX = {"HTTP_HX_REQUEST": "true"}


def _client(cast: Cast, who: str, face: str):
    if face == "anonymous api":
        return APIClient()
    if face == "web":
        return cast.web[who]
    return cast.api[who]


def _answer(label: str, response) -> tuple:
    cookies = sorted((k, v.OutputString()) for k, v in response.cookies.items())
    return (
        label,
        response.status_code,
        sorted(response.headers.items()),
        cookies,
        response.content,
    )
