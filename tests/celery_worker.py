"""Starts a real Celery worker for the tests marked celery_worker, with the test-only toy engine
registered (it is never registered in the product): python -m tests.celery_worker QUEUE[,QUEUE]"""

import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from config.celery import app  # noqa: E402
from games.engines import registry  # noqa: E402
from tests.engines.toy import toy_engine  # noqa: E402

if __name__ == "__main__":
    registry.register(toy_engine)
    queues = sys.argv[1]  # one queue, or several separated by commas
    app.worker_main(["worker", "--pool=solo", "--loglevel=INFO", "-Q", queues,
                     "-n", f"{queues.replace(',', '+')}@%h"])
