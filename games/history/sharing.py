"""The history's second writer: the host's switch "share the replay publicly" of a finished
game (`SharedReplay`). Not game state: it changes no version and writes no log line, so the
game, its polls and its ETags stay as they were. A refusal (`GameError`) changes nothing."""

from __future__ import annotations

from games.domain import identity
from games.domain.errors import GameError
from games.history.models import SharedReplay
from games.models import Game


def replay_share(*, code: str, user, public) -> SharedReplay:
    """Turn the public link of `code`'s replay on (`public` True) or off (False), as its host.

    The checks go from what anyone may learn to what only the host may: an unknown game is
    `404 not_found`; anyone but the host is `403 forbidden`, whatever the game's state (a
    stranger learns nothing of it); an unfinished game is `404 not_finished` (it has no replay
    yet); a `public` that is not true or false is `400 bad_request`."""
    game = Game.objects.filter(code=str(code).upper()).first()
    if game is None:
        raise GameError("not_found", "No game has this code.", 404)
    if not identity.is_host(game, user):
        raise GameError("forbidden", "Only the host can share this game's replay.", 403)
    if game.status != Game.Status.FINISHED:
        raise GameError("not_finished", "Only a finished game has a replay.", 404)
    if not isinstance(public, bool):
        raise GameError("bad_request", "Say whether to share the replay: true or false.", 400)
    shared, _ = SharedReplay.objects.update_or_create(game=game, defaults={"public": public})
    return shared
