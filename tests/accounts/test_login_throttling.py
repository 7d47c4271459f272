"""Logins that hold: a client cannot pick its identity with X-Forwarded-For, wrong passwords
lock the account (API and web share one counter, whatever address they come from), and a
password change revokes the account's API tokens. Throttle counters live in the real Redis
cache."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import PASSWORD, UserFactory, confirm_email

pytestmark = [pytest.mark.django_db, pytest.mark.redis]

TOKEN_URL = "/api/v1/auth/token/"


def token_login(client, login, password, **extra):
    return client.post(TOKEN_URL, {"username": login, "password": password}, format="json",
                       **extra)


def test_a_spoofed_forwarded_for_does_not_escape_the_per_address_throttle():
    user = confirm_email(UserFactory())
    client = APIClient()
    statuses = [
        token_login(client, user.username, PASSWORD,
                    HTTP_X_FORWARDED_FOR=f"203.0.113.{attempt}").status_code
        for attempt in range(40)
    ]
    print(f"\n40 logins with 40 spoofed X-Forwarded-For values: "
          f"{statuses.count(200)} answered 200, {statuses.count(429)} answered 429")
    # API_THROTTLE_TOKEN allows 10 a minute from one address: the header changes nothing.
    assert statuses[:10] == [200] * 10
    assert set(statuses[10:]) == {429}


def test_trusted_proxies_name_the_client_with_the_address_they_append(settings):
    """Behind one proxy (NUM_PROXIES=1) the last X-Forwarded-For entry is the client: what a
    client writes in front of it is still ignored."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    from rest_framework.settings import api_settings

    api_settings.reload()
    try:
        user = confirm_email(UserFactory())
        client = APIClient()
        spoofed = [
            token_login(client, user.username, PASSWORD,
                        HTTP_X_FORWARDED_FOR=f"10.9.9.{attempt}, 198.51.100.7").status_code
            for attempt in range(12)
        ]
        assert spoofed.count(429) == 2
        elsewhere = token_login(client, user.username, PASSWORD,
                                HTTP_X_FORWARDED_FOR="198.51.100.8")
        assert elsewhere.status_code == 200
    finally:
        settings.REST_FRAMEWORK = {k: v for k, v in settings.REST_FRAMEWORK.items()
                                   if k != "NUM_PROXIES"}
        api_settings.reload()


def test_wrong_passwords_lock_the_account_from_any_address_until_the_window_passes(settings):
    user = confirm_email(UserFactory())
    client = APIClient()
    answers = []
    for attempt in range(55):
        response = token_login(client, user.username, "not-the-password",
                               REMOTE_ADDR=f"192.0.2.{attempt + 1}")
        answers.append(response.status_code)
    print(f"\n55 wrong passwords from 55 addresses: {answers.count(401)} answered 401, "
          f"{answers.count(429)} answered 429")
    right = token_login(client, user.username, PASSWORD, REMOTE_ADDR="198.51.100.99")
    print(f"then the right password from a fresh address: {right.status_code}")
    # ACCOUNT_RATE_LIMITS["login_failed"]: 5 failures per account within the window.
    assert answers[:5] == [401] * 5
    assert set(answers[5:]) == {429}
    assert right.status_code == 429
    body = right.json()
    assert body["code"] == "too_many_login_attempts"
    assert "Too many failed" in body["message"]
    assert body["details"]["retry_after_seconds"] > 0
    assert "token" not in body

    # The same account by its email address is the same account.
    by_email = token_login(client, user.email.upper(), PASSWORD, REMOTE_ADDR="198.51.100.98")
    assert by_email.status_code == 429

    # Another account is not affected.
    other = confirm_email(UserFactory())
    assert token_login(client, other.username, PASSWORD,
                       REMOTE_ADDR="198.51.100.97").status_code == 200


def test_the_lock_ends_when_the_window_passes(settings, time_machine):
    user = confirm_email(UserFactory())
    client = APIClient()
    time_machine.move_to("2026-03-01 10:00:00+00:00", tick=False)
    for attempt in range(5):
        token_login(client, user.username, "wrong", REMOTE_ADDR=f"192.0.2.{attempt + 1}")
    assert token_login(client, user.username, PASSWORD,
                       REMOTE_ADDR="198.51.100.1").status_code == 429
    time_machine.move_to("2026-03-01 10:05:01+00:00", tick=False)
    assert token_login(client, user.username, PASSWORD,
                       REMOTE_ADDR="198.51.100.2").status_code == 200


