from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Registered by name in every process: the services queue them by name (services.py).
        from notifications import (
            receivers,  # noqa: F401 - connects the game_event receiver
            tasks,  # noqa: F401
        )
        from notifications.inbound import checks  # noqa: F401 - registers the webhook secret check
