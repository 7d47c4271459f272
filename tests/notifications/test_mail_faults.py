"""A mail server that hangs cannot stop games, and a notification keeps one Message-ID across
attempts. Real PostgreSQL, Redis, Celery workers (a game worker and a mail worker, as
production runs them) and local SMTP servers: aiosmtpd that never answers DATA, a listener that
never answers at all, and aiosmtpd that cuts the connection once."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from email import message_from_bytes

import psycopg
import pytest
from aiosmtpd.controller import Controller
from django.db import connection, transaction
from rest_framework.test import APIClient

from games.models import Game
from notifications import policy, services
from notifications.channels import email as email_channel
from notifications.models import Notification
from tests.conftest import wait_for
from tests.factories import UserFactory
from tests.perf.test_sweep_speed import ARTIFACTS

#: The audit's load: this many sends hanging at once while a turn must resolve.
HUNG_SENDS = 24


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class HangInData:
    """aiosmtpd handler: takes the envelope, then never answers the message's DATA."""

    def __init__(self) -> None:
        self.reached = threading.Event()

    async def handle_DATA(self, server, session, envelope):
        self.reached.set()
        await asyncio.sleep(3600)
        return "250 OK"


class SilentListener:
    """Accepts TCP connections and never says a word (not even the SMTP greeting)."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.held: list[socket.socket] = []
        self.reached = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.socket.accept()
            except OSError:
                return
            self.held.append(client)
            self.reached.set()

    def close(self) -> None:
        self.socket.close()
        for client in self.held:
            client.close()


@pytest.fixture(params=["never_answers_data", "never_answers_at_all"])
def hung_smtp(request):
    """(port, event set once a send is hanging) of a mail server that hangs."""
    if request.param == "never_answers_data":
        handler = HangInData()
        controller = Controller(handler, hostname="127.0.0.1", port=free_port())
        controller.start()
        yield request.param, controller.port, handler.reached
        controller.stop(no_assert=True)
    else:
        listener = SilentListener()
        yield request.param, listener.port, listener.reached
        listener.close()


class IdleTransactionSampler:
    """Samples pg_stat_activity in its own connection. Any multi-statement transaction is
    "idle in transaction" for a moment between its statements; one waiting on a mail server
    stays so for the whole send. Keeps the longest such wait seen (seconds), and how many
    sessions had waited longer than LINGER at once."""

    LINGER = 3.0

    def __init__(self, dsn: str, database: str) -> None:
        self.dsn, self.database = dsn, database
        self.most = self.samples = 0
        self.longest = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as pg:
            while not self._stop.is_set():
                idle = [row[0] for row in pg.execute(
                    "SELECT extract(epoch FROM now() - state_change)::float"
                    " FROM pg_stat_activity WHERE datname = %s"
                    " AND state LIKE 'idle in transaction%%'", [self.database])]
                self.longest = max([self.longest, *idle])
                self.most = max(self.most, sum(seconds > self.LINGER for seconds in idle))
                self.samples += 1
                time.sleep(0.05)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_hung_mail_server_does_not_hold_up_a_seven_wonders_turn(worker_queue, hung_smtp):
    mode, port, send_hanging = hung_smtp
    worker_queue["env"]["EMAIL_URL"] = f"smtp://127.0.0.1:{port}"
    worker_queue["start"](mail_worker=True)
    assert worker_queue["wait_ready"](), "the workers did not start"
    users = [UserFactory() for _ in range(3)]
    clients = [api_for(user) for user in users]
    response = clients[0].post("/api/v1/games/", {
        "engine": "seven_wonders", "num_players": 3, "time_per_move": 86400}, format="json")
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game_id}/join/").status_code == 200
    assert clients[0].post(f"/api/v1/games/{game_id}/start/").status_code == 200
    # The start told each player (3 emails); more mail waits behind them.
    with transaction.atomic():
        for number in range(HUNG_SENDS - 3):
            services.notify(user=users[number % 3], kind="invitation",
                            context={"inviter": "someone"})
    assert send_hanging.wait(30), "no send reached the mail server"

    db = connection.settings_dict
    dsn = f"host={db['HOST']} port={db['PORT'] or 5432} user={db['USER']} dbname={db['NAME']}"
    with IdleTransactionSampler(dsn, db["NAME"]) as sampler:
        for seat_client in clients:
            version = seat_client.get(f"/api/v1/games/{game_id}/").json()["version"]
            choice = seat_client.get(f"/api/v1/games/{game_id}/actions/").json()[0]["action"]
            answer = seat_client.post(f"/api/v1/games/{game_id}/actions/",
                                      {"action": choice, "version": version}, format="json")
            assert answer.status_code == 200, answer.content
        picks_in = time.perf_counter()
        picked = Game.objects.get(pk=game_id).version
        resolved = wait_for(lambda: Game.objects.get(pk=game_id).version > picked,
                            timeout=60, interval=0.01)
        resolution_seconds = time.perf_counter() - picks_in
        assert resolved, "the turn was not resolved while mail hung"
        # A send is still hanging now: its row is claimed, and nobody else may take it.
        claimed = Notification.objects.filter(claimed_until__isnull=False).first()
        assert claimed is not None and claimed.email_status == "pending", "no send was hanging"
        assert email_channel.deliver(notification_id=claimed.pk) == "nothing to do"
        time.sleep(2.0)  # keep sampling while the mail worker stays stuck
    # EMAIL_TIMEOUT ends a hung send: the attempt is recorded as failed, to be retried.
    assert wait_for(lambda: Notification.objects.filter(
        last_error__icontains="timed out", attempts__gte=1).exists(), timeout=30)
    assert Game.objects.get(pk=game_id).actions.filter(kind="resolve").count() == 1
    assert resolution_seconds < 5, f"resolution took {resolution_seconds:.1f} s"
    assert sampler.samples > 20
    assert sampler.most == 0, f"{sampler.most} sessions sat idle in transaction"
    assert sampler.longest < sampler.LINGER
    figures = {"mode": mode, "hung_sends": HUNG_SENDS,
               "resolution_ms": round(1000 * resolution_seconds, 1),
               f"sessions_idle_in_transaction_over_{sampler.LINGER:g}s": sampler.most,
               "longest_idle_in_transaction_ms": round(1000 * sampler.longest, 1),
               "samples": sampler.samples}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"hung-mail-{mode}.json").write_text(json.dumps(figures, indent=1))
    print(figures)


class CutOnceThenAccept:
    """aiosmtpd handler: receives the first message, then drops the connection without an
    answer (as a server crashing mid-send would); accepts every later one."""

    def __init__(self) -> None:
        self.received: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        self.received.append(envelope.original_content)
        if len(self.received) == 1:
            server.transport.abort()
        return "250 OK"


@pytest.fixture
def flaky_smtp(settings):
    handler = CutOnceThenAccept()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    yield handler
    controller.stop(no_assert=True)


@pytest.mark.django_db
def test_a_notification_keeps_its_message_id_across_attempts(flaky_smtp):
    notification = services.notify(user=UserFactory(), kind="invitation",
                                   context={"inviter": "someone"})
    assert notification.message_id.startswith("<") and notification.message_id.endswith(">")
    with pytest.raises(email_channel.DeliveryFailed):
        email_channel.deliver(notification_id=notification.pk)
    notification.refresh_from_db()
    assert notification.attempts == 1 and notification.email_status == "pending"
    assert "SMTPServerDisconnected" in notification.last_error
    assert notification.claimed_until is None  # released for the retry
    assert email_channel.deliver(notification_id=notification.pk) == "sent"
    notification.refresh_from_db()
    assert notification.email_status == "sent" and notification.attempts == 2
    ids = [message_from_bytes(raw)["Message-ID"] for raw in flaky_smtp.received]
    assert len(ids) == 2 and ids[0] == ids[1] == notification.message_id


@pytest.mark.django_db
def test_a_digest_keeps_its_message_id_across_attempts(flaky_smtp):
    from notifications.models import Digest

    user = UserFactory(digest_hour=0)
    policy.preference_set(user=user, kind="invitation", delivery="digest")
    services.notify(user=user, kind="invitation", context={"inviter": "someone"})
    assert email_channel.digests_send() == 0  # the server cut the connection
    digest = Digest.objects.get(user=user)
    assert digest.sent_at is None and digest.attempts == 1 and digest.claimed_until is None
    assert user.notifications.get().email_status == "digest"
    assert email_channel.digests_send() == 1
    digest.refresh_from_db()
    assert digest.sent_at is not None and user.notifications.get().email_status == "sent"
    assert email_channel.digests_send() == 0  # once a day
    ids = [message_from_bytes(raw)["Message-ID"] for raw in flaky_smtp.received]
    assert len(ids) == 2 and ids[0] == ids[1] == digest.message_id
