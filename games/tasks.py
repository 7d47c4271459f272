"""Celery tasks for games: each fetches by id and calls a service, so running one twice is safe."""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.utils import timezone

from games import services
from games.models import Game, GameStatus, IdempotencyRecord, Seat
from games.services import ratings

IDEMPOTENCY_RETENTION = timedelta(days=7)


@shared_task(acks_late=True)
def resolve_game(game_id: int, version: int) -> bool:
    """Resolve the system step that became due at `version` (all secret picks are in)."""
    resolved = services.game_resolve(game_id=game_id, expected_version=version)
    return resolved


@shared_task(acks_late=True)
def play_bot_moves(game_id: int, version: int, seat_number: int | None = None) -> int:
    """The decision of the bot seat `seat_number` (of the first awaited bot seat when None,
    as queued before tasks named their seat) at `version`."""
    return services.game_bot_moves_play(game_id=game_id, expected_version=version,
                                        seat_number=seat_number)


@shared_task
def announce_game_event(game_id: int, kind: str, seats: list[int]) -> None:
    """A move's notices ("your turn", "finished"), built here rather than in the request. Acked
    on receipt: a retried "finished" would tell the players twice."""
    services.game_event_announce(game_id=game_id, kind=kind, seats=seats)


@shared_task
def announce_game_events(events: list[list]) -> None:
    """The notices of a deadline sweep's batch of games, [game id, kind, seats] each: one
    message for the batch rather than one per game. Acked on receipt, as announce_game_event."""
    for game_id, kind, seats in events:
        services.game_event_announce(game_id=game_id, kind=kind, seats=seats)


@shared_task
def resolve_pending_games() -> int:
    """Safety net run by beat: resolve games whose on-commit task was lost."""
    count = 0
    pending = Game.objects.filter(status=GameStatus.ACTIVE, needs_resolution=True)
    for game_id, version in pending.values_list("pk", "version")[:200]:
        count += services.game_resolve(game_id=game_id, expected_version=version)
    return count


#: A bot seat waiting this long has lost its on-commit task (the broker was down at commit);
#: younger ones are most likely being played right now.
BOT_MOVE_GRACE = timedelta(seconds=30)


@shared_task
def play_pending_bot_moves() -> int:
    """Safety net run by beat: play bot moves whose on-commit task was lost."""
    cutoff = timezone.now() - BOT_MOVE_GRACE
    waiting = (
        Seat.objects.filter(game__status=GameStatus.ACTIVE, game__needs_resolution=False,
                            is_bot=True, deadline_at__isnull=False, turn_started_at__lte=cutoff)
        .order_by("game_id", "number").values_list("game_id", "game__version", "number")[:200]
    )
    return sum(services.game_bot_moves_play(game_id=game_id, expected_version=version,
                                            seat_number=seat_number)
               for game_id, version, seat_number in waiting)


@shared_task
def purge_idempotency_records() -> int:
    cutoff = timezone.now() - IDEMPOTENCY_RETENTION
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted


@shared_task(acks_late=True)
def apply_game_ratings(game_id: int) -> bool:
    """Queued when a game finishes; running it twice changes nothing."""
    return ratings.ratings_apply(game_id=game_id)


#: A finished game without its application this long after finishing lost its task.
RATING_GRACE = timedelta(minutes=2)


@shared_task
def apply_pending_ratings() -> int:
    """Safety net run by beat: finished games whose on-commit rating task was lost."""
    cutoff = timezone.now() - RATING_GRACE
    pending = (Game.objects.filter(status=GameStatus.FINISHED, finished_at__lte=cutoff,
                                   rating_application__isnull=True)
               .order_by("finished_at").values_list("pk", flat=True)[:200])
    return sum(ratings.ratings_apply(game_id=game_id) for game_id in pending)


#: Due games per batch task (services.SWEEP_BATCH_SIZE: one transaction each).
SWEEP_BATCH_SIZE = services.SWEEP_BATCH_SIZE


@shared_task
def sweep_deadlines(now: str | None = None) -> dict:
    """Beat: fans the due games out to the workers in batches of ids (the workers time them out
    with SKIP LOCKED, in parallel), then sends the due reminders. No cap: every due game is
    queued on each run; a game queued twice (a run while the last one's batches still wait) is
    handled once, by whichever batch locks it first."""
    moment = datetime.fromisoformat(now) if now else timezone.now()
    game_ids = services.deadlines_due_game_ids(now=moment)
    batches = [game_ids[i:i + SWEEP_BATCH_SIZE] for i in range(0, len(game_ids),
                                                                SWEEP_BATCH_SIZE)]
    for batch in batches:
        sweep_deadline_batch.delay(batch, now)
    reminders = 0
    for _ in range(100):  # the reminders are few and cheap; the bound only guards the loop
        sent = services.reminders_send_due(now=moment, limit=1000)
        reminders += sent
        if sent < 1000:
            break
    return {"due_games": len(game_ids), "batches": len(batches), "reminders": reminders}


@shared_task(acks_late=True)
def sweep_deadline_batch(game_ids: list[int], now: str | None = None) -> dict:
    """Times out the due seats of these games (a batch from sweep_deadlines). `now` is the
    moment to judge deadlines by; by default the worker's clock when the batch runs."""
    moment = datetime.fromisoformat(now) if now else None
    report = services.deadlines_sweep_games(game_ids=game_ids, now=moment)
    return {"games": report.games, "timed_out_seats": report.timed_out_seats,
            "faulty_games": report.faulty_games}
