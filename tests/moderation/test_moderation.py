"""Chat, reports, and every moderator action through the Django admin with a test client;
permissions; sanctions enforced on the web and the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import Sanction
from games import services
from games.models import AuditEntry, ChatMessage, Game, Report, Seat
from notifications.models import Notification
from tests.factories import UserFactory, committed, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


def admin_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def started(players=2, **options):
    return started_game(players, **options)


def run_action(client, url, action, ids, **fields):
    """Posts an admin action, then confirms its intermediate form."""
    first = client.post(url, {"action": action, "_selected_action": ids})
    assert first.status_code == 200, first.content[:500]
    assert b"Confirm" in first.content
    with committed():
        return client.post(url, {"action": action, "_selected_action": ids, "apply": "1",
                                 **fields}, follow=True)


# ---- chat -----------------------------------------------------------------------------------


def test_players_chat_spectators_read_and_mentions_notify(api_client):
    game, (alice, bob) = started(2)
    api_client.force_authenticate(alice)
    with committed():
        response = api_client.post(f"/api/v1/games/{game.pk}/chat/",
                                   {"body": f"  good luck @{bob.username}!  "}, format="json")
    assert response.status_code == 201 and response.json()["body"] == (
        f"good luck @{bob.username}!")
    mention = Notification.objects.get(kind="mention")
    assert mention.user == bob and mention.context["author"] == alice.public_name
    spectator = UserFactory()
    api_client.force_authenticate(spectator)
    listing = api_client.get(f"/api/v1/games/{game.pk}/chat/").json()
    assert [m["body"] for m in listing["results"]] == [f"good luck @{bob.username}!"]
    refused = api_client.post(f"/api/v1/games/{game.pk}/chat/", {"body": "hi"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"


def test_chat_length_limit_empty_messages_and_throttling(api_client):
    game, (alice, bob) = started(2)
    api_client.force_authenticate(alice)
    url = f"/api/v1/games/{game.pk}/chat/"
    too_long = api_client.post(url, {"body": "x" * 501}, format="json")
    assert too_long.status_code == 400 and "500" in too_long.json()["message"]
    empty = api_client.post(url, {"body": "   "}, format="json")
    assert empty.status_code == 400
    codes = [api_client.post(url, {"body": f"msg {i}"}, format="json").status_code
             for i in range(6)]
    assert codes == [201] * 5 + [429]
    assert ChatMessage.objects.count() == 5


def test_private_game_chat_is_hidden_from_outsiders(api_client):
    alice = UserFactory()
    game = services.game_create(creator=alice, engine_slug="toy", num_players=2,
                                allow_spectators=False)
    api_client.force_authenticate(UserFactory())
    assert api_client.get(f"/api/v1/games/{game.pk}/chat/").status_code == 404


def test_chat_on_the_game_page(client):
    game, (alice, bob) = started(2)
    client.force_login(alice)
    page = client.post(f"/games/{game.pk}/chat/", {"body": "hello table"}, follow=True)
    assert "hello table" in page.content.decode()


# ---- reports --------------------------------------------------------------------------------


def test_reports_of_messages_players_and_games(api_client):
    game, (alice, bob) = started(2)
    message = services.chat_post(game_id=game.pk, user=bob, body="rude words")
    api_client.force_authenticate(alice)
    for target, object_id in (("message", message.pk), ("player", bob.pk), ("game", game.pk)):
        response = api_client.post("/api/v1/reports/", {
            "target": target, "id": object_id, "reason": "abuse", "details": "see chat"},
            format="json")
        assert response.status_code == 201, response.content
    assert Report.objects.filter(status="open").count() == 3
    # The same open report twice is one report.
    api_client.post("/api/v1/reports/", {"target": "player", "id": bob.pk, "reason": "abuse"},
                    format="json")
    assert Report.objects.count() == 3
    own = api_client.post("/api/v1/reports/", {"target": "player", "id": alice.pk,
                                               "reason": "abuse"}, format="json")
    assert own.status_code == 422 and "yourself" in own.json()["message"]
    missing = api_client.post("/api/v1/reports/", {"target": "message", "id": 99999,
                                                   "reason": "spam"}, format="json")
    assert missing.status_code == 422
    bad_reason = api_client.post("/api/v1/reports/", {"target": "game", "id": game.pk,
                                                      "reason": "boring"}, format="json")
    assert bad_reason.status_code == 400


# ---- permissions ----------------------------------------------------------------------------


def test_a_player_cannot_reach_the_admin(client):
    client.force_login(UserFactory())
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response.url
    assert client.get("/admin/games/game/").status_code == 302


def test_a_moderator_sees_moderation_but_cannot_do_superuser_things(moderator):
    client = admin_client(moderator)
    game, (alice, bob) = started(2)
    assert client.get("/admin/").status_code == 200
    for url in ("/admin/games/game/", f"/admin/games/game/{game.pk}/change/",
                "/admin/games/report/", "/admin/games/auditentry/", "/admin/accounts/user/",
                "/admin/games/chatmessage/"):
        assert client.get(url).status_code == 200, url
    # No adding or deleting users, no groups, no editing a player's account or a game.
    assert client.get("/admin/accounts/user/add/").status_code == 403
    assert client.get(f"/admin/accounts/user/{alice.pk}/delete/").status_code == 403
    assert client.get("/admin/auth/group/").status_code == 403
    response = client.post(f"/admin/accounts/user/{alice.pk}/change/",
                           {"username": "renamed", "is_superuser": "on"})
    assert response.status_code == 403
    alice.refresh_from_db()
    assert alice.username != "renamed" and not alice.is_superuser
    assert client.post(f"/admin/games/game/{game.pk}/change/", {"version": 99}).status_code == 403
    assert client.get(f"/admin/games/game/{game.pk}/delete/").status_code == 403
    game.refresh_from_db()
    assert game.version == 0


def test_even_a_superuser_cannot_edit_game_state_or_the_log():
    root = UserFactory(is_staff=True, is_superuser=True)
    client = admin_client(root)
    game, (alice, bob) = started(2)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert 'name="state"' not in page and 'name="version"' not in page
    assert "replay verified" in page.lower()
    assert client.post(f"/admin/games/game/{game.pk}/change/", {"version": 9}).status_code == 403
    assert client.get("/admin/games/action/").status_code in (403, 404)


# ---- every moderator action through the admin -------------------------------------------------


def test_extend_a_deadline(moderator):
    game, _ = started(2)
    before = Seat.objects.get(game=game, number=1).deadline_at
    response = run_action(admin_client(moderator), "/admin/games/game/", "extend_deadline",
                          [game.pk], seat=1, hours=48, reason="player asked, family matter")
    assert b"done for 1" in response.content
    assert Seat.objects.get(game=game, number=1).deadline_at == before + timedelta(hours=48)
    entry = AuditEntry.objects.get(action="extend_deadline")
    assert (entry.actor, entry.target_id, entry.reason) == (moderator, game.pk,
                                                            "player asked, family matter")
    assert entry.before["deadline_at"] == before.isoformat()
    assert entry.after["deadline_at"] == (before + timedelta(hours=48)).isoformat()


def test_a_reason_is_required(moderator):
    game, _ = started(2)
    client = admin_client(moderator)
    response = client.post("/admin/games/game/", {"action": "abort_games",
                                                  "_selected_action": [game.pk], "apply": "1",
                                                  "reason": ""})
    assert b"This field is required" in response.content
    assert Game.objects.get(pk=game.pk).status == "active"
    assert not AuditEntry.objects.exists()


def test_force_a_timeout(moderator):
    game, (alice, bob) = started(2)
    run_action(admin_client(moderator), "/admin/games/game/", "force_timeout", [game.pk],
               seat=0, reason="stalling reported")
    game.refresh_from_db()
    assert game.actions.get(source="timeout").seat_number == 0
    assert Seat.objects.get(game=game, number=0).timeout_count == 1
    assert AuditEntry.objects.get(action="force_timeout").after["version"] == game.version


def test_hand_a_seat_to_the_bot_and_back(moderator):
    game, (alice, bob) = started(2)
    client = admin_client(moderator)
    run_action(client, "/admin/games/game/", "hand_seat_to_bot", [game.pk], seat=1,
               reason="absent")
    seat = Seat.objects.get(game=game, number=1)
    assert seat.is_bot and seat.user == bob
    game.refresh_from_db()
    assert game.actions.filter(source="bot", seat_number=1).exists()  # the bot played at once
    run_action(client, "/admin/games/game/", "return_seat_to_player", [game.pk], seat=1,
               reason="back from holidays")
    assert not Seat.objects.get(game=game, number=1).is_bot
    assert list(AuditEntry.objects.order_by("pk").values_list("action", flat=True)) == [
        "seat_to_bot", "seat_to_player"]


def test_abort_a_game(moderator):
    game, _ = started(2)
    run_action(admin_client(moderator), "/admin/games/game/", "abort_games", [game.pk],
               reason="abandoned by both")
    assert Game.objects.get(pk=game.pk).status == "aborted"
    entry = AuditEntry.objects.get(action="abort_game")
    assert entry.before == {"status": "active"} and entry.after == {"status": "aborted"}


def test_hide_a_chat_message(moderator, api_client):
    game, (alice, bob) = started(2)
    message = services.chat_post(game_id=game.pk, user=bob, body="something abusive")
    run_action(admin_client(moderator), "/admin/games/chatmessage/", "hide_messages",
               [message.pk], reason="abuse")
    api_client.force_authenticate(alice)
    shown = api_client.get(f"/api/v1/games/{game.pk}/chat/").json()["results"][0]
    assert shown["hidden"] is True and shown["body"] == ""
    assert AuditEntry.objects.get(action="hide_message").before["body"] == "something abusive"


def test_warn_suspend_and_ban(moderator):
    game, (alice, bob) = started(2)
    client = admin_client(moderator)
    run_action(client, "/admin/accounts/user/", "warn_players", [bob.pk], reason="be nice")
    assert Sanction.objects.get(user=bob).kind == "warning"
    assert Notification.objects.get(user=bob, kind="moderation").context["text"].endswith(
        "Reason: be nice")
    run_action(client, "/admin/accounts/user/", "suspend_players", [bob.pk], days=3,
               reason="insults")
    suspension = Sanction.objects.get(user=bob, kind="suspension")
    assert timedelta(days=2, hours=23) < suspension.ends_at - suspension.created_at
    run_action(client, "/admin/accounts/user/", "ban_players", [alice.pk], reason="cheating")
    assert Sanction.objects.get(user=alice).kind == "ban"
    assert list(AuditEntry.objects.order_by("pk").values_list("action", flat=True)) == [
        "warning", "suspension", "ban"]
    # A moderator cannot sanction another moderator.
    other = UserFactory(is_staff=True)
    other.groups.add(Group.objects.get(name="Moderators"))
    page = run_action(client, "/admin/accounts/user/", "ban_players", [other.pk], reason="x")
    assert b"sanctioned by an administrator" in page.content
    assert not Sanction.objects.filter(user=other).exists()


def test_lift_a_sanction(moderator):
    user = UserFactory()
    client = admin_client(moderator)
    run_action(client, "/admin/accounts/user/", "ban_players", [user.pk], reason="spam")
    sanction = Sanction.objects.get(user=user)
    run_action(client, "/admin/accounts/sanction/", "lift_sanctions", [sanction.pk],
               reason="appeal accepted")
    sanction.refresh_from_db()
    assert sanction.lifted_at is not None
    services.game_create(creator=user, engine_slug="toy", num_players=2)


def test_the_open_reports_queue_and_closing_reports(moderator):
    game, (alice, bob) = started(2)
    report = services.report_create(reporter=alice, target="player", object_id=bob.pk,
                                    reason="stalling")
    client = admin_client(moderator)
    queue = client.get("/admin/games/report/").content.decode()
    assert f"Report #{report.pk}" in queue or "stalling" in queue.lower()
    run_action(client, "/admin/games/report/", "resolve_reports", [report.pk],
               reason="warned the player")
    report.refresh_from_db()
    assert report.status == "resolved" and report.handled_by == moderator
    queue = client.get("/admin/games/report/").content.decode()
    assert "0 reports" in queue or "0 report" in queue
    reported = client.get("/admin/games/game/?reported=yes").content.decode()
    assert f">{game.pk}<" not in reported


def test_the_audit_trail_is_read_only(moderator):
    game, _ = started(2)
    from games.services import moderation

    entry = moderation.game_abort(moderator=moderator, game=game, reason="test")
    client = admin_client(moderator)
    assert client.get(f"/admin/games/auditentry/{entry.pk}/change/").status_code == 200
    assert client.post(f"/admin/games/auditentry/{entry.pk}/change/",
                       {"reason": "edited"}).status_code == 403
    assert client.get(f"/admin/games/auditentry/{entry.pk}/delete/").status_code == 403
    root = admin_client(UserFactory(is_staff=True, is_superuser=True))
    assert root.post(f"/admin/games/auditentry/{entry.pk}/change/",
                     {"reason": "edited"}).status_code == 403


def test_stalled_and_reported_filters(moderator):
    game, (alice, bob) = started(2)
    quiet, _ = started(2)
    Seat.objects.filter(game=game).update(deadline_at=game.started_at - timedelta(hours=1))
    services.report_create(reporter=alice, target="game", object_id=quiet.pk, reason="other")
    client = admin_client(moderator)
    stalled = client.get("/admin/games/game/?stalled=yes").context["cl"].result_list
    assert [g.pk for g in stalled] == [game.pk]
    reported = client.get("/admin/games/game/?reported=yes").context["cl"].result_list
    assert [g.pk for g in reported] == [quiet.pk]


# ---- sanctions enforced ---------------------------------------------------------------------


def test_a_suspended_player_cannot_act_chat_or_create_on_web_and_api(moderator, api_client):
    from games.services import moderation

    game, (alice, bob) = started(2)
    moderation.user_suspend(moderator=moderator, user=alice, days=2, reason="abuse")
    api_client.force_authenticate(alice)
    move = api_client.post(f"/api/v1/games/{game.pk}/actions/",
                           {"action": {"type": "bid", "amount": 1}, "version": 0},
                           format="json")
    assert move.status_code == 403 and "suspended until" in move.json()["message"]
    chat = api_client.post(f"/api/v1/games/{game.pk}/chat/", {"body": "hi"}, format="json")
    assert chat.status_code == 403
    create = api_client.post("/api/v1/games/", {"engine": "toy", "num_players": 2},
                             format="json")
    assert create.status_code == 403 and create.json()["code"] == "not_allowed"
    client = Client()
    client.force_login(alice)
    page = client.post(f"/games/{game.pk}/act/", {"version": 0, "index": 0, "confirm": "1"},
                       follow=True).content.decode()
    assert "suspended until" in page
    page = client.post("/games/new/", {"engine": "toy", "num_players": 2,
                                       "time_per_move": 86400, "reserve": 0,
                                       "max_consecutive_timeouts": 3}).content.decode()
    assert "suspended until" in page
    game.refresh_from_db()
    assert game.version == 0 and Game.objects.count() == 1
    # Her running game goes on under the timeout policy.
    with committed():
        services.deadlines_sweep(now=Seat.objects.get(game=game, user=alice).deadline_at)
    assert game.actions.filter(source="timeout", seat_number=0).exists()


def test_a_banned_player_cannot_join(moderator):
    from games.services import moderation

    banned = UserFactory()
    moderation.user_ban(moderator=moderator, user=banned, reason="spam")
    game = services.game_create(creator=UserFactory(), engine_slug="toy", num_players=2)
    from games.exceptions import NotAllowed

    with pytest.raises(NotAllowed, match="banned"):
        services.game_join(game_id=game.pk, user=banned)


def test_even_a_superuser_cannot_add_or_delete_kept_records():
    """Games, reports, sanctions and the audit trail change only through audited actions: no
    add or delete page and no bulk "delete selected" action, even for a superuser."""
    client = admin_client(UserFactory(is_staff=True, is_superuser=True))
    for model in ("games/game", "games/report", "accounts/sanction", "games/auditentry",
                  "games/chatmessage"):
        listing = client.get(f"/admin/{model}/")
        assert listing.status_code == 200, model
        form = listing.context["action_form"]  # None when a page has no actions at all
        actions = [name for name, _label in form.fields["action"].choices] if form else []
        assert "delete_selected" not in actions, model
        assert client.get(f"/admin/{model}/add/").status_code == 403, model
