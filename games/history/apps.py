from django.apps import AppConfig


class HistoryConfig(AppConfig):
    name = "games.history"
    label = "history"
    verbose_name = "Game history"
    default_auto_field = "django.db.models.BigAutoField"
