"""Games made through the services, for tests that run below the API (timers, concurrency), and
time passed for a seat's page (`went_away`)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.cache import cache

from games import services
from games.engine.table import role_deck
from games.models import Game, Player
from games.services import news


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
