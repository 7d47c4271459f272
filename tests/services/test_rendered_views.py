"""Rendered views kept per process (games.selectors.rendered_view): the same as a view made
anew, per seat (no hidden information crosses seats), never a view of another state."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games import selectors, services
from games.engines.registry import get_engine
from games.models import Game
from games.presentation.names import seat_names
from games.presentation.texts import view_texts
from tests.factories import committed, started_game

pytestmark = pytest.mark.django_db


def fresh(game: Game, seat: int | None) -> dict:
    return view_texts(game.engine, get_engine(game.engine).view(game.state, seat),
                      language="en", names=seat_names(game))


def kept(game: Game, seat: int | None) -> dict:
    return selectors.rendered_view(game, seat, language="en", names=seat_names(game))


def test_each_seat_reads_its_own_view_and_a_move_makes_a_new_one():
    game, users = started_game(3, engine="seven_wonders")
    game = selectors.game_with_seats(game.pk)
    for seat in (0, 1, None, 0, 1, None):  # the second round comes from the kept views
        assert kept(game, seat) == fresh(game, seat)
    assert kept(game, 0) != kept(game, 1)
    engine = get_engine(game.engine)
    action = engine.legal_actions(game.state, 0)[0]
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[0], action=action,
                                    expected_version=game.version)
    moved = selectors.game_with_seats(game.pk)
    assert moved.version > game.version
    assert kept(moved, 0) == fresh(moved, 0) != fresh(game, 0)


def test_a_kept_view_is_a_copy_and_never_one_of_a_change_rolled_back():
    game, users = started_game(2, engine="stone_age")
    game = selectors.game_with_seats(game.pk)
    kept(game, 0)["planted"] = True
    assert "planted" not in kept(game, 0)
    # A change made in memory, its view read, then rolled back (never committed) ...
    engine = get_engine(game.engine)
    abandoned = selectors.game_with_seats(game.pk)
    abandoned.state = engine.apply(abandoned.state, 0, engine.legal_actions(abandoned.state, 0)[-1])
    abandoned.version += 1
    abandoned.updated_at = timezone.now()
    kept(abandoned, 0)
    # ... and the move really made at that version reads its own view.
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[0],
                                    action=engine.legal_actions(game.state, 0)[0],
                                    expected_version=game.version)
    moved = selectors.game_with_seats(game.pk)
    assert moved.version == abandoned.version
    assert kept(moved, 0) == fresh(moved, 0) != fresh(abandoned, 0)
