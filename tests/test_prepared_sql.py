"""Each statement of config.prepared_sql gives what the ORM query it stands for gives: every
field, of the same type, the joined model and the extras, on PostgreSQL and SQLite alike. The
ORM queries here are the reference: they are what the selectors and services ran before the
statements were made once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import Coalesce
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from accounts.models import PersonalAccessToken, Sanction, SanctionKind, Vacation
from accounts.tokens import ALL_SCOPES, TokenInvalid, token_authenticate, token_create
from games import selectors
from games.exceptions import LobbyError
from games.models import Game, Seat
from games.selectors.lists import away_until, game_seats
from games.services.access import locked_game, seats_of
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def assert_same_model(ours, theirs) -> None:
    assert type(ours) is type(theirs)
    assert not ours._state.adding and ours._state.db == theirs._state.db
    for each in type(theirs)._meta.concrete_fields:
        mine, orm = getattr(ours, each.attname), getattr(theirs, each.attname)
        assert mine == orm, each.name
        assert type(mine) is type(orm), each.name


def assert_same_values(ours, theirs) -> None:
    assert len(ours) == len(theirs)
    for mine, orm in zip(ours, theirs, strict=True):
        assert list(mine) == list(orm)
        assert [type(value) for value in mine] == [type(value) for value in orm]


def game_with_a_bot_and_vacations(players: int = 4):
    """A started game with a bot's seat, a player away now and one away later, none of them the
    creator; returns (game, users, bot seat, away seat)."""
    game, users = started_game(players, engine="stone_age", now=T0)
    now = datetime.now(UTC)
    creator_seat = game.seats.get(user_id=game.created_by_id).number
    bot_seat, away_seat, later_seat = [n for n in range(players) if n != creator_seat][:3]
    Seat.objects.filter(game=game, number=bot_seat).update(user=None, is_bot=True,
                                                           reserve_left=DAY)
    Vacation.objects.create(user=users[away_seat], starts_at=now - DAY, ends_at=now + DAY)
    Vacation.objects.create(user=users[later_seat], starts_at=now + DAY, ends_at=now + 2 * DAY)
    return game, users, bot_seat, away_seat


def test_the_token_read_is_the_orms():
    user = UserFactory()
    token, raw = token_create(user=user, name="client", scopes=ALL_SCOPES, via="test",
                              expires_at=datetime.now(UTC) + 30 * DAY)
    read = token_authenticate(raw)
    orm = PersonalAccessToken.objects.select_related("user").get(pk=token.pk)
    assert_same_model(read, orm)
    assert read.scopes == list(ALL_SCOPES)  # JSON, decoded as the field decodes it
    with CaptureQueriesContext(connection) as queries:
        assert_same_model(read.user, orm.user)
    assert len(queries) == 0  # the player came with the token
    with pytest.raises(TokenInvalid):
        token_authenticate(raw + "x")


def test_the_locked_game_is_the_orms_and_needs_a_transaction():
    game, _ = started_game(3, engine="stone_age", now=T0)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        read = locked_game(game.pk)
    assert_same_model(read, Game.objects.get(pk=game.pk))
    assert isinstance(read.state, dict) and read.state == game.state
    if connection.features.has_select_for_update:
        assert queries[-1]["sql"].endswith("FOR UPDATE")
    with transaction.atomic(), pytest.raises(LobbyError):
        locked_game(game.pk + 1000)


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_outside_a_transaction_is_refused():
    game, _ = started_game(2, engine="stone_age", now=T0)
    with pytest.raises(TransactionManagementError):
        locked_game(game.pk)


def orm_seats_of(game: Game, moment: datetime) -> list[Seat]:
    player = OuterRef("user_id")
    return list(Seat.objects.filter(game_id=game.pk).select_related("user").annotate(
        vacation_matters=Exists(Vacation.objects.filter(
            user_id=player, ends_at__gt=Coalesce(OuterRef("turn_started_at"), Value(moment)))),
        restricted=Exists(Sanction.objects.filter(
            Q(ends_at__isnull=True) | Q(ends_at__gt=moment), user_id=player,
            kind__in=[SanctionKind.SUSPENSION, SanctionKind.BAN], lifted_at__isnull=True)),
    ).order_by("number", "join_order"))


@pytest.mark.parametrize("engine", ["stone_age", "toy"])
def test_a_changes_seats_are_the_orms(engine):
    """`seats_of`: every seat and player as the ORM reads them (a bot's seat too), the game
    cached as `game.seats` caches it, both flags as the ORM's subqueries give them
    (tests/services/test_seat_flags.py checks their meaning)."""
    game, users = started_game(3, engine=engine, now=T0)
    Seat.objects.filter(game=game, number=2).update(user=None, is_bot=True, reserve_left=DAY)
    Vacation.objects.create(user=users[0], starts_at=T0 - DAY, ends_at=T0 + DAY)
    Sanction.objects.create(user=users[1], kind=SanctionKind.SUSPENSION, reason="test",
                            ends_at=T0 + DAY, created_by=UserFactory(is_staff=True))
    for moment in (T0, T0 + 2 * DAY):
        read, orm = seats_of(game, moment), orm_seats_of(game, moment)
        assert [seat.number for seat in read] == [seat.number for seat in orm] == [0, 1, 2]
        with CaptureQueriesContext(connection) as queries:
            for ours, theirs in zip(read, orm, strict=True):
                assert_same_model(ours, theirs)
                assert ours.game is game
                assert (ours.vacation_matters, ours.restricted) == (
                    theirs.vacation_matters, theirs.restricted)
                if theirs.user is None:  # a bot's seat
                    assert ours.user is None
                else:
                    assert_same_model(ours.user, theirs.user)
        assert len(queries) == 0
    assert [seat.restricted for seat in seats_of(game, T0)] == [False, True, False]
    assert [seat.restricted for seat in seats_of(game, T0 + 2 * DAY)] == [False] * 3


def test_a_shown_game_is_the_orms_prefetch():
    game, _, bot_seat, away_seat = game_with_a_bot_and_vacations()
    read = selectors.game_with_seats(game.pk)
    orm = Game.objects.prefetch_related(game_seats()).get(pk=game.pk)
    assert_same_model(read, orm)
    with CaptureQueriesContext(connection) as queries:
        ours, theirs = list(read.seats.all()), list(orm.seats.all())
        assert [seat.number for seat in ours] == [seat.number for seat in theirs] == [0, 1, 2, 3]
        for mine, its in zip(ours, theirs, strict=True):
            assert_same_model(mine, its)
            assert mine.game is read
            if its.user is None:
                assert mine.user is None
            else:
                assert_same_model(mine.user, its.user)
            assert mine.away_until == its.away_until
        assert read.created_by.pk == orm.created_by_id  # taken from its seat
    assert len(queries) == 0
    assert [seat.away_until is not None for seat in ours] == [n == away_seat for n in range(4)]
    # A filter on the prefetched seats reads this game's seats anew, not every game's.
    started_game(2, engine="stone_age", now=T0)
    assert sorted(read.seats.filter(is_bot=False).values_list("number", flat=True)) == [
        number for number in range(4) if number != bot_seat]
    assert selectors.game_with_seats(game.pk + 1000) is None


#: The stamp as the ORM reads it (one statement, one row per seat).
ORM_STAMP_FIELDS = (
    "version", "status", "allow_spectators", "updated_at", "engine", "rules_version",
    "created_by__username", "rating_application__id", "seats__id", "seats__number",
    "seats__user", "seats__user__username", "seats__user__display_name", "seats__is_bot",
    "seats__bot_level", "seats__deadline_at", "seats__reserve_left", "seats__timeout_count",
    "seats__resigned_at")


def test_the_stamp_is_the_orms_read():
    game, users, _, away_seat = game_with_a_bot_and_vacations()
    Seat.objects.filter(game=game, number=away_seat).update(turn_notified_at=T0)
    now = datetime.now(UTC)
    orm = list(Game.objects.filter(pk=game.pk)
               .annotate(away=away_until("seats__user", now))
               .values_list(*ORM_STAMP_FIELDS, "away", "seats__turn_notified_at")
               .order_by("seats__join_order"))
    stamp = selectors.game_stamp(game_id=game.pk, now=now)
    width = len(ORM_STAMP_FIELDS) - 11
    assert_same_values([stamp.values[0]], [orm[0][:width]])
    assert_same_values(stamp.values[1], [row[width:-1] for row in orm])
    assert stamp.version == game.version
    assert stamp.vacations == {row[width + 2]: row[-2] for row in orm if row[-2] is not None}
    assert set(stamp.vacations) == {users[away_seat].pk}
    assert stamp.notified == frozenset(row[width + 2] for row in orm
                                       if row[-1] is not None and row[width + 2] is not None)
    assert users[away_seat].pk in stamp.notified
    assert stamp.seated == {row[width + 2]: row[width + 1] for row in orm
                            if row[width + 2] is not None}
    assert selectors.game_stamp(game_id=game.pk + 1000) is None


def test_the_polls_read_is_the_orms():
    game, _, bot_seat, _ = game_with_a_bot_and_vacations()
    orm = list(Game.objects.filter(pk=game.pk).values_list(
        "version", "status", "allow_spectators", "seats__id", "seats__user"))
    (version, status, allow_spectators), seated = selectors.game_version_and_seats(game.pk)
    assert_same_values([(version, status, allow_spectators)], [orm[0][:3]])
    assert sorted(seated, key=str) == sorted((row[4] for row in orm), key=str)
    assert seated.count(None) == 1  # the bot's seat
    assert selectors.game_version_and_seats(game.pk + 1000) is None

