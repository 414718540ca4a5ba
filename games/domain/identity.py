"""Who a user is at a game: the one place that maps a request's user to a seat.

A bot's seat has no user (`Player.user_id` is None) and a logged-out visitor has no id
(`AnonymousUser.id` is None either): `player.user_id == user.id` made a private window the first
bot, with its role and night information. So nothing else compares user ids. Every question "is
this user that seat's player / this game's host?" is asked here, where a user with no identity
(None, anonymous, unsaved) is nobody's player and nobody's host, and a bot's seat is owned by no
user at all. A test (tests/security/test_identity.py) fails on any `user_id ==`-style comparison
or `players.filter(user=...)` outside this module.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.models import Game, Player


def user_key(user) -> int | None:
    """The user's primary key, or None for no user, a logged-out visitor or an unsaved one."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return user.pk


def player_in(players: Iterable[Player], user) -> Player | None:
    """The seat among `players` that `user` plays as a person (never a bot's seat)."""
    key = user_key(user)
    if key is None:
        return None
    return next((p for p in players if owns(p, key)), None)


def player_of(game: Game, user) -> Player | None:
    """The seat `user` plays at `game` (one query), or None."""
    key = user_key(user)
    if key is None:
        return None
    return game.players.filter(user_id=key, is_bot=False).first()


def seat_of(game: Game, user) -> int | None:
    player = player_of(game, user)
    return player.seat if player else None


def is_seated(game: Game, user) -> bool:
    return player_of(game, user) is not None


def is_host(game: Game, user) -> bool:
    key = user_key(user)
    return key is not None and game.host_id == key


def host_player(players: Iterable[Player], game: Game) -> Player | None:
    """The host's own seat among `players`, if the host still sits at the table."""
    return next((p for p in players if owns(p, game.host_id)), None)


def is_hosts_seat(player: Player, game: Game) -> bool:
    return owns(player, game.host_id)


def owns(player: Player, key: int | None) -> bool:
    """Whether the person with primary key `key` plays `player`'s seat (None owns nothing)."""
    return key is not None and not player.is_bot and player.user_id == key


def is_user(key: int | None, user) -> bool:
    """Whether a stored user id `key` is `user`'s (never for no user or a logged-out visitor)."""
    own = user_key(user)
    return own is not None and key == own


def players_of(user):
    """Every seat `user` plays as a person, in any game (none for no user or a logged-out one)."""
    key = user_key(user)
    if key is None:
        return Player.objects.none()
    return Player.objects.filter(user_id=key, is_bot=False)
