"""Bot seats play at their level: "search" (the default), "hard" (the same search, wider and
longer) or "easy" (the engine's heuristic). Their moves are made by the bot-moves task (run
in-process on commit here) from the seat's view."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games import services
from games.engines import bots
from games.engines.registry import get_engine
from games.exceptions import InvalidGameSetup
from games.log.replay import state_at
from games.models import ActionSource, Seat
from tests.factories import UserFactory, committed, started_against_bots

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

ROLLOUTS = 4


def test_bots_are_added_at_a_level_and_a_wrong_level_changes_nothing():
    user = UserFactory()
    game = services.game_create(creator=user, engine_slug="stone_age", num_players=4)
    services.game_add_bot(game_id=game.pk, user=user)
    services.game_add_bot(game_id=game.pk, user=user, level="easy")
    with pytest.raises(InvalidGameSetup, match="easy, search, hard"):
        services.game_add_bot(game_id=game.pk, user=user, level="grandmaster")
    services.game_add_bot(game_id=game.pk, user=user, level="hard")
    levels = list(Seat.objects.filter(game=game, is_bot=True).order_by("join_order")
                  .values_list("bot_level", flat=True))
    assert levels == ["search", "easy", "hard"]


#: The hard bot's play-outs here: a choice that the time bound never cuts short is the same when
#: replayed below, whatever the machine's load.
HARD_ROLLOUTS = 12


@override_settings(BOT_SEARCH_ROLLOUTS=ROLLOUTS, BOT_HARD_ROLLOUTS=HARD_ROLLOUTS,
                   BOT_SEARCH_MAX_SECONDS=600, BOT_HARD_MAX_SECONDS=600)
def test_search_hard_and_easy_bot_seats_play_their_own_level():
    user = UserFactory()
    game = services.game_create(creator=user, engine_slug="stone_age", num_players=4)
    services.game_add_bot(game_id=game.pk, user=user, level="search")
    services.game_add_bot(game_id=game.pk, user=user, level="easy")
    services.game_add_bot(game_id=game.pk, user=user, level="hard")
    with committed():
        game = services.game_start(game_id=game.pk, user=user)
    human = game.seats.get(user=user).number
    engine = get_engine("stone_age")
    for _ in range(40):  # the human plays; each move queues the bots' task, which plays them
        game.refresh_from_db()
        assert engine.active_seats(game.state) == [human]  # the bots played up to the human
        if game.actions.filter(source=ActionSource.BOT).count() >= 18:
            break
        with committed():
            services.game_action_submit(
                game_id=game.pk, user=user, expected_version=game.version,
                action=engine.timeout_action(game.state, human))
    levels = {seat.number: seat.bot_level for seat in game.seats.filter(is_bot=True)}
    moves = list(game.actions.filter(source=ActionSource.BOT).order_by("sequence"))
    assert {move.seat_number for move in moves} == set(levels)
    searched = {"search": 0, "hard": 0, "easy": 0}
    rollouts = {"search": ROLLOUTS, "hard": HARD_ROLLOUTS, "easy": None}
    for move in moves:
        state = state_at(engine, game, move.sequence - 1)
        level = levels[move.seat_number]
        stats: dict = {}
        expected = bots.bot_move(engine, state, move.seat_number, level,
                                 rollouts=rollouts[level], max_seconds=600, stats=stats)
        assert move.payload == expected
        assert move.payload in engine.legal_actions(state, move.seat_number)
        if level == "easy":
            assert move.payload == engine.bot_action(state, move.seat_number)
        if level == "hard" and stats.get("searched"):
            # The hard level's width (its adapter's `hard_width`).
            assert stats["candidates"] <= bots.adapter_for(engine).hard_width
        searched[level] += bool(stats.get("searched"))
    assert searched["search"] > 0 and searched["hard"] > 0


def test_each_bot_decision_is_a_commit_of_its_own(django_capture_on_commit_callbacks):
    """The bot-moves task plays one decision: its commit shows it (and queues the task for the
    next), and the task queued at the version it moved past finds nothing to do."""
    game, user = started_against_bots(3, engine="stone_age")
    human = game.seats.get(user=user).number
    engine = get_engine("stone_age")
    bot_turns = in_a_row = most_in_a_row = 0
    while bot_turns < 8:
        game.refresh_from_db()
        version = game.version
        if human in engine.active_seats(game.state):
            in_a_row = 0
            with django_capture_on_commit_callbacks(execute=False):
                services.game_action_submit(game_id=game.pk, user=user, expected_version=version,
                                            action=engine.timeout_action(game.state, human))
            continue
        with django_capture_on_commit_callbacks(execute=False) as queued:
            assert services.game_bot_moves_play(game_id=game.pk, expected_version=version) == 1
        assert queued  # the follow-ups of the commit: the next bot task, the notices
        new = list(game.actions.filter(sequence__gt=version).exclude(source=ActionSource.AUTO))
        assert [entry.source for entry in new if entry.kind == "move"] == [ActionSource.BOT]
        assert services.game_bot_moves_play(game_id=game.pk, expected_version=version) == 0
        bot_turns += 1
        in_a_row += 1
        most_in_a_row = max(most_in_a_row, in_a_row)
    assert most_in_a_row >= 2  # the two bots moved one after the other, a commit each


def test_a_bots_pick_thought_out_before_a_persons_pick_still_stands(
        django_capture_on_commit_callbacks):
    """7 Wonders picks are simultaneous: a person's pick made while a bot was thinking moves the
    version, not the bot's decision, so the bot's move stands (a person's move does the same);
    once the bot's own seat has moved, or for a system move without that allowance, it does not."""
    game, user = started_against_bots(3, engine="seven_wonders")
    engine = get_engine("seven_wonders")
    human = game.seats.get(user=user).number
    bot_seat = min(seat.number for seat in game.seats.filter(is_bot=True))
    thought_at = game.version
    bot_action = bots.bot_move(engine, game.state, bot_seat, "easy")
    with django_capture_on_commit_callbacks(execute=False):
        services.game_action_submit(game_id=game.pk, user=user, expected_version=thought_at,
                                    action=engine.legal_actions(game.state, human)[0])
    game.refresh_from_db()
    assert game.version == thought_at + 1
    strict = services.game_seat_move_apply(
        game_id=game.pk, seat_number=bot_seat, action=bot_action, source=ActionSource.BOT,
        expected_version=thought_at)
    assert strict is None
    with django_capture_on_commit_callbacks(execute=False):
        stands = services.game_seat_move_apply(
            game_id=game.pk, seat_number=bot_seat, action=bot_action, source=ActionSource.BOT,
            expected_version=thought_at, stands_if_own_decision_unchanged=True)
    assert stands is not None
    assert game.actions.filter(seat_number=bot_seat, source=ActionSource.BOT).count() == 1
    again = services.game_seat_move_apply(
        game_id=game.pk, seat_number=bot_seat, action=bot_action, source=ActionSource.BOT,
        expected_version=thought_at, stands_if_own_decision_unchanged=True)
    assert again is None  # its own seat moved since: nothing is applied twice
    assert game.actions.filter(seat_number=bot_seat, source=ActionSource.BOT).count() == 1
