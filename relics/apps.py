from django.apps import AppConfig


class RelicsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "relics"
