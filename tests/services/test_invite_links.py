"""Invite links (tampered, expired, reused), answers to invitations, private games seen and
joined only by the invited and the seated (API, page, lobby), start when full, rematch and the
minimum requirements for joining."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from games import services
from games.exceptions import InvitationError, LobbyError, NotAllowed
from games.models import Game, GameInvitation, GameStatus, Seat
from games.services import invitations as invites
from games.services.reliability import deadline_record
from notifications.models import Notification
from tests.factories import UserFactory, committed, open_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _unpaced(settings):
    settings.GAME_INVITATION_MIN_SECONDS = 0


def private_game(players=3, **options):
    creator = UserFactory()
    game = services.game_create(creator=creator, engine_slug="toy", num_players=players,
                                allow_spectators=False, **options)
    return game, creator


# ---- invite link tokens ----


def test_a_link_lets_anyone_holding_it_join_a_private_game_until_it_is_full():
    game, alice = private_game(players=3)
    token = invites.invite_token(game)
    bob, carol, dave = UserFactory(), UserFactory(), UserFactory()
    with pytest.raises(NotAllowed, match="private"):
        services.game_join(game_id=game.pk, user=bob)
    invites.invite_link_join(token=token, user=bob)
    # The same link, reused by someone else: it is meant to be passed on.
    invites.invite_link_join(token=token, user=carol)
    with pytest.raises(LobbyError, match="This game is full"):
        invites.invite_link_join(token=token, user=dave)
    with pytest.raises(LobbyError, match="already have a seat"):
        invites.invite_link_join(token=token, user=bob)
    assert set(game.seats.values_list("user_id", flat=True)) == {alice.pk, bob.pk, carol.pk}


def test_a_tampered_link_is_refused_and_changes_nothing():
    game, alice = private_game()
    other, _ = private_game()
    token = invites.invite_token(game)
    bob = UserFactory()
    forged = token.replace(token.split(":")[0], invites.invite_token(other).split(":")[0])
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), forged, "garbage",
                token + "x"):
        with pytest.raises(InvitationError, match="not valid"):
            invites.invite_link_join(token=bad, user=bob)
    assert not Seat.objects.filter(user=bob).exists()


def test_an_expired_link_is_refused(settings):
    settings.INVITE_LINK_MAX_AGE_DAYS = 3
    game, _ = private_game()
    bob = UserFactory()
    with time_machine.travel(timezone.now() - timedelta(days=3, minutes=1)):
        token = invites.invite_token(game)
    with pytest.raises(InvitationError, match="expired"):
        invites.invite_link_join(token=token, user=bob)
    with time_machine.travel(timezone.now() - timedelta(days=2, hours=23)):
        fresh = invites.invite_token(game)
    invites.invite_link_join(token=fresh, user=bob)
    assert game.seats.filter(user=bob).exists()


def test_a_link_to_a_started_game_no_longer_seats_anyone():
    game, users = open_game(2)
    token = invites.invite_token(game)
    services.game_start(game_id=game.pk, user=users[0])
    with pytest.raises(LobbyError, match="already started"):
        invites.invite_link_join(token=token, user=UserFactory())


@pytest.mark.parametrize("signed_in", [False, True])
def test_a_dead_link_page_shows_nothing_about_the_game(signed_in):
    game, creator = private_game(players=2, name="Secret Sunday table")
    path = invites.invite_path(game)
    bob = UserFactory()
    invites.invite_link_join(token=invites.invite_token(game), user=bob)
    with committed():
        services.game_start(game_id=game.pk, user=creator)
    client = Client()
    if signed_in:
        client.force_login(UserFactory())
    page = client.get(path)
    body = page.content.decode()
    assert page.status_code == 410 and "no longer opens a game" in body
    for secret in ("Secret Sunday table", creator.public_name, bob.public_name, "Toy"):
        assert secret not in body
    # A player of the game is still taken to it.
    seated = Client()
    seated.force_login(bob)
    assert seated.get(path).url == f"/games/{game.pk}/"


def test_the_link_page_offers_join_logged_in_and_sign_up_logged_out():
    game, alice = private_game()
    path = invites.invite_path(game)
    anonymous = Client().get(path)
    body = anonymous.content.decode()
    assert anonymous.status_code == 200
    assert f"/accounts/signup/?next={path.replace(':', '%3A')}" in body
    assert f"/accounts/login/?next={path.replace(':', '%3A')}" in body
    bob = UserFactory()
    client = Client()
    client.force_login(bob)
    page = client.get(path).content.decode()
    assert "Join Toy" in page
    joined = client.post(path, follow=True)
    assert joined.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert game.seats.filter(user=bob).exists()
    # Reused by a seated player: straight to the game.
    assert client.get(path).url == f"/games/{game.pk}/"
    bad = Client().get(path[:-3] + "xx/")
    assert bad.status_code == 400 and "not valid" in bad.content.decode()


def test_the_api_gives_the_link_to_players_and_joins_with_it(api_client):
    game, alice = private_game()
    bob = UserFactory()
    api_client.force_authenticate(bob)
    assert api_client.get(f"/api/v1/games/{game.pk}/invite-link/").status_code == 404
    api_client.force_authenticate(alice)
    link = api_client.get(f"/api/v1/games/{game.pk}/invite-link/").json()
    assert link["url"].endswith(invites.invite_path(game)) and link["expires_in_days"] == 14
    api_client.force_authenticate(bob)
    joined = api_client.post(f"/api/v1/invite-links/{link['token']}/join/")
    assert joined.status_code == 200 and joined.json()["your_seat"] is None
    assert game.seats.filter(user=bob).exists()
    refused = api_client.post("/api/v1/invite-links/nonsense/join/")
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_invitation"


# ---- private games: visible only to the invited and the seated ----


def test_a_private_game_is_seen_only_by_its_players_and_invitees(api_client):
    game, alice = private_game()
    bob, stranger = UserFactory(), UserFactory()
    services.game_invite(game_id=game.pk, inviter=alice, login=bob.username)
    lobby = Client()
    for user, sees in ((alice, True), (bob, True), (stranger, False)):
        api_client.force_authenticate(user)
        listed = {g["id"] for g in api_client.get("/api/v1/games/").json()["results"]}
        assert (game.pk in listed) is sees
        assert api_client.get(f"/api/v1/games/{game.pk}/").status_code == (200 if sees else 404)
        lobby.force_login(user)
        assert lobby.get(f"/games/{game.pk}/").status_code == (200 if sees else 404)
        lobby_page = lobby.get("/").content.decode()
        assert (f"/games/{game.pk}/" in lobby_page) is sees
    anonymous = Client()
    assert anonymous.get(f"/games/{game.pk}/").status_code == 404
    assert f"/games/{game.pk}/" not in anonymous.get("/").content.decode()
    api_client.force_authenticate(stranger)
    refused = api_client.post(f"/api/v1/games/{game.pk}/join/")
    assert refused.status_code == 404
    with pytest.raises(NotAllowed, match="private"):
        services.game_join(game_id=game.pk, user=stranger)


def test_declining_hides_the_game_tells_the_inviter_and_accepting_joins(api_client):
    game, alice = private_game(players=2)
    bob, carol = UserFactory(), UserFactory()
    with committed():
        services.game_invite(game_id=game.pk, inviter=alice, login=bob.username)
        services.game_invite(game_id=game.pk, inviter=alice, login=carol.username)
    api_client.force_authenticate(bob)
    assert api_client.post(f"/api/v1/games/{game.pk}/decline/").status_code == 204
    assert GameInvitation.objects.get(invitee=bob).status == "declined"
    assert api_client.get(f"/api/v1/games/{game.pk}/").status_code == 404
    with pytest.raises(NotAllowed, match="private"):
        services.game_join(game_id=game.pk, user=bob)
    web = Client()
    web.force_login(carol)
    page = web.get(f"/games/{game.pk}/").content.decode()
    assert "invited you" in page and "Accept and join" in page and "Decline" in page
    web.post(f"/games/{game.pk}/join/")
    assert GameInvitation.objects.get(invitee=carol).status == "accepted"
    told = Notification.objects.filter(user=alice, kind="game_lobby").order_by("pk")
    assert [n.context for n in told] == [
        {"event": "declined", "player": bob.public_name},
        {"event": "accepted", "player": carol.public_name},
        {"event": "full"},
    ]
    # Asked again, the invitee sees the game again.
    services.game_leave(game_id=game.pk, user=carol)
    services.game_invite(game_id=game.pk, inviter=alice, login=bob.username)
    assert GameInvitation.objects.get(invitee=bob).status == "pending"


def test_declining_without_an_invitation_or_once_seated_is_refused():
    game, alice = private_game()
    with pytest.raises(LobbyError, match="no invitation"):
        services.invitation_decline(game_id=game.pk, user=UserFactory())
    bob = UserFactory()
    services.game_invite(game_id=game.pk, inviter=alice, login=bob.username)
    services.game_join(game_id=game.pk, user=bob)
    with pytest.raises(LobbyError, match="leave it instead"):
        services.invitation_decline(game_id=game.pk, user=bob)


# ---- name, start when full ----


def test_a_named_game_starting_when_full_starts_with_the_last_join():
    alice, bob = UserFactory(), UserFactory()
    with committed():
        game = services.game_create(creator=alice, engine_slug="toy", num_players=2,
                                    name="Friday table", start_when_full=True)
        services.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.title == f"Friday table (Toy #{game.pk})"
    assert not Notification.objects.filter(kind="game_lobby").exists()
    assert Notification.objects.filter(kind="game_started").count() == 2


def test_a_full_game_waits_for_its_creator_who_is_told():
    game, users = open_game(2)
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
    notice = Notification.objects.get(kind="game_lobby")
    assert notice.user == users[0] and notice.context == {"event": "full"}


def test_a_game_name_is_checked():
    with pytest.raises(Exception, match="at most 80"):
        services.game_create(creator=UserFactory(), engine_slug="toy", num_players=2,
                             name="x" * 81)


# ---- rematch ----


def finished(players=3, **options):
    game, users = open_game(players, **options)
    services.game_start(game_id=game.pk, user=users[0])
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.FINISHED,
        result={"scores": [1] * players, "winners": [0], "breakdown": [{}] * players})
    return Game.objects.get(pk=game.pk), users


def test_a_rematch_invites_the_same_players_and_starts_when_all_accept(api_client):
    game, (alice, bob, carol) = finished(3, time_per_move=timedelta(hours=6), rated=False,
                                         options={"rounds": 1})
    api_client.force_authenticate(bob)
    with committed():
        answer = api_client.post(f"/api/v1/games/{game.pk}/rematch/")
    assert answer.status_code == 201
    assert answer["Location"].endswith(f"/api/v1/games/{answer.json()['id']}/")
    rematch = Game.objects.get(pk=answer.json()["id"])
    assert (rematch.rematch_of, rematch.created_by, rematch.options, rematch.time_per_move,
            rematch.rated, rematch.num_players) == (
        game, bob, {"rounds": 1}, timedelta(hours=6), False, 3)
    assert set(GameInvitation.objects.filter(game=rematch).values_list("invitee", flat=True)) \
        == {alice.pk, carol.pk}
    invited = Notification.objects.filter(kind="invitation", game=rematch)
    assert {n.user for n in invited} == {alice, carol}
    assert all(n.context["rematch_of"] == game.pk for n in invited)
    # Asked again (by anyone): the same rematch.
    assert services.game_rematch(game_id=game.pk, user=alice) == rematch
    services.game_join(game_id=rematch.pk, user=alice)
    rematch.refresh_from_db()
    assert rematch.status == GameStatus.OPEN
    services.game_join(game_id=rematch.pk, user=carol)
    rematch.refresh_from_db()
    assert rematch.status == GameStatus.ACTIVE


def test_a_rematch_keeps_bot_seats_and_only_players_may_ask():
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(creator=alice, engine_slug="toy", num_players=3)
    services.game_join(game_id=game.pk, user=bob)
    services.game_add_bot(game_id=game.pk, user=alice)
    services.game_start(game_id=game.pk, user=alice)
    with pytest.raises(LobbyError, match="finished"):
        services.game_rematch(game_id=game.pk, user=alice)
    Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED,
                                           result={"scores": [0, 0, 0], "winners": [0],
                                                   "breakdown": [{}] * 3})
    with pytest.raises(NotAllowed):
        services.game_rematch(game_id=game.pk, user=UserFactory())
    rematch = services.game_rematch(game_id=game.pk, user=alice)
    assert rematch.seats.filter(is_bot=True, user__isnull=True).count() == 1
    services.game_join(game_id=rematch.pk, user=bob)
    assert Game.objects.get(pk=rematch.pk).status == GameStatus.ACTIVE


def test_the_finished_game_page_offers_a_rematch_and_then_links_to_it():
    game, (alice, bob) = finished(2)
    web = Client()
    web.force_login(alice)
    page = web.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/rematch/" in page and "?version=0" in page
    answer = web.post(f"/games/{game.pk}/rematch/", follow=True)
    rematch = Game.objects.get(rematch_of=game)
    assert answer.redirect_chain[-1][0] == f"/games/{rematch.pk}/"
    assert f'href="/games/{rematch.pk}/"' in web.get(f"/games/{game.pk}/").content.decode()


# ---- minimum requirements ----


def test_minimum_reliability_and_rating_are_checked_on_join_with_a_reason():
    from games.models import Rating

    alice = UserFactory()
    game = services.game_create(creator=alice, engine_slug="toy", num_players=4,
                                min_reliability=80, min_rating=2.5)
    newcomer, flaky, steady = UserFactory(), UserFactory(), UserFactory()
    with pytest.raises(NotAllowed, match="no deadlines on record"):
        services.game_join(game_id=game.pk, user=newcomer)
    now = timezone.now()
    for user, outcomes in ((flaky, ["met", "timeout", "late", "met"]), (steady, ["met"] * 5)):
        seat = Seat(user=user, game=game)
        for outcome in outcomes:
            deadline_record(seat, deadline_at=now, outcome=outcome, now=now)
    with pytest.raises(NotAllowed, match=r"at least 80%; yours is 50% over your last 4"):
        services.game_join(game_id=game.pk, user=flaky)
    with pytest.raises(NotAllowed, match=r"Toy rating of at least 2.5; yours is 0.0"):
        services.game_join(game_id=game.pk, user=steady)
    Rating.objects.create(user=steady, engine="toy", mu=30, sigma=5, ordinal=15.0)
    services.game_join(game_id=game.pk, user=steady)
    # Invited by name: exempt; through the link: not.
    services.game_invite(game_id=game.pk, inviter=alice, login=newcomer.username)
    services.game_join(game_id=game.pk, user=newcomer)
    with pytest.raises(NotAllowed, match="reliability"):
        invites.invite_link_join(token=invites.invite_token(game), user=flaky)
    assert assert_seated(game) == {alice.pk, steady.pk, newcomer.pk}


def assert_seated(game) -> set[int]:
    return set(game.seats.values_list("user_id", flat=True))


def test_requirements_are_checked_at_creation(api_client):
    api_client.force_authenticate(UserFactory())
    bad = api_client.post("/api/v1/games/", {"engine": "toy", "num_players": 2,
                                             "min_reliability": 101}, format="json")
    assert bad.status_code == 400 and "min_reliability" in bad.json()["details"]["fields"]
    good = api_client.post("/api/v1/games/", {
        "engine": "toy", "num_players": 2, "min_reliability": 90, "min_rating": 1.5,
        "name": "Evening", "rated": False, "start_when_full": True}, format="json")
    assert good.status_code == 201
    body = good.json()
    assert (body["min_reliability"], body["min_rating"], body["name"], body["rated"],
            body["start_when_full"]) == (90, 1.5, "Evening", False, True)
