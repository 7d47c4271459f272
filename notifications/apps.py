from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # receivers: connects the game_event receivers; tasks: registered by name in every
        # process, since the services queue them by name; checks: the webhook secret check.
        from notifications import receivers, tasks  # noqa: F401
        from notifications.inbound import checks

        checks.warn_at_start_up()
