"""Site-wide protections: signup and password reset do not tell who has an account, every
page carries a Content-Security-Policy whose nonce covers its inline code, production refuses
short or development secret keys, and gunicorn believes X-Forwarded-Proto only from the
proxy."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory, started_game

ROOT = Path(__file__).resolve().parents[2]
LONG_KEY = "k" * 20 + "-a-long-random-production-secret-value-9f3k2"


# ---- no account enumeration ---------------------------------------------------------------------

def _signup(client, email, username):
    return client.post(reverse("account_signup"), {
        "email": email, "username": username,
        "password1": "correct-Horse-battery-9", "password2": "correct-Horse-battery-9"})


@pytest.mark.django_db
def test_signup_answers_alike_for_a_registered_and_a_new_address(client, mailoutbox):
    owner = UserFactory(email="taken@example.com")
    taken = _signup(client, "taken@example.com", "newcomer1")
    client.logout()
    fresh = _signup(client, "fresh@example.com", "newcomer2")
    assert taken.status_code == fresh.status_code == 302
    assert taken["Location"] == fresh["Location"]
    # Neither is signed in: both must follow the link mailed to the address.
    assert "_auth_user_id" not in client.session
    users = get_user_model().objects
    assert not users.filter(username="newcomer1").exists()
    assert users.filter(username="newcomer2").exists()
    assert users.filter(email__iexact="taken@example.com").get() == owner
    to_taken = [m for m in mailoutbox if "taken@example.com" in m.to]
    to_fresh = [m for m in mailoutbox if "fresh@example.com" in m.to]
    assert len(to_taken) == len(to_fresh) == 1
    assert "already" in to_taken[0].body.lower()
    assert "/accounts/confirm-email/" in to_fresh[0].body


@pytest.mark.django_db
def test_password_reset_answers_alike_for_a_registered_and_an_unknown_address(client,
                                                                              mailoutbox):
    UserFactory(email="known@example.com")
    known = client.post(reverse("account_reset_password"), {"email": "known@example.com"})
    unknown = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    to_known = [m for m in mailoutbox if m.to == ["known@example.com"]]
    to_unknown = [m for m in mailoutbox if m.to == ["nobody@example.com"]]
    assert len(to_known) == len(to_unknown) == 1
    assert "/accounts/password/reset/key/" in to_known[0].body
    assert "/accounts/password/reset/key/" not in to_unknown[0].body


def _confirmation_link(mailoutbox, address: str) -> str:
    body = next(m.body for m in mailoutbox if address in m.to)
    return re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+)", body).group(1)


@pytest.mark.django_db
def test_the_mailed_link_signs_the_new_player_in_where_they_signed_up(client, mailoutbox):
    assert _signup(client, "dora@example.com", "dora").status_code == 302
    assert "_auth_user_id" not in client.session
    client.post(_confirmation_link(mailoutbox, "dora@example.com"))
    dora = get_user_model().objects.get(username="dora")
    assert int(client.session["_auth_user_id"]) == dora.pk
    assert dora.emailaddress_set.get().verified
    assert client.get(reverse("games:lobby")).status_code == 200


@pytest.mark.django_db
def test_the_link_opened_elsewhere_confirms_but_signs_nobody_in(client, mailoutbox):
    from django.test import Client

    _signup(client, "erin@example.com", "erin")
    elsewhere = Client()
    elsewhere.post(_confirmation_link(mailoutbox, "erin@example.com"))
    assert "_auth_user_id" not in elsewhere.session
    erin = get_user_model().objects.get(username="erin")
    assert erin.emailaddress_set.get().verified
    # Confirmed, the player logs in with the password as usual.
    page = elsewhere.post(reverse("account_login"), {"login": "erin",
                                                     "password": "correct-Horse-battery-9"})
    assert page.status_code == 302
    assert int(elsewhere.session["_auth_user_id"]) == erin.pk


# ---- Content-Security-Policy --------------------------------------------------------------------

INLINE = re.compile(r"<(script|style)\b([^>]*)>", re.IGNORECASE)


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split("; ") if part}


def _assert_inline_code_carries_the_nonce(response):
    policy = _policy(response)
    assert "'unsafe-inline'" not in policy["script-src"]
    assert "'unsafe-inline'" not in policy["style-src"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    page = response.content.decode()
    for tag, attributes in INLINE.findall(page):
        if tag.lower() == "script" and "src=" in attributes:
            continue
        nonce = re.search(r'nonce="([^"]+)"', attributes)
        assert nonce, f"inline <{tag}> without a nonce: {attributes!r}"
        assert f"'nonce-{nonce.group(1)}'" in policy[f"{tag.lower()}-src"]


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ["stone_age", "seven_wonders", "caverna", "toy"])
def test_game_pages_run_their_inline_code_under_the_policy(client, engine):
    game, players = started_game(3 if engine == "seven_wonders" else 2, engine=engine)
    client.force_login(players[0])
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    _assert_inline_code_carries_the_nonce(response)
    # The boards' styles are a static file now (static/css/boards.css), not inline.
    assert "css/boards.css" in response.content.decode() or engine == "toy"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["games:lobby", "games:create", "account_login",
                                  "account_signup", "account_reset_password",
                                  "accounts:profile"])
def test_every_page_carries_the_policy(client, name):
    client.force_login(UserFactory()) if name not in (
        "account_login", "account_signup", "account_reset_password") else None
    response = client.get(reverse(name))
    assert response.status_code == 200
    _assert_inline_code_carries_the_nonce(response)
    first = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"])
    again = client.get(reverse(name))
    second = re.search(r"'nonce-([^']+)'", again["Content-Security-Policy"])
    if first or second:
        assert first.group(1) != second.group(1)  # a fresh nonce per response


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["api-docs", "api-redoc"])
def test_the_api_docs_load_nothing_from_outside(client, name):
    """Swagger UI and Redoc come from our static files (offline docs); the pages' policies
    allow no other host, and every script and stylesheet they name is one we serve."""
    from django.contrib.staticfiles import finders

    docs = client.get(reverse(name))
    assert docs.status_code == 200
    html = docs.content.decode()
    scripts = [client.get("/api/docs/?script=").content.decode()] if name == "api-docs" else []
    for text in [html, *scripts]:
        assert not re.search(r"https?://", text), re.findall(r"https?://[^\s\"']+", text)
    for directive, sources in _policy(docs).items():
        assert not any(source.startswith("http") for source in sources), (directive, sources)
    assets = re.findall(r"/static/([^\"'\s]+\.(?:js|css|png))", "\n".join([html, *scripts]))
    assert any(asset.endswith(".js") for asset in assets), assets
    for asset in assets:
        assert finders.find(asset), asset
    if name == "api-docs":
        assert "<script src=\"/api/docs/?script=\"" in html


# ---- secret key in production -------------------------------------------------------------------

def _check(tmp_path, **extra):
    env = {**os.environ, "DJANGO_DEBUG": "false", "DATA_DIR": str(tmp_path),
           "DJANGO_ALLOWED_HOSTS": "turnpost.example", **extra}
    # Loading the settings is what start-up does first (manage.py, gunicorn, celery).
    return subprocess.run([sys.executable, "-c", "import config.settings"], cwd=ROOT, env=env,
                          capture_output=True, text=True)


@pytest.mark.parametrize("key, reason", [
    ("short-but-secret-0123456789", "has 27 characters"),
    ("insecure-development-key-only-for-the-embedded-defaults-never-in-production",
     "development key"),
    ("django-insecure-" + "x1y2z3" * 10, "development key"),
    ("a" * 64, "at least 50"),
])
def test_production_refuses_a_weak_secret_key_at_start_up(tmp_path, key, reason):
    result = _check(tmp_path, DJANGO_SECRET_KEY=key)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "ImproperlyConfigured" in output and reason in output, output[-1500:]


def test_production_starts_with_a_long_random_key(tmp_path):
    result = _check(tmp_path, DJANGO_SECRET_KEY=LONG_KEY)
    assert result.returncode == 0, result.stdout + result.stderr


# ---- gunicorn and X-Forwarded-Proto -------------------------------------------------------------

PORT = 8223


def _get(path: str, source: str, headers: dict) -> tuple[int, str]:
    """A request from `source` (another loopback address stands for a client that reaches
    gunicorn directly, not through the proxy)."""
    sock = socket.create_connection(("127.0.0.1", PORT), timeout=10, source_address=(source, 0))
    lines = [f"GET {path} HTTP/1.1", "Host: turnpost.example", "Connection: close",
             *[f"{name}: {value}" for name, value in headers.items()], "", ""]
    sock.sendall("\r\n".join(lines).encode())
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    sock.close()
    head = data.split(b"\r\n\r\n", 1)[0].decode()
    status = int(head.split()[1])
    location = next((line.split(": ", 1)[1] for line in head.split("\r\n")
                     if line.lower().startswith("location:")), "")
    return status, location


@pytest.fixture
def gunicorn_server(tmp_path):
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": LONG_KEY,
           "DJANGO_ALLOWED_HOSTS": "turnpost.example", "DATA_DIR": str(tmp_path),
           "GUNICORN_BIND": f"127.0.0.1:{PORT}", "GUNICORN_WORKERS": "1"}
    env.pop("FORWARDED_ALLOW_IPS", None)
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    env.pop("REDIS_CACHE_URL", None)
    log = open(tmp_path / "gunicorn.log", "w+")  # noqa: SIM115 - closed at teardown
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py"],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/", timeout=1)
        except urllib.error.HTTPError:
            break  # it answers (a redirect to https or a 400 is an answer)
        except OSError:
            time.sleep(0.3)
        else:
            break
    yield process
    process.terminate()
    process.wait(20)
    log.seek(0)
    print(log.read()[-3000:])
    log.close()


def test_only_the_proxy_may_say_a_request_came_over_https(gunicorn_server):
    https = {"X-Forwarded-Proto": "https"}
    # Through the proxy (127.0.0.1, the default FORWARDED_ALLOW_IPS): served as https.
    assert _get("/api/v1/engines/", "127.0.0.1", https)[0] == 200
    # Plain http through the proxy is redirected to https.
    status, location = _get("/api/v1/engines/", "127.0.0.1", {})
    assert status == 301 and location.startswith("https://turnpost.example/")
    # A client talking to gunicorn directly cannot claim https.
    status, location = _get("/api/v1/engines/", "127.0.0.2", https)
    assert status == 301 and location.startswith("https://")


def test_the_image_runs_gunicorn_with_the_proxy_settings():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert 'CMD ["gunicorn", "-c", "config/gunicorn.py"]' in dockerfile
    assert '"*"' not in dockerfile
    assert "FORWARDED_ALLOW_IPS=127.0.0.1" in dockerfile


@pytest.mark.django_db
def test_an_unconfirmed_address_is_asked_for_at_login(client, mailoutbox):
    user = UserFactory()
    response = client.post(reverse("account_login"), {"login": user.username,
                                                      "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session
    assert [m.to for m in mailoutbox] == [[user.email]]
