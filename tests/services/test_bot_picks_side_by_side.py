"""The bots' secret picks of a 7 Wonders turn are thought out side by side: each awaited bot seat
has a task of its own, a task for a pick another task is thinking about leaves it to that one
(no search is made twice), and a thinker whose decision moved on while it thought queues the
task for the seat's new decision itself. The tasks run in-process here; the worker-level
timing is the bot latency table's (tests/perf/bot_latency.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.signals import task_prerun
from django.conf import settings
from django.db import connection
from django.test import TestCase
from django.utils import timezone

from config.cache import process_cache
from games import services, tasks
from games.engines.registry import get_engine
from games.models import ActionKind, ActionSource, Game
from games.services import play
from tests.factories import started_against_bots

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

ENGINE = get_engine("seven_wonders")


def _game_awaiting_two_bots() -> tuple[Game, object, int, int, int]:
    """A 7 Wonders game for three (a person, two easy bots) at its first picks, with none of
    the start's follow-up tasks run: the game, the person, their seat and the two bot seats."""
    game, user = started_against_bots(3, engine="seven_wonders")
    first, second = sorted(game.seats.filter(is_bot=True).values_list("number", flat=True))
    return game, user, game.seats.get(user=user).number, first, second


def _seat_task(game: Game, version: int, seat: int) -> int:
    """The bot-moves task of `seat` queued at `version`, its commit's follow-ups not run."""
    with TestCase.captureOnCommitCallbacks(execute=False):
        return services.game_bot_moves_play(game_id=game.pk, expected_version=version,
                                            seat_number=seat)


def _bot_picks(game: Game, seat: int) -> list[int]:
    return list(game.actions.filter(seat_number=seat, source=ActionSource.BOT)
                .values_list("sequence", flat=True))


def test_each_awaited_bot_seat_has_a_task_and_a_pick_stands_after_others_picks():
    game, _, _, first, second = _game_awaiting_two_bots()
    started = game.version
    assert set(game.seats.filter(is_bot=True, deadline_at__isnull=False)
               .values_list("number", flat=True)) == {first, second}
    # The second seat's task, though the first seat is awaited too.
    assert _seat_task(game, started, second) == 1
    assert _bot_picks(game, second) and not _bot_picks(game, first)
    game.refresh_from_db()
    assert game.version == started + 1
    # The first seat's task, queued at the start, found the game a pick further on: only
    # another seat moved, so it thinks at the version it finds rather than giving up.
    assert _seat_task(game, started, first) == 1
    assert len(_bot_picks(game, first)) == 1
    # Its own seat has moved since: the same task again does nothing.
    assert _seat_task(game, started, first) == 0
    assert len(_bot_picks(game, first)) == 1


def test_a_task_leaves_a_pick_being_thought_about_to_its_thinker():
    game, _, _, first, second = _game_awaiting_two_bots()
    started = game.version
    assert play._thinking_begins(game, first)  # the first seat's own task is thinking
    assert _seat_task(game, started, second) == 1
    # The task the second seat's commit queued for the first seat, and a redelivery of the
    # first seat's own: both leave the pick to the thinker.
    assert _seat_task(game, started + 1, first) == 0
    assert _seat_task(game, started, first) == 0
    assert not _bot_picks(game, first)
    play._thinking_ends(game.pk, first, started)  # the thinker died without a move
    assert _seat_task(game, started + 1, first) == 1
    assert len(_bot_picks(game, first)) == 1


def test_the_mark_of_a_pick_already_made_does_not_hold_the_seats_next_pick(
        django_capture_on_commit_callbacks):
    game, user, person, first, second = _game_awaiting_two_bots()
    started = game.version
    assert play._thinking_begins(game, first)
    with django_capture_on_commit_callbacks(execute=False):
        # The thinker's move commits; its mark is still there when the next turn begins.
        services.game_seat_move_apply(
            game_id=game.pk, seat_number=first, action=ENGINE.bot_action(game.state, first),
            source=ActionSource.BOT, expected_version=started)
        assert _seat_task(game, started + 1, second) == 1
        game.refresh_from_db()
        services.game_action_submit(game_id=game.pk, user=user, expected_version=game.version,
                                    action=ENGINE.legal_actions(game.state, person)[0])
        game.refresh_from_db()
        assert services.game_resolve(game_id=game.pk, expected_version=game.version)
    game.refresh_from_db()
    assert first in ENGINE.active_seats(game.state)
    assert process_cache.get(play._thinking_key(game.pk, first)) == started
    assert _seat_task(game, game.version, first) == 1
    assert len(_bot_picks(game, first)) == 2


