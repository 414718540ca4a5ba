from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "games.notify"
    label = "notify"
    verbose_name = "Reminders"
    default_auto_field = "django.db.models.BigAutoField"
