"""The Celery application (tasks live in each app's tasks.py), and the one way the project
queues a task once a transaction has committed."""

import logging
import os

import kombu.exceptions
import redis.exceptions
from celery import Celery, Task
from celery.signals import worker_init

from config import filesystem_broker  # noqa: F401  (registers the embedded broker's scheme)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")



class RequestIdTask(Task):
    """A task run eagerly (tests, CELERY_TASK_ALWAYS_EAGER) runs inside its caller: django-guid's
    Celery signals give it an id of its own and clear the id when it ends, so the caller's id is
    put back after it (the answer's X-Request-ID and the rest of the request's log lines keep
    it). On a worker, the task logs the id of the request that queued it (settings.DJANGO_GUID)."""

    def apply(self, *args, **kwargs):
        from django_guid import get_guid, set_guid

        caller = get_guid()
        try:
            return super().apply(*args, **kwargs)
        finally:
            set_guid(caller)


app = Celery("turnpost", task_cls=RequestIdTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@worker_init.connect
def load_engines(**_) -> None:
    """Imports every engine and its search bot in the worker's main process, before the pool
    forks: each process starts with them loaded, so a person's first bot reply after a worker
    (re)start does not pay for the imports (0.1 s of 0.2-0.4 s measured for a first decision)."""
    from games.engines import bots, registry

    for engine in registry.all_engines():
        bots.adapter_for(engine)

#: What publishing raises when the broker is down or unreachable.
BROKER_ERRORS = (kombu.exceptions.OperationalError, redis.exceptions.RedisError, OSError)


def publish_after_commit(task, *args, **kwargs) -> None:
    """Queues `task(*args, **kwargs)` once the current transaction commits (at once outside
    one). The change it follows is already committed, so a broker outage must not turn it into
    an error: the failure is logged and the beat safety nets (resolve_pending_games,
    play_pending_bot_moves, deliver_pending_notifications, deliver_pending_email_replies) do
    the work on their next round."""
    from django.db import transaction

    def publish() -> None:
        try:
            # The arguments are ids: a plain repr for the message's headers, cut as Celery cuts
            # its own saferepr, which cost more CPU than the rest of the message.
            task.apply_async(args, kwargs, argsrepr=repr(args)[:1024],
                             kwargsrepr=repr(kwargs)[:1024])
        except BROKER_ERRORS:
            logger.warning("Could not queue %s%r (broker unreachable); the beat safety net will "
                           "pick it up", task.name, args, exc_info=True)

    transaction.on_commit(publish)
