"""Publisher for the stream capacity benchmark's "stream side alone" mode: the moves were made
beforehand on a channel prefix nobody listens to; this process announces them on the bus at a
fixed rate, exactly as the service announces a committed move (one message per log entry), and
writes [[game, first_version, last_version, published_unix_time], ...].

    python -m tests.perf.stream_publish <redis_url> <channel_prefix> <plan.json> <results.json>

plan.json: {"moves": [[game, first_version, last_version, ...], ...], "start": unix_time,
            "rate": moves_per_second}
"""

from __future__ import annotations

import json
import sys
import time

import redis


def main(redis_url: str, prefix: str, plan_path: str, results_path: str) -> None:
    with open(plan_path) as source:
        plan = json.load(source)
    client = redis.Redis.from_url(redis_url)
    published = []
    for number, (game_id, first, last, *_) in enumerate(plan["moves"]):
        delay = plan["start"] + number / plan["rate"] - time.time()
        if delay > 0:
            time.sleep(delay)
        announced_at = time.time()  # as a commit's time: before its messages go out
        for version in range(first, last + 1):
            client.publish(f"{prefix}:game:{game_id}", json.dumps(
                {"game": game_id, "version": version, "action": None}, separators=(",", ":")))
        published.append((game_id, first, last, announced_at))
    with open(results_path, "w") as out:
        json.dump(published, out)


if __name__ == "__main__":
    main(*sys.argv[1:5])
