"""Starts a real Celery worker for the tests marked celery_worker, with the test-only toy engine
registered (it is never registered in the product):
python -m tests.celery_worker QUEUE[,QUEUE] [NAME]  (NAME: several workers on one queue)

With TEST_CLOCK_KEY set, the worker keeps the clock of a test that moves its own with
time-machine: the test writes its moment (a POSIX timestamp) under that Redis key, and before
each task the worker travels there (ticking on) whenever it changed."""

import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from config.celery import app  # noqa: E402
from games.engines import registry  # noqa: E402
from tests.engines.toy import toy_engine  # noqa: E402


def follow_the_tests_clock(key: str) -> None:
    import redis
    import time_machine
    from celery.signals import task_prerun

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    followed = {"moment": None, "travel": None}

    @task_prerun.connect(weak=False)
    def _travel(**_kwargs):
        moment = client.get(key)
        if moment is None or moment == followed["moment"]:
            return
        if followed["travel"] is not None:
            followed["travel"].stop()
        followed["travel"] = time_machine.travel(float(moment), tick=True)
        followed["travel"].start()
        followed["moment"] = moment


if __name__ == "__main__":
    registry.register(toy_engine)
    if os.environ.get("TEST_CLOCK_KEY"):
        follow_the_tests_clock(os.environ["TEST_CLOCK_KEY"])
    queues = sys.argv[1]  # one queue, or several separated by commas
    name = sys.argv[2] if len(sys.argv) > 2 else queues.replace(",", "+")
    app.worker_main(["worker", "--pool=solo", "--loglevel=INFO", "-Q", queues,
                     "-n", f"{name}@%h"])
