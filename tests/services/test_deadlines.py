"""Time control: deadlines, reserves, vacations, timeouts, bots taking over, reminders."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from accounts.services import VacationError, vacation_create, vacation_end
from games import services
from games.exceptions import NotAllowed
from games.models import Game, GameStatus, Seat
from notifications.models import Notification
from tests.factories import UserFactory, committed, started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


def started(players=2, **options):
    return started_game(players, now=T0, **options)


def seat(game, number) -> Seat:
    return Seat.objects.get(game=game, number=number)


def move(game, user, action, now):
    game.refresh_from_db()
    with committed():
        return services.game_action_submit(game_id=game.pk, user=user, action=action,
                                           expected_version=game.version, now=now)


def sweep(now):
    with committed():
        return services.deadlines_sweep(now=now)


def test_deadlines_start_when_seats_become_active():
    game, _ = started(2, time_per_move=6 * HOUR)
    assert seat(game, 0).deadline_at == seat(game, 1).deadline_at == T0 + 6 * HOUR
    # Reminder: 25% of 6 hours = 1.5 hours, earlier than... later of (1.5h, 2h) left is 1.5h.
    assert seat(game, 0).remind_at == T0 + 6 * HOUR - timedelta(minutes=90)


def test_reserve_is_spent_only_beyond_the_time_per_move():
    game, (alice, bob) = started(2, time_per_move=DAY, reserve=2 * DAY)
    assert seat(game, 0).deadline_at == T0 + 3 * DAY
    move(game, alice, {"type": "bid", "amount": 1}, T0 + DAY + 5 * HOUR)
    assert seat(game, 0).reserve_left == 2 * DAY - 5 * HOUR
    move(game, bob, {"type": "bid", "amount": 2}, T0 + 2 * HOUR)
    assert seat(game, 1).reserve_left == 2 * DAY


def test_sweep_times_out_due_seats_through_the_service():
    game, (alice, bob) = started(2, time_per_move=DAY)
    move(game, alice, {"type": "bid", "amount": 3}, T0 + HOUR)
    assert sweep(T0 + DAY - timedelta(seconds=1)).timed_out_seats == 0
    report = sweep(T0 + DAY)
    assert report.timed_out_seats == 1
    game.refresh_from_db()
    timeout = game.actions.get(source="timeout")
    assert (timeout.seat_number, timeout.payload) == (1, {"type": "bid", "amount": 1})
    assert seat(game, 1).timeout_count == 1
    assert game.state["phase"] == "play"  # the resolution ran after the timeout
    assert Notification.objects.filter(user=bob, kind="timed_out").count() == 1
    # Nothing is applied twice: a second sweep at the same moment finds nothing.
    assert sweep(T0 + DAY).timed_out_seats == 0


def test_three_timeouts_in_a_row_hand_the_seat_to_a_bot_and_the_player_takes_it_back():
    from games.engines.registry import get_engine

    engine = get_engine("toy")
    game, (alice, bob) = started(2, time_per_move=HOUR, options={"rounds": 5})
    now = T0
    counts = []
    for _ in range(40):
        game.refresh_from_db()
        if seat(game, 1).is_bot or game.status != GameStatus.ACTIVE:
            break
        if 0 in engine.active_seats(game.state):
            move(game, alice, engine.timeout_action(game.state, 0), now)  # alice plays on time
        else:
            now = seat(game, 1).deadline_at
            sweep(now)
            counts.append(seat(game, 1).timeout_count)
    assert counts == [1, 2, 3]
    bob_seat = seat(game, 1)
    assert bob_seat.is_bot and bob_seat.replaced_by_bot
    assert seat(game, 0).timeout_count == 0
    kinds = list(Notification.objects.filter(user=bob, kind="timed_out")
                 .order_by("pk").values_list("context__replaced", flat=True))
    assert kinds == [False, False, True]
    with pytest.raises(NotAllowed, match="bot is playing your seat"):
        move(game, bob, {"type": "bank"}, now)
    services.seat_take_back(game_id=game.pk, user=bob, now=now)
    assert not seat(game, 1).is_bot and seat(game, 1).timeout_count == 0


def test_acting_resets_the_timeout_count():
    game, (alice, bob) = started(2, time_per_move=HOUR)
    sweep(T0 + HOUR)
    assert seat(game, 0).timeout_count == seat(game, 1).timeout_count == 1
    game.refresh_from_db()
    # Seat 0 acts in the sequential phase now.
    move(game, alice, {"type": "bank"}, T0 + 2 * HOUR)
    assert seat(game, 0).timeout_count == 0


def test_vacation_pauses_every_clock_and_resumes_after():
    game, (alice, bob) = started(2, time_per_move=DAY)
    with time_machine.travel(T0 + HOUR, tick=False):
        vacation_create(user=bob, starts_at=T0 + 2 * HOUR, ends_at=T0 + 5 * DAY)
    # Bob had used 2 hours when he left; the remaining 22 hours start when he is back.
    assert seat(game, 1).deadline_at == T0 + 5 * DAY + 22 * HOUR
    assert seat(game, 0).deadline_at == T0 + DAY
    assert sweep(T0 + 3 * DAY).timed_out_seats == 1  # only alice
    assert seat(game, 1).timeout_count == 0
    with time_machine.travel(T0 + 2 * DAY, tick=False):
        vacation = bob.vacations.get()
        vacation_end(user=bob, vacation_id=vacation.pk)
    # Back early: the clock runs again from now with what was left.
    assert seat(game, 1).deadline_at == T0 + 2 * DAY + 22 * HOUR


def test_vacations_are_limited_by_the_yearly_allowance_and_must_not_overlap(settings):
    settings.VACATION_DAYS_PER_YEAR = 21
    user = UserFactory()
    with time_machine.travel(T0, tick=False):
        vacation_create(user=user, starts_at=T0 + DAY, ends_at=T0 + 15 * DAY)
        with pytest.raises(VacationError, match="overlaps"):
            vacation_create(user=user, starts_at=T0 + 10 * DAY, ends_at=T0 + 12 * DAY)
        with pytest.raises(VacationError, match=r"7\.0 of your 21"):
            vacation_create(user=user, starts_at=T0 + 20 * DAY, ends_at=T0 + 28 * DAY)
        with pytest.raises(VacationError, match="past"):
            vacation_create(user=user, starts_at=T0 - DAY, ends_at=T0 + DAY)
        with pytest.raises(VacationError, match="end after"):
            vacation_create(user=user, starts_at=T0 + 30 * DAY, ends_at=T0 + 30 * DAY)
        vacation_create(user=user, starts_at=T0 + 20 * DAY, ends_at=T0 + 27 * DAY)
    assert user.vacations.count() == 2


def test_reminder_goes_out_once_and_never_after_the_move():
    game, (alice, bob) = started(2, time_per_move=DAY)
    remind_at = T0 + DAY - 2 * HOUR  # 25% of a day is 6h; 2 hours is later
    assert seat(game, 0).remind_at == remind_at
    move(game, alice, {"type": "bid", "amount": 1}, T0 + HOUR)
    assert sweep(remind_at - timedelta(seconds=1)).reminders == 0
    assert sweep(remind_at).reminders == 1
    assert sweep(remind_at + HOUR).reminders == 0
    reminders = Notification.objects.filter(kind="reminder")
    assert [n.user for n in reminders] == [bob]


def test_player_reminder_settings_are_used():
    user = UserFactory(reminder_percent=50, reminder_hours=1)
    assert user.reminder_lead(DAY) == HOUR
    assert user.reminder_lead(HOUR) == timedelta(minutes=30)


def test_deadlines_in_the_api_are_in_the_viewers_timezone(api_client):
    game, (alice, bob) = started(2, time_per_move=DAY)
    bob.timezone = "Asia/Tokyo"
    bob.save()
    api_client.force_authenticate(bob)
    with time_machine.travel(T0 + HOUR, tick=False):
        body = api_client.get(f"/api/v1/games/{game.pk}/").json()
    seat_one = next(s for s in body["seats"] if s["number"] == 1)
    assert seat_one["deadline_local"] == "2026-03-03T18:00:00+09:00"
    assert seat_one["time_left_seconds"] == 23 * 3600


def test_a_finished_or_aborted_game_is_never_swept():
    game, _ = started(2, time_per_move=HOUR)
    services.game_abort(game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABORTED
    assert sweep(T0 + DAY).timed_out_seats == 0


def test_seven_wonders_for_two_times_out_both_picks_of_the_free_citys_controller_then_bots():
    """The controller's turn is two decisions (its card, then the Free City's): one sweep plays
    both as timeout moves and counts one timeout; after three the bots finish the game."""
    game, _ = started(2, engine="seven_wonders", time_per_move=HOUR)
    for turn in (1, 2, 3):
        game.refresh_from_db()
        assert game.state["turn"] == turn
        now = seat(game, 0).deadline_at
        assert now == seat(game, 1).deadline_at
        before = game.version
        assert sweep(now).timed_out_seats == 2
        game.refresh_from_db()
        controller = (turn - 1) % 2
        moves = list(game.actions.filter(sequence__gt=before).order_by("sequence")[:4])
        assert [m.kind for m in moves] == ["move"] * 3 + ["resolve"]
        moves = moves[:3]
        assert all(m.source == "timeout" for m in moves)
        by_controller = [m for m in moves if m.seat_number == controller]
        # Its own card first, then the Free City's.
        assert [bool(m.payload.get("free_city")) for m in by_controller] == [False, True]
        assert seat(game, 0).timeout_count == seat(game, 1).timeout_count == turn
    # Three timeouts in a row each: both seats are bots, which played the game to its end.
    game.refresh_from_db()
    assert seat(game, 0).is_bot and seat(game, 1).is_bot
    assert game.status == GameStatus.FINISHED and set(game.result["winners"]) <= {0, 1}
    bot_moves = game.actions.filter(kind="move", source="bot")
    assert any(m.payload.get("free_city") for m in bot_moves)
    assert services.game_replay_verify(game=game)


def _due_games(count: int) -> list[Game]:
    """`count` toy games for two, both seats past their deadline at T0 + HOUR."""
    return [started(2, time_per_move=HOUR)[0] for _ in range(count)]


def test_a_batch_of_due_games_is_swept_in_the_same_few_statements_whatever_its_size():
    """The batch's games, seats and vacations are read, and its log entries, clocks, game rows,
    deadline records, timeout counts and notices written, a statement or two per table for the
    whole batch: eight due games cost no more statements than two."""
    from django.db import connection
    from django.test import TestCase
    from django.test.utils import CaptureQueriesContext

    from games.models import Action, DeadlineRecord

    small, large = _due_games(2), _due_games(8)
    counts = []
    for games in (small, large):
        with (CaptureQueriesContext(connection) as queries,
              TestCase.captureOnCommitCallbacks(execute=False) as callbacks):
            report = services.deadlines_sweep_games(game_ids=[g.pk for g in games],
                                                    now=T0 + HOUR)
        assert (report.games, report.timed_out_seats) == (len(games), 2 * len(games))
        counts.append(len(queries))
        for callback in callbacks:  # the resolutions, deliveries and live events after commit
            callback()
    assert counts[0] == counts[1] <= 16, counts
    assert Action.objects.filter(source="timeout").count() == 20
    assert Notification.objects.filter(kind="timed_out").count() == 20
    assert DeadlineRecord.objects.filter(outcome="timeout").count() == 20
    assert set(Seat.objects.values_list("timeout_count", flat=True)) == {1}
    for game in small + large:
        game.refresh_from_db()
        assert game.state["phase"] == "play"  # both bids in, then resolved by its task
        assert services.game_replay_verify(game=game)


def test_a_batch_whose_seats_are_no_longer_due_is_swept_without_writing_anything():
    """A batch queued twice (the beat ran again before it was swept): the second sweep finds its
    games' seats with deadlines ahead, and changes nothing rather than fail."""
    games = _due_games(2)
    game_ids = [game.pk for game in games]
    with committed():
        services.deadlines_sweep_games(game_ids=game_ids, now=T0 + HOUR)
    versions = list(Game.objects.filter(pk__in=game_ids).values_list("version", flat=True))
    report = services.deadlines_sweep_games(game_ids=game_ids, now=T0 + HOUR)
    assert (report.games, report.timed_out_seats, report.faulty_games) == (0, 0, 0)
    assert list(Game.objects.filter(pk__in=game_ids).values_list("version", flat=True)) == versions


