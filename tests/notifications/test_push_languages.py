"""A push reads in its recipient's language (their language setting, as their emails do): the
title and the one line of every kind of notice, the deadline's weekday and digits included.
A webhook's line speaks the language of the player who registered it, for their own notices
and for a game's public events alike (a program reads the JSON fields; a channel reads what
its owner chose)."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from notifications.channels import push, webhooks
from notifications.models import Notification, NotificationKind, Webhook, WebhookDelivery
from tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db

LATIN = re.compile(r"[A-Za-z]")
#: Every kind a push has its own sentence for, with what its notice knows.
KINDS = {
    NotificationKind.YOUR_TURN: {"deadline_at": "2026-11-24T17:00:00+00:00"},
    NotificationKind.REMINDER: {"deadline_at": "2026-11-24T17:00:00+00:00"},
    NotificationKind.GAME_STARTED: {"your_move": True},
    NotificationKind.GAME_FINISHED: {},
    NotificationKind.TIMED_OUT: {},
    NotificationKind.INVITATION: {"inviter": "Ωμέγα"},
    NotificationKind.MENTION: {"author": "Ωμέγα", "text": "۱۲۳"},
}


#: The players' names, in a script none of the languages uses, one per language.
NAMES = {"en": "Θήτα", "fa": "Δέλτα", "zh-hans": "Ζήτα", "it": "Ήτα"}


@pytest.fixture
def game():
    return started_game(2, engine="stone_age", seed="push-languages")[0]


def _notice(game, kind: str, language: str, context: dict) -> Notification:
    user = UserFactory(language=language, display_name=NAMES[language], timezone="Asia/Tehran")
    return Notification.objects.create(user=user, kind=kind, game=game, context=context,
                                       send_after=timezone.now())


def _words(line: str, game) -> str:
    """The line's words: the game is named in the language too (عصر حجر #۱۲, 石器时代 #12),
    so nothing is taken out (the players' names are Greek)."""
    return line


@pytest.mark.parametrize("language", ["fa", "zh-hans"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_push_reads_in_its_recipients_language(game, kind, language):
    payload = push.payload_for(_notice(game, kind, language, KINDS[kind]))
    for field in ("title", "body"):
        assert not LATIN.search(_words(payload[field], game)), (field, payload[field])
    if "deadline_at" in KINDS[kind]:
        # Tehran's time, in the language's digits.
        assert ("۲۰:۳۰" if language == "fa" else "20:30") in payload["body"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_push_in_italian_is_not_the_english_line(game, kind):
    english = push.payload_for(_notice(game, kind, "en", KINDS[kind]))["body"]
    italian = push.payload_for(_notice(game, kind, "it", KINDS[kind]))["body"]
    assert italian != english
    assert f"Stone Age #{game.pk}" in english and f"Stone Age #{game.pk}" in italian


def test_a_players_webhook_speaks_its_owners_language(game):
    notification = _notice(game, NotificationKind.YOUR_TURN, "fa", KINDS["your_turn"])
    hook = Webhook(user=notification.user, url="https://example.com/hook", format="slack",
                   kinds=["your_turn"])
    line = webhooks.payload_for(notification, hook)["text"]
    assert line.startswith("نوبت Δέλτα در ") and not LATIN.search(_words(line, game))
    notification.user.language = ""  # no choice: the site's language
    assert webhooks.payload_for(notification, hook)["text"].startswith("Δέλτα's turn in ")


@pytest.mark.parametrize("language", ["fa", "zh-hans", "it"])
def test_a_games_webhook_speaks_its_hosts_language(language):
    game, users = started_game(3, engine="stone_age", seed="hook-languages")
    host = game.created_by
    host.language = language
    host.save(update_fields=["language"])
    for seat in game.seats.all():
        seat.deadline_at = timezone.now() + timedelta(days=1)
        seat.save(update_fields=["deadline_at"])
    Webhook.objects.create(user=host, game=game, url="https://example.com/hook",
                           kinds=["turn", "game_started", "game_finished"])
    for kind in ("turn", "game_started", "game_finished"):
        assert webhooks.queue_for_game(game=game, kind=kind, seats=[0, 1, 2]) == 1
    names = [seat.player_name for seat in game.seats.all()]
    for delivery in WebhookDelivery.objects.order_by("pk"):
        line = json.loads(delivery.body)["text"]
        words = _words(line, game)
        for name in names:
            words = words.replace(name, "")
        if language == "it":
            assert re.search(r"\b(turn|to move|deadline|has started|and)\b", words) is None, line
        else:
            assert not LATIN.search(words), line
