from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Both imports need the app registry ready. The tasks register with the Celery app in
        # every process (a web server too), so a service can queue one by its registered name
        # (staked/queue.py) without importing the tasks, which import the services.
        from games import tasks  # noqa: F401
        from games.notify import tasks as notify_tasks  # noqa: F401
        from games.web import converters  # URLconfs may load after this

        converters.register()
