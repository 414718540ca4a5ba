from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from games.web import converters  # the app registry is ready: URLconfs may load after this

        converters.register()
