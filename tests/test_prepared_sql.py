"""The reads made once as SQL (config.prepared_sql) give the models the ORM gives: every
field, of the same type, the joined model and the extras, on PostgreSQL and SQLite alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from accounts.models import PersonalAccessToken, Vacation
from accounts.tokens import ALL_SCOPES, TokenInvalid, token_authenticate, token_create
from config.prepared_sql import rows_insert
from games import selectors, services
from games.engines.registry import get_engine
from games.models import ChatMessage, DeadlineOutcome, DeadlineRecord, Game, Seat
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def assert_same_model(ours, theirs, *, same_types: bool = True) -> None:
    assert type(ours) is type(theirs)
    assert not ours._state.adding and ours._state.db == theirs._state.db
    for each in type(theirs)._meta.concrete_fields:
        mine, orm = getattr(ours, each.attname), getattr(theirs, each.attname)
        assert mine == orm, each.name
        assert type(mine) is type(orm) or not same_types, each.name


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


@pytest.mark.parametrize("engine", ["stone_age", "toy"])
def test_a_moves_seats_are_the_orms(engine):
    """`services._seats_of`: every seat and player as the ORM reads them (a bot's seat too), the
    game cached as `game.seats` caches it, the flags of `services._SEAT_FLAGS` set
    (tests/services/test_seat_flags.py checks their meaning)."""
    game, users = started_game(3, engine=engine, now=T0)
    Seat.objects.filter(game=game, number=2).update(user=None, is_bot=True, reserve_left=DAY)
    Vacation.objects.create(user=users[0], starts_at=T0 - DAY, ends_at=T0 + DAY)
    read = services._seats_of(game, T0)
    orm = list(game.seats.select_related("user"))
    assert [seat.number for seat in read] == [seat.number for seat in orm] == [0, 1, 2]
    with CaptureQueriesContext(connection) as queries:
        for ours, theirs in zip(read, orm, strict=True):
            assert_same_model(ours, theirs)
            assert ours.game is game
            if theirs.user is None:  # a bot's seat
                assert ours.user is None
            else:
                assert_same_model(ours.user, theirs.user)
    assert len(queries) == 0
    assert [seat.vacation_matters for seat in read] == [True, False, False]


def test_the_locked_game_is_the_orms_and_needs_a_transaction():
    game, _ = started_game(3, engine="stone_age", now=T0)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        read = services._locked_game(game.pk)
    assert_same_model(read, Game.objects.get(pk=game.pk))
    assert isinstance(read.state, dict) and read.state == game.state
    if connection.features.has_select_for_update:
        assert queries[-1]["sql"].endswith("FOR UPDATE")
    with transaction.atomic(), pytest.raises(services.LobbyError):
        services._locked_game(game.pk + 1000)


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_outside_a_transaction_is_refused():
    game, _ = started_game(2, engine="stone_age", now=T0)
    with pytest.raises(TransactionManagementError):
        services._locked_game(game.pk)


def test_a_shown_game_is_the_orms_prefetch():
    game, users = started_game(4, engine="stone_age", now=T0)
    now = datetime.now(UTC)
    # A bot's seat, a player away now and one away later: none of them the creator's.
    creator_seat = game.seats.get(user_id=game.created_by_id).number
    bot_seat, away_seat, later_seat = [number for number in range(4) if number != creator_seat]
    Seat.objects.filter(game=game, number=bot_seat).update(user=None, is_bot=True)
    Vacation.objects.create(user=users[away_seat], starts_at=now - DAY, ends_at=now + DAY)
    Vacation.objects.create(user=users[later_seat], starts_at=now + DAY, ends_at=now + 2 * DAY)
    read = selectors.game_with_seats(game.pk)
    orm = Game.objects.prefetch_related(selectors.game_seats()).get(pk=game.pk)
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
    other, _ = started_game(2, engine="stone_age", now=T0)
    assert sorted(read.seats.filter(is_bot=False).values_list("number", flat=True)) == [
        number for number in range(4) if number != bot_seat]
    assert selectors.game_with_seats(other.pk + 1000) is None


@pytest.mark.parametrize("count", [1, 2, 20])
def test_rows_inserted_read_back_as_given(count):
    """A few rows in one statement made once, many through bulk_create: each gets its key,
    and reads back with every field as given."""
    game, users = started_game(2, engine="stone_age", now=T0)
    rows = [DeadlineRecord(user=users[index % 2], game=game, deadline_at=T0 + index * DAY,
                           outcome=DeadlineOutcome.LATE, recorded_at=T0 + DAY)
            for index in range(count)]
    rows_insert(rows)
    assert len({row.pk for row in rows}) == count and None not in {row.pk for row in rows}
    for row in rows:
        assert not row._state.adding
        # The values given stay in the row (an enum member stays one), as after bulk_create.
        assert_same_model(row, DeadlineRecord.objects.get(pk=row.pk), same_types=False)


def test_a_pages_log_and_chat_are_the_orms():
    game, users = started_game(2, engine="stone_age", now=T0)
    engine = get_engine("stone_age")
    for _ in range(4):  # four moves: a log entry each
        game.refresh_from_db()
        seat = engine.active_seats(game.state)[0]
        services.game_action_submit(game_id=game.pk, user=users[seat], action=engine.legal_actions(
            game.state, seat)[0], expected_version=game.version)
    for index in range(4):
        ChatMessage.objects.create(game=game, author=users[index % 2], body=f"message {index}")
    assert game.actions.count() >= 3
    newest = selectors.log_newest(game, 2)
    orm = list(game.actions.order_by("-sequence")[:2])
    assert [entry.sequence for entry in newest] == [entry.sequence for entry in orm]
    for ours, theirs in zip(newest, orm, strict=True):
        assert_same_model(ours, theirs)
        assert ours.game is game
    up_to = orm[-1].sequence
    assert [entry.sequence for entry in selectors.log_newest(game, 30, up_to=up_to)] == list(
        game.actions.filter(sequence__lte=up_to).order_by("-sequence")
        .values_list("sequence", flat=True))
    chat = selectors.chat_newest(game, 3)
    orm_chat = list(game.chat_messages.select_related("author").order_by("-created_at", "-id")
                    [:3])[::-1]
    assert [message.body for message in chat] == ["message 1", "message 2", "message 3"]
    with CaptureQueriesContext(connection) as queries:
        for ours, theirs in zip(chat, orm_chat, strict=True):
            assert_same_model(ours, theirs)
            assert_same_model(ours.author, theirs.author)
            assert ours.game is game
    assert len(queries) == 0
