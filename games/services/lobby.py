"""The lobby: a game created, joined (by anyone allowed, or with its invite link), filled with
bots, left, started, and played again as a rematch."""

from __future__ import annotations

import math
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.templatetags.language_tags import localized_digits
from games.engines import bots
from games.engines.base import InvalidOptions, SeededRandom
from games.exceptions import InvalidGameSetup, LobbyError, NotAllowed
from games.models import (
    DEFAULT_MAX_CONSECUTIVE_TIMEOUTS,
    MAX_RESERVE,
    MAX_TIME_PER_MOVE,
    MIN_TIME_PER_MOVE,
    Game,
    GameInvitation,
    GameStatus,
    InvitationStatus,
    Seat,
)
from games.presentation.texts import reason_text
from games.presentation.titles import engine_name
from games.presentation.visible_text import visible_text
from games.services.access import (
    engine_for,
    engine_guard,
    locked_game,
    now_or,
    require_playable,
    require_unrestricted,
    transition,
)
from games.services.autoplay import after_change
from games.services.ratings import rating_of
from games.services.reliability import reliability_of
from games.services.writes import emit

GAME_NAME_MAX_LENGTH = 80


def game_create(
    *,
    creator,
    engine_slug: str,
    num_players: int,
    options: dict[str, Any] | None = None,
    time_per_move: timedelta | None = None,
    reserve: timedelta | None = None,
    max_consecutive_timeouts: int = DEFAULT_MAX_CONSECUTIVE_TIMEOUTS,
    allow_spectators: bool = True,
    name: str = "",
    rated: bool = True,
    start_when_full: bool = False,
    min_reliability: int | None = None,
    min_rating: float | None = None,
    rematch_of: Game | None = None,
) -> Game:
    """A new open game with the creator in the first seat."""
    require_unrestricted(creator)
    name = visible_text(name or "")
    if len(name) > GAME_NAME_MAX_LENGTH:
        raise InvalidGameSetup(gettext(
            "A game name can be at most %(game_name_max_length)s characters.")
                                   % {"game_name_max_length": GAME_NAME_MAX_LENGTH})
    if min_reliability is not None and not 1 <= min_reliability <= 100:
        raise InvalidGameSetup(gettext("A minimum reliability is a percentage from 1 to 100."))
    if min_rating is not None and not (math.isfinite(min_rating) and -100 <= min_rating <= 100):
        raise InvalidGameSetup(gettext("A minimum rating must be between -100 and 100."))
    engine = engine_for(engine_slug)
    try:
        normalised = engine.validate_options(num_players, options)
    except InvalidOptions as error:
        raise InvalidGameSetup(reason_text(engine.slug, error)) from None
    time_per_move = time_per_move or timedelta(days=1)
    if not MIN_TIME_PER_MOVE <= time_per_move <= MAX_TIME_PER_MOVE:
        raise InvalidGameSetup(gettext("The time per move must be between 1 hour and 14 days."))
    reserve = reserve or timedelta(0)
    if not timedelta(0) <= reserve <= MAX_RESERVE:
        raise InvalidGameSetup(gettext("The reserve must be between 0 and 30 days."))
    if not 1 <= max_consecutive_timeouts <= 10:
        raise InvalidGameSetup(gettext("A bot may take over after 1 to 10 timeouts in a row."))
    with transaction.atomic():
        game = Game.objects.create(
            engine=engine.slug,
            rules_version=engine.rules_version,
            options=normalised,
            num_players=num_players,
            seed=secrets.token_hex(32),
            created_by=creator,
            time_per_move=time_per_move,
            reserve=reserve,
            max_consecutive_timeouts=max_consecutive_timeouts,
            allow_spectators=allow_spectators,
            name=name,
            rated=rated,
            start_when_full=start_when_full,
            min_reliability=min_reliability,
            min_rating=min_rating,
            rematch_of=rematch_of,
        )
        Seat.objects.create(game=game, user=creator, join_order=0)
    return game



def join_refusal(game: Game, user, *, via_link: bool = False) -> str | None:
    """Why `user` may not take a seat in this game, or None. Private games (no spectators)
    take only the players invited by name or holding its invite link; the minimum reliability
    and rating the creator asked for apply to everyone not invited by name."""
    invited = game.invitations.filter(invitee=user).exclude(
        status=InvitationStatus.DECLINED).exists()
    if invited:
        return None
    if not game.allow_spectators and not via_link:
        return gettext("This game is private: only the players invited to it can join.")
    return requirement_refusal(game, user)