def test_a_bot_seat_past_its_deadline_is_left_to_the_bot_task_not_played_in_the_sweep():
    """A bot's seat is due only when its task was lost (the broker was down at commit): the
    sweep queues the bot task rather than thinking for the bot inside the batch."""
    from django.test import TestCase

    from games.models import Action

    alice = UserFactory()
    game = services.game_create(creator=alice, engine_slug="toy", num_players=2,
                                time_per_move=HOUR)
    services.game_add_bot(game_id=game.pk, user=alice, level="easy")
    services.game_start(game_id=game.pk, user=alice, now=T0)  # its bot task never runs
    bot_seat = Seat.objects.get(game=game, is_bot=True)
    assert bot_seat.deadline_at == T0 + HOUR
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        report = services.deadlines_sweep(now=T0 + HOUR)
    assert report.timed_out_seats == 1  # alice's; the bot's seat is not a timeout
    assert not Action.objects.filter(game=game, source="bot").exists()
    assert Action.objects.get(game=game, source="timeout").seat_number != bot_seat.number
    # After the commit the bot task bids for its seat, a decision a task, each commit queueing
    # the next (run here as they are queued), and plays on while it is its turn.
    with TestCase.captureOnCommitCallbacks(execute=True):
        for callback in callbacks:
            callback()
    bot_moves = Action.objects.filter(game=game, source="bot", seat_number=bot_seat.number)
    assert bot_moves.order_by("sequence").first().payload["type"] == "bid"
    game.refresh_from_db()
    assert game.state["phase"] == "play" and seat(game, bot_seat.number).deadline_at is None


