"""Read-only queries for games: lists for the lobby and the API, what a user may see."""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC
from operator import attrgetter
from typing import Any

from django.db import connection, connections
from django.db.models import DateTimeField, Prefetch, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone, translation

from config.prepared_sql import PreparedRead
from games.engines.registry import get_engine
from games.models import (
    Action,
    ChatMessage,
    Game,
    GameInvitation,
    GameStatus,
    InvitationStatus,
    Seat,
)
from games.presentation.names import seat_names
from games.presentation.texts import english_text, render_text, view_texts


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


#: The end of the vacation a seat's player is on at a moment (vacations never overlap).
_AWAY_UNTIL = ("(SELECT MAX(v.ends_at) FROM accounts_vacation v WHERE v.user_id = "
               "games_seat.user_id AND v.starts_at <= %s AND v.ends_at > %s)")


#: `Seat.Meta.ordering` within one game.
SEAT_ORDER = attrgetter("number", "join_order")


def game_seats() -> Prefetch:
    """A game's seats with their players, in one query for any number of games, each with the
    end of the vacation its player is on now (`away_until`, for `vacations_now`). Ordered as
    `Seat.Meta.ordering` is within a game, without its join to the game for the game's own
    ordering."""
    now = connections[Seat.objects.db].ops.adapt_datetimefield_value(timezone.now())
    seats = Seat.objects.select_related("user").annotate(
        away_until=RawSQL(_AWAY_UNTIL, [now, now], output_field=DateTimeField()))
    return Prefetch("seats", queryset=seats.order_by("number", "join_order"))


def game_list(*, user=None, status: str | None = None, mine: bool = False,
              awaiting_me: bool = False) -> QuerySet[Game]:
    """Games for a listing. With `user` (anonymous included), only those that user may see;
    without, every game (callers then check `can_view` on the one they fetch)."""
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


#: A shown game's two reads (`game_with_seats`).
_GAME_READ = PreparedRead(Game, where="{table}.id = %s")
_SHOWN_SEATS_READ = PreparedRead(Seat, join="user", where="{table}.game_id = %s",
                                 extra={"away_until": (_AWAY_UNTIL, DateTimeField())})


def game_with_seats(game_id: int) -> Game | None:
    """One game with its creator and its seats with their players, for showing it: two
    statements made once (`game_list` is for listings: DISTINCT over every column, the state
    included). The seats are the game's prefetched `seats`, in seat order, each with
    `away_until` as `game_seats` gives it."""
    game = _GAME_READ.first([game_id])
    if game is None:
        return None
    now = connections[Seat.objects.db].ops.adapt_datetimefield_value(timezone.now())
    seats = _SHOWN_SEATS_READ.rows([now, now, game_id], known={"game": game})
    seats.sort(key=SEAT_ORDER)
    # As prefetch_related leaves them: `game.seats.all()` is this list, a filter reads anew.
    related = game.seats.get_queryset()
    related._result_cache, related._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": related}
    # The creator is nearly always seated: taken from the seats, the game's read needs no join.
    # One who left is read when asked for.
    creator = next((seat.user for seat in seats if seat.user_id == game.created_by_id), None)
    if creator is not None:
        game.created_by = creator
    return game


_VERSION_SQL = (f"SELECT version, status, allow_spectators FROM {Game._meta.db_table} "
                "WHERE id = %s")
_SEATED_SQL = f"SELECT user_id FROM {Seat._meta.db_table} WHERE game_id = %s"


def game_version_and_seats(game_id: int) -> tuple[tuple[int, str, bool], list] | None:
    """A game's (version, status, allow_spectators) and its seats' player ids (None for a bot's
    seat), or None for no such game: what the page's poll reads, as two plain statements."""
    with connections[Game.objects.db].cursor() as cursor:
        cursor.execute(_VERSION_SQL, [game_id])
        row = cursor.fetchone()
        if row is None:
            return None
        cursor.execute(_SEATED_SQL, [game_id])
        seated = [user_id for (user_id,) in cursor.fetchall()]
    version, status, allow_spectators = row
    return (version, status, bool(allow_spectators)), seated


#: A game page's newest log entries (all, or up to a past version) and chat messages.
_LOG_READ = PreparedRead(
    Action, where="{table}.game_id = %s ORDER BY {table}.sequence DESC LIMIT %s")
_LOG_READ_UP_TO = PreparedRead(Action, where=(
    "{table}.game_id = %s AND {table}.sequence <= %s ORDER BY {table}.sequence DESC LIMIT %s"))
_CHAT_READ = PreparedRead(ChatMessage, join="author", where=(
    "{table}.game_id = %s ORDER BY {table}.created_at DESC, {table}.id DESC LIMIT %s"))


