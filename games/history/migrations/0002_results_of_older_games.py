"""The results of the games that ended before they were written at the end of the game.

Until then a seat's `SeatResult` row was written the first time its player's history was read,
so a read wrote rows. Now the game's last move writes them (games/services/effects.py,
`game_finished`); this fills in every finished game that has none yet, from its final state, with
the same figures (`records.seat_results`). Nothing to undo: the rows are derived data.
"""

from datetime import UTC, datetime

from django.db import migrations


def fill(apps, schema_editor):
    from games.engine import state_from_json
    from games.history.records import seat_results

    Game = apps.get_model("games", "Game")
    Action = apps.get_model("games", "Action")
    SeatResult = apps.get_model("history", "SeatResult")
    for game in Game.objects.filter(status="finished", results__isnull=True).iterator():
        players = {p.seat: p for p in game.players.all()}
        at = Action.objects.filter(game=game).order_by("-seq").values_list("at", flat=True).first()
        ended = datetime.fromtimestamp(at, UTC) if at is not None else game.updated_at
        rows = [
            SeatResult(player=players[r.pop("seat")], game=game, finished_at=ended, **r)
            for r in seat_results(state_from_json(game.state))
        ]
        SeatResult.objects.bulk_create(rows, ignore_conflicts=True)


class Migration(migrations.Migration):
    dependencies = [
        ("history", "0001_initial"),
        ("games", "0013_player_since_at"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
