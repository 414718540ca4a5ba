"""Registered accounts: a guest who registers keeps the same user, and so every game
played as that guest, its token, its session and its reminders."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from games import services
from games.services import GameError

USERNAME_PATTERN = r"^[\w.@+-]{3,40}$"
GUEST_PREFIX = "guest-"  # services.guest_create names every guest so


def is_guest(user) -> bool:
    """A guest identity: made by services.guest_create, with no password to sign in with."""
    return (
        user.is_authenticated
        and user.username.startswith(GUEST_PREFIX)
        and not user.has_usable_password()
    )


def account_register(*, user, username: str, password: str, name: str = ""):
    """Register, and say whether a guest was kept: `user`, when it is a guest, becomes the
    account (same id, games and token); anyone else gets a new account.
    409 username_taken (compared without case)."""
    users = get_user_model().objects
    name = services.player_name(name) if name else ""
    taken = GameError("username_taken", "That username is taken.", 409)
    if users.filter(username__iexact=username).exists():
        raise taken
    try:
        with transaction.atomic():
            # Decided on the locked row: a cached user (the API's token cache) may be stale.
            account = users.select_for_update().get(id=user.id) if user.is_authenticated else None
            if account is None or not is_guest(account):
                new = users.create_user(username=username, password=password, first_name=name)
                return new, False
            account.username = username
            account.first_name = name or account.first_name
            account.set_password(password)
            account.save(update_fields=["username", "first_name", "password"])
            return account, True
    except IntegrityError:  # the same username, registered by someone else a moment ago
        raise taken from None


def display_name_set(user, name: str) -> None:
    """A signed-in player typed another name on a page's form: it becomes their display name
    (the page's form has checked it)."""
    if name and name != user.first_name:
        user.first_name = name
        user.save(update_fields=["first_name"])
