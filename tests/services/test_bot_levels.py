"""Bot seats play at their level: "search" (the default) or "easy" (the engine's heuristic). Their
moves are made by the bot-moves task (run in-process on commit here) from the seat's view."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games import services
from games.engines import bots
from games.engines.registry import get_engine
from games.exceptions import InvalidGameSetup
from games.log.replay import state_at
from games.models import ActionSource, Seat
from tests.factories import UserFactory, committed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

ROLLOUTS = 4


def test_bots_are_added_at_a_level_and_a_wrong_level_changes_nothing():
    user = UserFactory()
    game = services.game_create(creator=user, engine_slug="stone_age", num_players=4)
    services.game_add_bot(game_id=game.pk, user=user)
    services.game_add_bot(game_id=game.pk, user=user, level="easy")
    with pytest.raises(InvalidGameSetup, match="levels"):
        services.game_add_bot(game_id=game.pk, user=user, level="grandmaster")
    levels = list(Seat.objects.filter(game=game, is_bot=True).order_by("join_order")
                  .values_list("bot_level", flat=True))
    assert levels == ["search", "easy"]


@override_settings(BOT_SEARCH_ROLLOUTS=ROLLOUTS)
def test_search_and_easy_bot_seats_play_their_own_level():
    user = UserFactory()
    game = services.game_create(creator=user, engine_slug="stone_age", num_players=3)
    services.game_add_bot(game_id=game.pk, user=user, level="search")
    services.game_add_bot(game_id=game.pk, user=user, level="easy")
    with committed():
        game = services.game_start(game_id=game.pk, user=user)
    human = game.seats.get(user=user).number
    engine = get_engine("stone_age")
    for _ in range(40):  # the human plays; each move queues the bots' task, which plays them
        game.refresh_from_db()
        assert engine.active_seats(game.state) == [human]  # the bots played up to the human
        if game.actions.filter(source=ActionSource.BOT).count() >= 12:
            break
        with committed():
            services.game_action_submit(
                game_id=game.pk, user=user, expected_version=game.version,
                action=engine.timeout_action(game.state, human))
    levels = {seat.number: seat.bot_level for seat in game.seats.filter(is_bot=True)}
    moves = list(game.actions.filter(source=ActionSource.BOT).order_by("sequence"))
    assert {move.seat_number for move in moves} == set(levels)
    searched = 0
    for move in moves:
        state = state_at(engine, game, move.sequence - 1)
        level = levels[move.seat_number]
        stats: dict = {}
        expected = bots.bot_move(engine, state, move.seat_number, level, rollouts=ROLLOUTS,
                                 stats=stats)
        assert move.payload == expected
        if level == "easy":
            assert move.payload == engine.bot_action(state, move.seat_number)
        searched += bool(stats.get("searched"))
    assert searched > 0
