"""The new player of issue 32, replayed: one Stone Age and two 7 Wonders games against bots,
played promptly at the phone for 25 minutes, then left. Bots move, picks resolve and mail goes
out on a real Celery worker over PostgreSQL, its clock following the test's (time-machine)."""

from __future__ import annotations

import email
import time
import uuid
from datetime import UTC, datetime, timedelta
from email import policy as email_policy

import pytest
import redis
import time_machine
from django.conf import settings
from django.db.models import Max
from django.test import Client

from accounts.models import User
from games import selectors
from games import services as game_services
from games.exceptions import GameError
from games.models import ActionSource, Game, Seat
from notifications.models import EmailStatus, Notification, NotificationKind
from notifications.tasks import deliver_pending_notifications
from tests.conftest import wait_for
from tests.notifications.email_play import confirmed_player

GRACE = timedelta(minutes=10)
PLAYED = timedelta(minutes=25)
#: The player answers each turn this long after it reached them (the clock moves by it).
THINKING = timedelta(seconds=30)


class SharedClock:
    """The test's clock (time-machine, ticking) and the worker's, which follows it through
    TEST_CLOCK_KEY (tests/celery_worker.py): moved together, forward only."""

    def __init__(self, traveller, key: str) -> None:
        self.coordinates, self.key = traveller, key
        self.redis = redis.Redis.from_url(settings.REDIS_URL)
        self.publish()

    def publish(self) -> None:
        self.redis.set(self.key, time.time(), ex=3600)

    def advance(self, delta: timedelta) -> None:
        self.coordinates.shift(delta)
        self.publish()

    @staticmethod
    def now() -> datetime:
        return datetime.now(UTC)


def emails_to(outbox, user) -> list:
    if not outbox.exists():
        return []
    messages = [email.message_from_bytes(path.read_bytes(), policy=email_policy.default)
                for path in sorted(outbox.glob("*.eml"))]
    return [message for message in messages if message["To"] == user.email]


def awaiting(game_id: int, user) -> bool:
    return Seat.objects.filter(game_id=game_id, user=user, deadline_at__isnull=False,
                               game__status="active").exists()


def act(game_id: int, user) -> bool:
    """The player's first choice, made on the page; False when the game moved meanwhile."""
    game = Game.objects.get(pk=game_id)
    choices = selectors.legal_actions_for(game, user)
    if not choices:
        return False
    try:
        game_services.game_action_submit(game_id=game_id, user=user, action=choices[0]["action"],
                                         expected_version=game.version, source=ActionSource.WEB)
    except GameError:
        return False  # a bot's pick landed first: look again
    return True


def told_since(game_id: int, user, marks: dict[int, int]) -> bool:
    """The player's turn in this game was told (a notice newer than their last move there;
    their first turn is told by the start)."""
    return game_id not in marks or Notification.objects.filter(
        user=user, game_id=game_id, kind=NotificationKind.YOUR_TURN,
        pk__gt=marks[game_id] or 0).exists()


def mail_settled() -> bool:
    return not Notification.objects.filter(email_status=EmailStatus.PENDING).exists()


def beat() -> None:
    """The minute's beat task, run by the worker: wait until it released what was due."""
    deliver_pending_notifications.delay()
    now = SharedClock.now()
    assert wait_for(lambda: not Notification.objects.filter(
        email_status=EmailStatus.HELD, held_until__lte=now - timedelta(seconds=5)).exists(),
        timeout=30), "the worker did not release the held notices"


@pytest.mark.slow
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_player_at_the_phone_gets_no_email_per_move_and_one_once_gone(worker_queue):
    key = f"test-clock-{uuid.uuid4().hex[:8]}"
    worker_queue["env"]["TEST_CLOCK_KEY"] = key
    start = datetime.now(UTC).replace(microsecond=0)
    with time_machine.travel(start, tick=True) as traveller:
        clock = SharedClock(traveller, key)
        worker_queue["start"]()
        assert worker_queue["wait_ready"](), "the worker did not start"
        outbox = worker_queue["outbox"]
        player = confirmed_player()
        assert player.turn_email_grace_minutes == 0  # the factory's; a new account's is 10
        User.objects.filter(pk=player.pk).update(turn_email_grace_minutes=10)
        page = Client()
        page.force_login(player)
        games = []
        for engine, players in (("stone_age", 2), ("seven_wonders", 3), ("seven_wonders", 3)):
            game = game_services.game_create(creator=player, engine_slug=engine,
                                             num_players=players)
            for _ in range(players - 1):
                game_services.game_add_bot(game_id=game.pk, user=player, level="easy")
            assert page.get(f"/games/{game.pk}/").status_code == 200  # the lobby, Start
            game_services.game_start(game_id=game.pk, user=player)
            games.append(game.pk)

        # 25 minutes at the phone: each turn answered THINKING after it came.
        moves, beats_at, marks = 0, clock.now(), {}
        while clock.now() - start < PLAYED and Game.objects.filter(
                pk__in=games, status="active").exists():
            wait_for(lambda: any(awaiting(game_id, player) for game_id in games),
                     timeout=20, interval=0.05)
            due = [game_id for game_id in games if awaiting(game_id, player)]
            # The turn's notice is written by the worker after the bots' move, and mail goes
            # out within a second: both long before the player's answer. Let them.
            for game_id in due:
                wait_for(lambda game_id=game_id: told_since(game_id, player, marks), timeout=5,
                         interval=0.05)
            wait_for(mail_settled, timeout=20, interval=0.05)
            clock.advance(THINKING)
            for game_id in due:
                marks[game_id] = Notification.objects.aggregate(last=Max("pk"))["last"]
                moves += act(game_id, player)
            if clock.now() - beats_at >= timedelta(minutes=1):
                beat()
                beats_at = clock.now()
        assert moves >= 30, f"only {moves} moves"
        last_move = clock.now()
        played_for = last_move - start

        # Gone: every minute the beat; the turns waiting come in one email once the grace passed.
        def turn_emails():
            return [message for message in emails_to(outbox, player)
                    if message["Subject"].startswith("Your move")]

        while not turn_emails() and clock.now() - last_move <= GRACE + timedelta(minutes=2):
            clock.advance(timedelta(minutes=1))
            beat()
            wait_for(turn_emails, timeout=5)
            waited = clock.now() - last_move
        assert wait_for(mail_settled, timeout=30)
        every_email = emails_to(outbox, player)
    subjects = [message["Subject"] for message in every_email]
    print(f"{moves} moves in {played_for}; {len(every_email)} emails, the turn email "
          f"{waited} after the last move: {subjects}")
    assert turn_emails(), "no turn email reached the player who left"
    assert waited <= GRACE + timedelta(minutes=1)
    assert len(every_email) <= 3
