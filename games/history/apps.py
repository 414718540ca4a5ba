from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "games.history"
    label = "history"
    verbose_name = "Game history"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        """Each game's results are written as it ends (games.services.effects.game_finished)."""
        from games.history import records
        from games.services.effects import game_finished

        game_finished.connect(records.on_game_finished, dispatch_uid="history-results")
