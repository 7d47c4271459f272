"""The notification outbox: written with the game change, delivered once, by preference, outside
quiet hours, in digests, with one-click unsubscribe; through a real SMTP server."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy as email_policy

import pytest
import time_machine
from aiosmtpd.controller import Controller
from django.core import mail
from django.db import transaction
from django.test import Client

from games import services as game_services
from games.models import Seat
from notifications import policy, services
from notifications.channels import email as email_channel
from notifications.models import Digest, EmailStatus, Notification, NotificationKind
from tests.factories import UserFactory, committed, started_game

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def started(players=2, **options):
    return started_game(players, now=T0, **options)


def move(game, user, action):
    game.refresh_from_db()
    with committed():
        game_services.game_action_submit(game_id=game.pk, user=user, action=action,
                                         expected_version=game.version)


def test_start_sends_one_email_per_player_saying_whose_move_it_is():
    game, users = started(2)
    # (The creator was also told when the game filled up: a "game_lobby" notice.)
    assert [n.kind for n in Notification.objects.exclude(kind="game_lobby").order_by("pk")] == [
        "game_started"] * 2
    assert len(mail.outbox) == 2
    message = mail.outbox[0]
    assert "has started: your move" in message.subject
    recipient = next(user for user in users if user.email in message.to)
    # Choices name the player ("Alice bid 1."), never "Seat N".
    assert "Your choices:" in message.body and f"1. {recipient.public_name} bid" in message.body
    assert "Seat" not in message.body
    assert f"/games/{game.pk}/" in message.body


def test_notifications_roll_back_with_the_game_change():
    users = [UserFactory(), UserFactory()]
    game = game_services.game_create(creator=users[0], engine_slug="toy", num_players=2)
    game_services.game_join(game_id=game.pk, user=users[1])
    with pytest.raises(RuntimeError), transaction.atomic():
        game_services.game_start(game_id=game.pk, user=users[0])
        assert Notification.objects.filter(kind="game_started").count() == 2
        raise RuntimeError("the request failed after the start")
    assert Notification.objects.filter(kind="game_started").count() == 0
    game.refresh_from_db()
    assert game.status == "open"


def test_at_most_one_your_turn_email_until_the_player_acts_or_opens_the_game():
    from games.engines.registry import get_engine

    engine = get_engine("toy")
    game, (alice, bob) = started(2, time_per_move=HOUR, options={"rounds": 5},
                                 max_consecutive_timeouts=10)
    now = T0

    def play_until_bob_is_due_again():
        nonlocal now
        for _ in range(20):
            game.refresh_from_db()
            if 0 in engine.active_seats(game.state):
                move(game, alice, engine.timeout_action(game.state, 0))
                continue
            now = Seat.objects.get(game=game, user=bob).deadline_at
            with committed():
                game_services.deadlines_sweep(now=now)  # bob times out, alice plays on
            return

    def your_turn_count(user):
        return Notification.objects.filter(kind="your_turn", user=user).count()

    # The start told bob it was his move; he neither acts nor opens the game.
    for _ in range(3):
        play_until_bob_is_due_again()
    assert your_turn_count(bob) == 0
    assert your_turn_count(alice) >= 2  # alice acts each time, so she is told each time
    # Bob opens the game page: the next turn tells him again, once.
    client = Client()
    client.force_login(bob)
    client.get(f"/games/{game.pk}/")
    for _ in range(3):
        play_until_bob_is_due_again()
    assert your_turn_count(bob) == 1


def test_preferences_never_and_digest(settings):
    game, (alice, bob) = started(2)
    policy.preference_set(user=bob, kind="game_finished", delivery="never")
    policy.preference_set(user=alice, kind="game_finished", delivery="digest")
    mail.outbox.clear()
    with committed():
        game_services.game_abort(game_id=game.pk)
    # Aborting is not finishing; finish a fresh game instead.
    game, (alice2, bob2) = started(2, options={"rounds": 1})
    policy.preference_set(user=bob2, kind="game_finished", delivery="never")
    policy.preference_set(user=alice2, kind="game_finished", delivery="digest")
    alice2.digest_hour = 18
    alice2.timezone = "Europe/Rome"
    alice2.save()
    for user, amount in ((alice2, 1), (bob2, 2)):
        move(game, user, {"type": "bid", "amount": amount})
    move(game, alice2, {"type": "bank"})
    mail.outbox.clear()
    move(game, bob2, {"type": "bank"})
    finished = Notification.objects.filter(kind="game_finished")
    statuses = {n.user_id: n.email_status for n in finished}
    assert statuses == {alice2.pk: EmailStatus.DIGEST, bob2.pk: EmailStatus.SKIPPED}
    assert mail.outbox == []
    # 16:00 in Rome is before her digest hour; 18:00 sends one digest with everything.
    assert email_channel.digests_send(now=datetime(2026, 3, 2, 15, 0, tzinfo=UTC)) == 0
    assert email_channel.digests_send(now=datetime(2026, 3, 2, 17, 0, tzinfo=UTC)) == 1
    assert email_channel.digests_send(now=datetime(2026, 3, 2, 19, 0, tzinfo=UTC)) == 0
    assert len(mail.outbox) == 1 and "digest: 1 update" in mail.outbox[0].subject
    assert Digest.objects.get(user=alice2).count == 1
    assert finished.get(user=alice2).email_status == EmailStatus.SENT


def test_digest_groups_several_notifications():
    user = UserFactory(digest_hour=7)
    policy.preference_set(user=user, kind="invitation", delivery="digest")
    inviter = UserFactory()
    games = [game_services.game_create(creator=inviter, engine_slug="toy", num_players=2)
             for _ in range(3)]
    for game in games:
        with committed():
            game_services.game_invite(game_id=game.pk, inviter=inviter, login=user.username)
    assert email_channel.digests_send(now=datetime(2026, 3, 2, 7, 30, tzinfo=UTC)) == 1
    body = mail.outbox[-1].body
    assert body.count("Invitation to a game") == 3
    for game in games:
        assert f"/games/{game.pk}/" in body


def test_quiet_hours_defer_sending_in_the_players_timezone():
    user = UserFactory(timezone="America/New_York", quiet_hours_start=22, quiet_hours_end=7)
    # 03:00 UTC is 22:00 in New York (EST): quiet until 07:00 local = 12:00 UTC.
    late = datetime(2026, 3, 2, 3, 0, tzinfo=UTC)
    assert policy.quiet_hours_end(user, late) == datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    assert policy.quiet_hours_end(user, datetime(2026, 3, 2, 15, 0, tzinfo=UTC)) is None
    with time_machine.travel(late, tick=False), committed():
        notification = services.notify(user=user, kind="invitation", now=late,
                                       context={"inviter": "x"})
    notification.refresh_from_db()
    assert notification.email_status == EmailStatus.PENDING
    assert notification.send_after == datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    assert email_channel.deliver(notification_id=notification.pk, now=late + HOUR) == "deferred"
    assert email_channel.pending_ids(late + HOUR) == []
    assert email_channel.pending_ids(datetime(2026, 3, 2, 12, 0, tzinfo=UTC)) == [notification.pk]
    result = email_channel.deliver(notification_id=notification.pk,
                              now=datetime(2026, 3, 2, 12, 0, tzinfo=UTC))
    assert result == "sent"


def test_email_has_text_html_deadline_in_local_time_and_one_click_unsubscribe(client):
    game, (alice, bob) = started(2)
    bob.timezone = "Asia/Tokyo"
    bob.save()
    message = next(m for m in mail.outbox if m.to == [bob.email])
    html = message.alternatives[0][0]
    assert "Open Toy #" in html and "Your choices" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = message.extra_headers["List-Unsubscribe"].strip("<>")
    path = url.split("://", 1)[1].split("/", 1)[1]
    # A GET (a mail scanner following links) changes nothing.
    page = client.get(f"/{path}")
    assert page.status_code == 200 and b"Unsubscribe" in page.content
    assert policy.delivery_for(bob, "game_started") == "immediate"
    # The one-click POST works without logging in and without a CSRF token.
    response = Client(enforce_csrf_checks=True).post(
        f"/{path}", {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert policy.delivery_for(bob, "game_started") == "never"
    assert policy.delivery_for(bob, "your_turn") == "immediate"
    tampered = Client().post(f"/{path[:-3]}xyz/")
    assert tampered.status_code == 400


def test_reminder_email_shows_the_deadline_in_the_players_timezone():
    game, (alice, bob) = started(2, time_per_move=timedelta(days=1))
    bob.timezone = "Europe/Rome"
    bob.save()
    mail.outbox.clear()
    with time_machine.travel(T0 + timedelta(hours=22), tick=False), committed():
        game_services.deadlines_sweep(now=T0 + timedelta(hours=22))
    reminder = next(m for m in mail.outbox if m.to == [bob.email])
    assert reminder.subject.startswith("Reminder: ")
    assert "Tuesday 03 March 2026, 10:00 CET" in reminder.body


def test_a_reminder_for_a_move_already_made_is_not_sent():
    game, (alice, bob) = started(2, time_per_move=timedelta(days=1))
    with time_machine.travel(T0 + timedelta(hours=22), tick=False):
        with transaction.atomic():
            game_services.reminders_send_due(now=T0 + timedelta(hours=22))
        reminder = Notification.objects.get(kind="reminder", user=bob)
        move(game, bob, {"type": "bid", "amount": 1})
    assert email_channel.deliver(notification_id=reminder.pk,
                            now=T0 + timedelta(hours=22, minutes=1)) == "skipped"


class SMTPRecorder:
    def __init__(self):
        self.envelopes = []

    async def handle_DATA(self, server, session, envelope):
        self.envelopes.append(envelope)
        return "250 Message accepted for delivery"


@pytest.fixture
def smtp_server(settings):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    handler = SMTPRecorder()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    yield handler
    controller.stop()


def test_delivery_through_a_real_smtp_server_with_parsed_mime(smtp_server):
    game, (alice, bob) = started(2)
    assert len(smtp_server.envelopes) == 2
    envelope = next(e for e in smtp_server.envelopes if e.rcpt_tos == [bob.email])
    parsed = email.message_from_bytes(envelope.content, policy=email_policy.default)
    assert parsed["To"] == bob.email
    assert str(parsed["List-Unsubscribe"]).strip().startswith("<http")
    assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert parsed["Auto-Submitted"] == "auto-generated"
    assert parsed.get_content_type() == "multipart/alternative"
    text = parsed.get_body(preferencelist=("plain",)).get_content()
    html = parsed.get_body(preferencelist=("html",)).get_content()
    assert "has started" in text and "<strong>Toy #" in html
    assert Notification.objects.filter(email_status="sent").count() == 2


def test_failed_delivery_is_recorded_and_retried(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = 1  # nothing listens there
    settings.EMAIL_TIMEOUT = 2
    user = UserFactory()
    with transaction.atomic():
        notification = services.notify(user=user, kind="invitation", context={"inviter": "x"})
    with pytest.raises(email_channel.DeliveryFailed):
        email_channel.deliver(notification_id=notification.pk)
    notification.refresh_from_db()
    assert notification.attempts == 1 and notification.email_status == "pending"
    assert "ConnectionRefusedError" in notification.last_error
    notification.attempts = email_channel.MAX_ATTEMPTS - 1
    notification.save()
    assert email_channel.deliver(notification_id=notification.pk) == "failed"
    notification.refresh_from_db()
    assert notification.email_status == "failed"


def test_notification_list_and_preferences_pages(client):
    game, (alice, bob) = started(2)
    client.force_login(bob)
    page = client.get("/notifications/").content.decode()
    assert "A game started" in page
    client.post("/notifications/")
    assert not bob.notifications.filter(read_at__isnull=True).exists()
    response = client.post("/notifications/settings/", {
        "digest_hour": 20, "quiet_hours_start": 23, "quiet_hours_end": "",
        "reminder_percent": 25, "reminder_hours": 2, "turn_email_grace_minutes": 10,
        **{f"kind__{kind}": "immediate" for kind in
           NotificationKind.values},
    })
    assert b"need both a start and an end" in response.content
    response = client.post("/notifications/settings/", {
        "digest_hour": 20, "quiet_hours_start": 23, "quiet_hours_end": 7,
        "reminder_percent": 25, "reminder_hours": 2, "turn_email_grace_minutes": 10,
        **{f"kind__{kind}": "digest" for kind in
           NotificationKind.values},
    })
    assert response.status_code == 302
    bob.refresh_from_db()
    assert (bob.digest_hour, bob.quiet_hours_start, bob.quiet_hours_end) == (20, 23, 7)
    assert policy.delivery_for(bob, "reminder") == "digest"


def test_outbox_backend_writes_eml_files(settings, tmp_path):
    from django.core.mail import send_mail

    settings.EMAIL_BACKEND = "notifications.backends.OutboxEmailBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "outbox"
    send_mail("Hello", "Body text", "from@example.com", ["to@example.com"])
    files = list((tmp_path / "outbox").glob("*.eml"))
    assert len(files) == 1
    parsed = email.message_from_bytes(files[0].read_bytes(), policy=email_policy.default)
    assert parsed["Subject"] == "Hello"
    client = Client()
    client.force_login(UserFactory(is_staff=True))
    assert client.get("/dev/outbox/").status_code == 404  # DEBUG is off
    settings.DEBUG = True
    page = client.get("/dev/outbox/")
    assert page.status_code == 200 and b"Hello" in page.content
    assert client.get(f"/dev/outbox/{files[0].name}").status_code == 200
    assert client.get("/dev/outbox/..%2Fsecret.eml").status_code == 404


def test_the_outbox_pages_answer_only_staff(settings, tmp_path):
    """The outbox holds every email sent, password-reset links among them: on a DEBUG server a
    visitor is sent to the login page and a signed-in player who is not staff gets 404."""
    from django.core.mail import send_mail

    settings.DEBUG = True
    settings.EMAIL_BACKEND = "notifications.backends.OutboxEmailBackend"
    settings.EMAIL_OUTBOX_DIR = tmp_path / "outbox"
    send_mail("Reset your password", "https://example.test/reset/secret-link/",
              "from@example.com", ["victim@example.com"])
    (message,) = (tmp_path / "outbox").glob("*.eml")
    pages = ("/dev/outbox/", f"/dev/outbox/{message.name}")
    for page in pages:
        visitor = Client().get(page)
        assert visitor.status_code == 302 and "/accounts/login/" in visitor["Location"]
        assert b"secret-link" not in visitor.content
    player = Client()
    player.force_login(UserFactory())
    for page in pages:
        answer = player.get(page)
        assert answer.status_code == 404 and b"secret-link" not in answer.content
    staff = Client()
    staff.force_login(UserFactory(is_staff=True))
    assert b"Reset your password" in staff.get(pages[0]).content
    assert b"secret-link" in staff.get(pages[1]).content


def test_invitations_through_the_api_and_the_web(api_client):
    alice, bob = UserFactory(), UserFactory()
    game = game_services.game_create(creator=alice, engine_slug="toy", num_players=2)
    api_client.force_authenticate(alice)
    with committed():
        response = api_client.post(f"/api/v1/games/{game.pk}/invite/",
                                   {"username": bob.email}, format="json")
    assert response.status_code == 204
    invitation = Notification.objects.get(kind="invitation")
    assert invitation.user == bob and invitation.context == {"inviter": alice.public_name}
    assert mail.outbox[-1].to == [bob.email] and "invites you" in mail.outbox[-1].subject
    unknown = api_client.post(f"/api/v1/games/{game.pk}/invite/", {"username": "nobody"},
                              format="json")
    # An unknown name gets the same answer as a player (tests/services/test_invitations.py).
    assert unknown.status_code == 204
    assert Notification.objects.filter(kind="invitation").count() == 1
    outsider = UserFactory()
    api_client.force_authenticate(outsider)
    refused = api_client.post(f"/api/v1/games/{game.pk}/invite/", {"username": bob.username},
                              format="json")
    assert refused.status_code == 403
    client = Client()
    client.force_login(alice)
    page = client.post(f"/games/{game.pk}/invite/", {"username": outsider.username},
                       follow=True).content.decode()
    assert "Invitation sent" in page
    assert Notification.objects.filter(kind="invitation").count() == 2


def test_the_beat_task_delivers_what_was_left_behind_once(settings):
    """A notification whose delivery task was lost (here: the on-commit hook never ran) goes out
    with the next beat, exactly once; one that fails again stays pending without stopping the
    others."""
    from notifications.tasks import deliver_pending_notifications

    with transaction.atomic():
        lost = services.notify(user=UserFactory(), kind="invitation", context={"inviter": "x"})
    assert deliver_pending_notifications() == 1
    assert deliver_pending_notifications() == 0
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [lost.user.email]

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", 1, 2
    with transaction.atomic():
        failing = services.notify(user=UserFactory(), kind="invitation", context={"inviter": "x"})
    assert deliver_pending_notifications() == 0
    failing.refresh_from_db()
    assert failing.email_status == "pending" and failing.attempts == 1
