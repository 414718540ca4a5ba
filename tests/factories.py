"""Games and players made through the services, not over HTTP, and time passed for a seat's
page (`went_away`).

Signing up a guest and sitting down are HTTP routes with tests of their own (tests/api/test_auth.py,
tests/api/test_lobby.py, tests/web/test_lobby.py, tests/web/test_home.py ...). Every other test
only needs someone seated: building tables here, through games.services, costs a fraction of the
2N+2 requests a table of N guests takes over HTTP, and those requests were most of the suite's time.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.cache import cache

from games import services
from games.engine.table import role_deck
from games.models import Game, Player
from games.services import news
from games.services.api_tokens import issue_token

LETTERS = {"H": "hunter", "V": "vampire", "L": "vampire_lord"}
SESSION_BACKEND = "django.contrib.auth.backends.ModelBackend"


def deal(roles: str) -> dict[str, str]:
    """ "LVHHHH" -> seat 1 the Lord, seat 2 a Vampire, seats 3-6 Hunters."""
    return {str(seat): LETTERS[c] for seat, c in enumerate(roles, start=1)}


def guest(name: str):
    """A guest user, as POST /api/v1/auth/guest/ or a page's sign-up makes one."""
    return services.guest_create(name=name)


def api_token(user) -> str:
    """A fresh API token for `user`, as the sign-up answer hands out."""
    return issue_token(user)


def seat_all(code: str, users, names) -> None:
    """`users` sit down in order (the join route's service call)."""
    for user, name in zip(users, names, strict=True):
        services.game_join(code=code, user=user, name=name)


def hand_over(code: str, staff, users, *, start: bool = True) -> Game:
    """The staff member who opened the table with a fixed deal leaves it to `users`, seated
    1..N; seat 1 (now the host) starts it unless `start` is False."""
    services.game_leave(code=code, user=staff)
    if start:
        services.game_start(code=code, user=users[0])
    return Game.objects.get(code=code)


def running_game(players: int = 6, **timers) -> Game:
    """A started game with the R1.2 deck dealt in order (Hunters first, the Lord last);
    `game.users[i]` sits at seat i + 1."""
    users = [
        get_user_model().objects.create_user(f"p{i}-{uuid.uuid4().hex[:8]}") for i in range(players)
    ]
    deck = role_deck(players)
    roles = {str(seat): role for seat, role in enumerate(deck, start=1)}
    options = {"roles": roles, "timers": timers, "expansion": players > 10}
    game = services.game_create(host=users[0], options=options, name="p0")
    for i, user in enumerate(users[1:], start=1):
        services.game_join(code=game.code, user=user, name=f"p{i}")
    services.game_start(code=game.code, user=users[0])
    game.refresh_from_db()
    game.users = users
    return game


def went_away(game: Game, seat: int, ago: timedelta) -> None:
    """`seat`'s page was last drawn `ago`: in its marks (the cache, games.services.news.look) and
    in the row's copy, as if that long had passed since."""
    at = datetime.now(UTC) - ago
    Player.objects.filter(game=game, seat=seat).update(looked_at=at)
    key = news.look_key(game.id, seat)
    marks = cache.get(key)
    if marks is not None:
        cache.set(key, {**marks, "at": at}, timeout=news.LOOK_KEPT)
