"""What building one "your turn" email asks of the database: a fixed number of queries,
whatever the number of players (one query for the seats and their players, not one a seat)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.notifications.email_play import started
from tests.notifications.test_email_summaries import turn_email

pytestmark = pytest.mark.django_db


def _queries_for_turn_email(players: int) -> int:
    game, users = started("stone_age", players, seed=f"queries-{players}")
    game.refresh_from_db()
    mover = next(user for user in users if game.seats.get(user=user).deadline_at is not None)
    with CaptureQueriesContext(connection) as queries:
        turn_email(game, mover)
    return len(queries)


def test_a_turn_email_costs_the_same_queries_for_two_and_four_players():
    two, four = _queries_for_turn_email(2), _queries_for_turn_email(4)
    print(f"queries for one turn email: 2 players {two}, 4 players {four}")
    assert four == two <= 10
