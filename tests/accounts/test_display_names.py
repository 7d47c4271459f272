"""Display names cannot pass for another player, hide direction controls, or be blank: the
settings page, the admin and the API serializer all refuse them with a clear message."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.api.serializers import UserSerializer
from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

IMITATIONS = [
    "Alice",            # another player's username, other case
    "ALICE",
    "\u0410lice",       # Cyrillic capital A
    "AIice",            # capital I for l
    "a l i c e",        # spaced out
    "alice_",           # a separator added
    "\uff21lice",       # fullwidth A
    "Queen Bee",        # another player's display name
    "queen\u200bbee",   # ... with a zero-width space
]
HIDDEN = [
    "\u202eecila",      # right-to-left override
    "Bob\u2066x\u2069",  # isolates
    "Bob\u200f",        # right-to-left mark
    "\u061cBob",        # Arabic letter mark
]
BLANK = ["\u200b\u200b", "\u3164", "\u2800\u2800", "\u200d", "\u00a0\u200b"]


@pytest.fixture
def players():
    alice = UserFactory(username="alice")
    UserFactory(username="bee", display_name="Queen Bee")
    return alice, UserFactory(username="carol")


def _profile_post(client, user, name):
    client.force_login(user)
    return client.post(reverse("accounts:profile"), {"display_name": name, "timezone": "UTC"})


@pytest.mark.parametrize("name", IMITATIONS)
def test_a_name_that_looks_like_another_players_is_refused(client, players, name):
    _, carol = players
    response = _profile_post(client, carol, name)
    assert response.status_code == 200
    assert "looks like another player" in response.content.decode()
    carol.refresh_from_db()
    assert carol.display_name == ""


@pytest.mark.parametrize("name", HIDDEN)
def test_direction_controls_are_refused(client, players, name):
    _, carol = players
    response = _profile_post(client, carol, name)
    assert "text-direction control characters" in response.content.decode()
    carol.refresh_from_db()
    assert carol.display_name == ""


@pytest.mark.parametrize("name", BLANK)
def test_a_name_of_invisible_characters_only_is_refused(client, players, name):
    _, carol = players
    response = _profile_post(client, carol, name)
    assert response.status_code == 200
    page = response.content.decode()
    assert "at least one visible character" in page or "This field" in page, page
    carol.refresh_from_db()
    assert carol.display_name == ""


def test_spaces_alone_mean_no_display_name(client, players):
    _, carol = players
    assert _profile_post(client, carol, "\u00a0 \u3000").status_code == 302
    carol.refresh_from_db()
    assert carol.display_name == "" and carol.public_name == "carol"


@pytest.mark.parametrize("name", ["Carol", "Carla the Bold", "Zoë", "Chloé 🎲", "ａｌｉｃｅｓ"])
def test_ordinary_names_are_kept(client, players, name):
    _, carol = players
    response = _profile_post(client, carol, name)
    assert response.status_code == 302
    carol.refresh_from_db()
    assert carol.display_name == name


def test_a_player_may_show_their_own_username_differently(client, players):
    alice, _ = players
    assert _profile_post(client, alice, "ALICE").status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "ALICE"


def test_the_admin_refuses_an_imitating_display_name(client, players):
    _, carol = players
    admin = User.objects.create_superuser("root", "root@example.com", PASSWORD)
    client.force_login(admin)
    url = reverse("admin:accounts_user_change", args=[carol.pk])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update({"display_name": "\u0410lice", "date_joined_0": "2026-01-01",
                 "date_joined_1": "10:00:00", "last_login_0": "", "last_login_1": "",
                 "groups": [], "user_permissions": [],
                 "sanctions-TOTAL_FORMS": 0, "sanctions-INITIAL_FORMS": 0,
                 "vacations-TOTAL_FORMS": 0, "vacations-INITIAL_FORMS": 0})
    data.pop("password", None)
    response = client.post(url, data)
    assert response.status_code == 200
    assert "looks like another player" in response.content.decode()
    carol.refresh_from_db()
    assert carol.display_name == ""
    data["display_name"] = "Carol the Admin-Named"
    assert client.post(url, data).status_code == 302
    carol.refresh_from_db()
    assert carol.display_name == "Carol the Admin-Named"


def test_the_api_serializer_refuses_the_same_names(players):
    _, carol = players
    for name in ("\u0410lice", "\u202eecila", "\u200b"):
        serializer = UserSerializer(carol, data={"display_name": name}, partial=True)
        assert not serializer.is_valid()
        assert "display_name" in serializer.errors
    serializer = UserSerializer(carol, data={"display_name": "Carol"}, partial=True)
    assert serializer.is_valid(), serializer.errors


@pytest.mark.parametrize("username, reason", [
    ("\u0430lice", "looks like another player"),     # Cyrillic a
    ("Qu\u0435enBee", "looks like another player"),  # Cyrillic e, another's display name
    ("ALICE", "already exists"),                      # allauth's own check
])
def test_signup_refuses_a_username_that_looks_like_another_players_name(client, players,
                                                                         username, reason):
    response = client.post(reverse("account_signup"), {
        "email": "newcomer@example.com", "username": username,
        "password1": "correct-Horse-battery-9", "password2": "correct-Horse-battery-9"})
    assert response.status_code == 200
    page = response.content.decode()
    assert reason in page, page
    assert not User.objects.filter(email="newcomer@example.com").exists()


def test_signup_accepts_an_ordinary_new_username(client, players):
    response = client.post(reverse("account_signup"), {
        "email": "newcomer@example.com", "username": "newcomer",
        "password1": "correct-Horse-battery-9", "password2": "correct-Horse-battery-9"})
    assert response.status_code == 302
    assert User.objects.filter(username="newcomer").exists()
