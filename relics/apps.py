from django.apps import AppConfig


class RelicsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "relics"

    def ready(self):
        from relics import rules  # noqa: F401 - registers the Sacred Relics engine module
