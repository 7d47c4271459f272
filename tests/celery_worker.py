"""Starts a real Celery worker for the tests marked celery_worker, with the test-only toy engine
registered (it is never registered in the product):
python -m tests.celery_worker QUEUE[,QUEUE] [NAME]  (NAME: several workers on one queue)"""

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
    name = sys.argv[2] if len(sys.argv) > 2 else queues.replace(",", "+")
    app.worker_main(["worker", "--pool=solo", "--loglevel=INFO", "-Q", queues,
                     "-n", f"{name}@%h"])
