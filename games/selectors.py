"""Read-only queries for games: lists for the lobby and the API, what a user may see."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from games.engines.registry import get_engine
from games.models import Game, GameInvitation, GameStatus, InvitationStatus, Seat
from games.names import seat_names
from games.texts import english_text, view_texts


def visible_to(user) -> Q:
    """The games `user` may see listed (the same rule as `can_view`): games open to spectators,
    their own games, and private games they were invited to while those are open."""
    public = Q(allow_spectators=True)
    if user is None or not user.is_authenticated:
        return public
    pending = (GameInvitation.objects.filter(invitee=user)
               .exclude(status=InvitationStatus.DECLINED).values("game_id"))
    invited = Q(status=GameStatus.OPEN, pk__in=pending)
    return public | Q(seats__user=user) | invited


def game_list(*, user=None, status: str | None = None, mine: bool = False,
              awaiting_me: bool = False) -> QuerySet[Game]:
    """Games for a listing. With `user` (anonymous included), only those that user may see;
    without, every game (callers then check `can_view` on the one they fetch)."""
    games = Game.objects.all().prefetch_related("seats__user").select_related("created_by")
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


def seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


def viewer_seat_number(game: Game, user) -> int | None:
    seat = seat_of(game, user)
    return seat.number if seat is not None else None


def can_view(game: Game, user) -> bool:
    """Anyone, when spectators are allowed; otherwise the players, and while the game is open
    the people they invited (so that they can join)."""
    if game.allow_spectators or seat_of(game, user) is not None:
        return True
    return (game.status == GameStatus.OPEN and user is not None and user.is_authenticated
            and game.invitations.filter(invitee=user)
            .exclude(status=InvitationStatus.DECLINED).exists())


def game_view_for(game: Game, user, *, language: str | None = None) -> dict[str, Any] | None:
    """The engine's view of the state for this user (their seat's, or a spectator's), its texts
    read in `language` (default: the user's chosen one, else the active one), players named."""
    if game.state is None:
        return None
    view = get_engine(game.engine).view(game.state, viewer_seat_number(game, user))
    chosen = (getattr(user, "language", "") if user is not None and user.is_authenticated
              else "")
    return view_texts(game.engine, view, language=language or chosen or None,
                      names=seat_names(game))


def legal_actions_for(game: Game, user) -> list[dict[str, Any]]:
    """The user's legal actions, each with its `describe` text (English) and the same as a
    message key with parameters (`text`, for the reader's language), in the engine's order."""
    seat = seat_of(game, user)
    if seat is None or seat.is_bot or game.status != GameStatus.ACTIVE:
        return []
    engine = get_engine(game.engine)
    listed = []
    for index, action in enumerate(engine.legal_actions(game.state, seat.number)):
        text = engine.describe_text(game.state, seat.number, action, viewer=seat.number)
        listed.append({"index": index, "action": action,
                       "description": english_text(engine, text), "text": text})
    return listed


def awaiting_seats(game: Game) -> list[int]:
    return [seat.number for seat in game.seats.all() if seat.deadline_at is not None]


def game_awaiting_filter(user) -> Q:
    return Q(seats__user=user, seats__deadline_at__isnull=False, status=GameStatus.ACTIVE)


def vacations_now(game: Game, now=None) -> dict[int, Any]:
    """user id -> end of the vacation they are on now, for the players of this game."""
    from django.utils import timezone

    from accounts.models import Vacation

    now = now or timezone.now()
    user_ids = [seat.user_id for seat in game.seats.all() if seat.user_id]
    return dict(
        Vacation.objects.filter(user_id__in=user_ids, starts_at__lte=now, ends_at__gt=now)
        .values_list("user_id", "ends_at")
    )


def user_by_login(login: str):
    """A player by username or email (case-insensitive), or None."""
    from accounts.models import User

    login = login.strip()
    field = "email__iexact" if "@" in login else "username__iexact"
    return User.objects.filter(**{field: login}, is_active=True).first()


def legal_actions_at_version(game: Game, user, version: int) -> list[dict[str, Any]] | None:
    """The user's legal actions (as `legal_actions_for`) as they were when the game stood at
    `version`, rebuilt from the log; None when that version is unknown. Play by email uses it to
    tell whether a reply to an older email still means the same move."""
    from games.undo import state_at

    seat = seat_of(game, user)
    if seat is None or seat.number is None or not 0 <= version <= game.version:
        return None
    engine = get_engine(game.engine)
    state = state_at(engine, game, version)
    return [
        {"index": index, "action": action,
         "description": engine.describe(state, seat.number, action, viewer=seat.number)}
        for index, action in enumerate(engine.legal_actions(state, seat.number))
    ]
