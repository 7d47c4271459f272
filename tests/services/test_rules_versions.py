"""A game keeps the rules version it was created under: started, played, replayed and checked
by those rules, while new games get the current ones (Caverna's version 3 → 4 change)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games import services
from games.engines.registry import get_engine
from games.models import GameStatus
from tests.factories import committed, open_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

GOLDEN = Path(__file__).parents[1] / "engines" / "caverna" / "golden"


def caverna_game(version: int | None, seed: str):
    game, users = open_game(2, engine="caverna")
    updates = {"seed": seed}
    if version is not None:
        updates["rules_version"] = version  # as stored by the engine of that time
    type(game).objects.filter(pk=game.pk).update(**updates)
    # The recorded moves are all the players' own: nothing is played for them.
    engine = get_engine("caverna")
    game.seats.update(auto_forced=False, standing_orders={
        order["name"]: "ask" for order in engine.standing_orders})
    with committed():
        game = services.game_start(game_id=game.pk, user=users[0])
    by_seat = {seat.number: seat.user for seat in game.seats.all()}
    return game, [by_seat[number] for number in range(2)]


def test_new_caverna_games_are_created_under_the_current_rules():
    game, _ = caverna_game(None, "current")
    assert game.rules_version == get_engine("caverna").rules_version == 4
    assert game.state["rules_version"] == 4


def test_a_game_created_under_version_3_plays_replays_and_scores_by_version_3():
    recorded = json.loads((GOLDEN / "v3_two_players.json").read_text())
    game, users = caverna_game(3, recorded["seed"])
    assert "rules_version" not in game.state
    for seat, action in recorded["log"]:
        game.refresh_from_db()
        with committed():
            services.game_action_submit(game_id=game.pk, user=users[seat], action=action,
                                        expected_version=game.version)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.result["scores"] == recorded["expected"]["scores"]
    assert services.game_replay_verify(game=game)
    out = StringIO()
    call_command("check_games", "--all", stdout=out)
    assert "Checked 1 game(s): 0 with a problem." in out.getvalue()
