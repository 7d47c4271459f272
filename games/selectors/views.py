"""One game as it is shown: its reads in one snapshot, its view, legal actions, log and chat."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache import caches
from django.db import connections, router, transaction
from django.db.models import Q
from django.utils import timezone, translation
from psycopg import IsolationLevel

from config import prepared_sql
from games.engines.registry import get_engine
from games.log.replay import state_at
from games.models import Action, ChatMessage, Game, GameStatus, Seat
from games.presentation.names import seat_names
from games.presentation.texts import english_text, render_text, view_texts
from games.selectors.access import game_access


@contextmanager
def snapshot() -> Iterator[None]:
    """The reads inside see the database as of one moment: a game and its seats (and its log,
    its chat) from one version, never the game row of one move and the seats of the next.

    Under PostgreSQL's READ COMMITTED every statement takes a snapshot of its own, so a move
    committing between two reads mixes two versions. Reading the game and its seats in one
    statement would settle the game alone, not the log, the chat or the stamp a page shows
    beside it; a read-only REPEATABLE READ transaction settles them all and takes no lock.
    psycopg opens it with its `BEGIN` (the connection's `isolation_level` and `read_only`, set
    for this transaction alone), so it costs no statement beyond BEGIN and COMMIT. On SQLite a
    transaction is a snapshot already (BEGIN IMMEDIATE there: it waits for a writer instead).
    Inside a transaction already (a service, a test) the caller's transaction decides what the
    reads see."""
    alias = router.db_for_read(Game)
    connection = connections[alias]
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor != "postgresql":
        with transaction.atomic(using=alias):
            yield
        return
    connection.ensure_connection()
    driver = connection.connection
    isolation, read_only = driver.isolation_level, driver.read_only
    driver.isolation_level, driver.read_only = IsolationLevel.REPEATABLE_READ, True
    try:
        with transaction.atomic(using=alias):
            yield
    finally:
        if not driver.closed:
            driver.isolation_level, driver.read_only = isolation, read_only


def game_with_seats(game_id: int) -> Game | None:
    """One game with its seats and their players, for showing it (`game_list` is for listings:
    DISTINCT over every column, the state included). The seats are the game's prefetched
    `seats`, in seat order, each with `away_until` as `game_seats` gives it. Two statements
    made once (config.prepared_sql.SHOWN_GAME, SHOWN_SEATS: the ORM's build of them cost more
    than the rest of a game's detail); read them inside `snapshot()` for one version."""
    game = prepared_sql.SHOWN_GAME.first([game_id])
    if game is None:
        return None
    connection = connections[router.db_for_read(Seat)]
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    seats = prepared_sql.SHOWN_SEATS.rows([now, now, game_id], known={"game": game})
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


def game_version_and_seats(game_id: int) -> tuple[tuple[int, str, bool], list] | None:
    """A game's (version, status, allow_spectators) and its seats' player ids (None for a bot's
    seat), or None for no such game: what the page's poll reads, in one statement made once
    (config.prepared_sql.POLL; one row per seat, so the seats are those of that version)."""
    rows = prepared_sql.POLL.rows([game_id])
    if not rows:
        return None
    version, status, allow_spectators = rows[0][:3]
    return (version, status, allow_spectators), [user for *_, seat, user in rows
                                                 if seat is not None]


def log_newest(game: Game, count: int, *, up_to: int | None = None) -> list[Action]:
    """The game's `count` newest log entries, newest first (`up_to`: at or before that
    sequence number)."""
    # Through the ORM: made once, this read and the chat's saved 7 % of a signed-in player's
    # page (docs/architecture-notes.md), under the 15 % that hand-written SQL must save.
    entries = game.actions.order_by("-sequence")
    if up_to is not None:
        entries = entries.filter(sequence__lte=up_to)
    return list(entries[:count])


def chat_lines_for(game: Game, user):
    """The game's chat lines `user` may read (a line meant for one player only to that player),
    with their authors, oldest first."""
    signed_in = user is not None and user.is_authenticated
    shown = Q(audience__isnull=True) | Q(audience=user) if signed_in else Q(audience__isnull=True)
    return game.chat_messages.select_related("author").filter(shown)


def chat_newest(game: Game, count: int, user=None) -> list[ChatMessage]:
    """The `count` newest chat lines `user` may read, oldest first."""
    return list(chat_lines_for(game, user).order_by("-created_at", "-id")[:count])[::-1]


def awaiting_seats(game: Game) -> list[int]:
    return [seat.number for seat in game.seats.all() if seat.deadline_at is not None]


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


def game_view_for(game: Game, user, *, language: str | None = None) -> dict[str, Any] | None:
    """The engine's view of the state for this user (their seat's, or a spectator's), its texts
    read in `language` (default: the user's chosen one, else the active one), players named."""
    if game.state is None:
        return None
    chosen = (getattr(user, "language", "") if user is not None and user.is_authenticated
              else "")
    return rendered_view(game, game_access(user, game).seat_number,
                         language=language or chosen or None, names=seat_names(game))


#: Rendered views, kept per process (CACHES["views"]: LRU, cleared between tests): a game is
#: read many times between two moves (every page load and API read of each player and
#: spectator), and its view at a version never changes.
VIEWS = "views"


def rendered_view(game: Game, seat: int | None, *, language: str | None,
                  names: dict[int, str]) -> dict[str, Any]:
    """The engine's view of the game's current state for `seat` (None: a spectator's), its
    texts read in `language` (default: the active one), players named by `names`. A fresh
    object each time (callers may change it)."""
    language = language or translation.get_language() or "en"
    # The last write (`updated_at`) keeps a view made from a change that was rolled back from
    # being taken for the one committed later at the same version.
    described = (game.pk, game.version, game.updated_at, game.rules_version, seat, language,
                 tuple(sorted(names.items())))
    key = "view:" + hashlib.blake2b(repr(described).encode(), digest_size=20).hexdigest()
    kept = caches[VIEWS].get(key) if game.pk is not None else None
    if kept is not None:
        return json.loads(kept)
    view = view_texts(game.engine, get_engine(game.engine).view(game.state, seat),
                      language=language, names=names)
    if game.pk is not None:
        caches[VIEWS].set(key, json.dumps(view))
    return view


def legal_actions_for(game: Game, user, *, language: str | None = None) -> list[dict[str, Any]]:
    """The user's legal actions, each with its `describe` text (English, or in `language`) and
    the same as a message key with parameters (`text`), in the engine's order."""
    seat = game_access(user, game).seat
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


def legal_actions_at_version(game: Game, user, version: int) -> list[dict[str, Any]] | None:
    """The user's legal actions (as `legal_actions_for`) as they were when the game stood at
    `version`, rebuilt from the log; None when that version is unknown. Play by email uses it to
    tell whether a reply to an older email still means the same move."""
    seat = game_access(user, game).seat
    if seat is None or seat.number is None or not 0 <= version <= game.version:
        return None
    engine = get_engine(game.engine)
    state = state_at(engine, game, version)
    return [
        {"index": index, "action": action,
         "description": engine.describe(state, seat.number, action, viewer=seat.number)}
        for index, action in enumerate(engine.legal_actions(state, seat.number))
    ]
