"""Games for listings (the lobby, the API's lists), with their seats and players."""

from __future__ import annotations

from datetime import datetime
from operator import attrgetter

from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils import timezone

from games.models import Game, GameStatus, Seat
from games.selectors.access import visible_to

#: `Seat.Meta.ordering` within one game.
SEAT_ORDER = attrgetter("number", "join_order")


def away_until(user: str, now: datetime) -> Subquery:
    """The end of the vacation the player `user` (a field of the outer query) is on at `now`
    (vacations never overlap: at most one)."""
    from accounts.models import Vacation

    return Subquery(Vacation.objects.filter(user=OuterRef(user), starts_at__lte=now,
                                            ends_at__gt=now)
                    .order_by("-starts_at").values("ends_at")[:1])


def game_seats() -> Prefetch:
    """A game's seats with their players, in one query for any number of games, each with the
    end of the vacation its player is on now (`away_until`, for `vacations_now`). Ordered as
    `Seat.Meta.ordering` is within a game, without its join to the game for the game's own
    ordering."""
    seats = Seat.objects.select_related("user").annotate(
        away_until=away_until("user", timezone.now()))
    return Prefetch("seats", queryset=seats.order_by("number", "join_order"))


def game_list(*, user=None, status: str | None = None, mine: bool = False,
              awaiting_me: bool = False) -> QuerySet[Game]:
    """Games for a listing. With `user` (anonymous included), only those that user may see;
    without, every game (callers then check `game_access` on the one they fetch)."""
    games = Game.objects.all().prefetch_related(game_seats()).select_related("created_by")
    if user is not None:
        games = games.filter(visible_to(user))
    if status:
        games = games.filter(status=status)
    if (mine or awaiting_me) and (user is None or not user.is_authenticated):
        return games.none()
    if mine:
        games = games.filter(seats__user=user)
    if awaiting_me:
        games = games.filter(
            status=GameStatus.ACTIVE, seats__user=user, seats__deadline_at__isnull=False
        )
    return games.distinct()


def game_list_open(*, user=None) -> QuerySet[Game]:
    games = game_list(user=user, status=GameStatus.OPEN)
    if user is not None and user.is_authenticated:
        games = games.exclude(seats__user=user)
    return games


def game_awaiting_filter(user) -> Q:
    return Q(seats__user=user, seats__deadline_at__isnull=False, status=GameStatus.ACTIVE)


def user_by_login(login: str):
    """A player by username or email (case-insensitive), or None."""
    from accounts.models import User

    login = login.strip()
    field = "email__iexact" if "@" in login else "username__iexact"
    return User.objects.filter(**{field: login}, is_active=True).first()
