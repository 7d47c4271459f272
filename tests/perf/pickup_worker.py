"""A Celery worker of the project's app on the embedded filesystem broker, with one extra task
that notes how long a task waited between being sent and starting:
python -m tests.perf.pickup_worker (settings from the environment, as `make run`'s worker)."""

import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from config.celery import app  # noqa: E402


@app.task(name="bench.pickup")
def pickup(sent_at: float, path: str) -> None:
    waited = time.time() - sent_at
    with open(path, "a") as out:
        out.write(f"{waited:.6f}\n")


if __name__ == "__main__":
    app.worker_main(["worker", "--pool=solo", "--loglevel=INFO", "-Q", "celery",
                     "-n", f"pickup-{os.getpid()}@%h"])
