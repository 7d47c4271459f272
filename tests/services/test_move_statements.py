"""A move costs a fixed few statements, however many seats the game has: the game and its seats
are read once (with the flags the move needs), and no other seat costs a statement of its own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from tests.factories import started_game

pytestmark = pytest.mark.django_db

#: A secret pick: the savepoint pair, the locked game, the seats with their players and flags,
#: the log entry, the clock of the seat that moved, the game row, its deadline record.
MOVE_STATEMENTS = 8


@pytest.mark.parametrize("players", [2, 4])
def test_a_move_takes_the_same_few_statements_for_any_number_of_seats(players):
    game, users = started_game(players)
    with CaptureQueriesContext(connection) as queries:
        services.game_action_submit(game_id=game.pk, user=users[0],
                                    action={"type": "bid", "amount": 1},
                                    expected_version=game.version)
    assert len(queries) <= MOVE_STATEMENTS