def test_the_batch_row_update_keeps_each_rows_own_values_and_json_types():
    """The sweep's row update (bulk_update) keeps each row's own values; JSON values equal in
    Python but not in JSON (1, 1.0, true) stay apart."""
    games = _due_games(3)
    for game, value in zip(games, (1, 1.0, True), strict=True):
        game.state = {"n": value}
        game.version = 7
        game.result = None
    Game.objects.bulk_update(games, ["state", "version", "result"])
    stored = {game.pk: game for game in Game.objects.filter(pk__in=[g.pk for g in games])}
    assert [type(stored[game.pk].state["n"]) for game in games] == [int, float, bool]
    assert {stored[game.pk].version for game in games} == {7}


def test_the_next_players_of_a_swept_batch_are_told_it_is_their_turn():
    """Stone Age passes the turn after a timeout: the batch queues one task that tells each
    game's next player, as a move's own notice would."""
    from games.engines.registry import get_engine

    engine = get_engine("stone_age")
    games = [started_game(3, engine="stone_age", seed=f"sweep-{index}", now=T0)
             for index in range(2)]
    awaited = {game.pk: engine.active_seats(game.state) for game, _ in games}
    assert all(len(seats) == 1 for seats in awaited.values())
    with committed():
        report = services.deadlines_sweep(now=T0 + DAY)
    assert report.timed_out_seats == 2
    for game, users in games:
        game.refresh_from_db()
        (next_seat,) = engine.active_seats(game.state)
        assert next_seat != awaited[game.pk][0]
        assert Notification.objects.filter(user=users[next_seat], game=game,
                                           kind="your_turn").count() == 1
        assert Notification.objects.filter(user=users[awaited[game.pk][0]], game=game,
                                           kind="timed_out").count() == 1


def test_a_move_after_a_vacation_spends_only_the_playing_time():
    """The move's clock reads the vacation that ended during the turn (the seats' read tells
    which players have one that matters)."""
    game, (alice, bob) = started(2, time_per_move=DAY, reserve=2 * DAY)
    with time_machine.travel(T0 + HOUR, tick=False):
        vacation_create(user=alice, starts_at=T0 + 2 * HOUR, ends_at=T0 + 2 * DAY)
    # 2 hours before the vacation and 1 day after it: 2 hours over the time per move.
    move(game, alice, {"type": "bid", "amount": 1}, T0 + 3 * DAY)
    assert seat(game, 0).reserve_left == 2 * DAY - 2 * HOUR
    # A vacation over before a turn started changes nothing of that turn.
    move(game, bob, {"type": "bid", "amount": 2}, T0 + DAY + 5 * HOUR)
    assert seat(game, 1).reserve_left == 2 * DAY - 5 * HOUR
