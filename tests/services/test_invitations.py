"""Invitations: one per game and invitee, an hourly limit per inviter counted in the database, the
same answer whoever is named, and an invited player can see and join a private open game."""

from __future__ import annotations

import statistics
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import services
from games.exceptions import InvitationError, InvitationsThrottled, LobbyError, NotAllowed
from games.models import GameInvitation, InvitationAttempt
from games.web import views
from notifications import policy as notification_policy
from notifications.models import Notification
from tests.factories import UserFactory, committed, started_game
from tests.services.racing import race

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _unpaced(settings):
    """Answers are padded to GAME_INVITATION_MIN_SECONDS; only the timing test needs that."""
    settings.GAME_INVITATION_MIN_SECONDS = 0


def invite_url(game) -> str:
    return f"/api/v1/games/{game.pk}/invite/"


def private_game(players=3):
    """An open game without spectators, created by a new player who is its only seat so far."""
    creator = UserFactory()
    game = services.game_create(creator=creator, engine_slug="toy", num_players=players,
                                allow_spectators=False)
    return game, creator


# ---- one invitation per game and invitee --------------------------------------------------------


def test_repeating_an_invitation_notifies_once(api_client):
    game, alice = private_game()
    bob = UserFactory()
    api_client.force_authenticate(alice)
    with committed():
        answers = [api_client.post(invite_url(game), {"username": login}, format="json")
                   for login in (bob.username, bob.email, bob.username.upper(), bob.username)]
    assert [answer.status_code for answer in answers] == [204] * 4
    assert GameInvitation.objects.filter(game=game, invitee=bob).count() == 1
    assert Notification.objects.filter(kind="invitation", user=bob).count() == 1
    assert [message.to for message in mail.outbox] == [[bob.email]]
    # Another game is another invitation.
    other = services.game_create(creator=alice, engine_slug="toy", num_players=2)
    with committed():
        services.game_invite(game_id=other.pk, inviter=alice, login=bob.username)
    assert GameInvitation.objects.filter(invitee=bob).count() == 2
    assert len(mail.outbox) == 2


def test_a_second_player_inviting_the_same_person_sends_nothing_new():
    game, alice = private_game()
    carol, bob = UserFactory(), UserFactory()
    services.game_invite(game_id=game.pk, inviter=alice, login=carol.username)
    services.game_join(game_id=game.pk, user=carol)
    services.game_invite(game_id=game.pk, inviter=alice, login=bob.email)
    services.game_invite(game_id=game.pk, inviter=carol, login=bob.username)
    invitation = GameInvitation.objects.get(game=game, invitee=bob)
    assert invitation.inviter == alice
    assert Notification.objects.filter(kind="invitation", user=bob).count() == 1


# ---- the invited player sees and joins a private game -------------------------------------------


def test_an_invited_player_can_see_and_join_a_private_game(api_client):
    game, alice = private_game(players=3)
    bob, stranger = UserFactory(), UserFactory()
    api_client.force_authenticate(bob)
    assert api_client.get(f"/api/v1/games/{game.pk}/").status_code == 404
    assert api_client.post(f"/api/v1/games/{game.pk}/join/").status_code == 404
    services.game_invite(game_id=game.pk, inviter=alice, login=bob.username)
    assert api_client.get(f"/api/v1/games/{game.pk}/").status_code == 200
    joined = api_client.post(f"/api/v1/games/{game.pk}/join/")
    assert joined.status_code == 200, joined.content
    assert game.seats.filter(user=bob).exists()
    # An uninvited player still finds nothing, on the API and on the page.
    api_client.force_authenticate(stranger)
    assert api_client.get(f"/api/v1/games/{game.pk}/").status_code == 404
    web = Client()
    web.force_login(stranger)
    assert web.get(f"/games/{game.pk}/").status_code == 404


