"""The outbox and received play-by-email messages are readable by superusers in the admin, never
editable, and hidden from moderators (they hold addresses and raw mail)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from notifications.models import EmailReply, InboundMessage, Notification
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def received():
    player = UserFactory()
    message = InboundMessage.objects.create(
        message_id="<reply-1@mail.example>", channel="pipe", received_at=timezone.now(),
        sender=player.email, subject="Re: your turn", text="7", user=player,
        raw=b"From: someone\r\nSubject: Re: your turn\r\n\r\n7 -- caf\xc3\xa9\r\n",
        status="refused", reason="stale_version")
    EmailReply.objects.create(inbound=message, to=player.email, subject="Not played",
                              text="The game has moved on.")
    Notification.objects.create(user=player, kind="your_turn", send_after=timezone.now())
    return message


def test_a_superuser_reads_received_mail_with_its_answer_and_the_outbox(received):
    client = logged_in(UserFactory(is_staff=True, is_superuser=True))
    listing = client.get("/admin/notifications/inboundmessage/?status=refused")
    assert listing.status_code == 200 and received.sender in listing.content.decode()
    page = client.get(f"/admin/notifications/inboundmessage/{received.pk}/change/")
    content = page.content.decode()
    assert page.status_code == 200
    assert "7 -- café" in content and "The game has moved on." in content
    assert client.get("/admin/notifications/notification/").status_code == 200


def test_nobody_edits_received_mail_by_hand(received):
    client = logged_in(UserFactory(is_staff=True, is_superuser=True))
    url = f"/admin/notifications/inboundmessage/{received.pk}/"
    assert client.post(url + "change/", {"status": "applied"}).status_code == 403
    assert client.post(url + "delete/", {"post": "yes"}).status_code == 403
    received.refresh_from_db()
    assert received.status == "refused"


def test_moderators_do_not_see_players_mail(received):
    moderator = UserFactory(is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    client = logged_in(moderator)
    assert client.get("/admin/notifications/inboundmessage/").status_code == 403
    assert client.get("/admin/notifications/notification/").status_code == 403
