"""Playing: a player's move, a move made for a seat (bot, timeout, moderator), the system step
resolved, the bots' moves, and the checks that a stored game replays and can continue."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from config.cache import process_cache
from games.engines import bots
from games.engines.base import Engine, IllegalAction, canonical_action, match_legal
from games.exceptions import (
    GameNotRunning,
    IllegalMove,
    NotAllowed,
    StaleVersion,
)
from games.live.events import game_event
from games.log.replay import state_at
from games.models import (
    ActionKind,
    ActionSource,
    DeadlineOutcome,
    Game,
    GameStatus,
    IdempotencyRecord,
    Seat,
)
from games.presentation.texts import reason_text
from games.services.access import (
    engine_for,
    engine_guard,
    locked_game,
    now_or,
    playability_problem,
    require_playable,
    require_unrestricted,
    seats_of,
)
from games.services.autoplay import after_change
from games.services.reliability import deadline_record
from games.services.steps import (
    SubmitResult,
    append_action,
    resolve_chance_steps,
    resolve_once,
)
from games.services.writes import enqueue_after_commit


def _own_entry_text(game: Game, sequence: int | None) -> dict[str, Any] | None:
    """A log entry's text as the seat that made it reads it."""
    entry = game.actions.filter(sequence=sequence).first() if sequence else None
    return None if entry is None else entry.text_for(entry.seat_number)