def log_newest(game: Game, count: int, *, up_to: int | None = None) -> list[Action]:
    """The game's `count` newest log entries, newest first (`up_to`: at or before that
    sequence number)."""
    if up_to is None:
        return _LOG_READ.rows([game.pk, count], known={"game": game})
    return _LOG_READ_UP_TO.rows([game.pk, up_to, count], known={"game": game})


def chat_newest(game: Game, count: int) -> list[ChatMessage]:
    """The game's `count` newest chat messages with their authors, oldest first."""
    return _CHAT_READ.rows([game.pk, count], known={"game": game})[::-1]


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
    chosen = (getattr(user, "language", "") if user is not None and user.is_authenticated
              else "")
    return rendered_view(game, viewer_seat_number(game, user), language=language or chosen or None,
                         names=seat_names(game))


#: Rendered views by game, version, last write, seat, language and players' names, as JSON:
#: a game is read many times between two moves (every page load and API read of each player
#: and spectator), and its view at a version never changes. The last write (`updated_at`) keeps
#: a view made from a change that was rolled back from being taken for the one committed later.
_VIEWS: OrderedDict[tuple, str] = OrderedDict()
_VIEWS_LOCK = threading.Lock()
VIEWS_KEPT = 256


def rendered_view(game: Game, seat: int | None, *, language: str | None,
                  names: dict[int, str]) -> dict[str, Any]:
    """The engine's view of the game's current state for `seat` (None: a spectator's), its
    texts read in `language` (default: the active one), players named by `names`. A fresh
    object each time (callers may change it)."""
    language = language or translation.get_language() or "en"
    key = (game.pk, game.version, game.updated_at, game.rules_version, seat, language,
           tuple(sorted(names.items())))
    with _VIEWS_LOCK:  # requests run in threads of their own
        kept = _VIEWS.get(key)
        if kept is not None:
            _VIEWS.move_to_end(key)
    if kept is not None:
        return json.loads(kept)
    view = view_texts(game.engine, get_engine(game.engine).view(game.state, seat),
                      language=language, names=names)
    if game.pk is not None:
        kept = json.dumps(view)
        with _VIEWS_LOCK:
            _VIEWS[key] = kept
            if len(_VIEWS) > VIEWS_KEPT:
                _VIEWS.popitem(last=False)
    return view


def legal_actions_for(game: Game, user, *, language: str | None = None) -> list[dict[str, Any]]:
    """The user's legal actions, each with its `describe` text (English, or in `language`) and
    the same as a message key with parameters (`text`), in the engine's order."""
    seat = seat_of(game, user)
    if seat is None or seat.is_bot or game.status != GameStatus.ACTIVE:
        return []
    engine = get_engine(game.engine)
    listed = []
    for index, action in enumerate(engine.legal_actions(game.state, seat.number)):
        text = engine.describe_text(game.state, seat.number, action, viewer=seat.number)
        description = (render_text(game.engine, text, language=language) if language
                       else english_text(engine, text))
        listed.append({"index": index, "action": action, "description": description,
                       "text": text})
    return listed


#: What a game's API answers show apart from its state (which `version` stands for): the game's
#: own fields that can change, and each seat's player, clock and standing, as (table alias,
#: field) pairs: g the game, c its creator, r its rating application, s a seat, u its player.
STAMP_GAME_FIELDS = (("g", "version"), ("g", "status"), ("g", "allow_spectators"),
                     ("g", "updated_at"), ("g", "engine"), ("g", "rules_version"),
                     ("c", "username"), ("r", "id"))
STAMP_SEAT_FIELDS = (("s", "id"), ("s", "number"), ("s", "user"), ("u", "username"),
                     ("u", "display_name"), ("s", "is_bot"), ("s", "bot_level"),
                     ("s", "deadline_at"), ("s", "reserve_left"), ("s", "timeout_count"),
                     ("s", "resigned_at"))


@dataclass(frozen=True)
class GameStamp:
    """A game's validator: everything its API answers depend on besides the viewer, read in one
    statement without the state. `values` changes whenever an answer may (a move through
    `version`, a join, a clock, a player's name, a vacation starting, the ratings applied)."""

    game_id: int
    engine: str
    status: str
    allow_spectators: bool
    values: tuple
    #: user id -> seat number (None before the game starts), for every seated player.
    seated: dict[int, int | None]
    #: users whose seat was told "your turn" since they last opened the game.
    notified: frozenset[int]
    #: user id -> end of the vacation they are on now (as `vacations_now`).
    vacations: dict[int, Any]

    def viewer_seat(self, user) -> int | None:
        return self.seated.get(user.pk) if user is not None and user.is_authenticated else None

    def shown_without_invitation(self, user) -> bool:
        """`can_view` as far as this row tells: spectators allowed or the viewer seated. False
        also for an invited player of a private game (the full path asks the invitations)."""
        return self.allow_spectators or (
            user is not None and user.is_authenticated and user.pk in self.seated)


