"""Practice games, read: which games are practice games, and whether a person has finished one
(the home page then offers the game with the Sacred Relics and the Last Wills)."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Game


def is_practice(game: Game) -> bool:
    return game.options.get("practice") is True


def practice_games() -> QuerySet[Game]:
    """Games made for practice. Excluded through this subquery: `exclude(options__practice=
    True)` would also drop every game whose options have no `practice` key (SQL's NULL)."""
    return Game.objects.filter(options__practice=True)


def has_practiced(user) -> bool:
    """Whether `user` has finished a practice game: the home page then offers the next one."""
    if not user.is_authenticated:
        return False
    return practice_games().filter(status=Game.Status.FINISHED, players__user=user).exists()
