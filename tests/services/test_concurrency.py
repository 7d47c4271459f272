"""On PostgreSQL: many concurrent submissions against one version, and duplicate resolutions."""

from __future__ import annotations

import pytest

from games import services
from games.exceptions import StaleVersion
from games.models import Game
from tests.engines.toy import toy_engine
from tests.factories import UserFactory
from tests.services.racing import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

RACERS = 8


def test_concurrent_submissions_of_one_version_apply_exactly_once_per_seat():
    users = [UserFactory() for _ in range(4)]
    game = services.game_create(creator=users[0], engine_slug="toy", num_players=4)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    services.game_start(game_id=game.pk, user=users[0])
    # Every seat bids at once against version 0, twice each. Others' secret bids do not make a
    # bid stale (seat-scoped staleness), a seat's own first bid does: one bid per seat is
    # applied, the other gets 409.
    targets = [
        (lambda user=user, amount=amount: services.game_action_submit(
            game_id=game.pk, user=user, action={"type": "bid", "amount": amount},
            expected_version=0,
        ))
        for user in users for amount in (1, 2)
    ]
    outcomes = race(targets)
    applied = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, StaleVersion)]
    assert len(applied) == len(users), outcomes
    assert len(refused) == len(targets) - len(users), outcomes
    moves = game.actions.filter(kind="move").order_by("sequence")
    assert list(moves.values_list("sequence", flat=True)) == [1, 2, 3, 4]  # gapless
    assert sorted(moves.values_list("seat_number", flat=True)) == [0, 1, 2, 3]


def test_racing_simultaneous_picks_of_all_seats_apply_each_once_without_409():
    """Seven Wonders, three players, every pick of each turn sent at once against the version
    the players saw: no 409, every pick applied exactly once, turn after turn."""
    from games import selectors

    users = [UserFactory() for _ in range(3)]
    game = services.game_create(creator=users[0], engine_slug="seven_wonders", num_players=3)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    services.game_start(game_id=game.pk, user=users[0])
    stale = 0
    for turn in range(6):
        game.refresh_from_db()
        seen = game.version
        picks = {user.pk: selectors.legal_actions_for(game, user)[turn % 2]["action"]
                 for user in users}
        outcomes = race([
            (lambda user=user, action=picks[user.pk], seen=seen: services.game_action_submit(
                game_id=game.pk, user=user, action=action, expected_version=seen))
            for user in users
        ])
        stale += sum(isinstance(o, StaleVersion) for o in outcomes)
        assert all(not isinstance(o, Exception) for o in outcomes), outcomes
        moves = list(game.actions.filter(sequence__gt=seen, kind="move"))
        assert sorted(move.seat_number for move in moves) == [0, 1, 2]
        seat_user = {seat.number: seat.user_id for seat in game.seats.all()}
        for move in moves:
            assert move.payload == picks[seat_user[move.seat_number]]
        # The last pick's commit resolves the turn (a worker, or inline when the broker is
        # away); resolving again is a no-op. Exactly one resolution per turn.
        services.game_resolve(game_id=game.pk)
        assert game.actions.filter(sequence__gt=seen, kind="resolve").count() == 1
    assert stale == 0


def test_concurrent_submissions_keep_the_log_gapless():
    users = [UserFactory() for _ in range(4)]
    game = services.game_create(creator=users[0], engine_slug="toy", num_players=4)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    services.game_start(game_id=game.pk, user=users[0])
    # Each player keeps retrying with the freshest version until its bid is in.
    def keep_trying(user):
        for _ in range(50):
            version = Game.objects.get(pk=game.pk).version
            try:
                return services.game_action_submit(
                    game_id=game.pk, user=user, action={"type": "bid", "amount": 2},
                    expected_version=version,
                )
            except StaleVersion:
                continue
        raise AssertionError("never got through")

    outcomes = race([lambda user=user: keep_trying(user) for user in users])
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    game.refresh_from_db()
    sequences = list(game.actions.order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, game.version + 1))
    assert services.game_replay_verify(game=game)


def test_duplicate_resolutions_apply_once():
    users = [UserFactory() for _ in range(3)]
    game = services.game_create(creator=users[0], engine_slug="toy", num_players=3)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    services.game_start(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    # Set up "all picks are in, resolution not yet run" directly, as if the task were queued.
    state = game.state
    for seat in range(3):
        state = toy_engine.apply(state, seat, {"type": "bid", "amount": 1})
    Game.objects.filter(pk=game.pk).update(state=state, needs_resolution=True)
    outcomes = race([lambda: services.game_resolve(game_id=game.pk, expected_version=0)] * 6)
    assert outcomes.count(True) == 1, outcomes
    assert outcomes.count(False) == 5, outcomes
    game.refresh_from_db()
    assert game.version == 1 and game.state["phase"] == "play" and not game.needs_resolution
    assert game.actions.filter(kind="resolve").count() == 1