def _fingerprint(action: Any, expected_version: int | None) -> str:
    body = json.dumps({"action": action, "version": expected_version}, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def _refusal_reason(engine: Engine, state: dict, seat: int, action: Any,
                    mismatch: IllegalAction) -> IllegalAction:
    """The engine's own refusal of `action` (its words name the card, the cost…); the generic
    mismatch when the engine has none or fails on the odd input."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction as error:
        return error
    except Exception:
        pass  # odd input must never turn a refusal into a crash
    return mismatch


def apply_move(
    game: Game,
    *,
    seat_number: int,
    action: Any,
    source: str,
    actor,
    now: datetime,
    seats: list[Seat] | None = None,
) -> SubmitResult:
    """Applies one seat's move to a locked, running game; returns the outcome summary and the
    move's text as its player reads it.
    `seats`: the game's seats if the caller read them in this transaction already."""
    engine = engine_for(game.engine)
    state_before = game.state
    with engine_guard(game, "move", seat_number, action):
        legal = engine.legal_actions(state_before, seat_number)
        if not legal:
            raise IllegalMove(gettext("It is not your turn."))
        try:
            # The one legality check of every entrance: the move must be a listed legal action
            # as canonical JSON (3, 3.0 and true differ). The listed action is what is applied
            # and logged, so no value made by a client reaches the state.
            listed = match_legal(action, legal)
        except IllegalAction as error:
            refusal = _refusal_reason(engine, state_before, seat_number, action, error)
            # An engine's refusal in the active language: its text rendered there.
            raise IllegalMove(reason_text(game.engine, refusal),
                              details={"action": action}) from None
        try:
            game.state = engine.apply(state_before, seat_number, listed)
        except IllegalAction as error:
            raise IllegalMove(reason_text(game.engine, error),
                              details={"action": action}) from None
        record = append_action(
            game,
            engine,
            kind=ActionKind.MOVE,
            seat_number=seat_number,
            payload=listed,
            source=source,
            actor=actor,
            state_before=state_before,
        )
    require_playable(game, engine, "move", seat_number, listed)
    seats = seats_of(game, now) if seats is None else seats
    player_acted = source in (ActionSource.WEB, ActionSource.API, ActionSource.EMAIL)
    if player_acted:
        for seat in seats:
            if seat.number == seat_number and seat.timeout_count > 0:
                seat.timeout_count = 0
                seat.save(update_fields=["timeout_count"])
    resolve_chance_steps(game, engine)
    after_change(game, engine, now, acted_seat=seat_number, player_acted=player_acted,
                 seats=seats)
    # Enough for a client to go on without reading the game again (the API's default answer).
    return SubmitResult(game=game, outcome={
        "sequence": record.sequence,
        "version": game.version,
        "status": game.status,
        "awaiting_seats": [seat.number for seat in seats if seat.deadline_at is not None],
    }, text=record.text_for(seat_number))


def game_action_submit(
    *,
    game_id: int,
    user,
    action: Any,
    expected_version: int | None,
    idempotency_key: str | None = None,
    source: str = ActionSource.API,
    seat_number: int | None = None,
    now: datetime | None = None,
) -> SubmitResult:
    """A player's move. Locks the game, repeats the first result for a known Idempotency-Key,
    checks the version (StaleVersion), the seat and legality (IllegalMove), applies, logs."""
    now = now_or(now)
    with transaction.atomic():
        game = locked_game(game_id)
        if idempotency_key:
            record = IdempotencyRecord.first_answer(
                user=user, key=idempotency_key, game_id=game.pk,
                fingerprint=_fingerprint(action, expected_version))
            if record is not None:
                return SubmitResult(game=game, outcome=record.response, replayed=True,
                                    text=_own_entry_text(game, record.response.get("sequence")))
        if game.status != GameStatus.ACTIVE:
            raise GameNotRunning(
                gettext("This game is over.") if game.status == GameStatus.FINISHED
                else gettext("This game is not running.")
            )
        seats = seats_of(game, now)
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed(gettext("You do not have a seat in this game."))
        if seat_number is not None and seat_number != seat.number:
            raise NotAllowed(
                gettext(
                    "You sit in seat %(seat_number)s; you cannot act for seat %(seat_number_2)s.")
                    % {"seat_number": seat.number, "seat_number_2": seat_number}
            )
        if seat.is_bot:
            raise NotAllowed(gettext("A bot is playing your seat; take it back first."))
        if seat.restricted:
            require_unrestricted(user)
        had_deadline = seat.deadline_at
        if expected_version is None:
            raise StaleVersion(gettext("Send the game version you saw."),
                               details={"version": game.version})
        if expected_version != game.version and not _own_decision_unchanged(
                game, seat.number, expected_version):
            raise StaleVersion(
                gettext("The game has moved on (version %(game_version)s, you sent "
                        "%(expected_version)s). Reload and try again.")
                    % {"game_version": game.version, "expected_version": expected_version},
                details={"version": game.version},
            )
        result = apply_move(game, seat_number=seat.number, action=action, source=source,
                            actor=user, now=now, seats=seats)
        if had_deadline is not None:
            deadline_record(
                seat, deadline_at=had_deadline, now=now,
                outcome=DeadlineOutcome.MET if now <= had_deadline else DeadlineOutcome.LATE)
        if idempotency_key:
            IdempotencyRecord.objects.create(
                user=user,
                key=idempotency_key,
                game=game,
                request_fingerprint=_fingerprint(action, expected_version),
                response=result.outcome,
            )
    return result


def _own_decision_unchanged(game: Game, seat_number: int, expected_version: int) -> bool:
    """Seat-scoped staleness (Move contract v2): a move sent at an older version still stands
    when only other seats moved since and this seat's legal actions are exactly the ones it saw
    then. Typical of simultaneous turns: others' secret picks change the version, not my
    decision. A resolution, my own earlier move or any change to my choices makes it stale."""
    if not 0 <= expected_version < game.version:
        return False
    since = game.actions.filter(sequence__gt=expected_version)
    if since.exclude(kind=ActionKind.MOVE).exists() or since.filter(
            seat_number=seat_number).exists():
        return False
    engine = engine_for(game.engine)
    then = state_at(engine, game, expected_version)
    with engine_guard(game, "staleness check", seat_number):
        return ([canonical_action(a) for a in engine.legal_actions(then, seat_number)]
                == [canonical_action(a) for a in engine.legal_actions(game.state, seat_number)])


def game_seat_move_apply(
    *,
    game_id: int,
    seat_number: int,
    action: Any,
    source: str,
    expected_version: int,
    actor=None,
    now: datetime | None = None,
    stands_if_own_decision_unchanged: bool = False,
) -> SubmitResult | None:
    """A move made for a seat by the system (bot, timeout, moderator). Returns None when the game
    moved on since the caller looked (another worker got there first): nothing is applied twice.
    With `stands_if_own_decision_unchanged` (a bot's move), a move thought out at an older
    version still stands when only other seats moved since and the seat's choices are the same
    (Move contract v2, as for a person's move): a secret pick made while the bot was thinking
    no longer throws the bot's search away."""
    now = now_or(now)
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            return None
        if game.version != expected_version and not (
                stands_if_own_decision_unchanged
                and _own_decision_unchanged(game, seat_number, expected_version)):
            return None
        return apply_move(
            game, seat_number=seat_number, action=action, source=source, actor=actor, now=now
        )


def game_resolve(*, game_id: int, expected_version: int | None = None) -> bool:
    """Runs the engine's due system step (e.g. reveals all secret picks). Idempotent: returns
    False and changes nothing when nothing is due or the game has moved past `expected_version`."""
    now = timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != GameStatus.ACTIVE:
            return False
        if expected_version is not None and game.version != expected_version:
            return False
        engine = engine_for(game.engine)
        if not resolve_once(game, engine):
            if game.needs_resolution:
                game.needs_resolution = False
                game.save(update_fields=["needs_resolution", "updated_at"])
            return False
        after_change(game, engine, now, acted_seat=None)
    return True


def game_event_announce(*, game_id: int, kind: str, seats: list[int]) -> None:
    """Tells receivers (notifications) about a committed move's event, with the game locked so
    that what they write to seats (turn_notified_at) is ordered with the game's own changes.
    A "turn" is told only to seats still awaited: one that already moved needs no reminder."""
    with transaction.atomic():
        if not list(Game.objects.select_for_update().filter(pk=game_id).values_list("pk")):
            return
        if kind == "turn":
            awaited = set(Seat.objects.filter(game_id=game_id, deadline_at__isnull=False)
                          .values_list("number", flat=True))
            seats = [number for number in seats if number in awaited]
            if not seats:
                return
        game_event.send(sender=Game, game_id=game_id, kind=kind, seats=seats)


#: One line per bot move (INFO): where its time went, for the bot latency table
#: (tests/perf/bot_latency.py) and for the worker's log.
bot_logger = logging.getLogger("games.bots")

def _bot_move(engine: Engine, game: Game, seat: Seat, stats: dict[str, Any] | None = None
              ) -> dict:
    """The move of the bot playing `seat`, at the seat's level (the search bot sees only what
    the seat sees and thinks for BOT_SEARCH_MAX_SECONDS at most, BOT_HARD_MAX_SECONDS at level
    hard). Runs in Celery tasks only."""
    if seat.bot_level == bots.HARD:
        return bots.bot_move(engine, game.state, seat.number, bots.HARD,
                             rollouts=settings.BOT_HARD_ROLLOUTS,
                             max_seconds=settings.BOT_HARD_MAX_SECONDS, stats=stats)
    return bots.bot_move(engine, game.state, seat.number, seat.bot_level,
                         rollouts=settings.BOT_SEARCH_ROLLOUTS,
                         max_seconds=settings.BOT_SEARCH_MAX_SECONDS, stats=stats)


#: How long a bot seat's "being thought about" mark lasts at most: well over a decision's
#: thinking (BOT_HARD_MAX_SECONDS), and under the beat safety net's grace (games.tasks), so a
#: seat whose thinker died is played by the safety net.
THINKING_MARK_SECONDS = 20


def _thinking_key(game_id: int, seat_number: int) -> str:
    return f"bot-thinking:{game_id}:{seat_number}"


def _thinking_begins(game: Game, seat_number: int) -> bool:
    """Marks the seat's decision at the game's version (as read) as being thought about; False
    when another task is thinking about it or has made it already. That happens in 7 Wonders,
    where the bots' picks of a turn are searched side by side: each pick that commits queues a
    task for the picks still awaited, and their own tasks are still thinking. The decision is
    the same when the seat has not moved and nothing was resolved since the mark's version. A
    cache that fails answers True (Redis down: at worst one decision searched twice)."""
    key = _thinking_key(game.pk, seat_number)
    if not process_cache.add(key, game.version, timeout=THINKING_MARK_SECONDS):
        began = process_cache.get(key)
        if began is not None and (began >= game.version
                                  or not _decision_taken_since(game, seat_number, began)):
            return False
        # The mark of an earlier decision, whose task has committed and not yet wiped it.
        process_cache.set(key, game.version, timeout=THINKING_MARK_SECONDS)
    if _decision_taken_since(game, seat_number, game.version):
        # Made after this task read the game, by a thinker that has wiped its mark since.
        _thinking_ends(game.pk, seat_number, game.version)
        return False
    return True


def _decision_taken_since(game: Game, seat_number: int, version: int) -> bool:
    """Whether the seat's decision awaited at `version` is no longer the one awaited now: the
    seat has moved since, or the game resolved a step (a turn's picks revealed)."""
    return game.actions.filter(Q(seat_number=seat_number) | ~Q(kind=ActionKind.MOVE),
                               sequence__gt=version).exists()


def _thinking_ends(game_id: int, seat_number: int, version: int) -> None:
    key = _thinking_key(game_id, seat_number)
    if process_cache.get(key) == version:  # not a later decision's mark
        process_cache.delete(key)


def game_bot_moves_play(*, game_id: int, expected_version: int, seat_number: int | None = None
                        ) -> int:
    """Plays a bot's next decision (or the game's due resolution) at `expected_version`, in one
    transaction; returns 1, or 0 when there is none (a human's turn), the game moved on or
    another task is thinking about it. `seat_number`: that bot seat's decision (each awaited
    bot seat has a task of its own, so the secret picks of a turn are searched side by side,
    and a pick still awaited after other seats' picks is thought out at the version found);
    None: the first awaited bot seat's, at `expected_version` only. One decision a call: its
    commit queues the tasks of the next ones, so each move shows as it is made."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != GameStatus.ACTIVE:
        return 0
    if game.version != expected_version and (
            seat_number is None or game.needs_resolution
            or _decision_taken_since(game, seat_number, expected_version)):
        # Moved on. A seat's task still stands when only other seats have moved since (the
        # picks of a turn): it thinks at the version it finds, as no commit queued it anew.
        return 0
    if game.needs_resolution:
        return int(game_resolve(game_id=game_id, expected_version=expected_version))
    engine = engine_for(game.engine)
    awaited = game.seats.filter(is_bot=True, number__in=engine.active_seats(game.state))
    if seat_number is not None:
        awaited = awaited.filter(number=seat_number)
    bot_seat = awaited.order_by("number").first()
    if bot_seat is None or not _thinking_begins(game, bot_seat.number):
        return 0
    try:
        result = _bot_move_play(engine, game, bot_seat)
    finally:
        _thinking_ends(game_id, bot_seat.number, game.version)
    if result is None:
        # The game moved on and this seat's decision with it (a task for the new decision
        # found it being thought about here and left it): think again.
        latest = Game.objects.filter(pk=game_id, status=GameStatus.ACTIVE).values_list(
            "version", flat=True).first()
        if latest is not None:
            enqueue_after_commit("games.tasks.play_bot_moves", game_id, latest, bot_seat.number)
    return int(result is not None)


def _bot_move_play(engine: Engine, game: Game, bot_seat: Seat) -> SubmitResult | None:
    """Thinks out the bot seat's move at the game's version and applies it; None when the game
    moved on and the seat's decision with it (see game_seat_move_apply)."""
    expected_version = game.version
    stats: dict[str, Any] = {}
    thought_at, thought_cpu = time.perf_counter(), time.process_time()
    with engine_guard(game, "bot_action", bot_seat.number):
        action = _bot_move(engine, game, bot_seat, stats)
    committing_at = time.perf_counter()
    search_cpu = time.process_time() - thought_cpu
    result = game_seat_move_apply(
        game_id=game.pk,
        seat_number=bot_seat.number,
        action=action,
        source=ActionSource.BOT,
        expected_version=expected_version,
        stands_if_own_decision_unchanged=True,
    )
    committed_at = time.perf_counter()
    bot_logger.info(
        "Bot move in game %s at version %s, seat %s (%s): search %.3f s CPU, %.3f s; "
        "%s play-outs; commit %.3f s%s", game.pk, expected_version, bot_seat.number,
        bot_seat.bot_level, search_cpu, committing_at - thought_at, stats.get("playouts", 0),
        committed_at - committing_at, "" if result else " (the game had moved on)",
        extra={"bot_move": {
            "game": game.pk, "version": expected_version, "seat": bot_seat.number,
            "search_cpu": search_cpu, "search_wall": committing_at - thought_at,
            "playouts": stats.get("playouts", 0), "commit": committed_at - committing_at,
            "committed_at": time.time(), "applied": result is not None,
            "version_after": result.game.version if result else None}})
    return result


def game_replay_verify(*, game: Game) -> bool:
    """Rebuilds the state from the log and compares it with the stored state."""
    if game.state is None:
        return True
    return state_at(engine_for(game.engine), game) == game.state


def game_health_problem(*, game: Game) -> str | None:
    """Why a stored game is unsound, or None: its log must replay to its stored state (with the
    same JSON types: 1.0 is not 1) and that state must be able to continue."""
    if game.state is None:
        return None
    engine = engine_for(game.engine)
    try:
        replayed = state_at(engine, game)
    except Exception as error:  # a log entry the engine now refuses, or an engine crash
        return f"the log does not replay: {type(error).__name__}: {error}"
    if json.dumps(replayed, sort_keys=True) != json.dumps(game.state, sort_keys=True):
        return "the log replays to a different state than the stored one"
    if game.status != GameStatus.ACTIVE:
        return None
    try:
        problem = playability_problem(engine, game.state)
    except Exception as error:
        return f"the engine fails on the stored state: {type(error).__name__}: {error}"
    return f"the game cannot continue: {problem}" if problem else None
