"""Games made through the services, for tests that run below the API (timers, concurrency)."""

from __future__ import annotations

import uuid

from django.contrib.auth import get_user_model

from games import services
from games.engine.table import role_deck
from games.models import Game


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
