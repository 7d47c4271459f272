"""The flags read with a game's seats (games.services.access.seats_of) agree with the models' own
rules: a player held by a suspension or ban, a vacation that can touch a seat's clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from accounts.models import Sanction, SanctionKind, Vacation, active_restriction
from games.models import Seat
from games.services.access import seats_of
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)

#: (kind, ends_at, lifted_at) of one sanction per seat, as offsets from T0.
SANCTIONS = [
    None,
    (SanctionKind.BAN, None, None),
    (SanctionKind.SUSPENSION, DAY, None),
    (SanctionKind.SUSPENSION, -DAY, None),  # over
    (SanctionKind.SUSPENSION, DAY, -DAY),  # lifted
    (SanctionKind.WARNING, None, None),
    (SanctionKind.BAN, None, -DAY),  # lifted
]


@pytest.mark.parametrize("now", [T0, T0 + 2 * DAY])
def test_the_restricted_flag_is_the_models_restriction(now):
    game, users = started_game(7, engine="caverna", now=T0)
    moderator = UserFactory()
    for user, sanction in zip(users, SANCTIONS, strict=True):
        if sanction is not None:
            kind, ends, lifted = sanction
            Sanction.objects.create(user=user, kind=kind, reason="test", created_by=moderator,
                                    ends_at=None if ends is None else T0 + ends,
                                    lifted_at=None if lifted is None else T0 + lifted)
    flags = {seat.user_id: seat.restricted for seat in seats_of(game, now)}
    expected = {user.pk: active_restriction(user, now) is not None for user in users}
    assert flags == expected
    assert sum(expected.values()) == (2 if now == T0 else 1)


def test_only_vacations_that_can_touch_a_clock_are_flagged():
    game, users = started_game(4, engine="stone_age", now=T0)
    turn_started = {seat.user_id: seat.turn_started_at
                    for seat in Seat.objects.filter(game=game)}
    now = T0 + 3 * DAY
    # Seat 0's turn runs since T0; the others have none. Over during the running turn; over
    # before now with no turn running; still to come; none at all.
    spans = [(T0 - DAY, T0 + DAY), (T0 - DAY, T0 + DAY), (now + DAY, now + 2 * DAY), None]
    for user, span in zip(users, spans, strict=True):
        if span is not None:
            Vacation.objects.create(user=user, starts_at=span[0], ends_at=span[1])
    flags = {seat.user_id: seat.vacation_matters for seat in seats_of(game, now)}
    expected = {user.pk: span is not None and span[1] > (turn_started[user.pk] or now)
                for user, span in zip(users, spans, strict=True)}
    assert flags == expected
    assert [expected[user.pk] for user in users] == [True, False, True, False]


def test_the_vacations_players_are_on_are_read_with_the_seats():
    from django.utils import timezone

    from games import selectors

    game, users = started_game(3, engine="stone_age")
    now = timezone.now()
    Vacation.objects.create(user=users[0], starts_at=now - DAY, ends_at=now + DAY)
    Vacation.objects.create(user=users[1], starts_at=now + DAY, ends_at=now + 2 * DAY)
    read = selectors.game_with_seats(game.pk)
    with_seats = selectors.vacations_now(read)
    assert with_seats == selectors.vacations_now(read, now=timezone.now())
    assert list(with_seats) == [users[0].pk]
    assert abs(with_seats[users[0].pk] - (now + DAY)) < timedelta(seconds=1)

