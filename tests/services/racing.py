"""Racing callables against each other on PostgreSQL, for the concurrency tests."""

from __future__ import annotations

import threading

from django.db import connection


def race(targets) -> list:
    """Runs each callable in its own thread (and database connection) at the same moment;
    returns each one's result or the exception it raised."""
    barrier = threading.Barrier(len(targets))
    outcomes: list = [None] * len(targets)

    def run(index, target):
        try:
            barrier.wait()
            outcomes[index] = target()
        except Exception as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, t)) for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes
