"""What a user may see and do of a game: `game_access` for one game, `visible_to` for listings."""

from __future__ import annotations

from functools import cached_property

from django.db.models import Q

from games.models import Game, GameInvitation, GameStatus, InvitationStatus, Seat


class GameAccess:
    """One user's standing in one game, read from the game's prefetched seats; the invitations
    are asked only when the seats do not settle whether the game may be seen."""

    def __init__(self, user, game: Game) -> None:
        self.user, self.game = user, game
        signed_in = user is not None and user.is_authenticated
        self.seat: Seat | None = next(
            (seat for seat in game.seats.all() if seat.user_id == user.pk), None
        ) if signed_in else None

    @property
    def seat_number(self) -> int | None:
        return self.seat.number if self.seat is not None else None

    @property
    def plays(self) -> bool:
        """Seated and playing the seat themselves (not handed to a bot)."""
        return self.seat is not None and not self.seat.is_bot

    @cached_property
    def may_view(self) -> bool:
        """Anyone, when spectators are allowed; otherwise the players, and while the game is
        open the people they invited (so that they can join)."""
        game, user = self.game, self.user
        if game.allow_spectators or self.seat is not None:
            return True
        return (game.status == GameStatus.OPEN and user is not None and user.is_authenticated
                and game.invitations.filter(invitee=user)
                .exclude(status=InvitationStatus.DECLINED).exists())


def game_access(user, game: Game) -> GameAccess:
    """What `user` (anonymous or None included) may see and do of `game`."""
    return GameAccess(user, game)


def visible_to(user) -> Q:
    """The games `user` may see listed (the rule of `GameAccess.may_view`): games open to
    spectators, their own games, and private games they were invited to while those are open."""
    public = Q(allow_spectators=True)
    if user is None or not user.is_authenticated:
        return public
    pending = (GameInvitation.objects.filter(invitee=user)
               .exclude(status=InvitationStatus.DECLINED).values("game_id"))
    invited = Q(status=GameStatus.OPEN, pk__in=pending)
    return public | Q(seats__user=user) | invited


def seat_of(game: Game, user) -> Seat | None:
    return game_access(user, game).seat


def viewer_seat_number(game: Game, user) -> int | None:
    return game_access(user, game).seat_number


def can_view(game: Game, user) -> bool:
    return game_access(user, game).may_view


def sight_of(watchers: set[tuple[int, int | None]]) -> dict[tuple[int, int | None], int | None]:
    """For many (game id, user id or None) pairs at once (the open streams of a process, checked
    every few seconds), the pairs whose user may still see the game (the rule of
    `GameAccess.may_view`), each with the user's seat number (None if not seated); a pair that
    may no longer see it is absent. Three queries at most, whatever the number of pairs."""
    game_ids = {game_id for game_id, _ in watchers}
    user_ids = {user_id for _, user_id in watchers if user_id is not None}
    games = dict((pk, (public, status)) for pk, public, status in Game.objects.filter(
        pk__in=game_ids).values_list("pk", "allow_spectators", "status"))
    seats = {(game_id, user_id): number for game_id, user_id, number in Seat.objects.filter(
        game_id__in=game_ids, user_id__in=user_ids).values_list("game_id", "user_id", "number")
    } if user_ids else {}
    private_open = {pk for pk, (public, status) in games.items()
                    if not public and status == GameStatus.OPEN}
    invited = set(GameInvitation.objects.filter(
        game_id__in=private_open, invitee_id__in=user_ids).exclude(
        status=InvitationStatus.DECLINED).values_list("game_id", "invitee_id")
    ) if private_open and user_ids else set()
    sight = {}
    for pair in watchers:
        if pair[0] not in games:
            continue
        public = games[pair[0]][0]
        if public or pair in seats or pair in invited:
            sight[pair] = seats.get(pair)
    return sight
