"""Test data factories."""

import factory
from django.contrib.auth import get_user_model

PASSWORD = "a-Long-test-passw0rd"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    # Every turn email at once, as before grace periods: tests of other things move and read the
    # next email straight away; tests of the grace period (tests/notifications/test_grace.py)
    # set it.
    turn_email_grace_minutes = 0
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(user, create, extracted, **kwargs):
        if create:
            user.save()


def confirm_email(user):
    """The player followed the confirmation link (the token login needs it where the site asks
    for confirmed addresses)."""
    from allauth.account.models import EmailAddress

    EmailAddress.objects.update_or_create(user=user, email=user.email,
                                          defaults={"verified": True, "primary": True})
    return user


def committed():
    """Runs the on-commit follow-ups (resolution, bot moves, deliveries) as a real commit would."""
    from django.test import TestCase

    return TestCase.captureOnCommitCallbacks(execute=True)


def open_game(players=2, *, engine="toy", make_user=None, **options):
    """A game of `engine` created by the first of `players` new users, the others joined."""
    from games import services

    users = [(make_user or UserFactory)() for _ in range(players)]
    game = services.game_create(creator=users[0], engine_slug=engine, num_players=players,
                                **options)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    return game, users


def started_game(players=2, *, engine="toy", make_user=None, seed=None, now=None, **options):
    """An open game started with its follow-ups run; returns (game, users by seat number).
    `seed` fixes the game's RNG (reproducible games); `now` is the start time."""
    from games import services

    game, users = open_game(players, engine=engine, make_user=make_user, **options)
    if seed is not None:
        type(game).objects.filter(pk=game.pk).update(seed=seed)
    with committed():
        game = services.game_start(game_id=game.pk, user=users[0],
                                   **({"now": now} if now else {}))
    by_seat = {seat.number: seat.user for seat in game.seats.all()}
    return game, [by_seat[number] for number in range(players)]


def started_against_bots(players, *, engine, level="easy"):
    """A game of one person against `players - 1` bots of `level`, started with none of its
    follow-ups run (the test plays the bots' tasks itself); returns (game, the person)."""
    from django.test import TestCase

    from games import services

    user = UserFactory()
    game = services.game_create(creator=user, engine_slug=engine, num_players=players)
    for _ in range(players - 1):
        services.game_add_bot(game_id=game.pk, user=user, level=level)
    with TestCase.captureOnCommitCallbacks(execute=False):
        game = services.game_start(game_id=game.pk, user=user)
    return game, user
