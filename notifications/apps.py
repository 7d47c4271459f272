from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from notifications import receivers  # noqa: F401 - connects the game_event receiver
        from notifications.inbound import checks  # noqa: F401 - registers the webhook secret check