def test_web_and_api_logins_share_one_failure_counter(client):
    user = confirm_email(UserFactory())
    login_url = reverse("account_login")
    for attempt in range(3):
        page = client.post(login_url, {"login": user.username, "password": "wrong"},
                           REMOTE_ADDR=f"192.0.2.{attempt + 1}")
        assert page.status_code == 200
    api = APIClient()
    for attempt in range(2):
        assert token_login(api, user.email, "wrong",
                           REMOTE_ADDR=f"192.0.2.{attempt + 10}").status_code == 401
    # Five failures in all: the web login refuses the right password too, and so does the API.
    page = client.post(login_url, {"login": user.username, "password": PASSWORD},
                       REMOTE_ADDR="198.51.100.3")
    assert page.status_code == 200
    assert "Too many failed login attempts" in page.content.decode()
    assert "_auth_user_id" not in client.session
    assert token_login(api, user.username, PASSWORD,
                       REMOTE_ADDR="198.51.100.4").status_code == 429


def test_a_successful_login_does_not_use_up_the_allowance():
    user = confirm_email(UserFactory())
    client = APIClient()
    for attempt in range(8):
        assert token_login(client, user.username, PASSWORD,
                           REMOTE_ADDR=f"198.51.100.{attempt + 1}").status_code == 200


def _authorised(token: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get("/api/v1/games/?mine=1").status_code


def _token_for(user) -> str:
    response = token_login(APIClient(), user.username, PASSWORD)
    assert response.status_code == 200, response.content
    return response.json()["token"]


def test_a_password_change_on_the_web_revokes_api_tokens(client):
    user = confirm_email(UserFactory())
    token = _token_for(user)
    assert _authorised(token) == 200
    client.force_login(user)
    response = client.post(reverse("account_change_password"), {
        "oldpassword": PASSWORD, "password1": "another-Long-secret-42",
        "password2": "another-Long-secret-42"})
    assert response.status_code == 302
    assert _authorised(token) == 401
    new_token = token_login(APIClient(), user.username, "another-Long-secret-42").json()["token"]
    assert new_token != token
    assert _authorised(new_token) == 200


def test_a_password_reset_revokes_api_tokens(client, mailoutbox):
    import re

    user = confirm_email(UserFactory())
    token = _token_for(user)
    client.post(reverse("account_reset_password"), {"email": user.email})
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/[^\s]+)",
                     mailoutbox[0].body).group(1)
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else link
    client.post(form_url, {"password1": "brand-New-secret-77", "password2": "brand-New-secret-77"})
    user.refresh_from_db()
    assert user.check_password("brand-New-secret-77")
    assert _authorised(token) == 401


def test_the_admin_setting_a_password_revokes_api_tokens(client):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    user = confirm_email(UserFactory())
    token = _token_for(user)
    client.force_login(admin)
    url = reverse("admin:auth_user_password_change", args=[user.pk]).replace(
        "/auth/user/", "/accounts/user/")
    response = client.post(url, {"password1": "admin-Chosen-secret-5",
                                 "password2": "admin-Chosen-secret-5",
                                 "usable_password": "true"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert _authorised(token) == 401


@pytest.mark.parametrize("change", ["set_password", "set_unusable_password"])
def test_any_saved_password_change_revokes_api_tokens(change):
    user = confirm_email(UserFactory())
    token = _token_for(user)
    if change == "set_password":
        user.set_password("set-Anywhere-secret-8")
    else:
        user.set_unusable_password()
    user.save()
    assert _authorised(token) == 401


def test_saving_other_fields_or_upgrading_the_hash_keeps_api_tokens(settings):
    user = confirm_email(UserFactory())
    token = _token_for(user)
    user.display_name = "Someone"
    user.save()
    user.save(update_fields=["last_login"])
    # A hasher upgrade re-hashes the same password on the next login: not a password change.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher",
                                 "django.contrib.auth.hashers.MD5PasswordHasher"]
    before = type(user).objects.get(pk=user.pk).password
    assert user.check_password(PASSWORD)
    assert type(user).objects.get(pk=user.pk).password != before
    assert _authorised(token) == 200


def test_without_the_cache_the_limits_fail_open_and_logins_still_work(settings, client, caplog):
    """Redis down: the counters cannot be kept, so logins go through (logged) instead of
    every login failing, on the API and the web form alike (allauth's lock is not taken)."""
    from tests.test_cache import unreachable_cache

    user = confirm_email(UserFactory())
    unreachable_cache(settings)
    api = APIClient()
    assert token_login(api, user.username, "wrong").status_code == 401
    response = token_login(api, user.username, PASSWORD)
    assert response.status_code == 200, response.content
    page = client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    assert page.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)
    assert "Exception ignored" in caplog.text


def test_the_admin_login_form_cannot_be_used_to_guess_passwords(client):
    staff = UserFactory(is_staff=True, is_superuser=True)
    response = client.post("/admin/login/", {"username": staff.username, "password": PASSWORD})
    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login") + "?next=/admin/login/")
    assert "_auth_user_id" not in client.session
    # Signed in through the site's login page, staff reach the admin.
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200