def test_the_game_page_offers_the_invited_player_to_join():
    game, alice = private_game(players=2)
    bob = UserFactory()
    web = Client()
    web.force_login(bob)
    assert web.get(f"/games/{game.pk}/").status_code == 404
    services.game_invite(game_id=game.pk, inviter=alice, login=bob.email)
    page = web.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and f"/games/{game.pk}/join/" in page.content.decode()
    page = web.post(f"/games/{game.pk}/join/", follow=True)
    assert "You joined the game." in page.content.decode()
    assert game.seats.filter(user=bob).exists()


def test_an_invitation_does_not_open_a_running_private_game_to_its_invitee(api_client):
    game, alice = private_game(players=2)
    bob, carol = UserFactory(), UserFactory()
    services.game_invite(game_id=game.pk, inviter=alice, login=carol.username)
    services.game_invite(game_id=game.pk, inviter=alice, login=bob.username)
    services.game_join(game_id=game.pk, user=bob)
    with committed():
        services.game_start(game_id=game.pk, user=alice)
    api_client.force_authenticate(carol)
    assert api_client.get(f"/api/v1/games/{game.pk}/").status_code == 404


# ---- the same answer whoever is named -----------------------------------------------------------


def _named_people(game, alice):
    """Every kind of person an inviter may name, and what each should receive."""
    seated = UserFactory()
    # Seated through the game's invite link (a private game takes no one else uninvited).
    services.game_join(game_id=game.pk, user=seated, via_link=True)
    no_email = UserFactory(email="")
    quiet = UserFactory()
    notification_policy.preference_set(user=quiet, kind="invitation", delivery="never")
    already = UserFactory()
    services.game_invite(game_id=game.pk, inviter=alice, login=already.username)
    fresh = UserFactory()
    return {
        "a player with email": fresh.email,
        "the same player by name": fresh.username,
        "a player without email": no_email.username,
        "a player with invitations off": quiet.username,
        "an already invited player": already.email,
        "a seated player by email": seated.email,
        "an unknown username": "nobody-by-that-name",
        "an unknown email": "nobody@example.org",
    }, {"fresh": fresh, "no_email": no_email, "quiet": quiet, "already": already}


