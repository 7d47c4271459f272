"""The game worker of `make run` (Procfile.dev: prefork, two processes) for the bot latency
table (tests/perf/bot_latency.py), noting in a file of JSON lines when each task started and
ended and each bot move's own line from the service (games.bots: search, commit):
python -m tests.perf.bot_latency_worker QUEUE RECORDS_FILE (settings from the environment)."""

import json
import logging
import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from celery.signals import task_postrun, task_prerun  # noqa: E402

from config.celery import app  # noqa: E402


def _note(path: str, record: dict) -> None:
    # One short line per write in append mode: the pool's processes never interleave lines.
    with open(path, "a") as out:
        out.write(json.dumps(record) + "\n")


class _BotMoves(logging.Handler):
    def __init__(self, path: str) -> None:
        super().__init__(logging.INFO)
        self.path = path

    def emit(self, record: logging.LogRecord) -> None:
        move = getattr(record, "bot_move", None)
        if move is not None:
            _note(self.path, {"kind": "bot_move", "pid": os.getpid(), **move})


def main(queue: str, path: str) -> None:
    @task_prerun.connect(weak=False)
    def _started(task=None, args=None, **_):
        _note(path, {"kind": "start", "task": task.name, "args": list(args or ()),
                     "at": time.time(), "pid": os.getpid()})

    @task_postrun.connect(weak=False)
    def _ended(task=None, args=None, **_):
        _note(path, {"kind": "end", "task": task.name, "args": list(args or ()),
                     "at": time.time(), "pid": os.getpid()})

    logging.getLogger("games.bots").addHandler(_BotMoves(path))
    # Procfile.dev's worker line, with its own queue and name.
    app.worker_main(["worker", "--loglevel=INFO", "--concurrency=2", "--pool=prefork",
                     "-Q", queue, "-n", f"latency-{os.getpid()}@%h"])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
