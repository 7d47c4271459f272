"""A game's webhooks against a real HTTP receiver on loopback: its host (and moderators)
register them through the API or the settings page, token scopes hold (`manage`), each public
event (turn with the deadline, start, end, public chat) arrives signed in the chosen format, and
nothing a spectator may not see (hands, pending picks) is ever in a payload."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from accounts.tokens import token_create
from games import services
from games.engines.registry import get_engine
from games.engines.seven_wonders.data import CARDS
from notifications.channels import webhooks
from notifications.models import Webhook, WebhookDelivery
from tests.api.clients import token_client
from tests.factories import UserFactory, committed, open_game, started_game
from tests.live.receiver import Receiver
from tests.live.test_webhooks import local_targets, verify  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db]

ALL_EVENTS = list(webhooks.GAME_WEBHOOK_KINDS)


def scoped_client(user, scopes: list[str]) -> APIClient:
    client = APIClient()
    raw = token_create(user=user, name="test", scopes=scopes, via="test")[1]
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    return client


def first_move(game, users):
    game.refresh_from_db()
    engine = get_engine(game.engine)
    mover = engine.active_seats(game.state)[0]
    with committed():
        services.game_action_submit(game_id=game.pk, user=users[mover],
                                    expected_version=game.version,
                                    action=engine.legal_actions(game.state, mover)[0])
    return mover


def test_the_host_registers_a_game_webhook_and_hears_of_turns_signed(local_targets):  # noqa: F811
    game, users = started_game(2, engine="stone_age", seed="game-hook-json")
    host = game.created_by
    host.timezone = "Europe/Rome"
    host.save()
    client = token_client(host)
    with Receiver() as receiver:
        created = client.post(f"/api/v1/games/{game.pk}/webhooks/",
                              {"url": receiver.url, "kinds": ["turn"]}, format="json")
        assert created.status_code == 201, created.content
        hook = created.json()
        assert (hook["game"], hook["registered_by"]) == (game.pk, host.public_name)
        mover = first_move(game, users)
        assert len(receiver.requests) == 1
    request = receiver.requests[0]
    assert verify(hook["secret"], request["headers"]["Turnpost-Signature"], request["body"])
    assert request["headers"]["Turnpost-Event"] == "turn"
    payload = json.loads(request["body"])
    waiting = game.seats.select_related("user").get(number=1 - mover)
    deadline = waiting.deadline_at.astimezone(host.zone)
    assert payload["text"] == (f"{waiting.user.public_name}'s turn in Stone Age #{game.pk} — "
                               f"deadline {deadline:%a %H:%M}")
    assert payload["awaiting"] == [{"seat": waiting.number, "player": waiting.user.public_name,
                                    "deadline_at": waiting.deadline_at.isoformat()}]
    assert payload["game"]["id"] == game.pk and payload["game"]["url"].endswith(
        f"/games/{game.pk}/")
    assert set(payload) == {"event", "text", "game", "awaiting"}
    # The delivery log, the same as a player's webhook's; the player's own list stays apart.
    log = client.get(f"/api/v1/games/{game.pk}/webhooks/{hook['id']}/deliveries/").json()
    assert [(row["kind"], row["status"], row["response_status"]) for row in log] == [
        ("turn", "delivered", 200)]
    assert client.get("/api/v1/me/webhooks/").json() == []
    assert [row["id"] for row in client.get(f"/api/v1/games/{game.pk}/webhooks/").json()] == [
        hook["id"]]


@pytest.mark.parametrize(("preset", "field"), [("discord", "content"), ("slack", "text")])
def test_discord_and_slack_presets_name_the_awaited_player_and_deadline(local_targets, preset,  # noqa: F811
                                                                       field):
    game, users = started_game(3, engine="seven_wonders", seed=f"game-hook-{preset}")
    with Receiver() as receiver:
        webhooks.webhook_create(user=game.created_by, game=game, url=receiver.url,
                                kinds=["turn", "game_finished"], format=preset)
        game.refresh_from_db()
        engine = get_engine("seven_wonders")
        with committed():  # every seat picks: the round resolves, all three are awaited again
            for seat in range(3):
                game.refresh_from_db()
                services.game_action_submit(game_id=game.pk, user=users[seat],
                                            action=engine.legal_actions(game.state, seat)[0],
                                            expected_version=game.version)
        assert len(receiver.requests) == 1, [r["body"] for r in receiver.requests]
        seats = list(game.seats.select_related("user").order_by("number"))
        deadline = min(seat.deadline_at for seat in seats).astimezone(game.created_by.zone)
        names = [seat.user.public_name for seat in seats]
        assert json.loads(receiver.requests[0]["body"])[field] == (
            f"{names[0]}, {names[1]} and {names[2]} to move in 7 Wonders #{game.pk} — "
            f"deadline {deadline:%a %H:%M}")
        with committed():
            services.game_resign(game_id=game.pk, user=users[0])
            services.game_resign(game_id=game.pk, user=users[1])
        game.refresh_from_db()
        assert game.status == "finished"
        winner = game.seats.get(number=game.result["winners"][0]).user.public_name
        assert json.loads(receiver.requests[-1]["body"])[field] == (
            f"7 Wonders #{game.pk} is over: {winner} won")


def test_start_and_public_chat_reach_the_games_webhook_private_chat_does_not(local_targets):  # noqa: F811
    public, public_users = open_game(2, engine="stone_age")
    private, private_users = open_game(2, engine="stone_age")
    # Only invited players may join a private game: spectators are turned off once seated.
    type(private).objects.filter(pk=private.pk).update(allow_spectators=False)
    private.refresh_from_db()
    with Receiver() as receiver:
        for game in (public, private):
            webhooks.webhook_create(user=game.created_by, game=game, url=receiver.url,
                                    kinds=ALL_EVENTS)
        for game, users in ((public, public_users), (private, private_users)):
            with committed():
                services.game_start(game_id=game.pk, user=users[0])
                services.chat_post(game_id=game.pk, user=users[1], body="good luck all")
        bodies = [json.loads(request["body"]) for request in receiver.requests]
    events = [(body["game"]["id"], body["event"]) for body in bodies]
    assert events == [(public.pk, "game_started"), (public.pk, "chat"),
                      (private.pk, "game_started")]
    started, chat = bodies[0], bodies[1]
    assert started["text"].startswith(f"Stone Age #{public.pk} has started: ")
    assert chat["chat"]["text"] == "good luck all"
    assert chat["text"] == f"{public_users[1].public_name} in Stone Age #{public.pk}: good luck all"


def test_only_the_host_and_moderators_manage_a_games_webhooks_and_scopes_hold(local_targets):  # noqa: F811
    game, users = started_game(2, engine="stone_age", seed="game-hook-who")
    host = game.created_by
    player = next(user for user in users if user != host)
    url = f"/api/v1/games/{game.pk}/webhooks/"
    body = {"url": "http://127.0.0.1:9/hook", "kinds": ["turn"]}
    refused = token_client(player).post(url, body, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"
    assert token_client(UserFactory()).get(url).status_code == 403
    assert token_client(host).post("/api/v1/games/999999/webhooks/", body,
                                   format="json").status_code == 404
    bot = scoped_client(host, ["read", "play", "chat"])
    for no_scope in (bot.get(url), bot.post(url, body, format="json")):
        assert no_scope.status_code == 403 and no_scope.json()["code"] == "insufficient_scope"
        assert no_scope.json()["details"] == {"required_scope": "manage"}
    bad = token_client(host).post(url, {**body, "kinds": ["your_turn"]}, format="json")
    assert bad.status_code == 400
    assert not Webhook.objects.exists()

    moderator = UserFactory(is_staff=True)
    moderator.groups.add(Group.objects.get(name="Moderators"))
    by_moderator = scoped_client(moderator, ["manage"]).post(url, body, format="json")
    assert by_moderator.status_code == 201, by_moderator.content
    hook_id = by_moderator.json()["id"]
    # The host sees and manages it too; a player of the game cannot.
    assert token_client(player).delete(f"{url}{hook_id}/").status_code == 403
    assert token_client(host).post(f"{url}{hook_id}/enable/").status_code == 200
    assert token_client(host).delete(f"{url}{hook_id}/").status_code == 204
    # A player's own webhook is not reachable through a game's address, nor the reverse.
    own = webhooks.webhook_create(user=host, url=body["url"], kinds=["your_turn"])
    assert token_client(host).delete(f"{url}{own.pk}/").status_code == 404


def test_the_settings_page_adds_a_webhook_to_a_hosted_game_only(client, local_targets):  # noqa: F811
    game, users = open_game(2, engine="stone_age")
    host, player = users
    client.force_login(host)
    page = client.get("/notifications/live/")
    assert f'<option value="{game.pk}">' in page.content.decode()
    response = client.post("/notifications/webhooks/", {
        "game": game.pk, "url": "http://127.0.0.1:9/hook", "format": "discord",
        "kinds": ["turn", "chat"]}, follow=True)
    assert "Webhook added." in response.content.decode()
    hook = Webhook.objects.get()
    assert (hook.game_id, hook.user, hook.kinds, hook.format) == (
        game.pk, host, ["chat", "turn"], "discord")
    assert game.title in client.get("/notifications/live/").content.decode()
    client.force_login(player)
    refused = client.post("/notifications/webhooks/", {
        "game": game.pk, "url": "http://127.0.0.1:9/hook", "kinds": ["turn"]}, follow=True)
    assert "Only the game&#x27;s creator and moderators" in refused.content.decode()
    assert Webhook.objects.count() == 1


def test_a_games_webhook_never_carries_hands_or_pending_picks(local_targets):  # noqa: F811
    """7 Wonders with pending picks: the game's webhook hears of every public event (start,
    chat, the next round's turn) and never a card of anyone's hand or pick."""
    game, users = open_game(3, engine="seven_wonders")
    engine = get_engine("seven_wonders")
    with Receiver() as receiver:
        webhooks.webhook_create(user=game.created_by, game=game, url=receiver.url,
                                kinds=ALL_EVENTS)
        with committed():
            services.game_start(game_id=game.pk, user=users[0])
        by_seat = {seat.number: seat.user for seat in game.seats.all()}
        hidden = set()
        for round_number in range(2):
            game.refresh_from_db()
            hidden |= {card for hand in game.state["hands"] for card in hand}
            for seat in range(3):
                game.refresh_from_db()
                pick = engine.legal_actions(game.state, seat)[0]
                with committed():
                    services.game_action_submit(game_id=game.pk, user=by_seat[seat],
                                                action=pick, expected_version=game.version)
                    services.chat_post(game_id=game.pk, user=by_seat[seat],
                                       body=f"round {round_number}: seat {seat} picked")
                if seat < 2:  # a pick is pending: nothing said so far names a card
                    said = b"".join(request["body"] for request in receiver.requests).decode()
                    assert not [card for card in hidden
                                if card in said or CARDS[card]["name"] in said]
        bodies = [json.loads(request["body"]) for request in receiver.requests]
    assert [body["event"] for body in bodies] == (
        ["game_started"] + ["chat"] * 3 + ["turn"] + ["chat"] * 3 + ["turn"])
    # Hands dealt in the last round were never shown to anyone but their holders.
    game.refresh_from_db()
    said = json.dumps(bodies, ensure_ascii=False)
    still_hidden = {card for hand in game.state["hands"] for card in hand}
    assert not [card for card in still_hidden if CARDS[card]["name"] in said]
    for body in bodies:
        assert set(body) <= {"event", "text", "game", "awaiting", "chat"}, body
    assert WebhookDelivery.objects.filter(status="delivered").count() == len(bodies)
