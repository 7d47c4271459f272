"""The game services, driven with the test-only toy engine (one secret simultaneous phase, one
sequential phase): lobby, start, moves, versions, idempotency, resolution, the end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engines.base import SeededRandom
from games.exceptions import (
    GameNotRunning,
    IdempotencyKeyReused,
    IllegalMove,
    InvalidGameSetup,
    LobbyError,
    NotAllowed,
    StaleVersion,
)
from games.models import Action, ActionKind, Game, GameStatus
from games.presentation.texts import entry_text, message_text
from tests.engines.toy import toy_engine
from tests.factories import UserFactory, committed, open_game, started_game

pytestmark = pytest.mark.django_db


make_game = open_game


def submit(game, user, action, **kwargs):
    game.refresh_from_db()
    with committed():
        return services.game_action_submit(
            game_id=game.pk, user=user, action=action, expected_version=game.version, **kwargs
        )


# ---- lobby --------------------------------------------------------------------------------------


def test_create_checks_engine_player_count_and_time():
    user = UserFactory()
    with pytest.raises(InvalidGameSetup, match="no game called"):
        services.game_create(creator=user, engine_slug="chess", num_players=2)
    with pytest.raises(InvalidGameSetup, match="2 to 4 players, not 5"):
        services.game_create(creator=user, engine_slug="toy", num_players=5)
    with pytest.raises(InvalidGameSetup, match="Unknown option"):
        services.game_create(creator=user, engine_slug="toy", num_players=2, options={"x": 1})
    with pytest.raises(InvalidGameSetup, match="1 hour and 14 days"):
        services.game_create(
            creator=user, engine_slug="toy", num_players=2, time_per_move=timedelta(minutes=5)
        )
    assert Game.objects.count() == 0


def test_create_fills_option_defaults_and_seats_the_creator():
    user = UserFactory()
    game = services.game_create(creator=user, engine_slug="toy", num_players=3)
    assert game.options == {"rounds": 2}
    assert game.status == GameStatus.OPEN
    assert [seat.user for seat in game.seats.all()] == [user]
    assert len(game.seed) == 64 and game.state is None


def test_join_refuses_twice_full_and_started_games():
    game, users = make_game(2)
    with pytest.raises(LobbyError, match="already have a seat"):
        services.game_join(game_id=game.pk, user=users[1])
    with pytest.raises(LobbyError, match="full"):
        services.game_join(game_id=game.pk, user=UserFactory())
    services.game_start(game_id=game.pk, user=users[0])
    with pytest.raises(LobbyError, match="already started"):
        services.game_join(game_id=game.pk, user=UserFactory())
    assert game.seats.count() == 2


def test_leave_passes_the_creator_on_and_the_last_one_out_aborts():
    game, users = make_game(3)
    services.game_leave(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    assert game.created_by == users[1]
    services.game_leave(game_id=game.pk, user=users[1])
    services.game_leave(game_id=game.pk, user=users[2])
    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED
    with pytest.raises(LobbyError, match="before it starts"):
        services.game_leave(game_id=game.pk, user=users[2])


def test_only_the_creator_starts_and_seats_are_shuffled_from_the_seed():
    game, users = make_game(4)
    with pytest.raises(NotAllowed, match="created the game"):
        services.game_start(game_id=game.pk, user=users[1])
    game = services.game_start(game_id=game.pk, user=users[0])
    numbers = [seat.number for seat in game.seats.order_by("join_order")]
    assert numbers == SeededRandom(f"{game.seed}:seating").shuffled([0, 1, 2, 3])
    assert game.status == GameStatus.ACTIVE and game.state["round"] == 1
    # Everyone bids at once: every seat has a deadline a day from now.
    deadlines = [seat.deadline_at for seat in game.seats.all()]
    day = timedelta(days=1)
    assert all(d and timedelta(hours=23) < d - timezone.now() <= day for d in deadlines)
    with pytest.raises(LobbyError, match="already started"):
        services.game_start(game_id=game.pk, user=users[0])


def test_start_early_with_fewer_players_than_planned():
    game, users = make_game(2)
    game.num_players = 4
    game.save()
    services.game_start(game_id=game.pk, user=users[0])
    game.refresh_from_db()
    assert game.num_players == 2 and len(game.state["scores"]) == 2


def test_start_needs_the_minimum_number_of_players():
    user = UserFactory()
    game = services.game_create(creator=user, engine_slug="toy", num_players=2)
    with pytest.raises(LobbyError, match="at least 2 players"):
        services.game_start(game_id=game.pk, user=user)


# ---- moves --------------------------------------------------------------------------------------


def test_a_move_is_logged_and_bumps_the_version():
    game, (alice, bob) = started_game(2)
    result = submit(game, alice, {"type": "bid", "amount": 2})
    assert result.outcome == {"sequence": 1, "version": 1, "status": "active",
                              "awaiting_seats": [1]}
    assert message_text(game.engine, result.text, language="en") == "Seat 0 bid 2."
    entry = Action.objects.get(game=game)
    assert (entry.seat_number, entry.source, entry.actor) == (0, "api", alice)
    assert entry_text(entry, None, language="en") == "Seat 0 placed a secret bid."
    game.refresh_from_db()
    assert game.version == 1 and game.state["bids"] == [2, None]
    # Alice picked: her clock stops (she may still change her bid); Bob's runs.
    assert {s.number: s.deadline_at is None for s in game.seats.all()} == {0: True, 1: False}


def test_stale_version_is_refused_and_changes_nothing():
    game, (alice, bob) = started_game(2)
    submit(game, alice, {"type": "bid", "amount": 2})
    # Alice's own move since version 0: her answer to version 0 is stale.
    with pytest.raises(StaleVersion, match="moved on"):
        services.game_action_submit(
            game_id=game.pk, user=alice, action={"type": "bid", "amount": 1}, expected_version=0
        )
    with pytest.raises(StaleVersion, match="moved on"):  # a version from the future
        services.game_action_submit(
            game_id=game.pk, user=bob, action={"type": "bid", "amount": 1}, expected_version=5
        )
    game.refresh_from_db()
    assert game.version == 1 and game.state["bids"] == [2, None]


def test_others_secret_picks_do_not_make_a_pick_stale():
    """Seat-scoped staleness: Alice's secret bid changed the version but not Bob's choices, so
    Bob's bid sent at version 0 stands; once the bids are resolved, version 0 is stale."""
    game, (alice, bob) = started_game(2)
    submit(game, alice, {"type": "bid", "amount": 2})
    services.game_action_submit(game_id=game.pk, user=bob, action={"type": "bid", "amount": 1},
                                expected_version=0)
    game.refresh_from_db()
    assert game.version == 2 and game.state["bids"] == [2, 1]
    assert services.game_resolve(game_id=game.pk) is True
    game.refresh_from_db()
    mover = alice if 0 in toy_engine.active_seats(game.state) else bob
    with pytest.raises(StaleVersion, match="moved on"):
        services.game_action_submit(game_id=game.pk, user=mover, action={"type": "bank"},
                                    expected_version=2)
    game.refresh_from_db()
    assert game.version == 3