@functools.cache
def _stamp_sql(vendor: str) -> str:
    """The stamp's statement, written once per process: the ORM took longer to compile this
    query (four joins and a subquery) than PostgreSQL takes to run it, on every conditional GET.
    Plain SQL that PostgreSQL and SQLite both run, named from the models' own metadata."""
    from accounts.models import User, Vacation
    from games.models.records import RatingApplication

    quote = connection.ops.quote_name
    models = {"g": Game, "c": User, "r": RatingApplication, "s": Seat, "u": User,
              "v": Vacation}

    def column(alias: str, field: str) -> str:
        return f"{alias}.{quote(models[alias]._meta.get_field(field).column)}"

    def table(alias: str) -> str:
        return f"{quote(models[alias]._meta.db_table)} {alias}"

    # The vacation `vacations_now` shows for the seat's player (the latest to start).
    away = (f"(SELECT {column('v', 'ends_at')} FROM {table('v')} "
            f"WHERE {column('v', 'user')} = {column('s', 'user')} "
            f"AND {column('v', 'starts_at')} <= %s AND {column('v', 'ends_at')} > %s "
            f"ORDER BY {column('v', 'starts_at')} DESC LIMIT 1)")
    selected = [column(*field) for field in (*STAMP_GAME_FIELDS, *STAMP_SEAT_FIELDS)]
    return (f"SELECT {', '.join(selected)}, {away}, {column('s', 'turn_notified_at')} "
            f"FROM {table('g')} "
            f"INNER JOIN {table('c')} ON {column('c', 'id')} = {column('g', 'created_by')} "
            f"LEFT JOIN {table('r')} ON {column('r', 'game')} = {column('g', 'id')} "
            f"LEFT JOIN {table('s')} ON {column('s', 'game')} = {column('g', 'id')} "
            f"LEFT JOIN {table('u')} ON {column('u', 'id')} = {column('s', 'user')} "
            f"WHERE {column('g', 'id')} = %s ORDER BY {column('s', 'join_order')}")


def _aware(value):
    """A datetime as the database gave it (SQLite: text) as an aware datetime."""
    from django.utils.dateparse import parse_datetime

    if isinstance(value, str):
        value = parse_datetime(value)
    return timezone.make_aware(value, UTC) if timezone.is_naive(value) else value


def game_stamp(*, game_id: int, now=None) -> GameStamp | None:
    """The game's stamp (None when there is no such game), in one query over the game row, its
    seats and their players: cheap enough to answer a conditional GET without the state. The
    values are hashed as the database gives them (they are compared only with themselves)."""
    moment = connection.ops.adapt_datetimefield_value(now or timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_stamp_sql(connection.vendor), [moment, moment, game_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    width, seat_width = len(STAMP_GAME_FIELDS), len(STAMP_SEAT_FIELDS)
    game = dict(zip((name for _, name in STAMP_GAME_FIELDS), rows[0][:width], strict=True))
    seats = [row[width:] for row in rows if row[width] is not None]
    user_at, number_at = STAMP_SEAT_FIELDS.index(("s", "user")), STAMP_SEAT_FIELDS.index(
        ("s", "number"))
    return GameStamp(
        game_id=game_id, engine=game["engine"], status=game["status"],
        allow_spectators=bool(game["allow_spectators"]),
        values=(rows[0][:width], tuple(seat[:-1] for seat in seats)),
        seated={seat[user_at]: seat[number_at] for seat in seats if seat[user_at] is not None},
        notified=frozenset(seat[user_at] for seat in seats
                           if seat[user_at] is not None and seat[-1] is not None),
        vacations={seat[user_at]: _aware(seat[seat_width]) for seat in seats
                   if seat[user_at] is not None and seat[seat_width] is not None},
    )


def awaiting_seats(game: Game) -> list[int]:
    return [seat.number for seat in game.seats.all() if seat.deadline_at is not None]


def game_awaiting_filter(user) -> Q:
    return Q(seats__user=user, seats__deadline_at__isnull=False, status=GameStatus.ACTIVE)


def vacations_now(game: Game, now=None) -> dict[int, Any]:
    """user id -> end of the vacation they are on now, for the players of this game (as read
    with the seats, when they were read with `game_seats`)."""
    from accounts.models import Vacation

    seats = game.seats.all()
    if now is None and all(hasattr(seat, "away_until") for seat in seats):
        return {seat.user_id: seat.away_until for seat in seats if seat.away_until is not None}
    now = now or timezone.now()
    user_ids = [seat.user_id for seat in seats if seat.user_id]
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
    from games.services.undo import state_at

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
