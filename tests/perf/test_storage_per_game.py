"""Storage per finished game: a Stone Age game for three played to the end through the service
(random legal moves, each with an Idempotency-Key, notifications delivered), then the summed
row sizes of its rows per table and the tables' growth on disk; then the same after the
retention tasks (delivered notifications and idempotency records pruned). The same game is
played first with the games table at PostgreSQL's default fillfactor (100) and then at the
migrated one (70), each among full pages, for the game row's HOT updates side by side.
Only under `make bench`:

    make bench PYTEST_ARGS=tests/perf/test_storage_per_game.py"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import tasks as game_tasks
from notifications import tasks as notification_tasks
from tests.perf import cost_table
from tests.perf.engine_play import BENCHMARKS_ONLY
from tests.perf.storage import fill_pages_after, play_to_the_end, row_bytes, table_stats

pytestmark = [BENCHMARKS_ONLY, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SEED = "storage-bench"
#: This game's log rows after retention when the log stored English descriptions (issue 20's
#: baseline); the log must keep at most half of that.
BASELINE_LOG_BYTES = 202 * 1024


def _games_table_fillfactor(value: int | None) -> None:
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_game RESET (fillfactor)" if value is None
                       else f"ALTER TABLE games_game SET (fillfactor = {value})")


def _game_row_updates(fillfactor: int | None) -> dict[str, int]:
    """The same game played with the games table at this fillfactor: its row's updates."""
    _games_table_fillfactor(fillfactor)
    before = table_stats()["games_game"]
    play_to_the_end("stone_age", 3, SEED, after_start=fill_pages_after)
    after = table_stats()["games_game"]
    return {key: after[key] - before[key] for key in ("updates", "hot_updates", "bytes")}


def test_storage_of_a_finished_stone_age_game_for_three(benchmark, monkeypatch):
    default_fillfactor = _game_row_updates(None)
    migrated_fillfactor = _game_row_updates(70)
    before = table_stats()
    game_id = benchmark.pedantic(play_to_the_end, args=("stone_age", 3, SEED),
                                 rounds=1, iterations=1)
    played = row_bytes(game_id)
    after_play = table_stats()
    # Everything is past its retention period: the nightly tasks prune it.
    later = timezone.now() + timedelta(days=365)
    monkeypatch.setattr(timezone, "now", lambda: later)
    game_tasks.purge_idempotency_records()
    notification_tasks.prune_delivered_notifications()
    pruned = row_bytes(game_id)

    kept_tables = ("games_action", "notifications_notification", "games_idempotencyrecord")
    log_and_notifications = sum(played[table] for table in kept_tables)
    after_retention = sum(pruned[table] for table in kept_tables)
    growth = {table: after_play[table]["bytes"] - before[table]["bytes"] for table in before}
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_action WHERE game_id = %s", [game_id])
        moves = cursor.fetchone()[0]
    report = {"moves": moves, "row_bytes": played, "row_bytes_after_retention": pruned,
              "log_and_notifications_bytes": log_and_notifications,
              "after_retention_bytes": after_retention,
              "texts_bytes": played["games_action.texts"],
              "payload_bytes": played["games_action.payload"],
              "table_growth_bytes": growth,
              "game_row_updates": {"fillfactor_100": default_fillfactor,
                                   "fillfactor_70": migrated_fillfactor}}
    cost_table.record("storage: log+notifications, SA 3p", log_and_notifications / 1024, "KB",
                      note=f"{moves} log entries; texts "
                           f"{played['games_action.texts'] / 1024:.0f} KB, payloads "
                           f"{played['games_action.payload'] / 1024:.0f} KB of it")
    cost_table.record("storage: same after retention", after_retention / 1024, "KB",
                      note="delivered notifications and idempotency records pruned")
    for name, updates in (("100", default_fillfactor), ("70", migrated_fillfactor)):
        cost_table.record(f"storage: HOT share, fillfactor {name}",
                          100 * updates["hot_updates"] / updates["updates"], "% of updates",
                          note=f"{updates['updates']} updates of the game row; games_game grew "
                               f"{updates['bytes'] / 1024:.0f} KB (with 300 other rows)")
    cost_table.save_report("storage-per-game.json", report)
    print(f"\nstorage: {json.dumps(report)}")
    assert moves > 50 and after_retention < log_and_notifications
    assert after_retention <= BASELINE_LOG_BYTES / 2, (
        f"the log keeps {after_retention / 1024:.1f} KB a game, more than half of "
        f"{BASELINE_LOG_BYTES / 1024:.0f} KB")
