"""Ratings: applied once when a game finishes (whatever runs the task how often), ties and shared
wins, bots, unrated and aborted games left out, provisional marks, the leaderboard."""

from __future__ import annotations

import pytest
from django.db import connection

from games import services, tasks
from games.engines.registry import get_engine
from games.models import Game, GameStatus, Rating, RatingApplication
from games.services import moderation, ratings
from tests.factories import UserFactory, committed, open_game
from tests.services.racing import race

pytestmark = pytest.mark.django_db


def play_out(game: Game) -> Game:
    """Plays the started toy game to its end, every seat choosing its bot move, through the
    services (follow-ups, resolutions and the rating task run as after a real commit)."""
    engine = get_engine(game.engine)
    for _ in range(200):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        seats = {seat.number: seat for seat in game.seats.select_related("user")}
        for number in engine.active_seats(game.state):
            seat = seats[number]
            if seat.user is None or seat.is_bot:
                continue
            with committed():
                services.game_action_submit(
                    game_id=game.pk, user=seat.user,
                    action=engine.bot_action(game.state, number),
                    expected_version=game.version)
            break
    raise AssertionError("the game did not finish")


def finished_game(players=2, **options) -> tuple[Game, list]:
    game, users = open_game(players, **options)
    with committed():
        services.game_start(game_id=game.pk, user=users[0])
    return play_out(game), users


def finish_with(result: dict, players: int = 3, **options) -> tuple[Game, dict]:
    """A started game marked finished with a chosen result (to test ranking rules exactly);
    returns the game and its players by seat number."""
    game, users = open_game(players, **options)
    services.game_start(game_id=game.pk, user=users[0])
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, result=result)
    by_seat = {seat.number: seat.user for seat in game.seats.select_related("user")}
    return game, by_seat


def rating(user, engine="toy") -> Rating:
    return Rating.objects.get(user=user, engine=engine)


def test_a_finished_game_updates_each_players_rating_once_on_commit():
    game, users = finished_game(2)
    application = RatingApplication.objects.get(game=game)
    assert not application.skipped and len(application.changes) == 2
    winners = set(game.result["winners"])
    by_seat = {seat.number: seat.user for seat in game.seats.all()}
    for change in application.changes:
        row = rating(by_seat[change["seat"]])
        assert row.rated_games == 1 and row.ordinal == pytest.approx(change["after"], abs=1e-3)
        assert change["before"] == pytest.approx(0.0)
        if change["seat"] in winners and len(winners) == 1:
            assert change["rank"] == 1 and row.ordinal > max(
                rating(u).ordinal for n, u in by_seat.items() if n != change["seat"])


def test_a_duplicated_task_changes_nothing():
    game, users = finished_game(2)
    before = {row.user_id: (row.mu, row.sigma, row.rated_games) for row in Rating.objects.all()}
    assert tasks.apply_game_ratings.delay(game.pk).get() is False
    assert tasks.apply_game_ratings(game.pk) is False
    assert tasks.apply_pending_ratings() == 0
    after = {row.user_id: (row.mu, row.sigma, row.rated_games) for row in Rating.objects.all()}
    assert after == before and RatingApplication.objects.filter(game=game).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_duplicated_tasks_racing_apply_once():
    game, by_seat = finish_with({"scores": [5, 3, 1], "winners": [0], "breakdown": [{}] * 3})
    outcomes = race([lambda: ratings.ratings_apply(game_id=game.pk)] * 6)
    connection.close()
    assert sorted(outcomes, key=str) == [False] * 5 + [True], outcomes
    assert RatingApplication.objects.filter(game=game).count() == 1
    assert sorted(row.rated_games for row in Rating.objects.all()) == [1, 1, 1]


def test_a_shared_win_and_a_tie_are_equal_ranks():
    game, by_seat = finish_with(
        {"scores": [9, 9, 4, 4], "winners": [0, 1], "breakdown": [{}] * 4}, players=4)
    assert ratings.ratings_apply(game_id=game.pk)
    changes = {c["seat"]: c for c in RatingApplication.objects.get(game=game).changes}
    assert [changes[n]["rank"] for n in range(4)] == [1, 1, 2, 2]
    values = [rating(by_seat[n]).ordinal for n in range(4)]
    assert values[0] == pytest.approx(values[1]) and values[2] == pytest.approx(values[3])
    assert values[0] > values[2]