def requirement_refusal(game: Game, user) -> str | None:
    if game.min_reliability is not None:
        record = reliability_of(user)
        if record.percent is None:
            return gettext("This game asks for a reliability of at least %(percent)s%%, and "
                           "you have no deadlines on record yet.") % {
                "percent": localized_digits(game.min_reliability)}
        if record.percent < game.min_reliability:
            return gettext("This game asks for a reliability of at least %(percent)s%%; yours "
                           "is %(yours)s%% over your last %(deadlines)s deadlines.") % {
                "percent": localized_digits(game.min_reliability),
                "yours": localized_digits(record.percent),
                "deadlines": localized_digits(record.deadlines)}
    if game.min_rating is not None:
        rating = rating_of(user, game.engine)
        if rating.value < game.min_rating:
            return gettext("This game asks for a %(game)s rating of at least %(rating)s; yours "
                           "is %(yours)s.") % {
                "game": engine_name(game.engine),
                "rating": localized_digits(f"{game.min_rating:.1f}"),
                "yours": localized_digits(f"{rating.value:.1f}")}
    return None


def game_join(*, game_id: int, user, via_link: bool = False,
              now: datetime | None = None) -> Game:
    """Takes a seat in an open game. `via_link`: the player holds the game's signed invite
    link, which opens a private game to them (the minimum requirements still apply)."""
    require_unrestricted(user)
    now = now_or(now)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("This game has already started; it cannot be joined."))
        seats = list(game.seats.all())
        if any(seat.user_id == user.pk for seat in seats):
            raise LobbyError(gettext("You already have a seat in this game."))
        if len(seats) >= game.num_players:
            raise LobbyError(gettext("This game is full."))
        refusal = join_refusal(game, user, via_link=via_link)
        if refusal:
            raise NotAllowed(refusal)
        try:
            with transaction.atomic():
                Seat.objects.create(
                    game=game, user=user, join_order=max(s.join_order for s in seats) + 1
                )
        except IntegrityError:
            raise LobbyError(gettext("You already have a seat in this game.")) from None
        invitation = game.invitations.filter(invitee=user).first()
        if invitation is not None and invitation.status != InvitationStatus.ACCEPTED:
            invitation.status, invitation.responded_at = InvitationStatus.ACCEPTED, now
            invitation.save(update_fields=["status", "responded_at"])
            emit(game.pk, "invitation_answered", [], inviter_id=invitation.inviter_id,
                 invitee_id=user.pk, accepted=True)
        game.save(update_fields=["updated_at"])
        emit(game.pk, "joined")
        _when_full(game, now)
    return game


def _when_full(game: Game, now: datetime) -> None:
    """The last seat was just taken: start the game if its creator asked for that, otherwise
    tell the creator it is full."""
    if game.seats.count() < game.num_players:
        return
    if game.start_when_full:
        _start_locked(game, now)
    else:
        emit(game.pk, "game_full", [], creator_id=game.created_by_id)


def game_add_bot(*, game_id: int, user, level: str = bots.DEFAULT_LEVEL) -> Game:
    """The creator fills an open seat with a bot of `level` ("search", "hard" or "easy")."""
    if level not in bots.LEVELS:
        raise InvalidGameSetup(gettext("A bot plays at one of these levels: %(value)s.")
                                   % {"value": ', '.join(bots.LEVELS)},
                               details={"level": level})
    with transaction.atomic():
        game = locked_game(game_id)
        if game.created_by_id != user.pk:
            raise NotAllowed(gettext("Only the player who created the game can add bots."))
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("Bots can only be added before the game starts."))
        seats = list(game.seats.all())
        if len(seats) >= game.num_players:
            raise LobbyError(gettext("This game is full."))
        Seat.objects.create(
            game=game, user=None, is_bot=True, bot_level=level,
            join_order=max(s.join_order for s in seats) + 1,
        )
        game.save(update_fields=["updated_at"])
        if game.start_when_full and len(seats) + 1 >= game.num_players:
            _start_locked(game, timezone.now())
    return game


