"""`Idempotency-Key` on every POST that creates: a retry answers the first answer and makes
nothing more, another request with the key is refused, a failed request leaves the key free, and
two requests racing with one key make one thing."""

from __future__ import annotations

import hashlib
import json
import threading
import uuid

import pytest
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import PersonalAccessToken
from games.models import ChatMessage, Game, GameInvitation, IdempotencyRecord, Report
from notifications.models import Webhook
from tests.api.clients import token_client
from tests.factories import PASSWORD, UserFactory, confirm_email, open_game, started_game

pytestmark = pytest.mark.django_db

NEW_GAME = {"engine": "toy", "num_players": 2}


def _signed_in(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_two_posts_of_a_game_with_one_key_make_one_game():
    user = UserFactory()
    client, key = _signed_in(user), str(uuid.uuid4())
    first = client.post("/api/v1/games/", NEW_GAME, format="json", HTTP_IDEMPOTENCY_KEY=key)
    again = client.post("/api/v1/games/", NEW_GAME, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert first["Location"] == again["Location"]
    assert first["Location"].endswith(f"/api/v1/games/{first.json()['id']}/")
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Game.objects.filter(created_by=user).count() == 1
    # Without a key, each POST makes its own.
    client.post("/api/v1/games/", NEW_GAME, format="json")
    assert Game.objects.filter(created_by=user).count() == 2


def test_a_key_with_another_request_is_refused_and_a_failure_leaves_it_free():
    client, key = _signed_in(UserFactory()), "retry-1"
    refused = client.post("/api/v1/games/", {"engine": "nope", "num_players": 2}, format="json",
                          HTTP_IDEMPOTENCY_KEY=key)
    assert refused.status_code == 400
    made = client.post("/api/v1/games/", NEW_GAME, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert made.status_code == 201
    other = client.post("/api/v1/games/", {**NEW_GAME, "num_players": 3}, format="json",
                        HTTP_IDEMPOTENCY_KEY=key)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    elsewhere = client.post("/api/v1/reports/", {"target": "game", "id": made.json()["id"],
                                                  "reason": "spam"},
                            format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert elsewhere.status_code == 422
    too_long = client.post("/api/v1/games/", NEW_GAME, format="json",
                           HTTP_IDEMPOTENCY_KEY="k" * 129)
    assert too_long.status_code == 400 and "Idempotency-Key" in too_long.json()["details"][
        "fields"]


def test_a_key_of_a_move_is_not_taken_for_a_creation():
    game, users = started_game(2)
    from games import selectors

    game.refresh_from_db()
    mover = next(user for user in users if selectors.legal_actions_for(game, user))
    client = _signed_in(mover)
    action = selectors.legal_actions_for(game, mover)[0]["action"]
    moved = client.post(f"/api/v1/games/{game.pk}/actions/",
                        {"action": action, "version": game.version}, format="json",
                        HTTP_IDEMPOTENCY_KEY="k1")
    assert moved.status_code == 200, moved.content
    made = client.post("/api/v1/games/", NEW_GAME, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert made.status_code == 422 and made.json()["code"] == "idempotency_key_reused"


def test_a_token_is_made_once_and_never_stored(settings):
    user = UserFactory()
    client = token_client(user)
    body = {"name": "bot", "scopes": ["read"]}
    first = client.post("/api/v1/tokens/", body, format="json", HTTP_IDEMPOTENCY_KEY="t")
    again = client.post("/api/v1/tokens/", body, format="json", HTTP_IDEMPOTENCY_KEY="t")
    assert first.status_code == again.status_code == 201
    assert first.json()["token"].startswith("tp_") and "token" not in again.json()
    assert again.json()["id"] == first.json()["id"] and again["Location"] == first["Location"]
    assert first["Location"].endswith(f"/api/v1/tokens/{first.json()['id']}/")
    assert PersonalAccessToken.objects.filter(user=user, name="bot").count() == 1
    from games.models import IdempotencyRecord

    assert first.json()["token"] not in str(IdempotencyRecord.objects.get(key="t").response)


def test_webhooks_chat_reports_and_invitations_honour_the_key(settings):
    settings.ALLOW_LOCAL_DELIVERY_TARGETS = True
    from games import services

    game, users = open_game(2)
    lobby = services.game_create(creator=users[0], engine_slug="toy", num_players=2)
    client = _signed_in(users[0])
    hook = {"url": "http://127.0.0.1:9/hook", "kinds": ["your_turn"]}
    posts = [
        ("/api/v1/me/webhooks/", hook, lambda: Webhook.objects.filter(user=users[0]).count()),
        (f"/api/v1/games/{game.pk}/chat/", {"body": "hello"},
         lambda: ChatMessage.objects.filter(game=game).count()),
        ("/api/v1/reports/", {"target": "game", "id": game.pk, "reason": "spam"},
         Report.objects.count),
        (f"/api/v1/games/{lobby.pk}/invite/", {"username": UserFactory().username},
         lambda: GameInvitation.objects.filter(game=lobby).count()),
    ]
    for path, body, count in posts:
        before = count()
        answers = [client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=f"key {path}")
                   for _ in range(2)]
        assert answers[0].status_code == answers[1].status_code < 300, answers[0].content
        assert answers[1]["Idempotent-Replayed"] == "true"
        assert count() == before + 1, path
        if answers[0].status_code == 201:  # what it made, at its own address
            assert answers[0]["Location"] == answers[1]["Location"]
            shown = client.get(answers[0]["Location"])
            assert shown.status_code == 200 and shown.json()["id"] == answers[0].json()["id"]


@pytest.mark.django_db(transaction=True)
def test_two_racing_posts_with_one_key_make_one_game():
    user = UserFactory()
    answers, start = [], threading.Barrier(2)

    def post():
        try:
            start.wait()
            answers.append(_signed_in(user).post("/api/v1/games/", NEW_GAME, format="json",
                                                 HTTP_IDEMPOTENCY_KEY="race"))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer.status_code for answer in answers) == [201, 201]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    assert Game.objects.filter(created_by=user).count() == 1


def test_a_password_login_retried_with_its_key_makes_one_token():
    user = confirm_email(UserFactory())
    login, key = {"username": user.username, "password": PASSWORD}, str(uuid.uuid4())
    first = APIClient().post("/api/v1/auth/token/", login, format="json", HTTP_IDEMPOTENCY_KEY=key)
    again = APIClient().post("/api/v1/auth/token/", login, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == again.status_code == 200
    assert first.json()["token"].startswith("tp_") and "Idempotent-Replayed" not in first
    # The token is shown once: the replay says whose it is, not the token again.
    assert again.json() == {"username": user.username}
    assert again["Idempotent-Replayed"] == "true"
    assert PersonalAccessToken.objects.filter(user=user).count() == 1
    # The password is not part of what is kept of the request, not even hashed.
    record = IdempotencyRecord.objects.get(user=user, key=key)
    assert record.request_fingerprint == hashlib.sha256(json.dumps(
        ["POST", "/api/v1/auth/token", {"username": user.username}],
        separators=(",", ":")).encode()).hexdigest()
    # A wrong password with the key is refused as ever and replays nothing.
    wrong = APIClient().post("/api/v1/auth/token/", {**login, "password": "nope"},
                             format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert wrong.status_code == 401 and "Idempotent-Replayed" not in wrong
    # The same key with another login of the account is another request: refused.
    by_mail = APIClient().post("/api/v1/auth/token/", {**login, "username": user.email},
                               format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert by_mail.status_code == 422 and by_mail.json()["code"] == "idempotency_key_reused"
    # Without a key, each login makes its own token.
    APIClient().post("/api/v1/auth/token/", login, format="json")
    assert PersonalAccessToken.objects.filter(user=user).count() == 2
