"""The history's one writer: the `SeatResult` rows of finished games, from their final state.

The rows are written the first time a player's history is read (`results_record_missing`, called
by the history's pages and API before they read), not when the game ends: the game's own write
path (games.services) stays as it is, and games that ended before this app existed count too.
Writing is idempotent (one row per seat, `ignore_conflicts`), so two requests racing to fill the
same game both succeed.
"""

from __future__ import annotations

from datetime import UTC, datetime

from games import engine
from games.engine import state_from_json
from games.history.models import SeatResult
from games.models import Action, Game

LORD = "vampire_lord"


def results_record(game: Game) -> None:
    """Write one row per seat of a finished `game`: role, team, result, Mesmerism and how often
    the seat's examinations showed the Lord. Each figure comes from `engine.view`: the public
    view's end-of-game roles (R1.4) and the seat's own knowledge."""
    if game.status != Game.Status.FINISHED:
        raise ValueError(f"{game.code} is not finished")
    state = state_from_json(game.state)
    public = engine.view(state, None)
    ended = finished_at(game)
    players = {p.seat: p for p in game.players.all()}
    rows = []
    for r in public["roles"]:
        knowledge = engine.view(state, r["seat"])["me"]["knowledge"]
        rows.append(
            SeatResult(
                player=players[r["seat"]],
                game=game,
                role=r["role"],
                team=r["team"],
                won=r["won"],
                mesmerized=r["mesmerized"],
                lord_examinations=sum(
                    1 for k in knowledge if k.get("role") == LORD and k["source"] != "night"
                ),
                finished_at=ended,
            )
        )
    SeatResult.objects.bulk_create(rows, ignore_conflicts=True)


def results_record_missing(user) -> int:
    """Record every finished game of `user` that has no rows yet; how many were recorded."""
    games = (
        Game.objects.filter(status=Game.Status.FINISHED, players__user=user, results__isnull=True)
        .distinct()
        .prefetch_related("players")
    )
    count = 0
    for game in games:
        results_record(game)
        count += 1
    return count


def finished_at(game: Game) -> datetime:
    """When the game's last engine step ran (the replay log), else its last change."""
    at = Action.objects.filter(game=game).order_by("-seq").values_list("at", flat=True).first()
    return datetime.fromtimestamp(at, UTC) if at is not None else game.updated_at
