"""On PostgreSQL: two sweeps running at once time out each due seat exactly once."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from games import services
from games.models import Action, Seat
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_two_concurrent_sweeps_never_apply_a_timeout_twice():
    games = []
    for _ in range(12):
        users = [UserFactory() for _ in range(3)]
        game = services.game_create(creator=users[0], engine_slug="toy", num_players=3,
                                    time_per_move=timedelta(hours=1))
        for user in users[1:]:
            services.game_join(game_id=game.pk, user=user)
        games.append(services.game_start(game_id=game.pk, user=users[0], now=T0))
    due_before = Seat.objects.filter(deadline_at__lte=T0 + timedelta(hours=1)).count()
    assert due_before == 36

    barrier = threading.Barrier(2)
    reports = []

    def sweeper():
        try:
            barrier.wait()
            reports.append(services.deadlines_sweep(now=T0 + timedelta(hours=1)))
        finally:
            connection.close()

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sum(r.timed_out_seats for r in reports) == 36
    assert sum(r.games for r in reports) == 12
    # Exactly one timeout move per seat, and each game's log is gapless.
    assert Action.objects.filter(source="timeout").count() == 36
    for game in games:
        game.refresh_from_db()
        sequences = list(game.actions.values_list("sequence", flat=True))
        assert sequences == list(range(1, game.version + 1))
        assert services.game_replay_verify(game=game)
    assert set(Seat.objects.values_list("timeout_count", flat=True)) <= {1}
