"""Migration games 0013: the log's English description columns go; entries keep their texts in
short form, entries written before texts were kept get their English sentence as a `literal`
text, payloads are stored short; going back renders the descriptions again and stores the
payloads as they were."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engines.registry import get_engine
from games.log import payloads as logpayloads
from games.presentation.texts import entry_text
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0012_action_texts_as_keys")]
AFTER = [("games", "0013_action_compact_log")]
#: Action columns added after AFTER (games 0018).
LATER_ACTION_COLUMNS = ("status_after", "awaiting_after")


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_the_log_keeps_every_text_without_its_english_columns_and_back():
    apps = migrate(BEFORE)
    try:
        Game = apps.get_model("games", "Game")
        Action = apps.get_model("games", "Action")
        user = UserFactory()  # the accounts app stays as it is
        engine = get_engine("stone_age")
        state = engine.new_game(2, "migration")
        game = Game.objects.create(engine="stone_age", num_players=2, seed="migration",
                                   state=state, status="active", created_by_id=user.pk)
        seat = engine.active_seats(state)[0]
        move = engine.legal_actions(state, seat)[0]
        keyed = engine.describe_text(state, seat, move)
        english = engine.describe(state, seat, move)
        Action.objects.create(game=game, sequence=1, seat_number=seat, payload=move,
                              source="api", public_description=english,
                              actor_description=english, public_text=keyed)
        # Written before texts were kept: English only, the actor's words apart.
        Action.objects.create(game=game, sequence=2, seat_number=1, payload={"type": "pick"},
                              source="api", public_description="Seat 1 chose a card.",
                              actor_description="Seat 1 chose the Bazaar.")
        Action.objects.create(game=game, sequence=3, kind="resolve", payload=None,
                              source="system", public_description="Dice rolled.",
                              actor_description="Dice rolled.")

        apps = migrate(AFTER)
        from games.models import Action as CurrentAction

        # The columns of later migrations are not there yet at 0013.
        first, second, third = (CurrentAction.objects.filter(game_id=game.pk)
                                .defer(*LATER_ACTION_COLUMNS).order_by("sequence"))
        assert first.text_for(None) == keyed and not first.hides_something
        assert entry_text(first, None, language="en") == english
        assert first.payload == move
        with connection.cursor() as cursor:
            cursor.execute("SELECT payload, public_text FROM games_action WHERE id = %s",
                           [first.pk])
            payload, public_text = cursor.fetchone()
        assert payload == json.dumps(logpayloads.pack(move), separators=(",", ":"))
        assert len(public_text) < len(english) and '"k"' not in public_text
        assert entry_text(second, None, language="en", names={1: "Ada"}) == "Ada chose a card."
        assert entry_text(second, 1, language="en") == "Seat 1 chose the Bazaar."
        assert second.hides_something and not third.hides_something
        assert entry_text(third, None, language="it") == "Dice rolled." and third.payload is None

        apps = migrate(BEFORE)
        Action = apps.get_model("games", "Action")
        rows = {row.sequence: row for row in Action.objects.filter(game_id=game.pk)}
        assert (rows[1].public_description, rows[1].public_text, rows[1].payload) == (
            english, keyed, move)
        assert rows[2].actor_description == "Seat 1 chose the Bazaar."
        assert rows[2].public_description == "Seat 1 chose a card."
        assert rows[3].public_description == rows[3].actor_description == "Dice rolled."
    finally:
        # Every app back at its latest migration (going back to 0012 also undid the later
        # migrations of the apps that depend on games), without this test's made-up log, which
        # the later data migrations would replay.
        apps.get_model("games", "Game").objects.filter(seed="migration").delete()
        executor = MigrationExecutor(connection)
        migrate(executor.loader.graph.leaf_nodes())
