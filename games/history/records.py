"""The history's one writer: the `SeatResult` rows of finished games, from their final state.

The rows are written when the game ends, in the move's own transaction (the services send
`game_finished`, games/services/effects.py; `on_game_finished` receives it), so that reading a
history writes nothing; the games that ended before that got theirs from a data migration
(games/history/migrations/0002). Writing is idempotent (one row per seat, `ignore_conflicts`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from games import engine
from games.engine import state_from_json
from games.history.models import SeatResult
from games.models import Action, Game

LORD = "vampire_lord"


def on_game_finished(sender, *, game: Game, state: engine.State, **kwargs) -> None:
    results_record(game, state)


def results_record(game: Game, state: engine.State | None = None) -> None:
    """Write one row per seat of a finished `game` (its final `state`, read from the row when
    not given). The figures: `seat_results`."""
    if game.status != Game.Status.FINISHED:
        raise ValueError(f"{game.code} is not finished")
    state = state or state_from_json(game.state)
    players = {p.seat: p for p in game.players.all()}
    ended = finished_at(game)
    rows = [
        SeatResult(player=players[r.pop("seat")], game=game, finished_at=ended, **r)
        for r in seat_results(state)
    ]
    SeatResult.objects.bulk_create(rows, ignore_conflicts=True)


def seat_results(state: engine.State) -> list[dict]:
    """Each seat's role, team, result, Mesmerism and how often its examinations showed the Lord,
    from `engine.view`: the public view's end-of-game roles (R1.4) and the seat's own knowledge.
    (The data migration that filled the older games uses it too.)"""
    out = []
    for r in engine.view(state, None)["roles"]:
        knowledge = engine.view(state, r["seat"])["me"]["knowledge"]
        lord = sum(1 for k in knowledge if k.get("role") == LORD and k["source"] != "night")
        out.append(
            {
                "seat": r["seat"],
                "role": r["role"],
                "team": r["team"],
                "won": r["won"],
                "mesmerized": r["mesmerized"],
                "lord_examinations": lord,
            }
        )
    return out


def finished_at(game: Game) -> datetime:
    """When the game's last engine step ran (the replay log), else its last change."""
    at = Action.objects.filter(game=game).order_by("-seq").values_list("at", flat=True).first()
    return datetime.fromtimestamp(at, UTC) if at is not None else game.updated_at
