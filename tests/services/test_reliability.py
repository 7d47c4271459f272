"""Reliability arithmetic, with the clock moved by time-machine: moves before the deadline,
late moves, timeouts, the window of the last 100 deadlines, games a bot finished."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import services
from games.engines.registry import get_engine
from games.models import DeadlineOutcome, DeadlineRecord, Game, GameStatus, Seat
from games.services import reliability
from tests.factories import UserFactory, committed, started_game

pytestmark = pytest.mark.django_db

MET, LATE, TIMED_OUT = DeadlineOutcome.MET, DeadlineOutcome.LATE, DeadlineOutcome.TIMED_OUT
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def bid(game, user, amount=1):
    game.refresh_from_db()
    with committed():
        services.game_action_submit(game_id=game.pk, user=user,
                                    action={"type": "bid", "amount": amount},
                                    expected_version=game.version)


def sweep():
    with committed():
        return services.deadlines_sweep()


def test_a_move_before_the_deadline_is_met_and_a_timeout_is_missed():
    with time_machine.travel(T0, tick=False):
        game, (alice, bob) = started_game(2, time_per_move=HOUR)
    with time_machine.travel(T0 + HOUR / 2, tick=False):
        bid(game, alice)
    with time_machine.travel(T0 + 2 * HOUR, tick=False):
        assert sweep().timed_out_seats == 1
    alice_record, bob_record = reliability.reliability_of(alice), reliability.reliability_of(bob)
    assert (alice_record.deadlines, alice_record.met, alice_record.percent) == (1, 1, 100)
    assert (bob_record.deadlines, bob_record.met, bob_record.percent) == (1, 0, 0)
    assert bob_record.timeouts_total == 1 and alice_record.timeouts_total == 0
    missed = DeadlineRecord.objects.get(user=bob)
    assert missed.deadline_at == T0 + HOUR and missed.recorded_at == T0 + 2 * HOUR


def test_a_move_after_the_deadline_but_before_the_sweep_counts_as_missed():
    with time_machine.travel(T0, tick=False):
        game, (alice, bob) = started_game(2, time_per_move=HOUR)
    with time_machine.travel(T0 + HOUR + timedelta(seconds=1), tick=False):
        bid(game, alice)
    with time_machine.travel(T0 + HOUR - timedelta(seconds=1), tick=False):
        bid(game, bob)
    assert reliability.reliability_of(alice).percent == 0
    assert reliability.reliability_of(bob).percent == 100
    # A late move is not a timeout: nothing was played for the player.
    assert reliability.reliability_of(alice).timeouts_total == 0


def test_the_share_counts_only_the_last_hundred_deadlines():
    user = UserFactory()
    game, _ = started_game(2)
    seat = Seat(user=user, game=game)
    for day in range(30):  # an old bad spell: 30 missed
        moment = T0 + timedelta(days=day)
        reliability.deadline_record(seat, deadline_at=moment, outcome=TIMED_OUT, now=moment)
    for day in range(30, 120):  # then 80 met, 10 missed (days 36, 45 … 117)
        moment = T0 + timedelta(days=day)
        reliability.deadline_record(seat, deadline_at=moment, now=moment,
                                    outcome=MET if day % 9 != 0 else TIMED_OUT)
    record = reliability.reliability_of(user)
    recent = [T0 + timedelta(days=day) for day in range(20, 120)]
    expected_met = sum(1 for day in range(30, 120) if day % 9 != 0)
    assert record.deadlines == len(recent) == 100
    # The window starts at day 20: 10 of the old misses, then days 30 to 119.
    assert record.met == expected_met == 80
    assert record.percent == 80 and record.missed == 20
    assert record.timeouts_total == 30 + 10
    # Rounded down: 2 met of 3 is 66 %, not 67.
    other = UserFactory()
    other_seat = Seat(user=other, game=game)
    for outcome in (MET, MET, LATE):
        reliability.deadline_record(other_seat, deadline_at=T0, outcome=outcome, now=T0)
    assert reliability.reliability_of(other).percent == 66
    assert reliability.reliability_of(UserFactory()).percent is None


def test_bot_moves_and_bot_seats_leave_no_record_and_an_abandoned_game_is_counted():
    with time_machine.travel(T0, tick=False):
        game, (alice, bob) = started_game(2, time_per_move=HOUR, max_consecutive_timeouts=1)
    with time_machine.travel(T0 + 2 * HOUR, tick=False):
        sweep()  # both time out once: a bot takes both seats and plays the game out
    game.refresh_from_db()
    engine = get_engine("toy")
    for _ in range(50):
        if game.status != GameStatus.ACTIVE:
            break
        with committed():
            services.game_bot_moves_play(game_id=game.pk, expected_version=game.version)
        game.refresh_from_db()
        if game.status == GameStatus.ACTIVE and game.needs_resolution:
            with committed():
                services.game_resolve(game_id=game.pk)
            game.refresh_from_db()
    assert game.status == GameStatus.FINISHED, engine.active_seats(game.state)
    for user in (alice, bob):
        record = reliability.reliability_of(user)
        assert (record.deadlines, record.timeouts_total, record.abandoned_games) == (1, 1, 1)
    assert Game.objects.get(pk=game.pk).seats.filter(is_bot=True).count() == 2