#: Headers that differ from one request to the next whoever is named: the time, the request's
#: id and what is left of the caller's rate limit (each request spends one).
PER_REQUEST = {"Date", "X-Request-ID", "RateLimit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}


def test_the_api_answers_the_same_whoever_is_named(api_client):
    game, alice = private_game(players=4)
    named, people = _named_people(game, alice)
    newly_invited = {people[key].pk for key in ("fresh", "no_email", "quiet")}
    notifications_before = set(Notification.objects.values_list("pk", flat=True))
    api_client.force_authenticate(alice)
    answers = {}
    with committed():
        for label, login in named.items():
            response = api_client.post(invite_url(game), {"username": login}, format="json")
            answers[label] = (response.status_code, response.content,
                              tuple(sorted((key, value) for key, value in
                                               response.headers.items() if key not in PER_REQUEST)))
    assert len(set(answers.values())) == 1, answers
    assert next(iter(answers.values()))[:2] == (204, b"")
    # Only first invitations of existing players who are not seated are recorded and notified
    # (once each); mail goes to the one who has an address and wants it.
    new = Notification.objects.exclude(pk__in=notifications_before)
    assert sorted(n.user_id for n in new) == sorted(newly_invited)
    assert {n.kind for n in new} == {"invitation"}
    invited = set(GameInvitation.objects.filter(game=game).values_list("invitee_id", flat=True))
    assert invited == newly_invited | {people["already"].pk}
    assert [message.to for message in mail.outbox] == [[people["fresh"].email]]


def test_the_web_page_answers_the_same_whoever_is_named():
    game, alice = private_game(players=4)
    named, _ = _named_people(game, alice)
    web = Client()
    web.force_login(alice)
    answers = set()
    for login in named.values():
        page = web.post(f"/games/{game.pk}/invite/", {"username": login}, follow=True)
        assert page.redirect_chain == [(f"/games/{game.pk}/", 302)]
        answers.add(tuple((m.level_tag, str(m)) for m in page.context["messages"]))
    assert answers == {(("success", views.INVITATION_SENT),)}


def test_refusals_speak_of_the_inviter_and_the_game_only(api_client):
    game, alice = private_game(players=2)
    with pytest.raises(InvitationError, match="yourself"):
        services.game_invite(game_id=game.pk, inviter=alice, login=alice.email.upper())
    with pytest.raises(InvitationError, match="yourself"):
        services.game_invite(game_id=game.pk, inviter=alice, login=f" {alice.username} ")
    for blank in ("", "   ", "x" * 255):
        with pytest.raises(InvitationError, match="username or email"):
            services.game_invite(game_id=game.pk, inviter=alice, login=blank)
    outsider = UserFactory()
    with pytest.raises(NotAllowed):
        services.game_invite(game_id=game.pk, inviter=outsider, login="anyone")
    api_client.force_authenticate(alice)
    own = api_client.post(invite_url(game), {"username": alice.username}, format="json")
    assert own.status_code == 422 and own.json()["code"] == "invalid_invitation"
    services.game_join(game_id=game.pk, user=UserFactory(), via_link=True)
    with pytest.raises(LobbyError, match="full"):
        services.game_invite(game_id=game.pk, inviter=alice, login="anyone")
    started, (first, _) = started_game(2)
    with pytest.raises(LobbyError, match="open games"):
        services.game_invite(game_id=started.pk, inviter=first, login="anyone")
    assert not GameInvitation.objects.exists() and not InvitationAttempt.objects.exists()


# ---- the hourly limit ---------------------------------------------------------------------------


def test_every_request_counts_against_the_hourly_limit(settings, api_client):
    settings.GAME_INVITATIONS_PER_HOUR = 4
    game, alice = private_game(players=4)
    other = services.game_create(creator=alice, engine_slug="toy", num_players=2)
    bob = UserFactory()
    start = timezone.now()
    # Known, repeated, unknown, and in another game: four requests, whatever they named.
    for game_id, login, minutes in ((game.pk, bob.username, 0), (game.pk, bob.username, 10),
                                    (game.pk, "nobody", 20), (other.pk, "nobody@x.org", 30)):
        services.game_invite(game_id=game_id, inviter=alice, login=login,
                             now=start + timedelta(minutes=minutes))
    with pytest.raises(InvitationsThrottled) as refused:
        services.game_invite(game_id=game.pk, inviter=alice, login=UserFactory().username,
                             now=start + timedelta(minutes=40))
    assert refused.value.status == 429 and refused.value.details["limit"] == 4
    assert refused.value.details["retry_after_seconds"] == 20 * 60
    assert "try again in 20 minute(s)" in refused.value.message
    assert InvitationAttempt.objects.filter(inviter=alice).count() == 4
    # Another inviter has their own allowance.
    services.game_join(game_id=game.pk, user=(carol := UserFactory()), via_link=True)
    services.game_invite(game_id=game.pk, inviter=carol, login="someone",
                         now=start + timedelta(minutes=40))
    # An hour after the first request, one more is allowed, and old requests are forgotten.
    services.game_invite(game_id=game.pk, inviter=alice, login="someone",
                         now=start + timedelta(minutes=60, seconds=1))
    assert InvitationAttempt.objects.filter(inviter=alice).count() == 4


def test_the_limit_holds_on_the_api_without_the_cache(settings, api_client):
    from django.core.cache import cache

    settings.GAME_INVITATIONS_PER_HOUR = 2
    game, alice = private_game(players=4)
    api_client.force_authenticate(alice)
    codes = []
    for login in ("a-name", "b@example.org", "c-name"):
        cache.clear()  # the API's own throttles forget; the database does not
        codes.append(api_client.post(invite_url(game), {"username": login},
                                     format="json").status_code)
    assert codes == [204, 204, 429]
    body = api_client.post(invite_url(game), {"username": "d"}, format="json").json()
    assert body["code"] == "throttled" and "2 invitations an hour" in body["message"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_requests_cannot_pass_the_limit(settings):
    settings.GAME_INVITATIONS_PER_HOUR = 3
    game, alice = private_game(players=4)
    invitees = [UserFactory() for _ in range(8)]
    outcomes = race([
        (lambda user=user: services.game_invite(game_id=game.pk, inviter=alice,
                                                login=user.username))
        for user in invitees
    ])
    refused = [o for o in outcomes if isinstance(o, InvitationsThrottled)]
    assert len(refused) == 5, outcomes
    assert [o for o in outcomes if o is not None and o not in refused] == []
    assert GameInvitation.objects.filter(game=game).count() == 3
    assert InvitationAttempt.objects.filter(inviter=alice).count() == 3


# ---- timing -------------------------------------------------------------------------------------


def _answer_times(client, game, rounds: int) -> dict[str, float]:
    """Median answer in ms for inviting a new player and for naming nobody, interleaved."""
    players = [UserFactory() for _ in range(rounds)]
    times: dict[str, list[float]] = {"player": [], "nobody": []}
    for player in players:
        for label, login in (("player", player.email), ("nobody", f"no-{player.email}")):
            started = time.perf_counter()
            response = client.post(invite_url(game), {"username": login}, format="json")
            times[label].append(time.perf_counter() - started)
            assert response.status_code == 204
    return {label: statistics.median(values) * 1000 for label, values in times.items()}


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_answer_time_does_not_depend_on_who_is_named(settings, worker_queue):
    """Through the API, with deliveries queued on Redis as in production (no worker started):
    no email is sent inside the request; unpadded, inviting a player takes a few ms longer than
    naming nobody (printed for the record); padded as configured, the two are the same."""
    from rest_framework.test import APIClient

    settings.GAME_INVITATIONS_PER_HOUR = 1000
    rounds = 15
    game, alice = private_game(players=4)
    client = APIClient()
    client.force_authenticate(alice)
    client.post(invite_url(game), {"username": "warm-up"}, format="json")
    raw = _answer_times(client, game, rounds)
    settings.GAME_INVITATION_MIN_SECONDS = 0.25
    padded = _answer_times(client, game, rounds)
    print(f"invite answer, median of {rounds}: unpadded player {raw['player']:.1f} ms, "
          f"nobody {raw['nobody']:.1f} ms; padded player {padded['player']:.1f} ms, "
          f"nobody {padded['nobody']:.1f} ms")
    assert mail.outbox == [] and not worker_queue["outbox"].exists()
    assert Notification.objects.filter(kind="invitation").count() == 2 * rounds
    assert min(padded.values()) >= 250
    assert abs(padded["player"] - padded["nobody"]) < 5
    # A refusal depends on nobody named, so it is not padded (a throttled client holds no
    # worker for long).
    settings.GAME_INVITATIONS_PER_HOUR = 1
    started = time.perf_counter()
    refused = client.post(invite_url(game), {"username": "one-more"}, format="json")
    assert refused.status_code == 429 and time.perf_counter() - started < 0.2


# ---- listings show a private game only to its players and invitees ------------------------------


def test_a_private_open_game_is_listed_only_to_its_players_and_invitees(api_client):
    game, alice = private_game(players=3)
    public = services.game_create(creator=UserFactory(), engine_slug="toy", num_players=2)
    bob, stranger = UserFactory(), UserFactory()
    api_client.force_authenticate(alice)
    with committed():
        assert api_client.post(invite_url(game), {"username": bob.username},
                               format="json").status_code == 204

    def listed(user) -> set[int]:
        client = Client()
        if user is not None:
            client.force_login(user)
        api = client.get("/api/v1/games/?status=open").json()["results"]
        lobby = client.get("/").context["open_games"]
        assert {g["id"] for g in api} >= {g.pk for g in lobby} - {game.pk}
        return {g["id"] for g in api} | {g.pk for g in lobby}

    assert game.pk not in listed(None) and public.pk in listed(None)
    assert game.pk not in listed(stranger) and public.pk in listed(stranger)
    assert game.pk in listed(bob)
    assert game.pk in listed(alice)