def test_ranks_follow_winners_then_scores():
    # Seat 2 wins on a tie-break with fewer points than seat 0.
    result = {"scores": [10, 7, 10, 3], "winners": [2]}
    assert ratings.finishing_ranks(result, [0, 1, 2, 3]) == [2, 3, 1, 4]
    assert ratings.finishing_ranks(result, [3, 1]) == [2, 1]


def test_bot_seats_are_left_out_and_one_player_against_bots_is_unrated():
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(creator=alice, engine_slug="toy", num_players=3)
    services.game_join(game_id=game.pk, user=bob)
    services.game_add_bot(game_id=game.pk, user=alice)
    services.game_start(game_id=game.pk, user=alice)
    bot_number = game.seats.get(user__isnull=True).number
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED,
        result={"scores": [3, 3, 3], "winners": [bot_number], "breakdown": [{}] * 3})
    assert ratings.ratings_apply(game_id=game.pk)
    changes = RatingApplication.objects.get(game=game).changes
    assert {c["user_id"] for c in changes} == {alice.pk, bob.pk}
    assert Rating.objects.count() == 2

    solo = services.game_create(creator=alice, engine_slug="toy", num_players=2)
    services.game_add_bot(game_id=solo.pk, user=alice)
    services.game_start(game_id=solo.pk, user=alice)
    Game.objects.filter(pk=solo.pk).update(
        status=GameStatus.FINISHED,
        result={"scores": [1, 2], "winners": [1], "breakdown": [{}] * 2})
    assert ratings.ratings_apply(game_id=solo.pk) is False
    assert RatingApplication.objects.get(game=solo).skipped == "fewer than two rated players"
    assert rating(alice).rated_games == 1


def test_unrated_and_aborted_games_change_no_rating():
    game, users = finished_game(2, rated=False)
    assert RatingApplication.objects.get(game=game).skipped == "unrated game"
    assert not Rating.objects.exists()

    from django.contrib.auth.models import Group

    moderator = UserFactory(is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    game, users = open_game(2)
    services.game_start(game_id=game.pk, user=users[0])
    with committed():
        moderation.game_abort(game=game, moderator=moderator, reason="stalled")
    assert ratings.ratings_apply(game_id=game.pk) is False
    assert tasks.apply_pending_ratings() == 0
    assert not Rating.objects.exists() and not RatingApplication.objects.filter(game=game).exists()


def test_provisional_until_ten_rated_games_and_the_leaderboard_orders_established_first():
    alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
    for _ in range(ratings.PROVISIONAL_GAMES):
        game = services.game_create(creator=alice, engine_slug="toy", num_players=2)
        services.game_join(game_id=game.pk, user=bob)
        services.game_start(game_id=game.pk, user=alice)
        alice_seat = game.seats.get(user=alice).number
        Game.objects.filter(pk=game.pk).update(
            status=GameStatus.FINISHED,
            result={"scores": [0, 0], "winners": [alice_seat], "breakdown": [{}] * 2})
        assert ratings.ratings_apply(game_id=game.pk)
    # Carol won once against Alice; she is provisional, so she comes after both.
    game = services.game_create(creator=carol, engine_slug="toy", num_players=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=carol)
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED,
        result={"scores": [0, 0], "winners": [game.seats.get(user=carol).number],
                "breakdown": [{}] * 2})
    ratings.ratings_apply(game_id=game.pk)
    assert not ratings.rating_of(alice, "toy").provisional
    assert ratings.rating_of(carol, "toy").provisional
    assert ratings.rating_of(UserFactory(), "toy").value == 0.0
    board = list(ratings.leaderboard("toy"))
    assert [row.user for row in board] == [alice, bob, carol]
    assert board[0].ordinal > board[1].ordinal


def test_the_safety_net_applies_a_game_whose_task_was_lost():
    from datetime import timedelta

    from django.utils import timezone

    game, by_seat = finish_with({"scores": [2, 1], "winners": [0], "breakdown": [{}] * 2},
                                players=2)
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(minutes=5))
    assert tasks.apply_pending_ratings() == 1
    assert tasks.apply_pending_ratings() == 0
    assert rating(by_seat[0]).ordinal > rating(by_seat[1]).ordinal