def game_leave(*, game_id: int, user) -> Game:
    """Leave an open game. The last one out aborts it; the creator's role passes on."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("You can only leave a game before it starts."))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise LobbyError(gettext("You do not have a seat in this game."))
        seat.delete()
        humans = game.seats.filter(user__isnull=False).order_by("join_order")
        if not humans.exists():
            game.seats.all().delete()
            transition(game, GameStatus.ABORTED)
        elif game.created_by_id == user.pk:
            game.created_by = humans.first().user
        game.save()
        emit(game.pk, "left")
    return game


def game_start(*, game_id: int, user, now: datetime | None = None) -> Game:
    """The creator starts the game: seat order shuffled from the seed, the engine sets up."""
    now = now_or(now)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.created_by_id != user.pk:
            raise NotAllowed(gettext("Only the player who created the game can start it."))
        if game.status != GameStatus.OPEN:
            raise LobbyError(gettext("This game has already started."))
        _start_locked(game, now)
    return game


def _start_locked(game: Game, now: datetime) -> None:
    """Starts the locked open game: seat order shuffled from the seed, the engine sets up."""
    engine = engine_for(game.engine)
    seats = list(game.seats.order_by("join_order"))
    if len(seats) < engine.min_players:
        raise LobbyError(
            gettext("%(engine_name)s needs at least %(engine_min_players)s players; "
            "%(len)s have joined.")
                % {"engine_name": engine_name(engine.slug),
                   "engine_min_players": localized_digits(engine.min_players),
                   "len": localized_digits(len(seats))}
        )
    if len(seats) != game.num_players:
        # Starting early with fewer players than planned: the options must fit that count.
        try:
            game.options = engine.validate_options(len(seats), game.options)
        except InvalidOptions as error:
            raise LobbyError(reason_text(engine.slug, error)) from None
        game.num_players = len(seats)
    order = SeededRandom(f"{game.seed}:seating").shuffled(list(range(len(seats))))
    for seat, number in zip(seats, order, strict=True):
        seat.number = number
        seat.save(update_fields=["number"])
    with engine_guard(game, "new_game"):
        try:
            game.state = engine.new_game_at_version(
                game.num_players, game.seed, game.options, game.rules_version)
        except InvalidOptions as error:
            raise LobbyError(reason_text(engine.slug, error)) from None
    require_playable(game, engine, "new_game")
    transition(game, GameStatus.ACTIVE)
    game.started_at = now
    for seat in seats:
        seat.reserve_left = game.reserve
        seat.save(update_fields=["reserve_left"])
    # One "game started" notice tells the first seats it is their move, too.
    awaiting = after_change(game, engine, now, acted_seat=None, announce_turns=False)
    emit(game.pk, "started", list(range(game.num_players)), awaiting=awaiting)


def game_rematch(*, game_id: int, user, now: datetime | None = None) -> Game:
    """A player of a finished game offers its players a new game with the same options: the
    offering player is seated, bot seats are filled again, every other player is invited, and
    the game starts when the last one accepts. One rematch per game: asking again (by anyone)
    returns the one already offered."""
    now = now_or(now)
    require_unrestricted(user)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.FINISHED:
            raise LobbyError(gettext("Only a finished game can be played again."))
        seats = list(game.seats.order_by("number", "join_order"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise NotAllowed(gettext("Only the players of this game can offer a rematch."))
        existing = Game.objects.filter(rematch_of=game).first()
        if existing is not None:
            return existing
        rematch = game_create(
            creator=user, engine_slug=game.engine, num_players=game.num_players,
            options=game.options, time_per_move=game.time_per_move, reserve=game.reserve,
            max_consecutive_timeouts=game.max_consecutive_timeouts,
            allow_spectators=game.allow_spectators, name=game.name, rated=game.rated,
            start_when_full=True, rematch_of=game,
        )
        order = 1
        for seat in seats:
            if seat.user_id is None:
                Seat.objects.create(game=rematch, user=None, is_bot=True, join_order=order)
                order += 1
            elif seat.user_id != user.pk:
                GameInvitation.objects.create(game=rematch, invitee_id=seat.user_id,
                                              inviter=user, created_at=now)
                emit(rematch.pk, "invitation", [], invitee_id=seat.user_id,
                     inviter_id=user.pk, rematch_of=game.pk)
        locked_game(rematch.pk)
        _when_full(rematch, now)
    return rematch
