"""Migration games 0014: a Stone Age game stored while its rules wrote English log lines takes
the replayed state (the same lines as texts), so its log replays to its stored state again; a
game that differs in anything else is left for check_games to report."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from games.engines.registry import get_engine
from games.models import Game
from games.presentation.texts import english_text
from games.services import game_health_problem
from tests.factories import started_game
from tests.live.helpers import play_moves

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0014_stone_age_log_texts")


def _as_stored_before(state: dict) -> dict:
    """The state as the rules stored it while their log lines were English sentences."""
    engine = get_engine("stone_age")
    english = {key: [{**entry, **{part: english_text(engine, entry[part])
                                  for part in ("text", "private") if part in entry}}
                     for entry in state[key]] for key in ("log", "last")}
    return {**state, **english}


def test_a_game_stored_with_english_log_lines_replays_to_its_state_after_the_migration():
    game, _users = started_game(3, engine="stone_age", seed="log-lines")
    play_moves(game.pk, 12)
    game.refresh_from_db()
    texts = game.state
    assert texts["log"] and all(isinstance(entry["text"], dict) for entry in texts["log"])
    Game.objects.filter(pk=game.pk).update(state=_as_stored_before(texts))
    untouched, _ = started_game(2, engine="stone_age", seed="log-lines-other")
    play_moves(untouched.pk, 3)
    untouched.refresh_from_db()
    changed = {**_as_stored_before(untouched.state), "round": untouched.state["round"] + 1}
    Game.objects.filter(pk=untouched.pk).update(state=changed)
    game.refresh_from_db()
    assert isinstance(game.state["log"][0]["text"], str)
    assert game_health_problem(game=game) == (
        "the log replays to a different state than the stored one")

    assert migration.adopt_replayed_logs(apps, None) == 1

    game.refresh_from_db()
    assert game.state == texts
    assert game_health_problem(game=game) is None
    untouched.refresh_from_db()
    assert untouched.state == changed
    assert game_health_problem(game=untouched) is not None