def test_a_thinker_whose_decision_moved_on_queues_the_seats_next_decision(
        django_capture_on_commit_callbacks, monkeypatch):
    """While the first bot thinks, its pick is made for it (a moderator, a timeout) and the
    turn is resolved, and the tasks those commits queued are lost (the broker was down). The
    thinker's move no longer stands; it queues the task for the seat's next pick, which the
    worker runs (here in-process) at once rather than a minute later (the beat safety net)."""
    game, user, person, first, second = _game_awaiting_two_bots()
    started = game.version
    think = play._bot_move

    moved_on_to: list[int] = []

    def meanwhile(engine, game_read, seat, stats=None):
        action = think(engine, game_read, seat, stats)
        pending = len(connection.run_on_commit)
        with django_capture_on_commit_callbacks(execute=False):
            state = game_read.state
            services.game_seat_move_apply(
                game_id=game.pk, seat_number=first, source=ActionSource.TIMEOUT,
                action=ENGINE.timeout_action(state, first), expected_version=started)
            services.game_seat_move_apply(
                game_id=game.pk, seat_number=second, source=ActionSource.BOT,
                action=ENGINE.bot_action(state, second),
                expected_version=Game.objects.get(pk=game.pk).version)
            services.game_action_submit(
                game_id=game.pk, user=user, action=ENGINE.legal_actions(state, person)[0],
                expected_version=Game.objects.get(pk=game.pk).version)
            assert services.game_resolve(game_id=game.pk,
                                         expected_version=Game.objects.get(pk=game.pk).version)
        del connection.run_on_commit[pending:]  # their tasks were never queued
        moved_on_to.append(Game.objects.get(pk=game.pk).version)
        return action

    monkeypatch.setattr(play, "_bot_move", meanwhile)
    ran: list[tuple] = []

    def note(task=None, args=None, **_):
        ran.append((task.name, tuple(args or ())))

    task_prerun.connect(note, weak=False)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert _seat_task(game, started, first) == 0
            resolved = game.actions.filter(kind=ActionKind.RESOLVE).get().sequence
            monkeypatch.setattr(play, "_bot_move", think)
    finally:
        task_prerun.disconnect(note)
    assert ("games.tasks.play_bot_moves", (game.pk, moved_on_to[0], first)) in ran
    next_picks = game.actions.filter(seat_number=first, source=ActionSource.BOT,
                                     sequence__gt=resolved)
    assert next_picks.count() == 1


def test_a_task_that_read_the_game_before_a_thinkers_commit_does_not_search_again(
        django_capture_on_commit_callbacks, monkeypatch):
    """A task reads the game with the seat awaited; before it marks the seat, the seat's
    thinker commits its pick and wipes its own mark. The task finds the mark free, but the
    pick made: it leaves the seat without searching (no search is thrown away)."""
    game, _, _, first, _ = _game_awaiting_two_bots()
    started = game.version
    mark = play._thinking_begins

    def thinker_commits_first(game_read, seat_number):
        with django_capture_on_commit_callbacks(execute=False):
            services.game_seat_move_apply(
                game_id=game.pk, seat_number=first, source=ActionSource.BOT,
                action=ENGINE.bot_action(game_read.state, first), expected_version=started)
        return mark(game_read, seat_number)

    monkeypatch.setattr(play, "_thinking_begins", thinker_commits_first)
    searched: list[int] = []
    think = play._bot_move

    def noted(engine, game_read, seat, stats=None):
        searched.append(seat.number)
        return think(engine, game_read, seat, stats)

    monkeypatch.setattr(play, "_bot_move", noted)
    assert _seat_task(game, started, first) == 0
    assert not searched
    assert len(_bot_picks(game, first)) == 1
    assert process_cache.get(play._thinking_key(game.pk, first)) is None


def test_a_bot_task_never_moves_a_persons_seat():
    game, _, person, _, _ = _game_awaiting_two_bots()
    assert _seat_task(game, game.version, person) == 0
    assert not game.actions.filter(seat_number=person).exists()


def test_the_safety_net_plays_every_waiting_bot_seat_and_the_marks_expire_before_it():
    """Tasks lost (the broker was down at the start's commit): beat's safety net plays each
    bot seat still awaited after its grace, not one seat a game. A mark left by a thinker that
    died expires before the grace, and outlasts any decision's thinking."""
    game, _, _, first, second = _game_awaiting_two_bots()
    game.seats.filter(is_bot=True).update(
        turn_started_at=timezone.now() - tasks.BOT_MOVE_GRACE - timedelta(seconds=1))
    with TestCase.captureOnCommitCallbacks(execute=False):
        assert tasks.play_pending_bot_moves() == 2
    assert _bot_picks(game, first) and _bot_picks(game, second)
    assert settings.BOT_HARD_MAX_SECONDS < play.THINKING_MARK_SECONDS \
        < tasks.BOT_MOVE_GRACE.total_seconds()