def test_illegal_actions_and_outsiders_are_refused_with_a_reason():
    game, (alice, bob) = started_game(2)
    before = Game.objects.get(pk=game.pk).state
    with pytest.raises(IllegalMove, match="not one of the legal actions"):
        submit(game, alice, {"type": "bid", "amount": 9})
    with pytest.raises(NotAllowed, match="do not have a seat"):
        submit(game, UserFactory(), {"type": "bid", "amount": 1})
    game.refresh_from_db()
    assert game.state == before and game.version == 0 and not game.actions.exists()


def test_not_your_turn_in_the_sequential_phase():
    game, (alice, bob) = started_game(2)
    submit(game, alice, {"type": "bid", "amount": 1})
    submit(game, bob, {"type": "bid", "amount": 3})  # resolved in-process on commit
    game.refresh_from_db()
    assert game.state["phase"] == "play" and game.version == 3
    with pytest.raises(IllegalMove, match="not your turn"):
        submit(game, bob, {"type": "bank"})


def test_idempotency_key_repeats_the_first_result_and_applies_once():
    game, (alice, bob) = started_game(2)
    first = submit(game, alice, {"type": "bid", "amount": 2}, idempotency_key="k-1")
    again = services.game_action_submit(
        game_id=game.pk, user=alice, action={"type": "bid", "amount": 2},
        expected_version=0, idempotency_key="k-1",
    )
    assert again.replayed and again.outcome == first.outcome
    assert Action.objects.filter(game=game).count() == 1
    with pytest.raises(IdempotencyKeyReused):
        services.game_action_submit(
            game_id=game.pk, user=alice, action={"type": "bid", "amount": 3},
            expected_version=1, idempotency_key="k-1",
        )


