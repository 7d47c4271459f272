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


def test_a_move_holding_its_game_wins_over_the_sweep_which_takes_the_other_games():
    """A player's move holds its game's row while the sweep runs: the sweep skips that game
    (SKIP LOCKED) and times out the others; the move then goes through, and the next sweep
    times out only the seat that still has not moved."""
    from django.db import transaction

    from games.models import Game
    from tests.factories import committed, started_game

    held, (alice, bob) = started_game(2, time_per_move=timedelta(hours=1), now=T0)
    other, _ = started_game(2, time_per_move=timedelta(hours=1), now=T0)
    reports = []

    def sweeper():
        try:
            reports.append(services.deadlines_sweep(now=T0 + timedelta(hours=1)))
        finally:
            connection.close()

    with transaction.atomic():
        Game.objects.select_for_update().get(pk=held.pk)  # the move's lock, taken first
        thread = threading.Thread(target=sweeper)
        thread.start()
        thread.join(60)
    assert (reports[0].games, reports[0].timed_out_seats) == (1, 2)
    assert not Action.objects.filter(game=held).exists()
    held.refresh_from_db()
    with committed():
        services.game_action_submit(game_id=held.pk, user=alice, action={"type": "bid",
                                                                          "amount": 3},
                                    expected_version=held.version, now=T0 + timedelta(hours=1))
    later = services.deadlines_sweep(now=T0 + timedelta(hours=1))
    assert (later.games, later.timed_out_seats) == (1, 1)
    timeouts = Action.objects.filter(game=held, source="timeout")
    assert [entry.seat_number for entry in timeouts] == [1]
    assert Action.objects.filter(game=held, source="api").get().seat_number == 0
    assert Action.objects.filter(game=other, source="timeout").count() == 2