def test_all_secret_picks_in_triggers_one_resolution(django_capture_on_commit_callbacks):
    game, (alice, bob) = started_game(2)
    submit(game, alice, {"type": "bid", "amount": 3})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        submit(game, bob, {"type": "bid", "amount": 1})
    assert callbacks, "the resolution task is enqueued on commit"
    game.refresh_from_db()
    assert game.state["phase"] == "play" and game.state["scores"] == [5, 1]
    assert not game.needs_resolution
    entry = game.actions.get(sequence=3)
    assert entry.kind == ActionKind.RESOLVE and entry.source == "system"
    assert "seat 0 bid 3" in entry_text(entry, None, language="en")
    # Running the resolution again (a duplicate task delivery) applies nothing.
    assert services.game_resolve(game_id=game.pk, expected_version=2) is False
    assert services.game_resolve(game_id=game.pk) is False
    game.refresh_from_db()
    assert game.version == 3


def play_to_the_end(game, users):
    engine_moves = 0
    while True:
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return engine_moves
        from games.engines.registry import get_engine

        engine = get_engine("toy")
        seat = engine.active_seats(game.state)[0]
        submit(game, users[seat], engine.timeout_action(game.state, seat))
        engine_moves += 1


def test_game_over_stores_the_result_and_refuses_more_moves():
    game, users = started_game(3)
    play_to_the_end(game, users)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.finished_at
    assert game.result["scores"] == game.state["scores"]
    assert game.result["winners"]
    assert not game.seats.filter(deadline_at__isnull=False).exists()
    with pytest.raises(GameNotRunning, match="over"):
        submit(game, users[0], {"type": "bank"})
    assert services.game_replay_verify(game=game)


def test_the_log_is_gapless_and_replays_to_the_stored_state():
    game, users = started_game(4)
    play_to_the_end(game, users)
    game.refresh_from_db()
    sequences = list(game.actions.values_list("sequence", flat=True))
    assert sequences == list(range(1, game.version + 1))
    assert services.game_replay_verify(game=game)
    game.state["scores"][0] += 1
    assert not services.game_replay_verify(game=game)


def test_bots_play_their_seats():
    user = UserFactory()
    game = services.game_create(creator=user, engine_slug="toy", num_players=3)
    services.game_add_bot(game_id=game.pk, user=user)
    services.game_add_bot(game_id=game.pk, user=user)
    with pytest.raises(LobbyError, match="full"):
        services.game_add_bot(game_id=game.pk, user=user)
    with committed():
        game = services.game_start(game_id=game.pk, user=user)
    human = game.seats.get(user=user).number
    # Bots bid at once (on commit, in-process here); only the human is awaited.
    game.refresh_from_db()
    assert [s.number for s in game.seats.filter(deadline_at__isnull=False)] == [human]
    assert game.actions.filter(source="bot").count() == 2
    play_to_the_end(game, {human: user})
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


def test_system_moves_skip_when_the_game_moved_on():
    game, (alice, bob) = started_game(2)
    submit(game, alice, {"type": "bid", "amount": 1})
    assert services.game_seat_move_apply(
        game_id=game.pk, seat_number=1, action={"type": "bid", "amount": 1},
        source="timeout", expected_version=0,
    ) is None
    result = services.game_seat_move_apply(
        game_id=game.pk, seat_number=1, action={"type": "bid", "amount": 1},
        source="timeout", expected_version=1,
    )
    assert result is not None and result.game.version == 2


def test_stone_age_dice_are_rolled_in_the_move_that_calls_for_them():
    """A chance step that needs no hidden coordination is resolved in the same request: no
    worker runs here (no on-commit callbacks), yet the dice are rolled and logged at once."""
    from games import selectors

    game, users = started_game(2, engine="stone_age", seed="inline-dice")
    resolved = 0
    for _ in range(60):
        game.refresh_from_db()
        mover = next(user for user in users if selectors.legal_actions_for(game, user))
        before = game.version
        result = services.game_action_submit(
            game_id=game.pk, user=mover, expected_version=before,
            action=selectors.legal_actions_for(game, mover)[0]["action"])
        game.refresh_from_db()
        assert not game.needs_resolution
        steps = list(game.actions.filter(sequence__gt=before).order_by("sequence"))
        assert steps[0].kind == ActionKind.MOVE
        assert result.outcome["version"] == game.version == steps[-1].sequence
        resolved += sum(step.kind == ActionKind.RESOLVE for step in steps)
    assert resolved >= 3


def test_seven_wonders_picks_still_wait_for_a_worker():
    from games import selectors

    game, users = started_game(3, engine="seven_wonders", seed="worker-picks")
    for user in users:
        game.refresh_from_db()
        services.game_action_submit(game_id=game.pk, user=user, expected_version=game.version,
                                    action=selectors.legal_actions_for(game, user)[0]["action"])
    game.refresh_from_db()
    assert game.needs_resolution
    assert not game.actions.filter(kind=ActionKind.RESOLVE).exists()
